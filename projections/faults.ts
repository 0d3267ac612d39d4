// What the runner does with an error: a transient one (a dropped connection, a cancelled
// statement, a serialization failure, a server short of resources) is retried from the checkpoint;
// one that repeats on the same event stops that projector there and is recorded in
// `projection_faults` until an operator skips the event or retries it.
import { sql, type Kysely } from 'kysely';
import { comparePositions, parsePosition, positionToString, type Position } from '../infra/eventstore/position.js';
import { lockCheckpoint } from './checkpoints.js';

const TABLE = 'projection_faults';

// SQLSTATEs worth retrying. Connection-level: the connection classes, admin/crash shutdown and
// cannot-connect-now, insufficient resources; they say nothing about the event and are retried for
// as long as they last. Statement-level: serialization failure, deadlock, query cancelled
// (statement_timeout); usually passing, but a handler too slow for the timeout hits it every time.
const CONNECTION_CODES = new Set(['57P01', '57P02', '57P03']);
const CONNECTION_CLASSES = ['08', '53'];
const STATEMENT_CODES = new Set(['40001', '40P01', '57014']);
const NODE_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN', 'EAI_AGAIN', 'ECONNABORTED']);
// pg reports a lost socket without a code.
const NODE_MESSAGES =
  /Connection terminated|Client has encountered a connection error|not queryable|timeout exceeded when trying to connect|terminating connection|the database system is (starting up|shutting down|in recovery)|server closed the connection/i;

export type TransientKind = 'connection' | 'statement';

/** Looks through `cause` chains and AggregateErrors (HandlerFailed wraps the driver's error). */
export function transientKind(error: unknown, depth = 0): TransientKind | undefined {
  if (typeof error !== 'object' || error === null || depth > 5) return undefined;
  const code = 'code' in error && typeof error.code === 'string' ? error.code : undefined;
  if (code && (CONNECTION_CODES.has(code) || NODE_CODES.has(code) || (code.length === 5 && CONNECTION_CLASSES.includes(code.slice(0, 2))))) return 'connection';
  if (code && STATEMENT_CODES.has(code)) return 'statement';
  if (error instanceof Error && NODE_MESSAGES.test(error.message)) return 'connection';
  if (error instanceof AggregateError) {
    const kinds = error.errors.map((inner) => transientKind(inner, depth + 1));
    return kinds.find((k) => k === 'connection') ?? kinds.find((k) => k === 'statement');
  }
  return 'cause' in error ? transientKind(error.cause, depth + 1) : undefined;
}

export const isTransient = (error: unknown): boolean => transientKind(error) !== undefined;

export interface ProjectionFault {
  faultId: number;
  projector: string;
  position: string;
  eventId: string;
  eventType: string;
  streamId: string;
  error: string;
  attempts: number;
  firstSeenAt: string;
  lastSeenAt: string;
}

export interface PoisonedEvent {
  projector: string;
  position: Position;
  eventId: string;
  eventType: string;
  streamId: string;
  error: string;
  attempts: number;
}

/** Records (or, when another process got there first, refreshes) the projector's open fault. */
export async function recordFault(db: Kysely<any>, poisoned: PoisonedEvent): Promise<ProjectionFault> {
  const { rows } = await sql<FaultRow>`
    insert into ${sql.table(TABLE)} (projector, position, event_id, event_type, stream_id, error, attempts)
    values (${poisoned.projector}, ${positionToString(poisoned.position)}, ${poisoned.eventId}, ${poisoned.eventType},
      ${poisoned.streamId}, ${poisoned.error}, ${poisoned.attempts})
    on conflict (projector) where status = 'poisoned' do update set
      attempts = ${sql.table(TABLE)}.attempts + excluded.attempts, error = excluded.error, last_seen_at = now()
    returning *`.execute(db);
  return toFault(rows[0]!);
}

export async function openFaults(db: Kysely<any>): Promise<Map<string, ProjectionFault>> {
  const rows = await db.selectFrom(TABLE).selectAll().where('status', '=', 'poisoned').execute();
  return new Map(rows.map((row) => [row.projector as string, toFault(row as FaultRow)]));
}

/** The operator's request does not match what the database holds (nothing changed). */
export class FaultMismatch extends Error {
  override name = 'FaultMismatch';
}

export interface Resolution {
  /** Who decided: the CLI actor and the operating-system user it ran as. */
  by: string;
  reason: string;
}

/**
 * Moves the projector's checkpoint onto its poisoned event without applying it, and closes the
 * fault as skipped, in one transaction: the projector resumes with the event after it.
 */
export async function skipFault(db: Kysely<any>, projector: string, position: Position, resolution: Resolution): Promise<ProjectionFault> {
  return db.transaction().execute(async (trx) => {
    const fault = await lockOpenFault(trx, projector);
    if (comparePositions(parsePosition(fault.position), position) !== 0) {
      throw new FaultMismatch(`${projector} is stopped at ${fault.position}, not ${positionToString(position)}: nothing skipped`);
    }
    const checkpoint = await lockCheckpoint(trx, projector);
    if (checkpoint.position && comparePositions(checkpoint.position, position) >= 0) {
      throw new FaultMismatch(`${projector}'s checkpoint ${positionToString(checkpoint.position)} is already past ${fault.position}`);
    }
    await trx.updateTable('projection_checkpoints').set({ position: fault.position, updated_at: sql`now()` }).where('name', '=', projector).execute();
    await resolve(trx, fault.faultId, 'skipped', resolution);
    return fault;
  });
}

/** Closes the projector's fault as retried: the projector applies the event again. */
export async function retryFault(db: Kysely<any>, projector: string, resolution: Resolution): Promise<ProjectionFault> {
  return db.transaction().execute(async (trx) => {
    const fault = await lockOpenFault(trx, projector);
    await resolve(trx, fault.faultId, 'retried', resolution);
    return fault;
  });
}

/** A rebuild replays the poisoned event anyway: its fault is closed as retried, when there is one. */
export async function retryIfOpen(db: Kysely<any>, projector: string, resolution: Resolution): Promise<void> {
  await db
    .updateTable(TABLE)
    .set({ status: 'retried', resolved_by: resolution.by, resolved_at: sql`now()`, resolution_reason: resolution.reason })
    .where('projector', '=', projector)
    .where('status', '=', 'poisoned')
    .execute();
}

async function lockOpenFault(trx: Kysely<any>, projector: string): Promise<ProjectionFault> {
  const row = await trx.selectFrom(TABLE).selectAll().where('projector', '=', projector).where('status', '=', 'poisoned').forUpdate().executeTakeFirst();
  if (!row) throw new FaultMismatch(`${projector} is not stopped on a poisoned event`);
  return toFault(row as FaultRow);
}

async function resolve(trx: Kysely<any>, faultId: number, status: 'skipped' | 'retried', resolution: Resolution): Promise<void> {
  await trx
    .updateTable(TABLE)
    .set({ status, resolved_by: resolution.by, resolved_at: sql`now()`, resolution_reason: resolution.reason })
    .where('fault_id', '=', faultId)
    .execute();
}

interface FaultRow {
  fault_id: number;
  projector: string;
  position: string;
  event_id: string;
  event_type: string;
  stream_id: string;
  error: string;
  attempts: number;
  first_seen_at: Date | string;
  last_seen_at: Date | string;
}

const iso = (value: Date | string): string => (value instanceof Date ? value : new Date(value)).toISOString();

const toFault = (row: FaultRow): ProjectionFault => ({
  faultId: Number(row.fault_id),
  projector: row.projector,
  position: row.position,
  eventId: row.event_id,
  eventType: row.event_type,
  streamId: row.stream_id,
  error: row.error,
  attempts: Number(row.attempts),
  firstSeenAt: iso(row.first_seen_at),
  lastSeenAt: iso(row.last_seen_at),
});
