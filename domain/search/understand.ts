// Query understanding: what a shopper typed, read onto the taxonomy the labeller uses. "red midi
// dress under 80" → family dress, colour red, dress length midi, at most 80; "something for a
// summer wedding" → boosts only. Words it does not know stay as text to search. The matchers are
// built once when the module loads; a query is a few map lookups per word. Pure.
import { findColours, isShadeWord, neighbouringFamilies } from '../catalogue/colours.js';
import {
  AGE_CUES,
  AXES,
  axisCues,
  FAMILIES,
  familiesOf,
  FIT_CUES,
  GENDER_CUES,
  MATERIAL_CUES,
  NOT_A_FAMILY,
  PATTERN_CUES,
  PhraseMatcher,
  SPECIALISERS,
  WEAK_GENDER_CUES,
  withPlurals,
  type FamilyDefinition,
  type PhraseMatch,
} from '../catalogue/taxonomy/index.js';
import { COLOR_FAMILIES, MATERIALS, PATTERNS, type AgeGroup, type ColorFamily, type Fit, type Gender, type Material, type Pattern, type Slot } from '../catalogue/vocabulary.js';
import { Speller } from './spelling.js';
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
  /** Neighbours of `colours` (colours.ts), for soft matching: red → burgundy, coral, rust, pink. */
  nearColours: ColorFamily[];
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

/** Longer input is cut: the API allows 500 characters, and a query past 64 words says nothing more. */
const MAX_CHARACTERS = 2000;
const MAX_WORDS = 64;
/** Unknown words looked up for a misspelling per query: a long query of unknown words stays fast. */
const MAX_CORRECTION_ATTEMPTS = 12;

// ---------------------------------------------------------------- lexicons, built once

type Consuming =
  | { kind: 'filler' }
  | { kind: 'similar' }
  | { kind: 'inStock' }
  | { kind: 'onSale' }
  | { kind: 'occasion'; phrase: string }
  | { kind: 'gender'; gender: Gender }
  | { kind: 'age'; age: Exclude<AgeGroup, 'adult'> }
  | { kind: 'priceHint'; hint: 'low' | 'high' };

type GarmentCue = { kind: 'family'; slot: Slot; family: string; strength: number } | { kind: 'slot'; slot: Slot; generic?: string };

/** Every word of every phrase any lexicon knows: such a word is never corrected. */
const knownWords = new Set<string>();
/** First words of the phrases of every lexicon below: a word that starts none is looked up no further. */
const firstWords = new Set<string>();
let longestPhrase = 1;

class Lexicon<T> extends PhraseMatcher<T> {
  private readonly first = new Set<string>();

  override add(phrase: string, value: T): this {
    const words = phrase.split(' ');
    for (const word of words) knownWords.add(word);
    firstWords.add(words[0]!);
    this.first.add(words[0]!);
    longestPhrase = Math.max(longestPhrase, words.length);
    return super.add(phrase, value);
  }

  /** The matcher's scan, skipped when no word of the run starts a phrase. */
  override scan(words: readonly string[]): PhraseMatch<T>[] {
    return words.some((word) => this.first.has(word)) ? super.scan(words) : [];
  }
}

const phrasesOf = (table: Readonly<Record<string, readonly string[]>>) => Object.entries(table) as Array<[string, readonly string[]]>;

const consuming = new Lexicon<Consuming>();
for (const phrase of W.FILLER_WORDS) consuming.add(phrase, { kind: 'filler' });
for (const phrase of W.SIMILAR_PHRASES) consuming.add(phrase, { kind: 'similar' });
for (const phrase of W.IN_STOCK_PHRASES) consuming.add(phrase, { kind: 'inStock' });
for (const phrase of W.ON_SALE_PHRASES) consuming.add(phrase, { kind: 'onSale' });
for (const [phrase, boosts] of phrasesOf(W.OCCASIONS)) {
  consuming.add(phrase, { kind: 'occasion', phrase });
  for (const term of boosts) for (const word of term.split(' ')) knownWords.add(word);
}
for (const [hint, phrases] of phrasesOf(W.PRICE_HINTS)) for (const phrase of phrases) consuming.add(phrase, { kind: 'priceHint', hint: hint as 'low' | 'high' });
// Listing pronouns and style words ("peplum", "boyfriend") are weak gender cues; a query's own
// gender words are in shopper-words.
for (const [gender, cues] of phrasesOf(GENDER_CUES)) for (const cue of cues) if (!WEAK_GENDER_CUES.has(cue)) consuming.add(cue, { kind: 'gender', gender: gender as Gender });
for (const [gender, cues] of phrasesOf(W.GENDER_WORDS)) for (const cue of cues) consuming.add(cue, { kind: 'gender', gender: gender as Gender });
for (const [age, cues] of phrasesOf(AGE_CUES)) for (const cue of cues) consuming.add(cue, { kind: 'age', age: age as Exclude<AgeGroup, 'adult'> });
for (const cue of WEAK_GENDER_CUES) knownWords.add(cue);

const familyByName = new Map<string, FamilyDefinition>(FAMILIES.map((f) => [f.family, f]));

const garments = new Lexicon<GarmentCue | null>();
{
  const entries = new Map<string, Array<GarmentCue | null>>();
  const put = (phrase: string, cue: GarmentCue | null) => {
    for (const form of withPlurals(phrase)) {
      const list = entries.get(form) ?? [];
      if (!list.some((c) => c === cue || (c && cue && c.kind === 'family' && cue.kind === 'family' && c.family === cue.family))) list.push(cue);
      entries.set(form, list);
    }
  };
  for (const f of FAMILIES) {
    for (const cue of f.cues) put(cue, { kind: 'family', slot: f.slot, family: f.family, strength: 1 });
    for (const cue of f.weak) put(cue, { kind: 'family', slot: f.slot, family: f.family, strength: 0.5 });
  }
  for (const phrase of NOT_A_FAMILY) if (!entries.has(phrase)) entries.set(phrase, [null]);
  for (const [phrase, family] of Object.entries(W.FAMILY_SYNONYMS)) {
    const f = familyByName.get(family);
    if (!f) throw new Error(`shopper-words: ${phrase} names no taxonomy family (${family})`);
    put(phrase, { kind: 'family', slot: f.slot, family: f.family, strength: 1 });
  }
  // A slot word replaces what the taxonomy reads into it; the generic family it named still
  // takes the taxonomy's specialisers ("leather shoes" are formal shoes).
  for (const [phrase, slot] of Object.entries(W.SLOT_WORDS)) {
    const generic = entries.get(phrase)?.find((c): c is Extract<GarmentCue, { kind: 'family' }> => c?.kind === 'family' && c.slot === slot)?.family;
    entries.set(phrase, [{ kind: 'slot', slot, ...(generic ? { generic } : {}) }]);
  }
  for (const [phrase, cues] of entries) for (const cue of cues) garments.add(phrase, cue);
}

const materials = new Lexicon<Material>();
for (const [material, cues] of phrasesOf(MATERIAL_CUES)) if (material !== 'other') for (const cue of cues) materials.add(cue, material as Material);
for (const [material, cues] of phrasesOf(MATERIAL_CUES)) if (material === 'other') for (const cue of cues) for (const word of cue.split(' ')) knownWords.add(word);

const patterns = new Lexicon<Pattern>();
for (const [pattern, cues] of phrasesOf(PATTERN_CUES)) for (const cue of cues) patterns.add(cue, pattern as Pattern);
for (const [phrase, pattern] of Object.entries(W.PATTERN_SYNONYMS)) patterns.add(phrase, pattern);

const fits = new Lexicon<Fit>();
for (const [fit, cues] of phrasesOf(FIT_CUES)) for (const cue of cues) fits.add(cue, fit as Fit);

const brands = new Lexicon<{ brand: string; footwear: boolean }>();
for (const [group, names] of phrasesOf(W.BRANDS)) for (const name of names) brands.add(name, { brand: name, footwear: group === 'footwear' });
const apparelBrands = new Set(W.BRANDS.apparel);

/** Every feature cue of every axis; single words among them yield to an occasion word ("smart"). */
const axisPhrases = new Set<string>();
for (const values of Object.values(AXES)) for (const { cues } of values) for (const cue of cues) axisPhrases.add(cue);
const axisWords = new Set([...axisPhrases].flatMap((phrase) => phrase.split(' ')));
for (const phrase of axisPhrases) {
  for (const word of phrase.split(' ')) knownWords.add(word);
  firstWords.add(phrase.split(' ')[0]!);
  longestPhrase = Math.max(longestPhrase, phrase.split(' ').length);
}

const set = (phrases: readonly string[]) => {
  for (const phrase of phrases) for (const word of phrase.split(' ')) knownWords.add(word);
  return { phrases: new Set(phrases), first: new Set(phrases.map((p) => p.split(' ')[0]!)), longest: Math.max(1, ...phrases.map((p) => p.split(' ').length)) };
};
const P = W.PRICE_PHRASES;
const price = {
  atMostBefore: set(P.atMostBefore), atMostAfter: set(P.atMostAfter), atLeastBefore: set(P.atLeastBefore), atLeastAfter: set(P.atLeastAfter),
  around: set(P.around), between: set(P.between), rangeJoin: set(P.rangeJoin), thousands: set(P.thousands),
};
const size = {
  lead: set(W.SIZE_PHRASES.lead), numberLead: set(W.SIZE_PHRASES.numberLead), letters: set(Object.keys(W.SIZE_PHRASES.letters)), standalone: set(W.SIZE_PHRASES.standalone),
};
for (const word of [...Object.keys(W.CURRENCY_WORDS), ...Object.keys(W.SIZE_PHRASES.systems), ...W.KNOWN_WORDS, ...W.NOT_COLOURS_IN_QUERIES]) knownWords.add(word);
for (const table of Object.values(SPECIALISERS)) for (const word of Object.keys(table)) knownWords.add(word);

/** Words a misspelling may become, best first on ties: the vocabulary's own names, then cues, then hints. */
const spellingTargets: Array<{ word: string; tier: number }> = [];
{
  const add = (word: string, tier: number) => word.length >= 3 && !word.includes(' ') && spellingTargets.push({ word, tier });
  for (const name of [...COLOR_FAMILIES, ...MATERIALS, ...PATTERNS, ...FAMILIES.map((f) => f.family)]) if (name !== 'other') add(name, 0);
  for (const f of FAMILIES) for (const cue of f.cues) for (const form of withPlurals(cue)) add(form, 1);
  for (const cues of [...Object.values(MATERIAL_CUES), ...Object.values(PATTERN_CUES), ...Object.values(FIT_CUES)]) for (const cue of cues) add(cue, 1);
  for (const name of [...W.BRANDS.footwear, ...W.BRANDS.apparel, ...Object.keys(W.SLOT_WORDS), 'mens', 'womens', 'unisex']) add(name, 1);
  for (const f of FAMILIES) for (const cue of f.weak) for (const form of withPlurals(cue)) add(form, 2);
  for (const word of [...Object.keys(W.FAMILY_SYNONYMS), ...Object.keys(W.OCCASIONS)]) add(word, 2);
}

const speller = new Speller(spellingTargets);
const isKnown = (word: string) => knownWords.has(word) || isShadeWord(word) || findColours([word]).length > 0;

// ---------------------------------------------------------------- reading a query

interface Draft {
  gender: Set<Gender>;
  age?: Exclude<AgeGroup, 'adult'>;
  size?: string;
  sizeSystem?: string;
  minPrice?: number;
  maxPrice?: number;
  currency?: string;
  priceHint?: 'low' | 'high';
  inStock?: boolean;
  onSale?: boolean;
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
 * Lower-case words as the taxonomy writes them, keeping what budgets need: currency symbols,
 * decimals, "1,300" → 1300, "50-100" → 50 to 100, "1300rs" → 1300 rs, "eu42" → eu 42.
 */
function tokenise(text: string): string[] {
  return text
    .slice(0, MAX_CHARACTERS)
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/['’`´]/g, '')
    .replace(/&/g, ' and ')
    .replace(/(\d),(?=\d{3}(?!\d))/g, '$1')
    .replace(/(\d)\s*[-–—]\s*(?=[$€£₹¥]?\s*\d)/g, '$1 to ')
    .replace(/([$€£₹¥<>%])/g, ' $1 ')
    .replace(/(\d)(rs|inr|usd|cad|eur|euros?|gbp|egp|dollars?|bucks)(?![a-z])/g, '$1 $2')
    .replace(/(?<![a-z])(rs|inr|usd|cad|eur|gbp|egp|eu|uk|us)(\d)/g, '$1 $2')
    .replace(/(?<!\d)\.|\.(?!\d)/g, ' ')
    .replace(/[^a-z0-9.$€£₹¥<>%]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean)
    .slice(0, MAX_WORDS);
}

type PhraseSet = { phrases: Set<string>; first: Set<string>; longest: number };

/** Length of the longest phrase of `from` starting at word `i`, over words not yet consumed; 0 when none. */
function phraseAt(tokens: string[], consumed: boolean[], i: number, from: PhraseSet): number {
  if (consumed[i] || !from.first.has(tokens[i] ?? '')) return 0;
  let free = 1;
  while (free < from.longest && i + free < tokens.length && !consumed[i + free]) free++;
  for (let length = free; length >= 1; length--) {
    if (from.phrases.has(length === 1 ? tokens[i]! : tokens.slice(i, i + length).join(' '))) return length;
  }
  return 0;
}

interface Money {
  value: number;
  currency: string | null | undefined;
  /** A currency word or symbol was written with the number. */
  explicit: boolean;
  end: number;
}

const NUMBER = /^(\d+(?:\.\d+)?)(k)?$/;

function readMoney(tokens: string[], consumed: boolean[], start: number): Money | null {
  let i = start;
  let currency: string | null | undefined;
  let explicit = false;
  const currencyAt = (at: number) => !consumed[at] && tokens[at] !== undefined && Object.hasOwn(W.CURRENCY_WORDS, tokens[at]!);
  if (currencyAt(i)) [currency, explicit, i] = [W.CURRENCY_WORDS[tokens[i]!], true, i + 1];
  const number = consumed[i] ? null : NUMBER.exec(tokens[i] ?? '');
  if (!number) return null;
  let value = Number(number[1]) * (number[2] ? 1000 : 1);
  i++;
  const k = phraseAt(tokens, consumed, i, price.thousands);
  if (k && !number[2]) [value, i] = [value * 1000, i + k];
  if (!explicit && currencyAt(i)) [currency, explicit, i] = [W.CURRENCY_WORDS[tokens[i]!], true, i + 1];
  return { value, currency, explicit, end: i };
}

/** Systems that may follow the number ("42 eu"); "us" and "it" after a number are too often words. */
const AFTER_NUMBER_SYSTEMS = new Set(['eu', 'uk', 'fr', 'au', 'jp']);
const SIZE_NUMBER = /^(\d{1,2}(?:\.5)?|\d{2}x\d{2})$/;

/** Budgets ("under $120", "80 or less", "between 50 and 100", "over 200"), sizes ("size 42", "in XL", "EU 42") and "30% off". */
function readPricesAndSizes(tokens: string[], consumed: boolean[], draft: Draft): void {
  const take = (from: number, to: number) => consumed.fill(true, from, to);
  const money = (m: Money) => {
    if (m.currency && !draft.currency) draft.currency = m.currency;
  };
  /** Records the bound (the first one written wins) and returns where the money ends. */
  const bound = (which: 'minPrice' | 'maxPrice', m: Money): number => {
    if (draft[which] === undefined) draft[which] = m.value;
    money(m);
    return m.end;
  };
  for (let i = 0; i < tokens.length; ) {
    if (consumed[i]) {
      i++;
      continue;
    }
    const end = readPrice(i) || readSize(i) || readPercentOff(i);
    if (end) {
      take(i, end);
      i = end;
    } else i++;
  }

  function readPrice(i: number): number {
    const between = phraseAt(tokens, consumed, i, price.between);
    const range = between ? readRange(i + between, false) : 0;
    if (range) return range;
    const atMost = phraseAt(tokens, consumed, i, price.atMostBefore);
    const upTo = atMost ? readMoney(tokens, consumed, i + atMost) : null;
    if (upTo) return bound('maxPrice', upTo);
    const atLeast = phraseAt(tokens, consumed, i, price.atLeastBefore);
    const from = atLeast ? readMoney(tokens, consumed, i + atLeast) : null;
    if (from) return bound('minPrice', from);
    const around = phraseAt(tokens, consumed, i, price.around);
    const near = around ? readMoney(tokens, consumed, i + around) : null;
    if (near) {
      draft.minPrice ??= round(near.value * (1 - P.aroundShare));
      draft.maxPrice ??= round(near.value * (1 + P.aroundShare));
      money(near);
      return near.end;
    }
    const m = readMoney(tokens, consumed, i);
    if (!m) return 0;
    const orLess = phraseAt(tokens, consumed, m.end, price.atMostAfter);
    if (orLess) return bound('maxPrice', m) + orLess;
    const orMore = phraseAt(tokens, consumed, m.end, price.atLeastAfter);
    if (orMore) return bound('minPrice', m) + orMore;
    const span = readRange(i, true);
    if (span) return span;
    // A number with a currency and no bound word is a budget ("$50 dress"); a bare number is not a price ("jordan 1").
    return m.explicit ? bound('maxPrice', m) : 0;
  }

  /** "50 and 100", "$50 to $100": with `needCurrency`, one of the two must carry a currency. */
  function readRange(i: number, needCurrency: boolean): number {
    const low = readMoney(tokens, consumed, i);
    const join = low ? phraseAt(tokens, consumed, low.end, price.rangeJoin) : 0;
    const high = low && join ? readMoney(tokens, consumed, low.end + join) : null;
    if (!low || !high || (needCurrency && !low.explicit && !high.explicit)) return 0;
    const [min, max] = low.value <= high.value ? [low, high] : [high, low];
    bound('minPrice', min);
    bound('maxPrice', max);
    return high.end;
  }

  function readSize(i: number): number {
    const system = (at: number) => (consumed[at] ? undefined : W.SIZE_PHRASES.systems[tokens[at] ?? '']);
    const letterAt = (at: number) => phraseAt(tokens, consumed, at, size.letters);
    const found = (value: string, end: number, sys?: string) => {
      if (draft.size === undefined) {
        draft.size = value;
        if (sys) draft.sizeSystem = sys;
      }
      return end;
    };
    const letter = (at: number, length: number) => W.SIZE_PHRASES.letters[tokens.slice(at, at + length).join(' ')]!;
    const numberAt = (at: number) => !consumed[at] && SIZE_NUMBER.test(tokens[at] ?? '');

    const lead = phraseAt(tokens, consumed, i, size.lead);
    if (lead) {
      let at = i + lead;
      const sys = system(at);
      if (sys) at++;
      const letters = letterAt(at);
      if (letters) return found(letter(at, letters), at + letters, sys);
      if (numberAt(at) && (sys || phraseAt(tokens, consumed, i, size.numberLead) === lead)) {
        const after = sys ? undefined : system(at + 1);
        return found(tokens[at]!, at + 1 + (after ? 1 : 0), sys ?? after);
      }
    }
    const sys = system(i);
    if (sys && numberAt(i + 1)) return found(tokens[i + 1]!, i + 2, sys);
    const standalone = phraseAt(tokens, consumed, i, size.standalone);
    if (standalone) return found(letter(i, standalone), i + standalone);
    if (numberAt(i) && AFTER_NUMBER_SYSTEMS.has(tokens[i + 1] ?? '')) return found(tokens[i]!, i + 2, system(i + 1));
    return 0;
  }

  function readPercentOff(i: number): number {
    if (!/^\d+(\.\d+)?$/.test(tokens[i] ?? '') || tokens[i + 1] !== '%') return 0;
    draft.onSale = true;
    return i + 2 + (tokens[i + 2] === 'off' ? 1 : 0);
  }
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
    while (i + free < tokens.length && !consumed[i + free] && free < longestPhrase) free++;
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
  const nearColours = unique(colours.flatMap((c) => neighbouringFamilies(c))).filter((c) => !colours.includes(c));
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
    nearColours,
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
const round = (n: number) => Math.round(n * 100) / 100;
