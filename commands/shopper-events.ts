// Recording a storefront's shopper events on the session's stream `session-<id>`: one store event
// per accepted request. The decider (domain/session/) drops client event ids already on the stream,
// enforces the per-session cap and says of each event whether it counts; this handler supplies the
// stream's state and the facts it needs: whose items and datasets the events name, read from their
// streams (catalogue-owners.ts).
//
// Shopper events are the service's highest-volume write, so the handler keeps the state of recent
// sessions in memory (revision, count, event ids) and appends against that revision without
// reading the stream first. It stays exact: the append expects that revision, and a writer in
// another process that got there first makes it fail, re-read and decide again (handleKnown).
// Requests for one session in this process go one after the other, so they never race each other;
// appends of different sessions go concurrently and the event store group-commits them.
import type { CommandMeta } from '../domain/metadata.js';
import {
  DEFAULT_SHOPPER_EVENT_LIMITS,
  sessionDecider,
  sessionStream,
  type RecordSearchResults,
  type SessionCommand,
  type SessionState,
  type ShopperEvent,
  type ShopperEventLimits,
} from '../domain/session/index.js';
import type { EventStore, Position } from '../infra/eventstore/port.js';
import { CatalogueOwners } from './catalogue-owners.js';
import { handleKnown, readKnown, type KnownStream } from './handle.js';

export interface RecordShopperEventsInput {
  sessionId: string;
  organizationId: string;
  demo: boolean;
  receivedAt: string;
  events: ShopperEvent[];
  /** Intent tokens of the events that verified (signature, expiry): token → the session and item it was made for. */
  intents?: ReadonlyMap<string, { sessionId: string; itemId: string }>;
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
  /** Bounds on values and a session's revenue (defaults: DEFAULT_SHOPPER_EVENT_LIMITS). */
  limits?: Partial<ShopperEventLimits>;
  /** Whose items and datasets the events name (default: one of its own). */
  owners?: CatalogueOwners;
}

/**
 * Records on widget sessions' streams: shopper events, and the results a search showed. One per
 * API process, shared by the events and search routes, so both append against the same known
 * revision of a session.
 */
export class ShopperEventRecorder {
  readonly #store: EventStore;
  readonly #limits: ShopperEventLimits;
  readonly #owners: CatalogueOwners;
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
    this.#limits = { ...DEFAULT_SHOPPER_EVENT_LIMITS, ...options.limits };
    this.#owners = options.owners ?? new CatalogueOwners(store);
  }

  get limits(): ShopperEventLimits {
    return this.#limits;
  }

  async record(input: RecordShopperEventsInput, meta: CommandMeta): Promise<RecordedShopperEvents> {
    // Read before the session's turn: ownership does not depend on the session's state.
    const owners = await this.#owners.find(
      input.events.flatMap((event) => (event.itemId === null ? [] : [event.itemId])),
      input.events.flatMap((event) => (event.datasetId === null ? [] : [event.datasetId])),
    );
    const { intents = new Map(), ...rest } = input;
    const command: SessionCommand = { type: 'RecordShopperEvents', data: { ...rest, facts: { ...owners, intents }, limits: this.#limits } };
    const handled = await this.#oneAtATime(input.sessionId, () => this.#handle(command, input.organizationId, meta));
    const recorded = handled.events[0];
    return { accepted: recorded?.type === 'ShopperEventsRecorded' ? recorded.data.events.length : 0, position: handled.position };
  }

  /** What a search put on a session's screen; recorded only on a session of the search's organization, up to the session's cap. */
  async recordSearchResults(data: RecordSearchResults['data'], meta: CommandMeta): Promise<{ recorded: boolean; position: Position | null }> {
    if (data.shown.length === 0) return { recorded: false, position: null };
    const handled = await this.#oneAtATime(data.sessionId, () => this.#handle({ type: 'RecordSearchResults', data }, data.organizationId, meta));
    return { recorded: handled.events.length > 0, position: handled.position };
  }

  async #handle(command: SessionCommand, organizationId: string, meta: CommandMeta) {
    const sessionId = command.data.sessionId;
    // Taken out while in use: a request that fails (a full session, a store error) leaves no state
    // behind, and the next one reads the stream.
    const known = this.#take(sessionId) ?? (await readKnown(this.#store, sessionDecider, sessionStream(sessionId)));
    const handled = await handleKnown(this.#store, sessionDecider, command, meta, known, { organizationId });
    this.#keep(sessionId, handled.known);
    return handled;
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
