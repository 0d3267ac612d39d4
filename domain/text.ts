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

/**
 * The first string or key that is not well-formed text, or a value nested deeper than `maxDepth`.
 * An object's own keys are looked at before its values, its values last to first. It recurses at
 * most `maxDepth` + 1 levels, so it cannot overflow the stack; it allocates nothing but a list of
 * keys per object and the path of a problem it finds (a feed's every product goes through it).
 */
export function valueProblem(value: unknown, maxDepth: number): ValueProblem | null {
  const path: string[] = [];
  // An empty key adds no dot after it (`{"": {"a": …}}` is at `a`), as the path has always read.
  const problem = (kind: ValueProblem['kind']): ValueProblem => ({ kind, path: path.reduce((at, key) => (at ? `${at}.${key}` : key), '') });
  const visit = (current: unknown, depth: number): ValueProblem | null => {
    if (typeof current === 'string') return wellFormedText(current) ? null : problem('text');
    if (current === null || typeof current !== 'object') return null;
    if (depth > maxDepth) return problem('depth');
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) {
        const item: unknown = current[i];
        // Only containers and strings can hold a problem: a number's index is never put in the path.
        if (item === null || (typeof item !== 'object' && typeof item !== 'string')) continue;
        path.push(String(i));
        const found = visit(item, depth + 1);
        if (found) return found;
        path.pop();
      }
      return null;
    }
    const keys = Object.keys(current);
    for (const key of keys) {
      if (!wellFormedText(key)) {
        path.push(key);
        return problem('text');
      }
    }
    for (let i = keys.length - 1; i >= 0; i--) {
      const item: unknown = (current as Record<string, unknown>)[keys[i]!];
      if (item === null || (typeof item !== 'object' && typeof item !== 'string')) continue;
      path.push(keys[i]!);
      const found = visit(item, depth + 1);
      if (found) return found;
      path.pop();
    }
    return null;
  };
  return visit(value, 1);
}
