// The ChatModel port over any OpenAI-compatible chat completions server (OpenAI, vLLM, llama.cpp,
// Ollama, DeepSeek): the conversation goes in as chat messages, the answer streams back as text,
// reasoning and tool calls.
//
// Retries are ours, not the SDK's (its own are switched off), so they can be tested and so a call
// never repeats once the shopper has seen part of its answer:
//   - 429, 5xx, a refused or reset connection, or a stream that breaks before anything was yielded
//     are retried up to `maxRetries` times, waiting retryBaseMs × 2^attempt, or what the server's
//     `retry-after-ms` / `retry-after` asks, never more than MAX_WAIT_MS;
//   - any other 4xx (a bad request, a wrong key) is not retried: the same call fails the same way;
//   - a stream that breaks after output was yielded cannot be retried;
//   - `timeoutMs` bounds the whole call, retries and waits included.
// Each of these ends in ModelUnavailable, whose message never carries the API key. The shopper
// leaving (request.signal) is not a failure of the model: its abort is rethrown as it came.
import OpenAI, { APIConnectionError, APIError } from 'openai';
import type {
  ChatCompletionChunk,
  ChatCompletionContentPart,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
} from 'openai/resources/chat/completions';
import { assistantText, isAssistant, isCall, isUser, type HistoryEntry } from '../../domain/agent/messages.js';
import { THINKING_LEVELS, type ThinkingLevel } from '../../domain/agent/request.js';
import { ModelUnavailable, type ChatModel, type ChatModelRequest, type ModelOutput } from './chat.js';

export interface OpenAiChatModelOptions {
  model: string;
  apiKey?: string;
  baseURL?: string;
  /** The whole call, retries included. */
  timeoutMs?: number;
  /** Attempts after the first one. */
  maxRetries?: number;
  retryBaseMs?: number;
  /** Send `reasoning_effort` for the turn's thinking level (reasoning models only; others refuse it). */
  reasoning?: boolean;
}

const MAX_WAIT_MS = 10_000;

/** What the tool message of a call with no recorded result says; the API refuses a call left unanswered. */
export const NO_RESULT = 'No result was recorded for this call.';

// Levels map to the effort of the same name: `none` exists in the SDK's ReasoningEffort and is what
// current OpenAI reasoning models take for "no reasoning" (the first gpt-5 only knew `minimal`).
const REASONING_EFFORT: Record<ThinkingLevel, 'none' | 'low' | 'medium' | 'high'> = { none: 'none', low: 'low', medium: 'medium', high: 'high' };

export function createOpenAiChatModel(options: OpenAiChatModelOptions): ChatModel {
  const client = new OpenAI({ apiKey: options.apiKey ?? 'unset', baseURL: options.baseURL, maxRetries: 0 });
  const timeoutMs = options.timeoutMs ?? 60_000;
  const maxRetries = Math.max(0, options.maxRetries ?? 3);
  const retryBaseMs = options.retryBaseMs ?? 500;
  const unavailable = (why: string) => new ModelUnavailable(redact(`${options.model}: ${why}`, options.apiKey));

  return {
    name: options.model,
    thinkingLevels: THINKING_LEVELS,
    async *respond(request: ChatModelRequest): AsyncIterable<ModelOutput> {
      const body: ChatCompletionCreateParamsStreaming = {
        model: options.model,
        stream: true,
        messages: toChatMessages(request.instructions, request.messages),
        ...(request.tools.length > 0 && {
          tools: request.tools.map((tool) => ({ type: 'function' as const, function: { name: tool.name, description: tool.description, parameters: tool.parameters } })),
          parallel_tool_calls: true,
        }),
        ...(options.reasoning && { reasoning_effort: REASONING_EFFORT[request.thinking] }),
      };
      const deadline = new AbortController();
      const timer = setTimeout(() => deadline.abort(), timeoutMs);
      const signal = AbortSignal.any([request.signal, deadline.signal]);
      const stopped = (lastFailure: string | null) => {
        if (request.signal.aborted) return request.signal.reason as unknown;
        return unavailable(`timed out after ${timeoutMs} ms${lastFailure ? ` (last failure: ${lastFailure})` : ''}`);
      };
      let lastFailure: string | null = null;
      let yielded = false;
      try {
        for (let attempt = 0; ; attempt++) {
          let failure: Failure;
          try {
            const stream = await client.chat.completions.create(body, { signal }).catch((error: unknown) => {
              throw new AttemptFailed(requestFailure(error));
            });
            const reader = new ChunkReader(`call_${request.messages.length}`);
            try {
              for await (const chunk of stream) {
                for (const output of reader.read(chunk)) {
                  yielded = true;
                  yield output;
                }
              }
            } catch (error) {
              if (signal.aborted) throw stopped(lastFailure);
              throw new AttemptFailed(streamFailure(error));
            }
            // The SDK ends a stream quietly when its signal aborts: only the signal tells.
            if (signal.aborted) throw stopped(lastFailure);
            yield* reader.end();
            return;
          } catch (error) {
            if (signal.aborted) throw stopped(lastFailure);
            if (!(error instanceof AttemptFailed)) throw error;
            failure = error.failure;
          }
          if (yielded) throw unavailable(`${failure.reason}, after output was sent`);
          if (!failure.retry) throw unavailable(failure.reason);
          if (attempt >= maxRetries) throw unavailable(`${failure.reason} (after ${attempt + 1} attempts)`);
          lastFailure = failure.reason;
          await wait(Math.min(MAX_WAIT_MS, failure.waitMs ?? retryBaseMs * 2 ** attempt), signal);
          if (signal.aborted) throw stopped(lastFailure);
        }
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

interface Failure {
  reason: string;
  retry: boolean;
  /** What the server asked us to wait before trying again. */
  waitMs?: number | undefined;
}

/** Carries a classified failure of one attempt out of the stream loop. */
class AttemptFailed extends Error {
  readonly failure: Failure;
  constructor(failure: Failure) {
    super(failure.reason);
    this.failure = failure;
  }
}

/** The SDK's message and its causes': the reason is often two levels down (fetch failed: ECONNREFUSED). */
function describe(error: unknown): string {
  const messages: string[] = [];
  for (let cause = error; cause instanceof Error && messages.length < 3; cause = cause.cause) messages.push(cause.message);
  return messages.length ? messages.join(': ') : String(error);
}

function requestFailure(error: unknown): Failure {
  if (error instanceof APIConnectionError) return { reason: `connection failed: ${describe(error)}`, retry: true };
  if (error instanceof APIError && typeof error.status === 'number') {
    const retry = error.status === 429 || error.status >= 500;
    return { reason: error.message || `HTTP ${error.status}`, retry, waitMs: retry ? retryAfterMs(error.headers) : undefined };
  }
  return { reason: describe(error), retry: false };
}

function streamFailure(error: unknown): Failure {
  // An error event inside the stream is the server's answer (context too long, a bad tool schema):
  // asking again gets the same one. Anything else is the connection breaking.
  if (error instanceof APIError && !(error instanceof APIConnectionError)) return { reason: `the server reported an error: ${error.message}`, retry: false };
  return { reason: `the stream broke: ${describe(error)}`, retry: true };
}

function retryAfterMs(headers: Headers | undefined): number | undefined {
  const ms = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers?.get('retry-after');
  if (!value) return undefined;
  const seconds = Number.parseFloat(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });

// Servers echo keys in their errors ("Incorrect API key provided: sk-ab***yz"), whole or masked.
function redact(message: string, apiKey: string | undefined): string {
  const withoutKey = apiKey && apiKey.length >= 4 ? message.split(apiKey).join('[redacted]') : message;
  return withoutKey.replace(/\bsk-[A-Za-z0-9_*.-]{4,}/g, 'sk-[redacted]');
}

type ChunkDelta = ChatCompletionChunk.Choice.Delta & { reasoning_content?: string | null; reasoning?: string | null };

/** Turns chunks into outputs: text and reasoning as they come, tool calls once the stream ends. */
class ChunkReader {
  private thinking = false;
  private readonly calls = new Map<number, { id: string; name: string; arguments: string }>();

  private readonly idPrefix: string;
  constructor(idPrefix: string) {
    this.idPrefix = idPrefix;
  }

  *read(chunk: ChatCompletionChunk): Generator<ModelOutput> {
    const delta = chunk.choices?.[0]?.delta as ChunkDelta | undefined;
    if (!delta) return;
    // vLLM, DeepSeek and llama.cpp call it reasoning_content; OpenRouter and newer vLLM, reasoning.
    const reasoning = delta.reasoning_content ?? delta.reasoning;
    if (typeof reasoning === 'string' && reasoning !== '') {
      this.thinking = true;
      yield { type: 'thinking_delta', delta: reasoning };
    }
    // A refusal is what the model says instead of an answer: the shopper should read it.
    const text = (delta.content ?? '') + (delta.refusal ?? '');
    if (text !== '' || delta.tool_calls?.length) yield* this.endThinking();
    if (text !== '') yield { type: 'text_delta', delta: text };
    for (const [position, part] of (delta.tool_calls ?? []).entries()) {
      const index = typeof part.index === 'number' ? part.index : position;
      const call = this.calls.get(index) ?? { id: '', name: '', arguments: '' };
      this.calls.set(index, call);
      if (part.id && !call.id) call.id = part.id;
      // The name comes whole in one delta; some servers repeat it in later ones.
      if (part.function?.name && !call.name) call.name = part.function.name;
      if (part.function?.arguments) call.arguments += part.function.arguments;
    }
  }

  *end(): Generator<ModelOutput> {
    yield* this.endThinking();
    for (const [index, call] of [...this.calls.entries()].sort(([a], [b]) => a - b)) {
      // The prefix is the history's length: a made-up id stays unique in the conversation it joins.
      yield { type: 'tool_call', callId: call.id || `${this.idPrefix}_${index}`, name: call.name, arguments: call.arguments };
    }
  }

  private *endThinking(): Generator<ModelOutput> {
    if (!this.thinking) return;
    this.thinking = false;
    yield { type: 'thinking_done' };
  }
}

/**
 * The conversation as chat messages, repaired where the API would refuse it:
 *  - calls in a row (after an assistant message, or on their own) become one assistant message
 *    with several tool_calls, their results the tool messages right after it;
 *  - a call whose result never came gets a tool message saying so (NO_RESULT) before whatever
 *    follows, since the API refuses a tool call left unanswered;
 *  - a result with no call before it is kept as an assistant message naming the tool, after the
 *    open call group if there is one: a tool message needs its call, but what the tool found
 *    (the products shown, the cart read) is still what later turns talk about.
 * Call ids are kept as written, whatever their length (history allows 200 characters; OpenAI
 * itself takes 40, compatible servers vary): shortening one would risk two calls sharing an id.
 */
export function toChatMessages(instructions: string, history: HistoryEntry[]): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [{ role: 'system', content: instructions }];
  let group: { toolCalls: ChatCompletionMessageToolCall[]; unanswered: Map<string, true>; answered: boolean } | null = null;
  let orphans: string[] = [];
  const closeGroup = () => {
    for (const callId of group?.unanswered.keys() ?? []) messages.push({ role: 'tool', tool_call_id: callId, content: NO_RESULT });
    for (const text of orphans) messages.push({ role: 'assistant', content: text });
    group = null;
    orphans = [];
  };
  for (const entry of history) {
    if (isUser(entry)) {
      closeGroup();
      messages.push({ role: 'user', content: typeof entry.content === 'string' ? entry.content : entry.content.map(toContentPart) });
    } else if (isAssistant(entry)) {
      closeGroup();
      const text = assistantText(entry);
      if (text !== '') messages.push({ role: 'assistant', content: text });
    } else if (isCall(entry)) {
      if (!group || group.answered) {
        closeGroup();
        const previous = messages.at(-1);
        const joined = previous?.role === 'assistant' && !previous.tool_calls ? previous : null;
        const toolCalls: ChatCompletionMessageToolCall[] = [];
        if (joined) joined.tool_calls = toolCalls;
        else messages.push({ role: 'assistant', content: null, tool_calls: toolCalls });
        group = { toolCalls, unanswered: new Map(), answered: false };
      }
      group.toolCalls.push({ id: entry.callId, type: 'function', function: { name: entry.name, arguments: entry.arguments } });
      group.unanswered.set(entry.callId, true);
    } else if (group?.unanswered.has(entry.callId)) {
      group.unanswered.delete(entry.callId);
      group.answered = true;
      messages.push({ role: 'tool', tool_call_id: entry.callId, content: entry.output.text });
    } else {
      const text = `(${entry.name} returned: ${entry.output.text})`;
      if (group) orphans.push(text);
      else messages.push({ role: 'assistant', content: text });
    }
  }
  closeGroup();
  return messages;
}

const toContentPart = (part: { type: 'input_text'; text: string } | { type: 'input_image'; image: string }): ChatCompletionContentPart =>
  part.type === 'input_text' ? { type: 'text', text: part.text } : { type: 'image_url', image_url: { url: part.image } };
