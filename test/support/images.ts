// Images for the image-route tests and bench, made from the project's own demo photos, and the
// object stores they run on: the file store, an in-process s3rver, and S3_ENDPOINT when set.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { generateDemoCatalogue, type DemoPhotoSpec } from '../../domain/demo-catalogue/generate.js';
import { renderDemoPhoto } from '../../infra/demo-photos/render.js';
import type { Teardown } from './database.js';
import { createS3rver } from './s3rver-peer.mjs';

/** The first photo of a patterned demo product: enough detail that quality changes the bytes. */
export const demoSpec = (): DemoPhotoSpec => {
  const products = generateDemoCatalogue();
  const patterned = products.find((product) => product.photos[0] && product.photos[0].pattern !== 'solid') ?? products[0]!;
  return patterned.photos[0]!;
};

/** A demo photo as a JPEG `width` pixels wide (and 1.25 times as tall), as ingest would store it. */
export async function demoJpeg(width: number, spec: DemoPhotoSpec = demoSpec()): Promise<Buffer> {
  return sharp(await renderDemoPhoto(spec, width)).jpeg({ quality: 90 }).toBuffer();
}

const crc32 = (bytes: Buffer): number => {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
};

const chunk = (type: string, data: Buffer): Buffer => {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
};

/**
 * A decompression bomb: a valid PNG of a few kilobytes whose header claims `side`×`side` grey
 * pixels (60,000² is 3.6 gigapixels), its rows all zeros, so it deflates to almost nothing.
 */
export function bombPng(side = 60_000, rows = 64): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(0, 9); // greyscale
  // Only the first rows are present: a decoder would have to allocate the whole image to find out.
  const raw = Buffer.alloc(rows * (side + 1));
  return Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), chunk('IHDR', header), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

export interface StoreSetup {
  name: string;
  /** Environment for startTestService / loadConfig (empty for the file store); what it starts ends with `t`. */
  env: (t: Teardown) => Promise<Record<string, string>>;
}

/** An s3rver of this test's own, on a free port, removed at teardown. */
export async function startS3rver(t: Teardown): Promise<Record<string, string>> {
  const directory = await mkdtemp(path.join(tmpdir(), 'stylist-s3rver-'));
  t.teardown(() => rm(directory, { recursive: true, force: true }));
  const server = createS3rver({ port: 0, address: '127.0.0.1', directory, silent: true });
  const { port } = await server.run();
  t.teardown(() => server.close());
  // s3rver's built-in account.
  return { S3_ENDPOINT: `http://127.0.0.1:${port}`, S3_ACCESS_KEY: 'S3RVER', S3_SECRET_KEY: 'S3RVER', S3_BUCKET: 'stylist-images' };
}

/** The stores every image test runs on: files, s3rver, and the operator's or CI's S3_ENDPOINT. */
export function storeSetups(): StoreSetup[] {
  const setups: StoreSetup[] = [
    { name: 'file store', env: async () => ({}) },
    { name: 'S3 store on s3rver', env: (t) => startS3rver(t) },
  ];
  const { S3_ENDPOINT, S3_ACCESS_KEY, S3_SECRET_KEY, S3_BUCKET } = process.env;
  if (S3_ENDPOINT && S3_ACCESS_KEY && S3_SECRET_KEY && S3_BUCKET) {
    setups.push({ name: 'S3 store on S3_ENDPOINT', env: async () => ({ S3_ENDPOINT, S3_ACCESS_KEY, S3_SECRET_KEY, S3_BUCKET }) });
  }
  return setups;
}
