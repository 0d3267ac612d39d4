// Originals in the object store, as image delivery reads them and the writers of catalogue photos
// replace them. An original is read as a stream (sharp takes it as it arrives), a bounded number at
// a time, so a burst of new variants of large originals does not hold them all in memory at once.
// Its variants are kept under the version of the original they were made from
// (`variants/<key>/<version tag>/<name>`): a rewrite under the same key is a new version, whose
// variants are made anew, and replaceOriginal drops the old version's.
import { createHash } from 'node:crypto';
import { VARIANTS_PREFIX } from '../../domain/image/variant-space.js';
import type { ObjectInfo, ObjectStore, ObjectStream } from '../objects/port.js';

/** One path segment naming an original's version: short, and made of key-safe characters only. */
export const versionTag = (version: string): string => createHash('sha256').update(version).digest('hex').slice(0, 16);

/** Original reads at once, by default: a few decodes' worth of memory, enough to keep the sharp slots busy. */
export const DEFAULT_ORIGINAL_READS = 4;

/** Waits for one of `limit` permits; released in the order they were asked for. */
export class OriginalReads {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  private readonly objects: ObjectStore;
  readonly limit: number;
  constructor(
    objects: ObjectStore,
    limit: number = DEFAULT_ORIGINAL_READS,
  ) {
    this.objects = objects;
    this.limit = limit;
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`original reads must be a whole number of at least 1, got ${limit}`);
  }

  /** Reads at once and waiting, for whoever watches the process. */
  get counts(): { reading: number; waiting: number } {
    return { reading: this.running, waiting: this.waiting.length };
  }

  /**
   * `use` with the original at `key` streaming in, once a permit is free; null when there is none.
   * The permit is held until `use` ends (what it decoded is in memory until then), and a stream it
   * did not read to the end is destroyed.
   */
  async read<T>(key: string, use: (original: ObjectStream) => Promise<T>): Promise<T | null> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      const original = await this.objects.getStream(key);
      if (!original) return null;
      try {
        return await use(original);
      } finally {
        original.body.destroy();
      }
    } finally {
      // The permit passes straight to the next in line, or is given back.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

/**
 * Writes an original under `key`, replacing whatever was there, and drops the variants made from
 * any earlier version of it: a catalogue photo rewritten with new bytes is served from those bytes,
 * resized or not. Variants of the same bytes written again (S3 versions are content hashes) stay.
 */
export async function replaceOriginal(objects: ObjectStore, key: string, body: Buffer, contentType: string): Promise<ObjectInfo> {
  const written = await objects.put(key, body, { contentType });
  const current = `${VARIANTS_PREFIX}${key}/${versionTag(written.version)}/`;
  for (const variant of await objects.list(`${VARIANTS_PREFIX}${key}/`)) {
    if (!variant.startsWith(current)) await objects.delete(variant);
  }
  return written;
}

/** Deletes an original and every variant made from any version of it. */
export async function removeOriginal(objects: ObjectStore, key: string): Promise<void> {
  await objects.delete(key);
  for (const variant of await objects.list(`${VARIANTS_PREFIX}${key}/`)) await objects.delete(variant);
}
