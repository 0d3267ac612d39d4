// given/when/then for projectors, like the deciders' (decider.ts): given past events, when one
// more, then these rows in the read model. Runs on a real database (PGlite, or a Postgres schema on
// the integration run) with the read-model migrations applied. Every event goes through the
// upcaster first, so a spec's events must match their type's schema as stored events do. A
// projector with an `applyBatch` fast path is checked both ways: event by event, and as one batch.
import { sql, type Kysely } from 'kysely';
import type { Test } from 'tap';
import type { AnyEvent, EventMetadata, RecordedEvent } from '../../infra/eventstore/port.js';
import { upcastEvent } from '../../infra/eventstore/upcasting.js';
import { migrate } from '../../projections/migrations.js';
import type { Projector } from '../../projections/projector.js';
import { openTestDatabase } from './database.js';

export const specMetadata: EventMetadata = {
  actor: { kind: 'system', id: 'test' },
  correlationId: '00000000-0000-4000-8000-000000000001',
  at: '2026-01-02T03:04:05.000Z',
};

/** An event of the union, with the envelope fields a projector may read set where it matters. */
export type SpecEvent<E extends AnyEvent> = E & { metadata?: EventMetadata };

export type Rows = Record<string, Array<Record<string, unknown>>>;

export interface ProjectorSpecOptions<E extends AnyEvent> {
  /** The stream each event belongs to: revisions count per stream, as in the store. */
  stream: (event: E) => string;
}

export async function projectorSpecFor<E extends AnyEvent>(t: Test, projector: Projector, { stream }: ProjectorSpecOptions<E>) {
  const database = await openTestDatabase(t);
  await migrate(database.db);
  const db = database.db;

  const record = (events: ReadonlyArray<SpecEvent<E>>): RecordedEvent[] => {
    const revisions = new Map<string, bigint>();
    return events.map(({ metadata, ...event }, i) => {
      const streamId = stream(event as unknown as E);
      const revision = revisions.has(streamId) ? revisions.get(streamId)! + 1n : 0n;
      revisions.set(streamId, revision);
      const position = { commit: BigInt(i + 1), prepare: BigInt(i + 1) };
      return upcastEvent({
        id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
        streamId,
        revision,
        position,
        type: event.type,
        data: event.data as Record<string, unknown>,
        metadata: metadata ?? specMetadata,
        recordedAt: specMetadata.at!,
      });
    });
  };

  const apply = async (events: RecordedEvent[], batched: boolean) => {
    await sql`truncate table ${sql.join(projector.tables.map((table) => sql.table(table)))} cascade`.execute(db);
    const handled = events.filter((event) => Object.hasOwn(projector.handlers, event.type));
    await db.transaction().execute(async (trx) => {
      if (batched) await projector.applyBatch!(trx, handled);
      else for (const event of handled) await projector.handlers[event.type]!(trx, event);
    });
  };

  const read = async (expected: Rows): Promise<Rows> => {
    const rows: Rows = {};
    for (const table of Object.keys(expected)) {
      rows[table] = (await sql<Record<string, unknown>>`select * from ${sql.table(table)} order by 1`.execute(db)).rows;
    }
    return rows;
  };

  return {
    db: db as Kysely<any>,
    given: (given: ReadonlyArray<SpecEvent<E>>) => ({
      when: (...when: Array<SpecEvent<E>>) => ({
        /** Each listed table holds exactly these rows (ordered by its first column), matched field by field. */
        then: async (expected: Rows, message = 'read model') => {
          const events = record([...given, ...when]);
          for (const batched of projector.applyBatch ? [false, true] : [false]) {
            await apply(events, batched);
            const rows = await read(expected);
            const how = batched ? ' (applyBatch)' : '';
            for (const [table, want] of Object.entries(expected)) {
              t.equal(rows[table]!.length, want.length, `${message}${how}: ${table} has ${want.length} rows`);
              t.match(rows[table], want, `${message}${how}: ${table}`);
            }
          }
        },
      }),
    }),
  };
}
