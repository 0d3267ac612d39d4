// Sanity check of the judged conversations (conversations.ts) against the fixture feeds. It checks
// the bookkeeping and the hard constraints, not the grades: every ProductRef (judged products, page,
// cart lines, expected cart products) exists in its feed, scoped conversations only name their own
// store's products, no product is judged twice in one turn, every grade-3 product respects its
// turn's budget (lowest in-stock variant price; the lowest price when nothing is in stock) and size
// (a variant with that option value in stock), look products sit in one of the look's slots, cart
// actions name existing lines and in-stock sizes, and a 'cheaper' turn's grade >= 2 products are
// below the median price of the previous turn's grade-3 products. Then it prints counts per kind
// and per store. The feeds live outside the repo (../shared/fixtures/shopify); without them the
// check is skipped with a notice. Exits 1 on any problem.
//   node --import tsx bench/agent-quality/check.ts
import { FEEDS_DIR, missingFeeds, readFeed, type ShopifyProduct } from '../search-quality/feeds.js';
import { FEED_LIST, JUDGED_CONVERSATIONS, type ExpectTurn, type Feed, type Judged, type JudgedConversation, type ProductRef } from './conversations.js';

const KINDS: JudgedConversation['kind'][] = ['single', 'refine', 'open', 'look', 'cart'];
const MIN_PER_KIND: Record<JudgedConversation['kind'], number> = { single: 20, refine: 14, open: 10, look: 10, cart: 10 };
const MAX_EMPTY = 4;

const missing = missingFeeds();
if (missing.length === FEED_LIST.length) {
  console.log(`no feeds at ${FEEDS_DIR}; skipping the conversation check`);
  process.exit(0);
}

interface Variant {
  price: number;
  available: boolean;
  values: string[];
}

const catalogue = new Map<Feed, Map<string, ShopifyProduct>>();
for (const feed of FEED_LIST) {
  const products = missing.includes(feed) ? [] : readFeed(feed);
  catalogue.set(feed, new Map(products.map((p) => [String(p.id), p])));
}

const problems: string[] = [];
const keyOf = (r: ProductRef) => `${r.feed}#${r.id}`;
const product = (r: ProductRef): ShopifyProduct | undefined => catalogue.get(r.feed)?.get(String(r.id));

function variants(p: ShopifyProduct): Variant[] {
  const list = Array.isArray(p.variants) ? (p.variants as Array<Record<string, unknown>>) : [];
  return list.map((v) => {
    const options = [v.option1, v.option2, v.option3].filter((o): o is string => typeof o === 'string' && o.length > 0);
    const values = options.length ? options : String(v.title ?? '').split(' / ');
    return { price: Number(v.price), available: v.available === true, values: values.map((x) => x.trim().toLowerCase()) };
  });
}

/** Lowest in-stock variant price; the lowest price when nothing is in stock (a sold-out drop). */
function price(p: ShopifyProduct): { value: number; inStock: boolean } {
  const all = variants(p);
  const live = all.filter((v) => v.available);
  const pool = live.length ? live : all;
  return { value: Math.min(...pool.map((v) => v.price)), inStock: live.length > 0 };
}

const hasSize = (p: ShopifyProduct, size: string, inStock: boolean) =>
  variants(p).some((v) => v.values.includes(size.trim().toLowerCase()) && (!inStock || v.available));

function checkRef(where: string, r: ProductRef, store: Feed | undefined): ShopifyProduct | undefined {
  if (!FEED_LIST.includes(r.feed)) {
    problems.push(`${where}: unknown feed ${r.feed}`);
    return undefined;
  }
  const p = product(r);
  if (!p) problems.push(`${where}: ${keyOf(r)} not found in the feed`);
  if (store && r.feed !== store) problems.push(`${where}: ${keyOf(r)} is outside the conversation's store`);
  return p;
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

let emptyTurns = 0;
const seenIds = new Set<string>();
for (const c of JUDGED_CONVERSATIONS) {
  const at = c.id;
  if (seenIds.has(c.id)) problems.push(`${at}: duplicate conversation id`);
  seenIds.add(c.id);
  if (!KINDS.includes(c.kind)) problems.push(`${at}: unknown kind ${c.kind}`);
  if (c.store && !FEED_LIST.includes(c.store)) problems.push(`${at}: unknown store ${c.store}`);
  if (c.country && !/^[A-Z]{2}$/.test(c.country)) problems.push(`${at}: country ${c.country} is not two capital letters`);
  if (!c.turns.length) problems.push(`${at}: no turns`);
  if (c.page) {
    if (!c.store) problems.push(`${at}: page set without a store`);
    checkRef(`${at} page`, c.page, c.store);
  }
  const lineKeys = new Set<string>();
  for (const line of c.cart ?? []) {
    if (lineKeys.has(line.key)) problems.push(`${at}: duplicate cart line key ${line.key}`);
    lineKeys.add(line.key);
    const p = checkRef(`${at} cart line ${line.key}`, line.product, c.store);
    if (!Number.isInteger(line.quantity) || line.quantity < 1) problems.push(`${at}: cart line ${line.key} has quantity ${line.quantity}`);
    if (p && line.size !== undefined && !hasSize(p, line.size, false)) problems.push(`${at}: cart line ${line.key} has no variant ${line.size}`);
    if (p && line.size === undefined && variants(p).length > 1) problems.push(`${at}: cart line ${line.key} needs a size (the product has several variants)`);
  }

  // Kind-level expectations.
  if (c.kind === 'refine' && (c.turns.length < 2 || c.turns.slice(1).some((t) => !t.expect.refinement))) problems.push(`${at}: a refine conversation needs a refinement on every turn after the first`);
  if (c.kind === 'open' && !c.turns[0]?.expect.question) problems.push(`${at}: an open conversation starts with question: true`);
  if (c.kind === 'look' && !c.turns.some((t) => t.expect.look)) problems.push(`${at}: a look conversation has no look turn`);
  if (c.kind === 'cart' && (!c.cart || !c.turns.some((t) => t.expect.cart))) problems.push(`${at}: a cart conversation needs a cart snapshot and a cart action`);

  c.turns.forEach((turn, index) => {
    const where = `${at} turn ${index + 1}`;
    const e: ExpectTurn = turn.expect;
    if (!turn.user.trim()) problems.push(`${where}: empty user text`);
    if ((e.maxPrice !== undefined || e.minPrice !== undefined || e.size !== undefined) && !c.store) problems.push(`${where}: budget or size without a store`);
    if (e.question && e.relevant?.length) problems.push(`${where}: a question turn judges products`);
    if (e.relevant && e.relevant.length === 0) emptyTurns++;
    const seen = new Set<string>();
    for (const x of e.relevant ?? []) {
      const key = keyOf(x);
      if (seen.has(key)) problems.push(`${where}: ${key} judged twice`);
      seen.add(key);
      if (![1, 2, 3].includes(x.grade)) problems.push(`${where}: ${key} has grade ${String(x.grade)}`);
      if (!x.why.trim()) problems.push(`${where}: ${key} has no note`);
      const p = checkRef(where, x, c.store);
      if (e.look) {
        if (!x.slot) problems.push(`${where}: look product ${key} has no slot`);
        else if (!e.look.slots.includes(x.slot)) problems.push(`${where}: ${key} fills slot ${x.slot}, not one of the look's slots`);
      } else if (x.slot) problems.push(`${where}: ${key} has a slot outside a look turn`);
      if (!p || x.grade !== 3) continue;
      const cost = price(p).value;
      if (e.maxPrice !== undefined && cost > e.maxPrice) problems.push(`${where}: grade-3 ${key} costs ${cost} > ${e.maxPrice}`);
      if (e.minPrice !== undefined && cost < e.minPrice) problems.push(`${where}: grade-3 ${key} costs ${cost} < ${e.minPrice}`);
      if (e.size !== undefined && !hasSize(p, e.size, true)) problems.push(`${where}: grade-3 ${key} has no ${e.size} in stock`);
    }
    if (e.relevant && !e.question && e.relevant.length > 0 && !e.relevant.some((x) => x.grade >= 2)) problems.push(`${where}: no product of grade >= 2 (use [] when nothing answers)`);
    if (e.refinement?.kind === 'colour' && !e.refinement.colour) problems.push(`${where}: a colour refinement names no colour`);
    if (e.refinement && index === 0) problems.push(`${where}: a refinement on the first turn`);
    if (e.refinement?.kind === 'budget' && e.maxPrice === undefined && e.minPrice === undefined) problems.push(`${where}: a budget refinement without a budget`);
    if (e.refinement?.kind === 'size' && !e.size) problems.push(`${where}: a size refinement without a size`);
    if (e.refinement?.kind === 'cheaper') {
      const before = (c.turns[index - 1]?.expect.relevant ?? []).filter((x) => x.grade === 3).map((x) => product(x)).filter((p): p is ShopifyProduct => !!p);
      const reference = median(before.map((p) => price(p).value));
      for (const x of e.relevant ?? []) {
        const p = product(x);
        if (!p) continue;
        const cost = price(p).value;
        if (x.grade >= 2 && !(cost < reference)) problems.push(`${where}: grade-${x.grade} ${keyOf(x)} costs ${cost}, not below the reference ${reference}`);
        if (x.grade === 1 && cost < reference) problems.push(`${where}: grade-1 ${keyOf(x)} is below the reference ${reference}; grade it on its merits`);
      }
    }
    if (e.cart) {
      const a = e.cart;
      if ((a.action === 'swap' || a.action === 'quantity' || a.action === 'remove') && (!a.lineKey || !lineKeys.has(a.lineKey))) problems.push(`${where}: cart ${a.action} names line ${a.lineKey ?? '(none)'}, not in the snapshot`);
      if ((a.action === 'add' || a.action === 'swap') && !a.product) problems.push(`${where}: cart ${a.action} without a product`);
      if (a.action === 'quantity' && (!Number.isInteger(a.quantity) || (a.quantity ?? 0) < 1)) problems.push(`${where}: cart quantity ${String(a.quantity)}`);
      if (a.product) {
        const p = checkRef(`${where} cart`, a.product, c.store);
        if (p && a.size !== undefined && !hasSize(p, a.size, true)) problems.push(`${where}: cart ${a.action} size ${a.size} is not in stock for ${keyOf(a.product)}`);
        if (p && a.size === undefined && variants(p).filter((v) => v.available).length > 1) problems.push(`${where}: cart ${a.action} needs a size (several variants in stock)`);
      }
    }
  });
}

for (const kind of KINDS) {
  const n = JUDGED_CONVERSATIONS.filter((c) => c.kind === kind).length;
  if (n < MIN_PER_KIND[kind]) problems.push(`kind ${kind} has ${n} conversations (want >= ${MIN_PER_KIND[kind]})`);
}
if (emptyTurns > MAX_EMPTY) problems.push(`${emptyTurns} turns have relevant: [] (want at most ${MAX_EMPTY})`);
for (const feed of missing) problems.push(`feed ${feed} missing from ${FEEDS_DIR}`);

// ---------------------------------------------------------------- report
const table = (header: string[], rows: string[][]) => {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join(' | ')} |`;
  console.log(line(header));
  console.log(`| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`);
  for (const r of rows) console.log(line(r));
};

const judgedOf = (cs: JudgedConversation[]): Judged[] => cs.flatMap((c) => c.turns.flatMap((t) => t.expect.relevant ?? []));
const kindRows = KINDS.map((kind) => {
  const cs = JUDGED_CONVERSATIONS.filter((c) => c.kind === kind);
  const all = judgedOf(cs);
  const turns = cs.flatMap((c) => c.turns);
  return [
    kind,
    cs.length,
    turns.length,
    cs.filter((c) => c.store).length,
    turns.filter((t) => t.expect.question).length,
    turns.filter((t) => t.expect.relevant && t.expect.relevant.length === 0).length,
    all.length,
    all.filter((x) => x.grade === 3).length,
    all.filter((x) => x.grade === 2).length,
    all.filter((x) => x.grade === 1).length,
  ].map(String);
});
const sum = (i: number) => String(kindRows.reduce((t, r) => t + Number(r[i]), 0));
kindRows.push(['total', sum(1), sum(2), sum(3), sum(4), sum(5), sum(6), sum(7), sum(8), sum(9)]);
table(['kind', 'conversations', 'turns', 'scoped', 'question', 'empty', 'judged', 'grade 3', 'grade 2', 'grade 1'], kindRows);

console.log('');
const storeName = (feed: Feed | undefined) => (feed ? feed.replace(/\.json$/, '') : '(all feeds)');
const stores: Array<Feed | undefined> = [...FEED_LIST, undefined];
table(
  ['store', ...KINDS, 'total'],
  stores.map((feed) => {
    const cs = JUDGED_CONVERSATIONS.filter((c) => c.store === feed);
    return [storeName(feed), ...KINDS.map((k) => String(cs.filter((c) => c.kind === k).length)), String(cs.length)];
  }),
);

if (problems.length) {
  console.log(`\n${problems.length} problem(s):`);
  for (const p of problems) console.log(`- ${p}`);
  process.exit(1);
}
const refs = judgedOf(JUDGED_CONVERSATIONS).length;
console.log(`\nok: ${JUDGED_CONVERSATIONS.length} conversations, ${refs} judged products, every reference found, budgets and sizes hold for grade 3`);
