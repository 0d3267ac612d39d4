// The body of POST /v2/agent/looks: which items to draw, how, and (try-on) on whom. Every bound a
// request can break is here with its message, so the route, its tests and the docs say the same.
import { z } from 'zod';

export const LOOK_LIMITS = {
  items: 8,
  label: 80,
  customInstructions: 1000,
  url: 2048,
  /** Each side of an aspect ratio, W:H. */
  ratioSide: 21,
  /** Widest (3:1) and tallest (1:3) picture drawn. */
  ratioMax: 3,
  /** The picture's longer side, in pixels. */
  longSide: 1024,
} as const;

export const DEFAULT_ASPECT_RATIO = '3:4';

export const lookMessages = {
  itemIds: `itemIds must be an array of 1 to ${LOOK_LIMITS.items} item ids.`,
  label: `label must be a string of at most ${LOOK_LIMITS.label} characters.`,
  customInstructions: `customInstructions must be a string of at most ${LOOK_LIMITS.customInstructions} characters.`,
  preferences: 'preferences must be an object.',
  aspectRatio: `preferences.aspectRatio must be W:H in whole numbers from 1 to ${LOOK_LIMITS.ratioSide} (e.g. "3:4"), no wider than 3:1 and no taller than 1:3.`,
  showPrices: 'preferences.showPrices must be a boolean.',
  userPhotoUrl: `userPhotoUrl must be an http or https URL of at most ${LOOK_LIMITS.url} characters.`,
  country: 'country must be a 2-letter ISO 3166-1 country code.',
  unknownItems: (ids: readonly string[]) => `Unknown or unavailable items: ${ids.join(', ')}.`,
  tryOnOff: 'Try-on is turned off for this store (styling.tryOn): send the look without userPhotoUrl.',
  tryOnNeedsModel: 'Try-on needs an image model and this service has none configured (STYLIST_IMAGE_MODEL): send the look without userPhotoUrl.',
  userPhoto: (reason: string) => `userPhotoUrl could not be used: ${reason}.`,
  busy: 'Too many looks are being drawn right now. Try again shortly.',
} as const;

export interface AspectRatio {
  width: number;
  height: number;
}

/** "3:4" → { width: 3, height: 4 }, or null when it is not one the composer draws. */
export function parseAspectRatio(text: string): AspectRatio | null {
  const match = /^\s*(\d{1,2})\s*:\s*(\d{1,2})\s*$/.exec(text);
  if (!match) return null;
  const width = Number(match[1]);
  const height = Number(match[2]);
  const side = (n: number) => n >= 1 && n <= LOOK_LIMITS.ratioSide;
  if (!side(width) || !side(height)) return null;
  if (width > height * LOOK_LIMITS.ratioMax || height > width * LOOK_LIMITS.ratioMax) return null;
  return { width, height };
}

/** The picture's pixels: the longer side LOOK_LIMITS.longSide, the other one rounded. */
export function canvasSize(ratio: AspectRatio): { width: number; height: number } {
  const long = LOOK_LIMITS.longSide;
  return ratio.width >= ratio.height
    ? { width: long, height: Math.round((long * ratio.height) / ratio.width) }
    : { width: Math.round((long * ratio.width) / ratio.height), height: long };
}

const isWebUrl = (value: string): boolean => {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
};

export const lookRequestSchema = z.object({
  itemIds: z
    .array(z.uuid({ error: lookMessages.itemIds }).transform((id) => id.toLowerCase()), { error: lookMessages.itemIds })
    .min(1, lookMessages.itemIds)
    .max(LOOK_LIMITS.items, lookMessages.itemIds)
    .describe(`The items to draw, 1 to ${LOOK_LIMITS.items}; a repeated id is drawn once.`),
  label: z.string({ error: lookMessages.label }).trim().max(LOOK_LIMITS.label, lookMessages.label).optional().describe("The look's title, written above it."),
  customInstructions: z
    .string({ error: lookMessages.customInstructions })
    .trim()
    .max(LOOK_LIMITS.customInstructions, lookMessages.customInstructions)
    .optional()
    .describe('For the image model only (setting, pose, mood); the offline picture does not read it.'),
  preferences: z
    .object(
      {
        aspectRatio: z
          .string({ error: lookMessages.aspectRatio })
          .refine((value) => parseAspectRatio(value) !== null, lookMessages.aspectRatio)
          .default(DEFAULT_ASPECT_RATIO)
          .describe('W:H, whole numbers from 1 to 21, between 1:3 and 3:1. Default 3:4.'),
        showPrices: z.boolean({ error: lookMessages.showPrices }).default(false).describe("Each item's name and price (in the market of `country`) under it."),
      },
      { error: lookMessages.preferences },
    )
    .default({ aspectRatio: DEFAULT_ASPECT_RATIO, showPrices: false }),
  userPhotoUrl: z
    .string({ error: lookMessages.userPhotoUrl })
    .max(LOOK_LIMITS.url, lookMessages.userPhotoUrl)
    .refine(isWebUrl, lookMessages.userPhotoUrl)
    .nullish()
    .describe("Try-on: a photo of the shopper, fetched by the service and given to the image model with the items. Needs an image model and the store's styling.tryOn."),
  country: z
    .string({ error: lookMessages.country })
    .trim()
    .regex(/^[A-Za-z]{2}$/, lookMessages.country)
    .transform((code) => code.toUpperCase())
    .nullish()
    .describe('The shopper\'s market, for the prices shown and whether an item can be bought there.'),
});

export type LookRequest = z.output<typeof lookRequestSchema>;
