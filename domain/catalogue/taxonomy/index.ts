// The catalogue taxonomy: families per slot, the words that signal them, feature axes and their
// values, and cue words for gender, age, pattern, material and fit. Bump TAXONOMY_VERSION when a
// change would relabel existing items. Pure.
import { SLOTS, type Slot } from '../vocabulary.js';
import { AXES, FAMILY_DEFAULTS, type AxisValue } from './features.js';
import { FAMILIES, GENERIC_FAMILIES, NOT_A_FAMILY, SPECIALISERS, type FamilyDefinition } from './families.js';
import { PhraseMatcher } from './matcher.js';
import { withPlurals } from './text.js';

export { AXES, FAMILY_DEFAULTS, FAMILIES, GENERIC_FAMILIES, NOT_A_FAMILY, SPECIALISERS, PhraseMatcher, type AxisValue, type FamilyDefinition };
export { AGE_CUES, FIT_CUES, GENDER_CUES, MATERIAL_CUES, PATTERN_CUES, WEAK_GENDER_CUES } from './cues.js';
export { normalise, withPlurals, words } from './text.js';
export { familyTraits, nearFamilies } from './near.js';
export type { PhraseMatch } from './matcher.js';

export const TAXONOMY_VERSION = 2;

/** Slots whose items have a fit; everything else (footwear, bags, jewellery…) answers `fit: null`. */
export const SLOTS_WITH_FIT: ReadonlySet<Slot> = new Set<Slot>(['top', 'bottom', 'outerwear', 'full body', 'sleepwear', 'swimwear']);

const bySlot = new Map<Slot, FamilyDefinition[]>(SLOTS.map((slot) => [slot, FAMILIES.filter((f) => f.slot === slot)]));
const byKey = new Map(FAMILIES.map((f) => [`${f.slot}/${f.family}`, f]));

/** Family names of a slot, in taxonomy order (without `other`). */
export function familiesOf(slot: Slot): string[] {
  return (bySlot.get(slot) ?? []).map((f) => f.family);
}

export function familyDefinition(slot: Slot, family: string): FamilyDefinition | undefined {
  return byKey.get(`${slot}/${family}`);
}

/** True when `family` is a family of `slot` or `other`. */
export function isFamilyOf(slot: Slot, family: string): boolean {
  return family === 'other' || byKey.has(`${slot}/${family}`);
}

/** The feature axes of a family, each with its values (none for `other`). */
export function axesOf(slot: Slot, family: string): Array<{ axis: string; values: readonly AxisValue[] }> {
  return (familyDefinition(slot, family)?.axes ?? []).flatMap((axis) => (AXES[axis] ? [{ axis, values: AXES[axis] }] : []));
}

export function isAxisValue(axis: string, value: string): boolean {
  return AXES[axis]?.some((v) => v.value === value) ?? false;
}

export interface FamilyCue {
  slot: Slot;
  family: string;
  /** 1 for a word that names the family, 0.5 for a hint. */
  strength: number;
}

let familyMatcher: PhraseMatcher<FamilyCue | null> | undefined;

/**
 * Every family cue (with plurals) as one phrase matcher. A `null` value is a phrase that blocks
 * a shorter cue inside it ("short sleeve" is not shorts).
 */
export function familyCues(): PhraseMatcher<FamilyCue | null> {
  if (familyMatcher) return familyMatcher;
  const matcher = new PhraseMatcher<FamilyCue | null>();
  const seen = new Set<string>();
  const add = (phrase: string, cue: FamilyCue | null) => {
    for (const form of withPlurals(phrase)) {
      const key = `${form}|${cue ? `${cue.slot}/${cue.family}` : '-'}`;
      if (seen.has(key)) continue;
      seen.add(key);
      matcher.add(form, cue);
    }
  };
  for (const f of FAMILIES) {
    for (const cue of f.cues) add(cue, { slot: f.slot, family: f.family, strength: 1 });
    for (const cue of f.weak) add(cue, { slot: f.slot, family: f.family, strength: 0.5 });
  }
  for (const phrase of NOT_A_FAMILY) if (!matcher.has(phrase)) matcher.add(phrase, null);
  familyMatcher = matcher;
  return matcher;
}

/** Phrase matcher over one axis's value cues. */
const axisMatchers = new Map<string, PhraseMatcher<string>>();
export function axisCues(axis: string): PhraseMatcher<string> {
  let matcher = axisMatchers.get(axis);
  if (!matcher) {
    matcher = new PhraseMatcher<string>();
    for (const { value, cues } of AXES[axis] ?? []) for (const cue of cues) matcher.add(cue, value);
    axisMatchers.set(axis, matcher);
  }
  return matcher;
}
