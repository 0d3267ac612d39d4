// The EventStore on EventStoreDB (@eventstore/db-client v6). $all positions are EventStoreDB's
// own (commit, prepare) pair. System events (type or stream starting with `$`) are not ours and
// never reach readers: projections count only our events, and a checkpoint must be one of them.
import { randomUUID } from 'node:crypto';
import {
  ANY,
  BACKWARDS,
  END,
  EventStoreDBClient,
  NO_STREAM,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
  type AppendExpectedRevision,
  type ReadPosition,
  type RecordedEvent as EsdbRecordedEvent,
} from '@eventstore/db-client';
import { redactUrl } from '../db/database.js';
import {
  WrongExpectedRevision,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllOptions,
  type RecordedEvent,
  type SubscribeOptions,
} from './port.js';
import { comparePositions, type Position } from './position.js';

const PAGE = 500;

export async function openEventStoreDb(url: string): Promise<EventStore> {
  const client = EventStoreDBClient.connectionString(url);
  const closing = new AbortController();

  const ping = async () => {
    for await (const _ of client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: 1 })) break;
  };
  try {
    await ping();
  } catch (error) {
    await client.dispose().catch(() => {});
    throw new Error(`cannot reach EventStoreDB at ${redactUrl(url)} (${(error as Error).message})`, { cause: error });
  }

  const readStream: EventStore['readStream'] = async (streamId, { fromRevision, maxCount } = {}) => {
    const events: RecordedEvent[] = [];
    try {
      for await (const resolved of client.readStream(streamId, { fromRevision: fromRevision ?? START, ...(maxCount !== undefined ? { maxCount } : {}) })) {
        if (resolved.event) events.push(toRecordedEvent(resolved.event, resolved.commitPosition));
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return events;
  };

  // Reading $all from a position includes the event at that position: pages overlap by one
  // and everything at or before the checkpoint is dropped.
  const readAll = async ({ after, maxCount = Infinity }: ReadAllOptions = {}): Promise<RecordedEvent[]> => {
    const events: RecordedEvent[] = [];
    let cursor: Position | undefined = after;
    while (events.length < maxCount) {
      const pageSize = Math.min(PAGE, maxCount - events.length + 1);
      let read = 0;
      let last: Position | undefined;
      const fromPosition: ReadPosition = cursor ?? START;
      for await (const { event } of client.readAll({ fromPosition, maxCount: pageSize })) {
        read++;
        if (!event) continue;
        last = event.position;
        if (isSystem(event) || (cursor && comparePositions(event.position, cursor) <= 0)) continue;
        events.push(toRecordedEvent(event));
        if (events.length >= maxCount) break;
      }
      if (read < pageSize || !last) break;
      cursor = last;
    }
    return events;
  };

  async function* subscribeToAll({ after, signal }: SubscribeOptions = {}): AsyncGenerator<RecordedEvent> {
    const stop = signal ? AbortSignal.any([signal, closing.signal]) : closing.signal;
    if (stop.aborted) return;
    // The subscription starts after `fromPosition`; the position check below guards it anyway.
    const subscription = client.subscribeToAll({ fromPosition: after ?? START, filter: excludeSystemEvents() });
    const unsubscribe = () => void subscription.unsubscribe().catch(() => {});
    stop.addEventListener('abort', unsubscribe, { once: true });
    try {
      for await (const { event } of subscription) {
        if (stop.aborted) return;
        if (!event || isSystem(event) || (after && comparePositions(event.position, after) <= 0)) continue;
        yield toRecordedEvent(event);
      }
    } catch (error) {
      if (stop.aborted) return;
      throw error;
    } finally {
      stop.removeEventListener('abort', unsubscribe);
      unsubscribe();
    }
  }

  return {
    kind: 'eventstoredb',

    async append(streamId: string, events: NewEvent[], { expectedRevision }: { expectedRevision: ExpectedRevision }) {
      if (events.length === 0) throw new TypeError(`Append to ${streamId} without events`);
      const data = events.map((event) =>
        jsonEvent({ id: event.id ?? randomUUID(), type: event.type, data: event.data, metadata: event.metadata ?? {} }),
      );
      try {
        const result = await client.appendToStream(streamId, data, { expectedRevision: toEsdbExpected(expectedRevision) });
        // Servers before 22.6 leave the position out; the stream's last event carries it.
        const position = result.position ?? (await lastPosition(streamId));
        return { nextExpectedRevision: result.nextExpectedRevision, position };
      } catch (error) {
        if (error instanceof WrongExpectedVersionError) {
          throw new WrongExpectedRevision(streamId, expectedRevision, error.actualVersion);
        }
        throw error;
      }
    },

    readStream,
    readAll,
    subscribeToAll,

    headPosition,

    // EventStoreDB's $all is in commit order: what is committed is what a subscriber sees.
    committedHead: headPosition,

    ping,

    async close() {
      if (closing.signal.aborted) return;
      closing.abort();
      await client.dispose();
    },
  };

  async function headPosition(): Promise<Position | null> {
    let from: ReadPosition = END;
    for (;;) {
      let read = 0;
      let last: Position | undefined;
      for await (const { event } of client.readAll({ fromPosition: from, direction: BACKWARDS, maxCount: PAGE })) {
        read++;
        if (!event) continue;
        if (!isSystem(event)) return event.position;
        last = event.position;
      }
      if (read < PAGE || !last) return null;
      from = last;
    }
  }

  async function lastPosition(streamId: string): Promise<Position> {
    for await (const resolved of client.readStream(streamId, { fromRevision: END, direction: BACKWARDS, maxCount: 1 })) {
      if (resolved.event) return toRecordedEvent(resolved.event, resolved.commitPosition).position;
    }
    throw new Error(`EventStoreDB returned no position for the append to ${streamId}`);
  }
}

const toEsdbExpected = (expected: ExpectedRevision): AppendExpectedRevision =>
  expected === 'any' ? ANY : expected === 'no_stream' ? NO_STREAM : expected;

const isSystem = (event: { type: string; streamId: string }): boolean =>
  event.type.startsWith('$') || event.streamId.startsWith('$');

function toRecordedEvent(event: EsdbRecordedEvent, commitPosition?: bigint): RecordedEvent {
  const position = event.position ?? { commit: commitPosition ?? 0n, prepare: commitPosition ?? 0n };
  return {
    id: event.id,
    streamId: event.streamId,
    revision: event.revision,
    position,
    type: event.type,
    data: event.isJson ? (asObject(event.data) ?? {}) : { binary: Buffer.from(event.data as Uint8Array).toString('base64') },
    metadata: (asObject(event.metadata) ?? {}) as EventMetadata,
    recordedAt: event.created.toISOString(),
  };
}

const asObject = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array)
    ? (value as Record<string, unknown>)
    : undefined;
