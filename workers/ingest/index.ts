// The ingest role: a consumer that processes queued items, organizations in turn, a sweep that re-derives messages lost
// with a process (the in-process queue keeps nothing across restarts; the event store and the
// queue rows do), and the background clean-up of deleted datasets.
import { DATASET_CLEANUP_SUBJECT, datasetCleanupMessage, INGEST_SUBJECT, ingestMessage, type IngestMessage } from '../../infra/queue/messages.js';
import { outboundClient } from '../../infra/http/outbound.js';
import { openModels } from '../../infra/models/index.js';
import { getDataset } from '../../projections/queries/datasets.js';
import { waitingQueueRows } from '../../projections/queries/items.js';
import type { WorkerContext, WorkerDefinition } from '../worker.js';
import { removeDatasetFiles } from './cleanup.js';
import { demoPhotos } from './demo-photos.js';
import { DEFAULT_PHOTO_LIMITS } from './photos.js';
import { processItem, recordFailure } from './process-item.js';
import { storeAudienceReader } from './store-audience.js';

/** Attempts before an item is marked failed. */
export const INGEST_MAX_DELIVER = 3;
const SWEEP_EVERY_MS = 5 * 60_000;
/** A queue row untouched this long has lost its message (or its worker). */
const STALE_AFTER_MS = 10 * 60_000;

export const ingestWorker: WorkerDefinition<IngestMessage> = {
  role: 'ingest',
  subject: INGEST_SUBJECT,
  handler(context) {
    const models = openModels(context.config);
    const progress = { done: 0, since: performance.now() };
    const datasets = datasetCache(context);
    const audiences = storeAudienceReader(context.eventStore, context.database.db);
    return async (job) => {
      const started = performance.now();
      const outcome = await processItem(
        {
          eventStore: context.eventStore,
          db: context.database.db,
          objects: context.objects,
          labeller: models.labeller,
          embedder: models.embedder,
          logger: context.logger,
          localPhotos: demoPhotos,
          outbound: outboundClient(context.config.outbound.allowPrivate),
          photoLimits: { ...DEFAULT_PHOTO_LIMITS, timeoutMs: context.config.ingest.photoTimeoutMs },
          findDataset: datasets,
          storeAudience: audiences,
          heartbeat: () => job.working(),
        },
        job.payload,
        job.deliveryCount,
      );
      context.logger.debug({ itemId: job.payload.itemId, outcome, ms: Math.round(performance.now() - started) }, 'item ingested');
      // A progress line every hundred items: how far, how fast.
      if (outcome !== 'skipped' && ++progress.done % 100 === 0) {
        const seconds = (performance.now() - progress.since) / 1000;
        context.logger.info({ items: progress.done, perSecond: Math.round((100 / seconds) * 10) / 10 }, 'ingest progress');
        progress.since = performance.now();
      }
    };
  },
  options: (context) => ({
    parse: (payload) => ingestMessage.parse(payload),
    concurrency: 8,
    // Organizations take turns (messages are keyed by organization): one organization's upload of
    // thousands does not hold up another's ten, and it has at most this many items in flight at
    // once across every process.
    maxPerKey: context.config.ingest.maxPerOrganization,
    maxDeliver: INGEST_MAX_DELIVER,
    ackWaitMs: 60_000,
    retryDelayMs: context.config.ingest.retryDelayMs,
    onDeadLetter: async (dead) => {
      const message = ingestMessage.safeParse(dead.payload);
      if (!message.success) return;
      context.logger.warn({ itemId: message.data.itemId, reason: dead.reason, attempts: dead.deliveryCount }, 'item failed');
      await recordFailure(context.eventStore, message.data, dead.reason, dead.deliveryCount);
    },
  }),
  background: (context) => sweepWaitingItems(context),
};

/**
 * Dataset settings for a few seconds: an upload of thousands of items asks for the same dataset
 * thousands of times. A change (autoPublish, targetGender) reaches items queued after it within
 * that time; a deleted dataset's work is also dropped by the item rows being gone.
 */
function datasetCache(context: WorkerContext, ttlMs = 2_000) {
  const cache = new Map<string, { at: number; value: ReturnType<typeof getDataset> }>();
  return (organizationId: string, datasetId: string) => {
    const key = `${organizationId}/${datasetId}`;
    const hit = cache.get(key);
    if (hit && performance.now() - hit.at < ttlMs) return hit.value;
    const value = getDataset(context.database.db, organizationId, datasetId);
    if (cache.size > 1000) cache.clear();
    cache.set(key, { at: performance.now(), value });
    return value;
  };
}

/** At start-up every waiting row, then every few minutes the stale ones, go back on the queue. */
function sweepWaitingItems(context: WorkerContext): { stop(): Promise<void> } {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const sweep = async (olderThan: Date) => {
    let requeued = 0;
    for (;;) {
      const rows = await waitingQueueRows(context.database.db, olderThan, 500, requeued);
      if (stopped || rows.length === 0) break;
      for (const row of rows) {
        await context.queue.enqueue(INGEST_SUBJECT, { itemId: row.itemId, datasetId: row.datasetId, organizationId: row.organizationId }, { dedupeId: `sweep-${row.itemId}-${row.queueVersion}`, key: row.organizationId });
      }
      requeued += rows.length;
      if (rows.length < 500) break;
    }
    if (requeued) context.logger.info({ requeued }, 'waiting items put back on the queue');
  };
  running = sweep(new Date()).catch((error) => context.logger.warn({ err: error }, 'ingest sweep failed'));
  const timer = setInterval(() => {
    running = sweep(new Date(Date.now() - STALE_AFTER_MS)).catch((error) => context.logger.warn({ err: error }, 'ingest sweep failed'));
  }, SWEEP_EVERY_MS);
  timer.unref();
  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

export const datasetCleanupWorker: WorkerDefinition<{ organizationId: string; datasetId: string }> = {
  role: 'ingest',
  subject: DATASET_CLEANUP_SUBJECT,
  handler: (context) => async (job) => {
    const removed = await removeDatasetFiles(context.database.db, context.objects, job.payload.datasetId);
    context.logger.info({ datasetId: job.payload.datasetId, ...removed }, 'deleted dataset cleaned up');
  },
  options: { parse: (payload) => datasetCleanupMessage.parse(payload), maxDeliver: 5, ackWaitMs: 120_000 },
};
