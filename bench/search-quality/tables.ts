// The per-type table of a search-quality run (bench/results/search-quality.json, or the file
// given), for every query it scored and again for the first 67 queries (issue 13) and the 30
// vocabulary queries (issue 28) on their own, so runs with and without the new queries compare.
//   node --import tsx bench/search-quality/tables.ts [results.json]
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { summarise, type QueryScore } from './metrics.js';
import { FIRST_QUERIES, VOCABULARY_QUERIES } from './queries.js';

const fixed = (value: number | null) => (value === null ? '–' : value.toFixed(3));

/** A markdown table of `scores` by query type, overall last. */
export function typeTable(scores: readonly QueryScore[]): string {
  const lines = ['| Query type | Queries | nDCG@10 | recall@20 |', '| --- | --- | --- | --- |'];
  for (const row of summarise(scores)) {
    const overall = row.type === 'overall';
    const cell = (v: number | null) => (overall ? `**${fixed(v)}**` : fixed(v));
    lines.push(`| ${overall ? '**overall**' : row.type} | ${row.queries} | ${cell(row.ndcg10)} | ${cell(row.recall20)} |`);
  }
  return lines.join('\n');
}

function main(): void {
  const file = process.argv[2] ?? new URL('../results/search-quality.json', import.meta.url);
  const run = JSON.parse(readFileSync(file, 'utf8')) as { at: string; queries: QueryScore[] };
  const first = new Set(FIRST_QUERIES.map((q) => q.id));
  const vocabulary = new Set(VOCABULARY_QUERIES.map((q) => q.id));
  const parts: Array<[string, QueryScore[]]> = [
    [`all ${run.queries.length} queries`, run.queries],
    ['the first 67 queries (issue 13)', run.queries.filter((q) => first.has(q.id))],
    ['the 30 vocabulary queries (issue 28)', run.queries.filter((q) => vocabulary.has(q.id))],
  ];
  console.log(`run of ${run.at}`);
  for (const [name, scores] of parts) if (scores.length) console.log(`\n${name}:\n${typeTable(scores)}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
