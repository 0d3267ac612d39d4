// What one streamed turn of POST /v2/agent/chat must look like once it reached the shopper, checked
// event by event (the order domain/agent/stream-events.ts promises): nothing after `done` or
// `error` and exactly one of them; every `tool_called` answered by one `tool_output` with its
// callId; what a tool puts on screen between its `tool_called` and `tool_output`; one tool's
// events never inside another's; the text deltas, joined, are `done.text`; `done.history` holds
// the message sent and this turn's calls in the order they streamed, and can be sent back.
// A missing piece counts as lost, a piece out of place as reordered. POST /v1/chat's turns, the
// same turn told as v1 events, are checked by `checkChatTurn`. Pure.
import { chatRequestSchema } from '../../domain/agent/request.js';

export interface StreamedEvent {
  event: string;
  data: any;
}

export interface TurnCheck {
  outcome: 'done' | 'error' | 'incomplete';
  /** Events or pieces missing (a tool_output, the final event, text). */
  lost: string[];
  /** Events present but out of place. */
  reordered: string[];
  /** `done.history` that does not match the stream or cannot be sent back. */
  history: string[];
}

/** Events a tool sends while it runs (workers/agent/tools), never outside its call. */
const TOOL_EVENTS = new Set(['search_results', 'looks', 'question', 'suggestions', 'cart_action']);
/** Events the model writes between tool calls, never inside one. */
const MODEL_EVENTS = new Set(['text_delta', 'thinking_delta', 'thinking', 'thinking_break']);

const squeezed = (text: string) => text.replace(/\s+/g, '');
const sortedChars = (text: string) => [...text].sort().join('');

const lastUserText = (messages: readonly any[]): string | null => {
  const last = [...messages].reverse().find((m) => m?.role === 'user');
  if (!last) return null;
  return typeof last.content === 'string' ? last.content : (last.content as Array<{ type: string; text?: string }>).filter((p) => p.type === 'input_text').map((p) => p.text).join('');
};

/** The outcome: exactly one `done` or `error`, and last; `finals` are the indexes of the final events. */
function finalEvents(events: readonly StreamedEvent[]): { check: TurnCheck; finals: Array<readonly [string, number]> } {
  const check: TurnCheck = { outcome: 'incomplete', lost: [], reordered: [], history: [] };
  const finals = events.map((e, i) => [e.event, i] as const).filter(([name]) => name === 'done' || name === 'error');
  if (!finals.length) check.lost.push('no done or error event');
  else {
    check.outcome = finals[0]![0] as 'done' | 'error';
    if (finals.length > 1) check.reordered.push(`${finals.length} final events`);
    if (finals[0]![1] !== events.length - 1) check.reordered.push(`${events.length - 1 - finals[0]![1]} event(s) after ${finals[0]![0]}`);
  }
  return { check, finals };
}

export function checkTurn(events: readonly StreamedEvent[], sent: readonly any[]): TurnCheck {
  const { check, finals } = finalEvents(events);

  // Tool calls: one open at a time, each closed by its own tool_output.
  const calls: string[] = [];
  const closed = new Set<string>();
  let open: { callId: string; name: string } | null = null;
  let text = '';
  for (const { event, data } of events) {
    if (event === 'tool_called') {
      if (open) check.reordered.push(`tool_called ${data?.callId} while ${open.callId} is open`);
      if (calls.includes(data?.callId)) check.reordered.push(`tool_called ${data?.callId} twice`);
      calls.push(data?.callId);
      open = { callId: data?.callId, name: data?.name };
    } else if (event === 'tool_output') {
      if (!calls.includes(data?.callId)) check.reordered.push(`tool_output ${data?.callId} before its tool_called`);
      else if (!open || open.callId !== data?.callId) check.reordered.push(`tool_output ${data?.callId} while ${open?.callId ?? 'no call'} is open`);
      else if (open.name !== data?.name) check.reordered.push(`tool_output ${data?.callId} names ${data?.name}, its call ${open.name}`);
      closed.add(data?.callId);
      open = null;
    } else if (TOOL_EVENTS.has(event)) {
      if (!open) check.reordered.push(`${event} outside any tool call`);
      else if (event === 'question' && data?.callId !== open.callId) check.reordered.push(`question of ${data?.callId} inside ${open.callId}`);
    } else if (MODEL_EVENTS.has(event)) {
      if (open) check.reordered.push(`${event} inside tool call ${open.callId}`);
      if (event === 'text_delta') text += String(data?.delta ?? '');
    }
  }
  for (const callId of calls) if (!closed.has(callId)) check.lost.push(`tool_output of ${callId}`);

  const done = finals.length && finals[0]![0] === 'done' ? events[finals[0]![1]]!.data : null;
  if (!done) return check;

  // The text: the loop joins each model call's text, adding a paragraph break where neither side has a space.
  const final = String(done.text ?? '');
  if (squeezed(text) !== squeezed(final)) {
    if (sortedChars(squeezed(text)) === sortedChars(squeezed(final))) check.reordered.push('text deltas joined in another order than done.text');
    else check.lost.push(`text deltas (${text.length} chars) are not done.text (${final.length} chars)`);
  }

  // The history: what was sent (its newest turns at least), then this turn's calls and text.
  const history = done.history;
  if (!Array.isArray(history) || !history.length) {
    check.history.push('done.history is not a non-empty array');
    return check;
  }
  const said = lastUserText(sent);
  const lastUser = history.findLastIndex((entry: any) => entry?.role === 'user');
  if (lastUser < 0 || lastUserText([history[lastUser]]) !== said) check.history.push('done.history does not hold the message sent last');
  const turn = lastUser >= 0 ? history.slice(lastUser + 1) : [];
  const historyCalls = turn.filter((entry: any) => entry?.type === 'function_call').map((entry: any) => entry.callId as string);
  const results = new Set(turn.filter((entry: any) => entry?.type === 'function_call_result').map((entry: any) => entry.callId as string));
  if (historyCalls.join('\n') !== calls.join('\n')) {
    if ([...historyCalls].sort().join('\n') === [...calls].sort().join('\n')) check.reordered.push('done.history has the calls in another order than they streamed');
    else check.history.push(`done.history has calls [${historyCalls.join(', ')}], the stream [${calls.join(', ')}]`);
  }
  for (const callId of historyCalls) if (!results.has(callId)) check.history.push(`done.history has no result for ${callId}`);
  const written = turn.filter((entry: any) => entry?.type === 'message').map((entry: any) => (entry.content as Array<{ text: string }>).map((p) => p.text).join('')).join('');
  if (squeezed(written) !== squeezed(final)) check.history.push('done.history\'s assistant text is not done.text');
  const resent = chatRequestSchema().safeParse({ messages: [...history, { role: 'user', content: 'thanks' }] });
  if (!resent.success) check.history.push(`done.history cannot be sent back: ${resent.error.issues[0]?.message}`);
  return check;
}

/**
 * One streamed turn of POST /v1/chat (domain/chat/reply.ts): text_delta and slots, then `status`
 * right before `done` ({ chatId, message }), or an `error`; one final event, last. The text deltas,
 * joined, are the message's text and `status` is its status. The history is the service's (the
 * next turn sends only the chat's id), so `history` stays empty.
 */
export function checkChatTurn(events: readonly StreamedEvent[]): TurnCheck {
  const { check } = finalEvents(events);
  if (check.outcome !== 'done') return check;
  const done = events.at(-1)!.data;
  const status = events.at(-2);
  if (status?.event !== 'status') check.lost.push('no status event right before done');
  if (typeof done?.chatId !== 'string') check.lost.push('done without chatId');
  const content: any[] = Array.isArray(done?.message?.content) ? done.message.content : [];
  const written = content.find((part) => part?.type === 'output_text')?.text;
  const text = events.filter((e) => e.event === 'text_delta').map((e) => String(e.data?.delta ?? '')).join('');
  if (text !== written) check.lost.push(`text deltas (${text.length} chars) are not done.message's text (${String(written ?? '').length} chars)`);
  const stated = content.find((part) => part?.type === 'output_status')?.status;
  if (status?.event === 'status' && status.data?.status !== stated) check.lost.push(`status ${status.data?.status}, done.message's ${stated}`);
  return check;
}
