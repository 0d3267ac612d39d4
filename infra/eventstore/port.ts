// The EventStore port: the one source of truth. Two adapters implement it:
// `postgres.ts` (kysely over PGlite or a Postgres server) and `esdb.ts` (EventStoreDB).
import type { Position } from './position.js';

export type { Position } from './position.js';

/** What the caller believes about the stream before appending. */
export type ExpectedRevision =
  | 'no_stream' // the stream must not exist yet
  | 'any' // no check
  | bigint; // the revision of the stream's last event (first event is revision 0n)

/** Envelope metadata carried on every event (DESIGN.md, event store rules). */
export interface EventMetadata {
  organizationId?: string;
  actor?: { kind: 'key' | 'source' | 'system' | 'account'; id: string };
  correlationId?: string;
  causationId?: string;
  at?: string;
  /** Version of the event type's data (domain/event-registry.ts); absent: 1. */
  schemaVersion?: number;
  [key: string]: unknown;
}

export interface NewEvent {
  /** uuid; derive it deterministically where a retry may repeat the append. Random when absent. */
  id?: string;
  type: string;
  data: Record<string, unknown>;
  metadata?: EventMetadata;
}

/** What an event is to the store: a type and a JSON object. Domain event unions narrow it. */
export interface AnyEvent {
  type: string;
  data: object;
}

interface RecordedEnvelope {
  id: string;
  streamId: string;
  /** 0-based revision within its stream. */
  revision: bigint;
  /** Position in `$all`; totally ordered by `comparePositions`. */
  position: Position;
  metadata: EventMetadata;
  /** When the store recorded it (ISO 8601). */
  recordedAt: string;
}

/**
 * A stored event. Untyped by default (what the store returns); `RecordedEvent<ItemEvent>` is one
 * per member of the union, so narrowing on `type` narrows `data`. Only the upcaster
 * (`upcasting.ts`) makes that claim true: it checks every event against its type's schema.
 */
export type RecordedEvent<E extends AnyEvent = { type: string; data: Record<string, unknown> }> = E extends AnyEvent
  ? RecordedEnvelope & { type: E['type']; data: E['data'] }
  : never;

export interface AppendResult {
  /** Revision of the last event now in the stream: pass it as the next expectedRevision. */
  nextExpectedRevision: bigint;
  /** Position of the last appended event (for read-your-writes waits). */
  position: Position;
}

export interface ReadAllOptions {
  /** Exclusive: events strictly after this position. Absent: from the start. */
  after?: Position;
  maxCount?: number;
}

export interface SubscribeOptions {
  /** Exclusive checkpoint: deliver events strictly after it. Absent: from the start. */
  after?: Position;
  /** Ends the subscription (the iterator returns). */
  signal?: AbortSignal;
}

export interface EventStore {
  readonly kind: 'postgres' | 'pglite' | 'eventstoredb';
  /**
   * Appends atomically. Throws `WrongExpectedRevision` on a conflict. Appending events whose ids
   * are already stored in this stream (a retried command) writes nothing and returns the stored result.
   */
  append(streamId: string, events: NewEvent[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult>;
  /** Events of one stream in revision order; [] when the stream does not exist. */
  readStream(streamId: string, options?: { fromRevision?: bigint; maxCount?: number }): Promise<RecordedEvent[]>;
  /**
   * Events of several streams in one round trip, each in revision order ([] for a stream that does
   * not exist). Optional: `readStreams` below falls back to one read per stream.
   */
  readStreams?(streamIds: readonly string[]): Promise<Map<string, RecordedEvent[]>>;
  /** Events of `$all` in global order, only those no concurrent writer can still precede. */
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /** Catch-up from the checkpoint, then follows live appends, every event once, in global order. */
  subscribeToAll(options?: SubscribeOptions): AsyncIterable<RecordedEvent>;
  /**
   * Position of the last event a subscriber can see now; null for an empty store. Start a
   * subscription here; do not wait for it: an event committed before the call can be above it
   * while an older concurrent writer is still open (see `committedHead`).
   */
  headPosition(): Promise<Position | null>;
  /**
   * Position of the last committed event; null for an empty store. Every append that returned
   * before the call is at or before it, so waiting for read models to reach it is read-your-writes
   * for everything written so far. It can be ahead of `headPosition`: subscribers reach it once the
   * older concurrent writers have finished.
   */
  committedHead(): Promise<Position | null>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export class WrongExpectedRevision extends Error {
  readonly streamId: string;
  readonly expected: ExpectedRevision;
  readonly actual: bigint | 'no_stream';
  constructor(
    streamId: string,
    expected: ExpectedRevision,
    actual: bigint | 'no_stream',
  ) {
    super(`Wrong expected revision on ${streamId}: expected ${String(expected)}, actual ${String(actual)}`);
    this.streamId = streamId;
    this.expected = expected;
    this.actual = actual;
    this.name = 'WrongExpectedRevision';
  }
}

/** Reads many streams: the store's batch read where it has one (Postgres, PGlite), else a few single reads at a time (EventStoreDB). */
export async function readStreams(store: EventStore, streamIds: readonly string[]): Promise<Map<string, RecordedEvent[]>> {
  const unique = [...new Set(streamIds)];
  if (store.readStreams) return store.readStreams(unique);
  const found = new Map<string, RecordedEvent[]>();
  const CONCURRENT = 16;
  for (let start = 0; start < unique.length; start += CONCURRENT) {
    const chunk = unique.slice(start, start + CONCURRENT);
    const read = await Promise.all(chunk.map((id) => store.readStream(id)));
    chunk.forEach((id, i) => found.set(id, read[i]!));
  }
  return found;
}
