// The lexicons query understanding reads with, built once when the module loads: shopper phrases
// (filler, "similar to", stock, sale, occasions, gender, age, price hints), garments (the
// taxonomy's family cues with shopper synonyms and slot words), materials, patterns, fits,
// brands, feature cues, budget and size phrasing, and the words a misspelling may become. Pure.
import { findColours, isShadeWord } from '../catalogue/colours.js';
import {
  AGE_CUES,
  AXES,
  FAMILIES,
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
import { COLOR_FAMILIES, MATERIALS, PATTERNS, type AgeGroup, type Fit, type Gender, type Material, type Pattern, type Slot } from '../catalogue/vocabulary.js';
import * as W from './shopper-words.js';
import { Speller } from './spelling.js';
export type Consuming =
  | { kind: 'filler' }
  | { kind: 'similar' }
  | { kind: 'inStock' }
  | { kind: 'onSale' }
  | { kind: 'occasion'; phrase: string }
  | { kind: 'gender'; gender: Gender }
  | { kind: 'age'; age: Exclude<AgeGroup, 'adult'> }
  | { kind: 'priceHint'; hint: 'low' | 'high' };

export type GarmentCue = { kind: 'family'; slot: Slot; family: string; strength: number } | { kind: 'slot'; slot: Slot; generic?: string };

/** Every word of every phrase any lexicon knows: such a word is never corrected. */
const knownWords = new Set<string>();
/** First words of the phrases of every lexicon below: a word that starts none is looked up no further. */
export const firstWords = new Set<string>();
let longest = 1;

export class Lexicon<T> extends PhraseMatcher<T> {
  private readonly first = new Set<string>();

  override add(phrase: string, value: T): this {
    const words = phrase.split(' ');
    for (const word of words) knownWords.add(word);
    firstWords.add(words[0]!);
    this.first.add(words[0]!);
    longest = Math.max(longest, words.length);
    return super.add(phrase, value);
  }

  /** The matcher's scan, skipped when no word of the run starts a phrase. */
  override scan(words: readonly string[]): PhraseMatch<T>[] {
    return words.some((word) => this.first.has(word)) ? super.scan(words) : [];
  }
}

const phrasesOf = (table: Readonly<Record<string, readonly string[]>>) => Object.entries(table) as Array<[string, readonly string[]]>;

export const consuming = new Lexicon<Consuming>();
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

export const familyByName = new Map<string, FamilyDefinition>(FAMILIES.map((f) => [f.family, f]));

export const garments = new Lexicon<GarmentCue | null>();
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

export const materials = new Lexicon<Material>();
for (const [material, cues] of phrasesOf(MATERIAL_CUES)) if (material !== 'other') for (const cue of cues) materials.add(cue, material as Material);
for (const [material, cues] of phrasesOf(MATERIAL_CUES)) if (material === 'other') for (const cue of cues) for (const word of cue.split(' ')) knownWords.add(word);

export const patterns = new Lexicon<Pattern>();
for (const [pattern, cues] of phrasesOf(PATTERN_CUES)) for (const cue of cues) patterns.add(cue, pattern as Pattern);
for (const [phrase, pattern] of Object.entries(W.PATTERN_SYNONYMS)) patterns.add(phrase, pattern);

export const fits = new Lexicon<Fit>();
for (const [fit, cues] of phrasesOf(FIT_CUES)) for (const cue of cues) fits.add(cue, fit as Fit);

export const brands = new Lexicon<{ brand: string; footwear: boolean }>();
for (const [group, names] of phrasesOf(W.BRANDS)) for (const name of names) brands.add(name, { brand: name, footwear: group === 'footwear' });
export const apparelBrands = new Set(W.BRANDS.apparel);

/** Every feature cue of every axis; single words among them yield to an occasion word ("smart"). */
export const axisPhrases = new Set<string>();
for (const values of Object.values(AXES)) for (const { cues } of values) for (const cue of cues) axisPhrases.add(cue);
export const axisWords = new Set([...axisPhrases].flatMap((phrase) => phrase.split(' ')));
for (const phrase of axisPhrases) {
  for (const word of phrase.split(' ')) knownWords.add(word);
  firstWords.add(phrase.split(' ')[0]!);
  longest = Math.max(longest, phrase.split(' ').length);
}

export type PhraseSet = { phrases: Set<string>; first: Set<string>; longest: number };

const set = (phrases: readonly string[]): PhraseSet => {
  for (const phrase of phrases) for (const word of phrase.split(' ')) knownWords.add(word);
  return { phrases: new Set(phrases), first: new Set(phrases.map((p) => p.split(' ')[0]!)), longest: Math.max(1, ...phrases.map((p) => p.split(' ').length)) };
};
export const P = W.PRICE_PHRASES;
export const price = {
  atMostBefore: set(P.atMostBefore), atMostAfter: set(P.atMostAfter), atLeastBefore: set(P.atLeastBefore), atLeastAfter: set(P.atLeastAfter),
  around: set(P.around), between: set(P.between), rangeJoin: set(P.rangeJoin), thousands: set(P.thousands),
};
export const size = {
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

export const speller = new Speller(spellingTargets);
export const isKnown = (word: string) => knownWords.has(word) || isShadeWord(word) || findColours([word]).length > 0;


/** Words in the longest phrase any lexicon holds. */
export const LONGEST_PHRASE = longest;
