// What an uploaded file really is, read from its bytes: the format its magic number says, and
// whether it decodes whole (sharp, under a pixel limit). The upload route compares this with the
// type the client declared; nothing here trusts a filename or a Content-Type.
import sharp from 'sharp';

/** Formats told apart by their first bytes; the four the service stores and a few it names when refusing. */
export type SniffedType = 'image/jpeg' | 'image/png' | 'image/webp' | 'image/avif' | 'image/gif' | 'image/heic' | 'image/bmp' | 'image/tiff' | 'application/pdf';

/**
 * Pixels an upload may have. A PNG of 20000×20000 one-colour pixels compresses to a few KB and
 * would decode to 1.6 GB: refused from its header, before any decoding.
 */
export const MAX_INPUT_PIXELS = 50_000_000;

const ascii = (bytes: Buffer, start: number, end: number) => bytes.subarray(start, end).toString('latin1');

/** The format the bytes start with, or null when none of the known ones. */
export function sniffImageType(bytes: Buffer): SniffedType | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'image/webp';
  if (bytes.length >= 12 && ascii(bytes, 4, 8) === 'ftyp') {
    // The major brand, then the compatible brands up to the end of the ftyp box.
    const boxSize = Math.min(bytes.readUInt32BE(0), bytes.length, 4096);
    const brands = [ascii(bytes, 8, 12)];
    for (let at = 16; at + 4 <= boxSize; at += 4) brands.push(ascii(bytes, at, at + 4));
    if (brands.some((brand) => brand === 'avif' || brand === 'avis')) return 'image/avif';
    if (brands.some((brand) => ['heic', 'heix', 'hevc', 'heim', 'heis', 'mif1'].includes(brand))) return 'image/heic';
    return null;
  }
  if (bytes.length >= 6 && (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a')) return 'image/gif';
  if (bytes.length >= 2 && ascii(bytes, 0, 2) === 'BM') return 'image/bmp';
  if (bytes.length >= 4 && (ascii(bytes, 0, 4) === 'II*\u0000' || ascii(bytes, 0, 4) === 'MM\u0000*')) return 'image/tiff';
  if (bytes.length >= 5 && ascii(bytes, 0, 5) === '%PDF-') return 'application/pdf';
  return null;
}

export type Inspection =
  | { ok: true; contentType: SniffedType; width: number | null; height: number | null }
  /** `mismatch`: the bytes are not the declared format; `unreadable`: they are, but do not decode whole; `too-many-pixels`: a decompression bomb, or just too big. */
  | { ok: false; problem: 'mismatch'; found: SniffedType | null }
  | { ok: false; problem: 'unreadable' | 'too-many-pixels'; message: string };

/**
 * Checks bytes declared as `declared` (one of the stored types). The header gives the size, which
 * is checked against MAX_INPUT_PIXELS before decoding; then the image is decoded (shrunk on load,
 * so a JPEG costs a fraction of a full decode) with truncation treated as failure, which is how a
 * cut-off file is told from a whole one.
 */
export async function inspectImage(bytes: Buffer, declared: string): Promise<Inspection> {
  const found = sniffImageType(bytes);
  if (found !== declared) return { ok: false, problem: 'mismatch', found };
  let width: number | undefined;
  let height: number | undefined;
  try {
    // The header only: no pixel is decoded here, so no limit is needed to read a bomb's size.
    const metadata = await sharp(bytes, { limitInputPixels: false, failOn: 'truncated' }).metadata();
    width = metadata.width;
    height = metadata.height;
  } catch {
    return { ok: false, problem: 'unreadable', message: unreadable(declared) };
  }
  if (width !== undefined && height !== undefined && width * height > MAX_INPUT_PIXELS) {
    return { ok: false, problem: 'too-many-pixels', message: tooManyPixels(width, height) };
  }
  try {
    await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'truncated', sequentialRead: true })
      .resize(32, 32, { fit: 'inside' })
      .raw()
      .toBuffer();
  } catch (error) {
    if (/pixel limit/i.test(String((error as Error).message))) return { ok: false, problem: 'too-many-pixels', message: tooManyPixels(width, height) };
    return { ok: false, problem: 'unreadable', message: unreadable(declared) };
  }
  return { ok: true, contentType: found, width: width ?? null, height: height ?? null };
}

const unreadable = (declared: string) => `File could not be read as ${declared}: it is damaged or incomplete`;
const tooManyPixels = (width?: number, height?: number) =>
  `Image has too many pixels${width && height ? ` (${width}×${height})` : ''}: at most ${MAX_INPUT_PIXELS.toLocaleString('en-US')}`;
