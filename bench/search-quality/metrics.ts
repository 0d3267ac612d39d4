// Ranking metrics of the search quality benchmark, over graded judgements (0 to 3; an item not
// judged is 0). Pure: a ranked list of keys and the judgements in, numbers out.
//
// - nDCG@k: DCG of the top k with gain 2^grade - 1 and discount log2(rank + 1), divided by the
//   DCG of the ideal order of ALL the query's judged items (so a relevant item the engine never
//   returned still raises the ideal). Given each result's tie key (the engine's score), products
//   it ties are each credited their run's mean gain at their places (McSherry and Najork, "Computing
//   information retrieval performance measures efficiently in the presence of tied scores", 2008):
//   the DCG every order of them averages. The engine orders a tie by item id, new in each run, so
//   without this a query's nDCG moved by up to 0.3 between two runs of the same build.
// - recall@k: the items of grade >= 2 found in the top k over all the query's items of grade >= 2;
//   null for a query that judges none (it is left out of averages rather than counted as 0 or 1).
// A key returned twice counts once, at its first rank.

export type Grades = ReadonlyMap<string, number>;

export const gain = (grade: number): number => 2 ** grade - 1;

/** Σ gain(grade_i) / log2(i + 2) over the list, i from 0. */
export function dcg(grades: readonly number[]): number {
  return grades.reduce((sum, grade, i) => sum + gain(grade) / Math.log2(i + 2), 0);
}

/** The first occurrence of each key, in order. */
export function distinct(ranked: readonly string[]): string[] {
  return [...new Set(ranked)];
}

/**
 * `ties`: each ranked key's tie key, same order (results next to each other with the same one are
 * tied); without it no two are. Only the ranked list's own members of a tie are known: a tie that
 * runs past its end is averaged over the members it shows.
 */
export function ndcgAt(k: number, ranked: readonly string[], grades: Grades, ties?: ReadonlyArray<string | number>): number {
  const ideal = dcg([...grades.values()].sort((a, b) => b - a).slice(0, k));
  if (ideal === 0) return 0;
  const seen = new Set<string>();
  const kept: Array<{ gain: number; tie: string | number | undefined }> = [];
  ranked.forEach((key, at) => {
    if (seen.has(key)) return;
    seen.add(key);
    kept.push({ gain: gain(grades.get(key) ?? 0), tie: ties?.[at] });
  });
  let total = 0;
  for (let start = 0; start < Math.min(k, kept.length); ) {
    let end = start + 1;
    while (ties && end < kept.length && kept[end]!.tie === kept[start]!.tie) end++;
    let gains = 0;
    for (let i = start; i < end; i++) gains += kept[i]!.gain;
    for (let i = start; i < Math.min(end, k); i++) total += gains / (end - start) / Math.log2(i + 2);
    start = end;
  }
  return total / ideal;
}

export function recallAt(k: number, ranked: readonly string[], grades: Grades, minGrade = 2): number | null {
  const relevant = [...grades].filter(([, grade]) => grade >= minGrade).map(([key]) => key);
  if (!relevant.length) return null;
  const top = new Set(distinct(ranked).slice(0, k));
  return relevant.filter((key) => top.has(key)).length / relevant.length;
}

/** The mean of the numbers given, nulls left out; null when there are none. */
export function mean(values: ReadonlyArray<number | null>): number | null {
  const present = values.filter((v): v is number => v !== null);
  return present.length ? present.reduce((a, b) => a + b, 0) / present.length : null;
}

export interface QueryScore {
  id: string;
  type: string;
  /** Null where there is nothing to find (see the buyable view): left out of averages, as recall is. */
  ndcg10: number | null;
  recall20: number | null;
}

export interface TypeSummary {
  type: string;
  queries: number;
  ndcg10: number | null;
  recall20: number | null;
}

/** Per query type, in the order types first appear, then `overall` (a mean over queries, not over types). */
export function summarise(scores: readonly QueryScore[]): TypeSummary[] {
  const types = [...new Set(scores.map((s) => s.type))];
  const row = (type: string, of: readonly QueryScore[]): TypeSummary => ({
    type,
    queries: of.length,
    ndcg10: mean(of.map((s) => s.ndcg10)),
    recall20: mean(of.map((s) => s.recall20)),
  });
  return [...types.map((type) => row(type, scores.filter((s) => s.type === type))), row('overall', scores)];
}
