// What the parts of the runner share (live loop, read-your-writes waits, rebuild, status): one
// state per projector, the change notifications waits sleep on, and the one way a batch reaches a
// projector: retried with a capped backoff while the error is transient, and stopped at the event
// that keeps failing otherwise (recorded as poisoned, see faults.ts).
import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { EventStore, RecordedEvent } from '../infra/eventstore/port.js';
import { positionToString, type Position } from '../infra/eventstore/position.js';
import { applyToProjector, HandlerFailed, parkFailedEvent } from './apply.js';
import type { Checkpoint } from './checkpoints.js';
import { recordFault, transientKind, type ProjectionFault } from './faults.js';
import { countOpenParked, organizationOf } from './parked.js';
import type { Projector } from './projector.js';

/** The part of pino the runner uses. */
export interface RunnerLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface RetryPolicy {
  /** First wait after a failure; doubles per attempt up to `maxDelayMs`, jittered. */
  firstDelayMs: number;
  maxDelayMs: number;
  /** Failures of a non-transient error before its event is recorded as poisoned. */
  attempts: number;
  /**
   * Statement-level transient failures (a statement_timeout, a serialization failure, a deadlock)
   * on one event before it is poisoned: a handler that always outlasts the timeout would otherwise
   * hold every projector back for good. Connection-level failures never poison.
   */
  statementAttempts: number;
}

// 50 statement failures at up to 5 s apart: some four minutes of a lock held or a timeout hit.
export const DEFAULT_RETRY: RetryPolicy = { firstDelayMs: 100, maxDelayMs: 5000, attempts: 5, statementAttempts: 50 };

export interface Retrying {
  error: string;
  attempts: number;
  transient: boolean;
  since: string;
}

export interface ProjectorState {
  readonly projector: Projector;
  position: Position | null;
  eventsApplied: number;
  /** Stopped on a poisoned event until an operator skips or retries it. */
  fault: ProjectionFault | undefined;
  /** The batch in hand keeps failing and is being retried. */
  retrying: Retrying | undefined;
  /** A rebuild lost its checkpoint to another writer. */
  error: string | undefined;
  rebuilding: boolean;
  /** The live loop's pending write for this projector: a rebuild waits for it before resetting. */
  inFlight: Promise<unknown> | undefined;
}

export type ApplyResult = 'applied' | 'conflict' | 'poisoned';

/** Organization lanes that hold parked events, in this process's view. */
export interface ParkedView {
  /** Open parked events as last counted; undefined: not known here, so look in the database. */
  count: number | undefined;
  /** Parkings seen here: a recount that began before one of them must not overwrite it. */
  changes: number;
}

export const backoffMs = (policy: RetryPolicy, attempt: number): number => {
  const capped = Math.min(policy.firstDelayMs * 2 ** Math.min(attempt - 1, 20), policy.maxDelayMs);
  return capped / 2 + Math.random() * (capped / 2);
};

const message = (error: unknown): string => (error instanceof Error ? error.message || error.name : String(error));

export class RunnerCore {
  readonly states = new Map<string, ProjectorState>();
  readonly #listeners = new Set<() => void>();
  readonly parked: ParkedView = { count: undefined, changes: 0 };
  /**
   * Faults recorded here: a read of the open faults that began before one of them cannot tell
   * "an operator cleared it" from "not yet recorded", so it must not release anything.
   */
  faultsRecorded = 0;

  readonly store: EventStore;
  readonly db: Kysely<any>;
  readonly log: RunnerLogger;
  readonly batchSize: number;
  readonly retry: RetryPolicy;
  constructor(
    store: EventStore,
    db: Kysely<any>,
    log: RunnerLogger,
    batchSize: number,
    retry: RetryPolicy,
    projectors: readonly Projector[],
  ) {
    this.store = store;
    this.db = db;
    this.log = log;
    this.batchSize = batchSize;
    this.retry = retry;
    for (const projector of projectors) {
      if (this.states.has(projector.name)) throw new Error(`two projectors are named ${projector.name}`);
      this.states.set(projector.name, { projector, position: null, eventsApplied: 0, fault: undefined, retrying: undefined, error: undefined, rebuilding: false, inFlight: undefined });
    }
  }

  get names(): string[] {
    return [...this.states.keys()];
  }

  state(name: string): ProjectorState {
    const state = this.states.get(name);
    if (!state) throw new Error(`unknown projection ${JSON.stringify(name)}; known: ${this.names.join(', ')}`);
    return state;
  }

  adopt(state: ProjectorState, checkpoint: Checkpoint): void {
    state.position = checkpoint.position;
    state.eventsApplied = checkpoint.eventsApplied;
  }

  /**
   * Takes a checkpoint another writer moved (a second process): it may have parked events on the
   * way, so the count is unknown here until the next recount.
   */
  adoptForeign(state: ProjectorState, checkpoint: Checkpoint): void {
    this.adopt(state, checkpoint);
    this.parked.count = undefined;
    this.parked.changes++;
  }

  noteParked(events: number): void {
    this.parked.changes++;
    if (this.parked.count !== undefined) this.parked.count += events;
  }

  /**
   * Counts the open parked events again (undefined on failure: the waits then look themselves).
   * `ifKnown`: only where the count is kept (a process running the live loop).
   */
  async recountParked({ ifKnown = false }: { ifKnown?: boolean } = {}): Promise<void> {
    if (ifKnown && this.parked.count === undefined) return;
    const before = this.parked.changes;
    const count = await countOpenParked(this.db).catch(() => undefined);
    if (this.parked.changes === before) this.parked.count = count;
  }

  notify(): void {
    for (const listener of [...this.#listeners]) listener();
  }

  /** Waits for the next applied batch, fault or rebuild end, at most `ms`. */
  nextChange(ms: number): Promise<void> {
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

  /**
   * Applies `events` (the successors of the projector's checkpoint) and records the outcome in
   * `state`. Connection-level errors are retried for as long as they last; a handler error that
   * repeats on one event (`retry.attempts` times, or `retry.statementAttempts` for a cancelled
   * statement, a serialization failure or a deadlock) stops the projector there: what came before
   * is kept, the event is recorded as poisoned. Throws only when `signal` aborts.
   */
  async apply(state: ProjectorState, events: readonly RecordedEvent[], signal: AbortSignal): Promise<ApplyResult> {
    let attempt = 0;
    let failures = 0;
    let statementFailures = 0;
    let oneByOne = false;
    for (;;) {
      try {
        const outcome = await applyToProjector(this.db, state.projector, state.position, events, { oneByOne });
        if (state.retrying) this.log.info({ projection: state.projector.name, attempts: attempt + 1 }, 'projection recovered');
        state.retrying = undefined;
        if (outcome.kind === 'conflict') {
          this.log.warn({ projection: state.projector.name }, 'projection checkpoint was moved by another writer; resynchronising');
          this.adoptForeign(state, outcome.stored);
          return 'conflict';
        }
        this.adopt(state, outcome.checkpoint);
        if (outcome.parked) this.noteParked(outcome.parked);
        return 'applied';
      } catch (error) {
        if (signal.aborted) throw error;
        attempt++;
        const kind = transientKind(error);
        const transient = kind !== undefined;
        if (kind !== 'connection' && error instanceof HandlerFailed) {
          const count = kind === 'statement' ? ++statementFailures : ++failures;
          const limit = kind === 'statement' ? this.retry.statementAttempts : this.retry.attempts;
          // An applyBatch failure names no event: run the handlers one by one to find it.
          if (!error.event) oneByOne = true;
          else if (count >= limit) return this.#poison(state, events, error, count, signal);
        }
        state.retrying = { error: message(error), attempts: attempt, transient, since: state.retrying?.since ?? new Date().toISOString() };
        const delayMs = Math.round(backoffMs(this.retry, attempt));
        const details = { err: error, projection: state.projector.name, attempt, transient, retryInMs: delayMs };
        if (attempt === 1 || attempt % 10 === 0) this.log.warn(details, 'projection batch failed; retrying from the checkpoint');
        this.notify();
        await this.#pause(delayMs, signal);
      }
    }
  }

  async #poison(state: ProjectorState, events: readonly RecordedEvent[], error: HandlerFailed, attempts: number, signal: AbortSignal): Promise<ApplyResult> {
    const event = error.event!;
    const failedAt = events.indexOf(event);
    if (failedAt > 0) {
      const before = await this.apply(state, events.slice(0, failedAt), signal);
      if (before !== 'applied') return before;
    }
    const organizationId = organizationOf(event);
    if (organizationId) return this.#park(state, events.slice(failedAt + 1), event, { organizationId, error: error.message, attempts }, signal);
    const poisoned = { projector: state.projector.name, position: event.position, eventId: event.id, eventType: event.type, streamId: event.streamId, error: error.message, attempts };
    for (let attempt = 1; ; attempt++) {
      try {
        state.fault = await recordFault(this.db, poisoned);
        this.faultsRecorded++;
        break;
      } catch (recording) {
        if (signal.aborted) throw recording;
        this.log.warn({ err: recording, projection: state.projector.name }, 'cannot record the poisoned event yet; retrying');
        await this.#pause(backoffMs(this.retry, attempt), signal);
      }
    }
    state.retrying = undefined;
    this.log.error(
      { err: error.cause, projection: error.projection, eventType: error.eventType, position: error.position, streamId: event.streamId, attempts },
      'projection stopped on a poisoned event; `stylist projections skip` or `retry` resumes it',
    );
    this.notify();
    return 'poisoned';
  }

  /**
   * One organization's event keeps failing: it is parked for that organization and the projector
   * goes on with `rest` (where that organization's events queue behind it), so every other
   * organization's read model stays current.
   */
  async #park(
    state: ProjectorState,
    rest: readonly RecordedEvent[],
    event: RecordedEvent,
    failure: { organizationId: string; error: string; attempts: number },
    signal: AbortSignal,
  ): Promise<ApplyResult> {
    for (let attempt = 1; ; attempt++) {
      try {
        const outcome = await parkFailedEvent(this.db, state.projector, state.position, event, failure);
        if (outcome.kind === 'conflict') {
          this.adoptForeign(state, outcome.stored);
          state.retrying = undefined;
          return 'conflict';
        }
        this.adopt(state, outcome.checkpoint);
        this.noteParked(1);
        break;
      } catch (parking) {
        if (signal.aborted) throw parking;
        this.log.warn({ err: parking, projection: state.projector.name }, 'cannot park the failing event yet; retrying');
        await this.#pause(backoffMs(this.retry, attempt), signal);
      }
    }
    state.retrying = undefined;
    this.log.error(
      { projection: state.projector.name, organizationId: failure.organizationId, eventType: event.type, position: positionToString(event.position), streamId: event.streamId, attempts: failure.attempts, error: failure.error },
      "an organization's event was parked: that organization's lane of the read model waits behind it, the others go on; `stylist projections replay-parked` applies it once fixed",
    );
    this.notify();
    return rest.length ? this.apply(state, rest, signal) : 'applied';
  }

  async #pause(ms: number, signal: AbortSignal): Promise<void> {
    await sleep(ms, undefined, { signal }).catch(() => {});
    if (signal.aborted) throw new Error('projection runner stopping');
  }
}
