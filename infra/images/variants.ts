// Images as the image route serves them: the stored bytes of a key, or a variant made once.
//
//   the original's version (a HEAD: a rewrite under the same key is another original)
//     → the chain, snapped to the documented steps (domain/image/variant-space.ts)
//     → settled against the original's size (read once a version from its header): nothing left → the original
//     → memory (LRU, byte-bounded) → in flight? join it → object store (`variants/<key>/<version>/<name>`)
//     → a miss: the client address pays from its bucket (MissBudget, 429 when empty)
//     → waits its turn for a slot, addresses served in turn (FairSlots: the process's one pool of
//       sharp slots, shared with looks and match) → the original streamed into sharp, a bounded
//       number at a time (OriginalReads)
//     → room made on the shelf (VariantShelf: a byte budget, least recently used out) → stored
//
// A burst for one new variant makes one sharp job (every request joins the first one's promise).
// Cached variants, in memory or in the store, cost no tokens and wait for no slot. Uploads get a new
// key per file; a catalogue photo keeps its key (one per item and source) and is rewritten when its
// source changes, so what is cached is keyed by the original's version, checked on every request.
// The route still says `immutable`: a browser keeps what it was given (issue 27 leaves that so).
import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import type { TransformChain } from '../../domain/image/transforms.js';
import { settleChain, snapChain, variantKey, VARIANTS_PREFIX, type OriginalImage, type VariantChain } from '../../domain/image/variant-space.js';
import { InvalidObjectKey, validateObjectKey, type ObjectInfo, type ObjectStore } from '../objects/port.js';
import { Abandoned, addressOwner, FairSlots, ImagesBusy, WaitingLineFull } from './fair-slots.js';
import { MissBudget } from './miss-budget.js';
import { DEFAULT_ORIGINAL_READS, OriginalReads, versionTag } from './originals.js';
import { UntransformableImage, type ImageTransformer } from './transform.js';
import { VariantShelf } from './variant-shelf.js';

export { Abandoned, ImagesBusy } from './fair-slots.js';

export interface ServedImage {
  body: Buffer;
  contentType: string;
  /** Strong: a hash of the bytes, quoted. */
  etag: string;
}

/** The client address has had its share of new variants, or has as many waiting as it may. */
export class TooManyNewVariants extends Error {
  override name = 'TooManyNewVariants';
  readonly retryAfterSeconds: number;
  /** The document-1 shape of a per-address limit: which bucket, how much of it, over what window. */
  readonly detail: { bucket: string; used: number; limit: number; windowSeconds?: number };
  constructor(
    retryAfterSeconds: number,
    detail: { bucket: string; used: number; limit: number; windowSeconds?: number },
  ) {
    super('Rate limit exceeded.');
    this.retryAfterSeconds = retryAfterSeconds;
    this.detail = detail;
  }
}

/** The bucket named in a 429 for new variants, and the one for too many waiting. */
export const VARIANT_BUCKET = 'api.v1.image.variants';
export const WAITING_BUCKET = 'api.v1.image.variants.waiting';

/** Content types the route serves; any other object is not an image and is not found. */
export const SERVED_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/gif']);

/** Who asks, when nobody says (a direct call in a test or a worker). */
export const LOCAL_CLIENT = 'local';

export const IMAGE_DEFAULTS = {
  maxQueued: 256,
  maxQueuedPerAddress: 32,
  avifSlots: 1,
  avifCost: 4,
  missesPerMinute: 120,
  missBurst: 60,
  variantBudgetBytes: 2048 * 1024 * 1024,
  cacheBytes: 64 * 1024 * 1024,
  originalReads: DEFAULT_ORIGINAL_READS,
} as const;

/** The bounds of the pool of sharp slots (imageJobSlots); IMAGE_TRANSFORM_SLOTS and the other IMAGE_* settings. */
export interface ImageJobSlotsOptions {
  /** Transforms running at once (default: the machine's cores). */
  slots?: number;
  /** Of those, one client address at most (default: half the slots, at least one). */
  slotsPerAddress?: number;
  /** AVIF transforms running at once, each inside one of the slots (default 1). */
  avifSlots?: number;
  /** Transforms waiting for a slot before ImagesBusy (default 256). */
  maxQueued?: number;
  /** Transforms of one address waiting before TooManyNewVariants (default 32). */
  maxQueuedPerAddress?: number;
}

/**
 * The pool of sharp slots: one per core unless told otherwise. app/api.ts makes one per process
 * and hands it to image delivery, looks and match, so their sharp jobs together never run on
 * more slots than this; its bounds are the image delivery's, which has the most requests.
 */
export function imageJobSlots(options: ImageJobSlotsOptions = {}): FairSlots {
  const slots = Math.max(1, options.slots ?? availableParallelism());
  return new FairSlots({
    slots,
    perOwner: options.slotsPerAddress ?? Math.max(1, Math.floor(slots / 2)),
    heavySlots: options.avifSlots ?? IMAGE_DEFAULTS.avifSlots,
    maxWaiting: options.maxQueued ?? IMAGE_DEFAULTS.maxQueued,
    maxWaitingPerOwner: options.maxQueuedPerAddress ?? IMAGE_DEFAULTS.maxQueuedPerAddress,
  });
}

export interface ImageDeliveryOptions extends ImageJobSlotsOptions {
  objects: ObjectStore;
  transformer: ImageTransformer;
  /**
   * The process's pool of sharp slots, shared with the other routes' sharp work; its bounds are
   * its own and the slot options here are not read. Closed by close(). Without it, a pool of its
   * own from the options (tests).
   */
  slotPool?: FairSlots;
  /** New variants one address may have made: `burst` at once, refilled at `perMinute`; null: no bound. */
  missRate?: { perMinute: number; burst: number } | null;
  /** Tokens an AVIF variant takes (default 4). */
  avifCost?: number;
  /** Bytes the kept variants may take in the store (default 2 GiB; see VariantShelf for how they are counted). */
  variantBudgetBytes?: number;
  /** Bytes of recently served images kept in memory (default 64 MB; 0 turns the cache off). */
  cacheBytes?: number;
  /** Originals read from the store (streamed into sharp) at once, to measure or transform them (default 4). */
  originalReads?: number;
  /** A failure to keep a variant in the store (or to evict one): the variant is still served. */
  onStoreError?: (error: unknown, key: string) => void;
}

export interface ImageDeliveryStats {
  transforms: number;
  /** Jobs running and waiting in its pool of sharp slots: with the shared pool, every route's. */
  running: number;
  queued: number;
  cachedBytes: number;
  cachedEntries: number;
  keptBytes: number;
  kept: number;
  evicted: number;
  /** Originals being read into sharp, and reads waiting for their turn. */
  originalReads: number;
  originalReadsWaiting: number;
}

const etagOf = (body: Buffer): string => `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;

/** Least recently used first out, bounded by bytes. */
class ByteLru {
  private readonly entries = new Map<string, ServedImage>();
  private bytes = 0;
  private readonly maxBytes: number;
  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

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

/** Originals' sizes, or why they cannot be transformed, by key: a few numbers each. */
const MAX_DESCRIBED = 20_000;

type Description = OriginalImage | UntransformableImage;

/** A load under way, and how many requests still want it (one that never says it left counts for ever). */
interface Load {
  loading: Promise<unknown>;
  client: string;
  wanted: number;
  abandon: AbortController;
}

export class ImageDelivery {
  private readonly objects: ObjectStore;
  private readonly transformer: ImageTransformer;
  private readonly slots: FairSlots;
  private readonly misses: MissBudget | null;
  private readonly avifCost: number;
  private readonly shelf: VariantShelf;
  private readonly cache: ByteLru;
  private readonly originals: OriginalReads;
  private readonly described = new Map<string, Description>();
  private readonly inFlight = new Map<string, Load>();
  private readonly onStoreError: (error: unknown, key: string) => void;
  private transforms = 0;

  constructor(options: ImageDeliveryOptions) {
    this.objects = options.objects;
    this.transformer = options.transformer;
    this.slots = options.slotPool ?? imageJobSlots(options);
    const rate = options.missRate === undefined ? { perMinute: IMAGE_DEFAULTS.missesPerMinute, burst: IMAGE_DEFAULTS.missBurst } : options.missRate;
    this.misses = rate ? new MissBudget(rate) : null;
    this.avifCost = Math.max(1, options.avifCost ?? IMAGE_DEFAULTS.avifCost);
    this.onStoreError = options.onStoreError ?? (() => {});
    this.shelf = new VariantShelf({ objects: this.objects, budgetBytes: options.variantBudgetBytes ?? IMAGE_DEFAULTS.variantBudgetBytes, onError: (error, what) => this.onStoreError(error, what) });
    this.cache = new ByteLru(options.cacheBytes ?? IMAGE_DEFAULTS.cacheBytes);
    this.originals = new OriginalReads(this.objects, options.originalReads ?? IMAGE_DEFAULTS.originalReads);
  }

  /**
   * The image at `key`, as stored (`chain` null) or as a variant, for a client at `client` (an
   * address); null when there is no image there. `gone` fires when the client has gone away: a
   * variant nobody waits for any more leaves the line for a slot (Abandoned). Throws
   * InvalidObjectKey for a malformed key, UntransformableImage, TooManyNewVariants or ImagesBusy.
   */
  async get(key: string, chain: TransformChain | null, client: string = LOCAL_CLIENT, gone?: AbortSignal): Promise<ServedImage | null> {
    validateObjectKey(key);
    // Which bytes are at the key now: what is cached is cached by version.
    const info = await this.objects.head(key);
    if (!info || !SERVED_TYPES.has(info.contentType)) return null;
    if (!chain) return this.stored(info);
    // A variant is served as it is, never made into another: variants of variants would be a space without end.
    if (key.startsWith(VARIANTS_PREFIX)) return null;
    const original = await this.describe(info);
    if (!original) return null;
    const settled = settleChain(snapChain(chain), original);
    if (!settled) return this.stored(info);
    return this.variant(info, settled, client, gone);
  }

  /** Learns the variants already in the store, and evicts down to the budget; runs once. */
  scanStore(): Promise<void> {
    return this.shelf.scanStore();
  }

  /**
   * Shutting down: requests waiting for a slot are told to come back, and this resolves once the
   * transforms running and their writes have ended, so the store is not closed under them. A shared
   * pool is closed too: the routes' onClose comes at shutdown, when looks and match waiting for a
   * slot should come back as well.
   */
  async close(): Promise<void> {
    this.slots.close();
    this.shelf.close();
    await Promise.allSettled([...this.inFlight.values()].map(({ loading }) => loading));
  }

  stats(): ImageDeliveryStats {
    const { running, queued } = this.slots.counts;
    const { keptBytes, kept, evicted } = this.shelf.stats;
    const { reading: originalReads, waiting: originalReadsWaiting } = this.originals.counts;
    return { transforms: this.transforms, running, queued, ...this.cache.stats, keptBytes, kept, evicted, originalReads, originalReadsWaiting };
  }

  /** One load per id at a time: whoever asks while it runs joins it. */
  private async once<T>(id: string, client: string, load: (abandoned: AbortSignal) => Promise<T>, gone?: AbortSignal): Promise<T> {
    const joined = this.inFlight.get(id);
    if (joined) {
      this.want(joined, gone);
      try {
        return (await joined.loading) as T;
      } catch (error) {
        // Another address's refusal is not ours, nor is a job given up before we joined it: ask on our own account.
        const notOurs = error instanceof Abandoned || (joined.client !== client && (error instanceof TooManyNewVariants || error instanceof ImagesBusy));
        if (notOurs && !gone?.aborted) return this.once(id, client, load, gone);
        throw error;
      }
    }
    const abandon = new AbortController();
    const loading = load(abandon.signal).finally(() => this.inFlight.delete(id));
    const entry: Load = { loading, client, wanted: 0, abandon };
    this.inFlight.set(id, entry);
    this.want(entry, gone);
    return loading;
  }

  /** One more request wants this load; when every one that wanted it has gone, it is abandoned. */
  private want(load: Load, gone?: AbortSignal): void {
    load.wanted++;
    if (!gone) return;
    const leave = () => {
      if (--load.wanted === 0) load.abandon.abort();
    };
    if (gone.aborted) leave();
    else gone.addEventListener('abort', leave, { once: true });
  }

  /** The stored bytes of this version of an object, served whole (and cached) as they are. */
  private async stored(info: ObjectInfo): Promise<ServedImage | null> {
    const id = `${info.key}@${info.version}`;
    const cached = this.cache.get(id);
    if (cached) return cached;
    const image = await this.once(`stored:${id}`, LOCAL_CLIENT, () => this.loadStored(info.key));
    if (image) this.cache.set(id, image);
    return image;
  }

  private async loadStored(key: string): Promise<ServedImage | null> {
    const stored = await this.objects.get(key);
    if (!stored || !SERVED_TYPES.has(stored.contentType)) return null;
    return { body: stored.body, contentType: stored.contentType, etag: etagOf(stored.body) };
  }

  /** The original's size and format, from its header, remembered by version; null when it is gone. */
  private async describe(info: ObjectInfo): Promise<OriginalImage | null> {
    const id = `${info.key}@${info.version}`;
    let description = this.described.get(id);
    if (!description) {
      const found = await this.once(`describe:${id}`, LOCAL_CLIENT, async (): Promise<Description | null> => {
        try {
          const size = await this.originals.read(info.key, (original) => this.transformer.measure(original.body));
          return size && { ...size, format: info.contentType.replace(/^image\//, '') };
        } catch (error) {
          if (error instanceof UntransformableImage) return error;
          throw error;
        }
      });
      // A missing original is not remembered: it may be uploaded next.
      if (!found) return null;
      description = found;
      if (this.described.size >= MAX_DESCRIBED) this.described.delete(this.described.keys().next().value!);
    } else {
      this.described.delete(id);
    }
    this.described.set(id, description);
    if (description instanceof UntransformableImage) throw description;
    return description;
  }

  private async variant(info: ObjectInfo, chain: VariantChain, client: string, gone?: AbortSignal): Promise<ServedImage | null> {
    const key = info.key;
    const id = variantKey(key, versionTag(info.version), chain);
    const cached = this.cache.get(id);
    if (cached) {
      this.shelf.used(id);
      return cached;
    }
    const image = await this.once(id, client, (abandoned) => this.findOrMake(key, id, chain, client, abandoned), gone);
    if (image) this.cache.set(id, image);
    return image;
  }

  private async findOrMake(key: string, id: string, chain: VariantChain, client: string, abandoned: AbortSignal): Promise<ServedImage | null> {
    // A variant key longer than the store allows (an original key near 1 KB) is made but not kept.
    const keepable = isValidKey(id);
    if (keepable) {
      const kept = await this.loadStored(id);
      if (kept) {
        this.shelf.found(id, kept.body.length);
        return kept;
      }
    }
    const heavy = chain.format === 'avif';
    const cost = heavy ? this.avifCost : 1;
    if (this.misses) {
      const charge = this.misses.charge(client, cost, Date.now());
      if (!charge.allowed) {
        throw new TooManyNewVariants(charge.retryAfter, { bucket: VARIANT_BUCKET, used: this.misses.perMinute, limit: this.misses.perMinute, windowSeconds: 60 });
      }
    }
    let made;
    try {
      // The pool's owner is the address, as match's reads of that address are: one turn across routes.
      made = await this.slots.run(
        addressOwner(client),
        heavy,
        () =>
          this.originals.read(key, (original) => {
            this.transforms++;
            return this.transformer.transform(original.body, chain);
          }),
        abandoned,
      );
    } catch (error) {
      // Nothing was made: the address keeps its tokens.
      if (error instanceof WaitingLineFull || error instanceof ImagesBusy || error instanceof Abandoned) this.misses?.refund(client, cost, Date.now());
      if (error instanceof WaitingLineFull) throw new TooManyNewVariants(1, { bucket: WAITING_BUCKET, used: error.waiting, limit: error.limit });
      throw error;
    }
    if (!made) return null;
    if (keepable && this.shelf.fits(made.body.length)) {
      const room = await this.shelf.makeRoom(made.body.length);
      try {
        await this.objects.put(id, made.body, { contentType: made.contentType });
        room.kept(id);
      } catch (error) {
        room.dropped();
        this.onStoreError(error, id);
      }
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
