// Read-your-writes: a command's caller waits until the named projections have applied its
// position. The in-memory checkpoints carry this process's progress; the database carries another
// process's, and its open faults, so a poisoned projector fails the wait at once wherever it runs.
import { comparePositions, positionToString, type Position } from '../infra/eventstore/position.js';
import { readCheckpoints } from './checkpoints.js';
import { isTransient, openFaults, type ProjectionFault } from './faults.js';
import type { RunnerCore } from './runner-core.js';
import { ProjectionTimeout } from './runner-errors.js';

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
    if (!behind.length) return;
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

/** A lost connection fails one look at the database, not the wait: the next poll tries again. */
async function orNothing<T>(reading: Promise<T>): Promise<T | undefined> {
  try {
    return await reading;
  } catch (error) {
    if (isTransient(error)) return undefined;
    throw error;
  }
}
