// Applies one batch of events to one projector in one transaction together with its checkpoint,
// so a crash anywhere rolls back rows and checkpoint as one and a replay is exactly-once in effect.
import type { Kysely } from 'kysely';
import type { RecordedEvent } from '../infra/eventstore/port.js';
import { comparePositions, positionToString, type Position } from '../infra/eventstore/position.js';
import { advanceCheckpoint, lockCheckpoint, type Checkpoint } from './checkpoints.js';
import { organizationOf, parkedOrganizations, parkEvents } from './parked.js';
import type { Projector } from './projector.js';

/** A handler threw: the projector stops at the event before, rather than skipping this one. */
export class HandlerFailed extends Error {
  override name = 'HandlerFailed';
  readonly projection: string;
  readonly eventType: string;
  /** The failing event's position, or the batch's range for an `applyBatch` failure. */
  readonly position: string;
  /** The failing event, when a single handler failed (not an `applyBatch`). */
  readonly event?: RecordedEvent;
  constructor(
    projection: string,
    eventType: string,
    position: string,
    cause: unknown,
    event?: RecordedEvent,
  ) {
    super(`projection ${projection} failed on ${eventType} at ${position}: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.projection = projection;
    this.eventType = eventType;
    this.position = position;
    this.event = event;
  }
}

export type ApplyOutcome =
  /** `parked`: events of a stopped organization lane queued behind its failed event instead of applied. */
  | { kind: 'applied'; checkpoint: Checkpoint & { position: Position }; parked: number }
  /** The stored checkpoint was not the one expected: nothing was applied. */
  | { kind: 'conflict'; stored: Checkpoint };

export const handles = (projector: Projector, type: string): boolean => Object.hasOwn(projector.handlers, type);

/** The events of an ordered batch strictly after `position` (all of them for null). */
export function eventsAfter(batch: readonly RecordedEvent[], position: Position | null): readonly RecordedEvent[] {
  if (position === null) return batch;
  const first = batch.findIndex((event) => comparePositions(event.position, position) > 0);
  return first === -1 ? [] : first === 0 ? batch : batch.slice(first);
}

const samePosition = (a: Position | null, b: Position | null): boolean =>
  a === null || b === null ? a === b : comparePositions(a, b) === 0;

/**
 * `events` must be the contiguous successors of `expected` in `$all`. `oneByOne` runs the handlers
 * even where the projector has `applyBatch`, so a failure names its event.
 */
export async function applyToProjector(
  db: Kysely<any>,
  projector: Projector,
  expected: Position | null,
  events: readonly RecordedEvent[],
  { oneByOne = false }: { oneByOne?: boolean } = {},
): Promise<ApplyOutcome> {
  const last = events.at(-1);
  if (!last) throw new Error('applyToProjector needs at least one event');
  return db.transaction().execute(async (trx): Promise<ApplyOutcome> => {
    const stored = await lockCheckpoint(trx, projector.name);
    if (!samePosition(stored.position, expected)) return { kind: 'conflict', stored };
    let handled = events.filter((event) => handles(projector, event.type));
    let parked = 0;
    if (handled.length) {
      // Read under the checkpoint lock: a replay of a lane (which takes the same lock) is all before or all after.
      const stopped = await parkedOrganizations(trx, projector.name);
      if (stopped.size) {
        const behind = handled.filter((event) => stopped.has(organizationOf(event) ?? ''));
        await parkEvents(trx, projector.name, behind.map((event) => ({ event, organizationId: organizationOf(event)!, cause: 'behind' as const })));
        handled = handled.filter((event) => !behind.includes(event));
        parked = behind.length;
      }
      if (handled.length) await runHandlers(trx, projector, handled, oneByOne);
    }
    await advanceCheckpoint(trx, projector.name, last.position, handled.length);
    return { kind: 'applied', checkpoint: { position: last.position, eventsApplied: stored.eventsApplied + handled.length }, parked };
  });
}

async function runHandlers(trx: Kysely<any>, projector: Projector, events: readonly RecordedEvent[], oneByOne: boolean): Promise<void> {
  if (projector.applyBatch && !oneByOne) {
    try {
      await projector.applyBatch(trx, events);
    } catch (error) {
      const types = [...new Set(events.map((event) => event.type))].join('|');
      const range = `${positionToString(events[0]!.position)}..${positionToString(events.at(-1)!.position)}`;
      throw new HandlerFailed(projector.name, types, range, error);
    }
    return;
  }
  for (const event of events) {
    try {
      await projector.handlers[event.type]!(trx, event);
    } catch (error) {
      throw new HandlerFailed(projector.name, event.type, positionToString(event.position), error, event);
    }
  }
}

/**
 * Parks `event` (whose handler keeps failing) for its organization and moves the checkpoint onto
 * it, in one transaction: the projector goes on with the next event, the organization's lane waits.
 * `expected`: the checkpoint just before `event`.
 */
export async function parkFailedEvent(
  db: Kysely<any>,
  projector: Projector,
  expected: Position | null,
  event: RecordedEvent,
  failure: { organizationId: string; error: string; attempts: number },
): Promise<ApplyOutcome> {
  return db.transaction().execute(async (trx): Promise<ApplyOutcome> => {
    const stored = await lockCheckpoint(trx, projector.name);
    if (!samePosition(stored.position, expected)) return { kind: 'conflict', stored };
    await parkEvents(trx, projector.name, [{ event, organizationId: failure.organizationId, cause: 'failed', error: failure.error, attempts: failure.attempts }]);
    await advanceCheckpoint(trx, projector.name, event.position, 0);
    return { kind: 'applied', checkpoint: { position: event.position, eventsApplied: stored.eventsApplied }, parked: 1 };
  });
}
