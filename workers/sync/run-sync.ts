// One sync run (document 1, Sync job): claim the job, fetch the store's whole feed, diff it against
// the dataset by sku, queue what is new or changed, archive what left, and record the outcome on
// the source's stream. The worker heart-beats while it runs; if it falls silent the scheduler hands
// the job to another worker, and this one notices at its next beat and stops without writing more.
// Nothing changes in the catalogue until the whole feed is read: a run that fails while fetching
// leaves the dataset as it was.
// Fairness (issue 12): a run needs one of its organization's slots (slots.ts) before it claims the
// job, and has SYNC_DEADLINE_SECONDS in all: past that it stops, writes nothing more, and the job
// fails with a reason the merchant can act on; the slot is free at once either way.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { feedProductKeeper, parseEntries, queueListings } from '../../commands/items.js';
import { loadState } from '../../commands/handle.js';
import { setSyncedItemStatus } from '../../commands/ingest.js';
import { claimSyncJob, completeSyncJob, failSyncJob, loadSyncJob, releaseSyncJob } from '../../commands/sync-jobs.js';
import type { SyncMessage } from '../../infra/queue/messages.js';
import type { ItemStatus } from '../../domain/item/index.js';
import type { CommandMeta } from '../../domain/metadata.js';
import { diffCatalogue, liveSource, type Source, NO_SYNC_STATS, sourceDecider, sourceStream, SyncClaimLost, type SyncDiff, type SyncStats } from '../../domain/source/index.js';
import type { Listing } from '../../domain/catalogue/product-input.js';
import type { EventStore } from '../../infra/eventstore/port.js';
import type { WorkQueue } from '../../infra/queue/port.js';
import { getDataset } from '../../projections/queries/datasets.js';
import { itemsBySku } from '../../projections/queries/items.js';
import { pendingJobs, type JobRef } from '../../projections/queries/sync.js';
import { fetchStoreFeed, FeedError, type FeedOptions, type FeedResult } from '../../infra/http/store-feed.js';
import { readMarkets } from './markets.js';
import { releaseSlot, stopWaiting, takeSlot, waitForSlot, wakeWaiting } from './slots.js';
import { SyncLogWriter } from './sync-log.js';

export interface SyncDeps {
  eventStore: EventStore;
  db: Kysely<any>;
  queue: WorkQueue;
  logger: Logger;
  workerId: string;
  heartbeatTimeoutMs: number;
  /** Aborted when the process is going away for good: stop at once, write nothing more. */
  halt?: AbortSignal;
  /** Options of the feed fetcher: the outbound client (OUTBOUND_ALLOW_PRIVATE), the operator's caps (SYNC_MAX_FEED_MB, SYNC_MAX_PRODUCTS); tests shorten back-off. */
  feed?: Partial<FeedOptions<unknown>>;
  /** Called with every beat: the queue message is still being worked on. */
  working?: () => Promise<void>;
  /** Runs of one organization at once across every process (SYNC_MAX_PER_ORGANIZATION; default 1). */
  maxPerOrganization?: number;
  /** A run's whole time budget (SYNC_DEADLINE_SECONDS; default 30 minutes). */
  deadlineMs?: number;
}

/** `waiting`: the organization's slots are all held; the job waits in sync_waiting for one to free. */
export type SyncOutcome = 'completed' | 'failed' | 'nothing-to-do' | 'waiting';

export const DEFAULT_SYNC_DEADLINE_MS = 30 * 60_000;

/**
 * Items queued per round of appends. A round's events, their JSON and their queries live until its
 * last append returns. On a quiet machine a 25,000-product sync peaked at 590 MB RSS in rounds of
 * 500 and at 434 to 437 MB in rounds of 200 or 100 (bench/memory.ts); on a loaded one rounds of 200
 * still reached 539 and 626 MB: the peak is garbage V8 has not collected yet (under a 224 MB heap
 * cap the same run peaks at 346 MB), so it follows how far the collector lags behind, not this alone.
 */
const QUEUE_CHUNK = 200;
/** Status changes (archive, return) made at once. */
const STATUS_CONCURRENCY = 8;
/** Runs retried after an internal error (the event store or database unreachable) before the job fails. */
export const MAX_RUN_RETRIES = 2;

/**
 * The message names a job, but claiming follows document 1's order (highest priority, then
 * oldest) among organizations with a free slot: the best such pending job is tried first, then the
 * message's own. Every pending job has a message of its own, or waits in sync_waiting, so a job
 * taken out of turn leaves its message for the one passed over.
 */
export async function handleSyncMessage(deps: SyncDeps, message: SyncMessage): Promise<SyncOutcome> {
  const candidates = await pendingJobs(deps.db, 3, { maxPerOrganization: deps.maxPerOrganization ?? 1 });
  if (!candidates.some((job) => job.jobId === message.jobId)) candidates.push(message);
  let outcome: SyncOutcome = 'nothing-to-do';
  for (const candidate of candidates) {
    outcome = await runJob(deps, candidate);
    if (outcome === 'completed' || outcome === 'failed') return outcome;
  }
  return outcome;
}

const zeroStats = (): SyncStats => ({ ...NO_SYNC_STATS });

export async function runJob(deps: SyncDeps, ref: JobRef): Promise<SyncOutcome> {
  const { jobId, sourceId, datasetId, organizationId } = ref;
  const ids = { sourceId, datasetId, organizationId };
  const jobIds = { ...ids, jobId };
  const source = liveSource(await loadState(deps.eventStore, sourceDecider, sourceStream(sourceId)));
  // A deleted source took its jobs with it.
  const job = source && source.organizationId === organizationId ? await loadSyncJob(deps.eventStore, jobIds) : null;
  if (!source || job?.status !== 'pending') return 'nothing-to-do';
  const logId = randomUUID();
  const meta = (): CommandMeta => ({ now: new Date().toISOString(), actor: { kind: 'source', id: sourceId }, correlationId: logId });

  const dataset = await getDataset(deps.db, organizationId, datasetId);
  if (!dataset || dataset.status === 'archived') {
    const error = dataset ? 'The dataset is archived; activate it to sync.' : 'The dataset no longer exists.';
    const { events } = await failSyncJob(deps.eventStore, jobIds, { workerId: null, error, stats: null }, meta());
    return events.length ? 'failed' : 'nothing-to-do';
  }

  // The organization's slot first (the limit is decided by the slot row, not by a read model).
  const maxPerOrganization = deps.maxPerOrganization ?? 1;
  const slotClaim = { job: ref, workerId: deps.workerId, maxPerOrganization };
  // Busy: another worker took a slot for this very job and is claiming it, or died doing so; the
  // job waits too, so it is announced again once that slot is let go (or freed as silent).
  if ((await takeSlot(deps.db, slotClaim)) !== 'taken') {
    await waitForSlot(deps.db, { ...jobIds, priority: job.priority, createdAt: job.createdAt });
    // A run that ended between the two looks found no waiting row to wake: look once more.
    if ((await takeSlot(deps.db, slotClaim)) !== 'taken') return 'waiting';
  }
  await stopWaiting(deps.db, jobId);

  // A worker that got there first makes this a no-op.
  const claimed = await claimSyncJob(deps.eventStore, jobIds, { workerId: deps.workerId, logId }, meta()).catch(async (error: unknown) => {
    await letGo(deps, ref);
    throw error;
  });
  if (!claimed.events.length) {
    await letGo(deps, ref);
    return 'nothing-to-do';
  }
  const retries = claimed.job?.retries ?? 0;

  const heartbeat = new Heartbeat(deps, jobId);
  heartbeat.start();
  const deadline = new Deadline(deps.deadlineMs ?? DEFAULT_SYNC_DEADLINE_MS);
  const log = new SyncLogWriter(deps.db, logId);
  const run = new SyncRun(deps, ids, jobId, source, log, heartbeat, AbortSignal.any([heartbeat.signal, deadline.signal]), meta);
  try {
    const stats = await run.execute();
    if (heartbeat.signal.aborted) throw heartbeat.signal.reason;
    await completeSyncJob(deps.eventStore, jobIds, { workerId: deps.workerId, stats }, meta());
    deps.logger.info({ jobId, sourceId, stats }, 'sync completed');
    return 'completed';
  } catch (error) {
    if (heartbeat.signal.aborted) {
      deps.logger.warn({ jobId, sourceId, reason: String(heartbeat.signal.reason) }, 'sync stopped: this worker no longer holds the job');
      throw heartbeat.signal.reason;
    }
    // Past its deadline the run failed however it stopped: the merchant reads why, not an abort.
    const failure = deadline.signal.aborted ? new RunFailure(deadline.explain(run.stats, run.wroteToCatalogue), run.stats) : error;
    if (failure instanceof RunFailure) {
      log.add('error', failure.message);
      await log.close();
      await failSyncJob(deps.eventStore, jobIds, { workerId: deps.workerId, error: failure.message, stats: failure.stats }, meta());
      deps.logger.warn({ jobId, sourceId, error: failure.message, deadlinePassed: deadline.signal.aborted }, 'sync failed');
      return 'failed';
    }
    // Not the store's fault (the database or event store went away): try the run again a couple of times.
    // The merchant reads the job's error and log: they get a reference to quote, the operator's log
    // gets the detail (raw database errors name tables and servers, and help no merchant).
    const reference = randomBytes(4).toString('hex');
    deps.logger.error({ jobId, sourceId, reference, err: error }, 'sync run broke');
    log.add('error', `The run stopped on an internal error (reference ${reference}); it is tried again.`);
    await log.close().catch(() => undefined);
    if (retries < MAX_RUN_RETRIES) {
      await releaseSyncJob(deps.eventStore, jobIds, { workerId: deps.workerId, reason: 'retry' }, meta());
      throw error;
    }
    await failSyncJob(deps.eventStore, jobIds, { workerId: deps.workerId, error: `Sync stopped by an internal error (reference ${reference}). Try again later; if it persists, give the reference to your Stylist operator.`, stats: run.stats }, meta());
    return 'failed';
  } finally {
    heartbeat.stop();
    deadline.clear();
    // The beat is this worker's row and its organization's slot; a run that ends, however it ends,
    // takes it away, and hands the slot to the organization's best waiting job.
    await letGo(deps, ref);
  }
}

async function letGo(deps: SyncDeps, job: JobRef): Promise<void> {
  try {
    await releaseSlot(deps.db, job.jobId, deps.workerId);
    await wakeWaiting(deps.db, deps.queue, job.organizationId, deps.maxPerOrganization ?? 1);
  } catch (error) {
    // The scheduler frees a silent slot and wakes its waiting jobs within the heartbeat timeout.
    deps.logger.warn({ jobId: job.jobId, err: error }, 'sync slot not released');
  }
}

/** The run's whole time budget; its signal aborts with the reason once the budget is spent. */
class Deadline {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;

  private readonly ms: number;
  constructor(ms: number) {
    this.ms = ms;
    this.timer = setTimeout(() => this.controller.abort(new Error(`sync deadline of ${ms} ms passed`)), ms);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  clear(): void {
    clearTimeout(this.timer);
  }

  /** What the merchant reads on the job and in its log. */
  explain(stats: SyncStats, wroteToCatalogue: boolean): string {
    const took = this.ms >= 120_000 ? `${Math.round(this.ms / 60_000)} minutes` : `${Math.round(this.ms / 1000)} seconds`;
    const read = `${stats.retrieved > 0 ? stats.retrieved : 'no'} products had been read`;
    const kept = wroteToCatalogue
      ? 'The changes queued before then are kept; the next sync completes the rest.'
      : 'Nothing in the catalogue was changed; the next sync starts again from the first page.';
    return `Sync stopped after ${took}, the longest a sync may run: the store answered too slowly (${read}). ${kept}`;
  }
}

/** The run failed for a reason the merchant should read (the store's answers, an empty store). */
class RunFailure extends Error {
  readonly stats: SyncStats;
  constructor(
    message: string,
    stats: SyncStats,
  ) {
    super(message);
    this.stats = stats;
  }
}

class SyncRun {
  readonly stats: SyncStats = zeroStats();
  /** Set once the first change reaches the catalogue (items queued, archived or brought back). */
  wroteToCatalogue = false;

  private readonly deps: SyncDeps;
  private readonly ids: { sourceId: string; datasetId: string; organizationId: string };
  private readonly jobId: string;
  private readonly source: Pick<Source, 'endpoint' | 'markets' | 'defaultMarket'>;
  private readonly log: SyncLogWriter;
  private readonly heartbeat: Heartbeat;
  /** Aborts when the job is lost (heartbeat), the process halts, or the deadline passes: stop, write nothing more. */
  private readonly signal: AbortSignal;
  private readonly meta: () => CommandMeta;
  constructor(
    deps: SyncDeps,
    ids: { sourceId: string; datasetId: string; organizationId: string },
    jobId: string,
    source: Pick<Source, 'endpoint' | 'markets' | 'defaultMarket'>,
    log: SyncLogWriter,
    heartbeat: Heartbeat,
    signal: AbortSignal,
    meta: () => CommandMeta,
  ) {
    this.deps = deps;
    this.ids = ids;
    this.jobId = jobId;
    this.source = source;
    this.log = log;
    this.heartbeat = heartbeat;
    this.signal = signal;
    this.meta = meta;
  }

  private get endpoint(): string {
    return this.source.endpoint;
  }

  async execute(): Promise<SyncStats> {
    const started = performance.now();
    const { sourceId, datasetId } = this.ids;
    this.log.add('info', `Sync started on worker ${this.deps.workerId}: reading ${this.endpoint}`);
    await this.log.flush();

    const { diff, forMarkets } = await this.diff();
    const failedNew = await this.queue(diff.queue);
    this.stats.added = diff.added - failedNew.added;
    this.stats.updated = diff.updated - failedNew.updated;
    await this.setStatuses(diff.revive, 'active');
    this.stats.archived = await this.setStatuses(diff.archive, 'archived');
    this.throwIfLost();
    await readMarkets({
      db: this.deps.db,
      sourceId,
      datasetId,
      markets: this.source.markets,
      defaultMarket: this.source.defaultMarket,
      ...forMarkets,
      log: this.log,
      feed: { ...this.deps.feed, signal: this.signal },
    });
    this.throwIfLost();

    this.log.add('info', `Sync finished in ${seconds(started)} s: ${this.stats.added} added, ${this.stats.updated} updated, ${this.stats.archived} archived, ${this.stats.failed} failed, ${diff.unchanged} unchanged.`);
    await this.log.close();
    return this.stats;
  }

  /**
   * The feed, read whole, against the dataset. The feed's listings are the largest thing a run
   * holds (about 3 KB a product): past this call only the diff's queue holds the changed ones, let
   * go round by round as they are queued, and the market prices the default market's, when the
   * source has one (other markets need only the skus). A 25,000-product sync peaked 13 to 33 MB
   * lower for it alone, and far lower with the heap's growing factor (docs/performance.md, Memory).
   */
  private async diff(): Promise<{ diff: SyncDiff; forMarkets: { skus: ReadonlySet<string>; listings: Listing[] } }> {
    const { sourceId, datasetId } = this.ids;
    const started = performance.now();
    const feed = await this.fetch();
    this.stats.retrieved = feed.retrieved;
    this.log.add('info', `Read ${feed.retrieved} products in ${feed.pages} pages (${seconds(started)} s)${feed.repeated ? `; ${feed.repeated} repeated products dropped` : ''}.`);
    if (feed.retrieved === 0) throw new RunFailure('The store returned no products, so nothing was changed. Check the endpoint, or whether the store is empty.', this.stats);
    const parsed = parseEntries('products', feed.products, new URL(this.endpoint).origin);
    for (const failure of parsed.failures) this.log.add('error', `Product ${failure.sku ?? `#${failure.index + 1}`} was not imported: ${failure.error}`, failure.sku);
    this.stats.failed = parsed.failures.length;
    const listings = parsed.listings.map((entry) => entry.listing);

    const stored = await itemsBySku(this.deps.db, datasetId);
    const diff = diffCatalogue(sourceId, datasetId, listings, stored, !feed.capped);
    if (feed.capped) this.log.add('warn', `The store has more products than the ${feed.retrieved} a sync reads; nothing was archived this run.`);
    this.heartbeat.progress = { phase: 'queueing', retrieved: feed.retrieved, toQueue: diff.queue.length };
    await this.log.flush();
    // readMarkets reads nothing for a source without markets.
    const { markets, defaultMarket } = this.source;
    if (!markets.length) return { diff, forMarkets: { skus: new Set(), listings: [] } };
    return { diff, forMarkets: { skus: new Set(listings.map((listing) => listing.sku)), listings: defaultMarket ? listings : [] } };
  }

  private async fetch(): Promise<FeedResult<unknown>> {
    try {
      return await fetchStoreFeed(this.endpoint, {
        ...this.deps.feed,
        // Each product is held as its listing from the moment it is read, never in its raw form.
        keep: feedProductKeeper(new URL(this.endpoint).origin),
        signal: this.signal,
        onNotice: (notice) => this.log.add(notice.level, notice.message),
        onPage: async ({ page, held }) => {
          this.heartbeat.progress = { phase: 'fetching', pages: page, retrieved: held };
          if (page % 20 === 0) this.log.add('info', `Read ${page} pages so far (${held} products).`);
          await this.log.flush();
        },
      });
    } catch (error) {
      if (error instanceof FeedError) throw new RunFailure(error.message, this.stats);
      throw error;
    }
  }

  /**
   * Queues in rounds through the item decider; returns how many new and changed products were not
   * queued (the store failed, or an upload queued the same listing first: the decider finds it unchanged).
   * Empties `entries` as it goes.
   */
  private async queue(entries: SyncDiff['queue']): Promise<{ added: number; updated: number }> {
    const notQueued = { added: 0, updated: 0 };
    const total = entries.length;
    let queued = 0;
    while (entries.length) {
      this.throwIfLost();
      // Taken off the diff's queue: once queued, a round's listings are in its events, and the run lets go of them.
      const chunk = entries.splice(0, QUEUE_CHUNK);
      this.wroteToCatalogue = true;
      const { outcomes } = await queueListings({ store: this.deps.eventStore, queue: this.deps.queue }, this.ids, chunk, this.meta());
      chunk.forEach((entry, i) => {
        const outcome = outcomes[i];
        if (outcome !== 'failed' && outcome !== 'unchanged') return;
        notQueued[entry.isNew ? 'added' : 'updated']++;
        if (outcome === 'unchanged') return;
        this.stats.failed++;
        this.log.add('error', `Product ${entry.listing.sku} could not be queued; the next sync tries again.`, entry.listing.sku);
      });
      queued += chunk.length;
      this.heartbeat.progress = { phase: 'queueing', queued, toQueue: total };
    }
    return notQueued;
  }

  /** Archives or brings back this source's items; returns how many changed. */
  private async setStatuses(itemIds: string[], status: ItemStatus): Promise<number> {
    let changed = 0;
    const { sourceId, datasetId, organizationId } = this.ids;
    for (let start = 0; start < itemIds.length; start += STATUS_CONCURRENCY) {
      this.throwIfLost();
      this.wroteToCatalogue = true;
      const results = await Promise.allSettled(
        itemIds.slice(start, start + STATUS_CONCURRENCY).map((itemId) => setSyncedItemStatus(this.deps.eventStore, { itemId, datasetId, organizationId, sourceId }, status, this.meta())),
      );
      results.forEach((result, i) => {
        if (result.status === 'fulfilled') changed += result.value.events.length;
        else this.log.add('error', `Item ${itemIds[start + i]} could not be ${status === 'archived' ? 'archived' : 'brought back'}: ${String(result.reason)}`);
      });
    }
    return changed;
  }

  private throwIfLost(): void {
    if (this.signal.aborted) throw this.signal.reason;
  }
}

const seconds = (since: number): string => ((performance.now() - since) / 1000).toFixed(1);

/**
 * The worker's sign of life: a row it overwrites every few seconds, written when it took the
 * organization's slot (slots.ts). Finding the row gone or taken by another worker means the job was
 * handed on: the run stops (the signal aborts).
 */
class Heartbeat {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | null = null;
  progress: Record<string, unknown> = { phase: 'starting' };
  readonly signal: AbortSignal;

  private readonly deps: SyncDeps;
  private readonly jobId: string;
  constructor(
    deps: SyncDeps,
    jobId: string,
  ) {
    this.deps = deps;
    this.jobId = jobId;
    this.signal = deps.halt ? AbortSignal.any([this.controller.signal, deps.halt]) : this.controller.signal;
  }

  start(): void {
    const every = Math.max(250, Math.min(30_000, Math.floor(this.deps.heartbeatTimeoutMs / 4)));
    this.timer = setInterval(() => void this.beat(), every);
  }

  private async beat(): Promise<void> {
    if (this.signal.aborted) return this.stop();
    try {
      const result = await this.deps.db
        .updateTable('sync_heartbeats')
        .set({ beat_at: new Date(), progress: JSON.stringify(this.progress) })
        .where('job_id', '=', this.jobId)
        .where('worker_id', '=', this.deps.workerId)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) this.controller.abort(new SyncClaimLost(this.jobId));
      await this.deps.working?.();
    } catch (error) {
      // A missed beat is not fatal; silence for the whole timeout is.
      this.deps.logger.warn({ jobId: this.jobId, err: error }, 'sync heartbeat failed');
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
