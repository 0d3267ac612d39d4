// The OpenAI-compatible chat model against a scripted fake server on a local port: what it streams
// back (text, reasoning, tool calls assembled from pieces), what it sends (the conversation as chat
// messages, repaired where the API would refuse it), and how it fails (retries before any output,
// ModelUnavailable after, the shopper's abort passed through, the key never in a message).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import type { TurnContext } from '../../domain/agent/context.js';
import { assistantMessage, functionCall, functionCallResult, type HistoryEntry } from '../../domain/agent/messages.js';
import { toolSpecs } from '../../domain/agent/tools.js';
import { ModelUnavailable, type ChatModelRequest, type ModelOutput } from '../../infra/models/chat.js';
import { createOpenAiChatModel, NO_RESULT, type OpenAiChatModelOptions } from '../../infra/models/openai-chat.js';
import type { Teardown } from '../support/database.js';
import { replyBy, scriptedResponses, startFakeOpenAi, type FakeScript } from '../support/fake-openai.js';

const API_KEY = 'sk-test-do-not-leak-4242';
const IMAGE = 'data:image/png;base64,iVBORw0KGgo=';

const context: TurnContext = {
  stores: [{ name: 'Acme', domain: 'acme.example', url: null }],
  severalStores: false,
  scopeError: null,
  country: null,
  currency: 'EUR',
  page: null,
  hasCart: false,
  styling: { off: [], basics: [], choosing: '', picture: '' },
  thinking: 'low',
};

const ask = (over: Partial<ChatModelRequest> = {}): ChatModelRequest => ({
  context,
  instructions: 'You are the stylist of Acme.',
  messages: [{ role: 'user', content: 'A shirt for a wedding?' }],
  tools: toolSpecs(false),
  thinking: 'low',
  signal: new AbortController().signal,
  ...over,
});

async function serve(t: Teardown, script: FakeScript, options: Partial<OpenAiChatModelOptions> = {}) {
  const fake = await startFakeOpenAi(t, script);
  const model = createOpenAiChatModel({ model: 'gpt-test', apiKey: API_KEY, baseURL: fake.baseURL, retryBaseMs: 10, timeoutMs: 3000, ...options });
  return { fake, model };
}

async function collect(outputs: AsyncIterable<ModelOutput>, seen: ModelOutput[] = []): Promise<ModelOutput[]> {
  for await (const output of outputs) seen.push(output);
  return seen;
}

/** What the call threw, with what it had yielded before. */
async function failureOf(outputs: AsyncIterable<ModelOutput>): Promise<{ error: unknown; seen: ModelOutput[] }> {
  const seen: ModelOutput[] = [];
  try {
    await collect(outputs, seen);
  } catch (error) {
    return { error, seen };
  }
  throw new Error(`expected the call to fail; it yielded ${JSON.stringify(seen)}`);
}

const texts = (outputs: ModelOutput[]) => outputs.flatMap((o) => (o.type === 'text_delta' ? [o.delta] : []));

t.test('given streamed text, it yields each delta in order and sends the prompt, the tools and the key', async (t) => {
  const { fake, model } = await serve(t, [{ text: ['Hel', 'lo', ', try linen.'] }]);
  t.same(await collect(model.respond(ask())), [
    { type: 'text_delta', delta: 'Hel' },
    { type: 'text_delta', delta: 'lo' },
    { type: 'text_delta', delta: ', try linen.' },
  ]);
  const [{ body, headers }] = fake.requests as [(typeof fake.requests)[number]];
  t.equal(headers.authorization, `Bearer ${API_KEY}`);
  t.match(body, { model: 'gpt-test', stream: true, parallel_tool_calls: true });
  t.same(body.messages, [{ role: 'system', content: 'You are the stylist of Acme.' }, { role: 'user', content: 'A shirt for a wedding?' }]);
  const lookup = toolSpecs(false).find((spec) => spec.name === 'lookup_products')!;
  t.same(body.tools!.find((tool) => tool.function.name === 'lookup_products'), { type: 'function', function: { name: 'lookup_products', description: lookup.description, parameters: lookup.parameters } });
  t.equal(body.tools!.length, toolSpecs(false).length);
  t.notOk('reasoning_effort' in body, 'no reasoning_effort unless the model is a reasoning one');
  t.equal(model.name, 'gpt-test');
  t.same(model.thinkingLevels, ['none', 'low', 'medium', 'high']);
});

t.test('given no tools, it offers none and asks for no parallel calls', async (t) => {
  const { fake, model } = await serve(t, [{ text: ['Hi'] }]);
  await collect(model.respond(ask({ tools: [] })));
  t.notOk('tools' in fake.requests[0]!.body);
  t.notOk('parallel_tool_calls' in fake.requests[0]!.body);
});

t.test('given a tool call cut into pieces, it yields the call whole once the stream ends', async (t) => {
  const args = '{"family":"shirt","maxPrice":80,"onSale":false}';
  const { model } = await serve(t, [{ toolCalls: [{ id: 'call_abc', name: 'lookup_products', arguments: args }] }]);
  t.same(await collect(model.respond(ask())), [{ type: 'tool_call', callId: 'call_abc', name: 'lookup_products', arguments: args }]);
});

t.test('given two parallel calls whose pieces interleave, it yields both, in index order, after the text', async (t) => {
  const { model } = await serve(t, [
    {
      text: ['Let me look.'],
      parallel: true,
      toolCalls: [
        { id: 'call_1', name: 'lookup_products', arguments: '{"family":"shirt","slot":"top"}' },
        { id: 'call_2', name: 'get_articles', arguments: '{"gender":"mens"}' },
      ],
    },
  ]);
  t.same(await collect(model.respond(ask())), [
    { type: 'text_delta', delta: 'Let me look.' },
    { type: 'tool_call', callId: 'call_1', name: 'lookup_products', arguments: '{"family":"shirt","slot":"top"}' },
    { type: 'tool_call', callId: 'call_2', name: 'get_articles', arguments: '{"gender":"mens"}' },
  ]);
});

t.test('given malformed arguments and no call id, it passes the arguments as written and makes up an id', async (t) => {
  const { model } = await serve(t, [{ toolCalls: [{ name: 'lookup_products', arguments: '{"family": "shirt", "maxPrice": ' }] }]);
  const outputs = await collect(model.respond(ask()));
  t.same(outputs, [{ type: 'tool_call', callId: 'call_1_0', name: 'lookup_products', arguments: '{"family": "shirt", "maxPrice": ' }]);
});

t.test('given reasoning deltas, they come out as thinking_delta, then thinking_done before the answer', async (t) => {
  const { model } = await serve(t, [
    { reasoning: ['A wedding: ', 'formal.'], text: ['Linen suits.'] },
    { reasoning: ['Search first.'], field: 'reasoning', text: [] },
  ]);
  t.same(await collect(model.respond(ask())), [
    { type: 'thinking_delta', delta: 'A wedding: ' },
    { type: 'thinking_delta', delta: 'formal.' },
    { type: 'thinking_done' },
    { type: 'text_delta', delta: 'Linen suits.' },
  ]);
  t.same(await collect(model.respond(ask())), [{ type: 'thinking_delta', delta: 'Search first.' }, { type: 'thinking_done' }], '`reasoning` too; done at the end of the stream');
});

t.test('given reasoning on, each thinking level is sent as reasoning_effort', async (t) => {
  const { fake, model } = await serve(t, () => ({ text: ['ok'] }), { reasoning: true });
  for (const thinking of ['none', 'low', 'medium', 'high'] as const) await collect(model.respond(ask({ thinking })));
  t.same(fake.requests.map((r) => r.body.reasoning_effort), ['none', 'low', 'medium', 'high']);
});

t.test('given a 429 with retry-after, it waits as asked, then succeeds', async (t) => {
  const { fake, model } = await serve(t, [{ status: 429, retryAfter: 0.15 }, { status: 503, retryAfterMs: 60 }, { text: ['Back.'] }]);
  const started = performance.now();
  t.same(texts(await collect(model.respond(ask()))), ['Back.']);
  // Well under 210: Node starts each timer from the event loop's cached time, which lags under load.
  t.ok(performance.now() - started >= 150, 'waited 150 ms, then 60 ms, not the 10 and 20 ms of the backoff');
  t.equal(fake.requests.length, 3);
});

t.test('given 500 twice, the third attempt answers', async (t) => {
  const { fake, model } = await serve(t, [{ status: 500 }, { status: 500 }, { text: ['Here.'] }]);
  t.same(texts(await collect(model.respond(ask()))), ['Here.']);
  t.equal(fake.requests.length, 3);
});

t.test('given 500 beyond maxRetries, it is ModelUnavailable naming the status', async (t) => {
  const { fake, model } = await serve(t, () => ({ status: 500 }), { maxRetries: 2 });
  const { error } = await failureOf(model.respond(ask()));
  t.type(error, ModelUnavailable);
  t.match((error as Error).message, /500 The server had an error\..*after 3 attempts/);
  t.equal(fake.requests.length, 3, 'the first attempt and two retries');
});

t.test('given a 400, it is ModelUnavailable at once with the server\'s message', async (t) => {
  const { fake, model } = await serve(t, [{ status: 400, body: { error: { message: "Invalid 'tools[0].function.name'.", type: 'invalid_request_error' } } }, { text: ['never'] }]);
  const { error } = await failureOf(model.respond(ask()));
  t.type(error, ModelUnavailable);
  t.match((error as Error).message, /400 Invalid 'tools\[0\]\.function\.name'\./);
  t.equal(fake.requests.length, 1, 'not retried');
});

t.test('given a refused connection, it retries, then is ModelUnavailable', async (t) => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  const model = createOpenAiChatModel({ model: 'gpt-test', apiKey: API_KEY, baseURL: `http://127.0.0.1:${port}/v1`, retryBaseMs: 10, maxRetries: 1 });
  const { error } = await failureOf(model.respond(ask()));
  t.type(error, ModelUnavailable);
  t.match((error as Error).message, /connection.*after 2 attempts/i);
});

t.test('given a stream cut after output, it is ModelUnavailable and nothing is asked again', async (t) => {
  const { fake, model } = await serve(t, [{ drop: true, afterChunks: 2 }, { text: ['never'] }]);
  const { error, seen } = await failureOf(model.respond(ask()));
  t.same(texts(seen), ['part 1 ', 'part 2 '], 'what came before the cut reached the caller');
  t.type(error, ModelUnavailable);
  t.match((error as Error).message, /the stream broke: .*, after output was sent/);
  t.equal(fake.requests.length, 1);
});

t.test('given a stream cut before any output, it is asked again', async (t) => {
  const { fake, model } = await serve(t, [{ drop: true, afterChunks: 0 }, { text: ['Whole.'] }]);
  t.same(texts(await collect(model.respond(ask()))), ['Whole.']);
  t.equal(fake.requests.length, 2);
});

t.test('given a server slower than timeoutMs, it is ModelUnavailable promptly', async (t) => {
  const { model } = await serve(t, [{ delayMs: 5000 }], { timeoutMs: 150 });
  const started = performance.now();
  const { error } = await failureOf(model.respond(ask()));
  t.type(error, ModelUnavailable);
  t.match((error as Error).message, /timed out after 150 ms/);
  t.ok(performance.now() - started < 1000, 'well before the server would answer');
});

t.test('given a stream that stalls after output, the timeout still ends it', async (t) => {
  const { model } = await serve(t, [{ text: ['Hmm'], hold: true }], { timeoutMs: 200 });
  const { error, seen } = await failureOf(model.respond(ask()));
  t.same(texts(seen), ['Hmm']);
  t.type(error, ModelUnavailable);
  t.match((error as Error).message, /timed out/);
});

t.test('given the shopper leaves, the call stops promptly with their abort, not ModelUnavailable', async (t) => {
  t.test('while waiting for the first byte', async (t) => {
    const { fake, model } = await serve(t, [{ delayMs: 5000 }]);
    const shopper = new AbortController();
    const call = failureOf(model.respond(ask({ signal: shopper.signal })));
    await fake.received(1);
    const started = performance.now();
    shopper.abort();
    const { error } = await call;
    t.notOk(error instanceof ModelUnavailable);
    t.equal(error, shopper.signal.reason, 'the abort itself');
    t.ok(performance.now() - started < 500);
  });

  t.test('in the middle of the stream', async (t) => {
    const { model } = await serve(t, [{ text: ['Let me '], hold: true }]);
    const shopper = new AbortController();
    const seen: ModelOutput[] = [];
    const error = await (async () => {
      try {
        for await (const output of model.respond(ask({ signal: shopper.signal }))) {
          seen.push(output);
          shopper.abort(new Error('shopper left'));
        }
      } catch (error) {
        return error;
      }
    })();
    t.same(texts(seen), ['Let me ']);
    t.match(error, { message: 'shopper left' });
    t.notOk(error instanceof ModelUnavailable);
  });

  t.test('while waiting to retry', async (t) => {
    const { fake, model } = await serve(t, [{ status: 429, retryAfter: 5 }, { text: ['never'] }]);
    const shopper = new AbortController();
    const call = failureOf(model.respond(ask({ signal: shopper.signal })));
    await fake.received(1);
    shopper.abort();
    const { error } = await call;
    t.equal(error, shopper.signal.reason);
    t.equal(fake.requests.length, 1);
  });
});

t.test('given a whole conversation, the server receives it as chat messages, repaired', async (t) => {
  const history: HistoryEntry[] = [
    { role: 'user', content: 'A shirt for a wedding?' },
    assistantMessage('Let me look.'),
    functionCall('call_1', 'lookup_products', '{"family":"shirt"}'),
    functionCall('call_2', 'get_articles', '{"gender":"mens"}'),
    functionCallResult('call_2', 'get_articles', '{"slots":[]}'),
    functionCallResult('call_1', 'lookup_products', '{"products":[]}'),
    functionCall('call_3', 'show_products', '{"itemIds":["a"]}'),
    functionCall('call_4', 'suggest_replies', '{"suggestions":["Blue"]}'),
    functionCallResult('call_4', 'suggest_replies', '{}'),
    assistantMessage('Here are two.'),
    functionCallResult('call_9', 'read_cart', '{"lines":[]}'),
    { role: 'user', content: [{ type: 'input_text', text: 'Like this one?' }, { type: 'input_image', image: IMAGE }] },
    functionCall('call_5', 'lookup_products', '{"colour":"blue"}'),
    functionCallResult('call_8', 'lookup_products', '{"stray":true}'),
    { role: 'user', content: 'And in blue?' },
  ];
  const { fake, model } = await serve(t, [{ text: ['ok'] }]);
  await collect(model.respond(ask({ messages: history })));
  t.same(fake.requests[0]!.body.messages, [
    { role: 'system', content: 'You are the stylist of Acme.' },
    { role: 'user', content: 'A shirt for a wedding?' },
    {
      role: 'assistant',
      content: 'Let me look.',
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'lookup_products', arguments: '{"family":"shirt"}' } },
        { id: 'call_2', type: 'function', function: { name: 'get_articles', arguments: '{"gender":"mens"}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'call_2', content: '{"slots":[]}' },
    { role: 'tool', tool_call_id: 'call_1', content: '{"products":[]}' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_3', type: 'function', function: { name: 'show_products', arguments: '{"itemIds":["a"]}' } },
        { id: 'call_4', type: 'function', function: { name: 'suggest_replies', arguments: '{"suggestions":["Blue"]}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'call_4', content: '{}' },
    { role: 'tool', tool_call_id: 'call_3', content: NO_RESULT },
    { role: 'assistant', content: 'Here are two.' },
    { role: 'assistant', content: '(read_cart returned: {"lines":[]})' },
    { role: 'user', content: [{ type: 'text', text: 'Like this one?' }, { type: 'image_url', image_url: { url: IMAGE } }] },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_5', type: 'function', function: { name: 'lookup_products', arguments: '{"colour":"blue"}' } }] },
    { role: 'tool', tool_call_id: 'call_5', content: NO_RESULT },
    { role: 'assistant', content: '(lookup_products returned: {"stray":true})' },
    { role: 'user', content: 'And in blue?' },
  ]);
});

t.test('given a server that echoes the key, no error message carries it', async (t) => {
  const { model } = await serve(t, [
    { status: 401, body: { error: { message: `Incorrect API key provided: ${API_KEY}.`, type: 'invalid_request_error' } } },
    { status: 401, body: { error: { message: 'Incorrect API key provided: sk-test-********4242.', type: 'invalid_request_error' } } },
  ]);
  for (let i = 0; i < 2; i++) {
    const { error } = await failureOf(model.respond(ask()));
    t.type(error, ModelUnavailable);
    t.match((error as Error).message, /401 Incorrect API key provided/);
    t.notMatch((error as Error).message, /do-not-leak|4242/);
  }
});

t.test('the script can be a function of the request, or rendered without a server', async (t) => {
  const script = replyBy([{ when: (body) => body.messages.some((m) => m.role === 'tool'), reply: { text: ['Found two.'] } }], { toolCalls: [{ id: 'c', name: 'get_articles', arguments: '{}' }] });
  const { model } = await serve(t, script);
  t.same(await collect(model.respond(ask())), [{ type: 'tool_call', callId: 'c', name: 'get_articles', arguments: '{}' }]);
  const after = ask({ messages: [...ask().messages, functionCall('c', 'get_articles', '{}'), functionCallResult('c', 'get_articles', '{}')] });
  t.same(texts(await collect(model.respond(after))), ['Found two.']);

  const respond = scriptedResponses([{ text: ['a', 'b'] }, { status: 429, retryAfter: 1 }]);
  const streamed = respond({ model: 'm', stream: true, messages: [] });
  t.equal(streamed.headers.get('content-type'), 'text/event-stream');
  t.match(await streamed.text(), /"content":"a".*"content":"b".*data: \[DONE\]/s);
  const limited = respond({ model: 'm', stream: false, messages: [] });
  t.equal(limited.status, 429);
  t.equal(limited.headers.get('retry-after'), '1');
  const whole = scriptedResponses([{ toolCalls: [{ name: 'get_articles', arguments: '{"gender":"mens"}' }] }])({ model: 'm', messages: [] });
  t.match(await whole.json(), { choices: [{ message: { tool_calls: [{ function: { name: 'get_articles', arguments: '{"gender":"mens"}' } }] }, finish_reason: 'tool_calls' }] });
});
