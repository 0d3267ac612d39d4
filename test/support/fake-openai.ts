// A local stand-in for an OpenAI-compatible chat completions server, scripted reply by reply:
// streamed text, tool calls cut into pieces the way real servers send them, reasoning in the
// field vLLM and DeepSeek use, error statuses with retry-after, a connection that drops
// mid-stream, a slow first byte, a stream that stalls. Every request body is recorded, so a test
// can read what the adapter sent.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Teardown } from './database.js';

export interface FakeToolCall {
  /** Left out, the server sends none (some do), and the adapter has to make one up. */
  id?: string;
  name: string;
  /** Sent as written, malformed or not. */
  arguments: string;
}

export type FakeReply =
  /** `hold`: after the text, the stream stays open and silent, never finishing. */
  | { text: string[]; hold?: boolean }
  /** `parallel`: the calls' pieces interleave (index 0, 1, 0, 1…) instead of coming one call after another. */
  | { toolCalls: FakeToolCall[]; parallel?: boolean; text?: string[] }
  | { reasoning: string[]; text: string[]; field?: 'reasoning_content' | 'reasoning' }
  | { status: number; retryAfter?: number; retryAfterMs?: number; body?: object }
  /** The role chunk and `afterChunks` text chunks, then the connection is cut (0: cut before any text). */
  | { drop: true; afterChunks: number }
  /** Nothing at all for `delayMs`, then `then` (a short text by default). */
  | { delayMs: number; then?: FakeReply }
  /** Nothing at all until `gate` settles (the test opens it), then `then` (a short text by default). */
  | { gate: Promise<unknown>; then?: FakeReply };

export interface ChatRequestBody {
  model: string;
  stream?: boolean;
  messages: any[];
  tools?: any[];
  [field: string]: unknown;
}

/** Replies in order, or a function choosing one for each request (`n` counts from 0). */
export type FakeScript = FakeReply[] | ((body: ChatRequestBody, n: number) => FakeReply);

export interface FakeOpenAi {
  /** For the OpenAI client's `baseURL`. */
  baseURL: string;
  requests: Array<{ body: ChatRequestBody; headers: IncomingHttpHeaders }>;
  /** Resolves once `count` requests have arrived. */
  received(count: number): Promise<void>;
  /** Resolves once `count` requests were given up by the client before their answer ended (an aborted call). */
  abandoned(count: number): Promise<void>;
  /** Requests whose connection is still open: calls the server is answering right now. */
  open(): number;
}

const ERROR_MESSAGES: Record<number, string> = { 400: 'Invalid request.', 401: 'Incorrect API key provided.', 429: 'Rate limit reached.', 500: 'The server had an error.', 503: 'The engine is overloaded.' };

/** Picks the reply whose `when` holds first; for tests that answer by what was asked rather than in order. */
export function replyBy(rules: Array<{ when: (body: ChatRequestBody) => boolean; reply: FakeReply }>, otherwise: FakeReply = { text: ['(no rule matched)'] }) {
  return (body: ChatRequestBody): FakeReply => rules.find((rule) => rule.when(body))?.reply ?? otherwise;
}

/**
 * The script as a function from a request body to the HTTP response a server would give, for a
 * test that plugs it in as `fetch` rather than starting a server. A delay here holds back the
 * body, not the status; the server holds back both.
 */
export function scriptedResponses(script: FakeScript): (body: ChatRequestBody) => Response {
  const choose = replyChooser(script);
  return (body) => responseFor(choose(body), body);
}

export async function startFakeOpenAi(t: Teardown, script: FakeScript): Promise<FakeOpenAi> {
  const choose = replyChooser(script);
  const requests: FakeOpenAi['requests'] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  let abandonedCount = 0;
  let openCount = 0;
  const abandonWaiters: Array<{ count: number; resolve: () => void }> = [];
  const server: Server = createServer(async (request, response) => {
    openCount++;
    response.once('close', () => {
      openCount--;
      if (response.writableEnded) return;
      abandonedCount++;
      for (const waiter of abandonWaiters.filter((w) => abandonedCount >= w.count)) {
        abandonWaiters.splice(abandonWaiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    });
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (request.method !== 'POST' || !request.url?.endsWith('/chat/completions')) {
      response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `No route ${request.method} ${request.url}` } }));
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequestBody;
    requests.push({ body, headers: request.headers });
    for (const waiter of waiters.filter((w) => requests.length >= w.count)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
    await send(response, choose(body), body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    received: (count) => (requests.length >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve }))),
    abandoned: (count) => (abandonedCount >= count ? Promise.resolve() : new Promise((resolve) => abandonWaiters.push({ count, resolve }))),
    open: () => openCount,
  };
}

function replyChooser(script: FakeScript): (body: ChatRequestBody) => FakeReply {
  let n = 0;
  return (body) => {
    const i = n++;
    if (typeof script === 'function') return script(body, i);
    return script[i] ?? { status: 500, body: { error: { message: `fake-openai: no reply scripted for request ${i + 1}` } } };
  };
}

async function send(response: ServerResponse, reply: FakeReply, body: ChatRequestBody): Promise<void> {
  if ('delayMs' in reply || 'gate' in reply) {
    const late = await new Promise<boolean>((resolve) => {
      const timer = 'delayMs' in reply ? setTimeout(() => resolve(true), reply.delayMs) : undefined;
      if ('gate' in reply) void reply.gate.then(() => resolve(true), () => resolve(true));
      response.once('close', () => { clearTimeout(timer); resolve(false); });
    });
    if (late) await send(response, reply.then ?? { text: ['(late)'] }, body);
    return;
  }
  const rendered = responseFor(reply, body);
  response.writeHead(rendered.status, Object.fromEntries(rendered.headers));
  response.flushHeaders();
  const reader = rendered.body!.getReader();
  response.once('close', () => void reader.cancel().catch(() => undefined));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      await new Promise<void>((resolve) => response.write(value, () => resolve()));
    }
    response.end();
  } catch {
    // Written chunks have reached the socket (each write was awaited): cutting it now drops only what follows.
    response.destroy();
  }
}

function responseFor(reply: FakeReply, body: ChatRequestBody): Response {
  if ('delayMs' in reply) return delayed(new Promise((resolve) => setTimeout(resolve, reply.delayMs)), responseFor(reply.then ?? { text: ['(late)'] }, body));
  if ('gate' in reply) return delayed(reply.gate, responseFor(reply.then ?? { text: ['(late)'] }, body));
  if ('status' in reply) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (reply.retryAfter !== undefined) headers['retry-after'] = String(reply.retryAfter);
    if (reply.retryAfterMs !== undefined) headers['retry-after-ms'] = String(reply.retryAfterMs);
    const error = reply.body ?? { error: { message: ERROR_MESSAGES[reply.status] ?? `Status ${reply.status}.`, type: reply.status >= 500 ? 'server_error' : 'invalid_request_error' } };
    return new Response(JSON.stringify(error), { status: reply.status, headers });
  }
  const deltas = deltasOf(reply);
  const finish = 'toolCalls' in reply ? 'tool_calls' : 'stop';
  if (!body.stream) return Response.json(completionOf(deltas, finish, body));
  const frames = [...deltas.map((delta) => frame(chunkOf(body, delta, null))), frame(chunkOf(body, {}, finish)), 'data: [DONE]\n\n'];
  const held = 'hold' in reply && reply.hold === true;
  const dropped = 'drop' in reply;
  // Only what comes before the cut is sent: the role chunk, then `afterChunks` text chunks.
  const sent = dropped ? frames.slice(0, 1 + reply.afterChunks) : held ? frames.slice(0, deltas.length) : frames;
  const encoder = new TextEncoder();
  let next = 0;
  // Pulled one frame at a time: erroring a stream throws away what it still holds, so the cut
  // comes only once every frame before it was read.
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next < sent.length) controller.enqueue(encoder.encode(sent[next++]!));
      else if (dropped) controller.error(new Error('fake-openai: connection dropped'));
      else if (held) return new Promise<void>(() => undefined);
      else controller.close();
    },
  });
  return new Response(stream, { status: 200, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' } });
}

function delayed(until: Promise<unknown>, response: Response): Response {
  const reader = response.body!.getReader();
  const stream = new ReadableStream<Uint8Array>({
    start: () => until.then(() => undefined, () => undefined),
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Response(stream, { status: response.status, headers: response.headers });
}

type Delta = Record<string, unknown>;

/** The streamed deltas of a reply, role first as OpenAI sends it. */
function deltasOf(reply: Exclude<FakeReply, { status: number } | { delayMs: number } | { gate: Promise<unknown> }>): Delta[] {
  const deltas: Delta[] = [{ role: 'assistant', content: '' }];
  if ('drop' in reply) {
    for (let i = 1; i <= reply.afterChunks; i++) deltas.push({ content: `part ${i} ` });
    return deltas;
  }
  if ('reasoning' in reply) for (const piece of reply.reasoning) deltas.push({ [reply.field ?? 'reasoning_content']: piece });
  for (const piece of reply.text ?? []) deltas.push({ content: piece });
  if ('toolCalls' in reply) deltas.push(...toolCallDeltas(reply.toolCalls, reply.parallel ?? false));
  return deltas;
}

function toolCallDeltas(calls: FakeToolCall[], interleaved: boolean): Delta[] {
  const pieces = calls.map((call, index) => [
    { index, ...(call.id !== undefined && { id: call.id }), type: 'function', function: { name: call.name, arguments: '' } },
    ...split(call.arguments).map((part) => ({ index, function: { arguments: part } })),
  ]);
  const ordered = interleaved
    ? Array.from({ length: Math.max(...pieces.map((p) => p.length)) }, (_, step) => pieces.flatMap((p) => (p[step] ? [p[step]] : []))).flat()
    : pieces.flat();
  return ordered.map((toolCall) => ({ tool_calls: [toolCall] }));
}

/** Arguments in three pieces or so, cut anywhere (inside a key or a string), as servers do. */
function split(text: string): string[] {
  if (text.length < 2) return [text];
  const size = Math.max(1, Math.ceil(text.length / 3));
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += size) parts.push(text.slice(i, i + size));
  return parts;
}

const chunkOf = (body: ChatRequestBody, delta: Delta, finish: string | null) => ({
  id: 'chatcmpl-fake',
  object: 'chat.completion.chunk',
  created: 0,
  model: body.model,
  choices: [{ index: 0, delta, finish_reason: finish }],
});

const frame = (chunk: object) => `data: ${JSON.stringify(chunk)}\n\n`;

/** The non-streamed answer: the deltas folded into one message. */
function completionOf(deltas: Delta[], finish: string, body: ChatRequestBody) {
  const message: Record<string, any> = { role: 'assistant', content: '' };
  const calls: any[] = [];
  for (const delta of deltas) {
    if (typeof delta.content === 'string') message.content += delta.content;
    for (const field of ['reasoning_content', 'reasoning']) if (typeof delta[field] === 'string') message[field] = (message[field] ?? '') + delta[field];
    for (const part of (delta.tool_calls as any[] | undefined) ?? []) {
      calls[part.index] ??= { id: part.id ?? `call_${part.index}`, type: 'function', function: { name: '', arguments: '' } };
      if (part.function.name) calls[part.index].function.name = part.function.name;
      calls[part.index].function.arguments += part.function.arguments;
    }
  }
  if (calls.length) message.tool_calls = calls;
  return { id: 'chatcmpl-fake', object: 'chat.completion', created: 0, model: body.model, choices: [{ index: 0, message, finish_reason: finish }] };
}
