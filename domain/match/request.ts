// The body and answer of POST /v2/agent/match (experimental): a photo of a dressed person, as a
// data URI or a web address, and the scope and market of a search. Bounds and messages here, so
// the route, the docs and the tests read the same words. Pure.
import { z } from 'zod';
import { COLOR_FAMILIES, PATTERNS, SLOTS } from '../catalogue/vocabulary.js';
import { AGENT_LIMITS, IMAGE_TYPES, readDataUri } from '../agent/messages.js';
import { STORE_MESSAGE, storeSchema } from '../store-scope.js';

export const MATCH_LIMITS = {
  /** Decoded bytes of the photo, sent or fetched. */
  imageBytes: AGENT_LIMITS.imageBytes,
  /** Width × height, read from the header before anything decodes. */
  imagePixels: AGENT_LIMITS.imagePixels,
  url: 2048,
  datasetIds: 100,
  /** Best matches per piece, then alternates. */
  products: 5,
  alternates: 5,
} as const;

/** A data URI's base64 is 4/3 of its bytes; the rest of the body is small. */
export const MATCH_BODY_LIMIT = Math.ceil((MATCH_LIMITS.imageBytes * 4) / 3) + 64 * 1024;

const megabytes = MATCH_LIMITS.imageBytes / 1024 / 1024;

export const matchMessages = {
  image: `image must be a data URI (data:image/<${IMAGE_TYPES.map((t) => t.slice(6)).join('|')}>;base64,<data>) or an https URL of at most ${MATCH_LIMITS.url} characters.`,
  imageBytes: `image is over ${megabytes} MB.`,
  imagePixels: `image is over ${MATCH_LIMITS.imagePixels / 1_000_000} megapixels.`,
  imageUnreadable: 'image could not be read as a JPEG, PNG, WebP, GIF or AVIF image.',
  imageRefused: (reason: string) => `image URL was not fetched: ${reason}.`,
  imageFetch: (reason: string) => `image could not be fetched from its URL: ${reason}.`,
  datasetIds: `datasetIds must be an array of at most ${MATCH_LIMITS.datasetIds} dataset ids.`,
  store: STORE_MESSAGE,
  country: 'country must be a 2-letter ISO 3166-1 country code.',
  busy: 'Too many photos are being read right now. Try again shortly.',
} as const;

/** `https:` always; `http:` only where private addresses are allowed too (local setups, tests). */
export function imageUrl(value: string, allowHttp: boolean): URL | null {
  if (value.length > MATCH_LIMITS.url) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || (allowHttp && url.protocol === 'http:') ? url : null;
  } catch {
    return null;
  }
}

const looksLikeImage = (value: string) => (value.startsWith('data:') ? readDataUri(value) !== null : /^https?:\/\//i.test(value) && value.length <= MATCH_LIMITS.url);

export const matchRequestSchema = z.object({
  image: z
    .string({ error: matchMessages.image })
    .refine(looksLikeImage, matchMessages.image)
    .refine((value) => !value.startsWith('data:') || (readDataUri(value)?.bytes ?? 0) <= MATCH_LIMITS.imageBytes, matchMessages.imageBytes)
    .describe('A photo of a dressed person: a data URI (JPEG, PNG, WebP, GIF or AVIF) or an https URL.'),
  datasetIds: z
    .array(z.string({ error: matchMessages.datasetIds }).max(100, matchMessages.datasetIds), { error: matchMessages.datasetIds })
    .max(MATCH_LIMITS.datasetIds, matchMessages.datasetIds)
    .optional(),
  store: storeSchema.nullish(),
  country: z
    .string({ error: matchMessages.country })
    .trim()
    .regex(/^[A-Za-z]{2}$/, matchMessages.country)
    .transform((code) => code.toUpperCase())
    .nullish(),
});

export type MatchRequest = z.output<typeof matchRequestSchema>;

/** What a piece of the outfit is, however it was found (the photo's layout or a vision model). */
export interface GarmentPiece {
  slot: (typeof SLOTS)[number];
  colorFamily: (typeof COLOR_FAMILIES)[number];
  /** The colour seen, when measured or named. */
  rgb: [number, number, number] | null;
  pattern: (typeof PATTERNS)[number] | null;
  /** A vision model's words for it ("cropped denim jacket"); null offline. */
  description: string | null;
  /** Fractions 0–1 of the photo. */
  region: { x: number; y: number; width: number; height: number };
}
