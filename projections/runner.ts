// Runs the projectors: one subscription to `$all` from the lowest checkpoint, cut into batches;
// per projector and batch one transaction holding its rows and its checkpoint (see apply.ts).
// Also answers read-your-writes waits, reports status and rebuilds read models from scratch.
import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import type { EventStore, RecordedEvent } from '../infra/eventstore/port.js';
import { comparePositions, positionToString, type Position } from '../infra/eventstore/position.js';
import { applyToProjector, eventsAfter, handles, HandlerFailed } from './apply.js';
import { ensureCheckpoints, lockCheckpoint, readCheckpoints, resetCheckpoint, skipAhead, type Checkpoint } from './checkpoints.js';
import { EventFeed } from './feed.js';
import { assertAscending, forEachLimited } from './ordering.js';
import { replayAll } from './replay.js';
import type { Projector } from './projector.js';
import { ProjectionTimeout, RebuildFailed } from './runner-errors.js';

export { ProjectionTimeout, RebuildFailed } from './runner-errors.js';

/** The part of pino the runner uses. */
export interface RunnerLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface ProjectionRunnerOptions {
  store: EventStore;
  db: Kysely<any>;
  projectors: readonly Projector[];
  logger?: RunnerLogger;
  /** Most events per transaction (default 500). */
  batchSize?: number;
}

export interface ProjectionStatus {
  name: string;
  position: string | null;
  /** Events that had a handler, applied since the last rebuild. */
  eventsApplied: number;
  /** Events in `$all` after the checkpoint, counted up to LAG_COUNT_LIMIT. */
  lag?: number;
  /** Set when the projector stopped on a handler error (in this process). */
  error?: string;
  rebuilding?: boolean;
}

interface ProjectorState {
  readonly projector: Projector;
  position: Position | null;
  eventsApplied: number;
  error: string | undefined;
  rebuilding: boolean;
  /** The live loop's pending write for this projector: a rebuild waits for it before resetting. */
  inFlight: Promise<unknown> | undefined;
}

export const LAG_COUNT_LIMIT = 10_000;
/** Parallel projector transactions per batch; PGlite serialises them anyway. */
const CONCURRENCY = 4;
const silent: RunnerLogger = { info() {}, warn() {}, error() {} };

export class ProjectionRunner {
  readonly #store: EventStore;
  readonly #db: Kysely<any>;
  readonly #log: RunnerLogger;
  readonly #batchSize: number;
  readonly #states = new Map<string, ProjectorState>();
  readonly #listeners = new Set<() => void>();
  #loop: Promise<void> | undefined;
  /** A stop under way: `start` waits for it rather than mistaking the old loop for a live one. */
  #halting: Promise<void> | undefined;
  #feed: EventFeed | undefined;
  #stopping = new AbortController();
  #resync = false;
  /** Last position handed to the projectors by the live loop (null: from the start); undefined when stopped. */
  #delivered: Position | null | undefined;

  constructor(options: ProjectionRunnerOptions) {
    this.#store = options.store;
    this.#db = options.db;
    this.#log = options.logger ?? silent;
    this.#batchSize = options.batchSize ?? 500;
    for (const projector of options.projectors) {
      if (this.#states.has(projector.name)) throw new Error(`two projectors are named ${projector.name}`);
      this.#states.set(projector.name, { projector, position: null, eventsApplied: 0, error: undefined, rebuilding: false, inFlight: undefined });
    }
  }

  /** Needs the read-model migrations applied. Clears the errors of stopped projectors: they retry. */
  async start(): Promise<void> {
    await this.#halting;
    if (this.#loop) return;
    const names = [...this.#states.keys()];
    await ensureCheckpoints(this.#db, names);
    const stored = await readCheckpoints(this.#db, names);
    for (const state of this.#states.values()) {
      if (state.rebuilding) continue;
      this.#adopt(state, stored.get(state.projector.name) ?? { position: null, eventsApplied: 0 });
      state.error = undefined;
    }
    this.#stopping = new AbortController();
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
      this.#loop = undefined;
      this.#halting = undefined;
    })();
    return this.#halting;
  }

  /** Resolves once every named projector has applied `position`; ProjectionTimeout otherwise. */
  async waitFor(position: Position, names: readonly string[], timeoutMs = 5000): Promise<void> {
    const states = names.map((name) => this.#state(name));
    const deadline = Date.now() + timeoutMs;
    const stored = new Map<string, Position | null>();
    const reached = (p: Position | null | undefined): boolean => !!p && comparePositions(p, position) >= 0;
    // Applied here, the in-memory checkpoint is the news; the database catches another process's progress.
    const local = this.#loop !== undefined;
    let pollMs = local ? 500 : 0;
    let nextPoll = Date.now() + pollMs;
    for (;;) {
      const behind = states.filter((s) => !reached(s.position) && !reached(stored.get(s.projector.name)));
      if (!behind.length) return;
      const now = Date.now();
      if (behind.some((s) => s.error) || now >= deadline) {
        throw new ProjectionTimeout(
          positionToString(position),
          behind.map((s) => ({ name: s.projector.name, position: s.position && positionToString(s.position), ...(s.error ? { error: s.error } : {}) })),
          timeoutMs,
        );
      }
      if (now >= nextPoll) {
        const rows = await readCheckpoints(this.#db, behind.map((s) => s.projector.name));
        for (const [name, checkpoint] of rows) stored.set(name, checkpoint.position);
        pollMs = local ? 1000 : Math.min(Math.max(pollMs * 2, 10), 200);
        nextPoll = Date.now() + pollMs;
        continue;
      }
      await this.#nextChange(Math.min(nextPoll, deadline) - now);
    }
  }

  /** Checkpoints as stored (so it also sees another process's runner) with this process's errors. */
  async status(): Promise<ProjectionStatus[]> {
    const names = [...this.#states.keys()];
    const [stored, head] = await Promise.all([readCheckpoints(this.#db, names), this.#store.headPosition()]);
    const lags = new Map<string, Promise<number>>();
    const lagAfter = (position: Position | null): Promise<number> => {
      if (!head || (position && comparePositions(position, head) >= 0)) return Promise.resolve(0);
      const key = position ? positionToString(position) : '';
      if (!lags.has(key)) {
        const counting = this.#store.readAll({ ...(position ? { after: position } : {}), maxCount: LAG_COUNT_LIMIT }).then((events) => events.length);
        lags.set(key, counting);
      }
      return lags.get(key)!;
    };
    return Promise.all(
      [...this.#states.values()].map(async (state): Promise<ProjectionStatus> => {
        const checkpoint = stored.get(state.projector.name) ?? { position: null, eventsApplied: 0 };
        return {
          name: state.projector.name,
          position: checkpoint.position && positionToString(checkpoint.position),
          eventsApplied: checkpoint.eventsApplied,
          lag: await lagAfter(checkpoint.position),
          ...(state.error ? { error: state.error } : {}),
          ...(state.rebuilding ? { rebuilding: true } : {}),
        };
      }),
    );
  }

  /**
   * Empties the named projectors' tables (all projectors when absent) and replays `$all` through
   * them in one pass. Live processing of those projectors pauses meanwhile and takes over after.
   */
  async rebuild(names?: readonly string[]): Promise<{ rebuilt: string[]; events: number }> {
    const targets = [...new Set(names ?? this.#states.keys())].map((name) => this.#state(name));
    const busy = targets.filter((s) => s.rebuilding).map((s) => s.projector.name);
    if (busy.length) throw new Error(`already rebuilding: ${busy.join(', ')}`);
    for (const state of targets) state.rebuilding = true;
    const started = Date.now();
    let events: number;
    try {
      await Promise.all(targets.map((s) => s.inFlight?.catch(() => {})));
      await ensureCheckpoints(this.#db, targets.map((s) => s.projector.name));
      for (const state of targets) await this.#reset(state);
      events = await this.#replay(targets);
    } finally {
      for (const state of targets) state.rebuilding = false;
      this.#notify();
    }
    const rebuilt = targets.map((s) => s.projector.name);
    this.#log.info({ rebuilt, events, seconds: (Date.now() - started) / 1000 }, 'projections rebuilt');
    const failures = targets.filter((s) => s.error).map((s) => ({ name: s.projector.name, error: s.error! }));
    if (failures.length) throw new RebuildFailed(failures);
    return { rebuilt, events };
  }

  async #run(): Promise<void> {
    const stopping = this.#stopping.signal;
    let backoffMs = 250;
    while (!stopping.aborted) {
      let feed: EventFeed | undefined;
      try {
        const from = await this.#subscriptionStart();
        this.#resync = false;
        this.#delivered = from;
        feed = this.#feed = new EventFeed(this.#store, from, this.#batchSize * 2, stopping);
        for (;;) {
          const batch = await feed.take(this.#batchSize);
          if (!batch || stopping.aborted) break;
          const previous = this.#delivered;
          assertAscending(batch, previous);
          this.#delivered = batch.at(-1)!.position;
          await this.#applyLive(batch, previous);
          backoffMs = 250;
          if (this.#resync) break;
        }
        if (!stopping.aborted && !this.#resync) throw new Error('the $all subscription ended by itself');
      } catch (error) {
        this.#log.error({ err: error, retryInMs: backoffMs }, 'projection runner: subscription or batch failed; resubscribing');
        await sleep(backoffMs, undefined, { signal: stopping }).catch(() => {});
        backoffMs = Math.min(backoffMs * 2, 30_000);
      } finally {
        await feed?.close();
        this.#feed = undefined;
      }
    }
    this.#delivered = undefined;
  }

  /** The lowest checkpoint of the projectors the live loop feeds; the head when none is live. */
  async #subscriptionStart(): Promise<Position | null> {
    const live = [...this.#states.values()].filter((s) => !s.error && !s.rebuilding);
    if (!live.length) return this.#store.headPosition();
    let lowest: Position | null | undefined;
    for (const { position } of live) {
      if (position === null) return null;
      if (lowest === undefined || (lowest && comparePositions(position, lowest) < 0)) lowest = position;
    }
    return lowest ?? null;
  }

  /** `previous`: the position just before `batch` in this subscription (null: it began at the start). */
  async #applyLive(batch: readonly RecordedEvent[], previous: Position | null | undefined): Promise<void> {
    const last = batch.at(-1)!.position;
    const working: Array<{ state: ProjectorState; events: readonly RecordedEvent[] }> = [];
    const idle: ProjectorState[] = [];
    for (const state of this.#states.values()) {
      if (state.error || state.rebuilding) continue;
      if (previous && (!state.position || comparePositions(state.position, previous) < 0)) {
        // Behind the subscription (a rebuild stopped half-way, a checkpoint moved elsewhere): the
        // batch does not follow its checkpoint, so resubscribe from it instead of leaving a gap.
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
    this.#notify();
    const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failed) throw failed.reason;
  }

  async #applyTracked(state: ProjectorState, events: readonly RecordedEvent[]): Promise<void> {
    // A rebuild may have begun while this batch waited its turn.
    if (state.error || state.rebuilding) return;
    const applying = this.#apply(state, events);
    state.inFlight = applying;
    try {
      await applying;
    } finally {
      if (state.inFlight === applying) state.inFlight = undefined;
    }
  }

  /** Applies and records the outcome in `state`; a handler error stops the projector, anything else throws. */
  async #apply(state: ProjectorState, events: readonly RecordedEvent[]): Promise<'applied' | 'conflict' | 'failed'> {
    try {
      const outcome = await applyToProjector(this.#db, state.projector, state.position, events);
      if (outcome.kind === 'conflict') {
        this.#log.warn({ projection: state.projector.name }, 'projection checkpoint was moved by another writer; resynchronising');
        this.#adopt(state, outcome.stored);
        this.#resync = true;
        return 'conflict';
      }
      this.#adopt(state, outcome.checkpoint);
      return 'applied';
    } catch (error) {
      if (!(error instanceof HandlerFailed)) throw error;
      // Keep what came before the failing event, so the projector stops exactly at it.
      const failedAt = error.event ? events.indexOf(error.event) : -1;
      if (failedAt > 0) await this.#apply(state, events.slice(0, failedAt));
      state.error = error.message;
      this.#log.error(
        { err: error.cause, projection: error.projection, eventType: error.eventType, position: error.position },
        'projection handler failed; projection stopped',
      );
      return 'failed';
    }
  }

  async #skipIdle(idle: readonly ProjectorState[], last: Position): Promise<void> {
    const conflicts = await skipAhead(
      this.#db,
      idle.map((s) => ({ name: s.projector.name, expected: s.position })),
      last,
    );
    const conflicted = new Set(conflicts);
    for (const state of idle) if (!conflicted.has(state.projector.name)) state.position = last;
    if (!conflicts.length) return;
    const stored = await readCheckpoints(this.#db, conflicts);
    for (const name of conflicts) this.#adopt(this.#state(name), stored.get(name) ?? { position: null, eventsApplied: 0 });
    this.#resync = true;
  }

  async #reset(state: ProjectorState): Promise<void> {
    const { tables, name } = state.projector;
    await this.#db.transaction().execute(async (trx) => {
      await lockCheckpoint(trx, name);
      // RESTART IDENTITY so serial keys come out the same as the first time round.
      if (tables.length) await sql`truncate table ${sql.join(tables.map((t) => sql.table(t)))} restart identity`.execute(trx);
      await resetCheckpoint(trx, name);
    });
    this.#adopt(state, { position: null, eventsApplied: 0 });
    state.error = undefined;
  }

  /** Replays `$all` from the start through `targets`; returns how many events it read. */
  async #replay(targets: readonly ProjectorState[]): Promise<number> {
    let active = [...targets];
    return replayAll({
      store: this.#store,
      pageSize: this.#batchSize,
      applyPage: async (page) => {
        for (const state of active) {
          const events = eventsAfter(page, state.position);
          if (!events.length) continue;
          if ((await this.#apply(state, events)) === 'conflict') state.error = 'its checkpoint was moved by another writer during the rebuild';
        }
        active = active.filter((s) => !s.error);
        this.#notify();
        return active.length > 0;
      },
      caughtUp: () => active.every((s) => this.#caughtUpWithLive(s)),
      onProgress: (events, eventsPerSecond) =>
        this.#log.info({ projections: active.map((s) => s.projector.name), events, eventsPerSecond }, 'rebuilding projections'),
    });
  }

  /** Whether the live loop can take the projector over without a gap. */
  #caughtUpWithLive(state: ProjectorState): boolean {
    const delivered = this.#delivered;
    if (!delivered) return true;
    return !!state.position && comparePositions(state.position, delivered) >= 0;
  }

  #adopt(state: ProjectorState, checkpoint: Checkpoint): void {
    state.position = checkpoint.position;
    state.eventsApplied = checkpoint.eventsApplied;
  }

  #state(name: string): ProjectorState {
    const state = this.#states.get(name);
    if (!state) throw new Error(`unknown projection ${JSON.stringify(name)}; known: ${[...this.#states.keys()].join(', ')}`);
    return state;
  }

  #notify(): void {
    for (const listener of [...this.#listeners]) listener();
  }

  /** Waits for the next applied batch or rebuild end, at most `ms`. */
  #nextChange(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.#listeners.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(ms, 0));
      this.#listeners.add(done);
    });
  }
}
