// v1 chats: the command side. Messages are sealed here, under the chat's own key, before any
// decider sees them (infra/crypto/chat-keys.ts); the deciders rule on counts and owners from the
// chat's stream and from the organization's chat ledger, never from the read model.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  chatDecider,
  chatLedgerDecider,
  chatLedgerStream,
  chatMessages,
  chatStream,
  generatingTurn,
  messageCharacters,
  ownChat,
  userMessage,
  type ChatEvent,
  type ChatLedgerState,
  type ChatMessage,
  type ChatState,
  type Sealed,
} from '../domain/chat/index.js';
import type { FinishedReply } from '../domain/chat/reply.js';
import { applyToTranscript, type TranscriptEntry } from '../domain/chat/transcript.js';
import { Invalid, NotFound } from '../domain/errors.js';
import type { CommandMeta } from '../domain/metadata.js';
import { chatKey, createChatKey, destroyChatKey, openEvent, seal, type ChatKey } from '../infra/crypto/chat-keys.js';
import type { EventStore, Position } from '../infra/eventstore/port.js';
import { handleCommand, handleKnown, readKnown, type KnownStream } from './handle.js';

export interface ChatDeps {
  eventStore: EventStore;
  db: Kysely<any>;
  /** Chats an organization may hold at once (CHAT_MAX_PER_ORGANIZATION). */
  maxChats: number;
  ledgers: ChatLedgers;
}

/** Ledgers as this process last saw them, so opening a chat does not read the whole ledger each time. */
export class ChatLedgers {
  readonly #known = new Map<string, KnownStream<ChatLedgerState>>();
  readonly maxOrganizations: number;
  constructor(maxOrganizations = 1_000) {
    this.maxOrganizations = maxOrganizations;
  }

  async open(store: EventStore, organizationId: string, chatId: string, maxChats: number, meta: CommandMeta): Promise<void> {
    await this.#run(store, organizationId, { type: 'OpenChat', data: { organizationId, chatId, maxChats } }, meta);
  }

  /** The organization's chat opened longest ago that is still open; null when it has none. */
  async oldest(store: EventStore, organizationId: string): Promise<string | null> {
    const known = this.#known.get(organizationId) ?? (await readKnown(store, chatLedgerDecider, chatLedgerStream(organizationId)));
    this.#known.set(organizationId, known);
    // A set iterates in insertion order: the ledger's order of opening.
    return known.state.open.values().next().value ?? null;
  }

  async close(store: EventStore, organizationId: string, chatId: string, meta: CommandMeta): Promise<void> {
    await this.#run(store, organizationId, { type: 'CloseChat', data: { organizationId, chatId } }, meta);
  }

  async #run(store: EventStore, organizationId: string, command: Parameters<typeof chatLedgerDecider.decide>[0], meta: CommandMeta): Promise<void> {
    const known = this.#known.get(organizationId) ?? (await readKnown(store, chatLedgerDecider, chatLedgerDecider.streamId(command)));
    // Taken out while the command runs: a fold changes the state in place, so a failure leaves nothing half-applied behind.
    this.#known.delete(organizationId);
    const handled = await handleKnown(store, chatLedgerDecider, command, meta, known);
    this.#known.set(organizationId, handled.known);
    if (this.#known.size > this.maxOrganizations) this.#known.delete(this.#known.keys().next().value!);
  }
}

interface Sealing {
  messages: Sealed;
  count: number;
  characters: number;
}

const sealMessages = (key: ChatKey, chatId: string, messages: ChatMessage[]): Sealing => ({
  messages: seal(key, chatId, messages),
  count: messages.length,
  characters: messages.reduce((sum, message) => sum + messageCharacters(message), 0),
});

/** A chat's state and messages, read from its stream and opened with its key. */
export interface ChatRead {
  state: ChatState;
  transcript: TranscriptEntry[];
  known: KnownStream<ChatState>;
  key: ChatKey | null;
}

export async function readChat(deps: Pick<ChatDeps, 'eventStore' | 'db'>, chatId: string): Promise<ChatRead> {
  const recorded = await deps.eventStore.readStream(chatStream(chatId));
  const key = recorded.length ? await chatKey(deps.db, chatId) : null;
  let state: ChatState = chatDecider.initialState;
  let transcript: TranscriptEntry[] = [];
  for (const raw of recorded) {
    const event = { type: raw.type, data: raw.data } as unknown as ChatEvent;
    state = chatDecider.evolve(state, event);
    transcript = applyToTranscript(transcript, event, openEvent(key, event, { trail: true }));
  }
  return { state, transcript, key, known: { state, revision: recorded.at(-1)?.revision ?? 'no_stream' } };
}

/** A new chat of the organization, with `messages` as its first messages (a reply being written last when `turnId` is set). */
export async function startChat(
  deps: ChatDeps,
  input: { organizationId: string; chatId: string; via: 'message' | 'create'; messages: ChatMessage[]; turnId: string | null; rolling?: boolean },
  meta: CommandMeta,
): Promise<{ position: Position | null }> {
  const { organizationId, chatId, via, messages, turnId } = input;
  await openOnLedger(deps, organizationId, chatId, input.rolling ?? false, meta);
  const key = await createChatKey(deps.db, organizationId, chatId, new Date(meta.now));
  const first = messages.length ? { ...sealMessages(key, chatId, messages), turnId } : null;
  const { position } = await handleCommand(deps.eventStore, chatDecider, { type: 'StartChat', data: { chatId, organizationId, via, first } }, meta);
  return { position };
}

/**
 * The chat's place on its organization's ledger. A rolling organization (the shared demo, whose
 * chats anyone on the internet starts) never fills up: its oldest chat is deleted to make room,
 * as a shredded chat like any other, instead of refusing every visitor once the bound is reached.
 */
async function openOnLedger(deps: ChatDeps, organizationId: string, chatId: string, rolling: boolean, meta: CommandMeta): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await deps.ledgers.open(deps.eventStore, organizationId, chatId, deps.maxChats, meta);
    } catch (error) {
      const full = error instanceof Invalid && error.message === chatMessages.tooManyChats(deps.maxChats);
      if (!rolling || !full || attempt > 3) throw error;
      const oldest = await deps.ledgers.oldest(deps.eventStore, organizationId);
      if (!oldest) throw error;
      await deleteChat(deps, { organizationId, chatId: oldest }, { ...meta, actor: { kind: 'system', id: 'demo-rolling' }, correlationId: randomUUID() }).catch((failure: unknown) => {
        // Deleted meanwhile by another request: its place is free either way.
        if (!(failure instanceof NotFound)) throw failure;
      });
    }
  }
}

export interface BegunTurn {
  chatId: string;
  /** The chat before this turn's messages. */
  transcript: TranscriptEntry[];
  position: Position | null;
}

/**
 * The shopper's message and the reply's placeholder (`generating`), appended in the chat's order:
 * two messages sent to one chat at once both land, one after the other. Without `chatId`, a new chat.
 */
export async function beginTurn(
  deps: ChatDeps,
  input: { organizationId: string; chatId: string | null; text: string; turnId: string; rolling?: boolean },
  meta: CommandMeta,
): Promise<BegunTurn> {
  const { organizationId, text, turnId } = input;
  const messages = [userMessage(text), generatingTurn()];
  if (!input.chatId) {
    const chatId = randomUUID();
    const { position } = await startChat(deps, { organizationId, chatId, via: 'message', messages, turnId, rolling: input.rolling ?? false }, meta);
    return { chatId, transcript: [], position };
  }
  const chatId = input.chatId;
  const read = await readChat(deps, chatId);
  ownChat(read.state, organizationId);
  // A chat whose key is gone is being deleted.
  if (!read.key) throw new NotFound(chatMessages.notFound);
  const { position } = await handleKnown(deps.eventStore, chatDecider, { type: 'AppendTurn', data: { chatId, organizationId, turnId, ...sealMessages(read.key!, chatId, messages) } }, meta, read.known);
  return { chatId, transcript: read.transcript, position };
}

/** The turn's reply put in its placeholder's place, or the placeholder taken out when the turn failed (`reply` null). */
export async function finishReply(
  deps: ChatDeps,
  input: { organizationId: string; chatId: string; turnId: string; reply: FinishedReply | null },
  meta: CommandMeta,
): Promise<{ position: Position | null }> {
  const { organizationId, chatId, turnId, reply } = input;
  const key = await chatKey(deps.db, chatId);
  // Deleted while the reply was written: there is nothing to record it in, and it must not be kept.
  if (!key) return { position: null };
  const data = reply
    ? { outcome: reply.status, message: seal(key, chatId, reply.message), trail: seal(key, chatId, reply.trail), characters: reply.characters }
    : { outcome: 'failed' as const, message: null, trail: null, characters: 0 };
  const { position } = await handleCommand(deps.eventStore, chatDecider, { type: 'FinishReply', data: { chatId, organizationId, turnId, ...data } }, meta);
  return { position };
}

export async function replaceMessages(deps: ChatDeps, input: { organizationId: string; chatId: string; messages: ChatMessage[] }, meta: CommandMeta): Promise<{ position: Position | null }> {
  const { organizationId, chatId, messages } = input;
  const read = await readChat(deps, chatId);
  ownChat(read.state, organizationId);
  if (!read.key) throw new NotFound(chatMessages.notFound);
  const { position } = await handleKnown(deps.eventStore, chatDecider, { type: 'ReplaceMessages', data: { chatId, organizationId, ...sealMessages(read.key!, chatId, messages) } }, meta, read.known);
  return { position };
}

/**
 * Deletes the chat: its key first (from then on nothing it sealed can be read, in any event or
 * replay), then the deletion is recorded and the organization's ledger gives its place back.
 */
export async function deleteChat(deps: ChatDeps, input: { organizationId: string; chatId: string }, meta: CommandMeta): Promise<{ position: Position | null }> {
  const { organizationId, chatId } = input;
  const read = await readChat(deps, chatId);
  ownChat(read.state, organizationId);
  await destroyChatKey(deps.db, chatId);
  const { position } = await handleKnown(deps.eventStore, chatDecider, { type: 'DeleteChat', data: { chatId, organizationId } }, meta, read.known);
  await deps.ledgers.close(deps.eventStore, organizationId, chatId, meta);
  return { position };
}
