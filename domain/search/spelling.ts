// Spelling correction for shopper words: an unknown word becomes the nearest vocabulary word within
// a small Damerau-Levenshtein distance ("sweter" → sweater, "addidas" → adidas). Pure.

export interface SpellingTarget {
  word: string;
  /** Lower is preferred on a tie: 0 for the vocabulary's own names, then cues, then hints. */
  tier: number;
}

/** Misspellings keep their first letter, or swap their first two ("aprka"); candidates are indexed by it and their length. */
export class Speller {
  private readonly byFirstLetter = new Map<string, Array<SpellingTarget & { order: number }>>();

  constructor(targets: readonly SpellingTarget[]) {
    const best = new Map<string, SpellingTarget & { order: number }>();
    targets.forEach((t, order) => {
      const seen = best.get(t.word);
      if (!seen || t.tier < seen.tier) best.set(t.word, { ...t, order: seen?.order ?? order });
    });
    for (const target of best.values()) {
      const key = target.word[0]! + target.word.length;
      const list = this.byFirstLetter.get(key) ?? [];
      list.push(target);
      this.byFirstLetter.set(key, list);
    }
  }

  /**
   * The word meant, or null: only letters, four or more of them; distance 1 for 4 to 7 letters, 2
   * for 8 or more; on a tie the lower tier, then the earlier listed word.
   */
  correct(word: string): string | null {
    if (word.length < 4 || !/^[a-z]+$/.test(word) || /(ing|ly)$/.test(word)) return null;
    const max = word.length >= 8 ? 2 : 1;
    let best: (SpellingTarget & { order: number; distance: number }) | null = null;
    const consider = (target: SpellingTarget & { order: number }) => {
      if (Math.abs(target.word.length - word.length) > max) return;
      const distance = boundedDistance(word, target.word, max);
      if (distance > max || distance === 0) return;
      if (!best || distance < best.distance || (distance === best.distance && (target.tier < best.tier || (target.tier === best.tier && target.order < best.order)))) {
        best = { ...target, distance };
      }
    };
    for (let length = word.length - max; length <= word.length + max; length++) {
      for (const target of this.byFirstLetter.get(word[0]! + length) ?? []) consider(target);
      for (const target of this.byFirstLetter.get(word[1]! + length) ?? []) if (target.word[1] === word[0]) consider(target);
    }
    return (best as { word: string } | null)?.word ?? null;
  }
}

// Rows reused between calls (the distance is computed synchronously, start to end).
const SCRATCH = 64;
const scratch: [Uint8Array, Uint8Array, Uint8Array] = [new Uint8Array(SCRATCH), new Uint8Array(SCRATCH), new Uint8Array(SCRATCH)];

/** Optimal string alignment distance (Damerau-Levenshtein without repeated edits), or max + 1 once it must exceed max. */
export function boundedDistance(a: string, b: string, max: number): number {
  if (a === b) return 0;
  if (b.length >= SCRATCH) return max + 1;
  let [previous2, previous, row] = scratch;
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let d = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, previous2[j - 2]! + 1);
      row[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max) return max + 1;
    [previous2, previous, row] = [previous, row, previous2];
  }
  return previous[b.length]!;
}
