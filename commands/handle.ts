// The whole command handler: read the stream, fold, decide, append with the expected revision.
// A conflict means someone else wrote first: re-read and decide again.
import { v5 as uuidv5 } from 'uuid';
import type { Decider } from '../domain/decider.js';
import type { CommandMeta } from '../domain/metadata.js';
import { readStreams, WrongExpectedRevision, type EventStore, type NewEvent, type Position, type RecordedEvent } from '../infra/eventstore/port.js';

// Namespace for event ids derived from a command's correlation id (uuid v5).
const EVENT_ID_NAMESPACE = '3b7c1e52-8f0d-4f3a-9d57-6d2f5c1a9e40';

export interface DomainEvent {
  type: string;
  data: object;
}

export interface Handled<E, S> {
  events: E[];
  state: S;
  /** Where the last new event landed; null when the decision appended nothing. */
  position: Position | null;
}

export interface HandleOptions {
  /** Stamped into every event's metadata so reads and audits stay scoped; default: the event's own `organizationId`. */
  organizationId?: string;
  maxAttempts?: number;
}

export async function handleCommand<C extends { type: string }, E extends DomainEvent, S>(
  store: EventStore,
  decider: Decider<C, E, S>,
  command: C,
  meta: CommandMeta,
  options: HandleOptions = {},
): Promise<Handled<E, S>> {
  const streamId = decider.streamId(command);
  const maxAttempts = options.maxAttempts ?? 5;
  for (let attempt = 1; ; attempt++) {
    const recorded = await store.readStream(streamId);
    const past = recorded.map((event) => ({ type: event.type, data: event.data }) as unknown as E);
    const state = past.reduce(decider.evolve, decider.initialState);
    const events = decider.decide(command, state, meta);
    const after = events.reduce(decider.evolve, state);
    if (events.length === 0) return { events, state: after, position: null };
    const last = recorded.at(-1);
    try {
      const result = await store.append(
        streamId,
        events.map((event, index) => newEvent(streamId, command.type, event, index, meta, options)),
        { expectedRevision: last ? last.revision : 'no_stream' },
      );
      return { events, state: after, position: result.position };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevision) || attempt >= maxAttempts) throw error;
    }
  }
}

const newEvent = (streamId: string, commandType: string, event: DomainEvent, index: number, meta: CommandMeta, options: HandleOptions): NewEvent => ({
  // Deterministic: the same request retried appends the same ids, which the store drops.
  id: uuidv5(`${meta.correlationId}/${streamId}/${commandType}/${index}`, EVENT_ID_NAMESPACE),
  type: event.type,
  data: event.data as Record<string, unknown>,
  metadata: {
    ...organizationOf(options.organizationId, event.data),
    actor: meta.actor,
    correlationId: meta.correlationId,
    causationId: meta.correlationId,
    at: meta.now,
  },
});

const organizationOf = (given: string | undefined, data: object): { organizationId?: string } => {
  const own = (data as { organizationId?: unknown }).organizationId;
  const organizationId = given ?? (typeof own === 'string' ? own : undefined);
  return organizationId ? { organizationId } : {};
};

/** The current state of one stream, for commands that need a fact from it before deciding. */
export async function loadState<C, E extends DomainEvent, S>(store: EventStore, decider: Decider<C, E, S>, streamId: string): Promise<S> {
  return (await readKnown(store, decider, streamId)).state;
}

/** A stream as a caller already read it: its folded state and the revision of its last event. */
export interface KnownStream<S> {
  state: S;
  /** Revision of the last event; 'no_stream' when empty. */
  revision: bigint | 'no_stream';
}

/** Reads a stream once for a caller that will run several commands on it in a row. */
export async function readKnown<C, E extends DomainEvent, S>(store: EventStore, decider: Decider<C, E, S>, streamId: string): Promise<KnownStream<S>> {
  const recorded = await store.readStream(streamId);
  const state = recorded.map((event) => ({ type: event.type, data: event.data }) as unknown as E).reduce(decider.evolve, decider.initialState);
  return { state, revision: recorded.at(-1)?.revision ?? 'no_stream' };
}

/**
 * `handleCommand` for a caller that already holds the stream: decides on the known state and
 * appends expecting its revision, skipping the read. Someone else having written meanwhile is the
 * usual conflict: the command is run again the ordinary way, reading the stream.
 */
export async function handleKnown<C extends { type: string }, E extends DomainEvent, S>(
  store: EventStore,
  decider: Decider<C, E, S>,
  command: C,
  meta: CommandMeta,
  known: KnownStream<S>,
  options: HandleOptions = {},
): Promise<Handled<E, S> & { known: KnownStream<S> }> {
  const streamId = decider.streamId(command);
  const events = decider.decide(command, known.state, meta);
  const after = events.reduce(decider.evolve, known.state);
  if (events.length === 0) return { events, state: after, position: null, known };
  try {
    const result = await store.append(streamId, events.map((event, index) => newEvent(streamId, command.type, event, index, meta, options)), { expectedRevision: known.revision });
    return { events, state: after, position: result.position, known: { state: after, revision: result.nextExpectedRevision } };
  } catch (error) {
    if (!(error instanceof WrongExpectedRevision)) throw error;
    const handled = await handleCommand(store, decider, command, meta, options);
    return { ...handled, known: await readKnown(store, decider, streamId) };
  }
}

/** One command's outcome in `handleMany`. */
export type ManyHandled<E, S> =
  | (Handled<E, S> & { ok: true; /** true: this command (same correlation id) had run before; `events` are the ones it appended then. */ repeated: boolean })
  | { ok: false; error: unknown };

/**
 * `handleCommand` for many commands on distinct streams at once: one batch read of all their
 * streams, then each decided on its own stream's state and appended with that stream's revision
 * (concurrently, so the store can group-commit). A conflict re-reads that one stream and decides
 * again. A command whose events are already in its stream (a retry of the same request, found by
 * the event ids its correlation id derives) appends nothing and answers with those events.
 */
export async function handleMany<C extends { type: string }, E extends DomainEvent, S>(
  store: EventStore,
  decider: Decider<C, E, S>,
  commands: readonly C[],
  meta: CommandMeta,
  options: HandleOptions = {},
): Promise<Array<ManyHandled<E, S>>> {
  const streams = await readStreams(store, commands.map((command) => decider.streamId(command)));
  // Every conflict means another writer got a revision in: many writers on one hot stream all get through.
  const maxAttempts = options.maxAttempts ?? 20;
  return Promise.all(
    commands.map(async (command): Promise<ManyHandled<E, S>> => {
      const streamId = decider.streamId(command);
      let recorded = streams.get(streamId) ?? [];
      try {
        for (let attempt = 1; ; attempt++) {
          const state = recorded.map((event) => ({ type: event.type, data: event.data }) as unknown as E).reduce(decider.evolve, decider.initialState);
          const earlier = ownEvents(recorded, streamId, command.type, meta);
          if (earlier.length) return { ok: true, repeated: true, events: earlier.map((event) => ({ type: event.type, data: event.data }) as unknown as E), state, position: earlier.at(-1)!.position };
          const events = decider.decide(command, state, meta);
          const after = events.reduce(decider.evolve, state);
          if (events.length === 0) return { ok: true, repeated: false, events, state: after, position: null };
          try {
            const expectedRevision = recorded.at(-1)?.revision ?? 'no_stream';
            const result = await store.append(streamId, events.map((event, index) => newEvent(streamId, command.type, event, index, meta, options)), { expectedRevision });
            return { ok: true, repeated: false, events, state: after, position: result.position };
          } catch (error) {
            if (!(error instanceof WrongExpectedRevision) || attempt >= maxAttempts) throw error;
            recorded = await store.readStream(streamId);
          }
        }
      } catch (error) {
        return { ok: false, error };
      }
    }),
  );
}

/** The events this command appended before under the same correlation id, in order. */
const ownEvents = (recorded: readonly RecordedEvent[], streamId: string, commandType: string, meta: CommandMeta): RecordedEvent[] => {
  const byId = new Map(recorded.map((event) => [event.id, event]));
  const found: RecordedEvent[] = [];
  for (let index = 0; ; index++) {
    const event = byId.get(uuidv5(`${meta.correlationId}/${streamId}/${commandType}/${index}`, EVENT_ID_NAMESPACE));
    if (!event) return found;
    found.push(event);
  }
};
