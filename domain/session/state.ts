// What a session's stream says that matters to the next batch of shopper events: how many are
// recorded (the per-session cap) and which client event ids were already seen (idempotency).
import type { SessionEvent } from './events.js';

export interface SessionState {
  /** Shopper events recorded on the session so far. */
  recorded: number;
  /** Every client `eventId` recorded on the session. */
  eventIds: ReadonlySet<string>;
  /** The organization the session's first event belongs to; a session never changes hands. */
  organizationId: string | null;
  /** Agent turns recorded on the session. */
  agentTurns: number;
}

export const initialState: SessionState = { recorded: 0, eventIds: new Set(), organizationId: null, agentTurns: 0 };

export const evolve = (state: SessionState, event: SessionEvent): SessionState => {
  switch (event.type) {
    case 'ShopperEventsRecorded': {
      const ids = event.data.events.flatMap((shopperEvent) => (shopperEvent.eventId === null ? [] : [shopperEvent.eventId]));
      return {
        ...state,
        recorded: state.recorded + event.data.events.length,
        eventIds: ids.length ? new Set([...state.eventIds, ...ids]) : state.eventIds,
        organizationId: state.organizationId ?? event.data.organizationId,
      };
    }
    case 'AgentTurnCompleted':
      return { ...state, agentTurns: state.agentTurns + 1, organizationId: state.organizationId ?? event.data.organizationId };
    default: {
      // A newer build's event type: leave the state alone (DESIGN "Absorb").
      const unknown: never = event;
      void unknown;
      return state;
    }
  }
};
