// The vision Labeller over OpenAI's (or any compatible server's) chat completions: the listing's
// text and up to three photos go in, a JSON answer shaped by a strict json_schema comes out. The
// answer is checked field by field against the vocabularies and the taxonomy; a field outside
// them is repaired (a colour name to its family, a family word to its family) or taken from the
// offline labeller's answer. The dataset's targetGender always wins. Transport errors are thrown,
// so the ingest queue retries the item.
import OpenAI from 'openai';
import { z } from 'zod';
import { colourFamilyOf, FAMILY_RGB } from '../../domain/catalogue/colours.js';
import type { Listing } from '../../domain/catalogue/product-input.js';
import { axesOf, familiesOf, familyCues, isAxisValue, isFamilyOf, SLOTS_WITH_FIT, TAXONOMY_VERSION, words } from '../../domain/catalogue/taxonomy/index.js';
import {
  AGE_GROUPS,
  COLOR_FAMILIES,
  FITS,
  GENDERS,
  labelsSchema,
  MATERIALS,
  PATTERNS,
  SLOTS,
  type Feature,
  type Labels,
  type Slot,
} from '../../domain/catalogue/vocabulary.js';
import { describeAudience, type StoreAudience } from '../../domain/catalogue/store-audience.js';
import { labelListing, offlineFeatures } from './offline-labeller.js';
import { colourOptionValues } from './offline/colour.js';
import { stripHtml } from './offline/listing-text.js';
import type { Labeller, LabelRequest } from './port.js';

export interface OpenAiLabellerOptions {
  /** A vision model, e.g. `gpt-4o-mini`. */
  model: string;
  apiKey?: string;
  baseURL?: string;
  /** A ready client (shared with the embedder); apiKey and baseURL are then ignored. */
  client?: OpenAI;
  /** Photos sent per product, at most 3. */
  maxPhotos?: number;
}

const MAX_PHOTOS = 3;
const DESCRIPTION_CHARS = 2000;

/** The strict JSON schema the model answers in (every property required, nothing else allowed). */
export const LABELS_JSON_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['slot', 'family', 'gender', 'age_group', 'color_family', 'color_rgb', 'colors', 'pattern', 'material', 'fit', 'features'],
  properties: {
    slot: { type: 'string', enum: [...SLOTS] },
    family: { type: 'string', description: 'one of the families listed for the slot, or "other"' },
    gender: { type: 'string', enum: [...GENDERS] },
    age_group: { type: 'string', enum: [...AGE_GROUPS] },
    color_family: { type: 'string', enum: [...COLOR_FAMILIES] },
    color_rgb: { type: 'array', items: { type: 'integer' }, description: '[r, g, b] of the main colour, 0 to 255' },
    colors: { type: 'array', items: { type: 'string' }, description: 'every colour the item is sold in, lower-case' },
    pattern: { type: 'string', enum: [...PATTERNS] },
    material: { type: 'array', items: { type: 'string', enum: [...MATERIALS] }, description: 'main fabric first; empty when unknown' },
    fit: { type: ['string', 'null'], enum: [...FITS, null], description: 'null for footwear, bags, jewellery, accessories' },
    features: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['axis', 'value', 'confidence'],
        properties: { axis: { type: 'string' }, value: { type: 'string' }, confidence: { type: 'number' } },
      },
    },
  },
} as const;

function instructions(): string {
  const families = SLOTS.map((slot) => `${slot}: ${familiesOf(slot).join(', ')}`).join('\n');
  const axes = SLOTS.flatMap((slot) =>
    familiesOf(slot).flatMap((family) => {
      const list = axesOf(slot, family);
      return list.length ? [`${family}: ${list.map((a) => `${a.axis} (${a.values.map((v) => v.value).join('|')})`).join('; ')}`] : [];
    }),
  ).join('\n');
  return [
    'You label one product of a clothing store for search. Read the listing and the photos and answer in the JSON schema given.',
    'Use only the listed values. family is one of the families of the chosen slot, or "other".',
    'features: one answer per axis of the chosen family, with your confidence from 0 to 1.',
    `Families by slot:\n${families}`,
    `Feature axes by family:\n${axes}`,
  ].join('\n\n');
}

function listingText(listing: Listing, store: StoreAudience | null | undefined): string {
  const lines = [
    `Title: ${listing.name}`,
    listing.productType && `Product type: ${listing.productType}`,
    listing.brand && `Brand: ${listing.brand}`,
    listing.tags.length > 0 && `Tags: ${listing.tags.slice(0, 40).join(', ')}`,
    ...listing.options.map((o) => `Option ${o.name}: ${o.values.slice(0, 30).join(', ')}`),
    listing.description && `Description: ${stripHtml(listing.description).slice(0, DESCRIPTION_CHARS)}`,
    // The store's own catalogue: the gender of a listing that names none is most often the store's.
    store && `Store audience (from its whole catalogue): ${describeAudience(store)}. When this product's own words and photos do not show a gender, answer the store's (or its line's); answer unisex only when the product says so or the store sells to several genders and nothing places it.`,
  ];
  return lines.filter(Boolean).join('\n');
}

export function createOpenAiLabeller(options: OpenAiLabellerOptions): Labeller {
  const client = options.client ?? new OpenAI({ apiKey: options.apiKey ?? 'unset', baseURL: options.baseURL, maxRetries: 2 });
  const maxPhotos = Math.min(MAX_PHOTOS, Math.max(0, options.maxPhotos ?? MAX_PHOTOS));
  const system = instructions();
  return {
    name: `openai:${options.model}`,
    async label(request) {
      const images = request.photos.slice(0, maxPhotos).map((photo) => ({
        type: 'image_url' as const,
        image_url: { url: `data:image/jpeg;base64,${photo.jpeg.toString('base64')}`, detail: 'low' as const },
      }));
      const completion = await client.chat.completions.create({
        model: options.model,
        temperature: 0,
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: [{ type: 'text', text: listingText(request.listing, request.store) }, ...images] },
        ],
        response_format: { type: 'json_schema', json_schema: { name: 'product_labels', strict: true, schema: LABELS_JSON_SCHEMA as unknown as Record<string, unknown> } },
      });
      return repairLabels(parseJson(completion.choices[0]?.message?.content), request);
    },
  };
}

function parseJson(content: string | null | undefined): unknown {
  if (!content) return null;
  try {
    return JSON.parse(content.replace(/^```(?:json)?\s*|\s*```$/g, ''));
  } catch {
    return null;
  }
}

const pick = <T>(schema: z.ZodType<T>, value: unknown): T | undefined => {
  const parsed = schema.safeParse(typeof value === 'string' ? value.trim().toLowerCase() : value);
  return parsed.success ? parsed.data : undefined;
};

/**
 * The model's answer made valid: each field checked on its own; a field outside the vocabulary
 * is repaired when its words allow, else taken from the offline labeller's answer.
 */
export function repairLabels(answer: unknown, request: LabelRequest): Labels {
  const offline = labelListing(request);
  const raw = (answer && typeof answer === 'object' ? answer : {}) as Record<string, unknown>;
  const slot: Slot = pick(z.enum(SLOTS), raw.slot) ?? offline.slot;
  const family = repairFamily(slot, raw.family, offline);
  const colourName = typeof raw.color_family === 'string' ? raw.color_family : '';
  const color_family = pick(z.enum(COLOR_FAMILIES), raw.color_family) ?? colourFamilyOf(colourName)?.family ?? offline.color_family;
  const rgb = pick(z.array(z.number()).length(3), raw.color_rgb);
  const color_rgb: Labels['color_rgb'] = rgb
    ? [clampByte(rgb[0]!), clampByte(rgb[1]!), clampByte(rgb[2]!)]
    : color_family === offline.color_family
      ? offline.color_rgb
      : [...FAMILY_RGB[color_family]];
  const modelColours = (pick(z.array(z.string()), raw.colors) ?? []).map((c) => c.trim().toLowerCase()).filter(Boolean);
  // The shop's colour options are the truth about what the item is sold in.
  const colors = colourOptionValues(request.listing).length ? offline.colors : modelColours.length ? [...new Set(modelColours)] : [color_family];
  const materials = pick(z.array(z.unknown()), raw.material);
  const material = materials ? [...new Set(materials.flatMap((m) => pick(z.enum(MATERIALS), m) ?? []))] : offline.material;
  const fit = SLOTS_WITH_FIT.has(slot) ? (pick(z.enum(FITS), raw.fit) ?? offline.fit ?? 'regular') : null;
  const features = repairFeatures(slot, family, raw.features, request.listing, offline);
  const labels: Labels = {
    slot,
    family,
    gender: request.targetGender ?? pick(z.enum(GENDERS), raw.gender) ?? offline.gender,
    age_group: pick(z.enum(AGE_GROUPS), raw.age_group) ?? offline.age_group,
    color_rgb,
    color_family,
    colors,
    pattern: pick(z.enum(PATTERNS), raw.pattern) ?? offline.pattern,
    material: materials && materials.length > 0 && material.length === 0 ? offline.material : material,
    fit,
    features,
    featureKeys: features.map((f) => `${f.axis}:${f.value}`).sort(),
    taxonomyVersion: TAXONOMY_VERSION,
  };
  return labelsSchema.parse(labels) as Labels;
}

function repairFamily(slot: Slot, value: unknown, offline: Labels): string {
  const family = typeof value === 'string' ? value.trim().toLowerCase().replace(/[-_]+/g, ' ') : '';
  if (family && isFamilyOf(slot, family)) return family;
  // A synonym or plural the taxonomy knows ("trainers", "t-shirts").
  for (const match of familyCues().scan(words(family))) {
    const cue = match.values.find((c) => c && c.slot === slot);
    if (cue) return cue.family;
  }
  return offline.slot === slot ? offline.family : 'other';
}

function repairFeatures(slot: Slot, family: string, value: unknown, listing: Listing, offline: Labels): Feature[] {
  const answers = pick(z.array(z.object({ axis: z.string(), value: z.string(), confidence: z.number().nullable().optional() })), value) ?? [];
  const axes = new Set(axesOf(slot, family).map((a) => a.axis));
  const byAxis = new Map<string, Feature>();
  for (const answer of answers) {
    const axis = answer.axis.trim().toLowerCase();
    const v = answer.value.trim().toLowerCase();
    if (!axes.has(axis) || !isAxisValue(axis, v) || byAxis.has(axis)) continue;
    const confidence = typeof answer.confidence === 'number' && Number.isFinite(answer.confidence) ? Math.min(1, Math.max(0, answer.confidence)) : null;
    byAxis.set(axis, { axis, value: v, confidence });
  }
  const fallback = offline.slot === slot && offline.family === family ? offline.features : offlineFeatures(listing, slot, family);
  for (const feature of fallback) if (!byAxis.has(feature.axis)) byAxis.set(feature.axis, feature);
  return [...byAxis.values()];
}

const clampByte = (n: number) => Math.min(255, Math.max(0, Math.round(Number.isFinite(n) ? n : 0)));
