// Read-your-writes: a command's caller waits until the named projections have applied its
// position. The in-memory checkpoints carry this process's progress; the database carries another
// process's, and its open faults, so a poisoned projector fails the wait at once wherever it runs.
import { comparePositions, positionToString, type Position } from '../infra/eventstore/position.js';
import { readCheckpoints } from './checkpoints.js';
import { isTransient, openFaults, type ProjectionFault } from './faults.js';
import type { EventStore } from '../infra/eventstore/port.js';
import { openLanes, organizationOf } from './parked.js';
import type { RunnerCore } from './runner-core.js';
import { ProjectionDegraded, ProjectionTimeout } from './runner-errors.js';

const describeFault = (fault: ProjectionFault): string => `poisoned at ${fault.position} (${fault.eventType} in ${fault.streamId}): ${fault.error}`;

/** Resolves once every named projector has applied `position`; ProjectionTimeout otherwise. */
export async function waitForPosition(core: RunnerCore, local: boolean, position: Position, names: readonly string[], timeoutMs: number): Promise<void> {
  const states = names.map((name) => core.state(name));
  const deadline = Date.now() + timeoutMs;
  const stored = new Map<string, Position | null>();
  // As stored, once read: an operator's skip in another process clears a fault this process still holds.
  let faults: Map<string, ProjectionFault> | undefined;
  const reached = (p: Position | null | undefined): boolean => !!p && comparePositions(p, position) >= 0;
  const faultOf = (name: string): ProjectionFault | undefined => (faults ? faults.get(name) : core.state(name).fault);
  let pollMs = local ? 500 : 0;
  let nextPoll = Date.now() + pollMs;
  for (;;) {
    const behind = states.filter((s) => !reached(s.position) && !reached(stored.get(s.projector.name)));
    // Reached through another process's checkpoint: what it parked is not counted here.
    if (!behind.length) return assertNotParked(core, position, names, states.some((s) => !reached(s.position)));
    const now = Date.now();
    const stopped = behind.some((s) => faultOf(s.projector.name) || s.error);
    if (stopped && !faults) {
      faults = (await orNothing(openFaults(core.db))) ?? new Map(core.names.flatMap((name) => (core.state(name).fault ? [[name, core.state(name).fault!]] : [])));
      continue;
    }
    if (stopped || now >= deadline) {
      throw new ProjectionTimeout(
        positionToString(position),
        behind.map((s) => {
          const fault = faultOf(s.projector.name);
          const error = fault ? describeFault(fault) : (s.error ?? (s.retrying ? `retrying after ${s.retrying.attempts} failures: ${s.retrying.error}` : undefined));
          return { name: s.projector.name, position: s.position && positionToString(s.position), ...(error ? { error } : {}), ...(fault ? { stopped: true } : {}) };
        }),
        timeoutMs,
        local ? undefined : 'no projections role runs in this process: is one running elsewhere?',
      );
    }
    if (now >= nextPoll) {
      const behindNames = behind.map((s) => s.projector.name);
      const [rows, open] = await Promise.all([orNothing(readCheckpoints(core.db, behindNames)), orNothing(openFaults(core.db))]);
      if (open) faults = open;
      for (const [name, checkpoint] of rows ?? []) stored.set(name, checkpoint.position);
      pollMs = local ? 1000 : Math.min(Math.max(pollMs * 2, 10), 200);
      nextPoll = Date.now() + pollMs;
      continue;
    }
    await core.nextChange(Math.min(nextPoll, deadline) - now);
  }
}

/**
 * Reaching the position is not enough when the writer's organization has a parked lane in one of
 * the read models waited for (its event was parked on the way, or queued behind an earlier one):
 * the write is not readable there, and the caller must hear so. A process that counts no parked
 * events (it parks them itself, and polls) skips the look when its own loop applied the position.
 */
async function assertNotParked(core: RunnerCore, position: Position, names: readonly string[], elsewhere: boolean): Promise<void> {
  if (core.parked.count === 0 && !elsewhere) return;
  const open = await openLanes(core.db, { projectors: names });
  if (!open.length) return;
  const at = positionToString(position);
  // The event itself parked names its organization; otherwise (a projector that does not handle
  // it) the store says whose event it is.
  const organizationId = (await orNothing(openParkedAt(core, names, at))) ?? (await orNothing(organizationAt(core.store, position)));
  const lanes = open.filter((lane) => lane.organizationId === organizationId);
  if (!lanes.length) return;
  throw new ProjectionDegraded(
    lanes.map((lane) => ({ projection: lane.projector, organizationId: lane.organizationId, eventType: lane.eventType, position: lane.position, error: lane.error, parkedAt: lane.parkedAt })),
  );
}

async function openParkedAt(core: RunnerCore, names: readonly string[], at: string): Promise<string | undefined> {
  const row = await core.db
    .selectFrom('projection_parked')
    .select('organization_id')
    .where('status', '=', 'parked')
    .where('projector', 'in', names)
    .where('position', '=', at)
    .executeTakeFirst();
  return row?.organization_id as string | undefined;
}

/** The organization of the event at `position`, read as the successor of the position just before it. */
async function organizationAt(store: EventStore, position: Position): Promise<string | undefined> {
  if (position.prepare === 0n) return undefined;
  try {
    const [event] = await store.readAll({ after: { commit: position.commit, prepare: position.prepare - 1n }, maxCount: 1 });
    return event && comparePositions(event.position, position) === 0 ? organizationOf(event) : undefined;
  } catch {
    // A store that takes no such position (EventStoreDB between records): the parked rows alone tell.
    return undefined;
  }
}

/** A lost connection fails one look at the database, not the wait: the next poll tries again. */
async function orNothing<T>(reading: Promise<T>): Promise<T | undefined> {
  try {
    return await reading;
  } catch (error) {
    if (isTransient(error)) return undefined;
    throw error;
  }
}
