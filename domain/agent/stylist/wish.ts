// What the shopper wants, as the stylist keeps it between turns: the garment, colour, words that
// describe it, occasion, audience, size, budget, sort and what not to show again. Read from their
// words through query understanding (understand.ts), or back from an earlier lookup_products call,
// and written out as that tool's arguments. Pure.
import { findColours } from '../../catalogue/colours.js';
import { AGE_CUES, familyDefinition, PhraseMatcher, words as titleWords } from '../../catalogue/taxonomy/index.js';
import { COLOR_FAMILIES, GENDERS, SLOTS, type ColorFamily, type Gender, type Slot } from '../../catalogue/vocabulary.js';
import { tokenise } from '../../search/amounts.js';
import { understandQuery, type UnderstoodQuery } from '../../search/index.js';
import { axisPhrases, brands, familyByName, fits, garments, materials, patterns } from '../../search/lexicons.js';
import { ADULT_WORDS, FAMILY_MEMBERS, SLOT_WORDS, STYLE_SHIFTS } from '../../search/shopper-words.js';
import { memoised } from './memo.js';

export type Sort = 'relevance' | 'price_low' | 'price_high';

export interface Wish {
  /** Taxonomy families, any of which answers. */
  families: string[];
  slot?: Slot;
  colour?: ColorFamily;
  /** Other describing words as written (materials, prints, lengths, brands, styles). */
  words: string[];
  occasions: string[];
  gender?: Gender;
  age?: 'kids' | 'baby';
  /** A grown-up audience named without a gender ("for adults"): a child's age said before does not carry over. */
  adult?: boolean;
  size?: string;
  minPrice?: number;
  maxPrice?: number;
  onSale?: boolean;
  sort?: Sort;
  exclude: string[];
  /** "like this": products like the one the shopper is looking at. */
  similar: boolean;
}

export const emptyWish = (): Wish => ({ families: [], words: [], occasions: [], exclude: [], similar: false });

// Understanding costs up to a few hundred microseconds and a turn reads the same words at every step.
const understood = memoised((text: string): UnderstoodQuery => understandQuery(text), 500);
export const understand = (text: string): UnderstoodQuery => understood(text.slice(0, 400));

/** Words of `terms` other than the colours of `colours` and the garment; a fabric inside a garment's name stays ("leather jacket"). */
function describing(terms: string[], colours: ColorFamily[]): string[] {
  const drop = new Set<number>();
  for (const m of findColours(terms)) if (colours.includes(m.family)) for (let i = m.start; i < m.start + m.name.split(' ').length; i++) drop.add(i);
  const kept = new Set(describingAt(terms));
  // The garment's words go ("leather jacket" is a jacket), but a describing one stays: the fabric of "leather jacket", the "midi" of "midi".
  for (const m of garments.scan(terms)) if (m.values.some((v) => v !== null)) for (let i = m.start; i < m.end; i++) if (!kept.has(i) || (i === m.end - 1 && m.end - m.start > 1)) drop.add(i);
  return terms.filter((_, i) => !drop.has(i));
}

export function wishFromUnderstood(q: UnderstoodQuery): Wish {
  const wish = emptyWish();
  wish.families = [...q.families];
  if (q.slot) wish.slot = q.slot;
  if (q.colours[0]) wish.colour = q.colours[0];
  wish.words = describing(q.terms, q.colours).slice(0, 8);
  wish.occasions = [...q.occasions];
  if (q.gender) wish.gender = q.gender;
  if (q.ageGroup === 'kids' || q.ageGroup === 'baby') wish.age = q.ageGroup;
  if (q.size) wish.size = q.size;
  if (q.minPrice !== undefined) wish.minPrice = q.minPrice;
  if (q.maxPrice !== undefined) wish.maxPrice = q.maxPrice;
  if (q.onSale) wish.onSale = true;
  if (q.priceHint === 'low') wish.sort = 'price_low';
  wish.similar = q.similar;
  return wish;
}

const members = new PhraseMatcher<{ gender?: Gender; age?: 'kids' | 'baby' }>();
for (const [phrase, whom] of Object.entries(FAMILY_MEMBERS)) members.add(phrase, whom);
const shifts = new PhraseMatcher<string>();
for (const [phrase, occasion] of Object.entries(STYLE_SHIFTS)) shifts.add(phrase, occasion);
const grownUps = new PhraseMatcher<true>();
for (const phrase of ADULT_WORDS) grownUps.add(phrase, true);

export function wishFromText(text: string): Wish {
  // "for adults": whom it is for, taken out before search reads the rest ("grown ups" is no "gown").
  const tokens = tokenise(text);
  const adult = grownUps.scan(tokens);
  const rest = adult.length ? tokens.filter((_, i) => !adult.some((m) => i >= m.start && i < m.end)).join(' ') : text;
  const wish = wishFromUnderstood(understand(rest));
  if (adult.length) wish.adult = true;
  // "for my daughter": whom it is for, when search's own words did not say.
  const said = members.scan(titleWords(text));
  if (said.length) {
    const named = new Set(said.flatMap((m) => m.phrase.split(' ')));
    wish.words = wish.words.filter((w) => !named.has(w));
    const whom = said[0]!.values[0]!;
    if (whom.gender && !wish.gender) wish.gender = whom.gender;
    if (whom.age && !wish.age) wish.age = whom.age;
  }
  // "something dressier": the occasion the shift means.
  const shifted = shifts.scan(titleWords(text));
  if (shifted.length) {
    const named = new Set(shifted.flatMap((m) => m.phrase.split(' ')));
    wish.words = wish.words.filter((w) => !named.has(w));
    for (const m of shifted) if (!wish.occasions.includes(m.values[0]!)) wish.occasions.push(m.values[0]!);
  }
  return wish;
}

// Whole feature phrases ("midi", "v neck", "wide leg"), not their single words ("dress" of "dress length").
const features = new PhraseMatcher<true>();
for (const phrase of axisPhrases) features.add(phrase, true);

/** Positions of the words the vocabulary knows as describing (fabric, print, fit, brand, a length or neckline). */
function describingAt(terms: string[]): number[] {
  const keep = new Set<number>();
  for (const lexicon of [materials, patterns, fits, brands] as const) for (const m of lexicon.scan(terms)) for (let i = m.start; i < m.end; i++) keep.add(i);
  for (const m of features.scan(terms)) for (let i = m.start; i < m.end; i++) keep.add(i);
  return [...keep].sort((a, b) => a - b);
}

/** Words a listing title shares with the vocabulary (fabric, print, fit, brand, a length or neckline), not its product name. */
export function describingOnly(terms: string[]): string[] {
  const keep = new Set(describingAt(terms));
  return terms.filter((_, i) => keep.has(i));
}

const ages = new PhraseMatcher<'kids' | 'baby'>();
for (const [age, cues] of Object.entries(AGE_CUES) as Array<['kids' | 'baby', string[]]>) for (const cue of cues) ages.add(cue, age);

/** The age group a product's name says it is for ("Kids' Twirl Dress", "Baby Romper"), or null for adults. */
export function ageOfName(name: string): 'kids' | 'baby' | null {
  return ages.scan(titleWords(name))[0]?.values[0] ?? null;
}

/**
 * Whether a product suits the wish's age group: children's pieces only when children were asked
 * for. The labelled age group decides when the product has one; its name otherwise.
 */
export const suitsAge = (wish: Pick<Wish, 'age'>, product: { name: string; ageGroup?: string | null }): boolean => {
  const labelled = product.ageGroup === 'kids' || product.ageGroup === 'baby' ? product.ageGroup : product.ageGroup === 'adult' ? null : undefined;
  const age = labelled === undefined ? ageOfName(product.name) : labelled;
  return wish.age ? age === wish.age || (age !== null && wish.age === 'kids') : age === null;
};

/**
 * A product's title as a wish: what it is, its colour and its words. Its name's own words ("Aria")
 * stay for the search to rank its siblings first (the same dress in blue); labels and replies only
 * ever say the describing ones.
 */
export function titleWish(title: string): Wish {
  const wish = wishFromText(title);
  return { ...wish, words: wish.words.slice(0, 5) };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const price = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined);

/** The wish an earlier lookup_products call searched for (its words, then its filters over them). */
export function wishFromArgs(args: unknown): Wish {
  const a = isObject(args) ? args : {};
  const wish = wishFromText(typeof a.query === 'string' ? a.query : '');
  if (typeof a.family === 'string' && a.family.trim()) {
    const named = familyByName.get(a.family.trim().toLowerCase());
    const families = named ? [named.family] : understand(a.family).families;
    if (families.length) {
      wish.families = families;
      const slot = named?.slot ?? understand(a.family).slot;
      if (slot) wish.slot = slot;
    }
  }
  if (typeof a.slot === 'string' && (SLOTS as readonly string[]).includes(a.slot)) wish.slot = a.slot as Slot;
  if (typeof a.color === 'string') {
    const colour = (COLOR_FAMILIES as readonly string[]).includes(a.color) ? (a.color as ColorFamily) : findColours(a.color)[0]?.family;
    if (colour) wish.colour = colour;
  }
  if (typeof a.gender === 'string' && (GENDERS as readonly string[]).includes(a.gender)) wish.gender = a.gender as Gender;
  if (typeof a.size === 'string' && a.size.trim()) wish.size = a.size.trim().slice(0, 20);
  const min = price(a.minPrice);
  const max = price(a.maxPrice);
  if (min !== undefined) wish.minPrice = min;
  if (max !== undefined) wish.maxPrice = max;
  if (a.onSale === true) wish.onSale = true;
  if (a.sort === 'price_low' || a.sort === 'price_high') wish.sort = a.sort;
  if (Array.isArray(a.excludeItemIds)) wish.exclude = a.excludeItemIds.filter((id): id is string => typeof id === 'string').slice(0, 60);
  return wish;
}

/**
 * Whom a later request is for: an audience it names replaces the one before. A grown-up named
 * ("for women", "for adults") drops a child's age carried over; a child named drops the gender
 * an adult's request carried ("womens" of "women's dresses" is no girl's).
 */
export function audience(base: Pick<Wish, 'gender' | 'age'>, change: Pick<Wish, 'gender' | 'age' | 'adult'>): Pick<Wish, 'gender' | 'age'> {
  const grownUp = change.adult === true || (!change.age && (change.gender === 'mens' || change.gender === 'womens'));
  const age = change.age ?? (grownUp ? undefined : base.age);
  const adultsGender = change.age !== undefined && !base.age && base.gender !== 'unisex';
  const gender = change.gender ?? (adultsGender ? undefined : base.gender);
  return { ...(gender ? { gender } : {}), ...(age ? { age } : {}) };
}

/** How a later request changes an earlier one: what it names replaces, the rest is kept. */
export function overlay(base: Wish, change: Wish, keep: { colour: boolean; words: boolean }): Wish {
  const newGarment = change.families.length > 0 || change.slot !== undefined;
  const sameSlot = !newGarment || (change.slot !== undefined && change.slot === base.slot);
  const wish: Wish = {
    families: newGarment ? change.families : base.families,
    words: change.words.length ? [...new Set([...(newGarment || !keep.words ? [] : base.words), ...change.words])] : newGarment || !keep.words ? [] : base.words,
    occasions: change.occasions.length ? change.occasions : base.occasions,
    exclude: change.exclude,
    similar: change.similar,
  };
  const slot = newGarment ? change.slot : base.slot;
  if (slot) wish.slot = slot;
  const colour = change.colour ?? (keep.colour ? base.colour : undefined);
  if (colour) wish.colour = colour;
  Object.assign(wish, audience(base, change));
  const size = change.size ?? (sameSlot ? base.size : undefined);
  if (size) wish.size = size;
  const named = change.minPrice !== undefined || change.maxPrice !== undefined;
  const [min, max] = named ? [change.minPrice, change.maxPrice] : [base.minPrice, base.maxPrice];
  if (min !== undefined) wish.minPrice = min;
  if (max !== undefined) wish.maxPrice = max;
  if (change.onSale || base.onSale) wish.onSale = true;
  const sort = change.sort ?? base.sort;
  if (sort) wish.sort = sort;
  return wish;
}

/**
 * A request with the answer to the question it raised: what the answer names wins ("Size 5" over
 * the sold-out 8 asked for, "Dresses" over "something"), the rest of the request is kept.
 */
export function answeredBy(request: Wish, answer: Wish): Wish {
  const garment = answer.families.length > 0 || answer.slot !== undefined;
  const wish: Wish = {
    families: garment ? answer.families : request.families,
    words: [...new Set([...request.words, ...answer.words])].slice(0, 8),
    occasions: answer.occasions.length ? answer.occasions : request.occasions,
    exclude: [...new Set([...request.exclude, ...answer.exclude])],
    similar: request.similar || answer.similar,
    ...audience(request, answer),
  };
  const slot = garment ? answer.slot : request.slot;
  if (slot) wish.slot = slot;
  const colour = answer.colour ?? request.colour;
  if (colour) wish.colour = colour;
  if ((answer.adult || request.adult) && !wish.age) wish.adult = true;
  const size = answer.size ?? request.size;
  if (size) wish.size = size;
  const named = answer.minPrice !== undefined || answer.maxPrice !== undefined;
  const [min, max] = named ? [answer.minPrice, answer.maxPrice] : [request.minPrice, request.maxPrice];
  if (min !== undefined) wish.minPrice = min;
  if (max !== undefined) wish.maxPrice = max;
  if (answer.onSale || request.onSale) wish.onSale = true;
  const sort = answer.sort ?? request.sort;
  if (sort) wish.sort = sort;
  return wish;
}

/** What a request and the answers to the questions it raised want (their texts in the order said), each answer winning. */
export const wishOfParts = (texts: string[]): Wish => (texts.length ? texts.map((text) => wishFromText(text)).reduce((request, answer) => answeredBy(request, answer)) : emptyWish());

/** The word for a garment in a query: the family as the taxonomy names it, or the slot's word. */
export function garmentWords(wish: Pick<Wish, 'families' | 'slot'>): string[] {
  if (wish.families.length === 1) return [wish.families[0]!];
  if (wish.slot) {
    const word = Object.entries(SLOT_WORDS).find(([w, slot]) => slot === wish.slot && w.endsWith('s'))?.[0] ?? Object.entries(SLOT_WORDS).find(([, slot]) => slot === wish.slot)?.[0];
    if (word) return [word];
  }
  return wish.families.slice(0, 3);
}

const AUDIENCE_WORD: Readonly<Record<Gender, string>> = { mens: 'mens', womens: 'womens', unisex: 'unisex' };

/** lookup_products arguments for a wish: its words as the query, what it names as filters. */
export function lookupArgs(wish: Wish, limit: number): Record<string, unknown> {
  const query = [
    ...(wish.gender ? [AUDIENCE_WORD[wish.gender]] : []),
    ...(wish.age ? [wish.age] : []),
    ...(wish.colour ? [wish.colour] : []),
    ...wish.words,
    ...wish.occasions,
    ...garmentWords(wish),
  ]
    .join(' ')
    .slice(0, 200)
    .trim();
  const family = wish.families.length === 1 ? wish.families[0] : undefined;
  const slot = !family && wish.slot && wish.families.every((f) => familyDefinition(wish.slot!, f)) ? wish.slot : undefined;
  const args: Record<string, unknown> = {
    ...(query ? { query } : {}),
    ...(family ? { family } : {}),
    ...(slot ? { slot } : {}),
    ...(wish.colour ? { color: wish.colour } : {}),
    ...(wish.size ? { size: wish.size.slice(0, 20) } : {}),
    ...(wish.minPrice !== undefined ? { minPrice: round(wish.minPrice) } : {}),
    ...(wish.maxPrice !== undefined ? { maxPrice: round(wish.maxPrice) } : {}),
    ...(wish.onSale ? { onSale: true } : {}),
    ...(wish.sort && wish.sort !== 'relevance' ? { sort: wish.sort } : {}),
    ...(wish.exclude.length ? { excludeItemIds: wish.exclude.slice(0, 60) } : {}),
    limit,
  };
  return args;
}

const round = (n: number) => Math.min(1e9, Math.max(0, Math.round(n * 100) / 100));

/** True when the wish names something the catalogue knows: a garment, colour, occasion, or a describing word (fabric, print, fit, brand). */
export const namesProduct = (wish: Wish): boolean =>
  wish.families.length > 0 || wish.slot !== undefined || wish.colour !== undefined || wish.occasions.length > 0 || describingOnly(wish.words).length > 0;

/** True when the wish only narrows (colour, size, budget, audience, sale, sort, a describing word) without naming a garment. */
export const onlyNarrows = (wish: Wish): boolean =>
  !wish.families.length &&
  !wish.slot &&
  (wish.colour !== undefined ||
    wish.size !== undefined ||
    wish.minPrice !== undefined ||
    wish.maxPrice !== undefined ||
    wish.gender !== undefined ||
    wish.onSale === true ||
    wish.sort !== undefined ||
    wish.age !== undefined ||
    wish.adult === true ||
    wish.occasions.length > 0 ||
    describingOnly(wish.words).length > 0);
