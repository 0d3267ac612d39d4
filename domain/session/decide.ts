// Recording shopper events on a session: repeats of a client event id are dropped (already on the
// stream, or earlier in the same batch), a session holds at most MAX_EVENTS_PER_SESSION, and each
// event is recorded with whether it counts (admission.ts). Agent turns and search results shown
// are recorded on a session of their own organization only, up to a cap each.
import { Conflict } from '../errors.js';
import type { CommandMeta } from '../metadata.js';
import { admit, type AdmissionFacts, type ShopperEventLimits } from './admission.js';
import type { AgentTurnCompleted, SearchResultsShown, SessionEvent, ShopperEvent } from './events.js';
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
    /** What the write side read about the items, datasets and intents the events name. */
    facts: AdmissionFacts;
    limits: ShopperEventLimits;
  };
}

/** Agent turns one session records; past it turns still run, unrecorded (a widget session lasts a day). */
export const MAX_AGENT_TURNS_PER_SESSION = 1000;

export interface RecordAgentTurn {
  type: 'RecordAgentTurn';
  data: Omit<AgentTurnCompleted['data'], 'at'>;
}

/** Searches one session records the results of; past it searches still answer, unrecorded. */
export const MAX_SEARCHES_PER_SESSION = 1000;

export interface RecordSearchResults {
  type: 'RecordSearchResults';
  data: Omit<SearchResultsShown['data'], 'at'>;
}

export type SessionCommand = RecordShopperEvents | RecordAgentTurn | RecordSearchResults;

/**
 * A chat request names its session in the body, unauthenticated (document 2: "never used for
 * authorization"), so a turn is recorded only on a session of its own organization (or a new one),
 * and only up to the cap: a request cannot write into another tenant's analytics, nor grow a
 * session's stream without bound. Past either, nothing is recorded and the turn is unaffected.
 */
export const recordAgentTurn = (command: RecordAgentTurn, state: SessionState, { now }: CommandMeta): SessionEvent[] => {
  if (state.organizationId !== null && state.organizationId !== command.data.organizationId) return [];
  if (state.agentTurns >= MAX_AGENT_TURNS_PER_SESSION) return [];
  return [{ type: 'AgentTurnCompleted', data: { ...command.data, at: now } }];
};

/** As an agent turn: a search names its session unauthenticated, so only a session of its own organization (or a new one) records it, up to the cap. */
export const recordSearchResults = (command: RecordSearchResults, state: SessionState, { now }: CommandMeta): SessionEvent[] => {
  if (command.data.shown.length === 0) return [];
  if (state.organizationId !== null && state.organizationId !== command.data.organizationId) return [];
  if (state.searches >= MAX_SEARCHES_PER_SESSION) return [];
  return [{ type: 'SearchResultsShown', data: { ...command.data, at: now } }];
};

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
  const { sessionId, organizationId, demo, receivedAt, facts, limits } = command.data;
  const recorded = admit(events, { sessionId, organizationId, revenue: state.revenue }, facts, limits);
  return [{ type: 'ShopperEventsRecorded', data: { sessionId, organizationId, demo, receivedAt, events: recorded, at: now } }];
};

export const decide = (command: SessionCommand, state: SessionState, meta: CommandMeta): SessionEvent[] => {
  switch (command.type) {
    case 'RecordShopperEvents':
      return recordShopperEvents(command, state, meta);
    case 'RecordAgentTurn':
      return recordAgentTurn(command, state, meta);
    case 'RecordSearchResults':
      return recordSearchResults(command, state, meta);
    default: {
      const unknown: never = command;
      throw new Error(`unknown session command ${String((unknown as { type: string }).type)}`);
    }
  }
};
