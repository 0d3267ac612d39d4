// Sanity check of the judged query set (queries.ts) against the fixture feeds. It checks the
// bookkeeping only, not the grades: every judged (feed, id) and every similarTo product exists in its
// feed, no product is judged twice in one query, a query scoped to a store judges only that store's
// products, a similar query does not judge its own source product, and every query has an item of
// grade >= 2. Then it prints counts per query type. The feeds live outside the repo
// (../shared/fixtures/shopify); without them the check is skipped with a notice.
//   node --import tsx bench/search-quality/check-judgements.ts
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FEEDS, JUDGED_QUERIES, type JudgedQuery } from './queries.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dir = path.resolve(repoRoot, '../shared/fixtures/shopify');
if (!existsSync(dir)) {
  console.log(`no feeds at ${dir}; skipping the judgement check`);
  process.exit(0);
}

const ids = new Map<string, Set<string>>();
for (const feed of FEEDS) {
  const file = path.join(dir, feed);
  if (!existsSync(file)) {
    ids.set(feed, new Set());
    continue;
  }
  const text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  const body = JSON.parse(text) as unknown;
  const products = (Array.isArray(body) ? body : ((body as { products?: unknown[] }).products ?? [])) as Array<{ id: number | string }>;
  ids.set(feed, new Set(products.map((p) => String(p.id))));
}

const problems: string[] = [];
const missingFeeds = FEEDS.filter((f) => (ids.get(f)?.size ?? 0) === 0);
for (const f of missingFeeds) problems.push(`feed ${f} missing or empty`);

const seenIds = new Set<string>();
for (const q of JUDGED_QUERIES) {
  if (seenIds.has(q.id)) problems.push(`${q.id}: duplicate query id`);
  seenIds.add(q.id);
  if (!q.text.trim()) problems.push(`${q.id}: empty text`);
  if (q.store && !FEEDS.includes(q.store)) problems.push(`${q.id}: unknown store ${q.store}`);
  if (q.type === 'budget' && !q.store) problems.push(`${q.id}: budget query without a store`);
  if (q.type === 'similar' && !q.similarTo) problems.push(`${q.id}: similar query without similarTo`);
  if (q.similarTo) {
    if (!ids.get(q.similarTo.feed)?.has(q.similarTo.id)) problems.push(`${q.id}: similarTo ${q.similarTo.feed}#${q.similarTo.id} not found`);
    if (q.judgements.some((x) => x.feed === q.similarTo?.feed && x.id === q.similarTo.id)) problems.push(`${q.id}: judges its own similarTo product`);
  }
  const seen = new Set<string>();
  for (const x of q.judgements) {
    const key = `${x.feed}#${x.id}`;
    if (seen.has(key)) problems.push(`${q.id}: ${key} judged twice`);
    seen.add(key);
    if (!ids.get(x.feed)?.has(x.id)) problems.push(`${q.id}: ${key} not found in the feed`);
    if (q.store && x.feed !== q.store) problems.push(`${q.id}: ${key} is outside the query's store`);
    if (![1, 2, 3].includes(x.grade)) problems.push(`${q.id}: ${key} has grade ${String(x.grade)}`);
    if (!x.why.trim()) problems.push(`${q.id}: ${key} has no note`);
  }
  if (!q.judgements.some((x) => x.grade >= 2)) problems.push(`${q.id}: no item of grade >= 2`);
}

const types: JudgedQuery['type'][] = ['garment', 'colour', 'occasion', 'budget', 'gender', 'misspelling', 'similar', 'attribute', 'size'];
const rows = types.map((type) => {
  const qs = JUDGED_QUERIES.filter((q) => q.type === type);
  const all = qs.flatMap((q) => q.judgements);
  return {
    type,
    queries: qs.length,
    scoped: qs.filter((q) => q.store).length,
    judged: all.length,
    g3: all.filter((x) => x.grade === 3).length,
    g2: all.filter((x) => x.grade === 2).length,
    g1: all.filter((x) => x.grade === 1).length,
    relPerQuery: qs.length ? (all.filter((x) => x.grade >= 2).length / qs.length).toFixed(1) : '-',
  };
});
const total = rows.reduce(
  (t, r) => ({ queries: t.queries + r.queries, scoped: t.scoped + r.scoped, judged: t.judged + r.judged, g3: t.g3 + r.g3, g2: t.g2 + r.g2, g1: t.g1 + r.g1 }),
  { queries: 0, scoped: 0, judged: 0, g3: 0, g2: 0, g1: 0 },
);
const header = ['type', 'queries', 'scoped', 'judged', 'grade 3', 'grade 2', 'grade 1', 'grade>=2 per query'];
const body = rows.map((r) => [r.type, r.queries, r.scoped, r.judged, r.g3, r.g2, r.g1, r.relPerQuery].map(String));
body.push(['total', total.queries, total.scoped, total.judged, total.g3, total.g2, total.g1, (total.queries ? (total.g3 + total.g2) / total.queries : 0).toFixed(1)].map(String));
const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]?.length ?? 0)));
const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`;
console.log(line(header));
console.log(`| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`);
for (const r of body) console.log(line(r));

const thin = rows.filter((r) => ['garment', 'colour', 'occasion', 'budget', 'gender', 'misspelling', 'similar'].includes(r.type) && r.queries < 6);
for (const r of thin) problems.push(`type ${r.type} has only ${r.queries} queries (want >= 6)`);
if (total.queries < 64) problems.push(`only ${total.queries} queries (want >= 64)`);

if (problems.length) {
  console.log(`\n${problems.length} problem(s):`);
  for (const p of problems) console.log(`- ${p}`);
  process.exit(1);
}
console.log(`\nok: ${total.queries} queries, ${total.judged} judgements, all products found in the feeds`);
