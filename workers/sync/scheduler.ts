// The sync scheduler (document 1, Data source status; issue: one process at a time). Every tick,
// whoever holds the `sync-scheduler` lease:
// - hands jobs whose worker fell silent back to pending and announces them again, frees the
//   organization slots such workers held, and announces jobs waiting for a free slot (slots.ts);
// - requests a job for every source whose `sync.previous + syncPeriod` has passed (none for a
//   source with a pending or processing job: the source's stream refuses a second one);
// - expires finished jobs 7 days after completion (an event; the projector removes their rows) and
//   removes the worker's own traces nothing refers to any more (workers/sync/sweep.ts).
// On taking the lease it also announces every pending job once: the in-process queue forgets its
// messages when the process stops, the event store and the read model do not.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { announce, releaseSyncJob, requestSyncJob } from '../../commands/sync-jobs.js';
import { DomainError } from '../../domain/errors.js';
import { isDue } from '../../domain/source/index.js';
import { pendingJobs, scheduleCandidates, silentJobs } from '../../projections/queries/sync.js';
import { freeSilentSlots, wakeAllWaiting } from './slots.js';
import { expireFinishedJobs, sweepRunTraces } from './sweep.js';
import type { WorkerContext } from '../worker.js';

const LEASE = 'sync-scheduler';

/** Takes or renews a named lease; true while this holder has it. Works the same on Postgres and PGlite. */
export async function holdLease(db: Kysely<any>, name: string, holder: string, ttlMs: number): Promise<boolean> {
  const now = new Date();
  const row = await db
    .insertInto('leases')
    .values({ name, holder, expires_at: new Date(now.getTime() + ttlMs) })
    .onConflict((c) =>
      c
        .column('name')
        .doUpdateSet({ holder, expires_at: new Date(now.getTime() + ttlMs) })
        .where((eb) => eb.or([eb('leases.holder', '=', holder), eb('leases.expires_at', '<', now)])),
    )
    .returning('holder')
    .executeTakeFirst();
  return row?.holder === holder;
}

export async function releaseLease(db: Kysely<any>, name: string, holder: string): Promise<void> {
  await db.deleteFrom('leases').where('name', '=', name).where('holder', '=', holder).execute();
}

export function startSyncScheduler(context: WorkerContext): { stop(): Promise<void> } {
  const db = context.database.db;
  const holder = randomUUID();
  const every = context.config.sync.schedulerIntervalMs;
  let leader = false;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let current: Promise<void> = Promise.resolve();
  const meta = () => ({ now: new Date().toISOString(), actor: { kind: 'system' as const, id: 'scheduler' }, correlationId: randomUUID() });

  const tick = async () => {
    const wasLeader = leader;
    leader = await holdLease(db, LEASE, holder, Math.max(every * 3, 10_000));
    if (!leader) return;
    if (!wasLeader) {
      context.logger.info({ holder }, 'sync scheduler took the lease');
      for (const job of await pendingJobs(db, 1_000)) await announce(context.queue, job);
    }

    const silentSince = new Date(Date.now() - context.config.sync.heartbeatTimeoutMs);
    for (const job of await silentJobs(db, silentSince)) {
      const { events } = await releaseSyncJob(context.eventStore, job, { workerId: job.workerId, reason: 'heartbeat-timeout' }, meta());
      if (!events.length) continue;
      // Only the silent worker's beat (a table of the sync worker's): the next worker may already be beating for the same job.
      await db.deleteFrom('sync_heartbeats').where('job_id', '=', job.jobId).where('worker_id', '=', job.workerId).execute();
      context.logger.warn({ jobId: job.jobId, sourceId: job.sourceId, workerId: job.workerId }, 'sync worker fell silent; job back to pending');
      await announce(context.queue, job);
    }
    const freed = await freeSilentSlots(db, silentSince);
    if (freed.length) context.logger.warn({ organizations: freed.length }, 'sync slots of silent workers freed');
    // Wake-ups are sent by the run that frees a slot; this catches the ones lost with a process.
    const woken = await wakeAllWaiting(db, context.queue, context.config.sync.maxPerOrganization);
    if (woken) context.logger.info({ woken }, 'sync jobs waiting for a free organization slot announced');

    const now = new Date().toISOString();
    for (const source of await scheduleCandidates(db)) {
      if (!isDue(source, now)) continue;
      try {
        const { job, existing } = await requestSyncJob({ store: context.eventStore, queue: context.queue }, source, 'schedule', meta());
        if (!existing) context.logger.info({ sourceId: source.sourceId, jobId: job.jobId }, 'scheduled sync requested');
      } catch (error) {
        // Switched off or deleted since the read: nothing to schedule.
        if (!(error instanceof DomainError)) throw error;
      }
    }

    const expired = await expireFinishedJobs({ store: context.eventStore, db }, new Date());
    const swept = await sweepRunTraces(db, new Date());
    if (expired || swept) context.logger.info({ expired, swept }, 'finished sync jobs expired, stale run traces removed');
  };

  const loop = () => {
    if (stopped) return;
    current = tick()
      .catch((error) => context.logger.error({ err: error }, 'sync scheduler tick failed'))
      .finally(() => {
        if (!stopped) timer = setTimeout(loop, every);
      });
  };
  loop();

  return {
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await current;
      if (leader) await releaseLease(db, LEASE, holder).catch(() => undefined);
    },
  };
}
