// The ImageTransformer port: stored image bytes in (whole, or streamed from the object store), their
// size (from the header) or a resized or re-encoded variant out. The adapter is sharp (libvips). A
// stored object that claims more pixels than `maxPixels` is refused from its header, before anything
// is decoded, so a decompression bomb costs nothing.
import type { Readable } from 'node:stream';
import sharp from 'sharp';
import { contentTypeOf, type ImageFormat } from '../../domain/image/transforms.js';
import type { VariantChain } from '../../domain/image/variant-space.js';

/** An original's bytes: whole, or a stream from the object store that sharp reads as it arrives. */
export type ImageInput = Buffer | Readable;

export interface TransformedImage {
  body: Buffer;
  contentType: string;
  format: ImageFormat;
  width: number;
  height: number;
}

/** An image's size as shown: EXIF rotation applied, the first frame of an animation. */
export interface ImageSize {
  width: number;
  height: number;
}

export interface ImageTransformer {
  /** From the header alone; UntransformableImage when it cannot be read or has too many pixels. */
  measure(input: ImageInput): Promise<ImageSize>;
  transform(input: ImageInput, chain: VariantChain): Promise<TransformedImage>;
}

/** The stored object cannot be made into a variant (not an image, damaged, too many pixels). */
export class UntransformableImage extends Error {
  override name = 'UntransformableImage';
}

export interface SharpTransformerOptions {
  /** Width × height (× frames) above which a stored image is refused. */
  maxPixels?: number;
  /** CPU seconds one transform may take. */
  timeoutSeconds?: number;
  /**
   * AVIF encoder effort, 0 (fastest) to 9. AVIF costs many times what WebP does for the same
   * picture; at 0 a 1600×2000 photo takes about 0.4 s on one core, at 2 about 1.4 s.
   */
  avifEffort?: number;
}

/** As the ingest pipeline's limit: far above any product photo, far below what exhausts memory. */
export const DEFAULT_MAX_PIXELS = 50_000_000;
export const DEFAULT_AVIF_EFFORT = 0;

export function sharpTransformer(options: SharpTransformerOptions = {}): ImageTransformer {
  const maxPixels = options.maxPixels ?? DEFAULT_MAX_PIXELS;
  const timeoutSeconds = options.timeoutSeconds ?? 20;
  const avifEffort = options.avifEffort ?? DEFAULT_AVIF_EFFORT;

  /**
   * The header of `input`, checked. The returned sharp instance holds the input and decodes it
   * next; its own pixel limit is off, since the check here is the guard and names the sizes.
   */
  const open = async (input: ImageInput): Promise<{ image: sharp.Sharp; size: ImageSize }> => {
    const options: sharp.SharpOptions = { limitInputPixels: false, failOn: 'error' };
    const { image, failed } = Buffer.isBuffer(input) ? { image: sharp(input, options), failed: null } : streamedInto(input, sharp(options));
    let meta: sharp.Metadata;
    try {
      // Reads the header only (a stream is taken whole first: sharp decodes from memory).
      meta = await (failed ? Promise.race([image.metadata(), failed]) : image.metadata());
    } catch (error) {
      throw new UntransformableImage(`it is not an image that can be read (${reason(error)})`);
    }
    // Only the first frame of an animation is read, so one frame's pixels are what count.
    const width = meta.width ?? 0;
    const height = meta.pageHeight ?? meta.height ?? 0;
    if (width * height > maxPixels) throw new UntransformableImage(`${width}×${height} pixels is over the limit of ${maxPixels / 1_000_000} megapixels`);
    if (width < 1 || height < 1) throw new UntransformableImage('it is not an image that can be read (no size in its header)');
    // EXIF orientations 5 to 8 turn the picture a quarter: what is shown is the other way round.
    const size = (meta.orientation ?? 1) >= 5 ? { width: height, height: width } : { width, height };
    return { image, size };
  };

  return {
    measure: async (input) => (await open(input)).size,

    async transform(input, chain) {
      const { image: opened, size } = await open(input);
      const { format, quality } = chain;
      try {
        let image = opened.timeout({ seconds: timeoutSeconds }).rotate();
        if (chain.pad) {
          image = image.extend({ ...padding(size, chain), background: WHITE });
        } else if (chain.width !== undefined || chain.height !== undefined) {
          // The settled chain decided whether to enlarge (stretch): this does what it says.
          image = image.resize({ width: chain.width, height: chain.height, fit: 'inside' });
        }
        switch (format) {
          case 'jpeg':
            // JPEG has no alpha: transparent parts become white, not black.
            image = image.flatten({ background: WHITE }).jpeg({ quality: quality ?? 80, mozjpeg: false });
            break;
          case 'png':
            image = quality === undefined || quality === 100 ? image.png() : image.png({ quality, palette: true });
            break;
          case 'webp':
            image = image.webp({ quality: quality ?? 80 });
            break;
          case 'avif':
            image = image.avif({ quality: quality ?? 50, effort: avifEffort });
            break;
        }
        const { data, info } = await image.toBuffer({ resolveWithObject: true });
        return { body: data, contentType: contentTypeOf(format), format, width: info.width, height: info.height };
      } catch (error) {
        throw new UntransformableImage(`it could not be transformed (${reason(error)})`);
      }
    },
  };
}

/** Uploadcare's default fill colour. */
const WHITE = { r: 255, g: 255, b: 255, alpha: 1 };

/** Around an original of `size`, centred, to the canvas its settled side names (the aspect ratio kept). */
function padding(size: ImageSize, chain: VariantChain): { top: number; bottom: number; left: number; right: number } {
  const scale = chain.width !== undefined ? chain.width / size.width : chain.height! / size.height;
  const width = Math.max(size.width, Math.round(size.width * scale));
  const height = Math.max(size.height, Math.round(size.height * scale));
  const left = Math.floor((width - size.width) / 2);
  const top = Math.floor((height - size.height) / 2);
  return { top, bottom: height - size.height - top, left, right: width - size.width - left };
}

/**
 * `source` piped into `image`. sharp waits for the end of its input, which a source that fails (the
 * store's connection dropped) never gives: `failed` rejects then instead, for the caller to race.
 */
function streamedInto(source: Readable, image: sharp.Sharp): { image: sharp.Sharp; failed: Promise<never> } {
  const failed = new Promise<never>((_, reject) =>
    source.once('error', (error) => {
      source.unpipe(image);
      reject(error);
    }),
  );
  // Raced only while the header is read; a later failure is the decode's (the input is whole by then).
  failed.catch(() => {});
  source.pipe(image);
  return { image, failed };
}

const reason = (error: unknown): string => (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 200);
