// Recording a storefront's shopper events on the session's stream `session-<id>`: one store event
// per accepted request. The decider (domain/session/) drops client event ids already on the stream
// and enforces the per-session cap; this handler supplies the stream's state.
//
// Shopper events are the service's highest-volume write, so the handler keeps the state of recent
// sessions in memory (revision, count, event ids) and appends against that revision without
// reading the stream first. It stays exact: the append expects that revision, and a writer in
// another process that got there first makes it fail, re-read and decide again (handleKnown).
// Requests for one session in this process go one after the other, so they never race each other;
// appends of different sessions go concurrently and the event store group-commits them.
import type { CommandMeta } from '../domain/metadata.js';
import { sessionDecider, sessionStream, type SessionState, type ShopperEvent } from '../domain/session/index.js';
import type { EventStore, Position } from '../infra/eventstore/port.js';
import { handleKnown, readKnown, type KnownStream } from './handle.js';

export interface RecordShopperEventsInput {
  sessionId: string;
  organizationId: string;
  demo: boolean;
  receivedAt: string;
  events: ShopperEvent[];
}

export interface RecordedShopperEvents {
  /** Shopper events newly recorded: repeats of a recorded client event id are not counted. */
  accepted: number;
  /** Where the store event landed; null when nothing was new. */
  position: Position | null;
}

export interface ShopperEventRecorderOptions {
  /** Sessions whose state stays in memory (default 4,096). */
  maxSessions?: number;
  /** Client event ids held across those sessions, bounding the memory (default 200,000). */
  maxEventIds?: number;
}

export class ShopperEventRecorder {
  readonly #store: EventStore;
  readonly #maxSessions: number;
  readonly #maxEventIds: number;
  /** Most recently used last. */
  readonly #known = new Map<string, KnownStream<SessionState>>();
  #eventIds = 0;
  /** The tail of each session's queue of requests in this process. */
  readonly #queues = new Map<string, Promise<unknown>>();

  constructor(store: EventStore, options: ShopperEventRecorderOptions = {}) {
    this.#store = store;
    this.#maxSessions = options.maxSessions ?? 4096;
    this.#maxEventIds = options.maxEventIds ?? 200_000;
  }

  record(input: RecordShopperEventsInput, meta: CommandMeta): Promise<RecordedShopperEvents> {
    return this.#oneAtATime(input.sessionId, () => this.#record(input, meta));
  }

  async #record(input: RecordShopperEventsInput, meta: CommandMeta): Promise<RecordedShopperEvents> {
    const streamId = sessionStream(input.sessionId);
    // Taken out while in use: a request that fails (a full session, a store error) leaves no state
    // behind, and the next one reads the stream.
    const known = this.#take(input.sessionId) ?? (await readKnown(this.#store, sessionDecider, streamId));
    const handled = await handleKnown(this.#store, sessionDecider, { type: 'RecordShopperEvents', data: input }, meta, known, { organizationId: input.organizationId });
    this.#keep(input.sessionId, handled.known);
    const recorded = handled.events[0];
    return { accepted: recorded?.type === 'ShopperEventsRecorded' ? recorded.data.events.length : 0, position: handled.position };
  }

  #take(sessionId: string): KnownStream<SessionState> | undefined {
    const known = this.#known.get(sessionId);
    if (known) {
      this.#known.delete(sessionId);
      this.#eventIds -= known.state.eventIds.size;
    }
    return known;
  }

  #keep(sessionId: string, known: KnownStream<SessionState>): void {
    this.#known.set(sessionId, known);
    this.#eventIds += known.state.eventIds.size;
    while (this.#known.size > this.#maxSessions || (this.#eventIds > this.#maxEventIds && this.#known.size > 0)) {
      const [oldest, state] = this.#known.entries().next().value!;
      this.#known.delete(oldest);
      this.#eventIds -= state.state.eventIds.size;
    }
  }

  async #oneAtATime<T>(sessionId: string, run: () => Promise<T>): Promise<T> {
    const before = this.#queues.get(sessionId) ?? Promise.resolve();
    const mine = before.then(run, run);
    const tail = mine.then(
      () => undefined,
      () => undefined,
    );
    this.#queues.set(sessionId, tail);
    try {
      return await mine;
    } finally {
      if (this.#queues.get(sessionId) === tail) this.#queues.delete(sessionId);
    }
  }
}
