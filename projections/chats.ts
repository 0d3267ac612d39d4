// Read model of v1 chats: one row per chat that is not deleted, with its messages opened. The
// events carry the text sealed under the chat's key (infra/crypto/chat-keys.ts); this projector
// opens it to build the row. A deleted chat's row is removed, and its key is gone, so a rebuild
// finds nothing to open for it and its text never comes back.
import type { Kysely } from 'kysely';
import type { ChatEvent } from '../domain/chat/events.js';
import type { ChatMessage } from '../domain/chat/messages.js';
import { applyToTranscript, type OpenedContents } from '../domain/chat/transcript.js';
import { chatKey, openEvent } from '../infra/crypto/chat-keys.js';
import type { RecordedEvent } from '../infra/eventstore/port.js';
import { projector } from './projector.js';

type Recorded = RecordedEvent<ChatEvent>;

async function opened(db: Kysely<any>, event: Recorded): Promise<OpenedContents> {
  const data = event.data as { messages?: unknown; message?: unknown };
  // Only an event that seals something needs the key read.
  if (!data.messages && !data.message) return {};
  return openEvent(await chatKey(db, event.data.chatId), event, { trail: false });
}

/** Applies one event to the chat's row, when the row has not seen it yet. */
async function update(db: Kysely<any>, event: Recorded): Promise<void> {
  const row = await db
    .selectFrom('chats')
    .select(['messages', 'revision'])
    .where('chat_id', '=', event.data.chatId)
    .executeTakeFirst();
  if (!row || BigInt(row.revision) >= event.revision) return;
  const current: ChatMessage[] = typeof row.messages === 'string' ? JSON.parse(row.messages) : row.messages;
  const next = applyToTranscript(current.map((message) => ({ message, trail: null })), event, await opened(db, event)).map((entry) => entry.message);
  await db
    .updateTable('chats')
    .set({ messages: JSON.stringify(next), updated_at: event.data.at, revision: event.revision.toString() })
    .where('chat_id', '=', event.data.chatId)
    .execute();
}

export const chats = projector<ChatEvent>({
  name: 'chats',
  tables: ['chats'],
  handlers: {
    ChatCreated: async (db, event) => {
      const { chatId, organizationId, at } = event.data;
      await db
        .insertInto('chats')
        .values({ chat_id: chatId, organization_id: organizationId, messages: '[]', created_at: at, updated_at: at, revision: event.revision.toString() })
        .onConflict((c) => c.column('chat_id').doNothing())
        .execute();
    },
    ChatMessagesAppended: (db, event) => update(db, event),
    ChatReplyFinished: (db, event) => update(db, event),
    ChatMessagesReplaced: (db, event) => update(db, event),
    ChatDeleted: async (db, event) => {
      await db.deleteFrom('chats').where('chat_id', '=', event.data.chatId).execute();
    },
  },
});
