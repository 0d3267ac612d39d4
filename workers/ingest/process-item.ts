// The ingest worker's work on one item: take the latest queued version off its stream, and
// either apply a partial update (prices, stock, variants; no relabelling) or run the pipeline
// (photos → labels → search text → embedding) and record the result. Safe to run twice: work
// already done or superseded by a newer upload is skipped, and every id it makes is derived.
import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import { beginIngest, failIngest } from '../../commands/ingest.js';
import { SEARCH_TEXT_VERSION, searchText } from '../../domain/catalogue/search-text.js';
import { labelsSchema } from '../../domain/catalogue/vocabulary.js';
import type { ItemImage } from '../../domain/item/index.js';
import type { EventStore } from '../../infra/eventstore/port.js';
import type { Outbound } from '../../infra/http/outbound.js';
import type { Embedder, Labeller, ProductPhoto } from '../../infra/models/port.js';
import type { ObjectStore } from '../../infra/objects/port.js';
import { getDataset } from '../../projections/queries/datasets.js';
import { storePhoto, type LocalPhotoSource, type PhotoLimits } from './photos.js';
import type { AudienceReader } from './store-audience.js';

/** Document 1 DatasetItem `version`: bumped when the pipeline changes what it produces. */
export const PIPELINE_VERSION = 1;
export const MAX_PHOTOS = 10;
/** Photos fetched at once for one item. */
const PHOTO_CONCURRENCY = 4;

export interface IngestDeps {
  eventStore: EventStore;
  db: Kysely<any>;
  objects: ObjectStore;
  labeller: Labeller;
  embedder: Embedder;
  logger: Logger;
  photoLimits?: PhotoLimits;
  localPhotos?: LocalPhotoSource;
  /** Photos are fetched through it; default: public addresses only. */
  outbound?: Outbound;
  /** Called between slow steps so the queue does not hand the job to another worker. */
  heartbeat?: () => Promise<void>;
  /** The dataset's settings; the worker passes a short-lived cache (they change rarely, items come in thousands). */
  findDataset?: (organizationId: string, datasetId: string) => ReturnType<typeof getDataset>;
  /** Who the dataset's catalogue sells to (its gender evidence); absent: each listing alone decides its gender. */
  storeAudience?: AudienceReader;
}

export type ProcessOutcome = 'processed' | 'partial_update' | 'skipped';

const SYSTEM = { kind: 'system' as const, id: 'ingest' };

export async function processItem(deps: IngestDeps, message: { itemId: string; datasetId: string; organizationId: string }, attempt: number): Promise<ProcessOutcome> {
  const { itemId, datasetId, organizationId } = message;
  // The stream is read once; each step appends expecting the revision the last one left.
  const run = await beginIngest(deps.eventStore, { itemId, datasetId, organizationId }, (queueVersion) => ({
    now: new Date().toISOString(),
    actor: SYSTEM,
    correlationId: `ingest/${itemId}/${queueVersion}/${attempt}`,
  }));
  const state = run.state;
  if (!state?.queued || state.queueStatus === null || state.queueStatus === 'failed') return 'skipped';
  const dataset = await (deps.findDataset ?? ((org, id) => getDataset(deps.db, org, id)))(organizationId, datasetId);
  // A deleted dataset's work is dropped; its rows are already gone from the read models.
  if (!dataset) return 'skipped';
  const ids = { itemId, datasetId, organizationId };

  const { kind, listing } = state.queued;
  // The queue row shows `processing` while slow work (fetching photos) is under way; work that takes
  // a moment (a partial update, an item without photos) goes straight to its result.
  if (listing.images.length > 0 && !(kind === 'partial_update' && state.processed)) {
    if (!(await run.startProcessing(attempt))) return 'skipped';
  }

  const currency = listing.currency || dataset.config.currency || 'CAD';
  if (kind === 'partial_update' && state.processed) {
    await run.completeCommerceUpdate({ price: listing.price, currency, variants: listing.variants });
    return 'partial_update';
  }

  // Photos, in supplied order, at most ten; a broken one is noted and skipped.
  const sources = listing.images.slice(0, MAX_PHOTOS).map((image) => image.src);
  const stored: Array<Awaited<ReturnType<typeof storePhoto>>> = new Array(sources.length);
  for (let start = 0; start < sources.length; start += PHOTO_CONCURRENCY) {
    const batch = sources.slice(start, start + PHOTO_CONCURRENCY);
    const results = await Promise.all(batch.map((src) => storePhoto(deps.objects, itemId, src, { limits: deps.photoLimits, local: deps.localPhotos, outbound: deps.outbound })));
    results.forEach((result, i) => (stored[start + i] = result));
    await deps.heartbeat?.();
  }
  const images: ItemImage[] = [];
  const photos: ProductPhoto[] = [];
  const photoProblems: Array<{ src: string; problem: string }> = [];
  for (const result of stored) {
    if ('problem' in result) {
      photoProblems.push(result);
      continue;
    }
    images.push({ originalImageUrl: result.src, type: '', uploaded: { id: result.id, key: result.key } });
    photos.push(result.photo);
  }
  if (photoProblems.length) deps.logger.warn({ itemId, photoProblems }, 'photos skipped');
  if (images.length) await recordStoredImages(deps.db, ids, images);

  // A dataset's own gender setting decides; otherwise its catalogue's evidence is read for listings that name none.
  const store = dataset.config.targetGender ? null : ((await deps.storeAudience?.(datasetId)) ?? null);
  const labels = labelsSchema.parse(await deps.labeller.label({ listing, photos, targetGender: dataset.config.targetGender, store }));
  if (dataset.config.targetGender) labels.gender = dataset.config.targetGender;
  const text = searchText(listing, labels);
  await deps.heartbeat?.();
  const [vector] = await deps.embedder.embed([text]);
  if (!vector) throw new Error(`embedder ${deps.embedder.name} returned no vector`);
  await saveEmbedding(deps.db, ids, deps.embedder.name, text, vector);

  await run.completeIngest({
    listing,
    currency,
    labels,
    searchText: text,
    searchTextVersion: SEARCH_TEXT_VERSION,
    images,
    photoProblems,
    labeller: deps.labeller.name,
    pipelineVersion: PIPELINE_VERSION,
    autoPublish: dataset.autoPublish,
  });
  return 'processed';
}

/** Gives up on an item after its last attempt: the queue row shows `failed` with the reason. */
export async function recordFailure(eventStore: EventStore, message: { itemId: string; datasetId: string; organizationId: string }, reason: string, attempts: number): Promise<void> {
  await failIngest(eventStore, message, { reason, attempts }, (queueVersion) => ({ now: new Date().toISOString(), actor: SYSTEM, correlationId: `ingest-failure/${message.itemId}/${queueVersion}` }));
}

async function recordStoredImages(db: Kysely<any>, ids: { itemId: string; datasetId: string; organizationId: string }, images: ItemImage[]): Promise<void> {
  const now = new Date();
  await db
    .insertInto('stored_images')
    .values(images.map((image) => ({ key: image.uploaded.key, item_id: ids.itemId, dataset_id: ids.datasetId, organization_id: ids.organizationId, stored_at: now })))
    .onConflict((c) => c.column('key').doNothing())
    .execute();
}

async function saveEmbedding(db: Kysely<any>, ids: { itemId: string; datasetId: string; organizationId: string }, model: string, text: string, vector: number[]): Promise<void> {
  const textHash = createHash('sha256').update(text).digest('base64url').slice(0, 22);
  const row = { item_id: ids.itemId, dataset_id: ids.datasetId, organization_id: ids.organizationId, model, text_hash: textHash, vector: sql`${`{${vector.join(',')}}`}::real[]`, updated_at: new Date() };
  await db
    .insertInto('item_embeddings')
    .values(row)
    .onConflict((c) => c.column('item_id').doUpdateSet({ model, text_hash: textHash, vector: row.vector, updated_at: row.updated_at, dataset_id: ids.datasetId }))
    .execute();
}
