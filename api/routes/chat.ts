// Chat v1 (document 1 "Chat (v1, retrieval retired)", document 3 §3 "Chat v1"): a thin adapter over
// the stylist agent. `POST /v1/chat` runs the same turn as POST /v2/agent/chat (same relay, worker,
// tools and model), on a conversation the service keeps: the chat's stream gives the history, and
// the turn's events are told as document 1's three parts (domain/chat/reply.ts). The management
// routes (private key, scope `chat`) create, replace, delete and list chats. Retrieving one chat
// stays retired (api/routes/retired.ts).
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { v5 as uuidv5 } from 'uuid';
import { z } from 'zod';
import { beginTurn, ChatLedgers, deleteChat, finishReply, replaceMessages, startChat, type ChatDeps } from '../../commands/chats.js';
import { chatRequestSchema, readCountry, readStream, requestErrors } from '../../domain/agent/request.js';
import { AGENT_FAILURES } from '../../domain/agent/stream-events.js';
import { agentMessages } from '../../domain/chat/agent-history.js';
import { CHAT_LIMITS, chatMessages, chatMessagesSchema, CHAT_ROLES, type ChatMessage } from '../../domain/chat/messages.js';
import { ReplyBuilder, type ChatStreamEvent, type FinishedReply } from '../../domain/chat/reply.js';
import { chatStream } from '../../domain/chat/events.js';
import { NotFound } from '../../domain/errors.js';
import type { Position } from '../../infra/eventstore/port.js';
import { CHAT_LIST, CHAT_SORTS, getChat, listChats, type ChatSort } from '../../projections/queries/chats.js';
import { isUuid } from '../../projections/queries/rows.js';
import { TurnsBusy, type TurnRelay } from '../agent-relay.js';
import { clientGone } from '../client-gone.js';
import { forgetIdempotentAnswers } from '../plugins/idempotency.js';
import { HttpError } from '../plugins/errors.js';
import { zodRoutes } from '../plugins/validation.js';
import { openEventStream } from '../sse.js';
import { callerOf, commandMeta, type RouteContext } from './context.js';

export interface ChatContext {
  relay: TurnRelay;
  thinkingLevels: readonly string[];
  /** v1 chats one organization may hold at once. */
  maxChats: number;
}

const PROJECTIONS = ['chats'];

// Namespace of chat ids made by POST /v1/chat/create, derived from the request's correlation id (uuid v5).
const CHAT_ID_NAMESPACE = '2e8c4f1a-7b3d-4c6e-9a5f-1d0b8e7c3a92';

const notFound = () => new NotFound(chatMessages.notFound);

/** A chat id from a path or a body: surrounding whitespace trimmed; nothing left is the 422, anything not a chat id the 404. */
function chatIdOf(value: string): string {
  const chatId = value.trim();
  if (!chatId) throw new HttpError(422, chatMessages.chatId);
  if (!isUuid(chatId)) throw notFound();
  return chatId.toLowerCase();
}

const messageBody = z.object(
  {
    message: z
      .string({ error: chatMessages.message })
      .refine((text) => text.trim().length >= 1, chatMessages.message)
      .refine((text) => text.trim().length <= CHAT_LIMITS.message, chatMessages.message)
      .describe(`The shopper's message, 1 to ${CHAT_LIMITS.message} characters once trimmed.`),
    chatId: z.string({ error: chatMessages.chatId }).max(100, chatMessages.chatId).nullish().describe('The chat to continue; absent: a new chat.'),
    datasetIds: z
      .array(z.string({ error: requestErrors.datasetIds }).max(100, requestErrors.datasetIds), { error: requestErrors.datasetIds })
      .max(100, requestErrors.datasetIds)
      .nullish(),
    stream: z.unknown().optional().describe('true: Server-Sent Events (text_delta, slots, status, done, error). Default false.'),
    country: z.unknown().optional().describe("The shopper's country (ISO 3166-1 alpha-2) for market prices, as in v2."),
  },
  { error: 'Request body must be a JSON object.' },
);

const messageSchema = z
  .object({
    role: z.enum(CHAT_ROLES),
    content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]),
  })
  .describe('Document 1: role, and content as a string or parts (input_text, input_image, output_text, output_slots, output_status).');
const chatSchema = z.object({ chatId: z.string(), messages: z.array(messageSchema), createdAt: z.string(), updatedAt: z.string() });

const replaceBody = z.object({ messages: chatMessagesSchema }, { error: 'Request body must be a JSON object.' });
const createBody = z.object({ messages: chatMessagesSchema.optional() }, { error: 'Request body must be a JSON object.' });

/** Document 1's chat list query: never an error, always a page. */
const listQuery = z.object({ skip: z.unknown().optional(), limit: z.unknown().optional(), sortBy: z.unknown().optional(), sortOrder: z.unknown().optional() }).transform((query) => {
  const whole = (value: unknown): number | null => {
    const number = typeof value === 'string' && value.trim() !== '' ? Math.trunc(Number(value)) : Number.NaN;
    // `1e400` is a number too big to be one: past every page.
    if (number === Infinity) return Number.MAX_SAFE_INTEGER;
    return Number.isFinite(number) ? number : null;
  };
  const skip = whole(query.skip);
  const limit = whole(query.limit);
  return {
    skip: skip === null || skip < 0 ? 0 : Math.min(skip, Number.MAX_SAFE_INTEGER),
    limit: limit === null || limit === 0 ? CHAT_LIST.defaultLimit : limit < 0 ? 1 : Math.min(limit, CHAT_LIST.maxLimit),
    sortBy: ((CHAT_SORTS as readonly unknown[]).includes(query.sortBy) ? query.sortBy : 'updatedAt') as ChatSort,
    sortOrder: query.sortOrder === 'asc' ? ('asc' as const) : ('desc' as const),
  };
});

/** How a failed turn answers a non-streaming request (a 5xx gives the quota unit back). */
const failureStatus = (error: string): number => (error === AGENT_FAILURES.internal ? 500 : 503);

export const chatRoutes = (context: RouteContext & ChatContext) => (app: FastifyInstance) => {
  const routes = zodRoutes(app);
  const deps: ChatDeps = { eventStore: context.eventStore, db: context.db, maxChats: context.maxChats, ledgers: new ChatLedgers() };

  /** The chat as the read model has it once `position` is applied. */
  const chatAfter = async (organizationId: string, chatId: string, position: Position | null) => {
    if (position) await context.waitFor(position, PROJECTIONS);
    const chat = await getChat(context.db, organizationId, chatId);
    if (!chat) throw notFound();
    return chat;
  };

  routes.post(
    '/v1/chat',
    {
      config: { auth: 'public', resource: 'api.v1.chat.message' },
      schema: {
        tags: ['chat'],
        summary: 'Send a message (chat v1)',
        description:
          'One stylist turn on a chat the service keeps (created when `chatId` is absent). Answers `{ chatId, message }`, the assistant turn as text, slots and status; ' +
          '`stream: true` sends Server-Sent Events text_delta, slots, status, done ({ chatId, message }) and error. Prefer POST /v2/agent/chat for new integrations.',
        body: messageBody,
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const body = request.body;
      const chatId = body.chatId === undefined || body.chatId === null ? null : chatIdOf(body.chatId);
      const text = body.message.trim();
      const stream = body.stream === undefined ? false : readStream(body.stream);
      const meta = commandMeta(request);
      const turnId = randomUUID();
      const organizationId = caller.organizationId;

      // The demo's chats roll over (the oldest makes room), so the shared key never fills up.
      const begun = await beginTurn(deps, { organizationId, chatId, text, turnId, rolling: caller.demo }, meta);
      const finish = async (finished: FinishedReply | null) => {
        const { position } = await finishReply(deps, { organizationId, chatId: begun.chatId, turnId, reply: finished }, { ...meta, now: new Date().toISOString() });
        if (position) await context.waitFor(position, PROJECTIONS);
      };
      const messages = agentMessages(begun.transcript, text);
      const agentRequest = chatRequestSchema(context.thinkingLevels).safeParse({ messages, datasetIds: body.datasetIds ?? [], country: readCountry(body.country) ?? undefined, stream: true });
      if (!agentRequest.success) {
        await finish(null);
        throw new Error(`a v1 turn built an agent request the agent refuses: ${agentRequest.error.issues[0]?.message}`);
      }
      let handle;
      try {
        handle = await context.relay.start({ organizationId, demo: caller.demo, request: agentRequest.data as unknown as Record<string, unknown> });
      } catch (error) {
        await finish(null);
        if (error instanceof TurnsBusy) throw new HttpError(503, AGENT_FAILURES.busy);
        throw error;
      }
      reply.header('x-chat-id', begun.chatId);
      const builder = new ReplyBuilder(turnId, messages.length);

      if (stream) {
        const events = openEventStream(request, reply);
        let ended = false;
        events.onClose(() => {
          if (ended) return;
          ended = true;
          handle.cancel();
          void finish(null).catch((error: unknown) => request.log.warn({ err: error }, 'a v1 chat turn the shopper left could not be closed'));
        });
        const send = (event: ChatStreamEvent) => events.send(event.event, event.data);
        for await (const event of handle.events) {
          if (event.event === 'error') {
            ended = true;
            await finish(null).catch((error: unknown) => request.log.warn({ err: error }, 'a failed v1 chat turn could not be closed'));
            send({ event: 'error', data: { error: event.data.error } });
          } else if (event.event === 'done') {
            ended = true;
            const closing = builder.finish(event.data);
            for (const out of closing.events) send(out);
            try {
              await finish(closing.reply);
              send({ event: 'done', data: { chatId: begun.chatId, message: closing.reply.message } });
            } catch (error) {
              request.log.error({ err: error }, 'a v1 chat reply could not be stored');
              send({ event: 'error', data: { error: AGENT_FAILURES.internal } });
            }
          } else for (const out of builder.take(event)) send(out);
        }
        events.end();
        return reply;
      }

      clientGone(reply).addEventListener(
        'abort',
        () => {
          handle.cancel();
          void finish(null).catch(() => undefined);
        },
        { once: true },
      );
      for await (const event of handle.events) {
        if (event.event === 'error') {
          await finish(null);
          throw new HttpError(failureStatus(event.data.error), event.data.error);
        }
        if (event.event === 'done') {
          const closing = builder.finish(event.data);
          await finish(closing.reply);
          return { chatId: begun.chatId, message: closing.reply.message };
        }
        builder.take(event);
      }
      await finish(null);
      throw new HttpError(503, AGENT_FAILURES.worker);
    },
  );

  routes.post(
    '/v1/chat/create',
    {
      config: { auth: 'private', resource: 'api.v1.chat.create', scope: 'chat', body: 'optional' },
      schema: {
        tags: ['chat'],
        summary: 'Create a chat',
        description: `An empty chat, or one holding \`messages\` (at most ${CHAT_LIMITS.messages}).`,
        body: createBody,
        response: { 201: z.object({ chat: chatSchema }) },
      },
    },
    async (request, reply) => {
      const { organizationId } = callerOf(request);
      // From the correlation id: a retry with the same Idempotency-Key makes the same chat, once.
      const chatId = uuidv5(request.correlationId, CHAT_ID_NAMESPACE);
      request.idempotencySubject = chatStream(chatId);
      const messages: ChatMessage[] = request.body.messages ?? [];
      const { position } = await startChat(deps, { organizationId, chatId, via: 'create', messages, turnId: null }, commandMeta(request));
      return reply.code(201).send({ chat: await chatAfter(organizationId, chatId, position) });
    },
  );

  routes.put(
    '/v1/chat/:chatId/messages',
    {
      config: { auth: 'private', resource: 'api.v1.chat.messages.replace', scope: 'chat' },
      schema: {
        tags: ['chat'],
        summary: "Replace a chat's messages",
        description: `Every message of the chat replaced by \`messages\` (roles, part types and sizes checked; \`generating\` is the service's and is dropped). Replies still being written are dropped.`,
        params: z.object({ chatId: z.string() }),
        body: replaceBody,
        response: { 200: z.object({ chat: chatSchema }) },
      },
    },
    async (request) => {
      const { organizationId } = callerOf(request);
      const chatId = chatIdOf(request.params.chatId);
      request.idempotencySubject = chatStream(chatId);
      const { position } = await replaceMessages(deps, { organizationId, chatId, messages: request.body.messages }, commandMeta(request));
      return { chat: await chatAfter(organizationId, chatId, position) };
    },
  );

  routes.delete(
    '/v1/chat/:chatId',
    {
      config: { auth: 'private', resource: 'api.v1.chat.delete', scope: 'chat' },
      schema: {
        tags: ['chat'],
        summary: 'Delete a chat',
        description: "The chat's words are destroyed everywhere (its key is deleted: the events keep only that it existed and was deleted).",
        params: z.object({ chatId: z.string() }),
        response: { 200: z.object({ deleted: z.literal(true) }) },
      },
    },
    async (request) => {
      const { organizationId } = callerOf(request);
      const chatId = chatIdOf(request.params.chatId);
      const { position } = await deleteChat(deps, { organizationId, chatId }, commandMeta(request));
      await forgetIdempotentAnswers(context.db, organizationId, chatStream(chatId));
      if (position) await context.waitFor(position, PROJECTIONS);
      return { deleted: true as const };
    },
  );

  routes.get(
    '/v1/chat/list',
    {
      config: { auth: 'private', resource: 'api.v1.chat.list', scope: 'chat' },
      schema: {
        tags: ['chat'],
        summary: 'List chats',
        description: `Offset pagination: skip (negative or non-numeric: 0), limit (default ${CHAT_LIST.defaultLimit}, at most ${CHAT_LIST.maxLimit}, clamped), sortBy updatedAt (default), createdAt or chatId, sortOrder asc or desc (default).`,
        querystring: listQuery,
        response: {
          200: z.object({
            chats: z.array(chatSchema),
            pagination: z.object({ total: z.number().int(), limit: z.number().int(), skip: z.number().int(), hasMore: z.boolean() }),
          }),
        },
      },
    },
    async (request) => {
      const { organizationId } = callerOf(request);
      const page = request.query;
      const { chats, total } = await listChats(context.db, organizationId, page);
      return { chats, pagination: { total, limit: page.limit, skip: page.skip, hasMore: page.skip + page.limit < total } };
    },
  );
};
