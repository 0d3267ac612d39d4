// An EventStore decorator between the store and everything that reads events (deciders,
// projectors, the CLI): every event read comes out at its type's latest version, checked against
// that version's schema, and every append is stamped with the version this build writes. An event
// that fails the check stops the read with an error naming its stream, revision, position and type.
import { latestVersion, SCHEMA_VERSION, upcastEventData } from '../../domain/event-registry.js';
import type { EventStore, NewEvent, RecordedEvent } from './port.js';
import { positionToString } from './position.js';

export class InvalidStoredEvent extends Error {
  override name = 'InvalidStoredEvent';
  readonly event: RecordedEvent;
  constructor(
    event: RecordedEvent,
    detail: string,
  ) {
    super(
      `invalid event in the store: ${event.type} at revision ${event.revision} of stream ${event.streamId} ` +
        `(position ${positionToString(event.position)}, id ${event.id}): ${detail}`,
    );
    this.event = event;
  }
}

export function upcastEvent(event: RecordedEvent): RecordedEvent {
  const stamped = event.metadata[SCHEMA_VERSION];
  const version = stamped === undefined ? 1 : Number(stamped);
  try {
    const upcast = upcastEventData(event.type, version, event.data);
    if (upcast.data === event.data) return event;
    return { ...event, data: upcast.data, metadata: { ...event.metadata, [SCHEMA_VERSION]: upcast.version } };
  } catch (error) {
    throw new InvalidStoredEvent(event, error instanceof Error ? error.message : String(error));
  }
}

const stamp = (event: NewEvent): NewEvent => {
  const version = latestVersion(event.type);
  if (version === undefined || event.metadata?.[SCHEMA_VERSION] !== undefined) return event;
  return { ...event, metadata: { ...event.metadata, [SCHEMA_VERSION]: version } };
};

const isRecordedEvent = (value: unknown): value is RecordedEvent =>
  typeof value === 'object' && value !== null && 'streamId' in value && 'revision' in value && 'position' in value && 'type' in value && 'data' in value;

/** Upcasts the events in whatever a read returns: an event, or arrays, maps and records of them. */
function upcastResult(value: unknown): unknown {
  if (isRecordedEvent(value)) return upcastEvent(value);
  if (Array.isArray(value)) return value.map(upcastResult);
  if (value instanceof Map) return new Map([...value].map(([key, entry]) => [key, upcastResult(entry)]));
  if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, upcastResult(entry)]));
  }
  return value;
}

const ported = new Set<string>(['kind', 'append', 'readStream', 'readAll', 'subscribeToAll', 'headPosition', 'committedHead', 'ping', 'close']);

export function upcasting(store: EventStore): EventStore {
  async function* subscribeToAll(options?: Parameters<EventStore['subscribeToAll']>[0]): AsyncGenerator<RecordedEvent> {
    for await (const event of store.subscribeToAll(options)) yield upcastEvent(event);
  }
  const decorated: EventStore = {
    kind: store.kind,
    append: (streamId, events, options) => store.append(streamId, events.map(stamp), options),
    readStream: async (...args) => (await store.readStream(...args)).map(upcastEvent),
    readAll: async (...args) => (await store.readAll(...args)).map(upcastEvent),
    subscribeToAll,
    headPosition: () => store.headPosition(),
    committedHead: () => store.committedHead(),
    ping: () => store.ping(),
    close: () => store.close(),
  };
  // Reads the port may gain (a batch read of many streams) come out upcast too, whatever their name.
  for (const key of Object.keys(store)) {
    const member = (store as unknown as Record<string, unknown>)[key];
    if (ported.has(key) || typeof member !== 'function') continue;
    (decorated as unknown as Record<string, unknown>)[key] = async (...args: unknown[]) =>
      upcastResult(await (member as (...a: unknown[]) => unknown).apply(store, args));
  }
  return decorated;
}
