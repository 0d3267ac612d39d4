// Gender, age group, pattern, material, fit and feature values from the listing's words, each
// weighed by the field it was read in (title over description).
import {
  AGE_CUES,
  axesOf,
  axisCues,
  FAMILY_DEFAULTS,
  familyDefinition,
  FIT_CUES,
  GENDER_CUES,
  MATERIAL_CUES,
  PATTERN_CUES,
  PhraseMatcher,
  SLOTS_WITH_FIT,
  WEAK_GENDER_CUES,
} from '../../../domain/catalogue/taxonomy/index.js';
import type { Listing } from '../../../domain/catalogue/product-input.js';
import type { AgeGroup, Feature, Fit, Gender, Material, Pattern, Slot } from '../../../domain/catalogue/vocabulary.js';
import type { TextField } from './listing-text.js';

function matcherOf<T extends string>(table: Readonly<Record<T, readonly string[]>>): PhraseMatcher<T> {
  const matcher = new PhraseMatcher<T>();
  for (const [value, cues] of Object.entries(table) as Array<[T, string[]]>) for (const cue of cues) matcher.add(cue, value);
  return matcher;
}

const genderMatcher = matcherOf(GENDER_CUES);
const ageMatcher = matcherOf(AGE_CUES);
const patternMatcher = matcherOf({ ...PATTERN_CUES, other: ['print', 'printed', 'pattern', 'patterned', 'jacquard', 'embroidered', 'patchwork', 'novelty print'] });
const materialMatcher = matcherOf(MATERIAL_CUES);
const fitMatcher = matcherOf(FIT_CUES);

/** A cue read in the description counts when it is specific: a phrase, or a long word. */
const specific = (phrase: string) => phrase.includes(' ') || phrase.length >= 6;

/** Score of each value over all fields; `weights` overrides a field's weight (0 skips it). */
function tally<T>(fields: TextField[], matcher: PhraseMatcher<T>, weights: Partial<Record<TextField['kind'], number>> = {}, weigh: (phrase: string) => number = () => 1) {
  const scores = new Map<T, { score: number; best: number }>();
  for (const field of fields) {
    const weight = weights[field.kind] ?? field.weight;
    if (!weight) continue;
    for (const segment of field.segments) {
      for (const match of matcher.scan(segment)) {
        if (field.kind === 'description' && !specific(match.phrase)) continue;
        const w = weight * weigh(match.phrase);
        for (const value of match.values) {
          const entry = scores.get(value) ?? { score: 0, best: 0 };
          entry.score += w;
          entry.best = Math.max(entry.best, weight);
          scores.set(value, entry);
        }
      }
    }
  }
  return [...scores].sort((a, b) => b[1].score - a[1].score);
}

/** The gender the listing's own words name (null when none); the handle of its URL counts too ("…-womens", "w-…"). */
export function readGenderCue(listing: Listing, fields: TextField[], slot: Slot): Gender | null {
  const ranked = tally(fields, genderMatcher, { options: 0, description: 0.6 }, (phrase) => (WEAK_GENDER_CUES.has(phrase) ? 0.4 : 1));
  const score = (g: Gender) => ranked.find(([value]) => value === g)?.[1].score ?? 0;
  let [mens, womens, unisex] = [score('mens'), score('womens'), score('unisex')];
  // Sneaker shops write the women's cut of a model as "WMNS", "(W)" or a trailing "W"; the handle often keeps it.
  const title = ` ${(listing.name ?? '').toLowerCase()} `;
  if (/\bwmns\b|\(w\)/.test(title) || (slot === 'footwear' && /\s(w)\s/.test(title.replace(/["'“”‘’]/g, ' ')))) womens += 4;
  const handle = (listing.url ?? '').split('/').pop() ?? '';
  if (/(^|-)(womens|women|wmns)(-|$)|^w-/.test(handle.toLowerCase())) womens += 1;
  if (/(^|-)(mens|men)(-|$)/.test(handle.toLowerCase())) mens += 1;
  if (/\bco-ed\b/i.test(listing.tags.join(' '))) unisex += 1;
  if (unisex >= 1 && unisex >= Math.max(mens, womens) * 0.5) return 'unisex';
  if (mens >= 1 && mens >= womens * 1.5) return 'mens';
  if (womens >= 1 && womens >= mens * 1.5) return 'womens';
  if (mens >= 1 && womens >= 1) return 'unisex';
  return null;
}

/** The gender a family implies when the words name none (a dress is womenswear). */
export function impliedGender(slot: Slot, family: string): Exclude<Gender, 'unisex'> | null {
  return familyDefinition(slot, family)?.gender ?? null;
}

export function decideGender(listing: Listing, fields: TextField[], slot: Slot, family: string): Gender {
  return readGenderCue(listing, fields, slot) ?? impliedGender(slot, family) ?? 'unisex';
}

const KID_SIZE = /^(\d{1,2}\s*(-\s*\d{1,2})?\s*(y|yr|yrs|years?|t|ans)|\d{1,2}t)$/i;
const BABY_SIZE = /^(\d{1,2}\s*(-\s*\d{1,2})?\s*(m|mo|mths?|months?)|nb|newborn|prem|preemie)$/i;

export function decideAgeGroup(listing: Listing, fields: TextField[]): AgeGroup {
  // "girls"/"boys" (and "girl's") name kidswear; a singular "girl" is as often a name ("Good News Girl Hat").
  const ranked = tally(fields, ageMatcher, { options: 0, description: 0.4 }, (phrase) => (phrase === 'girl' || phrase === 'boy' ? 0.3 : 1));
  const top = ranked[0];
  if (top && top[1].score >= 1) return top[0];
  const sizes = (listing.options ?? []).filter((o) => /size|age|taille/i.test(o.name)).flatMap((o) => o.values.map((v) => v.trim()));
  if (sizes.length && sizes.filter((s) => BABY_SIZE.test(s)).length * 2 >= sizes.length) return 'baby';
  if (sizes.length && sizes.filter((s) => KID_SIZE.test(s)).length * 2 >= sizes.length) return 'kids';
  return 'adult';
}

const GRAPHIC_FAMILIES = new Set(['t shirt', 'sweatshirt', 'hoodie', 'tank top']);

export function decidePattern(fields: TextField[], family: string): Pattern {
  const ranked = tally(fields, patternMatcher, { options: 1.5, description: 0.5 });
  const top = ranked.find(([, s]) => s.score >= 1);
  if (!top) return 'solid';
  if (top[0] === 'other') {
    const named = ranked.find(([value, s]) => value !== 'other' && s.score >= 0.5);
    if (named) return named[0];
    return GRAPHIC_FAMILIES.has(family) ? 'graphic' : 'other';
  }
  return top[0];
}

const COMPOSITION = /(\d{1,3}(?:[.,]\d+)?)\s*%\s*([a-z][a-z -]{1,40})|([a-z][a-z -]{1,40}?)\s*(\d{1,3}(?:[.,]\d+)?)\s*%/gi;

/** Materials, main first: a "65% polyester 35% cotton" composition when given, else in the order read. */
export function decideMaterial(listing: Listing, fields: TextField[], slot: Slot): Material[] {
  const text = `${listing.name}\n${listing.tags.join(' ')}\n${listing.options.map((o) => o.values.join(' ')).join(' ')}\n${listing.description}`;
  const shares = new Map<Material, number>();
  for (const match of text.matchAll(COMPOSITION)) {
    const share = Number((match[1] ?? match[4] ?? '0').replace(',', '.'));
    const words = (match[2] ?? match[3] ?? '').toLowerCase().replace(/[^a-z]+/g, ' ').trim().split(' ');
    const found = materialMatcher.scan(match[2] ? words.slice(0, 3) : words.slice(-3))[0];
    if (found && share > 0 && share <= 100) shares.set(found.values[0]!, (shares.get(found.values[0]!) ?? 0) + share);
  }
  if (shares.size) return [...shares].sort((a, b) => b[1] - a[1]).map(([m]) => m).slice(0, 5);
  const ordered: Material[] = [];
  for (const kind of ['title', 'type', 'tags', 'options', 'description'] as const) {
    for (const field of fields.filter((f) => f.kind === kind)) {
      for (const segment of field.segments) {
        for (const match of materialMatcher.scan(segment)) {
          if (kind === 'description' && !specific(match.phrase) && match.phrase !== 'silk' && match.phrase !== 'wool') continue;
          for (const m of match.values) if (!ordered.includes(m)) ordered.push(m);
        }
      }
    }
  }
  if (!ordered.length && slot === 'jewellery' && /\b(gold|silver|plated|sterling)\b/i.test(listing.name)) ordered.push('metal');
  return ordered.slice(0, 4);
}

export function decideFit(fields: TextField[], slot: Slot): Fit | null {
  if (!SLOTS_WITH_FIT.has(slot)) return null;
  const ranked = tally(fields, fitMatcher, { options: 0, description: 0.8 });
  return ranked[0]?.[0] ?? 'regular';
}

const CONFIDENCE: Record<TextField['kind'], number> = { title: 0.9, type: 0.85, tags: 0.75, options: 0.75, description: 0.6 };

/** One answer per axis of the family: the cue read with most weight, else the family's default. */
export function decideFeatures(fields: TextField[], slot: Slot, family: string): Feature[] {
  const features: Feature[] = [];
  for (const { axis } of axesOf(slot, family)) {
    const ranked = tally(fields, axisCues(axis));
    const top = ranked[0];
    if (top) {
      const kind = fields.find((f) => f.weight === top[1].best)?.kind ?? 'description';
      features.push({ axis, value: top[0], confidence: CONFIDENCE[kind] });
      continue;
    }
    const implied = impliedValue(axis, family);
    if (implied) features.push({ axis, value: implied, confidence: 0.7 });
    else if (FAMILY_DEFAULTS[family]?.[axis]) features.push({ axis, value: FAMILY_DEFAULTS[family][axis], confidence: 0.4 });
  }
  return features;
}

function impliedValue(axis: string, family: string): string | undefined {
  if (axis === 'sleeve length' && (family === 'tank top' || family === 'camisole')) return 'sleeveless';
  if (axis === 'neckline' && family === 'polo') return 'collared';
  if (axis === 'closure' && family === 'hoodie') return undefined;
  return undefined;
}

export function featureKeys(features: Feature[]): string[] {
  return features.map((f) => `${f.axis}:${f.value}`).sort();
}
