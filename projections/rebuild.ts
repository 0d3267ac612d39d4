// Rebuild hand-off: empties the named projectors' tables and replays `$all` through them in one
// pass (whatever their lanes) while the live loops leave them alone, then hands each back to its
// lane's loop without a gap: the replay reads on until each target has reached what its loop last delivered.
import { sql } from 'kysely';
import { comparePositions } from '../infra/eventstore/position.js';
import { eventsAfter } from './apply.js';
import { ensureCheckpoints, lockCheckpoint, resetCheckpoint } from './checkpoints.js';
import { retryIfOpen } from './faults.js';
import { dropParked } from './parked.js';
import type { LiveLoop } from './live-loop.js';
import { replayAll } from './replay.js';
import type { ProjectorState, RunnerCore } from './runner-core.js';
import { RebuildFailed } from './runner-errors.js';

/** A rebuild is not stopped by the live loop's stop: it runs to its end. */
const neverAborted = new AbortController().signal;

/** The live loop that feeds a projector (its lane's). */
export type LoopOf = (state: ProjectorState) => Pick<LiveLoop, 'delivered' | 'resync'>;

export async function rebuildProjectors(
  core: RunnerCore,
  loopOf: LoopOf,
  names?: readonly string[],
  onProgress: (events: number) => void = () => undefined,
): Promise<{ rebuilt: string[]; events: number }> {
  const targets = [...new Set(names ?? core.names)].map((name) => core.state(name));
  const busy = targets.filter((s) => s.rebuilding).map((s) => s.projector.name);
  if (busy.length) throw new Error(`already rebuilding: ${busy.join(', ')}`);
  for (const state of targets) state.rebuilding = true;
  const started = Date.now();
  let events: number;
  try {
    await Promise.all(targets.map((s) => s.inFlight?.catch(() => {})));
    await ensureCheckpoints(core.db, targets.map((s) => s.projector.name));
    for (const state of targets) await reset(core, state);
    events = await replay(core, loopOf, targets, onProgress);
  } finally {
    await core.recountParked({ ifKnown: true });
    for (const state of targets) state.rebuilding = false;
    core.notify();
    // The live loops may have moved past while they left these alone: they resubscribe from them.
    for (const loop of new Set(targets.map(loopOf))) loop.resync();
  }
  const rebuilt = targets.map((s) => s.projector.name);
  core.log.info({ rebuilt, events, seconds: (Date.now() - started) / 1000 }, 'projections rebuilt');
  const failures = targets
    .filter((s) => s.fault || s.error)
    .map((s) => ({ name: s.projector.name, error: s.fault ? `poisoned at ${s.fault.position}: ${s.fault.error}` : s.error! }));
  if (failures.length) throw new RebuildFailed(failures);
  return { rebuilt, events };
}

async function reset(core: RunnerCore, state: ProjectorState): Promise<void> {
  const { tables, name } = state.projector;
  // A replay meets the poisoned event again: that is a retry.
  await retryIfOpen(core.db, name, { by: 'rebuild', reason: 'the read model was rebuilt' });
  await core.db.transaction().execute(async (trx) => {
    await lockCheckpoint(trx, name);
    // The replay meets every parked event again, in order: parked again only if it still fails.
    await dropParked(trx, name, { by: 'rebuild', reason: 'the read model was rebuilt' });
    // RESTART IDENTITY so serial keys come out the same as the first time round.
    if (tables.length) await sql`truncate table ${sql.join(tables.map((t) => sql.table(t)))} restart identity`.execute(trx);
    await resetCheckpoint(trx, name);
  });
  core.adopt(state, { position: null, eventsApplied: 0 });
  state.error = undefined;
  state.fault = undefined;
}

/** Replays `$all` from the start through `targets`; returns how many events it read. */
async function replay(core: RunnerCore, loopOf: LoopOf, targets: readonly ProjectorState[], onProgress: (events: number) => void): Promise<number> {
  let active = [...targets];
  let read = 0;
  return replayAll({
    store: core.store,
    pageSize: core.batchSize,
    applyPage: async (page) => {
      for (const state of active) {
        const events = eventsAfter(page, state.position);
        if (!events.length) continue;
        if ((await core.apply(state, events, neverAborted)) === 'conflict') state.error = 'its checkpoint was moved by another writer during the rebuild';
      }
      active = active.filter((s) => !s.error && !s.fault);
      core.notify();
      read += page.length;
      onProgress(read);
      return active.length > 0;
    },
    caughtUp: () => active.every((s) => caughtUpWithLive(loopOf(s), s)),
    onProgress: (events, eventsPerSecond) => core.log.info({ projections: active.map((s) => s.projector.name), events, eventsPerSecond }, 'rebuilding projections'),
  });
}

/** Whether the live loop can take the projector over without a gap. */
function caughtUpWithLive(live: Pick<LiveLoop, 'delivered'>, state: ProjectorState): boolean {
  const delivered = live.delivered;
  if (!delivered) return true;
  return !!state.position && comparePositions(state.position, delivered) >= 0;
}
