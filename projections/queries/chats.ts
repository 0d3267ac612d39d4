// Reads of the chats read model, always within one organization.
import { sql, type Kysely } from 'kysely';
import type { Chat, ChatMessage } from '../../domain/chat/messages.js';
import { isUuid } from './rows.js';

export const CHAT_LIST = { defaultLimit: 20, maxLimit: 100 } as const;
export const CHAT_SORTS = ['updatedAt', 'createdAt', 'chatId'] as const;
export type ChatSort = (typeof CHAT_SORTS)[number];

const iso = (value: unknown): string => (value instanceof Date ? value : new Date(String(value))).toISOString();

const chatOf = (row: { chat_id: string; messages: unknown; created_at: unknown; updated_at: unknown }): Chat => ({
  chatId: row.chat_id,
  messages: (typeof row.messages === 'string' ? JSON.parse(row.messages) : row.messages) as ChatMessage[],
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});

export async function getChat(db: Kysely<any>, organizationId: string, chatId: string): Promise<Chat | null> {
  if (!isUuid(chatId)) return null;
  const row = await db
    .selectFrom('chats')
    .select(['chat_id', 'messages', 'created_at', 'updated_at'])
    .where('organization_id', '=', organizationId)
    .where('chat_id', '=', chatId)
    .executeTakeFirst();
  return row ? chatOf(row) : null;
}

const COLUMNS: Record<ChatSort, string> = { updatedAt: 'updated_at', createdAt: 'created_at', chatId: 'chat_id' };

/** One page of the organization's chats; ties broken by chat id in the same direction. */
export async function listChats(
  db: Kysely<any>,
  organizationId: string,
  page: { skip: number; limit: number; sortBy: ChatSort; sortOrder: 'asc' | 'desc' },
): Promise<{ chats: Chat[]; total: number }> {
  const column = COLUMNS[page.sortBy];
  const [rows, count] = await Promise.all([
    db
      .selectFrom('chats')
      .select(['chat_id', 'messages', 'created_at', 'updated_at'])
      .where('organization_id', '=', organizationId)
      .orderBy(sql.ref(column), page.sortOrder)
      // Ties (same millisecond) broken by id; sorting by id needs no tie-break.
      .$if(page.sortBy !== 'chatId', (query) => query.orderBy('chat_id', page.sortOrder))
      .offset(page.skip)
      .limit(page.limit)
      .execute(),
    db.selectFrom('chats').select((eb) => eb.fn.countAll().as('n')).where('organization_id', '=', organizationId).executeTakeFirstOrThrow(),
  ]);
  return { chats: rows.map(chatOf), total: Number(count.n) };
}
