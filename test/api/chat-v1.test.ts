// Chat v1 through HTTP with the agent worker running, driven by a scripted OpenAI-compatible model:
// POST /v1/chat as JSON and as a stream (document 1's three parts, `generating` while it is
// written), the chat kept by the service so the next turn builds on the last, the management
// routes (create, replace, delete, list with offset pagination), keys, scopes and the demo key,
// two messages at once, the bounds, and deletion that leaves no trace of a shopper's words in the
// database after a rebuild. Runs on the embedded stores and, in the integration run, on Postgres
// with turns carried over NATS.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import t from 'tap';
import { parseSse, SMALL_STORE, storeWith, type StoreSetup } from '../support/agent.js';
import { integrationDatabaseUrl } from '../support/database.js';
import { startFakeOpenAi, type ChatRequestBody, type FakeReply } from '../support/fake-openai.js';
import { startTestService, type TestService } from '../support/service.js';
import { until } from '../support/until.js';

const DEMO_KEY = 'sgpt-pk-demo';

const call = (name: string, args: object) => ({ toolCalls: [{ name, arguments: JSON.stringify(args) }] });

/** The shopper's last words choose the play; the tool results so far move it on. */
function plan(body: ChatRequestBody, itemIds: () => Map<string, string>): FakeReply {
  const messages = body.messages;
  const last = messages.map((m: any) => m.role).lastIndexOf('user');
  const lastUser: string = typeof messages[last].content === 'string' ? messages[last].content : messages[last].content.map((p: any) => p.text ?? '').join(' ');
  const results = messages.slice(last).filter((m: any) => m.role === 'tool').map((m: any) => JSON.parse(m.content));
  const [command, ...rest] = lastUser.split(' ');
  const argument = rest.join(' ');
  switch (command) {
    case 'find':
      if (results.length === 0) return call('lookup_products', { query: argument, color: 'red', maxPrice: 100, limit: 5 });
      if (results.length === 1) return call('show_products', { label: `Found: ${argument}`, kind: 'list', itemIds: results[0].products.slice(0, 2).map((p: any) => p.itemId) });
      return { text: ['Here are ', 'two picks.'] };
    case 'ask':
      if (results.length === 0) return call('ask_question', { question: 'Which occasion is it for?', options: ['Work', 'A party'] });
      return { text: [] };
    case 'look':
      if (results.length === 0) return call('compose_looks', { looks: [{ label: 'Summer day', itemIds: [itemIds().get('DRESS-RED'), itemIds().get('SNEAKER-WHITE')] }] });
      return { text: ['One look.'] };
    case 'slow':
      return { delayMs: 1_500, then: { text: ['Slowly.'] } };
    case 'fail':
      return { status: 500 };
    default:
      return { text: [`You said: ${lastUser}`] };
  }
}

interface Setup {
  service: TestService;
  store: StoreSetup;
  requests: () => ChatRequestBody[];
}

let shared: Promise<Setup> | undefined;

const setUp = (): Promise<Setup> =>
  (shared ??= (async () => {
    let items = new Map<string, string>();
    const fake = await startFakeOpenAi(t, (body) => plan(body, () => items));
    const service = await startTestService(t, {
      workers: ['ingest', 'agent'],
      env: { STYLIST_CHAT_MODEL: 'fake-model', OPENAI_BASE_URL: fake.baseURL, OPENAI_API_KEY: 'sk-test-secret', STYLIST_CHAT_RETRIES: '1', STYLIST_CHAT_TIMEOUT_SECONDS: '5', CHAT_MAX_PER_ORGANIZATION: '20' },
    });
    const store = await storeWith(service, SMALL_STORE);
    items = store.items;
    return { service, store, requests: () => fake.requests.map((r) => r.body) };
  })());

/** POST /v1/chat; a streamed answer read back into its events. */
async function send(service: TestService, key: string, body: object) {
  const response = await service.app.inject({ method: 'POST', url: '/v1/chat', headers: { authorization: `Bearer ${key}` }, payload: body });
  const streamed = String(response.headers['content-type'] ?? '').startsWith('text/event-stream');
  return { statusCode: response.statusCode, headers: response.headers, json: streamed ? null : response.json(), events: streamed ? parseSse(response.body) : [] };
}

/** A management call with the organization's private key. */
const manage = (service: TestService, key: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  service.app.inject({ method, url, headers: { authorization: `Bearer ${key}`, ...headers }, ...(payload !== undefined ? { payload: payload as object } : {}) });

const newOrg = async (service: TestService) => (await service.cli(['org', 'create', '--name', 'Chatty Apparel', '--json'])) as StoreSetup['org'];

t.test('a message starts a chat: the reply in three parts, a search slot with the lookup and the products shown, kept by the service', async (t) => {
  const { service, store } = await setUp();
  const answer = await send(service, store.org.publicKey, { message: 'find red dress' });
  t.equal(answer.statusCode, 200);
  t.equal(answer.headers['x-ratelimit-resource'], 'api.v1.chat.message', 'its own quota bucket');
  const { chatId, message } = answer.json;
  t.match(chatId, /^[0-9a-f-]{36}$/);
  t.equal(message.role, 'assistant');
  t.same(message.content.map((part: any) => part.type), ['output_text', 'output_slots', 'output_status']);
  t.equal(message.content[0].text, 'Here are two picks.');
  t.same(message.content[2], { type: 'output_status', status: 'resolved' });
  const [slot] = message.content[1].slots;
  t.match(slot, { type: 'search', slot: 'full body', query: 'red dress', filters: { color_family: 'red', maxPrice: 100, minPrice: null, fit: null, exclude_terms: [], boost_terms: [] } });
  t.ok(slot.results.length >= 1);
  t.same(slot.results.map((r: any) => r.displayOrder), slot.results.map((_: unknown, i: number) => i));
  for (const result of slot.results) t.ok([...store.items.values()].includes(result.itemId), 'a product of the store');
  t.notOk(slot.results.some((r: any) => r.itemId === store.items.get('DRESS-SOLD')), 'never what is sold out');

  const list = (await manage(service, store.org.privateKey, 'GET', '/v1/chat/list')).json();
  const kept = list.chats.find((c: any) => c.chatId === chatId);
  t.ok(kept, 'the chat is listed');
  t.same(kept.messages, [{ role: 'user', content: [{ type: 'input_text', text: 'find red dress' }] }, message], 'the shopper message and the reply, as answered');
});

t.test('the next message continues the chat: the model sees the earlier turn with its tool calls', async (t) => {
  const { service, store, requests } = await setUp();
  const first = await send(service, store.org.publicKey, { message: 'find blue dress' });
  const before = requests().length;
  const second = await send(service, store.org.publicKey, { message: 'hello again', chatId: first.json.chatId });
  t.equal(second.statusCode, 200);
  t.equal(second.json.chatId, first.json.chatId);
  t.equal(second.json.message.content[0].text, 'You said: hello again');
  const sent = requests().slice(before)[0]!.messages;
  const texts = sent.map((m: any) => (typeof m.content === 'string' ? m.content : '')).join('|');
  t.match(texts, /find blue dress/, 'the first message');
  t.ok(sent.some((m: any) => m.tool_calls?.some((c: any) => c.function.name === 'show_products')), 'the first turn\'s tool calls, as v2 history carries them');
  const chat = (await manage(service, store.org.privateKey, 'GET', '/v1/chat/list?limit=100')).json().chats.find((c: any) => c.chatId === first.json.chatId);
  t.equal(chat.messages.length, 4);
  t.same(chat.messages.map((m: any) => m.role), ['user', 'assistant', 'user', 'assistant']);
});

t.test('streamed: text_delta, slots, status, done; the trailing reply says generating while it is written', async (t) => {
  const { service, store } = await setUp();
  const streamed = await send(service, store.org.publicKey, { message: 'find red dress', stream: true });
  t.equal(streamed.statusCode, 200);
  t.match(streamed.headers['content-type'], /^text\/event-stream/);
  const names = streamed.events.map((e) => e.event);
  t.same([...new Set(names)], ['slots', 'text_delta', 'status', 'done']);
  t.equal(names.at(-1), 'done');
  const done = streamed.events.at(-1)!.data;
  t.equal(streamed.events.filter((e) => e.event === 'text_delta').map((e) => e.data.delta).join(''), done.message.content[0].text);
  t.same(streamed.events.find((e) => e.event === 'status')!.data, { status: 'resolved' });
  t.same(streamed.events.find((e) => e.event === 'slots')!.data.slots, done.message.content[1].slots);
  t.equal(streamed.headers['x-chat-id'], done.chatId);

  const slow = send(service, store.org.publicKey, { message: 'slow please', chatId: done.chatId, stream: true });
  const during = await until(
    'the reply being written',
    async () => (await manage(service, store.org.privateKey, 'GET', '/v1/chat/list?limit=100')).json().chats.find((c: any) => c.chatId === done.chatId),
    (chat) => chat?.messages.length === 4,
  );
  t.same(during.messages[3], { role: 'assistant', content: [{ type: 'output_text', text: '' }, { type: 'output_slots', slots: [] }, { type: 'output_status', status: 'resolved', generating: true }] });
  const finished = await slow;
  t.equal(finished.events.at(-1)!.event, 'done');
  const after = (await manage(service, store.org.privateKey, 'GET', '/v1/chat/list?limit=100')).json().chats.find((c: any) => c.chatId === done.chatId);
  t.same(after.messages[3].content[2], { type: 'output_status', status: 'resolved' }, 'generating is gone once the reply is stored');
  t.equal(after.messages[3].content[0].text, 'Slowly.');
});

t.test('a question: needs_clarification with empty slots, the question and its options in the text; looks become outfit compositions', async (t) => {
  const { service, store } = await setUp();
  const asked = await send(service, store.org.publicKey, { message: 'ask me' });
  t.same(asked.json.message.content[1], { type: 'output_slots', slots: [] });
  t.same(asked.json.message.content[2], { type: 'output_status', status: 'needs_clarification' });
  t.match(asked.json.message.content[0].text, /Which occasion is it for\?\n- Work\n- A party/);

  const look = await send(service, store.org.publicKey, { message: 'look please', stream: true });
  const done = look.events.at(-1)!.data;
  const [slot] = done.message.content[1].slots;
  t.match(slot, { type: 'outfit_compositions', compositions: [store.items.get('DRESS-RED'), store.items.get('SNEAKER-WHITE')] });
  t.same(slot.results.map((r: any) => r.itemId), slot.compositions);
});

t.test('a failed turn: the error, and the reply placeholder taken out (the shopper message stays)', async (t) => {
  const { service, store } = await setUp();
  const streamed = await send(service, store.org.publicKey, { message: 'fail now', stream: true });
  t.same(streamed.events.map((e) => e.event), ['error']);
  const failed = await send(service, store.org.publicKey, { message: 'fail again' });
  t.equal(failed.statusCode, 503);
  t.match(failed.json, { error: String });
  const chatId = failed.headers['x-chat-id'];
  t.match(chatId, /^[0-9a-f-]{36}$/, 'the chat id travels in a header, so a failed first turn can be continued');
  const chats = (await manage(service, store.org.privateKey, 'GET', '/v1/chat/list?limit=100')).json().chats;
  const failedChats = chats.filter((c: any) => c.messages[0]?.content?.[0]?.text?.startsWith('fail'));
  t.equal(failedChats.length, 2);
  t.ok(failedChats.some((c: any) => c.chatId === chatId));
  for (const chat of failedChats) t.same(chat.messages.map((m: any) => m.role), ['user'], 'only the shopper message is kept');
});

t.test('keys, scopes, other organizations and the demo key', async (t) => {
  const { service, store } = await setUp();
  const own = await send(service, store.org.publicKey, { message: 'hi' });
  const other = await newOrg(service);

  t.equal((await send(service, store.org.privateKey, { message: 'hi' })).statusCode, 401, 'send takes the public key');
  t.equal((await manage(service, store.org.publicKey, 'GET', '/v1/chat/list')).statusCode, 401, 'management takes the private key');
  const foreign = await send(service, other.publicKey, { message: 'hi', chatId: own.json.chatId });
  t.equal(foreign.statusCode, 404);
  t.same(foreign.json, { error: 'Chat not found or you do not have permission to access it.' });
  t.equal((await manage(service, other.privateKey, 'PUT', `/v1/chat/${own.json.chatId}/messages`, { messages: [] })).statusCode, 404);
  t.equal((await manage(service, other.privateKey, 'DELETE', `/v1/chat/${own.json.chatId}`)).statusCode, 404);
  t.notOk((await manage(service, other.privateKey, 'GET', '/v1/chat/list')).json().chats.length, 'another organization lists none of them');

  const demo = await send(service, DEMO_KEY, { message: 'hello demo' });
  t.equal(demo.statusCode, 200, 'the demo key sends messages');
  t.equal((await send(service, DEMO_KEY, { message: 'again', chatId: demo.json.chatId })).statusCode, 200, 'and continues its own chat');
  t.equal((await send(service, DEMO_KEY, { message: 'hi', chatId: own.json.chatId })).statusCode, 404, "another organization's chat is invisible to the demo key");
  t.equal((await send(service, store.org.publicKey, { message: 'hi', chatId: demo.json.chatId })).statusCode, 404, "and the demo organization's to others");
  t.equal((await manage(service, DEMO_KEY, 'GET', '/v1/chat/list')).statusCode, 403, 'no management with the demo key');

  const scoped = await service.cli(['key', 'create', '--org', store.org.organizationId, '--name', 'analytics only', '--scopes', 'analytics', '--json']);
  const refused = await manage(service, scoped.privateKey, 'GET', '/v1/chat/list');
  t.equal(refused.statusCode, 403);
  t.same(refused.json(), { error: 'This key does not have the "chat" scope.' });
  const chatScoped = await service.cli(['key', 'create', '--org', store.org.organizationId, '--name', 'chats', '--scopes', 'chat', '--json']);
  t.equal((await manage(service, chatScoped.privateKey, 'GET', '/v1/chat/list')).statusCode, 200);

  t.equal((await service.app.inject({ method: 'GET', url: `/v1/chat/${own.json.chatId}` })).statusCode, 410, 'retrieving one chat stays retired');
});

t.test('management: create, replace (validated, generating dropped), delete, and what the other routes then say', async (t) => {
  const { service } = await setUp();
  const org = await newOrg(service);
  const empty = await manage(service, org.privateKey, 'POST', '/v1/chat/create');
  t.equal(empty.statusCode, 201);
  t.match(empty.json().chat, { chatId: String, messages: [], createdAt: String, updatedAt: String });
  const chatId = empty.json().chat.chatId;

  const messages = [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: [{ type: 'input_text', text: 'Something for a wedding' }, { type: 'input_image', image_url: 'https://cdn.example.com/me.jpg' }] },
    {
      role: 'assistant',
      content: [
        { type: 'output_text', text: 'This dress.' },
        { type: 'output_slots', slots: [{ id: 's1', type: 'search', slot: 'full body', query: 'wedding dress', filters: { color_family: 'blue' }, results: [{ itemId: 'i1', description: 'Dress', displayOrder: 0 }] }] },
        { type: 'output_status', status: 'resolved', generating: true },
      ],
    },
  ];
  const replaced = await manage(service, org.privateKey, 'PUT', `/v1/chat/${chatId}/messages`, { messages });
  t.equal(replaced.statusCode, 200);
  const chat = replaced.json().chat;
  t.equal(chat.messages.length, 3);
  t.same(chat.messages[2].content[2], { type: 'output_status', status: 'resolved' }, 'generating is the service\'s to set');
  t.same(chat.messages[2].content[1].slots[0].filters, { fit: null, pattern: null, material: null, color_family: 'blue', color_rgb: null, family: null, exclude_terms: [], boost_terms: [], minPrice: null, maxPrice: null });
  t.ok(chat.updatedAt >= chat.createdAt);

  const refusals: Array<[unknown, string]> = [
    [{ messages: [{ role: 'robot', content: 'x' }] }, 'messages[0].role must be one of user, assistant, system.'],
    [{ messages: [{ role: 'user', content: [{ type: 'output_text', text: 'x' }] }] }, 'messages[0].content[0] must be a part of type input_text, input_image for a user message.'],
    [{ messages: [{ role: 'assistant', content: [{ type: 'output_status', status: 'done' }] }] }, 'messages[0].content[0].status must be one of resolved, needs_clarification.'],
    [{ messages: [{ role: 'user', content: 'x'.repeat(20_001) }] }, 'messages[0].content must be a string of at most 20000 characters or an array of 1 to 20 parts.'],
    [{ messages: [{ role: 'user', content: [{ type: 'input_image', image_url: 'file:///etc/passwd' }] }] }, 'messages[0].content[0].image_url must be an http or https URL of at most 2048 characters.'],
    [{ messages: Array.from({ length: 201 }, () => ({ role: 'user', content: 'x' })) }, 'messages must be an array of at most 200 messages.'],
    [{ messages: Array.from({ length: 11 }, () => ({ role: 'user', content: 'x'.repeat(19_000) })) }, 'A chat holds at most 200000 characters of text.'],
    [{ messages: 'hello' }, 'messages must be an array of at most 200 messages.'],
    [{}, 'messages must be an array of at most 200 messages.'],
  ];
  for (const [body, error] of refusals) {
    const answer = await manage(service, org.privateKey, 'PUT', `/v1/chat/${chatId}/messages`, body);
    t.equal(answer.statusCode, 422, error);
    t.equal(answer.json().error, error);
  }
  t.equal((await manage(service, org.privateKey, 'PUT', `/v1/chat/%20%20/messages`, { messages: [] })).statusCode, 422, 'a blank chat id');
  t.same((await manage(service, org.privateKey, 'PUT', `/v1/chat/%20%20/messages`, { messages: [] })).json(), { error: 'A valid chatId is required.' });
  t.equal((await manage(service, org.privateKey, 'PUT', `/v1/chat/not-a-chat/messages`, { messages: [] })).statusCode, 404);
  t.equal((await manage(service, org.privateKey, 'PUT', `/v1/chat/%20${chatId}%20/messages`, { messages: [] })).statusCode, 200, 'surrounding whitespace is trimmed');

  const deleted = await manage(service, org.privateKey, 'DELETE', `/v1/chat/${chatId}`);
  t.equal(deleted.statusCode, 200);
  t.same(deleted.json(), { deleted: true });
  t.equal((await manage(service, org.privateKey, 'DELETE', `/v1/chat/${chatId}`)).statusCode, 404, 'deleted once');
  t.equal((await manage(service, org.privateKey, 'PUT', `/v1/chat/${chatId}/messages`, { messages: [] })).statusCode, 404);
  t.equal((await send(service, org.publicKey, { message: 'hi', chatId })).statusCode, 404);
  t.notOk((await manage(service, org.privateKey, 'GET', '/v1/chat/list')).json().chats.some((c: any) => c.chatId === chatId));
});

t.test('POST /v1/chat refuses bad input with a 4xx and uses no turn', async (t) => {
  const { service, store } = await setUp();
  const cases: Array<[unknown, number, string]> = [
    [{}, 422, 'message must be a string of 1 to 4000 characters.'],
    [{ message: '   ' }, 422, 'message must be a string of 1 to 4000 characters.'],
    [{ message: 'x'.repeat(4_001) }, 422, 'message must be a string of 1 to 4000 characters.'],
    [{ message: 42 }, 422, 'message must be a string of 1 to 4000 characters.'],
    [{ message: 'hi', chatId: '  ' }, 422, 'A valid chatId is required.'],
    [{ message: 'hi', chatId: 'nope' }, 404, 'Chat not found or you do not have permission to access it.'],
    [{ message: 'hi', chatId: '7d9c1f5e-0000-4000-8000-000000000000' }, 404, 'Chat not found or you do not have permission to access it.'],
    [{ message: 'hi', datasetIds: 'all' }, 422, 'datasetIds must be an array of dataset ids.'],
    [[1, 2], 400, 'Request body must be a JSON object.'],
  ];
  for (const [body, status, error] of cases) {
    const answer = await service.app.inject({ method: 'POST', url: '/v1/chat', headers: { authorization: `Bearer ${store.org.publicKey}` }, payload: body as object });
    t.equal(answer.statusCode, status, JSON.stringify(body).slice(0, 60));
    t.equal(answer.json().error, error);
  }
  const truncated = await service.app.inject({ method: 'POST', url: '/v1/chat', headers: { authorization: `Bearer ${store.org.publicKey}`, 'content-type': 'application/json' }, payload: '{"message": "hi' });
  t.equal(truncated.statusCode, 400);
  t.same(truncated.json(), { error: 'Request body must be valid JSON.' });
});

t.test('the list: offset pagination, clamping, hasMore and every sort', async (t) => {
  const { service } = await setUp();
  const org = await newOrg(service);
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) ids.push((await manage(service, org.privateKey, 'POST', '/v1/chat/create', { messages: [{ role: 'user', content: `chat ${i}` }] })).json().chat.chatId);
  // The first chat is touched last: it leads by updatedAt, not by createdAt.
  await manage(service, org.privateKey, 'PUT', `/v1/chat/${ids[0]}/messages`, { messages: [{ role: 'user', content: 'chat 0, again' }] });
  const page = async (query: string) => (await manage(service, org.privateKey, 'GET', `/v1/chat/list${query}`)).json();

  const first = await page('');
  t.same(first.pagination, { total: 3, limit: 20, skip: 0, hasMore: false });
  t.same(first.chats.map((c: any) => c.chatId), [ids[0], ids[2], ids[1]], 'newest updatedAt first by default');
  t.same((await page('?sortBy=createdAt')).chats.map((c: any) => c.chatId), [ids[2], ids[1], ids[0]]);
  t.same((await page('?sortBy=createdAt&sortOrder=asc')).chats.map((c: any) => c.chatId), ids);
  t.same((await page('?sortBy=chatId&sortOrder=asc')).chats.map((c: any) => c.chatId), [...ids].sort());
  t.same((await page('?sortBy=nonsense&sortOrder=sideways')).chats.map((c: any) => c.chatId), [ids[0], ids[2], ids[1]], 'unknown sorts fall back to the defaults');

  const two = await page('?limit=2');
  t.same(two.pagination, { total: 3, limit: 2, skip: 0, hasMore: true });
  const rest = await page('?limit=2&skip=2');
  t.same(rest.pagination, { total: 3, limit: 2, skip: 2, hasMore: false });
  t.equal(rest.chats.length, 1);
  t.same((await page('?skip=-5&limit=abc')).pagination, { total: 3, limit: 20, skip: 0, hasMore: false }, 'negative skip is 0, a non-numeric limit the default');
  t.same((await page('?skip=x&limit=0')).pagination, { total: 3, limit: 20, skip: 0, hasMore: false });
  t.same((await page('?limit=-3')).pagination, { total: 3, limit: 1, skip: 0, hasMore: true }, 'a negative limit is 1');
  t.same((await page('?limit=500')).pagination.limit, 100, 'the limit is clamped to 100');
  t.same((await page('?skip=1e400')).chats, [], 'past the end: an empty page');
});

t.test('two messages at once to one chat are both kept, one after the other', async (t) => {
  const { service, store } = await setUp();
  const start = await send(service, store.org.publicKey, { message: 'opening line' });
  const chatId = start.json.chatId;
  const [a, b] = await Promise.all([send(service, store.org.publicKey, { message: 'first of two', chatId }), send(service, store.org.publicKey, { message: 'second of two', chatId })]);
  t.equal(a.statusCode, 200);
  t.equal(b.statusCode, 200);
  const chat = (await manage(service, store.org.privateKey, 'GET', '/v1/chat/list?limit=100')).json().chats.find((c: any) => c.chatId === chatId);
  t.equal(chat.messages.length, 6, 'three shopper messages and three replies');
  const users = chat.messages.filter((m: any) => m.role === 'user').map((m: any) => m.content[0].text);
  t.same(users.slice(0, 1), ['opening line']);
  t.same([...users.slice(1)].sort(), ['first of two', 'second of two']);
  const replies = chat.messages.filter((m: any) => m.role === 'assistant').map((m: any) => m.content[0].text);
  t.same([...replies].sort(), ['You said: first of two', 'You said: opening line', 'You said: second of two'], 'each reply in its own place');
  for (const [i, m] of chat.messages.entries()) {
    if (m.role !== 'assistant') continue;
    t.equal(replies.includes(`You said: ${chat.messages[i - 1].content[0].text}`), true, 'each reply right after its message');
    t.equal(m.content[0].text, `You said: ${chat.messages[i - 1].content[0].text}`);
  }
});

t.test('bounds: chats per organization (CHAT_MAX_PER_ORGANIZATION, 20 here) and messages per chat', async (t) => {
  const { service } = await setUp();
  const org = await newOrg(service);
  const ids: string[] = [];
  for (let i = 0; i < 20; i++) ids.push((await manage(service, org.privateKey, 'POST', '/v1/chat/create')).json().chat.chatId);
  t.equal(new Set(ids).size, 20);
  const over = await manage(service, org.privateKey, 'POST', '/v1/chat/create');
  t.equal(over.statusCode, 422);
  t.same(over.json(), { error: 'This organization has reached 20 chats; delete some before starting more.' });
  t.equal((await send(service, org.publicKey, { message: 'a new chat' })).statusCode, 422, 'a message without chatId is a new chat too');
  await manage(service, org.privateKey, 'DELETE', `/v1/chat/${ids[0]}`);
  t.equal((await manage(service, org.privateKey, 'POST', '/v1/chat/create')).statusCode, 201, 'a deleted chat gives its place back');

  const full = Array.from({ length: 199 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `m${i}` }));
  t.equal((await manage(service, org.privateKey, 'PUT', `/v1/chat/${ids[1]}/messages`, { messages: full })).statusCode, 200);
  const refused = await send(service, org.publicKey, { message: 'one more', chatId: ids[1] });
  t.equal(refused.statusCode, 422, 'a turn needs two places (the message and the reply)');
  t.same(refused.json, { error: 'This chat has reached 200 messages; start a new chat.' });
});

t.test('the shared demo never fills up: at the bound its oldest chat is deleted to make room', async (t) => {
  const { service } = await setUp();
  const ids: string[] = [];
  for (let i = 0; i < 21; i++) {
    const answer = await send(service, DEMO_KEY, { message: `demo visitor ${i}` });
    t.equal(answer.statusCode, 200, `demo chat ${i}`);
    ids.push(answer.json.chatId);
  }
  t.equal((await send(service, DEMO_KEY, { message: 'still there?', chatId: ids[0] })).statusCode, 404, 'the oldest demo chat made room (deleted, as any deleted chat)');
  t.equal((await send(service, DEMO_KEY, { message: 'still there?', chatId: ids.at(-1) })).statusCode, 200, 'the newest goes on');
});

/** Every row of every table of the test's database, as text (PGlite), or a data-only dump of its schema (Postgres). */
async function databaseText(service: TestService): Promise<string> {
  const database = service.platform.database;
  if (database.kind === 'postgres' && integrationDatabaseUrl) {
    const schema = /search_path=(\w+)/.exec(String(database.clientConfig?.options ?? ''))?.[1];
    const { stdout } = await promisify(execFile)('pg_dump', ['--data-only', ...(schema ? ['--schema', schema] : []), integrationDatabaseUrl], { maxBuffer: 512 * 1024 * 1024 });
    return stdout;
  }
  const db = database.db;
  const tables = await db
    .selectFrom('information_schema.tables' as any)
    .select(['table_schema', 'table_name'])
    .where('table_type', '=', 'BASE TABLE')
    .where('table_schema', 'not in', ['pg_catalog', 'information_schema'])
    .execute();
  const texts: string[] = [];
  for (const { table_schema, table_name } of tables as Array<{ table_schema: string; table_name: string }>) {
    const { sql } = await import('kysely');
    const rows = await sql<{ row: string }>`select t::text as row from ${sql.table(`${table_schema}.${table_name}`)} t`.execute(db);
    texts.push(...rows.rows.map((r) => r.row));
  }
  return texts.join('\n');
}

t.test('a deleted chat leaves no trace of its words in the database, after a rebuild too; the audit trail keeps that it existed', async (t) => {
  const { service, store } = await setUp();
  const phrase = `tangerine-zeppelin-${Math.random().toString(36).slice(2, 10)}`;
  const kept = `kept-walrus-${Math.random().toString(36).slice(2, 10)}`;
  const doomed = await send(service, store.org.publicKey, { message: `echo ${phrase}` });
  const survivor = await send(service, store.org.publicKey, { message: `echo ${kept}` });
  const chatId = doomed.json.chatId;
  // A retried replace keeps its answer (with the words) for retries: it goes with the chat.
  const replaced = await manage(service, store.org.privateKey, 'PUT', `/v1/chat/${chatId}/messages`, { messages: [{ role: 'user', content: `again ${phrase}` }] }, { 'idempotency-key': `replace-${phrase}` });
  t.equal(replaced.statusCode, 200);
  await manage(service, store.org.privateKey, 'PUT', `/v1/chat/${chatId}/messages`, { messages: [{ role: 'user', content: `echo ${phrase}` }, doomed.json.message] });

  const before = await databaseText(service);
  t.ok(before.includes(phrase), 'the words are in the database while the chat lives (the search can find them)');

  t.same((await manage(service, store.org.privateKey, 'DELETE', `/v1/chat/${chatId}`)).json(), { deleted: true });
  await service.cli(['projections', 'rebuild']);
  const after = await databaseText(service);
  t.ok(after.includes('ChatDeleted'), 'what was searched holds the event store too');
  t.notOk(after.includes(phrase), 'no trace of the words anywhere, event store included');
  t.ok(after.includes(kept), 'another chat is rebuilt with its words');
  const survived = (await manage(service, store.org.privateKey, 'GET', '/v1/chat/list?limit=100')).json().chats.find((c: any) => c.chatId === survivor.json.chatId);
  t.equal(survived.messages[0].content[0].text, `echo ${kept}`);

  const trail = await service.platform.eventStore.readStream(`chat-${chatId}`);
  t.same(
    trail.map((e) => e.type),
    ['ChatCreated', 'ChatMessagesAppended', 'ChatReplyFinished', 'ChatMessagesReplaced', 'ChatMessagesReplaced', 'ChatDeleted'],
    'the audit trail: created, written to, replaced and deleted, each with its time',
  );
  t.ok(trail.every((e) => typeof (e.data as any).at === 'string'));
  t.notOk(JSON.stringify(trail.map((e) => e.data)).includes(phrase));
});
