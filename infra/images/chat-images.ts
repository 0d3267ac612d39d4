// Photos a shopper sends in a chat (`input_image` data URIs): checked by their bytes (the declared
// type must be what the bytes are, the header's pixel count under the bound before anything
// decodes), then made small enough for a model and a queue message: at most CHAT_IMAGE_EDGE px a
// side as JPEG. An image already that small passes unchanged, so a replayed history is not
// re-encoded turn after turn.
import sharp from 'sharp';
import { inspectImage } from './inspect.js';

export const CHAT_IMAGE_EDGE = 1024;
/** An image at most this big and CHAT_IMAGE_EDGE a side is kept as sent. */
const KEEP_BYTES = 400 * 1024;

export type ChatImage = { ok: true; dataUri: string } | { ok: false; problem: 'unreadable' | 'too-many-pixels' };

export async function normaliseChatImage(contentType: string, base64: string, maxPixels: number): Promise<ChatImage> {
  const bytes = Buffer.from(base64, 'base64');
  // GIFs are read as their first frame: sharp's default, and all a stylist needs of one.
  const inspection = await inspectImage(bytes, contentType);
  if (!inspection.ok) return { ok: false, problem: inspection.problem === 'too-many-pixels' ? 'too-many-pixels' : 'unreadable' };
  const { width, height } = inspection;
  if (width !== null && height !== null && width * height > maxPixels) return { ok: false, problem: 'too-many-pixels' };
  const small = width !== null && height !== null && width <= CHAT_IMAGE_EDGE && height <= CHAT_IMAGE_EDGE;
  if (small && bytes.length <= KEEP_BYTES && (contentType === 'image/jpeg' || contentType === 'image/png' || contentType === 'image/webp')) {
    return { ok: true, dataUri: `data:${contentType};base64,${base64}` };
  }
  try {
    const jpeg = await sharp(bytes, { limitInputPixels: maxPixels, failOn: 'truncated' })
      .rotate()
      .resize(CHAT_IMAGE_EDGE, CHAT_IMAGE_EDGE, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 80, mozjpeg: false })
      .toBuffer();
    return { ok: true, dataUri: `data:image/jpeg;base64,${jpeg.toString('base64')}` };
  } catch {
    return { ok: false, problem: 'unreadable' };
  }
}
