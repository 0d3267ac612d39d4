// Real components for runner tests: the Postgres event store on the test database, the
// read-model migrations, and a small "notes" read model with its own table.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../infra/db/database.js';
import { openPostgresEventStore } from '../../infra/eventstore/postgres.js';
import type { EventStore, NewEvent } from '../../infra/eventstore/port.js';
import type { Position } from '../../infra/eventstore/position.js';
import { migrate } from '../../projections/migrations.js';
import { projector, type ProjectionHandler, type Projector } from '../../projections/projector.js';
import { openTestDatabase, type Teardown } from '../support/database.js';

export interface Fixture {
  database: Database;
  db: Kysely<any>;
  store: EventStore;
}

export async function openFixture(t: Teardown): Promise<Fixture> {
  const database = await openTestDatabase(t);
  const store = await openPostgresEventStore(database);
  // tap runs teardowns last-in first-out: the store closes before its database.
  t.teardown(() => store.close());
  await migrate(database.db);
  return { database, db: database.db, store };
}

/** A notes table; `seq` is serial so a rebuild must restart it to give identical rows. */
export async function createNotesTable(db: Kysely<any>, table: string): Promise<void> {
  await sql`create table if not exists ${sql.table(table)} (
    seq serial primary key,
    note_id text not null unique,
    body text not null,
    edits int not null default 0,
    position text not null,
    recorded_at text not null
  )`.execute(db);
}

/**
 * Each subtest writes its own kind of note (`MemoWritten`, `DraftEdited`…) and its projectors
 * handle only that kind, so the subtests of a file can share one database: a PGlite boot costs
 * seconds. Other kinds still pass through a projector and move its checkpoint.
 */
export interface NotesProjectorOptions {
  name: string;
  table: string;
  kind: string;
  /** Extra or replacement handlers, keyed by full event type. */
  extra?: Record<string, ProjectionHandler>;
}

export const notesProjector = ({ name, table, kind, extra = {} }: NotesProjectorOptions): Projector =>
  projector(name, [table], {
    [`${kind}Written`]: (trx, event) =>
      trx
        .insertInto(table)
        .values({
          note_id: event.data.noteId,
          body: event.data.body,
          position: `${event.position.commit}/${event.position.prepare}`,
          recorded_at: event.recordedAt,
        })
        .execute(),
    [`${kind}Edited`]: (trx, event) =>
      trx
        .updateTable(table)
        .set({ body: event.data.body, edits: sql`edits + 1` })
        .where('note_id', '=', event.data.noteId)
        .execute(),
    ...extra,
  });

const streamOf = (kind: string, noteId: string): string => `${kind.toLowerCase()}-${noteId}`;

/** Appends each note as its own stream; returns the position of the last append. */
export async function writeNotes(store: EventStore, kind: string, noteIds: readonly string[]): Promise<Position> {
  let last: Position | undefined;
  for (const noteId of noteIds) {
    const event: NewEvent = { type: `${kind}Written`, data: { noteId, body: `${kind} ${noteId}` } };
    last = (await store.append(streamOf(kind, noteId), [event], { expectedRevision: 'no_stream' })).position;
  }
  if (!last) throw new Error('writeNotes needs ids');
  return last;
}

/** Edits a note written once (its stream is at revision 0 before the first edit). */
export async function editNote(store: EventStore, kind: string, noteId: string, body: string, revision = 0n): Promise<Position> {
  const event: NewEvent = { type: `${kind}Edited`, data: { noteId, body } };
  return (await store.append(streamOf(kind, noteId), [event], { expectedRevision: revision })).position;
}

export const ids = (prefix: string, count: number): string[] => Array.from({ length: count }, (_, i) => `${prefix}${String(i).padStart(4, '0')}`);

export async function dumpTable(db: Kysely<any>, table: string, orderBy: string): Promise<string> {
  const rows = await db.selectFrom(table).selectAll().orderBy(orderBy).execute();
  return JSON.stringify(rows);
}

export async function count(db: Kysely<any>, table: string): Promise<number> {
  const row = await db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
