// Fair syncs across organizations (issue 12): at most SYNC_MAX_PER_ORGANIZATION runs of one
// organization at once, across every process. A run's slot is its heartbeat row: `(organization_id,
// slot)` is unique, so taking slot k is one INSERT … ON CONFLICT DO NOTHING that only one worker wins,
// whatever the read models say. The row goes when the run ends, however it ends (run-sync.ts), or
// when the scheduler finds its worker silent (scheduler.ts): the slot is free again.
//
// A job whose organization has no free slot does not hold a queue slot: it is written to
// sync_waiting and its message is acked. Whoever frees a slot announces the best waiting jobs of
// that organization (priority, then age), and the scheduler does so every tick for any organization
// with waiting jobs and a free slot, so a wake-up lost with a process costs one tick, not the job.
// Both tables are the sync worker's (migration 0013).
import type { Kysely } from 'kysely';
import { announce } from '../../commands/sync-jobs.js';
import type { WorkQueue } from '../../infra/queue/port.js';
import type { JobRef } from '../../projections/queries/sync.js';

export type SlotOutcome =
  /** This worker holds one of the organization's slots for the job: its heartbeat row exists. */
  | 'taken'
  /** Every slot of the organization is held. */
  | 'full'
  /** A heartbeat row for this job exists already: another worker is claiming or holds the job (or died doing so). */
  | 'busy';

export interface SlotClaim {
  job: JobRef;
  workerId: string;
  maxPerOrganization: number;
  progress?: Record<string, unknown>;
}

/** Tries the organization's slots in turn; a slot is a heartbeat row, written here with the first beat. */
export async function takeSlot(db: Kysely<any>, claim: SlotClaim): Promise<SlotOutcome> {
  const { job, workerId } = claim;
  const held = await db.selectFrom('sync_heartbeats').select(['slot', 'job_id']).where('organization_id', '=', job.organizationId).execute();
  if (held.some((row) => row.job_id === job.jobId)) return 'busy';
  const used = new Set(held.map((row) => row.slot));
  for (let slot = 0; slot < claim.maxPerOrganization; slot++) {
    if (used.has(slot)) continue;
    const row = await db
      .insertInto('sync_heartbeats')
      .values({ job_id: job.jobId, worker_id: workerId, beat_at: new Date(), progress: JSON.stringify(claim.progress ?? { phase: 'starting' }), organization_id: job.organizationId, slot })
      .onConflict((c) => c.doNothing())
      .returning('job_id')
      .executeTakeFirst();
    if (row) return 'taken';
  }
  // Lost every race; or this job has a row already, written before slots existed (no organization).
  const own = await db.selectFrom('sync_heartbeats').select('job_id').where('job_id', '=', job.jobId).executeTakeFirst();
  return own ? 'busy' : 'full';
}

/** Frees the slot: the run's heartbeat row, and only this worker's. */
export async function releaseSlot(db: Kysely<any>, jobId: string, workerId: string): Promise<void> {
  await db.deleteFrom('sync_heartbeats').where('job_id', '=', jobId).where('worker_id', '=', workerId).execute();
}

/** Records a job that found its organization's slots all held; the message that carried it is then acked. */
export async function waitForSlot(db: Kysely<any>, job: JobRef & { priority: number; createdAt: string }): Promise<void> {
  await db
    .insertInto('sync_waiting')
    .values({ job_id: job.jobId, source_id: job.sourceId, dataset_id: job.datasetId, organization_id: job.organizationId, priority: job.priority, created_at: new Date(job.createdAt), since: new Date() })
    .onConflict((c) => c.column('job_id').doNothing())
    .execute();
}

export async function stopWaiting(db: Kysely<any>, jobId: string): Promise<void> {
  await db.deleteFrom('sync_waiting').where('job_id', '=', jobId).execute();
}

/**
 * Announces as many waiting jobs of the organization as it has free slots, best first, and forgets
 * them (announced before forgotten: a crash in between announces twice, which is harmless). A job
 * that finds the slots taken again by then simply waits again. Returns how many were announced.
 */
export async function wakeWaiting(db: Kysely<any>, queue: WorkQueue, organizationId: string, maxPerOrganization: number): Promise<number> {
  const held = await db.selectFrom('sync_heartbeats').select((eb) => eb.fn.countAll().as('n')).where('organization_id', '=', organizationId).executeTakeFirstOrThrow();
  const free = maxPerOrganization - Number(held.n);
  if (free <= 0) return 0;
  const rows = await db
    .selectFrom('sync_waiting')
    .select(['job_id', 'source_id', 'dataset_id', 'organization_id'])
    .where('organization_id', '=', organizationId)
    .orderBy('priority', 'desc')
    .orderBy('created_at')
    .limit(free)
    .execute();
  if (!rows.length) return 0;
  for (const row of rows) await announce(queue, { jobId: row.job_id, sourceId: row.source_id, datasetId: row.dataset_id, organizationId: row.organization_id });
  await db.deleteFrom('sync_waiting').where('job_id', 'in', rows.map((row) => row.job_id)).execute();
  return rows.length;
}

/** The scheduler's safety net: every organization with waiting jobs and a free slot gets them announced. */
export async function wakeAllWaiting(db: Kysely<any>, queue: WorkQueue, maxPerOrganization: number): Promise<number> {
  const organizations = await db.selectFrom('sync_waiting').select('organization_id').distinct().execute();
  let woken = 0;
  for (const { organization_id } of organizations) woken += await wakeWaiting(db, queue, organization_id, maxPerOrganization);
  return woken;
}

/**
 * Slots whose holder fell silent without a processing job to release (it died between taking the
 * slot and claiming, or between finishing and letting go): freed, so the organization is not held
 * up until the hourly sweep. Returns the organizations whose slots were freed.
 */
export async function freeSilentSlots(db: Kysely<any>, silentSince: Date): Promise<string[]> {
  const rows = await db
    .deleteFrom('sync_heartbeats')
    .where('slot', 'is not', null)
    .where('beat_at', '<', silentSince)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb.selectFrom('sync_jobs as j').select('j.job_id').whereRef('j.job_id', '=', 'sync_heartbeats.job_id').whereRef('j.worker_id', '=', 'sync_heartbeats.worker_id').where('j.status', '=', 'processing'),
        ),
      ),
    )
    .returning('organization_id')
    .execute();
  return [...new Set(rows.map((row) => row.organization_id as string))];
}
