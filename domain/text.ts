// Text that no store should keep: NUL characters (Postgres text and jsonb refuse them) and unpaired
// surrogates (not Unicode; they fail encoders and databases far from where they came in).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const TEXT_PROBLEM = 'must not contain NUL characters or unpaired surrogates';

export const wellFormedText = (text: string): boolean => !text.includes('\u0000') && !LONE_SURROGATE.test(text);

export interface ValueProblem {
  kind: 'text' | 'depth';
  /** Dotted path of the offending value (`variants.3.title`), '' for the root. */
  path: string;
}

/** The first string or key that is not well-formed text, or a value nested deeper than `maxDepth`. Iterative: never overflows itself. */
export function valueProblem(value: unknown, maxDepth: number): ValueProblem | null {
  const stack: Array<[unknown, number, string]> = [[value, 1, '']];
  while (stack.length) {
    const [current, depth, path] = stack.pop()!;
    if (typeof current === 'string') {
      if (!wellFormedText(current)) return { kind: 'text', path };
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (depth > maxDepth) return { kind: 'depth', path };
    const entries: Array<[string, unknown]> = Array.isArray(current) ? current.map((item, i) => [String(i), item]) : Object.entries(current);
    for (const [key, item] of entries) {
      const at = path ? `${path}.${key}` : key;
      if (!wellFormedText(key)) return { kind: 'text', path: at };
      stack.push([item, depth + 1, at]);
    }
  }
  return null;
}
