// Accuracy of the offline labeller on the seven real Shopify feeds of ../shared/fixtures/shopify,
// against the hand labels of bench/labelling-shopify/hand-labels.ts. Each feed is labelled the way
// the service labels a sync: the whole feed is one dataset, every product becomes its listing
// through the upload's own check (feedProductKeeper), the dataset's audience is gathered from every
// listing's gender evidence (store-audience), and each product is labelled with it. BEFORE is the
// same labeller without the store's evidence (the listing alone); AFTER is with it. A neighbouring
// colour family counts half, as in bench/labelling.ts; a field the hand labels leave null is skipped.
//   node --import tsx bench/labelling-shopify.ts
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { feedProductKeeper, ParsedEntry } from '../commands/items.js';
import { areNeighbours } from '../domain/catalogue/colours.js';
import type { Listing } from '../domain/catalogue/product-input.js';
import { storeAudience, type StoreAudience } from '../domain/catalogue/store-audience.js';
import type { ColorFamily, Labels } from '../domain/catalogue/vocabulary.js';
import { labelListing, listingAudienceSignal } from '../infra/models/offline-labeller.js';
import { FEEDS, HAND_LABELS, type HandLabel } from './labelling-shopify/hand-labels.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIR = path.resolve(repoRoot, '../shared/fixtures/shopify');

const FIELDS = ['slot', 'family', 'color_family', 'gender'] as const;
type Field = (typeof FIELDS)[number];
type Tally = Record<Field, { checked: number; score: number }>;
const emptyTally = (): Tally => Object.fromEntries(FIELDS.map((f) => [f, { checked: 0, score: 0 }])) as Tally;

function score(tally: Tally, want: HandLabel, got: Labels, misses: Map<string, number>, feed: string): void {
  for (const field of FIELDS) {
    const expected = want[field];
    if (expected === null) continue;
    tally[field].checked++;
    const answer = got[field] as string;
    if (answer === expected) tally[field].score += 1;
    else if (field === 'color_family' && areNeighbours(answer as ColorFamily, expected as ColorFamily)) tally[field].score += 0.5;
    if (answer !== expected) {
      const key = `${feed.split('-')[0]} ${field}: ${expected} → ${answer}`;
      misses.set(key, (misses.get(key) ?? 0) + 1);
    }
  }
}

const pct = (t: { checked: number; score: number }) => (t.checked ? (t.score / t.checked) * 100 : NaN);

function feedListings(file: string): Map<string, Listing> {
  const body = JSON.parse(readFileSync(path.join(DIR, file), 'utf8'));
  const products: Array<Record<string, unknown>> = Array.isArray(body) ? body : (body.products ?? []);
  const keep = feedProductKeeper('https://store.example');
  const listings = new Map<string, Listing>();
  for (const product of products) {
    const entry = keep(product);
    if (entry instanceof ParsedEntry) listings.set(entry.listing.sku, entry.listing);
  }
  return listings;
}

async function main(): Promise<void> {
  if (!existsSync(DIR)) {
    console.log(`labelling-shopify bench skipped: ${DIR} not found (the fixtures live in ../shared)`);
    return;
  }
  const rows: Array<Record<string, string | number>> = [];
  const totals = { before: emptyTally(), after: emptyTally() };
  const misses = { before: new Map<string, number>(), after: new Map<string, number>() };
  const stores: Record<string, StoreAudience> = {};
  let missing = 0;
  for (const feed of FEEDS) {
    const listings = feedListings(feed);
    const store = storeAudience([...listings.values()].map(listingAudienceSignal));
    stores[feed] = store;
    const tallies = { before: emptyTally(), after: emptyTally() };
    for (const want of HAND_LABELS.filter((h) => h.feed === feed)) {
      const listing = listings.get(want.id);
      if (!listing) {
        missing++;
        continue;
      }
      const before = labelListing({ listing, photos: [], targetGender: null });
      const after = labelListing({ listing, photos: [], targetGender: null, store });
      for (const [when, labels] of [['before', before], ['after', after]] as const) {
        score(tallies[when], want, labels, misses[when], feed);
        score(totals[when], want, labels, new Map(), feed);
      }
    }
    rows.push(row(feed, listings.size, tallies, store));
  }
  rows.push(row('all seven feeds', HAND_LABELS.length - missing, totals, null));
  console.table(rows);
  if (missing) console.log(`${missing} hand-labelled products not found in the feeds`);
  for (const [feed, store] of Object.entries(stores)) {
    console.log(`${feed}: audience ${store.gender ?? 'mixed'} (fashion ${store.fashion}, marked w${store.marked.womens} m${store.marked.mens} u${store.marked.unisex}) splits ${JSON.stringify(store.splits)}`);
  }
  const top = [...misses.after].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.BENCH_CONFUSIONS) || 25);
  console.log('most frequent misses after:');
  for (const [key, n] of top) console.log(`  ${n}\t${key}`);
  await mkdir(path.join(repoRoot, 'bench/results'), { recursive: true });
  const result = {
    bench: 'labelling-shopify',
    at: new Date().toISOString(),
    node: process.version,
    source: path.relative(repoRoot, DIR),
    products: HAND_LABELS.length - missing,
    feeds: rows,
    overall: Object.fromEntries((['before', 'after'] as const).map((when) => [when, Object.fromEntries(FIELDS.map((f) => [f, pct(totals[when][f]) / 100]))])),
    topMissesAfter: top.map(([key, count]) => ({ key, count })),
  };
  await writeFile(path.join(repoRoot, 'bench/results/labelling-shopify.json'), `${JSON.stringify(result, null, 2)}\n`);
}

function row(feed: string, products: number, tallies: { before: Tally; after: Tally }, store: StoreAudience | null): Record<string, string | number> {
  const out: Record<string, string | number> = { feed: feed.slice(0, 28), products };
  for (const field of FIELDS) out[field === 'color_family' ? 'colour' : field] = `${pct(tallies.before[field]).toFixed(1)} → ${pct(tallies.after[field]).toFixed(1)}`;
  out.audience = store ? (store.gender ?? 'mixed') : '';
  return out;
}

await main();
