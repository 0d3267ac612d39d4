// Projections under database faults on a real Postgres server, each case on a database of its own
// and bounded in time: every service connection terminated again and again during a catch-up of
// 50,000 events; statements cancelled by statement_timeout; the server restarted mid-run. After
// each: the read models equal a fresh rebuild row by row, no event was applied twice, and this
// process (which owns the pool, the LISTEN connection and the runner) is still running.
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import t, { type Test } from 'tap';
import { openDatabase, type Database } from '../../infra/db/database.js';
import { openPostgresEventStore } from '../../infra/eventstore/postgres.js';
import type { EventStore, NewEvent, Position } from '../../infra/eventstore/port.js';
import { comparePositions, positionToString } from '../../infra/eventstore/position.js';
import { isTransient } from '../../projections/faults.js';
import { migrate } from '../../projections/migrations.js';
import { projector, type Projector } from '../../projections/projector.js';
import { ProjectionRunner, type RunnerLogger } from '../../projections/runner.js';
import { startThrowawayServer, throwawayUnavailable } from '../support/throwaway-postgres.js';
import { freshDatabase } from '../support/worker-processes.js';

const databaseUrl = process.env.DATABASE_URL;
const skip = databaseUrl ? false : 'needs a Postgres server: DATABASE_URL (npm run test:integration)';
const serverUrl = (() => {
  if (!databaseUrl) return '';
  const url = new URL(databaseUrl);
  url.pathname = '/postgres';
  return url.toString();
})();

// Ticked or Tallied (one in fifty). `ticks` takes both and applies a batch in one statement, `tallies`
// runs a handler per event: both paths of the runner. Neither table has a unique key, so an event
// applied twice shows as a second row.
const TICKED = 'Ticked';
const TALLIED = 'Tallied';

const tickRows = (events: ReadonlyArray<{ position: { commit: bigint; prepare: bigint }; streamId: string; revision: bigint }>) =>
  events.map((e) => ({ position: positionToString(e.position), stream_id: e.streamId, revision: Number(e.revision) }));

const bump = (trx: Kysely<any>, table: string, n: number) =>
  sql`insert into ${sql.table(table)} (id, applied) values (1, ${n}) on conflict (id) do update set applied = ${sql.table(table)}.applied + excluded.applied`.execute(trx);

const tick = async (trx: Kysely<any>, event: Parameters<Projector['handlers'][string]>[1]) => {
  await trx.insertInto('tick_rows').values(tickRows([event])).execute();
  await bump(trx, 'tick_counter', 1);
};

const ticks: Projector = {
  ...projector('ticks', ['tick_rows', 'tick_counter'], { [TICKED]: tick, [TALLIED]: tick }),
  applyBatch: async (trx, events) => {
    await trx.insertInto('tick_rows').values(tickRows(events)).execute();
    await bump(trx, 'tick_counter', events.length);
  },
};

const tallies = (hook?: (trx: Kysely<any>) => Promise<void>): Projector =>
  projector('tallies', ['tally_rows', 'tally_counter'], {
    [TALLIED]: async (trx, event) => {
      await hook?.(trx);
      await trx.insertInto('tally_rows').values(tickRows([event])).execute();
      await bump(trx, 'tally_counter', 1);
    },
  });

async function createTables(db: Kysely<any>): Promise<void> {
  for (const name of ['tick', 'tally']) {
    await sql`create table ${sql.table(`${name}_rows`)} (position text not null, stream_id text not null, revision int not null)`.execute(db);
    await sql`create table ${sql.table(`${name}_counter`)} (id int primary key, applied bigint not null)`.execute(db);
  }
}

/** `total` events in streams of 100, appended by `parallel` writers through the store's batcher. */
/**
 * Appends `total` events in streams of 100; answers where the last of them landed. Waits use that
 * position, not `headPosition()`: the head is what readers may see now, which an open transaction
 * anywhere on the server (another test's, in a parallel run) holds back, so a wait on it could end
 * before these events are even visible.
 */
async function appendEvents(store: EventStore, total: number, prefix: string, parallel = 8): Promise<Position> {
  let next = 0;
  let last: Position | null = null;
  const streams = Math.ceil(total / 100);
  const writer = async () => {
    while (next < streams) {
      const stream = next++;
      const events: NewEvent[] = Array.from({ length: Math.min(100, total - stream * 100) }, (_, i) => {
        const n = stream * 100 + i;
        return { type: n % 50 === 0 ? TALLIED : TICKED, data: { n } };
      });
      const { position } = await store.append(`${prefix}-${stream}`, events, { expectedRevision: 'no_stream' });
      if (!last || comparePositions(position, last) > 0) last = position;
    }
  };
  await Promise.all(Array.from({ length: parallel }, writer));
  return last!;
}

/** Until every event up to `position` is visible to readers (a rebuild reads only those). */
async function visible(store: EventStore, position: Position): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const head = await store.headPosition().catch(() => null);
    if (head && comparePositions(head, position) >= 0) return;
    if (Date.now() > deadline) throw new Error(`events up to ${positionToString(position)} still not visible after 60 s (head ${head ? positionToString(head) : 'none'})`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface Opened {
  database: Database;
  store: EventStore;
  connectionErrors: () => number;
}

async function open(t: Test, url: string, maxConnections = 10): Promise<Opened> {
  let errors = 0;
  const database = await openDatabase({ url, maxConnections, onConnectionError: () => void errors++ });
  const store = await openPostgresEventStore(database, { onConnectionError: () => void errors++ });
  t.teardown(async () => {
    await store.close();
    await database.close();
  });
  await migrate(database.db);
  return { database, store, connectionErrors: () => errors };
}

const dump = async (db: Kysely<any>, table: string): Promise<string> => JSON.stringify((await sql`select * from ${sql.table(table)} order by 1, 2, 3`.execute(db)).rows);

/** Every read model as a fresh rebuild makes it, and each event applied once. */
async function checkAgainstRebuild(t: Test, db: Kysely<any>, store: EventStore, projectors: Projector[], expected: { ticks: number; tallies: number }, last: Position): Promise<void> {
  await visible(store, last);
  const before = { tick: await dump(db, 'tick_rows'), tally: await dump(db, 'tally_rows') };
  const counters = async () => ({
    ticks: Number((await db.selectFrom('tick_counter').select('applied').executeTakeFirst())?.applied ?? 0),
    tallies: Number((await db.selectFrom('tally_counter').select('applied').executeTakeFirst())?.applied ?? 0),
  });
  const { rows } = await sql<{ name: string; events_applied: string }>`select name, events_applied from projection_checkpoints order by name`.execute(db);
  const applied = Object.fromEntries(rows.map((r) => [r.name, Number(r.events_applied)]));
  t.same(await counters(), expected, 'each handled event counted once');
  t.same(applied, expected, 'eventsApplied equals the handled events');
  const distinct = await sql<{ n: string; d: string }>`select count(*) as n, count(distinct position) as d from tick_rows`.execute(db);
  t.equal(Number(distinct.rows[0]!.n), Number(distinct.rows[0]!.d), 'no position twice');

  const fresh = new ProjectionRunner({ store, db, projectors, batchSize: 2000 });
  await fresh.rebuild();
  t.equal(await dump(db, 'tick_rows'), before.tick, 'ticks equal a fresh rebuild, row by row');
  t.equal(await dump(db, 'tally_rows'), before.tally, 'tallies equal a fresh rebuild, row by row');
  t.same(await counters(), expected);
}

/** The test's own reads right after a round of terminations may meet a pooled connection already dead. */
async function again<T>(read: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (error) {
      if (attempt >= 5 || !isTransient(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

const quietLogger = (): RunnerLogger & { warnings: number } => {
  const logger = { warnings: 0, info() {}, warn() {}, error() {} };
  logger.warn = () => void logger.warnings++;
  logger.error = () => void logger.warnings++;
  return logger;
};

t.test('every service connection terminated again and again during a catch-up of 50,000 events', { skip, timeout: 120_000 }, async (t) => {
  const fresh = await freshDatabase(serverUrl, 'pfaults');
  t.teardown(() => fresh.drop());
  const name = new URL(fresh.url).pathname.slice(1);
  const { database, store, connectionErrors } = await open(t, fresh.url);
  const db = database.db;
  await createTables(db);
  const appendStarted = Date.now();
  const head = await appendEvents(store, 50_000, 'tick');
  t.comment(`appended 50,000 events in ${((Date.now() - appendStarted) / 1000).toFixed(1)} s`);

  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  t.teardown(() => admin.end());
  const logger = quietLogger();
  const projectors = [ticks, tallies()];
  const runner = new ProjectionRunner({ store, db, projectors, logger, batchSize: 1000 });
  t.teardown(() => runner.stop());
  const started = Date.now();
  await runner.start();

  let terminated = 0;
  let rounds = 0;
  let caughtUp = false;
  const killer = (async () => {
    while (!caughtUp && Date.now() - started < 60_000) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      if (caughtUp) break;
      const { rows } = await admin.query('select pg_terminate_backend(pid) as done from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
      terminated += rows.filter((r) => r.done).length;
      rounds++;
    }
  })();
  try {
    await runner.waitFor(head, ['ticks', 'tallies'], 90_000);
  } finally {
    caughtUp = true;
    await killer;
  }
  // Let the pool hear about the connections of the last round before the checks below use it.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const seconds = (Date.now() - started) / 1000;
  t.comment(`caught up in ${seconds.toFixed(1)} s through ${rounds} rounds, ${terminated} connections terminated, ${connectionErrors()} connection errors heard, ${logger.warnings} warnings logged`);
  t.ok(rounds >= 3 && terminated >= 3, 'connections were terminated repeatedly during the catch-up');
  t.match(await again(() => runner.status()), [{ name: 'ticks', state: 'running', lag: 0 }, { name: 'tallies', state: 'running', lag: 0 }]);

  // The LISTEN connection came back: a fresh append wakes the runner without waiting for a poll.
  const late = await again(() => appendEvents(store, 100, 'late'));
  await runner.waitFor(late, ['ticks', 'tallies'], 10_000);
  await runner.stop();
  await checkAgainstRebuild(t, db, store, projectors, { ticks: 50_100, tallies: 1002 }, late);
});

t.test('statements cancelled by statement_timeout are retried until they pass', { skip, timeout: 90_000 }, async (t) => {
  const fresh = await freshDatabase(serverUrl, 'pfaults');
  t.teardown(() => fresh.drop());
  const name = new URL(fresh.url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: fresh.url });
  await admin.connect();
  t.teardown(() => admin.end());
  // Every connection the service opens from here on.
  await admin.query(`alter database ${name} set statement_timeout = '200ms'`);
  const { database, store } = await open(t, fresh.url);
  const db = database.db;
  await createTables(db);
  const appended = await appendEvents(store, 5000, 'tick');

  let cancelled = 0;
  const logger = quietLogger();
  // Slow the handler down for a while, past the timeout: a lock held elsewhere would do the same.
  let slowUntil = Date.now() + 3000;
  const slow = tallies(async (trx) => {
    if (Date.now() < slowUntil) await sql`select pg_sleep(0.3)`.execute(trx);
  });
  const original = logger.warn;
  logger.warn = (obj: object, msg?: string) => {
    if (/canceling statement due to statement timeout/.test(String((obj as { err?: Error }).err?.message))) cancelled++;
    original(obj, msg);
  };
  const projectors = [ticks, slow];
  const runner = new ProjectionRunner({ store, db, projectors, logger, batchSize: 500 });
  t.teardown(() => runner.stop());
  await runner.start();
  // A table lock held by an operator's long statement: the ticks projector's inserts wait past the timeout.
  await admin.query('begin');
  await admin.query('lock table tick_rows in exclusive mode');
  await new Promise((resolve) => setTimeout(resolve, 1500));
  await admin.query('commit');
  await runner.waitFor(appended, ['ticks', 'tallies'], 60_000);
  slowUntil = 0;
  t.ok(cancelled >= 2, `${cancelled} statement timeouts hit and retried`);
  t.match(await runner.status(), [{ state: 'running', lag: 0 }, { state: 'running', lag: 0 }]);
  await runner.stop();
  await admin.query(`alter database ${name} reset statement_timeout`);
  await checkAgainstRebuild(t, db, store, [ticks, tallies()], { ticks: 5000, tallies: 100 }, appended);
});

const noThrowaway = skip || throwawayUnavailable() || false;

t.test('the Postgres server restarted in the middle of a catch-up', { skip: noThrowaway, timeout: 120_000 }, async (t) => {
  const server = await startThrowawayServer();
  t.teardown(() => server.destroy());
  const { database, store, connectionErrors } = await open(t, server.url);
  const db = database.db;
  await createTables(db);
  const head = await appendEvents(store, 20_000, 'tick');

  const logger = quietLogger();
  const projectors = [ticks, tallies()];
  const runner = new ProjectionRunner({ store, db, projectors, logger, batchSize: 500 });
  t.teardown(() => runner.stop());
  await runner.start();
  // Mid-run: some of it applied, not all.
  for (let i = 0; i < 200; i++) {
    const [status] = await runner.status();
    if (status!.eventsApplied > 2000) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const before = (await runner.status())[0]!.eventsApplied;
  t.ok(before > 0 && before < 20_000, `restarted with ${before} of 20,000 applied`);
  await server.restart();
  // And once more with the server down for a while, so reconnects fail before they succeed.
  await new Promise((resolve) => setTimeout(resolve, 500));
  await server.stop();
  await new Promise((resolve) => setTimeout(resolve, 2000));
  await server.start();

  await runner.waitFor(head, ['ticks', 'tallies'], 60_000);
  t.comment(`${connectionErrors()} connection errors heard, ${logger.warnings} warnings logged`);
  t.ok(connectionErrors() > 0, 'the lost connections were reported, not fatal');
  const late = await appendEvents(store, 100, 'late');
  await runner.waitFor(late, ['ticks', 'tallies'], 10_000);
  await runner.stop();
  await checkAgainstRebuild(t, db, store, projectors, { ticks: 20_100, tallies: 402 }, late);
});

// On a throwaway server: the open transaction would hold back the projections of every other test
// file running beside this one on the machine's server.
t.test('a long transaction anywhere on the server holds back every projection: status and readiness show it', { skip: noThrowaway, timeout: 60_000 }, async (t) => {
  const server = await startThrowawayServer();
  t.teardown(() => server.destroy());
  const { database, store } = await open(t, server.url);
  const db = database.db;
  await createTables(db);
  const runner = new ProjectionRunner({ store, db, projectors: [ticks, tallies()] });
  t.teardown(() => runner.stop());
  await runner.start();
  await runner.waitFor(await appendEvents(store, 100, 'before'), ['ticks', 'tallies'], 10_000);

  // Another database on the same server: a session that wrote something and left its transaction open.
  const otherUrl = await freshDatabase(server.url, 'other').then((created) => created.url);
  const other = new pg.Client({ connectionString: otherUrl });
  await other.connect();
  t.teardown(() => other.end());
  await other.query('begin');
  const { rows } = await other.query<{ pid: number }>('select txid_current(), pg_backend_pid() as pid');
  const after = await appendEvents(store, 100, 'after');
  await new Promise((resolve) => setTimeout(resolve, 1500));

  const oldest = await runner.oldestTransaction();
  t.ok(oldest && oldest.seconds >= 1.4, `oldest transaction ${oldest?.seconds} s`);
  const status = await runner.status();
  t.match(status, [{ name: 'ticks', lag: 0 }, { name: 'tallies', lag: 0 }], 'the store shows nothing new: the events are held back');
  t.ok(status.every((s) => s.lagSeconds >= 1.4), `yet they wait: ${status.map((s) => s.lagSeconds).join(', ')} s`);
  const readiness = await runner.readiness(1);
  t.equal(readiness.ok, false);
  t.same(readiness.problems.map((p) => p.name), ['ticks', 'tallies']);
  t.ok(readiness.oldestTransactionSeconds! >= 1.4);
  t.comment(`pid ${rows[0]!.pid}: ${JSON.stringify(oldest)}`);

  await other.query('rollback');
  await runner.waitFor(after, ['ticks', 'tallies'], 20_000);
  t.equal(await db.selectFrom('tick_rows').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow().then((r) => Number(r.n)), 200, 'applied once it ended');
});

t.test("two runners on one database: an organization's parked lane holds whichever takes the next batch, the others' events all apply", { skip, timeout: 90_000 }, async (t) => {
  const fresh = await freshDatabase(serverUrl, 'plane');
  t.teardown(() => fresh.drop());
  const one = await open(t, fresh.url);
  const two = await open(t, fresh.url);
  const db = one.database.db;
  await sql`create table lane_rows (organization_id text not null, n int not null, position text not null)`.execute(db);
  const acme = '11111111-1111-4111-8111-111111111111';
  const bolt = '22222222-2222-4222-8222-222222222222';
  let broken = true;
  const lanes: Projector = projector('lanes', ['lane_rows'], {
    LaneWritten: async (trx, event) => {
      if (broken && event.metadata.organizationId === acme && event.data.n === 3) throw new Error('check constraint "no_three" violated');
      await trx.insertInto('lane_rows').values({ organization_id: String(event.metadata.organizationId), n: Number(event.data.n), position: positionToString(event.position) }).execute();
    },
  });
  const quick = { firstDelayMs: 5, maxDelayMs: 40, attempts: 3, statementAttempts: 6 };
  const runners = [one, two].map(({ database, store }) => new ProjectionRunner({ store, db: database.db, projectors: [lanes], batchSize: 7, retry: quick, faultPollMs: 50 }));
  for (const runner of runners) t.teardown(() => runner.stop());
  await Promise.all(runners.map((runner) => runner.start()));

  // Both organizations write 100 events each, interleaved, from both processes.
  let last: Position | null = null;
  for (let n = 0; n < 100; n++) {
    for (const [i, organizationId] of [acme, bolt].entries()) {
      const store = (n + i) % 2 ? two.store : one.store;
      const { position } = await store.append(`lane-${organizationId}-${n}`, [{ type: 'LaneWritten', data: { n }, metadata: { organizationId } }], { expectedRevision: 'no_stream' });
      if (!last || comparePositions(position, last) > 0) last = position;
    }
  }
  await visible(one.store, last!);
  await runners[0]!.waitFor(last!, ['lanes'], 30_000).catch((error: Error) => t.equal(error.name, 'ProjectionDegraded', 'the last write is not refused for another reason'));
  const rows = async (organizationId: string) =>
    (await db.selectFrom('lane_rows').select('n').where('organization_id', '=', organizationId).orderBy('position').execute()).map((r) => r.n);
  t.same(await rows(bolt), Array.from({ length: 100 }, (_, n) => n), 'every event of the other organization, in order');
  t.same(await rows(acme), [0, 1, 2], 'nothing of the parked organization after its failed event');
  t.match((await runners[1]!.status())[0], { degraded: [{ organizationId: acme, parkedEvents: 97, eventType: 'LaneWritten', error: /no_three/ }] });

  broken = false;
  t.same(await runners[1]!.replayParked({ organizationId: acme }, { actor: 'test', reason: 'fixed' }), { replayed: [{ projector: 'lanes', organizationId: acme, events: 97 }], failed: [] });
  t.same(await rows(acme), Array.from({ length: 100 }, (_, n) => n), 'the lane applied in order');
  const live = await dump(db, 'lane_rows');
  await Promise.all(runners.map((runner) => runner.stop()));
  await new ProjectionRunner({ store: one.store, db, projectors: [lanes] }).rebuild(['lanes']);
  t.equal(await dump(db, 'lane_rows'), live, 'equal to a rebuild, row by row');
});
