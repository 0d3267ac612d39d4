// A dataset's styling and sizing settings (document 1, DatasetStyling and DatasetSizing) and the
// body of PUT /v1/datasets/{datasetId}/styling (document 2). Each part sent is replaced whole; text
// is shortened rather than refused; unknown rule ids, unknown brands and repeats are dropped.
//
// Where the spec is silent:
// - The first problem found speaks, in the order styling then sizing, fields in the order below:
//   the spec lists no `Validation failed.` for this endpoint, only single messages.
// - A body that is not an object counts as neither part sent (the route answers 400 before that).
// - Inside a part, `null` counts as left out (so saved empty, or on for the three booleans); a part
//   itself sent as `null` is not an object and is refused.
// - Unknown keys are ignored, at every level.
import { Invalid } from '../errors.js';
import { brandSlug } from './brands.js';

export const RULE_IDS = ['printLeads', 'palette', 'sets', 'materials', 'occasion', 'tuckAsShown', 'plainBackground'] as const;
export type RuleId = (typeof RULE_IDS)[number];

export const BASIC_SLOTS = ['top', 'bottom', 'footwear', 'outerwear', 'headwear', 'accessory'] as const;
export type BasicSlot = (typeof BASIC_SLOTS)[number];

/** A plain piece the store styles with but does not sell. */
export type HouseBasic = { basicId: string; text: string; slot: BasicSlot };

export type StylingSettings = { off: RuleId[]; basics: HouseBasic[]; choosing: string; picture: string; tryOn: boolean };

export type SizingSettings = { brandSizes: { enabled: boolean; logos: boolean; excludedBrands: string[] } };

export const STYLING_LIMITS = { basics: 8, basicText: 80, choosing: 1200, picture: 1200, excludedBrands: 40 } as const;

export const stylingMessages = {
  styling: 'styling must be an object.',
  sizing: 'sizing must be an object.',
  excludedBrands: 'sizing.brandSizes.excludedBrands must be an array of brand slugs.',
  tooManyBrands: `At most ${STYLING_LIMITS.excludedBrands} brands can be left out.`,
  needsSlot: (text: string) => `"${text}" needs a slot: one of ${BASIC_SLOTS.join(', ')}.`,
  tooManyBasics: `At most ${STYLING_LIMITS.basics} house basics.`,
  // Not in the spec: wrong types inside a part, worded like the repo's single-field messages.
  off: 'styling.off must be an array of rule ids.',
  basics: 'styling.basics must be an array of house basics, each with text and slot.',
  basicText: (index: number) => `styling.basics[${index}].text must be a string.`,
  text: (field: 'choosing' | 'picture') => `styling.${field} must be a string.`,
  onOff: (field: string) => `${field} must be true or false.`,
  brandSizes: 'sizing.brandSizes must be an object.',
} as const;

/** A store that never changed styling: every rule on, no basics, no own rules, try-on allowed. */
export const defaultStyling = (): StylingSettings => ({ off: [], basics: [], choosing: '', picture: '', tryOn: true });

export const defaultSizing = (): SizingSettings => ({ brandSizes: { enabled: true, logos: true, excludedBrands: [] } });

export type StylingPutContext = {
  /** Slugs of the brand directory (see `brandDirectory`); others are dropped. */
  knownBrandSlugs: ReadonlySet<string>;
  /** The store's own brand(s); always dropped. */
  ownBrandSlugs: ReadonlySet<string>;
  newBasicId: () => string;
  /** The basics saved before this request (a HouseBasic[] will do); only their ids may be kept. */
  previousBasics: readonly { basicId: string }[];
};

type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);

const given = (value: unknown): boolean => value !== undefined && value !== null;

/** Cut to at most `max` UTF-16 units (so zod's `max` agrees) without splitting a surrogate pair. */
const cut = (text: string, max: number): string => {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max;
  return text.slice(0, end).trimEnd();
};

/** One line: every run of white space (newlines included) becomes one space. */
const oneLine = (text: string, max: number): string => cut(text.replace(/\s+/g, ' ').trim(), max);

/** One rule per line: each line trimmed, blank lines dropped, line endings made `\n`. */
const rulesText = (text: string, max: number): string =>
  cut(
    text
      .split(/\r\n|\r|\n/)
      .map((line) => line.trim())
      .filter(Boolean)
      .join('\n'),
    max,
  );

/** On unless sent as false; anything but a boolean (or null, read as left out) is refused. */
const onUnlessFalse = (value: unknown, field: string): boolean => {
  if (!given(value)) return true;
  if (typeof value !== 'boolean') throw new Invalid(stylingMessages.onOff(field));
  return value;
};

/**
 * Rule ids matched without regard to case ("PrintLeads" is printLeads); anything else, strings or
 * not, is an unknown id and dropped. Saved in the spec's order, once each.
 */
const readOff = (value: unknown): RuleId[] => {
  if (!given(value)) return [];
  if (!Array.isArray(value)) throw new Invalid(stylingMessages.off);
  const sent = new Set(value.filter((id): id is string => typeof id === 'string').map((id) => id.trim().toLowerCase()));
  return RULE_IDS.filter((id) => sent.has(id.toLowerCase()));
};

const readRulesText = (value: unknown, field: 'choosing' | 'picture'): string => {
  if (!given(value)) return '';
  if (typeof value !== 'string') throw new Invalid(stylingMessages.text(field));
  return rulesText(value, STYLING_LIMITS[field]);
};

const slotOf = (value: unknown): BasicSlot | undefined => {
  if (typeof value !== 'string') return undefined;
  const slot = value.trim().toLowerCase();
  return BASIC_SLOTS.find((known) => known === slot);
};

/**
 * Basics: entries must be objects and `text` a string (or left out); a basic whose text is empty
 * once made one line is dropped whatever its slot; the slot is matched without regard to case and
 * padding, and a missing or unknown one gets the spec's message, naming the (shortened) text.
 * Repeats (same text and slot, case-insensitive) are dropped, the first kept. Only then is the
 * count checked.
 *
 * A `basicId` is kept only when it names one of the basics saved before and no earlier basic of
 * this body kept it; any other (unknown, not a string, already used) is treated as left out and a
 * new id assigned, so ids stay unique and a caller can never mint its own.
 */
const readBasics = (value: unknown, context: StylingPutContext): HouseBasic[] => {
  if (!given(value)) return [];
  if (!Array.isArray(value)) throw new Invalid(stylingMessages.basics);
  const basics: { sentId: unknown; text: string; slot: BasicSlot }[] = [];
  const seen = new Set<string>();
  value.forEach((entry: unknown, index) => {
    if (!isObject(entry)) throw new Invalid(stylingMessages.basics);
    if (given(entry.text) && typeof entry.text !== 'string') throw new Invalid(stylingMessages.basicText(index));
    const text = typeof entry.text === 'string' ? oneLine(entry.text, STYLING_LIMITS.basicText) : '';
    if (!text) return;
    const slot = slotOf(entry.slot);
    if (!slot) throw new Invalid(stylingMessages.needsSlot(text));
    const key = `${slot}\u0000${text.toLowerCase()}`;
    if (seen.has(key)) return;
    seen.add(key);
    basics.push({ sentId: entry.basicId, text, slot });
  });
  if (basics.length > STYLING_LIMITS.basics) throw new Invalid(stylingMessages.tooManyBasics);
  const keepable = new Set(context.previousBasics.map((basic) => basic.basicId));
  return basics.map(({ sentId, text, slot }) => {
    const kept = typeof sentId === 'string' && keepable.delete(sentId);
    return { basicId: kept ? sentId : context.newBasicId(), text, slot };
  });
};

/**
 * Excluded brands: an array of strings, else the spec's message. Each is read as a slug (a brand
 * name works too: "Levi's" is `levis`); the store's own and unknown ones are dropped, repeats
 * dropped, the order sent kept. More than the limit left after that is refused.
 */
const readExcludedBrands = (value: unknown, context: StylingPutContext): string[] => {
  if (!given(value)) return [];
  if (!Array.isArray(value) || !value.every((slug) => typeof slug === 'string')) throw new Invalid(stylingMessages.excludedBrands);
  const slugs = new Set<string>();
  for (const sent of value as string[]) {
    const slug = brandSlug(sent);
    if (!context.ownBrandSlugs.has(slug) && context.knownBrandSlugs.has(slug)) slugs.add(slug);
  }
  if (slugs.size > STYLING_LIMITS.excludedBrands) throw new Invalid(stylingMessages.tooManyBrands);
  return [...slugs];
};

const readStyling = (value: unknown, context: StylingPutContext): StylingSettings => {
  if (!isObject(value)) throw new Invalid(stylingMessages.styling);
  return {
    off: readOff(value.off),
    basics: readBasics(value.basics, context),
    choosing: readRulesText(value.choosing, 'choosing'),
    picture: readRulesText(value.picture, 'picture'),
    tryOn: onUnlessFalse(value.tryOn, 'styling.tryOn'),
  };
};

const readSizing = (value: unknown, context: StylingPutContext): SizingSettings => {
  if (!isObject(value)) throw new Invalid(stylingMessages.sizing);
  const brandSizes = given(value.brandSizes) ? value.brandSizes : {};
  if (!isObject(brandSizes)) throw new Invalid(stylingMessages.brandSizes);
  return {
    brandSizes: {
      enabled: onUnlessFalse(brandSizes.enabled, 'sizing.brandSizes.enabled'),
      logos: onUnlessFalse(brandSizes.logos, 'sizing.brandSizes.logos'),
      excludedBrands: readExcludedBrands(brandSizes.excludedBrands, context),
    },
  };
};

/**
 * The settings to save from a PUT body: `styling`, `sizing` or both, each present only when sent.
 * Throws `Invalid` (422) with document 2's messages.
 */
export function readStylingPut(body: unknown, context: StylingPutContext): { styling?: StylingSettings; sizing?: SizingSettings } {
  const fields = isObject(body) ? body : {};
  const sentStyling = fields.styling !== undefined;
  const sentSizing = fields.sizing !== undefined;
  if (!sentStyling && !sentSizing) throw new Invalid(stylingMessages.styling);
  const saved: { styling?: StylingSettings; sizing?: SizingSettings } = {};
  if (sentStyling) saved.styling = readStyling(fields.styling, context);
  if (sentSizing) saved.sizing = readSizing(fields.sizing, context);
  return saved;
}
