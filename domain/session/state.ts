// What a session's stream says that matters to the next batch of shopper events: how many are
// recorded (the per-session cap), which client event ids were already seen (idempotency), the
// revenue counted so far per currency (the per-session bound), and how many agent turns and
// searches it recorded (their caps).
import type { SessionEvent } from './events.js';
import { toTenThousandths } from './money.js';

export interface SessionState {
  /** Shopper events recorded on the session so far. */
  recorded: number;
  /** Every client `eventId` recorded on the session. */
  eventIds: ReadonlySet<string>;
  /** The organization the session's first event belongs to; a session never changes hands. */
  organizationId: string | null;
  /** Agent turns recorded on the session. */
  agentTurns: number;
  /** Searches whose results the session recorded. */
  searches: number;
  /** Currency ('' for none named) → purchase values counted so far, in ten-thousandths. */
  revenue: ReadonlyMap<string, number>;
}

export const initialState: SessionState = { recorded: 0, eventIds: new Set(), organizationId: null, agentTurns: 0, searches: 0, revenue: new Map() };

export const evolve = (state: SessionState, event: SessionEvent): SessionState => {
  switch (event.type) {
    case 'ShopperEventsRecorded': {
      const ids = event.data.events.flatMap((shopperEvent) => (shopperEvent.eventId === null ? [] : [shopperEvent.eventId]));
      let revenue = state.revenue;
      for (const counted of event.data.events) {
        if (counted.type !== 'purchase' || counted.unverified !== null || counted.value === null) continue;
        if (revenue === state.revenue) revenue = new Map(state.revenue);
        const currency = counted.currency ?? '';
        (revenue as Map<string, number>).set(currency, (revenue.get(currency) ?? 0) + toTenThousandths(counted.value));
      }
      return {
        ...state,
        recorded: state.recorded + event.data.events.length,
        eventIds: ids.length ? new Set([...state.eventIds, ...ids]) : state.eventIds,
        organizationId: state.organizationId ?? event.data.organizationId,
        revenue,
      };
    }
    case 'AgentTurnCompleted':
      return { ...state, agentTurns: state.agentTurns + 1, organizationId: state.organizationId ?? event.data.organizationId };
    case 'SearchResultsShown':
      return { ...state, searches: state.searches + 1, organizationId: state.organizationId ?? event.data.organizationId };
    default: {
      // A newer build's event type: leave the state alone (DESIGN "Absorb").
      const unknown: never = event;
      void unknown;
      return state;
    }
  }
};
