// What `stylist projections status` and `/readyz` show: per projector its state, checkpoint, lag
// (events behind and the age of the oldest event not yet applied) and poisoned event; and the age
// of the oldest transaction on the server, which the Postgres event store waits for.
import { sql, type Kysely } from 'kysely';
import { EVENTS_TABLE } from '../infra/eventstore/postgres-schema.js';
import { comparePositions, positionToString, type Position } from '../infra/eventstore/position.js';
import { readCheckpoints } from './checkpoints.js';
import { openFaults, type ProjectionFault } from './faults.js';
import { openLanes, type DegradedLane } from './parked.js';
import type { Retrying, RunnerCore } from './runner-core.js';

export const LAG_COUNT_LIMIT = 10_000;

export type ProjectorRunState = 'running' | 'retrying' | 'poisoned' | 'rebuilding' | 'stopped';

/** A projector's lane, and whether that lane's loop runs in this process. */
export type LaneView = (projector: string) => { lane: string; running: boolean };

export interface ProjectionStatus {
  name: string;
  /** Its lane (projections/index.ts): the live loop it shares, which a process may run alone. */
  lane: string;
  /** `stopped`: no live loop of its lane in this process (another process may run it: see the lag). */
  state: ProjectorRunState;
  position: string | null;
  /** Events that had a handler, applied since the last rebuild. */
  eventsApplied: number;
  /** Events in `$all` after the checkpoint, counted up to LAG_COUNT_LIMIT. */
  lag?: number;
  /** Age of the oldest event after the checkpoint; 0 when caught up. */
  lagSeconds: number;
  /** Why it is stopped or retrying. */
  error?: string;
  retrying?: Retrying;
  fault?: ProjectionFault;
  rebuilding?: boolean;
  /** Organizations whose lane of this read model is stopped on a parked event (the others go on). */
  degraded?: DegradedLane[];
}

export interface OldestTransaction {
  seconds: number;
  pid: number | null;
  database: string | null;
  state: string | null;
}

export async function projectionStatus(core: RunnerCore, laneOf: LaneView, { count = true }: { count?: boolean } = {}): Promise<ProjectionStatus[]> {
  const names = core.names;
  const [stored, faults, lanes, head] = await Promise.all([
    readCheckpoints(core.db, names),
    openFaults(core.db),
    openLanes(core.db),
    count ? core.store.headPosition() : null,
  ]);
  const memo = new Map<string, Promise<{ lag?: number; lagSeconds: number }>>();
  const lagAfter = (position: Position | null) => {
    const key = position ? positionToString(position) : '';
    if (!memo.has(key)) memo.set(key, measureLag(core, position, count ? head : undefined));
    return memo.get(key)!;
  };
  return Promise.all(
    [...core.states.values()].map(async (state): Promise<ProjectionStatus> => {
      const checkpoint = stored.get(state.projector.name) ?? { position: null, eventsApplied: 0 };
      const fault = state.fault ?? faults.get(state.projector.name);
      const { lane, running } = laneOf(state.projector.name);
      const runState: ProjectorRunState = fault ? 'poisoned' : state.rebuilding ? 'rebuilding' : !running ? 'stopped' : state.retrying ? 'retrying' : 'running';
      const error = fault ? `${fault.eventType} at ${fault.position}: ${fault.error}` : (state.error ?? state.retrying?.error);
      const degraded = lanes.filter((lane) => lane.projector === state.projector.name);
      return {
        name: state.projector.name,
        lane,
        state: runState,
        position: checkpoint.position && positionToString(checkpoint.position),
        eventsApplied: checkpoint.eventsApplied,
        ...(await lagAfter(checkpoint.position)),
        ...(error ? { error } : {}),
        ...(state.retrying && !fault ? { retrying: state.retrying } : {}),
        ...(fault ? { fault } : {}),
        ...(state.rebuilding ? { rebuilding: true } : {}),
        ...(degraded.length ? { degraded } : {}),
      };
    }),
  );
}

/** `head` undefined: only the age, no count (readiness keeps to one index probe per projector). */
async function measureLag(core: RunnerCore, position: Position | null, head: Position | null | undefined): Promise<{ lag?: number; lagSeconds: number }> {
  const countLag = async (): Promise<number> => {
    if (!head || (position && comparePositions(position, head) >= 0)) return 0;
    const events = await core.store.readAll({ ...(position ? { after: position } : {}), maxCount: LAG_COUNT_LIMIT });
    return events.length;
  };
  const [lag, oldest] = await Promise.all([head === undefined ? undefined : countLag(), oldestUnapplied(core, position)]);
  const lagSeconds = oldest ? Math.max(0, Math.round((Date.now() - oldest.getTime()) / 100) / 10) : 0;
  return { ...(lag === undefined ? {} : { lag }), lagSeconds };
}

/**
 * When the first event after `position` was recorded. On the Postgres store this reads the events
 * table without the store's visibility cut: events committed behind a long transaction elsewhere
 * on the server count as waiting, since that is exactly when the projections stall.
 */
async function oldestUnapplied(core: RunnerCore, position: Position | null): Promise<Date | undefined> {
  if (core.store.kind === 'eventstoredb') {
    const [first] = await core.store.readAll({ ...(position ? { after: position } : {}), maxCount: 1 });
    return first ? new Date(first.recordedAt) : undefined;
  }
  const after = position ?? { commit: 0n, prepare: 0n };
  const { rows } = await sql<{ recorded_at: Date | string }>`
    select recorded_at from ${sql.table(EVENTS_TABLE)}
    where (transaction_id, global_position) > (${String(after.commit)}::xid8, ${String(after.prepare)}::bigint)
    order by transaction_id, global_position limit 1`.execute(core.db);
  const found = rows[0]?.recorded_at;
  return found === undefined ? undefined : new Date(found);
}

/**
 * The oldest transaction holding a transaction id anywhere on the server (any database, prepared
 * ones included): the Postgres event store shows no event committed after it began until it ends.
 * Null on PGlite (one process, nothing else runs) and for EventStoreDB; a role without
 * pg_read_all_stats sees only its own sessions.
 */
export async function oldestTransaction(db: Kysely<any>, kind: 'postgres' | 'pglite' | 'eventstoredb'): Promise<OldestTransaction | null> {
  if (kind !== 'postgres') return null;
  const { rows } = await sql<{ seconds: number; pid: number | null; database: string | null; state: string | null }>`
    select * from (
      select extract(epoch from now() - xact_start)::float8 as seconds, pid, datname as database, state
        from pg_stat_activity where backend_xid is not null and xact_start is not null
      union all
      select extract(epoch from now() - prepared)::float8, null, database, 'prepared' from pg_prepared_xacts
    ) as open order by seconds desc limit 1`.execute(db);
  const row = rows[0];
  return row ? { seconds: Math.round(Number(row.seconds) * 10) / 10, pid: row.pid, database: row.database, state: row.state } : { seconds: 0, pid: null, database: null, state: null };
}

// A type, not an interface: /readyz takes it as a record of details.
export type ProjectionReadiness = {
  ok: boolean;
  lagLimitSeconds: number;
  problems: Array<{ name: string; reason: string }>;
  /** Seconds; null where it does not apply (PGlite, EventStoreDB). */
  oldestTransactionSeconds: number | null;
  /**
   * Organizations whose read models are stopped on a parked event. They do not make the service
   * unready (every other organization is served), so `ok` stays as it is; /readyz says `degraded`.
   */
  degraded?: DegradedOrganization[];
  /** Per lane: whether a loop of it runs in this process, and how far behind its slowest projector is. */
  lanes: LaneReadiness[];
};

export interface LaneReadiness {
  name: string;
  /** Runs in this process; false: another process runs it, or none (see lagSeconds). */
  here: boolean;
  /** The largest lag among its projectors, in seconds. */
  lagSeconds: number;
  ok: boolean;
}

export interface DegradedOrganization {
  organizationId: string;
  projections: string[];
  reason: string;
}

function degradedOrganizations(statuses: readonly ProjectionStatus[]): DegradedOrganization[] {
  const byOrganization = new Map<string, DegradedLane[]>();
  for (const lane of statuses.flatMap((s) => s.degraded ?? [])) byOrganization.set(lane.organizationId, [...(byOrganization.get(lane.organizationId) ?? []), lane]);
  return [...byOrganization].map(([organizationId, lanes]) => ({
    organizationId,
    projections: lanes.map((l) => l.projector),
    reason: lanes.map((l) => `${l.projector}: ${l.parkedEvents} event${l.parkedEvents === 1 ? '' : 's'} parked since ${l.parkedAt}, first ${l.eventType} at ${l.position}`).join('; '),
  }));
}

/**
 * `lanes`: each lane's loop in this process, running now or ever started here (a lane stopped in
 * the process that ran it is a problem; one run elsewhere is judged by its lag alone).
 */
export function readinessOf(
  statuses: readonly ProjectionStatus[],
  oldest: OldestTransaction | null,
  lagLimitSeconds: number,
  lanes: ReadonlyMap<string, { running: boolean; started: boolean }>,
): ProjectionReadiness {
  const problems: Array<{ name: string; reason: string }> = [];
  for (const status of statuses) {
    if (status.fault) {
      problems.push({ name: status.name, reason: `poisoned: stopped at ${status.fault.position} (${status.fault.eventType}) after ${status.fault.attempts} attempts` });
    } else if (status.state === 'stopped' && lanes.get(status.lane)?.started) {
      problems.push({ name: status.name, reason: 'stopped' });
    } else if (status.lagSeconds > lagLimitSeconds) {
      problems.push({ name: status.name, reason: `${status.lagSeconds} s behind the head of $all (limit ${lagLimitSeconds} s)${status.state === 'rebuilding' ? ', rebuilding' : ''}` });
    }
  }
  const degraded = degradedOrganizations(statuses);
  const troubled = new Set(problems.map((p) => p.name));
  return {
    ok: problems.length === 0,
    lagLimitSeconds,
    problems,
    oldestTransactionSeconds: oldest ? oldest.seconds : null,
    ...(degraded.length ? { degraded } : {}),
    lanes: laneSummaries(statuses, lanes, troubled),
  };
}

/**
 * Per lane, in the order its projectors come: whether this process runs its loop (the runner's
 * word, not guessed from states), its largest lag, and whether none of its projectors is among
 * `troubled`. What `/readyz` and `stylist projections status` both say of lanes.
 */
export function laneSummaries(statuses: readonly ProjectionStatus[], lanes: ReadonlyMap<string, { running: boolean }>, troubled: ReadonlySet<string> = new Set()): LaneReadiness[] {
  const byLane = new Map<string, LaneReadiness>();
  for (const status of statuses) {
    const lane = byLane.get(status.lane) ?? { name: status.lane, here: lanes.get(status.lane)?.running ?? false, lagSeconds: 0, ok: true };
    lane.lagSeconds = Math.max(lane.lagSeconds, status.lagSeconds);
    lane.ok &&= !troubled.has(status.name);
    byLane.set(status.lane, lane);
  }
  return [...byLane.values()];
}
