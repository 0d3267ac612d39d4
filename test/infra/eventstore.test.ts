// The EventStore contract against the Postgres store (PGlite on the embedded run, a Postgres
// schema on the integration run, both through openTestDatabase), against EventStoreDB when
// EVENTSTORE_URL is set, plus what only the Postgres store promises.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompiledQuery, sql } from 'kysely';
import pg from 'pg';
import t from 'tap';
import { openDatabase, type Database } from '../../infra/db/database.js';
import { openEventStoreDb } from '../../infra/eventstore/esdb.js';
import { WrongExpectedRevision, type EventStore } from '../../infra/eventstore/port.js';
import { HELD_BACK_SQL, openPostgresEventStore, UnsupportedEventData } from '../../infra/eventstore/postgres.js';
import { probeEventStore } from '../../infra/eventstore/probe.js';
import { assertTransactionCounterAhead, EVENTS_TABLE } from '../../infra/eventstore/postgres-schema.js';
import { integrationDatabaseUrl, openTestDatabase } from '../support/database.js';
import { delegatingStore } from '../support/delegating-store.js';
import { seedPgliteDir } from '../support/pglite-template.js';
import { event, eventStoreContract, expectConflict, startCollector, type Reopen } from './eventstore.contract.js';

/** A store whose close also closes the database under it, as a restarted process would. */
const closingDatabase = (store: EventStore, database: Database): EventStore =>
  delegatingStore(store, {
    close: async () => {
      await store.close();
      await database.close();
    },
  });

// A PGlite data directory, or a schema on the integration server, that outlives each store.
const reopenPostgres: Reopen = async (t) => {
  if (!integrationDatabaseUrl) {
    const dir = await mkdtemp(join(tmpdir(), 'stylist-eventstore-'));
    t.teardown(() => rm(dir, { recursive: true, force: true }));
    await seedPgliteDir(dir); // a database as a first start leaves it, without initdb's seconds
    return async () => {
      const database = await openDatabase({ pgliteDir: dir });
      return closingDatabase(await openPostgresEventStore(database), database);
    };
  }
  const url = integrationDatabaseUrl;
  const schema = `test_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  await adminQuery(url, `create schema ${schema}`);
  t.teardown(() => adminQuery(url, `drop schema ${schema} cascade`));
  return async () => {
    const database = await openDatabase({ url, schema });
    return closingDatabase(await openPostgresEventStore(database), database);
  };
};

async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

const flavour = integrationDatabaseUrl ? 'Postgres server' : 'PGlite';

void eventStoreContract(
  t,
  `postgres event store on ${flavour}`,
  async (t) => {
    const database = await openTestDatabase(t, { maxConnections: 12 });
    const store = await openPostgresEventStore(database);
    t.teardown(() => store.close());
    return store;
  },
  reopenPostgres,
);

const eventStoreUrl = process.env.EVENTSTORE_URL;
t.test(
  'EventStoreDB',
  {
    skip: eventStoreUrl
      ? false
      : 'EVENTSTORE_URL is not set (no EventStoreDB server installs from this machine\'s registries). To run it: ' +
        'docker run --rm -d -p 2113:2113 eventstore/eventstore:24.10 --insecure, then ' +
        'EVENTSTORE_URL=esdb://localhost:2113?tls=false npx tap test/infra/eventstore.test.ts',
  },
  async (t) => {
    const url = eventStoreUrl!;
    t.test('the start-up probe passes', async () => {
      const store = await openEventStoreDb(url);
      try {
        await probeEventStore(store);
      } finally {
        await store.close();
      }
    });
    await eventStoreContract(
      t,
      'event store contract',
      async (t) => {
        const store = await openEventStoreDb(url);
        t.teardown(() => store.close());
        return store;
      },
      async () => () => openEventStoreDb(url),
      // The server's default MaxAppendSize is 1 MiB.
      { largeEventBytes: 900 * 1024 },
    );
  },
);

t.test(`postgres event store specifics on ${flavour}`, async (t) => {
  const database = await openTestDatabase(t, { maxConnections: 12 });
  const store = await openPostgresEventStore(database);
  t.teardown(() => store.close());

  t.test('two stores on one database (two processes) racing on a stream: one winner, no lost or doubled event', async (t) => {
    const other = await openPostgresEventStore(database);
    t.teardown(() => other.close());
    const stores = [store, other];
    const prefix = `race-${randomUUID().slice(0, 8)}`;
    for (let round = 0; round < 10; round++) {
      const stream = `${prefix}-${round}`;
      await store.append(stream, [event('Seed')], { expectedRevision: 'no_stream' });
      const results = await Promise.allSettled(
        Array.from({ length: 6 }, (_, i) => stores[i % 2]!.append(stream, [event('Raced', { i })], { expectedRevision: 0n })),
      );
      t.equal(results.filter((r) => r.status === 'fulfilled').length, 1, `round ${round}: one winner`);
      t.ok(
        results.every((r) => r.status === 'fulfilled' || r.reason instanceof WrongExpectedRevision),
        'the others lost with WrongExpectedRevision',
      );
    }
    const hot = `${prefix}-any`;
    const landed = await Promise.all(
      Array.from({ length: 20 }, (_, i) => stores[i % 2]!.append(hot, [event('Any', { i })], { expectedRevision: 'any' })),
    );
    t.same(
      landed.map((r) => r.nextExpectedRevision).sort((a, b) => (a < b ? -1 : 1)),
      Array.from({ length: 20 }, (_, i) => BigInt(i)),
      "racing 'any' appends are retried until each lands once",
    );
    const retried = [event('Once', {}, randomUUID()), event('Twice', {}, randomUUID())];
    const both = await Promise.all(stores.map((s) => s.append(`${prefix}-retry`, retried, { expectedRevision: 'no_stream' })));
    t.same(both[0], both[1], 'the same retried append through both stores returns one stored result');
    t.equal((await store.readStream(`${prefix}-retry`)).length, 2);
  });

  t.test('jsonb cannot store U+0000: such an append is refused alone, with a clear error', async (t) => {
    const prefix = `nul-${randomUUID().slice(0, 8)}`;
    const attempts = await Promise.allSettled([
      store.append(`${prefix}-bad`, [event('Bad', { text: 'a\u0000b' })], { expectedRevision: 'no_stream' }),
      store.append(`${prefix}-bad-meta`, [{ ...event('Bad'), metadata: { note: '\u0000' } }], { expectedRevision: 'no_stream' }),
      store.append(`${prefix}-lone-surrogate`, [event('Bad', { text: '\ud800' })], { expectedRevision: 'no_stream' }),
      ...Array.from({ length: 5 }, (_, i) => store.append(`${prefix}-good-${i}`, [event('Good', { i })], { expectedRevision: 'no_stream' })),
    ]);
    for (const [i, attempt] of attempts.slice(0, 3).entries()) {
      t.equal(attempt.status, 'rejected', `bad append ${i} refused`);
      if (attempt.status === 'rejected') t.type(attempt.reason, UnsupportedEventData);
    }
    t.ok(attempts.slice(3).every((a) => a.status === 'fulfilled'), 'appends batched with it still land');
    t.same(await store.readStream(`${prefix}-bad`), []);
  });

  t.test('an append from another process wakes a subscriber long before its poll', async (t) => {
    const url = integrationDatabaseUrl;
    let elsewhere: Database = database;
    if (url) {
      // A second pool, so only LISTEN/NOTIFY can carry the wake-up.
      const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db);
      elsewhere = await openDatabase({ url, schema: rows[0]!.schema });
      t.teardown(() => elsewhere.close());
    }
    const sleepy = await openPostgresEventStore(database, { pollIntervalMs: 60_000 });
    const writer = await openPostgresEventStore(elsewhere);
    t.teardown(async () => {
      await sleepy.close();
      await writer.close();
    });
    const stream = `wake-${randomUUID().slice(0, 8)}`;
    const collector = startCollector(sleepy, await sleepy.headPosition(), (e) => e.streamId === stream);
    await new Promise((resolve) => setTimeout(resolve, 300)); // let it go idle (and LISTEN)
    for (let i = 0; i < 3; i++) {
      await writer.append(stream, [event('Wake', { i })], { expectedRevision: 'any' });
      t.ok(await collector.until(i + 1, 5_000), `append ${i} delivered without waiting for the 60 s poll`);
    }
    await collector.stop();
  });

  t.test('asking whether committed events are held back reads one index entry, not the events table', async (t) => {
    // Every subscriber asks after each short page. As `exists (…)` the planner scanned the table,
    // and with nothing held back (the usual answer) it read every event: 340 ms at 200,000.
    const prefix = `held-${randomUUID().slice(0, 8)}`;
    for (let batch = 0; batch < 20; batch++) {
      await store.append(`${prefix}-${batch}`, Array.from({ length: 100 }, (_, i) => event('Filler', { i, text: 'x'.repeat(200) })), { expectedRevision: 'no_stream' });
    }
    const head = (await store.headPosition())!;
    const ask = (verb: string, position: { commit: bigint; prepare: bigint }) =>
      database.db.executeQuery(CompiledQuery.raw(`${verb} ${HELD_BACK_SQL}`, [String(position.commit), String(position.prepare)]));
    for (const [where, position] of [
      ['past the head (nothing held back)', head],
      ['at the start', { commit: 0n, prepare: 0n }],
    ] as const) {
      const plan = JSON.stringify((await ask('explain (format json)', position)).rows);
      t.notMatch(plan, /Seq Scan/, `${where}: the events table is not scanned`);
      t.match(plan, /Index (Only )?Scan/, `${where}: the primary key is probed`);
    }
    t.equal((await ask('', head)).rows.length, 0, 'nothing is past the head');
    t.equal((await ask('', { commit: 0n, prepare: 0n })).rows.length, 1, 'events are past the start');
  });

  // A transaction committing late, out of order: test/integration/eventstore-late-commit.test.ts.

  t.test('opening refuses events from a transaction counter ahead of the server (a restored dump)', async (t) => {
    await assertTransactionCounterAhead(database.db);
    const rollback = new Error('rollback');
    const attempt = database.db.transaction().execute(async (trx) => {
      await sql`insert into ${sql.table(EVENTS_TABLE)} (transaction_id, stream_id, revision, id, type, data, metadata)
        values ((pg_snapshot_xmax(pg_current_snapshot())::text::bigint + 1000000)::text::xid8, 'from-the-future', 0, ${randomUUID()}::uuid, 'X', '{}', '{}')`.execute(trx);
      await t.rejects(assertTransactionCounterAhead(trx), /restored from a dump/);
      throw rollback;
    });
    await t.rejects(attempt, rollback);
  });

  t.test('conflicts report the revision actually found', async (t) => {
    const stream = `actual-${randomUUID().slice(0, 8)}`;
    await store.append(stream, [event('A'), event('B'), event('C')], { expectedRevision: 'no_stream' });
    await expectConflict(t, store.append(stream, [event('D')], { expectedRevision: 1n }), 2n, 'stale');
    await t.rejects(store.append(stream, [event('D', {}, 'not-a-uuid')], { expectedRevision: 2n }), TypeError, 'ids must be uuids');
  });
});
