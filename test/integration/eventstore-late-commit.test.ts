// The Postgres event store on a real server, where transactions commit out of order (PGlite runs
// one at a time, so the embedded run cannot show it): an event whose transaction commits late
// is still delivered in position order, before anything appended after it began.
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { comparePositions } from '../../infra/eventstore/position.js';
import { openPostgresEventStore } from '../../infra/eventstore/postgres.js';
import { EVENTS_TABLE } from '../../infra/eventstore/postgres-schema.js';
import { integrationDatabaseUrl, openTestDatabase } from '../support/database.js';
import { event, startCollector } from '../infra/eventstore.contract.js';

const skip = integrationDatabaseUrl ? false : 'needs DATABASE_URL (npm run test:integration)';

t.test('an event whose transaction commits late is delivered before anything appended after it began', { skip }, async (t) => {
  const database = await openTestDatabase(t, { maxConnections: 12 });
  const store = await openPostgresEventStore(database);
  t.teardown(() => store.close());
  const pool = database.pool!;
  const prefix = `late-${randomUUID().slice(0, 8)}`;
  const start = await store.headPosition();
  const collector = startCollector(store, start, (e) => e.streamId.startsWith(prefix));
  const client = await pool.connect();
  try {
    await client.query('begin');
    // Takes its transaction id and global position now, commits last.
    await client.query(
      `insert into ${EVENTS_TABLE} (stream_id, revision, id, type, data, metadata) values ($1, 0, $2, 'Late', '{}', '{}')`,
      [`${prefix}-late`, randomUUID()],
    );
    const early = await store.append(`${prefix}-early`, [event('Early')], { expectedRevision: 'no_stream' });
    await new Promise((resolve) => setTimeout(resolve, 700));
    t.same(collector.events, [], 'nothing after the open transaction is delivered while it runs');
    t.same(
      (await store.readAll(start ? { after: start } : {})).filter((e) => e.streamId.startsWith(prefix)),
      [],
      'nor read',
    );
    const head = await store.headPosition();
    t.ok(!head || comparePositions(head, early.position) < 0, 'the head stays below it');
    const committed = await store.committedHead();
    t.ok(committed && comparePositions(committed, early.position) >= 0, 'the committed head has the early append: a wait for it waits for the open transaction');
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    client.release();
  }
  // The integration suite shares one server, and any transaction still open anywhere on it holds
  // both events back (docs/operations.md, "The oldest transaction on the server"): a parallel test's
  // long write can take seconds on a slow machine. So the bound only stops a hang; the order is
  // what this test is about.
  const arrived = await collector.until(2, 60_000);
  const seen = await collector.stop();
  t.ok(arrived, `both events arrived (got ${seen.map((e) => e.type).join(', ') || 'none'})`);
  t.same(seen.map((e) => e.type), ['Late', 'Early'], 'the late commit comes first: its position is lower');
  if (seen.length === 2) t.ok(comparePositions(seen[0]!.position, seen[1]!.position) < 0, 'in position order');
});
