// The sync role: a consumer of `sync.jobs` that runs one store sync per message (SYNC_CONCURRENCY at
// once per process, at most SYNC_MAX_PER_ORGANIZATION of one organization across every process, each
// within SYNC_DEADLINE_SECONDS), and the scheduler role: automatic syncs, recovery of jobs whose
// worker fell silent, and the purge of finished jobs, in one process at a time.
// Syncs spend their time waiting on stores' answers, not on this CPU, so a process runs several at
// once (default 4): one store that answers slowly holds one slot, and another organization's sync
// takes the next.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { outboundClient } from '../../infra/http/outbound.js';
import { SYNC_SUBJECT, syncMessage, type SyncMessage } from '../../infra/queue/messages.js';
import type { WorkerDefinition } from '../worker.js';
import { handleSyncMessage } from './run-sync.js';
import { startSyncScheduler } from './scheduler.js';

export const syncWorker: WorkerDefinition<SyncMessage> = {
  role: 'sync',
  subject: SYNC_SUBJECT,
  handler(context) {
    // Shown on the job as worker.workerId: which host and process ran it.
    const workerId = `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
    return async (job) => {
      const outcome = await handleSyncMessage(
        {
          eventStore: context.eventStore,
          db: context.database.db,
          queue: context.queue,
          logger: context.logger,
          workerId,
          heartbeatTimeoutMs: context.config.sync.heartbeatTimeoutMs,
          maxPerOrganization: context.config.sync.maxPerOrganization,
          deadlineMs: context.config.sync.deadlineMs,
          halt: context.halt,
          feed: {
            outbound: outboundClient(context.config.outbound.allowPrivate),
            maxFeedBytes: context.config.sync.maxFeedBytes,
            maxProducts: context.config.sync.maxProducts,
          },
          working: () => job.working(),
        },
        job.payload,
      );
      context.logger.debug({ jobId: job.payload.jobId, outcome }, 'sync message handled');
    };
  },
  options: (context) => ({
    parse: (payload) => syncMessage.parse(payload),
    concurrency: context.config.sync.concurrency,
    // The run beats (and extends the message) every quarter of the heartbeat timeout, at most every
    // 30 s, so a live run never loses its message, and a dead worker's message comes back within
    // the heartbeat timeout (at most 90 s). Messages past that time do not block anyone: the
    // durable's max_ack_pending is QUEUE_MAX_IN_FLIGHT, not this process's SYNC_CONCURRENCY.
    ackWaitMs: Math.max(5_000, Math.min(90_000, context.config.sync.heartbeatTimeoutMs)),
    retryDelayMs: context.config.sync.retryDelayMs,
    maxDeliver: 5,
  }),
};

export const syncScheduler: WorkerDefinition = {
  role: 'scheduler',
  subject: 'sync.scheduler',
  background: (context) => startSyncScheduler(context),
};
