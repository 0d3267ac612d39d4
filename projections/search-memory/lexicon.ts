// The lexemes the search memory holds, numbered once for every dataset, and a weighted tsvector's
// text form read as lexeme ids and weights (the stemming is Postgres's own, done when the document
// was projected).
import { DOCUMENT_FIELD_WEIGHTS } from '../../domain/search/document.js';

/** Every lexeme any dataset holds, numbered once, with a sorted view for prefix matches. */
export class Lexicon {
  private readonly ids = new Map<string, number>();
  private readonly words: string[] = [];
  private sorted: Array<[string, number]> | null = null;

  id(lexeme: string): number {
    let id = this.ids.get(lexeme);
    if (id === undefined) {
      id = this.words.length;
      this.ids.set(lexeme, id);
      this.words.push(lexeme);
      this.sorted = null;
    }
    return id;
  }

  find(lexeme: string): number | undefined {
    return this.ids.get(lexeme);
  }

  /** The lexeme numbered `id`. */
  word(id: number): string | undefined {
    return this.words[id];
  }

  get size(): number {
    return this.words.length;
  }

  /** Ids of every lexeme that starts with `prefix`. */
  withPrefix(prefix: string): number[] {
    this.sorted ??= [...this.ids].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    const list = this.sorted;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]![0] < prefix) lo = mid + 1;
      else hi = mid;
    }
    const found: number[] = [];
    for (let i = lo; i < list.length && list[i]![0].startsWith(prefix); i++) found.push(list[i]![1]);
    return found;
  }
}

const WEIGHT_OF: Readonly<Record<string, number>> = DOCUMENT_FIELD_WEIGHTS;
/** Each further occurrence of a lexeme adds this share of its weight, up to REPEATS_COUNTED of them. */
const REPEAT_SHARE = 0.1;
const REPEATS_COUNTED = 4;

/**
 * A tsvector's text form (`'dress':1A,4B 'red':2`) as lexemes and weights: the best weight of each
 * lexeme's positions, a little more for each repeat. A position without a letter is weight D.
 */
export function parseDocument(text: string, lexicon: Lexicon): { terms: Uint32Array; weights: Float32Array } {
  const pairs: Array<[number, number]> = [];
  for (const { lexeme, suffix } of quotedLexemes(text)) {
    const positions = suffix ? suffix.slice(1).split(',') : [''];
    let best = 0;
    for (const position of positions) best = Math.max(best, WEIGHT_OF[position.slice(-1)] ?? WEIGHT_OF.D!);
    const weight = best * (1 + REPEAT_SHARE * Math.min(REPEATS_COUNTED, positions.length - 1));
    pairs.push([lexicon.id(lexeme), weight]);
  }
  pairs.sort((a, b) => a[0] - b[0]);
  return { terms: Uint32Array.from(pairs, (p) => p[0]), weights: Float32Array.from(pairs, (p) => p[1]) };
}

/**
 * The quoted lexemes of a tsvector's or a tsquery's text form, each with what follows its closing
 * quote: positions and weights (`:1A,6B`) in a tsvector, `:*` for a prefix in a tsquery.
 */
export function* quotedLexemes(text: string): Generator<{ lexeme: string; suffix: string }> {
  for (const match of text.matchAll(/'((?:[^']|'')*)'(:[0-9A-D,*]+)?/g)) yield { lexeme: match[1]!.replace(/''/g, "'"), suffix: match[2] ?? '' };
}
