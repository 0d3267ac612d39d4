// The pieces of an outfit named by a vision model (STYLIST_VISION_MODEL, any OpenAI-compatible
// chat completions server taking image input): the photo goes in, a JSON answer shaped by a
// strict json_schema comes out, checked with zod piece by piece (a piece outside the vocabularies
// is dropped, a colour name is mapped to its family). One attempt, bounded by `timeoutMs`: the
// route falls back to reading the photo offline on any failure, so a slow model costs at most that.
import OpenAI from 'openai';
import { z } from 'zod';
import { colourFamilyOf } from '../../domain/catalogue/colours.js';
import { COLOR_FAMILIES, PATTERNS, SLOTS } from '../../domain/catalogue/vocabulary.js';
import type { GarmentPiece } from '../../domain/match/request.js';

export interface VisionMatcher {
  readonly name: string;
  /** The pieces the model sees in `jpeg`; throws on a transport failure, a timeout or an answer of the wrong shape. */
  pieces(jpeg: Buffer, signal?: AbortSignal): Promise<GarmentPiece[]>;
}

export interface VisionMatcherOptions {
  model: string;
  apiKey?: string;
  baseURL?: string;
  timeoutMs: number;
}

const MAX_PIECES = 6;

export const PIECES_JSON_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['pieces'],
  properties: {
    pieces: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['slot', 'color_family', 'colour', 'pattern', 'description', 'box'],
        properties: {
          slot: { type: 'string', enum: [...SLOTS] },
          color_family: { type: 'string', enum: [...COLOR_FAMILIES] },
          colour: { type: 'string', description: 'the colour as a shop would name it, e.g. "heather grey"' },
          pattern: { type: 'string', enum: [...PATTERNS] },
          description: { type: 'string', description: 'a few words a shopper would search for, e.g. "cropped denim jacket"' },
          box: { type: 'array', items: { type: 'number' }, description: '[x, y, width, height] of the piece, fractions 0 to 1 of the photo' },
        },
      },
    },
  },
} as const;

const INSTRUCTIONS =
  'You see a photo of a dressed person. List each piece of clothing, footwear and accessory they wear, outermost first, ' +
  `at most ${MAX_PIECES}. For each: its slot, its colour family and colour name, its pattern, a short description a shopper would search for, ` +
  'and its box in the photo as fractions. Answer only JSON in the given schema.';

const fraction = z.number().min(0).max(1);
const piece = z.object({
  slot: z.enum(SLOTS),
  color_family: z.string(),
  colour: z.string().max(100),
  pattern: z.string(),
  description: z.string().trim().min(1).max(200),
  box: z.tuple([fraction, fraction, fraction, fraction]).nullish(),
});
const answer = z.object({ pieces: z.array(z.unknown()).max(20) });

/** A piece as the model wrote it, made to fit the vocabularies; null when it cannot. */
export function readPiece(raw: unknown): GarmentPiece | null {
  const parsed = piece.safeParse(raw);
  if (!parsed.success) return null;
  const p = parsed.data;
  const named = colourFamilyOf(p.colour);
  const family = (COLOR_FAMILIES as readonly string[]).includes(p.color_family) ? (p.color_family as GarmentPiece['colorFamily']) : named?.family;
  if (!family) return null;
  const [x, y, width, height] = p.box ?? [0, 0, 1, 1];
  return {
    slot: p.slot,
    colorFamily: family,
    rgb: named && named.family === family ? named.rgb : null,
    pattern: (PATTERNS as readonly string[]).includes(p.pattern) ? (p.pattern as GarmentPiece['pattern']) : null,
    description: p.description,
    region: { x, y, width: Math.min(width, 1 - x), height: Math.min(height, 1 - y) },
  };
}

export function createVisionMatcher(options: VisionMatcherOptions): VisionMatcher {
  const client = new OpenAI({ apiKey: options.apiKey ?? 'unset', baseURL: options.baseURL, maxRetries: 0, timeout: options.timeoutMs });
  return {
    name: `openai:${options.model}`,
    async pieces(jpeg, signal) {
      const timeout = AbortSignal.timeout(options.timeoutMs);
      const completion = await client.chat.completions.create(
        {
          model: options.model,
          temperature: 0,
          messages: [
            { role: 'system', content: INSTRUCTIONS },
            { role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/jpeg;base64,${jpeg.toString('base64')}`, detail: 'low' } }] },
          ],
          response_format: { type: 'json_schema', json_schema: { name: 'garment_pieces', strict: true, schema: PIECES_JSON_SCHEMA as unknown as Record<string, unknown> } },
        },
        { signal: signal ? AbortSignal.any([signal, timeout]) : timeout },
      );
      const content = completion.choices[0]?.message?.content ?? '';
      const parsed = answer.parse(JSON.parse(content.replace(/^```(?:json)?\s*|\s*```$/g, '')));
      const pieces = parsed.pieces.map(readPiece).filter((p): p is GarmentPiece => p !== null).slice(0, MAX_PIECES);
      if (!pieces.length) throw new Error(`${options.model}: no usable piece in the answer`);
      return pieces;
    },
  };
}
