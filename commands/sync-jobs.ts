// Sync job commands, all on the source's stream: request (API, CLI, scheduler, a new source's
// first sync), cancel, and the worker's claim, release, completion and failure. A requested job is
// announced on the `sync.jobs` subject; the message is only a wake-up, the stream decides.
import { randomUUID } from 'node:crypto';
import { v5 as uuidv5 } from 'uuid';
import type { CommandMeta } from '../domain/metadata.js';
import { liveSource, SYNC_PRIORITY, sourceDecider, type Source, type SourceCommand, type SyncJobState, type SyncTrigger } from '../domain/source/index.js';
import type { EventStore, Position } from '../infra/eventstore/port.js';
import { SYNC_SUBJECT, type SyncMessage } from '../infra/queue/messages.js';
import type { WorkQueue } from '../infra/queue/port.js';
import { handleCommand } from './handle.js';


const JOB_ID_NAMESPACE = '8e1d4c27-3a5b-4f6e-9d8c-7b2a1e0f3c59';


type Ids = { organizationId: string; datasetId: string; sourceId: string };

export interface RequestedJob {
  job: SyncJobState;
  /** true: a pending or processing job already existed and is returned instead. */
  existing: boolean;
  position: Position | null;
}

/**
 * Opens a job unless the source already has one. A request's job id derives from its correlation
 * id (a retried request finds its own job); the scheduler passes none and gets a fresh one.
 */
export async function requestSyncJob(deps: { store: EventStore; queue: WorkQueue }, ids: Ids, trigger: SyncTrigger, meta: CommandMeta): Promise<RequestedJob> {
  const jobId = trigger === 'schedule' ? randomUUID() : uuidv5(`${meta.correlationId}/${ids.sourceId}`, JOB_ID_NAMESPACE);
  const { state, position } = await handleCommand(deps.store, sourceDecider, { type: 'RequestSyncJob', data: { ...ids, jobId, priority: SYNC_PRIORITY[trigger], trigger } }, meta);
  const source = liveSource(state) as Source;
  const job = source.jobs[source.openJobId!]!;
  const existing = job.jobId !== jobId;
  if (!existing) await announce(deps.queue, { ...ids, jobId });
  return { job, existing, position };
}

export const announce = (queue: WorkQueue, message: SyncMessage) => queue.enqueue(SYNC_SUBJECT, message satisfies SyncMessage, { dedupeId: `${message.jobId}/${Date.now()}` });

export const cancelSyncJob = (eventStore: EventStore, ids: Ids & { jobId: string }, meta: CommandMeta) => handleCommand(eventStore, sourceDecider, { type: 'CancelSyncJob', data: ids }, meta);

/** The worker's and scheduler's commands on a job; each returns the events it appended (none: nothing to do). */
export const runSourceCommand = (eventStore: EventStore, command: Exclude<SourceCommand, { type: 'CreateSource' | 'UpdateSource' | 'DeleteSource' | 'RequestSyncJob' | 'CancelSyncJob' }>, meta: CommandMeta) =>
  handleCommand(eventStore, sourceDecider, command, meta);
