// POST /v2/agent/chat (document 2): one agent turn over the conversation the client sends, run by
// an agent worker and relayed here as Server-Sent Events, or as one JSON body with `stream: false`.
// Authentication, quota and every validation failure are JSON errors before any stream exists;
// after the stream opened, a failure is an `error` event and the stream closes without `done`
// (the quota unit is kept). Nothing about the conversation is stored: the answer's `history` is
// the conversation, for the client to send back.
import { clientGone } from '../client-gone.js';
import type { FastifyInstance } from 'fastify';
import { chatRequestSchema, type ChatRequest } from '../../domain/agent/request.js';
import { AGENT_LIMITS, isUser, messageErrors, readDataUri, type HistoryEntry } from '../../domain/agent/messages.js';
import { AGENT_FAILURES, type AgentEvent } from '../../domain/agent/stream-events.js';
import { normaliseChatImage } from '../../infra/images/chat-images.js';
import { budgetedBody, declaredBody, releaseBody, type BodyBudget } from '../body-budget.js';
import { TurnsBusy, type TurnRelay } from '../agent-relay.js';
import { openEventStream } from '../sse.js';
import { HttpError } from '../plugins/errors.js';
import { zodRoutes } from '../plugins/validation.js';
import { callerOf } from './context.js';

export interface AgentContext {
  relay: TurnRelay;
  /** The `thinking` levels the configured model takes. */
  thinkingLevels: readonly string[];
  /** Big bodies (photos) are read within the process's upload budget. */
  uploadBudget: BodyBudget;
}

/** A body over this is read within the upload budget (a conversation without photos is far smaller). */
const BUDGETED_BODY = 256 * 1024;
export const CHAT_BODY_LIMIT = 10 * 1024 * 1024;

/** Each photo checked by its bytes and made small (infra/images/chat-images.ts); the first that fails is the 422. */
async function normaliseImages(messages: HistoryEntry[]): Promise<HistoryEntry[]> {
  const out: HistoryEntry[] = [];
  for (const [i, entry] of messages.entries()) {
    if (!isUser(entry) || typeof entry.content === 'string' || !entry.content.some((part) => part.type === 'input_image')) {
      out.push(entry);
      continue;
    }
    const content = [];
    for (const [p, part] of entry.content.entries()) {
      if (part.type !== 'input_image') {
        content.push(part);
        continue;
      }
      const path = `messages[${i}].content[${p}]`;
      const uri = readDataUri(part.image)!;
      const image = await normaliseChatImage(uri.contentType, uri.base64, AGENT_LIMITS.imagePixels);
      if (!image.ok) throw new HttpError(422, image.problem === 'too-many-pixels' ? messageErrors.imagePixels(path) : messageErrors.imageUnreadable(path), { details: [{ path: `${path}.image`, message: image.problem === 'too-many-pixels' ? messageErrors.imagePixels(path) : messageErrors.imageUnreadable(path) }] });
      content.push({ type: 'input_image' as const, image: image.dataUri });
    }
    out.push({ ...entry, content });
  }
  return out;
}

/** How a turn that failed answers a non-streaming request (a 5xx gives the quota unit back). */
const failureStatus = (error: string): number => (error === AGENT_FAILURES.internal ? 500 : 503);

export const agentRoutes = (context: AgentContext) => (app: FastifyInstance) => {
  zodRoutes(app).post(
    '/v2/agent/chat',
    {
      bodyLimit: CHAT_BODY_LIMIT,
      // Over BUDGETED_BODY (photos) the body is read within the process's budget, paced.
      preParsing: budgetedBody(context.uploadBudget, { bytes: (request) => declaredBody(request, CHAT_BODY_LIMIT, BUDGETED_BODY) }),
      config: { auth: 'public', resource: 'api.v2.agent.chat' },
      schema: {
        summary: 'Chat with the stylist agent',
        description:
          'One agent turn over `messages` (the previous `history` plus the shopper\'s new message). Streams `text/event-stream` by default ' +
          '(events: text_delta, tool_called, tool_output, search_results, looks, question, suggestions, cart_action, thinking, thinking_delta, thinking_break, done, error); ' +
          '`stream: false` answers one JSON body. Errors before the stream are JSON; after it opened, an `error` event ends it.',
        body: chatRequestSchema(context.thinkingLevels),
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const chat: ChatRequest = request.body as ChatRequest;
      const messages = await normaliseImages(chat.messages);
      let handle;
      try {
        handle = await context.relay.start({ organizationId: caller.organizationId, demo: caller.demo, request: { ...chat, messages } as unknown as Record<string, unknown> });
      } catch (error) {
        if (error instanceof TurnsBusy) throw new HttpError(503, AGENT_FAILURES.busy);
        throw error;
      } finally {
        // The body is in the queue now: its bytes no longer weigh on this process.
        releaseBody(request);
      }

      if (chat.stream) {
        const stream = openEventStream(request, reply);
        stream.onClose(() => handle.cancel());
        for await (const event of handle.events) stream.send(event.event, event.data);
        stream.end();
        return reply;
      }

      // One JSON body: what the stream would have carried, gathered (text deltas joined into `text`).
      clientGone(reply).addEventListener('abort', () => handle.cancel(), { once: true });
      const events: AgentEvent[] = [];
      for await (const event of handle.events) {
        if (event.event === 'error') throw new HttpError(failureStatus(event.data.error), event.data.error);
        if (event.event === 'done') return { turnId: handle.turnId, text: event.data.text, history: event.data.history, usage: event.data.usage, events };
        if (event.event !== 'text_delta' && event.event !== 'thinking_delta') events.push(event);
      }
      throw new HttpError(503, AGENT_FAILURES.worker);
    },
  );
};

