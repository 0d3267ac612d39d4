import t from 'tap';
import { Conflict } from '../../domain/errors.js';
import { MAX_AGENT_TURNS_PER_SESSION, MAX_EVENTS_PER_SESSION, sessionDecider, sessionFull, sessionStream, shopperEvent as makeShopperEvent, type SessionEvent, type ShopperEvent } from '../../domain/session/index.js';
import { specFor, testMeta } from '../support/decider.js';

const spec = specFor(sessionDecider);
const sessionId = '0f0e0d0c-0b0a-4908-8706-050403020100';
const organizationId = '6c8a2a56-7a43-4c55-9a8e-1b8c2f1f0a01';
const receivedAt = '2026-01-02T03:04:00.000Z';

const shopperEvent = (type: ShopperEvent['type'], eventId: string | null = null): ShopperEvent => makeShopperEvent(type, { eventId });

const record = (events: ShopperEvent[]) => ({ type: 'RecordShopperEvents' as const, data: { sessionId, organizationId, demo: false, receivedAt, events } });
const recorded = (events: ShopperEvent[]): SessionEvent => ({ type: 'ShopperEventsRecorded', data: { sessionId, organizationId, demo: false, receivedAt, events, at: testMeta.now } });

t.equal(sessionDecider.streamId(record([])), sessionStream(sessionId));
t.equal(sessionStream(sessionId), `session-${sessionId}`);

t.test('a new session records the batch as one event, with the time received', async (t) => {
  const batch = [shopperEvent('widget_open', 'a'), shopperEvent('message_sent')];
  spec(t, []).when(record(batch)).then([recorded(batch)]);
});

t.test('ids already recorded on the session are dropped; events without an id always count', async (t) => {
  spec(t, [recorded([shopperEvent('widget_open', 'a'), shopperEvent('message_sent')])])
    .when(record([shopperEvent('widget_open', 'a'), shopperEvent('message_sent'), shopperEvent('product_view', 'b')]))
    .then([recorded([shopperEvent('message_sent'), shopperEvent('product_view', 'b')])]);
});

t.test('an id repeated within the batch counts once, the first one', async (t) => {
  const first = { ...shopperEvent('product_click', 'x'), itemId: 'first' };
  const second = { ...shopperEvent('product_click', 'x'), itemId: 'second' };
  spec(t, []).when(record([first, second])).then([recorded([first])]);
});

t.test('only repeats: nothing changes', async (t) => {
  spec(t, [recorded([shopperEvent('widget_open', 'a')])]).when(record([shopperEvent('widget_open', 'a'), shopperEvent('widget_open', 'a')])).then([]);
});

t.test('the session cap counts new events only, and refuses the whole batch past it', async (t) => {
  const full = Array.from({ length: MAX_EVENTS_PER_SESSION - 1 }, (_, i) => shopperEvent('product_view', `v${i}`));
  spec(t, [recorded(full)]).when(record([shopperEvent('purchase')])).then([recorded([shopperEvent('purchase')])]);
  spec(t, [recorded(full)]).when(record([shopperEvent('product_view', 'v0'), shopperEvent('purchase')])).then([recorded([shopperEvent('purchase')])]);
  spec(t, [recorded(full)]).when(record([shopperEvent('purchase'), shopperEvent('purchase')])).thenThrows(Conflict, sessionFull());
  spec(t, [recorded(full), recorded([shopperEvent('purchase')])]).when(record([shopperEvent('product_view', 'v1')])).then([]);
});

t.test('an unknown event type leaves the state alone', async (t) => {
  const state = sessionDecider.evolve(sessionDecider.initialState, { type: 'SomethingNewer', data: {} } as unknown as SessionEvent);
  t.same(state, sessionDecider.initialState);
});

t.test('an agent turn: recorded on a new session or one of its own organization; never on another organization\'s; capped per session', async (t) => {
  const turn = (organization = organizationId, turnId = '11111111-2222-4333-8444-555555555555') => ({
    sessionId,
    organizationId: organization,
    demo: false,
    turnId,
    outcome: 'done' as const,
    model: 'offline-stylist',
    shown: [{ itemId: 'item-1', datasetId: 'dataset-1' }],
    tools: [{ name: 'lookup_products', ok: true, ms: 3 }],
    timings: { modelCalls: 2, firstEventMs: 4, firstResultsMs: 9, totalMs: 20 },
    visit: null,
  });
  const completed = (data: ReturnType<typeof turn>): SessionEvent => ({ type: 'AgentTurnCompleted', data: { ...data, at: testMeta.now } });
  spec(t, []).when({ type: 'RecordAgentTurn', data: turn() }).then([completed(turn())]);
  spec(t, [recorded([shopperEvent('widget_open')])]).when({ type: 'RecordAgentTurn', data: turn() }).then([completed(turn())]);
  const other = '99999999-7a43-4c55-9a8e-1b8c2f1f0a01';
  spec(t, [recorded([shopperEvent('widget_open')])]).when({ type: 'RecordAgentTurn', data: turn(other) }).then([]);
  spec(t, [completed(turn(other))]).when({ type: 'RecordAgentTurn', data: turn() }).then([]);
  const full = Array.from({ length: MAX_AGENT_TURNS_PER_SESSION }, () => completed(turn()));
  spec(t, full).when({ type: 'RecordAgentTurn', data: turn() }).then([]);
  // Shopper events of the session still count after agent turns (the turns are not shopper events).
  spec(t, [completed(turn())]).when(record([shopperEvent('widget_open')])).then([recorded([shopperEvent('widget_open')])]);
});
