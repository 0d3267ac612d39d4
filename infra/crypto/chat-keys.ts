// Crypto-shredding of v1 chats (docs/operations.md, "Deleting a chat"). Every chat has its own
// random AES-256 key in the `chat_keys` table, outside the event store; whatever a shopper or the
// stylist wrote is sealed with it (AES-256-GCM, the chat id bound in as associated data, so a
// sealed value cannot be moved to another chat) before it goes into an event. Deleting a chat
// deletes its key: the events stay, as the audit trail must, but what they sealed can no longer be
// read by anyone, a replay included. This module owns `chat_keys`; the chat projector reads it.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { HistoryEntry } from '../../domain/agent/messages.js';
import type { ChatEvent, Sealed } from '../../domain/chat/events.js';
import type { ChatMessage } from '../../domain/chat/messages.js';
import type { OpenedContents } from '../../domain/chat/transcript.js';

const ALGORITHM = 'aes-256-gcm';

export type ChatKey = Buffer;

export function seal(key: ChatKey, chatId: string, value: unknown): Sealed {
  const iv = randomBytes(12);
  const cipher = createCipheriv(ALGORITHM, key, iv);
  cipher.setAAD(Buffer.from(chatId));
  const data = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return { iv: iv.toString('base64'), data: data.toString('base64'), tag: cipher.getAuthTag().toString('base64') };
}

/** The value sealed, or undefined when `key` is not the one it was sealed with (or the value was altered). */
export function open<T>(key: ChatKey, chatId: string, sealed: Sealed): T | undefined {
  try {
    const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(sealed.iv, 'base64'));
    decipher.setAAD(Buffer.from(chatId));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
    const text = Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString('utf8');
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

/**
 * What an event's sealed fields hold, opened with the chat's key; nothing without a key (the chat
 * was deleted). A reply's trail only when asked: the read model never shows it.
 */
export function openEvent(key: ChatKey | null, event: ChatEvent, options: { trail: boolean }): OpenedContents {
  if (!key) return {};
  const { chatId } = event.data;
  const sealed = event.data as { messages?: Sealed; message?: Sealed | null; trail?: Sealed | null };
  return {
    ...(sealed.messages ? { messages: open<ChatMessage[]>(key, chatId, sealed.messages) } : {}),
    ...(sealed.message ? { message: open<ChatMessage>(key, chatId, sealed.message) } : {}),
    ...(options.trail && sealed.trail ? { trail: open<HistoryEntry[]>(key, chatId, sealed.trail) } : {}),
  };
}

const keyOf = (row: { key: string } | undefined): ChatKey | null => (row ? Buffer.from(row.key, 'base64') : null);

/** The chat's key; null when it never had one or it was destroyed. */
export async function chatKey(db: Kysely<any>, chatId: string): Promise<ChatKey | null> {
  return keyOf(await db.selectFrom('chat_keys').select('key').where('chat_id', '=', chatId).executeTakeFirst());
}

/** A new chat's key, made and kept before anything is sealed with it (a retry finds the one already made). */
export async function createChatKey(db: Kysely<any>, organizationId: string, chatId: string, now: Date): Promise<ChatKey> {
  await db
    .insertInto('chat_keys')
    .values({ chat_id: chatId, organization_id: organizationId, key: randomBytes(32).toString('base64'), created_at: now })
    .onConflict((c) => c.column('chat_id').doNothing())
    .execute();
  const row = await db.selectFrom('chat_keys').select(['key', 'organization_id']).where('chat_id', '=', chatId).executeTakeFirstOrThrow();
  if (row.organization_id !== organizationId) throw new Error(`chat ${chatId} has a key of another organization`);
  return keyOf(row)!;
}

/** Destroys the chat's key: from now on nothing sealed with it can be read. */
export async function destroyChatKey(db: Kysely<any>, chatId: string): Promise<void> {
  await db.deleteFrom('chat_keys').where('chat_id', '=', chatId).execute();
}
