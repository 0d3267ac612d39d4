// Sync job commands: request (API, CLI, scheduler, a new source's first sync), cancel, and the
// worker's and scheduler's claim, release, completion, failure and expiry. Job n of a source lives
// on its own stream, opened only once job n-1 is closed; a job written on its source's stream
// before that layout is found there and decided there. A requested job is announced on the
// `sync.jobs` subject; the message is only a wake-up, the streams decide.
import type { CommandMeta } from '../domain/metadata.js';
import { liveSource, openableSource, SYNC_PRIORITY, sourceDecider, sourceStream, type SyncJobState, type SyncTrigger } from '../domain/source/index.js';
import { isOpen, syncJobDecider, syncJobId, syncJobStream, type JobCommand, type SyncJobEvent } from '../domain/sync-job/index.js';
import type { EventStore, Position, RecordedEvent } from '../infra/eventstore/port.js';
import { SYNC_SUBJECT, type SyncMessage } from '../infra/queue/messages.js';
import type { WorkQueue } from '../infra/queue/port.js';
import { handleCommand, handleKnown, loadState, readKnown } from './handle.js';

type Ids = { organizationId: string; datasetId: string; sourceId: string };
type JobIds = Ids & { jobId: string };

export interface RequestedJob {
  job: SyncJobState;
  /** true: a pending or processing job already existed and is returned instead. */
  existing: boolean;
  position: Position | null;
}

/**
 * Opens the source's next job unless it has an open one. A retried request (same correlation id)
 * finds the job it opened and answers as the first time.
 */
export async function requestSyncJob(deps: { store: EventStore; queue: WorkQueue }, ids: Ids, trigger: SyncTrigger, meta: CommandMeta): Promise<RequestedJob> {
  for (;;) {
    const source = openableSource(await loadState(deps.store, sourceDecider, sourceStream(ids.sourceId)), ids);
    // A job from before jobs had streams of their own still holds the source's one open slot.
    if (source.openJobId !== null) return { job: source.jobs[source.openJobId]!, existing: true, position: null };
    const latest = await latestJob(deps.store, ids.sourceId);
    // This very request opened it (a retry, perhaps after its stored answer expired): the same answer, even if the job has finished since.
    if (latest?.requestedBy === meta.correlationId) return { job: latest.job, existing: false, position: null };
    if (latest && isOpen(latest.job)) return { job: latest.job, existing: true, position: null };
    const number = (latest?.number ?? 0) + 1;
    const jobId = syncJobId(ids.sourceId, number);
    const { events, state, position } = await handleCommand(deps.store, syncJobDecider, { type: 'RequestSyncJob', data: { ...ids, jobId, number, priority: SYNC_PRIORITY[trigger], trigger } }, meta);
    // Empty: another request opened job n first; the next round returns it.
    if (events.length && state) {
      knownNumbers.set(ids.sourceId, number);
      await announce(deps.queue, { ...ids, jobId });
      return { job: state, existing: false, position };
    }
  }
}

export const announce = (queue: WorkQueue, message: SyncMessage) => queue.enqueue(SYNC_SUBJECT, message satisfies SyncMessage, { dedupeId: `${message.jobId}/${Date.now()}` });

/** Last job number seen per source: only where the search for the latest job starts. */
const knownNumbers = new Map<string, number>();
const KNOWN_NUMBERS_MAX = 10_000;

interface LatestJob {
  number: number;
  job: SyncJobState;
  /** Correlation id of the request that opened it. */
  requestedBy: string;
}

/**
 * The source's highest-numbered job. Jobs 1..n exist without gaps (n+1 opens only after n), so the
 * search gallops from the last number this process saw and bisects: two reads when warm,
 * about 2·log2(n) small reads when cold.
 */
export async function latestJob(store: EventStore, sourceId: string): Promise<LatestJob | null> {
  const heads = new Map<number, RecordedEvent[]>();
  const exists = async (n: number): Promise<boolean> => {
    if (n < 1) return true;
    const events = await store.readStream(syncJobStream(syncJobId(sourceId, n)));
    if (events.length) heads.set(n, events);
    return events.length > 0;
  };
  const hint = Math.max(1, knownNumbers.get(sourceId) ?? 1);
  let low: number;
  let high: number;
  if (await exists(hint)) {
    low = hint;
    let step = 1;
    while (await exists(low + step)) {
      low += step;
      step *= 2;
    }
    high = low + step;
  } else {
    high = hint;
    let step = 1;
    while (!(await exists(high - step))) {
      high -= step;
      step *= 2;
    }
    low = Math.max(0, high - step);
  }
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (await exists(middle)) low = middle;
    else high = middle;
  }
  if (low === 0) return null;
  if (knownNumbers.size >= KNOWN_NUMBERS_MAX) knownNumbers.clear();
  knownNumbers.set(sourceId, low);
  const events = heads.get(low)!;
  const job = events.map((event) => ({ type: event.type, data: event.data }) as unknown as SyncJobEvent).reduce(syncJobDecider.evolve, syncJobDecider.initialState)!;
  return { number: low, job, requestedBy: events[0]!.metadata.correlationId ?? '' };
}

export interface JobHandled {
  events: SyncJobEvent[];
  /** The job after the command; null if no stream holds it. */
  job: SyncJobState | null;
  position: Position | null;
}

/** Runs a job command on the job's own stream, or on its source's stream for a legacy job. */
async function runJobCommand(store: EventStore, command: JobCommand, meta: CommandMeta): Promise<JobHandled> {
  const known = await readKnown(store, syncJobDecider, syncJobStream(command.data.jobId));
  if (known.revision !== 'no_stream') {
    const { events, state, position } = await handleKnown(store, syncJobDecider, command, meta, known);
    return { events, job: state, position };
  }
  const { events, state, position } = await handleCommand(store, sourceDecider, command, meta);
  return { events: events as SyncJobEvent[], job: liveSource(state)?.jobs[command.data.jobId] ?? null, position };
}

/** The job as its stream (or its legacy source stream) holds it now. */
export async function loadSyncJob(store: EventStore, ids: JobIds): Promise<SyncJobState | null> {
  const own = await loadState(store, syncJobDecider, syncJobStream(ids.jobId));
  if (own) return own.sourceId === ids.sourceId ? own : null;
  return liveSource(await loadState(store, sourceDecider, sourceStream(ids.sourceId)))?.jobs[ids.jobId] ?? null;
}

export const cancelSyncJob = (store: EventStore, ids: JobIds, meta: CommandMeta) => runJobCommand(store, { type: 'CancelSyncJob', data: ids }, meta);

export const claimSyncJob = (store: EventStore, ids: JobIds, claim: { workerId: string; logId: string }, meta: CommandMeta) => runJobCommand(store, { type: 'ClaimSyncJob', data: { ...ids, ...claim } }, meta);

export const releaseSyncJob = (store: EventStore, ids: JobIds, release: { workerId: string; reason: 'heartbeat-timeout' | 'retry' }, meta: CommandMeta) =>
  runJobCommand(store, { type: 'ReleaseSyncJob', data: { ...ids, ...release } }, meta);

export const completeSyncJob = (store: EventStore, ids: JobIds, done: { workerId: string; stats: Extract<JobCommand, { type: 'CompleteSyncJob' }>['data']['stats'] }, meta: CommandMeta) =>
  runJobCommand(store, { type: 'CompleteSyncJob', data: { ...ids, ...done } }, meta);

export const failSyncJob = (store: EventStore, ids: JobIds, failure: Omit<Extract<JobCommand, { type: 'FailSyncJob' }>['data'], keyof JobIds>, meta: CommandMeta) =>
  runJobCommand(store, { type: 'FailSyncJob', data: { ...ids, ...failure } }, meta);

export const expireSyncJob = (store: EventStore, ids: JobIds, meta: CommandMeta) => runJobCommand(store, { type: 'ExpireSyncJob', data: ids }, meta);
