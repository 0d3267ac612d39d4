// Document 1's DatasetItem as a response schema: what the item endpoints (and later search) return.
import { z } from 'zod';
import { AGE_GROUPS, COLOR_FAMILIES, FITS, GENDERS, IMAGE_TYPES, MATERIALS, PATTERNS, SLOTS } from '../../domain/catalogue/vocabulary.js';

// `url` is ours, beside the spec's id and key: `{BASE_URL}/v1/image/{key}`, ready for an <img>.
const storedImage = z.object({ id: z.string(), key: z.string(), url: z.string().describe('`{BASE_URL}/v1/image/{key}`: the photo through the image route.') });

export const variantSchema = z.object({
  variantId: z.string(),
  sku: z.string(),
  label: z.string(),
  options: z.array(z.object({ name: z.string(), value: z.string() })),
  inStock: z.boolean(),
  quantity: z.number().int().nullable(),
  price: z.number(),
  compareAtPrice: z.number().nullable(),
});

export const itemSchema = z.object({
  itemId: z.uuid(),
  datasetId: z.uuid(),
  organizationId: z.uuid(),
  status: z.enum(['active', 'archived']),
  version: z.number(),
  metadata: z.object({
    description: z.string(),
    gender: z.enum(GENDERS),
    age_group: z.enum(AGE_GROUPS).nullable(),
    color_rgb: z.array(z.number().int()),
    color_family: z.enum(COLOR_FAMILIES),
    colors: z.array(z.string()),
    pattern: z.enum(PATTERNS),
    material: z.array(z.enum(MATERIALS)),
    fit: z.enum(FITS).nullable(),
    slot: z.enum(SLOTS),
    family: z.string(),
    features: z.array(z.object({ axis: z.string(), value: z.string(), confidence: z.number().nullable() })),
    featureKeys: z.array(z.string()),
    taxonomyVersion: z.number().int().nullable(),
    searchTextVersion: z.number().int().nullable(),
  }),
  product: z.object({
    sku: z.string(),
    url: z.string(),
    name: z.string(),
    description: z.string(),
    careInstructions: z.string(),
    price: z.number(),
    currency: z.string(),
    market: z.string().nullable(),
    model: z.object({ height: z.string(), size: z.string() }),
    setItems: z.array(z.string()),
    recommendedItems: z.array(z.string()),
    assets: z.object({
      images: z.array(z.object({ originalImageUrl: z.string(), type: z.union([z.enum(IMAGE_TYPES), z.literal('')]), uploaded: storedImage })),
      generated: z.object({ thumbnail: z.object({ url: z.string().nullable() }), segmented: z.array(z.object({ sourceImageId: z.string(), uploaded: storedImage })) }),
    }),
    variants: z.array(variantSchema),
  }),
});
