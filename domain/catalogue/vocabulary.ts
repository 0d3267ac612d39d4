// The closed vocabularies of document 1 (DatasetItemMetadata). Labels never hold a value outside
// these lists; zod schemas built from them check model output and stored rows.
import { z } from 'zod';

export const SLOTS = ['accessory', 'bag', 'jewellery', 'headwear', 'eyewear', 'hosiery', 'bottom', 'footwear', 'outerwear', 'full body', 'sleepwear', 'swimwear', 'non fashion', 'top', 'underwear'] as const;
export type Slot = (typeof SLOTS)[number];

export const GENDERS = ['mens', 'womens', 'unisex'] as const;
export type Gender = (typeof GENDERS)[number];

/** A dataset's `config.targetGender`: forces every ingested item to this gender when set. */
export const TARGET_GENDERS = ['mens', 'womens'] as const;
export type TargetGender = (typeof TARGET_GENDERS)[number];

export const AGE_GROUPS = ['adult', 'kids', 'baby'] as const;
export type AgeGroup = (typeof AGE_GROUPS)[number];

export const COLOR_FAMILIES = [
  'black', 'charcoal', 'grey', 'silver', 'white', 'ivory', 'cream', 'beige', 'tan', 'camel', 'brown', 'chocolate', 'khaki', 'olive', 'green', 'mint', 'teal', 'turquoise',
  'blue', 'navy', 'purple', 'lavender', 'pink', 'rose', 'coral', 'peach', 'red', 'burgundy', 'rust', 'orange', 'mustard', 'yellow', 'gold', 'multicolour', 'other',
] as const;
export type ColorFamily = (typeof COLOR_FAMILIES)[number];

export const PATTERNS = [
  'solid', 'striped', 'checked', 'plaid', 'gingham', 'floral', 'ditsy floral', 'animal print', 'geometric', 'abstract', 'polka dot', 'paisley', 'camouflage', 'chevron',
  'herringbone', 'tie dye', 'colour block', 'graphic', 'other',
] as const;
export type Pattern = (typeof PATTERNS)[number];

export const MATERIALS = [
  'cotton', 'linen', 'hemp', 'wool', 'cashmere', 'alpaca', 'mohair', 'silk', 'down', 'leather', 'suede', 'faux leather', 'shearling', 'polyester', 'nylon', 'elastane',
  'acrylic', 'viscose', 'modal', 'lyocell', 'acetate', 'metal', 'wood', 'glass', 'ceramic', 'rubber', 'straw', 'paper', 'other',
] as const;
export type Material = (typeof MATERIALS)[number];

export const FITS = ['skinny', 'slim', 'regular', 'relaxed', 'oversized', 'other'] as const;
export type Fit = (typeof FITS)[number];

export const IMAGE_TYPES = ['flat front', 'flat back', 'mannequin', 'underside', 'detail', 'model full body', 'model cropped', 'hand', 'group', 'scene', 'not product'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

export interface Feature {
  axis: string;
  value: string;
  /** 0 to 1, or null when the labeller gives no confidence. */
  confidence: number | null;
}

/** What a labeller reads off one product: every field of DatasetItemMetadata except the search text. */
export interface Labels {
  slot: Slot;
  /** A family of the taxonomy for this slot, or `other`. */
  family: string;
  gender: Gender;
  age_group: AgeGroup | null;
  color_rgb: [number, number, number];
  color_family: ColorFamily;
  /** Every colour the item is sold in, lower-case; `[color_family]` when it has no colour options. */
  colors: string[];
  pattern: Pattern;
  /** Main fabric first; empty when the listing does not say. */
  material: Material[];
  /** null for items without a fit (footwear, bags, jewellery…). */
  fit: Fit | null;
  features: Feature[];
  /** `axis:value`, sorted. */
  featureKeys: string[];
  taxonomyVersion: number;
}

const rgb = z.tuple([z.number().int().min(0).max(255), z.number().int().min(0).max(255), z.number().int().min(0).max(255)]);

/** The shape every labeller's answer is checked against (model output included). */
export const labelsSchema = z.object({
  slot: z.enum(SLOTS),
  family: z.string().min(1),
  gender: z.enum(GENDERS),
  age_group: z.enum(AGE_GROUPS).nullable(),
  color_rgb: rgb,
  color_family: z.enum(COLOR_FAMILIES),
  colors: z.array(z.string()),
  pattern: z.enum(PATTERNS),
  material: z.array(z.enum(MATERIALS)),
  fit: z.enum(FITS).nullable(),
  features: z.array(z.object({ axis: z.string(), value: z.string(), confidence: z.number().min(0).max(1).nullable() })),
  featureKeys: z.array(z.string()),
  taxonomyVersion: z.number().int(),
});
