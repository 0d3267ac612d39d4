// The operator's way out of a parked lane (projections/parked.ts): once the cause is fixed, the
// lane's events are read back from the store and applied in `$all` order, all in one transaction
// with the projector's checkpoint row locked, so a live batch cannot slip in between and the lane
// ends exactly as a rebuild would leave it. A failure changes nothing and says why.
import type { RecordedEvent } from '../infra/eventstore/port.js';
import { positionToString } from '../infra/eventstore/position.js';
import { countApplied, lockCheckpoint } from './checkpoints.js';
import { FaultMismatch } from './faults.js';
import { closeParked, laneEvents, openLanes, recordReplayFailure, type LaneFilter, type ParkedEventRef, type Resolution } from './parked.js';
import type { RunnerCore } from './runner-core.js';

export interface ReplayedLane {
  projector: string;
  organizationId: string;
  events: number;
}

export interface FailedLane {
  projector: string;
  organizationId: string;
  position: string;
  eventType: string;
  error: string;
}

/** Another process parked more of the lane between the read and the lock: read again. */
class LaneMoved extends Error {}

const message = (error: unknown): string => (error instanceof Error ? error.message || error.name : String(error));

export async function replayParked(core: RunnerCore, filter: LaneFilter, resolution: Resolution): Promise<{ replayed: ReplayedLane[]; failed: FailedLane[] }> {
  if (filter.projector) core.state(filter.projector);
  const lanes = await openLanes(core.db, filter);
  if (!lanes.length) {
    const scope = [filter.projector && `projection ${filter.projector}`, filter.organizationId && `organization ${filter.organizationId}`].filter(Boolean).join(' of ');
    throw new FaultMismatch(`nothing is parked${scope ? ` for ${scope}` : ''}`);
  }
  const replayed: ReplayedLane[] = [];
  const failed: FailedLane[] = [];
  try {
    for (const lane of lanes) {
      const outcome = await replayLane(core, lane.projector, lane.organizationId, resolution);
      if ('error' in outcome) failed.push(outcome);
      else replayed.push(outcome);
      core.log.warn({ ...outcome, by: resolution.by, reason: resolution.reason }, 'error' in outcome ? 'replaying parked events failed; they stay parked' : 'parked events replayed by an operator');
    }
  } finally {
    await core.recountParked({ ifKnown: true });
    core.notify();
  }
  return { replayed, failed };
}

async function replayLane(core: RunnerCore, projector: string, organizationId: string, resolution: Resolution): Promise<ReplayedLane | FailedLane> {
  const definition = core.state(projector).projector;
  for (let attempt = 1; ; attempt++) {
    // Read before the transaction: on PGlite the store shares the one connection the transaction holds.
    const refs = await laneEvents(core.db, projector, organizationId);
    if (!refs.length) return { projector, organizationId, events: 0 };
    const events = await readParked(core, refs);
    let failing: ParkedEventRef | undefined;
    try {
      await core.db.transaction().execute(async (trx) => {
        await lockCheckpoint(trx, projector);
        const now = await laneEvents(trx, projector, organizationId);
        if (now.map((r) => r.parkedId).join() !== refs.map((r) => r.parkedId).join()) throw new LaneMoved();
        for (const [index, event] of events.entries()) {
          failing = refs[index];
          await definition.handlers[event.type]!(trx, event);
        }
        failing = undefined;
        await closeParked(trx, refs.map((r) => r.parkedId), resolution);
        await countApplied(trx, projector, events.length);
      });
      return { projector, organizationId, events: events.length };
    } catch (error) {
      if (error instanceof LaneMoved && attempt < 5) continue;
      if (!failing) throw error;
      const text = `projection ${projector} failed on ${failing.eventType} at ${positionToString(failing.position)}: ${message(error)}`;
      await recordReplayFailure(core.db, failing.parkedId, text);
      return { projector, organizationId, position: positionToString(failing.position), eventType: failing.eventType, error: text };
    }
  }
}

async function readParked(core: RunnerCore, refs: readonly ParkedEventRef[]): Promise<RecordedEvent[]> {
  return Promise.all(
    refs.map(async (ref) => {
      const [event] = await core.store.readStream(ref.streamId, { fromRevision: ref.revision, maxCount: 1 });
      if (!event || event.id !== ref.eventId) throw new Error(`parked event ${ref.eventId} is no longer at revision ${ref.revision} of ${ref.streamId}`);
      return event;
    }),
  );
}
