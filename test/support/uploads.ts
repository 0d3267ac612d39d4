// Multipart bodies written byte by byte (so tests choose boundaries, headers and breakage) and small
// real images made with sharp, for the upload routes' tests, fuzz and bench.
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';

export interface FilePart {
  field?: string;
  /** undefined: no filename parameter (a text field); '' : an empty one. */
  filename?: string;
  contentType?: string;
  body: Buffer;
}

export const BOUNDARY = '----stylist-test-boundary-7MA4YWxkTrZu0gW';

export function multipart(parts: FilePart[], boundary = BOUNDARY, close = true): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.field ?? 'file'}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    const headers = [`Content-Disposition: ${disposition}`, ...(part.contentType ? [`Content-Type: ${part.contentType}`] : [])];
    chunks.push(Buffer.from(`--${boundary}\r\n${headers.join('\r\n')}\r\n\r\n`), part.body, Buffer.from('\r\n'));
  }
  if (close) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

export const multipartType = (boundary = BOUNDARY) => `multipart/form-data; boundary=${boundary}`;

/** Pixels that do not compress away, so a small image still weighs over 1 KB. */
function noise(width: number, height: number, seed = 1): Buffer {
  const pixels = Buffer.alloc(width * height * 3);
  let state = seed * 2654435761;
  for (let i = 0; i < pixels.length; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    pixels[i] = state >>> 24;
  }
  return pixels;
}

const image = (width: number, height: number, seed: number) => sharp(noise(width, height, seed), { raw: { width, height, channels: 3 } });

export const makeJpeg = (width = 64, height = 48, seed = 1, quality = 90) => image(width, height, seed).jpeg({ quality }).toBuffer();
export const makePng = (width = 40, height = 30, seed = 2) => image(width, height, seed).png().toBuffer();
export const makeWebp = (width = 48, height = 40, seed = 3) => image(width, height, seed).webp({ quality: 90 }).toBuffer();
export const makeAvif = (width = 48, height = 40, seed = 4) => image(width, height, seed).avif({ quality: 70, effort: 0 }).toBuffer();

/** A photo-sized JPEG of about `bytes` (noise at quality 80 is about 0.58 bytes a pixel). */
export async function makePhoto(bytes: number, seed = 1): Promise<Buffer> {
  const side = Math.round(Math.sqrt(bytes / 0.58));
  return makeJpeg(side, side, seed, 80);
}

const crc32Table = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes: Buffer) => {
  let c = 0xffffffff;
  for (const byte of bytes) c = crc32Table[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type: string, data: Buffer) => {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
};

/**
 * A valid PNG of `side`×`side` one-bit pixels, all black: 20000×20000 is 400 megapixels (1.6 GB
 * as RGBA) in about 50 KB. Written with zlib, since sharp refuses to make one.
 */
export function makeBombPng(side = 20_000): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const rowBytes = 1 + Math.ceil(side / 8);
  const idat = deflateSync(Buffer.alloc(rowBytes * side), { level: 9 });
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}
