// One organization's poisoned event stops only that organization's lane of a read model. The event
// a handler keeps failing on is parked in `projection_parked` with its error, the projector's
// checkpoint moves past it, and every later event of that organization for that projector is
// parked behind it (never applied out of order) until an operator replays the lane. Parking and
// replaying both hold the projector's checkpoint row, so they never interleave with a live batch.
import { sql, type Kysely } from 'kysely';
import type { RecordedEvent } from '../infra/eventstore/port.js';
import { comparePositions, parsePosition, positionToString, type Position } from '../infra/eventstore/position.js';

const TABLE = 'projection_parked';

export type ParkCause = 'failed' | 'behind';

/** The tenant an event belongs to; events without one (system events) cannot be parked. */
export const organizationOf = (event: RecordedEvent): string | undefined => {
  const id = event.metadata?.organizationId;
  return typeof id === 'string' && id ? id : undefined;
};

export async function parkedOrganizations(trx: Kysely<any>, projector: string): Promise<Set<string>> {
  const rows = await trx.selectFrom(TABLE).select('organization_id').distinct().where('projector', '=', projector).where('status', '=', 'parked').execute();
  return new Set(rows.map((row) => row.organization_id as string));
}

export interface Parking {
  event: RecordedEvent;
  organizationId: string;
  cause: ParkCause;
  error?: string;
  attempts?: number;
}

export async function parkEvents(trx: Kysely<any>, projector: string, parkings: readonly Parking[]): Promise<void> {
  if (!parkings.length) return;
  const values = parkings.map(({ event, organizationId, cause, error, attempts }) => ({
    projector,
    organization_id: organizationId,
    position: positionToString(event.position),
    event_id: event.id,
    event_type: event.type,
    stream_id: event.streamId,
    revision: String(event.revision),
    cause,
    error: error ?? null,
    attempts: attempts ?? 0,
  }));
  await trx
    .insertInto(TABLE)
    .values(values)
    .onConflict((oc) => oc.columns(['projector', 'event_id']).where('status', '=', 'parked').doNothing())
    .execute();
}

/** One organization's stopped lane of one read model, as status, readiness and the 503 tell it. */
export interface DegradedLane {
  projector: string;
  organizationId: string;
  /** The failed event and those queued behind it. */
  parkedEvents: number;
  /** The event the handler failed on. */
  position: string;
  eventId: string;
  eventType: string;
  streamId: string;
  error: string;
  attempts: number;
  parkedAt: string;
}

export interface LaneFilter {
  projector?: string;
  /** Any of these projectors. */
  projectors?: readonly string[];
  organizationId?: string;
}

export async function openLanes(db: Kysely<any>, filter: LaneFilter = {}): Promise<DegradedLane[]> {
  let query = db.selectFrom(TABLE).selectAll().where('status', '=', 'parked');
  if (filter.projector) query = query.where('projector', '=', filter.projector);
  if (filter.projectors) {
    if (!filter.projectors.length) return [];
    query = query.where('projector', 'in', filter.projectors);
  }
  if (filter.organizationId) query = query.where('organization_id', '=', filter.organizationId);
  const rows = (await query.orderBy('parked_id').execute()) as ParkedRow[];
  const lanes = new Map<string, { rows: ParkedRow[] }>();
  for (const row of rows) {
    const key = `${row.projector}\0${row.organization_id}`;
    const lane = lanes.get(key) ?? { rows: [] };
    lane.rows.push(row);
    lanes.set(key, lane);
  }
  return [...lanes.values()].map(({ rows: laneRows }) => {
    const head = laneRows.find((row) => row.cause === 'failed') ?? laneRows[0]!;
    return {
      projector: head.projector,
      organizationId: head.organization_id,
      parkedEvents: laneRows.length,
      position: head.position,
      eventId: head.event_id,
      eventType: head.event_type,
      streamId: head.stream_id,
      error: head.error ?? 'queued behind an event of its organization that could not be applied',
      attempts: Number(head.attempts),
      parkedAt: iso(head.parked_at),
    };
  });
}

export async function countOpenParked(db: Kysely<any>): Promise<number> {
  const row = await db.selectFrom(TABLE).select((eb) => eb.fn.countAll().as('n')).where('status', '=', 'parked').executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface ParkedEventRef {
  parkedId: number;
  position: Position;
  eventId: string;
  eventType: string;
  streamId: string;
  revision: bigint;
}

/** The lane's events in `$all` order. */
export async function laneEvents(db: Kysely<any>, projector: string, organizationId: string): Promise<ParkedEventRef[]> {
  const rows = (await db
    .selectFrom(TABLE)
    .selectAll()
    .where('status', '=', 'parked')
    .where('projector', '=', projector)
    .where('organization_id', '=', organizationId)
    .execute()) as ParkedRow[];
  return rows
    .map((row) => ({
      parkedId: Number(row.parked_id),
      position: parsePosition(row.position),
      eventId: row.event_id,
      eventType: row.event_type,
      streamId: row.stream_id,
      revision: BigInt(row.revision),
    }))
    .sort((a, b) => comparePositions(a.position, b.position));
}

export interface Resolution {
  by: string;
  reason: string;
}

export async function closeParked(trx: Kysely<any>, parkedIds: readonly number[], resolution: Resolution): Promise<void> {
  if (!parkedIds.length) return;
  await trx
    .updateTable(TABLE)
    .set({ status: 'replayed', resolved_by: resolution.by, resolved_at: sql`now()`, resolution_reason: resolution.reason })
    .where('parked_id', 'in', parkedIds)
    .execute();
}

/** A replay that failed again: the lane stays parked, its head shows the new error. */
export async function recordReplayFailure(db: Kysely<any>, parkedId: number, error: string): Promise<void> {
  await db
    .updateTable(TABLE)
    .set({ cause: 'failed', error, attempts: sql`attempts + 1` })
    .where('parked_id', '=', parkedId)
    .execute();
}

/** A rebuild replays every event anyway: the projector's parked events are closed as dropped. */
export async function dropParked(trx: Kysely<any>, projector: string, resolution: Resolution): Promise<void> {
  await trx
    .updateTable(TABLE)
    .set({ status: 'dropped', resolved_by: resolution.by, resolved_at: sql`now()`, resolution_reason: resolution.reason })
    .where('projector', '=', projector)
    .where('status', '=', 'parked')
    .execute();
}

interface ParkedRow {
  parked_id: number;
  projector: string;
  organization_id: string;
  position: string;
  event_id: string;
  event_type: string;
  stream_id: string;
  revision: string | number | bigint;
  cause: ParkCause;
  error: string | null;
  attempts: number;
  parked_at: Date | string;
}

const iso = (value: Date | string): string => (value instanceof Date ? value : new Date(value)).toISOString();
