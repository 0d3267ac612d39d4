// POST /v2/agent/chat through HTTP with the agent worker running, driven by an OpenAI-compatible
// model (a local fake server that streams scripted text and tool calls): the stream's events and
// their order, the tools against a catalogue the test makes itself (market prices, photos linked,
// nothing unavailable or out of scope ever shown), the cart and its intents, history replay,
// errors before and after the stream, the ten-call bound, stream: false, and the turn recorded on
// the widget session. The same file runs on the embedded stores and, in the integration run, on
// Postgres with the turn carried over NATS.
import t from 'tap';
import { readCartIntent } from '../../infra/tokens/cart-intent.js';
import { chat, eventsNamed, shownProducts, SMALL_STORE, storeWith, user, type StoreSetup } from '../support/agent.js';
import { startFakeOpenAi, type ChatRequestBody, type FakeReply } from '../support/fake-openai.js';
import { startTestService, type TestService } from '../support/service.js';
import { until } from '../support/until.js';

/** What the fake model does next, from the conversation it was sent. */
type Plan = (turn: { lastUser: string; results: Array<{ name: string; output: any }>; body: ChatRequestBody }) => FakeReply;

const call = (name: string, args: object | string, id?: string) => ({ toolCalls: [{ ...(id ? { id } : {}), name, arguments: typeof args === 'string' ? args : JSON.stringify(args) }] });

function conversationOf(body: ChatRequestBody): { lastUser: string; results: Array<{ name: string; output: any }> } {
  const messages = body.messages;
  const last = messages.map((m: any) => m.role).lastIndexOf('user');
  const lastUser = typeof messages[last].content === 'string' ? messages[last].content : messages[last].content.map((p: any) => p.text ?? '').join(' ');
  const names = new Map<string, string>();
  for (const message of messages.slice(last)) for (const toolCall of message.tool_calls ?? []) names.set(toolCall.id, toolCall.function.name);
  const results = messages
    .slice(last)
    .filter((m: any) => m.role === 'tool')
    .map((m: any) => {
      let output: any = m.content;
      try {
        output = JSON.parse(m.content);
      } catch {
        // A tool's text that is not JSON stays text.
      }
      return { name: names.get(m.tool_call_id) ?? '?', output };
    });
  return { lastUser, results };
}

/** The shopper's words choose the play; tool results move it on. */
const plan: Plan = ({ lastUser, results }) => {
  const [command, ...rest] = lastUser.split(' ');
  const argument = rest.join(' ');
  const done = results.length;
  const lastOutput = results.at(-1)?.output;
  if (lastOutput?.error) return { text: [`Sorry: ${lastOutput.error}`] };
  switch (command) {
    case 'find': // find <query>: look up, show the first three, say so
      if (done === 0) return call('lookup_products', { query: argument, limit: 5 });
      if (done === 1) return call('show_products', { label: `Found: ${argument}`, kind: 'list', itemIds: lastOutput.products.slice(0, 3).map((p: any) => p.itemId), suggestions: ['Cheaper', 'In black'] });
      return { text: ['Here are ', 'a few ', 'picks.'] };
    case 'show': // show <json itemIds>: show exactly those
      if (done === 0) return call('show_products', { label: 'Asked for', kind: 'list', itemIds: JSON.parse(argument) });
      return { text: ['Done.'] };
    case 'call': // call <tool> <json args>: one call, then a text
      if (done === 0) {
        const [name, ...json] = argument.split(' ');
        return call(name!, json.join(' '));
      }
      return { text: ['After the call.'] };
    case 'loop': // call a tool for ever
      return call('suggest_replies', { suggestions: [`again ${done}`] });
    case 'parallel':
      if (done === 0) return { toolCalls: [{ name: 'lookup_products', arguments: '{"query":"dress"}' }, { name: 'lookup_products', arguments: '{"query":"boots"}' }], parallel: true };
      return { text: ['Both looked up.'] };
    case 'think':
      return { reasoning: ['The shopper ', 'wants a dress.'], text: ['A dress, then.'] };
    case 'fail': // the model server stays down
      return { status: 500 };
    default:
      return { text: ['Hello.'] };
  }
};

interface Setup {
  service: TestService;
  store: StoreSetup;
  key: string;
  requests: () => ChatRequestBody[];
}

let shared: Promise<Setup> | undefined;

/**
 * One service, model and store for the file (each test talks in its own words; the one that
 * archives a dataset makes a store of its own): a service with the ingest and agent workers costs
 * seconds to start.
 */
const setUp = (): Promise<Setup> =>
  (shared ??= (async () => {
    const fake = await startFakeOpenAi(t, (body) => plan({ ...conversationOf(body), body }));
    const service = await startTestService(t, {
      workers: ['ingest', 'agent'],
      env: { STYLIST_CHAT_MODEL: 'fake-model', OPENAI_BASE_URL: fake.baseURL, OPENAI_API_KEY: 'sk-test-secret', STYLIST_CHAT_RETRIES: '1', STYLIST_CHAT_TIMEOUT_SECONDS: '5' },
    });
    const store = await storeWith(service, SMALL_STORE);
    return { service, store, key: store.org.publicKey, requests: () => fake.requests.map((r) => r.body) };
  })());

t.test('a streamed turn: events in order, products priced and linked, a replay-ready history', async (t) => {
  const { service, key, store } = await setUp();
  const answer = await chat(service, key, { messages: [user('find red dress')], country: 'us' });
  t.equal(answer.statusCode, 200);
  t.match(answer.headers['content-type'], /^text\/event-stream/);
  t.equal(answer.headers['x-ratelimit-resource'], 'api.v2.agent.chat');
  t.ok(answer.headers['x-ratelimit-quota-remaining'], 'rate-limit headers on the stream response');
  const names = answer.events.map((e) => e.event);
  t.same(names.filter((n) => n !== 'text_delta'), ['tool_called', 'tool_output', 'tool_called', 'search_results', 'suggestions', 'tool_output', 'done']);
  t.same(eventsNamed(answer, 'text_delta').map((d) => d.delta).join(''), 'Here are a few picks.');
  t.ok(names.indexOf('text_delta') > names.indexOf('search_results'), 'the text came after the cards, as the model wrote it');
  const [called] = eventsNamed(answer, 'tool_called');
  t.match(called, { callId: String, name: 'lookup_products', arguments: { query: 'red dress', limit: 5 } });
  const [output] = eventsNamed(answer, 'tool_output');
  t.match(output, { callId: called.callId, name: 'lookup_products', ok: true, output: { currency: 'EUR', products: Array }, ms: Number });
  const [results] = eventsNamed(answer, 'search_results');
  t.match(results, { kind: 'list', label: 'Found: red dress' });
  t.ok(results.results.length >= 1);
  for (const shown of results.results) {
    t.match(shown, { itemId: String, datasetId: store.datasetId, store: { name: 'Acme' }, metadata: { slot: String }, product: { name: String, currency: 'EUR', available: true, marketExact: false } });
    t.not(shown.itemId, store.items.get('DRESS-SOLD'), 'the sold-out dress is never shown');
  }
  const first = results.results[0].product;
  t.ok(first.assets.images.every((image: any) => image.uploaded.url.includes('/v1/image/')), 'photos linked');
  t.same(eventsNamed(answer, 'suggestions'), [{ suggestions: ['Cheaper', 'In black'] }]);
  t.match(answer.done, { turnId: String, text: 'Here are a few picks.', usage: { modelCalls: 3, toolCalls: 2 } });
  const history = answer.done.history;
  t.same(history[0], { role: 'user', content: 'find red dress' });
  t.same(history.map((h: any) => h.type ?? h.role), ['user', 'function_call', 'function_call_result', 'function_call', 'function_call_result', 'message']);
  t.match(history[1], { type: 'function_call', callId: called.callId, name: 'lookup_products', status: 'completed' });
  t.match(history.at(-1), { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Here are a few picks.' }] });

  // Replayed verbatim with the next message: the model sees the whole conversation.
  const next = await chat(service, key, { messages: [...history, user('hello again')] });
  t.equal(next.statusCode, 200);
  t.equal(next.text, 'Hello.');
  t.equal(next.done.history.length, history.length + 2);
});

t.test('what the model is sent: the tools (cart tools only with a cart), the conversation as OpenAI messages, no cart photo', async (t) => {
  const { service, key, requests } = await setUp();
  await chat(service, key, { messages: [user('hi')] });
  const first = requests().at(-1)!;
  t.notOk(first.tools!.some((tool: any) => tool.function.name === 'add_to_cart'));
  t.ok(first.tools!.some((tool: any) => tool.function.name === 'lookup_products'));
  t.equal(first.messages[0].role, 'system');
  const cart = { itemCount: 1, total: 25, currency: 'EUR', items: [{ key: 'line-1', title: "Women's White Cotton T-Shirt", variant: 'M', quantity: 1, price: 25, sku: 'TW-M', image: 'https://cdn.example.com/secret-photo.jpg' }] };
  await chat(service, key, { messages: [user('call read_cart {}')], cart });
  const withCart = requests().at(-1)!;
  t.ok(withCart.tools!.some((tool: any) => tool.function.name === 'add_to_cart'));
  t.notOk(JSON.stringify(withCart).includes('secret-photo'), 'the cart line image never reaches the model');
});

t.test('the agent never shows what the shopper cannot buy, nor anything outside the scope', async (t) => {
  const { service, key, store } = await setUp();
  const other = await storeWith(service, [SMALL_STORE[0]!]);
  const ids = [store.items.get('DRESS-SOLD')!, other.items.get('DRESS-RED')!, 'not-an-id', store.items.get('DRESS-BLUE')!];
  const answer = await chat(service, key, { messages: [user(`show ${JSON.stringify(ids)}`)] });
  const shown = shownProducts(answer).map((p: any) => p.itemId);
  t.same(shown, [store.items.get('DRESS-BLUE')]);
  const [output] = eventsNamed(answer, 'tool_output');
  t.equal(output.ok, true);
  t.same(output.output.refused.map((r: any) => r.itemId), ids.slice(0, 3));
  t.match(output.output.refused[0].reason, /not available/);
  t.match(output.output.refused[1].reason, /not a product of this store/);

  const none = await chat(service, key, { messages: [user(`show ${JSON.stringify(ids.slice(0, 2))}`)] });
  t.same(shownProducts(none), [], 'nothing shown at all rather than what it may not show');
  t.match(eventsNamed(none, 'tool_output')[0], { ok: false, error: /^Nothing was shown/ });
  t.ok(none.done, 'a tool failure does not fail the turn');
});

t.test('malformed arguments, unknown tools and a scope that cannot be used go back to the model, visible on tool_output', async (t) => {
  const { service, key, requests, store } = await setUp();
  const bad = await chat(service, key, { messages: [user('call lookup_products {"query": "dress"')] });
  t.match(eventsNamed(bad, 'tool_called')[0], { name: 'lookup_products', arguments: '{"query": "dress"' });
  t.match(eventsNamed(bad, 'tool_output')[0], { ok: false, error: /^The arguments are not valid JSON/ });
  const toolMessage = requests().at(-1)!.messages.at(-1);
  t.match(toolMessage, { role: 'tool', content: /not valid JSON/ }, 'the model was told');
  t.match(bad.text, /^Sorry: The arguments are not valid JSON/, 'and answered knowing it');

  const unknown = await chat(service, key, { messages: [user('call delete_everything {}')] });
  t.match(eventsNamed(unknown, 'tool_output')[0], { ok: false, error: /^There is no tool named delete_everything/ });

  const cartless = await chat(service, key, { messages: [user('call read_cart {}')] });
  t.match(eventsNamed(cartless, 'tool_output')[0], { ok: false, error: /cart was not shared/ });

  const own = await storeWith(service, SMALL_STORE.slice(0, 2));
  await own.admin('PATCH', `/v1/datasets/${own.datasetId}/archive`);
  const archived = await chat(service, own.org.publicKey, { messages: [user('find red dress')], datasetIds: [own.datasetId] });
  t.equal(archived.statusCode, 200, 'an unusable scope does not fail the request');
  t.match(eventsNamed(archived, 'tool_output')[0], { name: 'lookup_products', ok: false, error: /not active datasets/ });
  const unknownScope = await chat(service, key, { messages: [user('hi')], datasetIds: [store.datasetId, '00000000-0000-4000-8000-000000000000'] });
  t.match(requests().at(-1)!.messages[0].content, /cannot be searched/, 'the model is told to answer without catalogue data');
  t.ok(unknownScope.done);
});

t.test('parallel tool calls run together; their events never interleave', async (t) => {
  const { service, key } = await setUp();
  const answer = await chat(service, key, { messages: [user('parallel')] });
  const names = answer.events.filter((e) => e.event.startsWith('tool_')).map((e) => `${e.event}:${e.data.arguments?.query ?? e.data.name}`);
  t.same(names, ['tool_called:dress', 'tool_output:lookup_products', 'tool_called:boots', 'tool_output:lookup_products']);
  t.equal(answer.done.history.filter((h: any) => h.type === 'function_call').length, 2);
});

t.test('at most ten model calls a turn', async (t) => {
  const { service, key, requests } = await setUp();
  const before = requests().length;
  const answer = await chat(service, key, { messages: [user('loop')] });
  t.equal(requests().length - before, 10);
  t.equal(answer.done.usage.modelCalls, 10);
  t.equal(eventsNamed(answer, 'suggestions').length, 10);
});

t.test('thinking: summaries stream only above the default level', async (t) => {
  const { service, key } = await setUp();
  const low = await chat(service, key, { messages: [user('think')] });
  t.same(low.events.filter((e) => e.event.startsWith('thinking')), []);
  const high = await chat(service, key, { messages: [user('think')], thinking: 'high' });
  t.same(high.events.filter((e) => e.event.startsWith('thinking')).map((e) => e.event), ['thinking_delta', 'thinking_delta', 'thinking']);
  t.same(eventsNamed(high, 'thinking'), [{ text: 'The shopper wants a dress.' }]);
  const refused = await chat(service, key, { messages: [user('think')], thinking: 'maximum' });
  t.equal(refused.statusCode, 422);
  t.same(refused.json, { error: 'Unsupported thinking level. Accepted levels: none, low, medium, high.', details: [{ path: 'thinking', message: 'Unsupported thinking level. Accepted levels: none, low, medium, high.' }] });
});

t.test('errors before the stream are JSON; a model that stays down is an error event with no done, and the unit is kept', async (t) => {
  const { service, key, store } = await setUp();
  const missing = await service.app.inject({ method: 'POST', url: '/v2/agent/chat', payload: { messages: [user('hi')] } });
  t.equal(missing.statusCode, 401);
  t.same(missing.json(), { error: 'API key missing.' });
  const privateKey = await chat(service, store.org.privateKey, { messages: [user('hi')] });
  t.equal(privateKey.statusCode, 401);
  t.same(privateKey.json, { error: 'Authentication failed: private key provided instead of a public key.' });
  const notJson = await service.app.inject({ method: 'POST', url: '/v2/agent/chat', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, payload: '{"messages": [' });
  t.same([notJson.statusCode, notJson.json()], [400, { error: 'Request body must be valid JSON.' }]);
  const empty = await chat(service, key, { messages: [] });
  t.equal(empty.statusCode, 422);
  t.match(empty.headers['content-type'], /application\/json/);

  const before = Number((await chat(service, key, { messages: [] })).headers['x-ratelimit-quota-remaining']);
  const failed = await chat(service, key, { messages: [user('fail')] });
  t.equal(failed.statusCode, 200, 'the stream had opened');
  t.same(failed.events.at(-1), { event: 'error', data: { error: 'The stylist could not answer right now. Please try again.' } });
  t.notOk(failed.done);
  t.equal(Number(failed.headers['x-ratelimit-quota-remaining']), before - 1, 'one unit for the request, kept');

  const json = await chat(service, key, { messages: [user('fail')], stream: false });
  t.equal(json.statusCode, 503, 'without a stream, the failure is the status (and the unit comes back)');
  t.same(json.json, { error: 'The stylist could not answer right now. Please try again.' });
});

t.test('stream: false answers one JSON body with the history', async (t) => {
  const { service, key } = await setUp();
  const answer = await chat(service, key, { messages: [user('find blue dress')], stream: null });
  t.equal(answer.statusCode, 200);
  t.match(answer.headers['content-type'], /application\/json/);
  t.match(answer.json, { turnId: String, text: 'Here are a few picks.', history: Array, usage: { modelCalls: 3 } });
  t.same(answer.json.events.map((e: any) => e.event), ['tool_called', 'tool_output', 'tool_called', 'search_results', 'suggestions', 'tool_output']);
  t.ok(answer.headers['x-ratelimit-resource']);
});

t.test('the cart: actions at market prices, intents bound to the session, a malformed snapshot reported', async (t) => {
  const { service, key, store } = await setUp();
  const tee = store.items.get('TEE-WHITE')!;
  const cart = {
    itemCount: 2,
    total: 85,
    currency: 'EUR',
    items: [
      { key: 'line-tee', title: "Women's White Cotton T-Shirt", variant: 'S', quantity: 1, price: 25, sku: 'TW-S', image: null },
      { key: 'line-dress', title: 'Blue Linen Midi Dress', variant: 'S', quantity: 1, price: 60, sku: null, image: null },
    ],
  };
  const sessionId = '3f2a1b0c-9d8e-4f7a-8b6c-5d4e3f2a1b0c';
  const add = await chat(service, key, { messages: [user(`call add_to_cart {"itemId":"${tee}","size":"M","quantity":2}`)], cart, sessionId });
  const [added] = eventsNamed(add, 'cart_action');
  t.match(added, { action: 'add', lineKey: null, product: { itemId: tee, title: "Women's White Cotton T-Shirt", variant: 'M', sku: 'TW-M' }, quantity: 2, price: 25, currency: 'EUR', intent: String, intentExpiresAt: String });
  const intent = readCartIntent(service.platform.secret, added.intent, new Date());
  t.match(intent, { sessionId, itemId: tee, action: 'add' });
  t.equal(readCartIntent('another-secret-of-32-characters-or-more!!', added.intent, new Date()), null, 'signed with the service secret');

  const anonymous = await chat(service, key, { messages: [user(`call add_to_cart {"itemId":"${tee}","size":"L"}`)], cart });
  t.equal(eventsNamed(anonymous, 'cart_action')[0].intent, null, 'no sessionId: no intent');

  const soldOut = await chat(service, key, { messages: [user(`call add_to_cart {"itemId":"${store.items.get('DRESS-BLUE')}","size":"M"}`)], cart });
  t.match(eventsNamed(soldOut, 'tool_output')[0], { ok: false, error: /Size M .* is sold out\. In stock: S/ });
  t.same(eventsNamed(soldOut, 'cart_action'), []);

  const swap = await chat(service, key, { messages: [user('call swap_cart_item {"lineKey":"line-tee","size":"L"}')], cart, sessionId });
  t.match(eventsNamed(swap, 'cart_action')[0], { action: 'swap', lineKey: 'line-tee', product: { itemId: tee, variant: 'L' }, quantity: 1, intent: String });
  const swapByName = await chat(service, key, { messages: [user('call swap_cart_item {"lineKey":"line-dress","size":"S"}')], cart });
  t.match(eventsNamed(swapByName, 'cart_action')[0], { action: 'swap', product: { itemId: store.items.get('DRESS-BLUE') } }, 'a line without sku is found by its exact name');

  const quantity = await chat(service, key, { messages: [user('call update_cart_quantity {"lineKey":"line-dress","quantity":3}')], cart });
  t.match(eventsNamed(quantity, 'cart_action')[0], { action: 'quantity', lineKey: 'line-dress', quantity: 3, price: 60, intent: null });
  const remove = await chat(service, key, { messages: [user('call remove_from_cart {"lineKey":"line-tee"}')], cart });
  t.match(eventsNamed(remove, 'cart_action')[0], { action: 'remove', lineKey: 'line-tee', quantity: 0 });
  const noLine = await chat(service, key, { messages: [user('call remove_from_cart {"lineKey":"nope"}')], cart });
  t.match(eventsNamed(noLine, 'tool_output')[0], { ok: false, error: /no line with key "nope"/ });
  const read = await chat(service, key, { messages: [user('call read_cart {}')], cart });
  t.match(eventsNamed(read, 'cart_action')[0], { action: 'read', cart: { itemCount: 2, total: 85, currency: 'EUR', lines: 2 } });
  t.notOk(JSON.stringify(eventsNamed(read, 'tool_output')).includes('image'));

  for (const malformed of [{}, { items: 'x' }, [], 'cart', 0]) {
    const answer = await chat(service, key, { messages: [user('call read_cart {}')], cart: malformed });
    t.equal(answer.statusCode, 200, `a malformed cart (${JSON.stringify(malformed)}) does not fail the request`);
    t.match(eventsNamed(answer, 'tool_output')[0], { ok: false, error: /^The cart snapshot could not be read/ });
  }
});

t.test('a turn with a sessionId is recorded on the session: what was shown, no words; assisted revenue counts it', async (t) => {
  const { service, key, store } = await setUp();
  const preflight = await service.app.inject({ method: 'GET', url: '/v1/widget/preflight', headers: { authorization: `Bearer ${key}` } });
  const { sessionId, token } = preflight.json().session;
  const answer = await chat(service, key, { messages: [user('find red dress')], sessionId, session: { device: 'mobile', locale: 'en-CA' } });
  const shown = shownProducts(answer).map((p: any) => p.itemId);
  t.ok(shown.length >= 1);
  const stream = await until('the turn recorded', () => service.platform.eventStore.readStream(`session-${sessionId}`), (events) => events.length >= 1);
  const [recorded] = stream;
  t.equal(recorded!.type, 'AgentTurnCompleted');
  t.match(recorded!.data, { sessionId, turnId: answer.done.turnId, outcome: 'done', model: 'fake-model', timings: { modelCalls: 3 }, visit: { device: 'mobile', locale: 'en-CA' } });
  t.same((recorded!.data as any).shown.map((s: any) => s.itemId), shown);
  t.notOk(JSON.stringify(recorded!.data).includes('red dress'), 'no message text is kept');
  t.notOk(JSON.stringify(recorded!.data).includes('Here are'), 'nor the answer');

  // A purchase of a product the agent showed is assisted.
  const events = await service.app.inject({
    method: 'POST',
    url: '/v1/events',
    headers: { 'x-service-session': token },
    payload: { events: [{ type: 'add_to_cart', itemId: shown[0] }, { type: 'purchase', itemId: shown[0], value: 70, currency: 'EUR' }] },
  });
  t.equal(events.statusCode, 202);
  const today = new Date().toISOString().slice(0, 10);
  const days = await until(
    'assisted revenue counted',
    async () => (await store.admin('GET', `/v1/analytics/daily?from=${today}&to=${today}`)).json(),
    (body) => body.days?.[0]?.assistedRevenue === 70,
  );
  t.equal(days.days[0].assistedRevenue, 70);
});
