import t from 'tap';
import { upcastEventData } from '../../domain/event-registry.js';
import { Conflict } from '../../domain/errors.js';
import {
  DEFAULT_SHOPPER_EVENT_LIMITS,
  isIsoCurrency,
  MAX_AGENT_TURNS_PER_SESSION,
  MAX_EVENTS_PER_SESSION,
  MAX_SEARCHES_PER_SESSION,
  noFacts,
  sessionDecider,
  sessionFull,
  sessionStream,
  shopperEvent as makeShopperEvent,
  type AdmissionFacts,
  type RecordedShopperEvent,
  type SessionEvent,
  type ShopperEvent,
  type ShopperEventLimits,
  type UnverifiedReason,
} from '../../domain/session/index.js';
import { specFor, testMeta } from '../support/decider.js';

const spec = specFor(sessionDecider);
const sessionId = '0f0e0d0c-0b0a-4908-8706-050403020100';
const organizationId = '6c8a2a56-7a43-4c55-9a8e-1b8c2f1f0a01';
const receivedAt = '2026-01-02T03:04:00.000Z';

const shopperEvent = (type: ShopperEvent['type'], eventId: string | null = null): ShopperEvent => makeShopperEvent(type, { eventId });

const record = (events: ShopperEvent[], facts: AdmissionFacts = noFacts, limits: ShopperEventLimits = DEFAULT_SHOPPER_EVENT_LIMITS) => ({
  type: 'RecordShopperEvents' as const,
  data: { sessionId, organizationId, demo: false, receivedAt, events, facts, limits },
});
const counted = (event: ShopperEvent, unverified: UnverifiedReason | null = null): RecordedShopperEvent => ({ ...event, unverified });
const recorded = (events: Array<ShopperEvent | RecordedShopperEvent>): SessionEvent => ({
  type: 'ShopperEventsRecorded',
  data: { sessionId, organizationId, demo: false, receivedAt, events: events.map((e) => ('unverified' in e ? e : counted(e))), at: testMeta.now },
});
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
  spec(t, []).when(record([first, second])).then([recorded([counted(first, 'item')])]);
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

t.test('admission: an item or dataset of another organization, or unknown, is recorded but kept apart', async (t) => {
  const other = '99999999-7a43-4c55-9a8e-1b8c2f1f0a01';
  const [ownItem, otherItem, ownDataset, ownDataset2, otherDataset] = ['i-own', 'i-other', 'd-own', 'd-own-2', 'd-other'];
  const facts: AdmissionFacts = {
    items: new Map([
      [ownItem, { organizationId, datasetId: ownDataset }],
      [otherItem, { organizationId: other, datasetId: otherDataset }],
    ]),
    datasets: new Map([
      [ownDataset, organizationId],
      [ownDataset2, organizationId],
      [otherDataset, other],
    ]),
    intents: new Map(),
  };
  const e = (type: ShopperEvent['type'], fields: Partial<ShopperEvent>) => makeShopperEvent(type, fields);
  const cases: Array<[string, ShopperEvent, UnverifiedReason | null]> = [
    ['own item', e('product_click', { itemId: ownItem }), null],
    ['own item in its dataset', e('add_to_cart', { itemId: ownItem, datasetId: ownDataset }), null],
    ['own dataset alone', e('widget_open', { datasetId: ownDataset }), null],
    ["another organization's item", e('purchase', { itemId: otherItem, value: 1e6, currency: 'USD' }), 'item'],
    ['an item nobody has', e('product_view', { itemId: 'not-an-item' }), 'item'],
    ['own item named with another dataset of its own', e('purchase', { itemId: ownItem, datasetId: ownDataset2 }), 'item'],
    ["another organization's dataset", e('widget_open', { datasetId: otherDataset }), 'dataset'],
    ['a dataset nobody has', e('purchase', { datasetId: 'nope', value: 5, currency: 'CAD' }), 'dataset'],
    ['no item, no dataset', e('purchase', { value: 5, currency: 'CAD' }), null],
    ['a prototype key is not an item', e('product_view', { itemId: 'constructor' }), 'item'],
  ];
  for (const [name, event, reason] of cases) {
    t.same(sessionDecider.decide(record([event], facts), sessionDecider.initialState, testMeta), [recorded([counted(event, reason)])], name);
  }
});

t.test('admission: an intent counts only when the agent made it for this session and item', async (t) => {
  const item = 'i-own';
  const facts = (intents: AdmissionFacts['intents']): AdmissionFacts => ({ items: new Map([[item, { organizationId, datasetId: 'd' }]]), datasets: new Map(), intents });
  const outcome = (intent: string, itemId: string | null = item) => makeShopperEvent('cart_outcome', { intent, itemId });
  const decide = (event: ShopperEvent, intents: AdmissionFacts['intents']) => sessionDecider.decide(record([event], facts(intents)), sessionDecider.initialState, testMeta);
  t.same(decide(outcome('good'), new Map([['good', { sessionId, itemId: item }]])), [recorded([counted(outcome('good'))])], 'this session, this item');
  t.same(decide(outcome('good', null), new Map([['good', { sessionId, itemId: item }]])), [recorded([counted(outcome('good', null))])], 'no item named');
  t.same(decide(outcome('theirs'), new Map([['theirs', { sessionId: 'another-session', itemId: item }]])), [recorded([counted(outcome('theirs'), 'intent')])], "another session's intent");
  t.same(decide(outcome('swapped'), new Map([['swapped', { sessionId, itemId: 'i-else' }]])), [recorded([counted(outcome('swapped'), 'intent')])], 'made for another item');
  t.same(decide(outcome('forged'), new Map()), [recorded([counted(outcome('forged'), 'intent')])], 'one that did not verify (forged, expired)');
});

t.test("admission: a session's counted purchases stay within the bound per currency", async (t) => {
  const limits = { maxValue: 1000, maxSessionRevenue: 1000 };
  const buy = (value: number, currency: string | null = 'CAD', itemId: string | null = null) => makeShopperEvent('purchase', { value, currency, itemId });
  const batch = [buy(600), buy(500), buy(400), buy(900, 'USD'), buy(0), makeShopperEvent('purchase'), buy(1)];
  spec(t, [])
    .when(record(batch, noFacts, limits))
    .then([recorded([counted(buy(600)), counted(buy(500), 'session-revenue'), counted(buy(400)), counted(buy(900, 'USD')), counted(buy(0)), counted(makeShopperEvent('purchase')), counted(buy(1), 'session-revenue')])]);
  // Earlier batches count; a purchase kept apart for its item does not use the bound.
  const earlier = recorded([counted(buy(999.99)), counted(buy(500, 'CAD', 'stranger'), 'item')]);
  spec(t, [earlier]).when(record([buy(0.01), buy(0.01)], noFacts, limits)).then([recorded([counted(buy(0.01)), counted(buy(0.01), 'session-revenue')])]);
  t.same(sessionDecider.evolve(sessionDecider.initialState, earlier).revenue, new Map([['CAD', 9_999_900]]), 'in ten-thousandths, counted purchases only');
  // An add to cart carries a value but is not revenue.
  spec(t, [earlier]).when(record([makeShopperEvent('add_to_cart', { value: 5000, currency: 'CAD' })], noFacts, { maxValue: 1e6, maxSessionRevenue: 1000 })).then([recorded([makeShopperEvent('add_to_cart', { value: 5000, currency: 'CAD' })])]);
});

t.test('admission: a currency that is not ISO 4217 or a value past the bound of one event counts in nothing (any caller)', async (t) => {
  const limits = { maxValue: 100, maxSessionRevenue: 1e6 };
  const xyz = makeShopperEvent('purchase', { value: 5, currency: 'XYZ' });
  const big = makeShopperEvent('purchase', { value: 100.01, currency: 'CAD' });
  spec(t, []).when(record([xyz, big], noFacts, limits)).then([recorded([counted(xyz, 'currency'), counted(big, 'value')])]);
  t.ok(['CAD', 'USD', 'EUR', 'JPY', 'VND', 'XOF', 'XCG'].every(isIsoCurrency), 'currencies of money');
  t.notOk(['XYZ', 'XTS', 'XXX', 'XAU', 'cad', 'HRK', 'CHE'].some(isIsoCurrency), 'not codes, test and no-currency codes, metals, withdrawn, funds');
});

t.test('a version 1 batch (before events said whether they count) reads with its bad currencies and values kept apart', async (t) => {
  const v1 = {
    sessionId,
    organizationId,
    demo: false,
    receivedAt,
    at: receivedAt,
    events: [
      { ...makeShopperEvent('purchase', { value: 1e9, currency: 'XYZ' }) },
      { ...makeShopperEvent('purchase', { value: 1e9, currency: 'USD' }) },
      { ...makeShopperEvent('purchase', { value: 20, currency: 'USD', itemId: 'anything' }) },
      { ...makeShopperEvent('widget_open') },
    ],
  };
  const { data, version } = upcastEventData('ShopperEventsRecorded', 1, v1);
  t.equal(version, 2);
  t.same((data.events as RecordedShopperEvent[]).map((e) => e.unverified), ['currency', 'value', null, null], 'items were never checked and cannot be now: as they counted');
  t.throws(() => upcastEventData('ShopperEventsRecorded', 2, v1), /unverified/, 'version 2 must say');
});

t.test('search results: recorded on a new session or one of its own organization, never another\'s; capped; nothing for no results', async (t) => {
  const search = (organization = organizationId, shown = [{ itemId: 'item-1', datasetId: 'dataset-1' }]) => ({ type: 'RecordSearchResults' as const, data: { sessionId, organizationId: organization, demo: false, shown } });
  const shownEvent = (organization = organizationId): SessionEvent => ({ type: 'SearchResultsShown', data: { ...search(organization).data, at: testMeta.now } });
  spec(t, []).when(search()).then([shownEvent()]);
  spec(t, [recorded([shopperEvent('widget_open')])]).when(search()).then([shownEvent()]);
  const other = '99999999-7a43-4c55-9a8e-1b8c2f1f0a01';
  spec(t, [recorded([shopperEvent('widget_open')])]).when(search(other)).then([]);
  spec(t, [shownEvent(other)]).when(search()).then([]);
  spec(t, []).when(search(organizationId, [])).then([]);
  spec(t, Array.from({ length: MAX_SEARCHES_PER_SESSION }, () => shownEvent())).when(search()).then([]);
  t.equal(sessionDecider.evolve(sessionDecider.initialState, shownEvent()).searches, 1);
});
