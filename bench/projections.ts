// Catch-up speed of the projection runner: append N events, then time (1) a catch-up with one
// upsert per event through plain handlers, (2) the same read model through `applyBatch` (one
// multi-row upsert per batch) and (3) a rebuild of it.
// Target: ≥ 30,000 events/s on Postgres.
//   node --import tsx bench/projections.ts   (BENCH_EVENTS, BENCH_BATCH_SIZE, BENCH_REPEATS override)
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { openDatabase, redactUrl, type Database } from '../infra/db/database.js';
import { openPostgresEventStore } from '../infra/eventstore/postgres.js';
import type { EventStore, NewEvent, RecordedEvent } from '../infra/eventstore/port.js';
import { positionToString, type Position } from '../infra/eventstore/position.js';
import { migrate } from '../projections/migrations.js';
import { projector, type Projector } from '../projections/projector.js';
import { ProjectionRunner } from '../projections/runner.js';

const PRICED = 'ItemPriced';
const APPEND_CHUNK = 1000;
const BATCH_SIZE = Number(process.env.BENCH_BATCH_SIZE) || 1000;
const REPEATS = Number(process.env.BENCH_REPEATS) || 3;

interface Row {
  backend: string;
  run: string;
  events: number;
  seconds: number;
  eventsPerSecond: number;
}

const itemRow = (event: RecordedEvent) => ({
  item_id: event.data.itemId as string,
  price: event.data.price as number,
  currency: event.data.currency as string,
  position: positionToString(event.position),
});

const upsert = (trx: Kysely<any>, table: string, rows: ReturnType<typeof itemRow>[]) =>
  trx
    .insertInto(table)
    .values(rows)
    .onConflict((oc) =>
      oc.column('item_id').doUpdateSet((eb) => ({
        price: eb.ref('excluded.price'),
        currency: eb.ref('excluded.currency'),
        position: eb.ref('excluded.position'),
      })),
    )
    .execute();

const perEvent = projector('bench_per_event', ['bench_items_per_event'], {
  [PRICED]: (trx, event) => upsert(trx, 'bench_items_per_event', [itemRow(event)]),
});

// One statement per batch with one array parameter per column (unnest), instead of four
// parameters per row: less to build, send and plan. The last event for an item wins, as it
// would one by one (an upsert may not touch the same row twice in one statement).
const batched: Projector = {
  ...projector('bench_batched', ['bench_items_batched'], { [PRICED]: (trx, event) => upsert(trx, 'bench_items_batched', [itemRow(event)]) }),
  applyBatch: (trx, events) => {
    const rows = [...new Map(events.map((event) => [event.data.itemId as string, itemRow(event)])).values()];
    return sql`insert into bench_items_batched (item_id, price, currency, position)
      select * from unnest(${rows.map((r) => r.item_id)}::text[], ${rows.map((r) => r.price)}::int[],
                           ${rows.map((r) => r.currency)}::text[], ${rows.map((r) => r.position)}::text[])
      on conflict (item_id) do update set price = excluded.price, currency = excluded.currency, position = excluded.position`.execute(trx);
  },
};

async function createTables(db: Kysely<any>): Promise<void> {
  for (const table of ['bench_items_per_event', 'bench_items_batched']) {
    await sql`create table ${sql.table(table)} (item_id text primary key, price int not null, currency text not null, position text not null)`.execute(db);
  }
}

/** Returns the last event's position (headPosition() may lag behind another session's open transaction). */
async function appendEvents(store: EventStore, count: number): Promise<Position> {
  const started = Date.now();
  let last: Position | undefined;
  for (let done = 0; done < count; done += APPEND_CHUNK) {
    const events: NewEvent[] = Array.from({ length: Math.min(APPEND_CHUNK, count - done) }, (_, i) => ({
      type: PRICED,
      data: { itemId: `item-${done + i}`, price: 1000 + ((done + i) % 977), currency: 'EUR' },
      metadata: { organizationId: 'bench', actor: { kind: 'system', id: 'bench' } },
    }));
    last = (await store.append(`bench-${done / APPEND_CHUNK}`, events, { expectedRevision: 'no_stream' })).position;
  }
  log(`  appended ${count} events in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return last!;
}

/** Median of `repeats` timed runs: the machine is shared, one run is noise. `reset` runs untimed before each. */
async function timeRun(
  backend: string,
  run: string,
  events: number,
  fn: () => Promise<unknown>,
  { repeats = 1, reset }: { repeats?: number; reset?: () => Promise<unknown> } = {},
): Promise<Row> {
  const times: number[] = [];
  for (let i = 0; i < repeats; i++) {
    await reset?.();
    const started = performance.now();
    await fn();
    times.push((performance.now() - started) / 1000);
  }
  const seconds = times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
  const row = { backend, run, events, seconds: round(seconds, 2), eventsPerSecond: Math.round(events / seconds) };
  log(`  ${run}: ${row.eventsPerSecond} events/s (${times.map((t) => Math.round(events / t)).join(', ')})`);
  return row;
}

async function benchBackend(backend: string, database: Database, count: number): Promise<Row[]> {
  log(`${backend}: ${count} events, batches of ${BATCH_SIZE}`);
  const store = await openPostgresEventStore(database);
  try {
    await migrate(database.db);
    await createTables(database.db);
    const head = await appendEvents(store, count);
    const catchUp = (p: Projector) => async () => {
      const runner = new ProjectionRunner({ store, db: database.db, projectors: [p], batchSize: BATCH_SIZE });
      await runner.start();
      try {
        await runner.waitFor(head, [p.name], 600_000);
      } finally {
        await runner.stop();
      }
    };
    const forget = async (p: Projector) => {
      await sql`truncate ${sql.table(p.tables[0]!)}`.execute(database.db);
      await database.db.deleteFrom('projection_checkpoints').where('name', '=', p.name).execute();
    };
    const rows = [await timeRun(backend, 'catch-up, handler per event', count, catchUp(perEvent))];
    rows.push(await timeRun(backend, 'catch-up, applyBatch', count, catchUp(batched), { repeats: REPEATS, reset: () => forget(batched) }));
    const runner = new ProjectionRunner({ store, db: database.db, projectors: [batched], batchSize: BATCH_SIZE });
    rows.push(await timeRun(backend, 'rebuild, applyBatch', count, () => runner.rebuild(), { repeats: REPEATS }));
    await assertRows(database.db, count);
    return rows;
  } finally {
    await store.close();
  }
}

async function assertRows(db: Kysely<any>, count: number): Promise<void> {
  for (const table of ['bench_items_per_event', 'bench_items_batched']) {
    const { n } = await db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    if (Number(n) !== count) throw new Error(`${table} has ${n} rows, expected ${count}`);
  }
}

/** A fresh database on the server (dropped afterwards); a fresh schema if we may not create one. */
async function withPostgres<T>(url: string, fn: (database: Database) => Promise<T>): Promise<T> {
  const name = `stylist_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  let cleanup: string;
  let database: Database;
  try {
    await admin.query(`create database ${name}`);
    const target = new URL(url);
    target.pathname = `/${name}`;
    database = await openDatabase({ url: target.toString() });
    cleanup = `drop database ${name} with (force)`;
  } catch {
    await admin.query(`create schema ${name}`);
    database = await openDatabase({ url, schema: name });
    cleanup = `drop schema ${name} cascade`;
  }
  try {
    return await fn(database);
  } finally {
    await database.close();
    await admin.query(cleanup);
    await admin.end();
  }
}

async function main(): Promise<void> {
  const override = Number(process.env.BENCH_EVENTS) || undefined;
  const rows: Row[] = [];
  const pglite = await openDatabase({ pgliteDir: 'memory://' });
  try {
    rows.push(...(await benchBackend('pglite', pglite, override ?? 20_000)));
  } finally {
    await pglite.close();
  }
  const url = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  try {
    rows.push(...(await withPostgres(url, (database) => benchBackend('postgres', database, override ?? 100_000))));
  } catch (error) {
    log(`postgres at ${redactUrl(url)} skipped: ${error instanceof Error ? error.message : String(error)}`);
  }
  console.table(rows.map((r) => ({ backend: r.backend, run: r.run, events: r.events, seconds: r.seconds, 'events/s': r.eventsPerSecond })));
  await mkdir(new URL('./results/', import.meta.url), { recursive: true });
  const result = {
    bench: 'projections-catchup',
    at: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    loadAverage: os.loadavg(),
    batchSize: BATCH_SIZE,
    repeats: REPEATS,
    rows,
  };
  await writeFile(new URL('./results/projections-catchup.json', import.meta.url), `${JSON.stringify(result, null, 2)}\n`);
}

const round = (value: number, digits: number): number => Math.round(value * 10 ** digits) / 10 ** digits;
const log = (line: string): void => void process.stderr.write(`${line}\n`);

await main();
