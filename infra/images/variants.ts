// Images as the image route serves them: the stored bytes of a key, or a variant made once.
//
//   memory (LRU, byte-bounded) → in flight? join it → object store (`variants/<key>/<chain>`)
//     → wait for a transform slot → read the original → sharp → store the variant
//
// A burst for one new variant makes one sharp job (every request joins the first one's promise);
// at most `maxJobs` transforms run at once and at most `maxQueued` wait, each waiting request
// holding nothing but its place: past that the caller is told to come back (ImagesBusy → 503).
// Keys name fixed bytes (uploads get a new key per file, catalogue photos one per item and
// source): what is served is never revalidated, and the route says so with `immutable`.
import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { variantKey, type TransformChain } from '../../domain/image/transforms.js';
import { InvalidObjectKey, validateObjectKey, type ObjectStore } from '../objects/port.js';
import type { ImageTransformer } from './transform.js';

export interface ServedImage {
  body: Buffer;
  contentType: string;
  /** Strong: a hash of the bytes, quoted. */
  etag: string;
}

/** Every transform slot and every place in the queue is taken. */
export class ImagesBusy extends Error {
  override name = 'ImagesBusy';
  constructor(readonly retryAfterSeconds: number) {
    super('Too many images are being resized right now. Try again shortly.');
  }
}

/** Content types the route serves; any other object is not an image and is not found. */
export const SERVED_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/gif']);

export interface ImageDeliveryOptions {
  objects: ObjectStore;
  transformer: ImageTransformer;
  /** Transforms running at once (default: the machine's cores). */
  maxJobs?: number;
  /** Transforms waiting for a slot before ImagesBusy (default 64). */
  maxQueued?: number;
  /** Bytes of recently served images kept in memory (default 64 MB; 0 turns the cache off). */
  cacheBytes?: number;
  /** A failure to keep a variant in the store: the variant is still served. */
  onStoreError?: (error: unknown, key: string) => void;
}

export interface ImageDeliveryStats {
  transforms: number;
  running: number;
  queued: number;
  cachedBytes: number;
  cachedEntries: number;
}

const etagOf = (body: Buffer): string => `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;

/** Slots for transforms, with a bounded queue. */
class JobLimit {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(readonly max: number, readonly maxQueued: number) {}

  get counts() {
    return { running: this.running, queued: this.waiting.length };
  }

  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.running >= this.max) {
      if (this.waiting.length >= this.maxQueued) throw new ImagesBusy(1);
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await job();
    } finally {
      // The slot passes straight to the next in line, so `running` never dips and overshoots.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

/** Least recently used first out, bounded by bytes. */
class ByteLru {
  private readonly entries = new Map<string, ServedImage>();
  private bytes = 0;
  constructor(private readonly maxBytes: number) {}

  get(id: string): ServedImage | undefined {
    const entry = this.entries.get(id);
    if (entry) {
      this.entries.delete(id);
      this.entries.set(id, entry);
    }
    return entry;
  }

  set(id: string, entry: ServedImage): void {
    // One image may take at most an eighth of the cache, so a few large originals cannot flush it.
    if (entry.body.length > this.maxBytes / 8) return;
    const old = this.entries.get(id);
    if (old) {
      this.bytes -= old.body.length;
      this.entries.delete(id);
    }
    this.entries.set(id, entry);
    this.bytes += entry.body.length;
    for (const [oldest, value] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= value.body.length;
    }
  }

  get stats() {
    return { cachedBytes: this.bytes, cachedEntries: this.entries.size };
  }
}

export class ImageDelivery {
  private readonly objects: ObjectStore;
  private readonly transformer: ImageTransformer;
  private readonly jobs: JobLimit;
  private readonly cache: ByteLru;
  private readonly inFlight = new Map<string, Promise<ServedImage | null>>();
  private readonly onStoreError: (error: unknown, key: string) => void;
  private transforms = 0;

  constructor(options: ImageDeliveryOptions) {
    this.objects = options.objects;
    this.transformer = options.transformer;
    this.jobs = new JobLimit(Math.max(1, options.maxJobs ?? availableParallelism()), Math.max(0, options.maxQueued ?? 64));
    this.cache = new ByteLru(options.cacheBytes ?? 64 * 1024 * 1024);
    this.onStoreError = options.onStoreError ?? (() => {});
  }

  /**
   * The image at `key`, as stored (`chain` null) or as a variant; null when there is no image
   * there. Throws InvalidObjectKey for a malformed key, UntransformableImage, or ImagesBusy.
   */
  async get(key: string, chain: TransformChain | null): Promise<ServedImage | null> {
    validateObjectKey(key);
    const id = chain ? variantKey(key, chain) : key;
    const cached = this.cache.get(id);
    if (cached) return cached;
    const joined = this.inFlight.get(id);
    if (joined) return joined;
    const loading = (chain ? this.loadVariant(key, id, chain) : this.loadStored(key)).finally(() => this.inFlight.delete(id));
    this.inFlight.set(id, loading);
    const image = await loading;
    if (image) this.cache.set(id, image);
    return image;
  }

  stats(): ImageDeliveryStats {
    return { transforms: this.transforms, ...this.jobs.counts, ...this.cache.stats };
  }

  private async loadStored(key: string): Promise<ServedImage | null> {
    const stored = await this.objects.get(key);
    if (!stored || !SERVED_TYPES.has(stored.contentType)) return null;
    return { body: stored.body, contentType: stored.contentType, etag: etagOf(stored.body) };
  }

  private async loadVariant(key: string, id: string, chain: TransformChain): Promise<ServedImage | null> {
    // A variant key longer than the store allows (an original key near 1 KB) is made but not kept.
    const keepable = isValidKey(id);
    if (keepable) {
      const kept = await this.loadStored(id);
      if (kept) return kept;
    }
    const made = await this.jobs.run(async () => {
      const original = await this.objects.get(key);
      if (!original || !SERVED_TYPES.has(original.contentType)) return null;
      this.transforms++;
      return this.transformer.transform(original.body, chain);
    });
    if (!made) return null;
    if (keepable) {
      await this.objects.put(id, made.body, { contentType: made.contentType }).catch((error: unknown) => this.onStoreError(error, id));
    }
    return { body: made.body, contentType: made.contentType, etag: etagOf(made.body) };
  }
}

const isValidKey = (key: string): boolean => {
  try {
    validateObjectKey(key);
    return true;
  } catch (error) {
    if (error instanceof InvalidObjectKey) return false;
    throw error;
  }
};
