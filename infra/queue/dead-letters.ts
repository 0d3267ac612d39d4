// Every message the work queue gave up on, whatever its subject, kept in the database (table
// queue_dead_letters, migration 0011) so an operator can list it and put it back: `stylist queue
// dead-letters` and `stylist queue replay`. Both adapters write here through the DeadLetterSink
// they are given, so embedded and JetStream deployments keep the same record.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { DeadLetter, WorkQueue } from './port.js';

export interface StoredDeadLetter {
  deadLetterId: string;
  subject: string;
  /** The queue message id (its dedupe id when it was enqueued with one). */
  messageId: string;
  reason: string;
  deliveries: number;
  payload: unknown;
  deadAt: string;
  replayedAt: string | null;
}

export class DeadLetterNotFound extends Error {
  override name = 'DeadLetterNotFound';
}

export class DeadLetterAlreadyReplayed extends Error {
  override name = 'DeadLetterAlreadyReplayed';
}

export interface DeadLetterStore {
  record(dead: DeadLetter): Promise<void>;
  /** Newest first; replayed ones only when asked. */
  list(options?: { includeReplayed?: boolean; limit?: number }): Promise<StoredDeadLetter[]>;
  get(deadLetterId: string): Promise<StoredDeadLetter | null>;
  /** True when this call marked it (false: already replayed). */
  markReplayed(deadLetterId: string, at: Date): Promise<boolean>;
}

export function deadLetterStore(db: Kysely<any>): DeadLetterStore {
  const rowOf = (row: Record<string, any>): StoredDeadLetter => ({
    deadLetterId: row.dead_letter_id,
    subject: row.subject,
    messageId: row.message_id,
    reason: row.reason,
    deliveries: row.deliveries,
    payload: parseJsonOr(row.payload),
    deadAt: new Date(row.dead_at).toISOString(),
    replayedAt: row.replayed_at ? new Date(row.replayed_at).toISOString() : null,
  });
  return {
    async record(dead) {
      await db
        .insertInto('queue_dead_letters')
        .values({
          dead_letter_id: randomUUID(),
          subject: dead.subject,
          message_id: dead.id,
          reason: dead.reason.slice(0, 2000),
          deliveries: dead.deliveryCount,
          payload: JSON.stringify(dead.payload) ?? 'null',
          dead_at: new Date(),
        })
        .execute();
    },
    async list(options = {}) {
      let query = db.selectFrom('queue_dead_letters').selectAll().orderBy('dead_at', 'desc').orderBy('dead_letter_id').limit(options.limit ?? 100);
      if (!options.includeReplayed) query = query.where('replayed_at', 'is', null);
      return (await query.execute()).map(rowOf);
    },
    async get(deadLetterId) {
      if (!UUID.test(deadLetterId)) return null;
      const row = await db.selectFrom('queue_dead_letters').selectAll().where('dead_letter_id', '=', deadLetterId).executeTakeFirst();
      return row ? rowOf(row) : null;
    },
    async markReplayed(deadLetterId, at) {
      const result = await db.updateTable('queue_dead_letters').set({ replayed_at: at }).where('dead_letter_id', '=', deadLetterId).where('replayed_at', 'is', null).executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}

/**
 * Puts a dead letter back on its subject and marks it replayed. The payload is checked against the
 * subject's schema first (a message that can never parse would only die again). Its dedupe id
 * derives from the dead letter, so a retried replay inside the dedupe window enqueues once, and it
 * cannot collide with the original message's id.
 */
export async function replayDeadLetter(
  store: DeadLetterStore,
  queue: WorkQueue,
  deadLetterId: string,
  schemas: Readonly<Record<string, z.ZodType>>,
): Promise<StoredDeadLetter & { duplicate: boolean }> {
  const dead = await store.get(deadLetterId);
  if (!dead) throw new DeadLetterNotFound(`no dead letter ${deadLetterId}`);
  if (dead.replayedAt) throw new DeadLetterAlreadyReplayed(`dead letter ${deadLetterId} was replayed at ${dead.replayedAt}`);
  const schema = schemas[dead.subject];
  if (schema) {
    const parsed = schema.safeParse(dead.payload);
    if (!parsed.success) throw new TypeError(`dead letter ${deadLetterId} cannot be replayed: its payload does not fit ${dead.subject} (${parsed.error.issues[0]?.message})`);
  }
  const { duplicate } = await queue.enqueue(dead.subject, dead.payload, { dedupeId: `replay-${deadLetterId}` });
  const at = new Date();
  await store.markReplayed(deadLetterId, at);
  return { ...dead, replayedAt: at.toISOString(), duplicate };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function parseJsonOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
