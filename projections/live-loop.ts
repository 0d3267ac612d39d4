// The live loop of one lane (projections/index.ts): one subscription to `$all` from the lowest
// checkpoint of the lane's projectors, cut into batches; per projector and batch one transaction
// holding its rows and its checkpoint (see apply.ts). Lanes do not wait for each other: each has
// its own loop, feed and batches, so a long batch of one never delays an event of another. A
// failing read of `$all` (a dropped LISTEN connection, a restarted server) resubscribes from the
// checkpoints after a capped backoff. Poisoned projectors sit out; a poller notices an operator's
// skip or retry from any process (the runner's one poll, for all its lanes) and hands them back.
import { setTimeout as sleep } from 'node:timers/promises';
import type { RecordedEvent } from '../infra/eventstore/port.js';
import { comparePositions, type Position } from '../infra/eventstore/position.js';
import { eventsAfter, handles } from './apply.js';
import { ensureCheckpoints, readCheckpoints, skipAhead } from './checkpoints.js';
import { openFaults, type ProjectionFault } from './faults.js';
import { EventFeed } from './feed.js';
import { assertAscending, forEachLimited } from './ordering.js';
import { backoffMs, type ProjectorState, type RunnerCore } from './runner-core.js';

/** Parallel projector transactions per batch; PGlite serialises them anyway. */
const CONCURRENCY = 4;

/** The projectors one loop feeds. */
export interface LaneOfLoop {
  readonly name: string;
  readonly states: readonly ProjectorState[];
  /** Most events per transaction. */
  readonly batchSize: number;
}

export class LiveLoop {
  readonly #core: RunnerCore;
  readonly lane: LaneOfLoop;
  #loop: Promise<void> | undefined;
  /** A stop under way: `start` waits for it rather than mistaking the old loop for a live one. */
  #halting: Promise<void> | undefined;
  #feed: EventFeed | undefined;
  #stopping = new AbortController();
  #resync = false;
  #applyingFaults: Promise<void> | undefined;
  /** Last position handed to the projectors (null: from the start); undefined when stopped. */
  #delivered: Position | null | undefined;
  #started = false;

  constructor(core: RunnerCore, lane: LaneOfLoop) {
    this.#core = core;
    this.lane = lane;
  }

  get running(): boolean {
    return this.#loop !== undefined;
  }

  /** Whether this process ever ran the loop (an API-only process never does). */
  get started(): boolean {
    return this.#started;
  }

  get delivered(): Position | null | undefined {
    return this.#delivered;
  }

  get signal(): AbortSignal {
    return this.#stopping.signal;
  }

  async start(): Promise<void> {
    await this.#halting;
    if (this.#loop) return;
    const core = this.#core;
    const names = this.lane.states.map((s) => s.projector.name);
    await ensureCheckpoints(core.db, names);
    const [stored, faults] = await Promise.all([readCheckpoints(core.db, names), openFaults(core.db)]);
    for (const state of this.lane.states) {
      state.fault = faults.get(state.projector.name);
      if (state.rebuilding) continue;
      core.adopt(state, stored.get(state.projector.name) ?? { position: null, eventsApplied: 0 });
      state.error = undefined;
    }
    await core.recountParked();
    this.#stopping = new AbortController();
    this.#started = true;
    this.#loop = this.#run();
  }

  /** Ends the subscription and waits for the batch being applied. */
  async stop(): Promise<void> {
    const loop = this.#loop;
    if (!loop) return this.#halting;
    this.#stopping.abort();
    this.#halting = (async () => {
      await this.#feed?.close();
      await loop;
      await this.#applyingFaults?.catch(() => {});
      this.#loop = undefined;
      this.#halting = undefined;
    })();
    return this.#halting;
  }

  /** Resubscribes from the checkpoints at once, even while no events arrive. */
  resync(): void {
    this.#resync = true;
    void this.#feed?.close();
  }

  /**
   * Follows `projection_faults` as the runner read them (`open`, by projector): a fault closed by an
   * operator (here or in another process) puts its projector back in the loop from its stored
   * checkpoint; one opened elsewhere stops it here too. `recordedBefore`: `core.faultsRecorded`
   * when `open` was read.
   */
  applyFaults(open: ReadonlyMap<string, ProjectionFault>, recordedBefore: number): Promise<void> {
    this.#applyingFaults ??= (async () => {
      const core = this.#core;
      // A fault recorded here after `open` was read is missing from it, not cleared.
      const stale = core.faultsRecorded !== recordedBefore;
      const released = stale ? [] : this.lane.states.filter((s) => s.fault && !open.has(s.projector.name));
      for (const state of this.lane.states) if (!state.fault && open.has(state.projector.name)) state.fault = open.get(state.projector.name);
      if (!released.length) return;
      const stored = await readCheckpoints(core.db, released.map((s) => s.projector.name));
      for (const state of released) {
        if (state.inFlight) await state.inFlight.catch(() => {});
        core.adopt(state, stored.get(state.projector.name) ?? { position: null, eventsApplied: 0 });
        state.fault = undefined;
        core.log.info({ projection: state.projector.name, lane: this.lane.name, position: state.position }, 'projection resumes after an operator decision');
      }
      core.notify();
      this.resync();
    })().finally(() => (this.#applyingFaults = undefined));
    return this.#applyingFaults;
  }

  async #run(): Promise<void> {
    const core = this.#core;
    const stopping = this.#stopping.signal;
    let attempt = 0;
    while (!stopping.aborted) {
      let feed: EventFeed | undefined;
      try {
        const from = await this.#subscriptionStart();
        this.#resync = false;
        this.#delivered = from;
        feed = this.#feed = new EventFeed(core.store, from, this.lane.batchSize * 2, stopping);
        for (;;) {
          const batch = await feed.take(this.lane.batchSize);
          if (!batch || stopping.aborted) break;
          const previous = this.#delivered;
          assertAscending(batch, previous);
          this.#delivered = batch.at(-1)!.position;
          await this.#applyLive(batch, previous);
          attempt = 0;
          if (this.#resync) break;
        }
        if (!stopping.aborted && !this.#resync) throw new Error('the $all subscription ended by itself');
      } catch (error) {
        if (stopping.aborted) break;
        const retryInMs = Math.round(backoffMs(core.retry, ++attempt));
        core.log.error({ err: error, lane: this.lane.name, retryInMs, attempt }, 'projection runner: reading $all or a batch failed; resubscribing from the checkpoints');
        await sleep(retryInMs, undefined, { signal: stopping }).catch(() => {});
      } finally {
        await feed?.close();
        this.#feed = undefined;
      }
    }
    this.#delivered = undefined;
  }

  /** The lowest checkpoint of the projectors the loop feeds; the head when none is live. */
  async #subscriptionStart(): Promise<Position | null> {
    const live = this.lane.states.filter((s) => !s.fault && !s.error && !s.rebuilding);
    if (!live.length) return this.#core.store.headPosition();
    let lowest: Position | null | undefined;
    for (const { position } of live) {
      if (position === null) return null;
      if (lowest === undefined || (lowest && comparePositions(position, lowest) < 0)) lowest = position;
    }
    return lowest ?? null;
  }

  /** `previous`: the position just before `batch` in this subscription (null: it began at the start). */
  async #applyLive(batch: readonly RecordedEvent[], previous: Position | null | undefined): Promise<void> {
    const core = this.#core;
    const last = batch.at(-1)!.position;
    const working: Array<{ state: ProjectorState; events: readonly RecordedEvent[] }> = [];
    const idle: ProjectorState[] = [];
    for (const state of this.lane.states) {
      if (state.fault || state.error || state.rebuilding) continue;
      if (previous && (!state.position || comparePositions(state.position, previous) < 0)) {
        // Behind the subscription (a rebuild stopped half-way, a checkpoint moved elsewhere, a
        // skip): the batch does not follow its checkpoint, so resubscribe from it instead of leaving a gap.
        this.#resync = true;
        continue;
      }
      const events = eventsAfter(batch, state.position);
      if (!events.length) continue;
      if (events.some((event) => handles(state.projector, event.type))) working.push({ state, events });
      else idle.push(state);
    }
    const skipping = idle.length ? this.#skipIdle(idle, last) : Promise.resolve();
    for (const state of idle) state.inFlight = skipping;
    const outcomes = await Promise.allSettled([
      skipping,
      forEachLimited(working, CONCURRENCY, ({ state, events }) => this.#applyTracked(state, events)),
    ]);
    for (const state of idle) if (state.inFlight === skipping) state.inFlight = undefined;
    core.notify();
    const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failed) throw failed.reason;
  }

  async #applyTracked(state: ProjectorState, events: readonly RecordedEvent[]): Promise<void> {
    // A rebuild may have begun, or another process poisoned it, while this batch waited its turn.
    if (state.fault || state.error || state.rebuilding) return;
    const applying = this.#core.apply(state, events, this.#stopping.signal);
    state.inFlight = applying;
    try {
      if ((await applying) === 'conflict') this.#resync = true;
    } finally {
      if (state.inFlight === applying) state.inFlight = undefined;
    }
  }

  async #skipIdle(idle: readonly ProjectorState[], last: Position): Promise<void> {
    const core = this.#core;
    const conflicts = await skipAhead(
      core.db,
      idle.map((s) => ({ name: s.projector.name, expected: s.position })),
      last,
    );
    const conflicted = new Set(conflicts);
    for (const state of idle) if (!conflicted.has(state.projector.name)) state.position = last;
    if (!conflicts.length) return;
    const stored = await readCheckpoints(core.db, conflicts);
    for (const name of conflicts) core.adoptForeign(core.state(name), stored.get(name) ?? { position: null, eventsApplied: 0 });
    this.#resync = true;
  }
}
