// Recording shopper events on a session: repeats of a client event id are dropped (already on the
// stream, or earlier in the same batch), and a session holds at most MAX_EVENTS_PER_SESSION.
import { Conflict } from '../errors.js';
import type { CommandMeta } from '../metadata.js';
import type { SessionEvent, ShopperEvent } from './events.js';
import type { SessionState } from './state.js';

/** Shopper events one session may record: a widget session lasts a day; a shopper sends far fewer. */
export const MAX_EVENTS_PER_SESSION = 1000;

export const sessionFull = (limit = MAX_EVENTS_PER_SESSION): string =>
  `Session event limit reached: a session records at most ${limit} events. Start a new session with GET /v1/widget/preflight.`;

export interface RecordShopperEvents {
  type: 'RecordShopperEvents';
  data: {
    sessionId: string;
    organizationId: string;
    demo: boolean;
    /** When the service received the request. */
    receivedAt: string;
    events: ShopperEvent[];
  };
}

export type SessionCommand = RecordShopperEvents;

/** The events of a batch not yet recorded: the first of each client id wins, events without one always count. */
export const freshEvents = (state: SessionState, events: readonly ShopperEvent[]): ShopperEvent[] => {
  const seen = new Set<string>();
  return events.filter((event) => {
    if (event.eventId === null) return true;
    if (state.eventIds.has(event.eventId) || seen.has(event.eventId)) return false;
    seen.add(event.eventId);
    return true;
  });
};

export const recordShopperEvents = (command: RecordShopperEvents, state: SessionState, { now }: CommandMeta): SessionEvent[] => {
  const events = freshEvents(state, command.data.events);
  // Only repeats: nothing changes (a retried request, say).
  if (events.length === 0) return [];
  if (state.recorded + events.length > MAX_EVENTS_PER_SESSION) throw new Conflict(sessionFull());
  const { sessionId, organizationId, demo, receivedAt } = command.data;
  return [{ type: 'ShopperEventsRecorded', data: { sessionId, organizationId, demo, receivedAt, events, at: now } }];
};

export const decide = (command: SessionCommand, state: SessionState, meta: CommandMeta): SessionEvent[] => {
  switch (command.type) {
    case 'RecordShopperEvents':
      return recordShopperEvents(command, state, meta);
    default: {
      const unknown: never = command.type;
      throw new Error(`unknown session command ${String(unknown)}`);
    }
  }
};
