// The ImageTransformer port: stored image bytes in, a resized or re-encoded variant out. The
// adapter is sharp (libvips). A stored object that claims more pixels than `maxPixels` is refused
// from its header, before anything is decoded, so a decompression bomb costs nothing.
import sharp from 'sharp';
import { contentTypeOf, IMAGE_FORMATS, type ImageFormat, type TransformChain } from '../../domain/image/transforms.js';

export interface TransformedImage {
  body: Buffer;
  contentType: string;
  format: ImageFormat;
  width: number;
  height: number;
}

export interface ImageTransformer {
  transform(input: Buffer, chain: TransformChain): Promise<TransformedImage>;
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
}

/** As the ingest pipeline's limit: far above any product photo, far below what exhausts memory. */
export const DEFAULT_MAX_PIXELS = 50_000_000;

export function sharpTransformer(options: SharpTransformerOptions = {}): ImageTransformer {
  const maxPixels = options.maxPixels ?? DEFAULT_MAX_PIXELS;
  const timeoutSeconds = options.timeoutSeconds ?? 20;
  return {
    async transform(input, chain) {
      let meta: sharp.Metadata;
      try {
        // Reads the header only.
        meta = await sharp(input, { limitInputPixels: false }).metadata();
      } catch (error) {
        throw new UntransformableImage(`it is not an image that can be read (${reason(error)})`);
      }
      // Only the first frame of an animation is read, so one frame's pixels are what count.
      const height = meta.pageHeight ?? meta.height ?? 0;
      if ((meta.width ?? 0) * height > maxPixels) throw new UntransformableImage(`${meta.width}×${height} pixels is over the limit of ${maxPixels / 1_000_000} megapixels`);
      const original = (IMAGE_FORMATS as readonly string[]).includes(meta.format ?? '') ? (meta.format as ImageFormat) : 'jpeg';
      const format = chain.format ?? original;
      try {
        // `limitInputPixels` again: the header check above is the guard, this is the belt.
        let image = sharp(input, { limitInputPixels: maxPixels, failOn: 'error' }).timeout({ seconds: timeoutSeconds }).rotate();
        if (chain.width !== undefined || chain.height !== undefined) {
          image = image.resize({ width: chain.width, height: chain.height, fit: 'inside', withoutEnlargement: true });
        }
        const quality = chain.quality;
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
            image = image.avif({ quality: quality ?? 50, effort: 2 });
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
