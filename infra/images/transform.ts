// The ImageTransformer port: stored image bytes in, their size (from the header) or a resized or
// re-encoded variant out. The adapter is sharp (libvips). A stored object that claims more pixels
// than `maxPixels` is refused from its header, before anything is decoded, so a decompression bomb
// costs nothing.
import sharp from 'sharp';
import { contentTypeOf, type ImageFormat } from '../../domain/image/transforms.js';
import type { VariantChain } from '../../domain/image/variant-space.js';

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
  measure(input: Buffer): Promise<ImageSize>;
  transform(input: Buffer, chain: VariantChain): Promise<TransformedImage>;
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

  const header = async (input: Buffer): Promise<ImageSize> => {
    let meta: sharp.Metadata;
    try {
      // Reads the header only.
      meta = await sharp(input, { limitInputPixels: false }).metadata();
    } catch (error) {
      throw new UntransformableImage(`it is not an image that can be read (${reason(error)})`);
    }
    // Only the first frame of an animation is read, so one frame's pixels are what count.
    const width = meta.width ?? 0;
    const height = meta.pageHeight ?? meta.height ?? 0;
    if (width * height > maxPixels) throw new UntransformableImage(`${width}×${height} pixels is over the limit of ${maxPixels / 1_000_000} megapixels`);
    if (width < 1 || height < 1) throw new UntransformableImage('it is not an image that can be read (no size in its header)');
    // EXIF orientations 5 to 8 turn the picture a quarter: what is shown is the other way round.
    return (meta.orientation ?? 1) >= 5 ? { width: height, height: width } : { width, height };
  };

  return {
    measure: header,

    async transform(input, chain) {
      await header(input);
      const { format, quality } = chain;
      try {
        // `limitInputPixels` again: the header check above is the guard, this is the belt.
        let image = sharp(input, { limitInputPixels: maxPixels, failOn: 'error' }).timeout({ seconds: timeoutSeconds }).rotate();
        if (chain.width !== undefined || chain.height !== undefined) {
          image = image.resize({ width: chain.width, height: chain.height, fit: 'inside', withoutEnlargement: true });
        }
        switch (format) {
          case 'jpeg':
            // JPEG has no alpha: transparent parts become white, not black.
            image = image.flatten({ background: '#ffffff' }).jpeg({ quality: quality ?? 80, mozjpeg: false });
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

const reason = (error: unknown): string => (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 200);
