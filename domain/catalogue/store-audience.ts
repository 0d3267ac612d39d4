// Who a store sells to, read from its own catalogue, and the gender that gives a listing whose own
// words name none (issue 13, point 5). Pure: the labeller reads each listing (its cue reading), this
// module gathers the readings of one dataset and decides.
//
// The evidence, per listing (AudienceSignal): the gender its own words name (`cue`: title, type,
// tags, description, handle, as the offline labeller reads them), the gender its family implies
// (`implied`: a dress, a skirt, a tie), its vendor and product type, and the size system of its
// size option (women's numeric dress sizes 0-24, or EU 32-46 clothing sizes on apparel).
//
// The store (StoreAudience), from every signal of the dataset:
// - `gender`: the store's single audience. A store is womenswear (or menswear) when listings marked
//   for that gender (own words, family or women's sizes) are at least MIN_MARKED in number and
//   MIN_SHARE of its fashion listings, and the other gender's marks are at most OTHER_SHARE of them.
//   The share matters: a sneaker reseller that writes "WMNS" on a few models marks the exceptions,
//   and its unmarked models are not women's; a boutique whose dresses, skirts and blouses make a
//   third of the catalogue sells to women throughout.
// - `splits`: vendor and product-type values that name a gender ("Kith Women", "Mens"), and the
//   values they are a gendered copy of ("Kith" beside "Kith Women" is the men's line).
//
// The rule for one listing (genderFromStore): its own cue, else its family's gender, else the
// gender of its vendor or product-type split, else its own size system, else the store's single
// audience, else `unisex`.
// So a listing stays unisex when it says so, or when the store is genuinely mixed and nothing
// places it; in a mixed store we do not guess from the majority: a wrong gender hides a product
// from half the shoppers, while unisex only ranks it a little lower for both.
import type { Listing } from './product-input.js';
import type { Gender } from './vocabulary.js';

export type GenderedGender = Exclude<Gender, 'unisex'>;

/** One listing's gender evidence; what the store-audience read model keeps per item. */
export interface AudienceSignal {
  /** The gender the listing's own words name; null when they name none. */
  cue: Gender | null;
  /** The gender its family implies (a dress is womenswear); null for most families. */
  implied: GenderedGender | null;
  /** Lower-cased, trimmed vendor and product type ('' when absent). */
  vendor: string;
  productType: string;
  /** A size system that belongs to one gender, read from the size option; null when none. */
  sizes: GenderedGender | null;
  /** False for non-apparel (snowboards, gift cards, mugs): they say nothing about the audience. */
  fashion: boolean;
}

export interface StoreAudience {
  /** Listings read, and fashion listings among them. */
  listings: number;
  fashion: number;
  /** Fashion listings marked for each gender (own words, family or sizes) and explicitly unisex. */
  marked: Record<Gender, number>;
  /** The store's single audience, when the evidence says it has one. */
  gender: GenderedGender | null;
  /** Vendor and product-type values that place a listing: `vendor:kith women` → womens. */
  splits: Record<string, GenderedGender>;
}

export const MIN_MARKED = 3;
export const MIN_SHARE = 0.2;
export const OTHER_SHARE = 0.1;

const GENDER_WORDS: Record<GenderedGender, RegExp> = {
  mens: /\b(men|mens|men's|man|male|menswear|homme|herren)\b/,
  womens: /\b(women|womens|women's|woman|female|ladies|womenswear|wmns|femme|damen)\b/,
};

const normal = (text: string): string => text.toLowerCase().replace(/\s+/g, ' ').trim();

/** Women's numeric dress sizes (US 0-24 in even steps) or EU clothing sizes 32-46 on apparel. */
function sizeSystem(listing: Listing, footwear: boolean): GenderedGender | null {
  if (footwear) return null;
  const values = listing.options.filter((o) => /size|taille|grösse|größe/i.test(o.name)).flatMap((o) => o.values.map((v) => v.trim()));
  const numbers = values.filter((v) => /^\d{1,2}$/.test(v)).map(Number);
  if (numbers.length < 2 || numbers.length * 2 < values.length) return null;
  const usDress = numbers.every((n) => n <= 24 && n % 2 === 0) && numbers.some((n) => n <= 12);
  const euDress = numbers.every((n) => n >= 32 && n <= 46 && n % 2 === 0);
  return usDress || euDress ? 'womens' : null;
}

/** A listing's signal from the labeller's reading of its words. */
export function audienceSignal(listing: Listing, reading: { cue: Gender | null; implied: GenderedGender | null; fashion: boolean; footwear: boolean }): AudienceSignal {
  return {
    cue: reading.cue,
    implied: reading.implied,
    vendor: normal(listing.brand ?? ''),
    productType: normal(listing.productType ?? ''),
    sizes: reading.fashion ? sizeSystem(listing, reading.footwear) : null,
    fashion: reading.fashion,
  };
}

const namedGender = (value: string): GenderedGender | null => {
  const mens = GENDER_WORDS.mens.test(value);
  const womens = GENDER_WORDS.womens.test(value);
  return mens === womens ? null : mens ? 'mens' : 'womens';
};

const other = (g: GenderedGender): GenderedGender => (g === 'mens' ? 'womens' : 'mens');

/** Vendor and product-type values that name a gender, and the plain values they are a gendered copy of. */
function splitsOf(valuesOf: Record<'vendor' | 'productType', readonly string[]>): Record<string, GenderedGender> {
  const splits: Record<string, GenderedGender> = {};
  for (const field of ['vendor', 'productType'] as const) {
    const values = new Set(valuesOf[field].filter(Boolean));
    for (const value of values) {
      const gender = namedGender(value);
      if (!gender) continue;
      splits[`${field}:${value}`] = gender;
      const plain = normal(value.replace(GENDER_WORDS[gender], ' '));
      if (plain && values.has(plain) && !namedGender(plain)) splits[`${field}:${plain}`] = other(gender);
    }
  }
  return splits;
}

/** Marks of one listing: its own words first, then its family, then its sizes. */
export const markOf = (s: Pick<AudienceSignal, 'cue' | 'implied' | 'sizes'>): Gender | null => s.cue ?? s.implied ?? s.sizes;

/** What a dataset's signals add up to; a read model can count these in SQL instead of holding every signal. */
export interface AudienceCounts {
  listings: number;
  fashion: number;
  marked: Record<Gender, number>;
  vendors: readonly string[];
  productTypes: readonly string[];
}

export function audienceFromCounts(counts: AudienceCounts): StoreAudience {
  const { marked, fashion } = counts;
  let gender: GenderedGender | null = null;
  for (const g of ['womens', 'mens'] as const) {
    const n = marked[g];
    if (n >= MIN_MARKED && n >= fashion * MIN_SHARE && marked[other(g)] <= n * OTHER_SHARE) gender = g;
  }
  return { listings: counts.listings, fashion, marked: { ...marked }, gender, splits: splitsOf({ vendor: counts.vendors, productType: counts.productTypes }) };
}

export function storeAudience(signals: readonly AudienceSignal[]): StoreAudience {
  const marked: Record<Gender, number> = { mens: 0, womens: 0, unisex: 0 };
  let fashion = 0;
  for (const signal of signals) {
    if (!signal.fashion) continue;
    fashion++;
    const mark = markOf(signal);
    if (mark) marked[mark]++;
  }
  return audienceFromCounts({ listings: signals.length, fashion, marked, vendors: signals.map((s) => s.vendor), productTypes: signals.map((s) => s.productType) });
}

/** The gender of one listing given its store (see the header for the rule). */
export function genderFromStore(signal: AudienceSignal, store: StoreAudience | null): Gender {
  if (signal.cue) return signal.cue;
  if (signal.implied) return signal.implied;
  if (!store || !signal.fashion) return 'unisex';
  const split = store.splits[`vendor:${signal.vendor}`] ?? store.splits[`productType:${signal.productType}`];
  if (split) return split;
  return signal.sizes ?? store.gender ?? 'unisex';
}

/** One line for a model's prompt: what the store's catalogue says about its audience. */
export function describeAudience(store: StoreAudience): string {
  const parts = [`${store.fashion} fashion listings; marked womens ${store.marked.womens}, mens ${store.marked.mens}, unisex ${store.marked.unisex}`];
  parts.push(store.gender ? `the store sells to ${store.gender === 'womens' ? 'women' : 'men'} only` : 'the store sells to more than one gender');
  const splits = Object.entries(store.splits);
  if (splits.length) parts.push(`lines: ${splits.map(([key, g]) => `${key.replace(':', ' "')}" is ${g}`).join(', ')}`);
  return parts.join('; ');
}
