// The scheduler's housekeeping, each table touched by its owner only. Finished jobs past their
// retention are expired by an event on their stream (the data-sources projector, owner of
// sync_jobs and sync_logs, removes their rows); the run traces the sync worker itself writes
// (log entries, heartbeats, market prices and market states) are removed here once nothing in
// the read model refers to them any more.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { expireSyncJob } from '../../commands/sync-jobs.js';
import { SYNC_JOB_RETENTION_MS } from '../../domain/source/index.js';
import type { EventStore } from '../../infra/eventstore/port.js';
import type { JobRef } from '../../projections/queries/sync.js';

/** Tables the sync worker writes and owns: no projector writes, empties or rebuilds them. */
export const SYNC_WORKER_TABLES = ['sync_log_entries', 'sync_heartbeats', 'sync_waiting', 'market_prices', 'source_markets'] as const;

/** Traces younger than this are kept even without a referring row: the projector may not have caught up with their job yet. */
const ORPHAN_GRACE_MS = 60 * 60 * 1000;

/** Jobs expired per tick: a backlog drains over a few ticks instead of one long one. */
const EXPIRE_BATCH = 500;

/** Expires finished jobs past their retention as of `now`; returns how many were expired. */
export async function expireFinishedJobs(deps: { store: EventStore; db: Kysely<any> }, now: Date): Promise<number> {
  const rows = await deps.db
    .selectFrom('sync_jobs')
    .select(['job_id', 'source_id', 'dataset_id', 'organization_id'])
    .where('completed_at', '<', new Date(now.getTime() - SYNC_JOB_RETENTION_MS))
    .limit(EXPIRE_BATCH)
    .execute();
  let expired = 0;
  for (const row of rows) {
    const ref: JobRef = { jobId: row.job_id, sourceId: row.source_id, datasetId: row.dataset_id, organizationId: row.organization_id };
    const { events } = await expireSyncJob(deps.store, ref, { now: now.toISOString(), actor: { kind: 'system', id: 'scheduler' }, correlationId: randomUUID() });
    expired += events.length;
  }
  return expired;
}

/** Removes the worker's traces of jobs, logs and sources the read model no longer has; returns the rows removed. */
export async function sweepRunTraces(db: Kysely<any>, now: Date): Promise<number> {
  const before = new Date(now.getTime() - ORPHAN_GRACE_MS);
  const results = await Promise.all([
    db.deleteFrom('sync_log_entries').where('at', '<', before).where((eb) => eb.not(eb.exists(eb.selectFrom('sync_logs as l').select('l.log_id').whereRef('l.log_id', '=', 'sync_log_entries.log_id')))).executeTakeFirst(),
    db.deleteFrom('sync_heartbeats').where('beat_at', '<', before).where((eb) => eb.not(eb.exists(eb.selectFrom('sync_jobs as j').select('j.job_id').whereRef('j.job_id', '=', 'sync_heartbeats.job_id').where('j.status', '=', 'processing')))).executeTakeFirst(),
    db.deleteFrom('market_prices').where('read_at', '<', before).where((eb) => eb.not(eb.exists(eb.selectFrom('data_sources as s').select('s.source_id').whereRef('s.source_id', '=', 'market_prices.source_id')))).executeTakeFirst(),
    db.deleteFrom('source_markets').where('read_at', '<', before).where((eb) => eb.not(eb.exists(eb.selectFrom('data_sources as s').select('s.source_id').whereRef('s.source_id', '=', 'source_markets.source_id')))).executeTakeFirst(),
  ]);
  return results.reduce((sum, result) => sum + Number(result.numDeletedRows), 0);
}
