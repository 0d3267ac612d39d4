// The variants one original can have, and there are few of them: a chain as asked is snapped to a
// documented set of sizes and qualities, then settled against the original, so that every chain
// that would make the same picture names the same stored variant, and one that would change
// nothing names the original itself. Anyone may ask for a variant without a key: this is what keeps
// what they can make the service compute and keep finite (issue 23).
//
//   snap    width and height up to the next SIDE_STEPS step (a picture a little larger than asked
//           is scaled down by the browser and stays sharp), quality to the nearest QUALITY_LEVELS
//   settle  against the original's upright size: a box is the one side that binds (`400x400` on a
//           portrait photo is `x400`); a box larger than the original enlarges it (stretch `on`,
//           Uploadcare's default), is no resize (`off`), or pads it to the size it would have had
//           (`fill`); an enlarged side is capped at MAX_SIDE; the format is spelt out; and a chain
//           left with nothing to do is the original
import { IMAGE_FORMATS, MAX_SIDE, type ImageFormat, type TransformChain } from './transforms.js';

/** Widths and heights a variant is made at; an asked side goes up to the next one. */
export const SIDE_STEPS: readonly number[] = [
  16, 32, 48, 64, 96, 128, 160, 200, 240, 256, 320, 400, 480, 512, 600, 640, 768, 800, 960, 1024, 1200, 1280, 1600, 1920, 2048, 2560, 3200, 3840,
  MAX_SIDE,
];

/** Qualities a variant is encoded at; an asked quality goes to the nearest one (halfway goes up). */
export const QUALITY_LEVELS: readonly number[] = [40, 60, 75, 90];

/** The original a variant is made from: its size as shown (EXIF rotation applied, first frame) and its stored format. */
export interface OriginalImage {
  width: number;
  height: number;
  /** `jpeg`, `png`, `webp`, `avif`, or another stored type such as `gif`. */
  format: string;
}

/** A settled chain: at most one side, the output format always named. */
export interface VariantChain {
  width?: number;
  height?: number;
  /**
   * The side is the size of a white canvas the original is centred on, at its own size (stretch
   * `fill` of an original smaller than asked); the other side of the canvas keeps the aspect ratio.
   */
  pad?: true;
  format: ImageFormat;
  quality?: number;
}

export const snapSide = (side: number): number => SIDE_STEPS.find((step) => step >= side) ?? MAX_SIDE;

export const snapQuality = (quality: number): number => {
  let best = QUALITY_LEVELS[0]!;
  for (const level of QUALITY_LEVELS) if (Math.abs(level - quality) <= Math.abs(best - quality)) best = level;
  return best;
};

/** The chain on the documented steps. */
export function snapChain(chain: TransformChain): TransformChain {
  const snapped: TransformChain = {};
  if (chain.width !== undefined) snapped.width = snapSide(chain.width);
  if (chain.height !== undefined) snapped.height = snapSide(chain.height);
  if (chain.stretch !== undefined) snapped.stretch = chain.stretch;
  if (chain.format !== undefined) snapped.format = chain.format;
  if (chain.quality !== undefined) snapped.quality = snapQuality(chain.quality);
  return snapped;
}

const isImageFormat = (format: string): format is ImageFormat => (IMAGE_FORMATS as readonly string[]).includes(format);

/** The format a variant is written in when none is asked for: the original's, JPEG for a GIF. */
export const defaultFormat = (original: OriginalImage): ImageFormat => (isImageFormat(original.format) ? original.format : 'jpeg');

/**
 * The chain as it applies to this original; null when it asks for nothing the stored bytes do not
 * already are (serve the original). Snap first: settling keeps the sides it is given.
 */
export function settleChain(chain: TransformChain, original: OriginalImage): VariantChain | null {
  const format = chain.format ?? defaultFormat(original);
  const settled: VariantChain = { format };
  const resize = settleResize(chain, original);
  if (resize) Object.assign(settled, resize);
  if (chain.quality !== undefined) settled.quality = chain.quality;
  const resized = settled.width !== undefined || settled.height !== undefined;
  // Nothing to do but keep the format (the original's, or the default it was not asked to change).
  if (!resized && settled.quality === undefined && (chain.format === undefined || format === original.format)) return null;
  return settled;
}

/** The one side a resize comes to (and whether it pads), or null when it leaves the size as it is. */
function settleResize(chain: TransformChain, original: OriginalImage): Pick<VariantChain, 'width' | 'height' | 'pad'> | null {
  const byWidth = chain.width === undefined ? Infinity : chain.width / original.width;
  const byHeight = chain.height === undefined ? Infinity : chain.height / original.height;
  // Fit inside: the side with the smaller scale is the one that decides the size.
  const scale = Math.min(byWidth, byHeight);
  if (scale === Infinity || scale === 1) return null;
  const stretch = chain.stretch ?? 'on';
  if (scale > 1 && stretch === 'off') return null;
  let side: 'width' | 'height' = byWidth <= byHeight ? 'width' : 'height';
  let size = chain[side]!;
  // Enlarged past MAX_SIDE: the original's longer side binds at MAX_SIDE instead (which may even
  // shrink an original already longer than that).
  if (scale > 1 && Math.max(original.width, original.height) * scale > MAX_SIDE) {
    side = original.width >= original.height ? 'width' : 'height';
    size = MAX_SIDE;
  }
  const result = size / original[side];
  if (result === 1) return null;
  if (result > 1 && stretch === 'fill') return { [side]: size, pad: true };
  return { [side]: size };
}

/** `resize-480x.format-webp.quality-60`: one path segment, so a variant is one file beside its siblings. */
export function variantName(chain: VariantChain): string {
  const parts: string[] = [];
  if (chain.width !== undefined || chain.height !== undefined) parts.push(`resize-${chain.width ?? ''}x${chain.height ?? ''}`);
  if (chain.pad) parts.push('fill');
  parts.push(`format-${chain.format}`);
  if (chain.quality !== undefined) parts.push(`quality-${chain.quality}`);
  return parts.join('.');
}

/**
 * Where a variant is kept in the object store: `variants/<key>/<version>/<variant name>`, `version`
 * naming the version of the original it was made from (a rewrite under the same key is another).
 */
export const VARIANTS_PREFIX = 'variants/';
export const variantKey = (key: string, version: string, chain: VariantChain): string => `${VARIANTS_PREFIX}${key}/${version}/${variantName(chain)}`;

/**
 * Variants one original can have at most: a side (scaled, or padded to) or none, each format, each
 * quality or none. With the settled format naming the original's own, some of these are the
 * original itself.
 */
export const variantsPerOriginal = (): number => (2 * 2 * SIDE_STEPS.length + 1) * IMAGE_FORMATS.length * (QUALITY_LEVELS.length + 1);
