// Query understanding: what a shopper typed, read onto the taxonomy the labeller uses. "red midi
// dress under 80" → family dress, colour red, dress length midi, at most 80; "something for a
// summer wedding" → boosts only. Words it does not know stay as text to search. The matchers are
// built once when the module loads; a query is a few map lookups per word. Pure.
import { findColours } from '../catalogue/colours.js';
import { AXES, axisCues, familiesOf, SPECIALISERS } from '../catalogue/taxonomy/index.js';
import type { AgeGroup, ColorFamily, Fit, Gender, Material, Pattern, Slot } from '../catalogue/vocabulary.js';
import { readPricesAndSizes, tokenise, type Amounts } from './amounts.js';
import {
  apparelBrands,
  axisWords,
  brands,
  consuming,
  familyByName,
  firstWords,
  fits,
  garments,
  isKnown,
  LONGEST_PHRASE,
  materials,
  patterns,
  speller,
  axisPhrases,
  type Consuming,
  type GarmentCue,
  type Lexicon,
} from './lexicons.js';
import * as W from './shopper-words.js';

export interface UnderstoodQuery {
  /** Words still to search as text: lower case, in order, spelling corrected; without the price, size, stock, sale, "similar", gender, occasion and filler words. */
  terms: string[];
  /** Words whose spelling was corrected, for logs. */
  corrections: Array<{ from: string; to: string }>;
  /** Set when every garment named belongs to one slot ("shoes" → footwear). */
  slot?: Slot;
  /** Taxonomy family names, any of which answers ("pants" → trousers; "shirt and shoes" → shirt and every footwear family). */
  families: string[];
  colours: ColorFamily[];
  materials: Material[];
  patterns: Pattern[];
  fit?: Fit;
  /** Feature axis values of the families named ("midi" → dress length for a dress, skirt length for a skirt). */
  features: Array<{ axis: string; value: string }>;
  gender?: Gender;
  ageGroup?: AgeGroup;
  /** As written, normalised: "42", "10.5", "XL", "M". */
  size?: string;
  /** The size system when the shopper named one ("EU 42" → EU). */
  sizeSystem?: string;
  minPrice?: number;
  maxPrice?: number;
  /** ISO 4217 when the shopper's currency word names exactly one ("rs" → INR); unset for "$" and "dollars". */
  currency?: string;
  /** "cheap", "cheapest" → low; "luxury" → high: a ranking wish, not a bound. */
  priceHint?: 'low' | 'high';
  inStock?: boolean;
  onSale?: boolean;
  /** Occasion, season and style phrases found ("summer", "wedding"). */
  occasions: string[];
  /** Terms that should raise rank without filtering: the occasions and what suits them. */
  boosts: string[];
  /** Brands named ("adidas", "new balance"); they stay in `terms` too. */
  brands: string[];
  /** The shopper asked for products like one they are looking at ("similar to this", "more like this"). */
  similar: boolean;
}

/** Unknown words looked up for a misspelling per query: a long query of unknown words stays fast. */
const MAX_CORRECTION_ATTEMPTS = 12;

interface Draft extends Amounts {
  gender: Set<Gender>;
  age?: Exclude<AgeGroup, 'adult'>;
  priceHint?: 'low' | 'high';
  inStock?: boolean;
  similar: boolean;
  occasions: string[];
}


export function understandQuery(text: string): UnderstoodQuery {
  const corrections: UnderstoodQuery['corrections'] = [];
  let attempts = 0;
  const tokens = tokenise(typeof text === 'string' ? text : '').map((word) => {
    if (isKnown(word) || attempts++ >= MAX_CORRECTION_ATTEMPTS) return word;
    const fixed = speller.correct(word);
    if (!fixed) return word;
    corrections.push({ from: word, to: fixed });
    return fixed;
  });
  const consumed = tokens.map(() => false);
  const draft: Draft = { gender: new Set(), similar: false, occasions: [] };
  readPricesAndSizes(tokens, consumed, draft);
  // A currency or comparison symbol no budget used says nothing more.
  tokens.forEach((token, i) => (consumed[i] ||= !/^[a-z0-9]/.test(token)));
  readShopperPhrases(tokens, consumed, draft);
  const runs = freeRuns(tokens, consumed);
  return describe(runs, draft, corrections);
}


/**
 * Filler, "similar to", stock, sale, occasion, gender and age phrases. At each word the longest
 * phrase wins; a garment, colour or attribute phrase at least as long keeps its words ("baby tee"
 * is a t shirt, "black tie" an occasion, "beach bag" a tote), except that an occasion beats a
 * single feature word ("smart").
 */
function readShopperPhrases(tokens: string[], consumed: boolean[], draft: Draft): void {
  const colourSpans = new Map(findColours(tokens).map((c) => [c.start, c.name.split(' ').length]));
  for (let i = 0; i < tokens.length; ) {
    const colourLength = colourSpans.get(i) ?? 0;
    if (consumed[i] || (!firstWords.has(tokens[i]!) && !colourLength)) {
      i++;
      continue;
    }
    let free = 0;
    while (i + free < tokens.length && !consumed[i + free] && free < LONGEST_PHRASE) free++;
    let shopper = 0;
    let shopperTags: Consuming[] = [];
    let described = 0;
    for (let length = free; length >= 1 && !(shopper && described); length--) {
      const phrase = length === 1 ? tokens[i]! : tokens.slice(i, i + length).join(' ');
      if (!shopper && consuming.has(phrase)) [shopper, shopperTags] = [length, consuming.get(phrase)!];
      if (!described && (describes(phrase) || colourLength === length)) described = length;
    }
    const occasionWinsTie = shopper === 1 && described === 1 && shopperTags.some((t) => t.kind === 'occasion');
    if (shopper > described || (shopper && occasionWinsTie)) {
      for (const tag of shopperTags) apply(tag, draft);
      consumed.fill(true, i, i + shopper);
      i += shopper;
    } else i += Math.max(described, 1);
  }
}

function describes(phrase: string): boolean {
  return garments.has(phrase) || materials.has(phrase) || patterns.has(phrase) || fits.has(phrase) || brands.has(phrase) || axisPhrases.has(phrase);
}

function apply(tag: Consuming, draft: Draft): void {
  switch (tag.kind) {
    case 'filler':
      return;
    case 'similar':
      draft.similar = true;
      return;
    case 'inStock':
      draft.inStock = true;
      return;
    case 'onSale':
      draft.onSale = true;
      return;
    case 'occasion':
      if (!draft.occasions.includes(tag.phrase)) draft.occasions.push(tag.phrase);
      return;
    case 'gender':
      draft.gender.add(tag.gender);
      return;
    case 'age':
      // "boys" is kids before it is a baby's word; the first age named wins.
      draft.age ??= tag.age;
      return;
    case 'priceHint':
      draft.priceHint ??= tag.hint;
      return;
    default: {
      const never: never = tag;
      return never;
    }
  }
}

/** Runs of words not consumed: phrases never join across a removed word. */
function freeRuns(tokens: string[], consumed: boolean[]): string[][] {
  const runs: string[][] = [];
  let run: string[] = [];
  tokens.forEach((token, i) => {
    if (consumed[i]) {
      if (run.length) runs.push(run);
      run = [];
    } else run.push(token);
  });
  if (run.length) runs.push(run);
  return runs;
}

function describe(runs: string[][], draft: Draft, corrections: UnderstoodQuery['corrections']): UnderstoodQuery {
  const { slot, families } = readGarments(runs);
  const colours = readColours(runs);
  const found = <T>(matcher: Lexicon<T>) => unique(runs.flatMap((run) => matcher.scan(run).flatMap((m) => m.values)));
  const fit = found(fits)[0];
  const gender = draft.gender.size === 1 ? [...draft.gender][0] : draft.gender.has('unisex') ? 'unisex' : undefined;
  const boosts = unique(draft.occasions.flatMap((o) => [o, ...(W.OCCASIONS[o] ?? [])]));
  const result: UnderstoodQuery = {
    terms: unique(runs.flat()),
    corrections,
    ...(slot ? { slot } : {}),
    families,
    colours,
    materials: found(materials),
    patterns: found(patterns),
    ...(fit ? { fit } : {}),
    features: readFeatures(runs, slot, families),
    ...(gender ? { gender } : {}),
    ...(draft.age ? { ageGroup: draft.age } : {}),
    ...(draft.size !== undefined ? { size: draft.size } : {}),
    ...(draft.sizeSystem ? { sizeSystem: draft.sizeSystem } : {}),
    ...priceBounds(draft),
    ...(draft.currency ? { currency: draft.currency } : {}),
    ...(draft.priceHint ? { priceHint: draft.priceHint } : {}),
    ...(draft.inStock ? { inStock: true } : {}),
    ...(draft.onSale ? { onSale: true } : {}),
    occasions: draft.occasions,
    boosts,
    brands: unique(runs.flatMap((run) => brands.scan(run).map((m) => m.values[0]!.brand))),
    similar: draft.similar,
  };
  return result;
}

function priceBounds({ minPrice, maxPrice }: Draft): Pick<UnderstoodQuery, 'minPrice' | 'maxPrice'> {
  const [min, max] = minPrice !== undefined && maxPrice !== undefined && minPrice > maxPrice ? [maxPrice, minPrice] : [minPrice, maxPrice];
  return { ...(min !== undefined ? { minPrice: min } : {}), ...(max !== undefined ? { maxPrice: max } : {}) };
}

/**
 * The garments named. In a run of words the last garment is the head ("t shirt dress" is a
 * dress, "dress shoes" shoes, made formal shoes by the taxonomy's specialisers); a hint ("samba",
 * "maxi") counts only when no garment is named outright; a slot word ("shoes") yields to a
 * family of its own slot and, beside a garment of another slot, stands for all its families.
 */
function readGarments(runs: string[][]): { slot?: Slot; families: string[] } {
  const heads: GarmentCue[][] = [];
  for (const run of runs) {
    const cues = garments
      .scan(run)
      .map((m) => m.values.filter((c): c is GarmentCue => c !== null && !(c.kind === 'family' && c.strength < 1 && apparelBrands.has(m.phrase))))
      .filter((c) => c.length);
    const strong = cues.filter((c) => c.some((x) => x.kind === 'slot' || x.strength >= 1));
    const head = (strong.length ? strong : cues).at(-1);
    if (head) heads.push(head.map((cue) => specialise(cue, run)));
  }
  const anyStrong = heads.some((h) => h.some((c) => c.kind === 'slot' || c.strength >= 1));
  const cues = heads.flat().filter((c) => !anyStrong || c.kind === 'slot' || c.strength >= 1);
  const named = cues.filter((c): c is Extract<GarmentCue, { kind: 'family' }> => c.kind === 'family');
  const slots = new Set<Slot>(named.map((c) => c.slot));
  const families = unique(named.map((c) => c.family));
  const slotWords = unique(cues.flatMap((c) => (c.kind === 'slot' ? [c.slot] : [])));
  for (const slot of slotWords) {
    if (slots.has(slot)) continue;
    if (named.length) families.push(...familiesOf(slot).filter((f) => !families.includes(f)));
    slots.add(slot);
  }
  if (!named.length && slots.size > 1) for (const slot of slots) families.push(...familiesOf(slot));
  return { ...(slots.size === 1 ? { slot: [...slots][0]! } : {}), families: unique(families) };
}

function specialise(cue: GarmentCue, run: string[]): GarmentCue {
  const generic = cue.kind === 'slot' ? cue.generic : cue.family;
  const table = generic ? SPECIALISERS[generic] : undefined;
  if (!table) return cue;
  for (const word of run) {
    const family = table[word];
    const f = family ? familyByName.get(family) : undefined;
    if (f) return { kind: 'family', slot: f.slot, family: f.family, strength: 1 };
  }
  return cue;
}

/** Colour families named; a weak colour word ("stone", "denim") counts only when no plain colour is named and it is not a fabric or pattern. */
function readColours(runs: string[][]): ColorFamily[] {
  const mentions = runs
    .flatMap((run) => findColours(run))
    .filter((m) => m.family !== 'other' && !W.NOT_COLOURS_IN_QUERIES.includes(m.name) && !(m.weak && (materials.has(m.name) || patterns.has(m.name) || garments.has(m.name))));
  const plain = mentions.filter((m) => !m.weak);
  return unique((plain.length ? plain : mentions).map((m) => m.family));
}

/**
 * Feature values for the axes of the families named (of the slot's families when only a slot is
 * named). With no garment at all, only unmistakable cues count: several words ("long sleeve") or
 * a value's own name ("sleeveless", "midi").
 */
function readFeatures(runs: string[][], slot: Slot | undefined, families: string[]): Array<{ axis: string; value: string }> {
  const names = families.length ? families : slot ? familiesOf(slot) : [];
  const features: Array<{ axis: string; value: string }> = [];
  if (!runs.some((run) => run.some((word) => axisWords.has(word)))) return features;
  const axes = names.length ? unique(names.flatMap((name) => familyByName.get(name)?.axes ?? [])) : Object.keys(AXES);
  for (const axis of axes) {
    for (const run of runs) {
      for (const match of axisCues(axis).scan(run)) {
        const value = match.values[0]!;
        if (!names.length && !match.phrase.includes(' ') && !(match.phrase === value && value.length >= 4)) continue;
        if (!features.some((f) => f.axis === axis && f.value === value)) features.push({ axis, value });
      }
    }
  }
  return features;
}

const unique = <T>(values: readonly T[]): T[] => [...new Set(values)];
