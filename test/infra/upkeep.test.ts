// The embedded database's own vacuum and analyse (infra/db/upkeep.ts): PGlite runs no autovacuum,
// so the tables past autovacuum's thresholds are vacuumed and analysed by a pass of the service.
// On the integration run the same pass runs on a schema of the Postgres server (its tables made
// with autovacuum off, so the server's own cannot do the work first).
import { PGlite } from '@electric-sql/pglite';
import { sql, type Kysely } from 'kysely';
import t from 'tap';
import { autovacuumOff, dueTables, startUpkeep, upkeepDueTables, type TableUpkeep } from '../../infra/db/upkeep.js';
import { pgliteDatabase } from '../../infra/db/database.js';
import { integrationDatabaseUrl, openTestDatabase } from '../support/database.js';
import { pgliteTemplate } from '../support/pglite-template.js';
import { until } from '../support/until.js';

interface Stats {
  dead: number;
  vacuumed: boolean;
  analysed: boolean;
}

const statsOf = async (db: Kysely<any>, table: string): Promise<Stats> => {
  const { rows } = await sql<{ dead: string; vacuumed: boolean; analysed: boolean }>`
    select n_dead_tup as dead, coalesce(last_vacuum, last_autovacuum) is not null as vacuumed, coalesce(last_analyze, last_autoanalyze) is not null as analysed
      from pg_stat_user_tables where schemaname = current_schema() and relname = ${table}`.execute(db);
  return { dead: Number(rows[0]?.dead ?? 0), vacuumed: rows[0]?.vacuumed ?? false, analysed: rows[0]?.analysed ?? false };
};

/** `table` with `rows` rows, each then updated `rewrites` times: that many dead versions each. */
async function churn(db: Kysely<any>, table: string, rows: number, rewrites: number): Promise<void> {
  await sql`create table ${sql.id(table)} (id int primary key, v text) with (autovacuum_enabled = false)`.execute(db);
  await sql`insert into ${sql.id(table)} select g, md5(g::text) from generate_series(1, ${rows}) g`.execute(db);
  for (let i = 0; i < rewrites; i++) await sql`update ${sql.id(table)} set v = v || 'x'`.execute(db);
  // A Postgres backend reports its counts a moment after its transaction: waited for, so the pass sees them.
  await until(`${table}'s dead rows counted`, () => statsOf(db, table), (stats) => stats.dead >= rows * rewrites, { timeoutMs: 15_000 });
}

t.test('given autovacuum’s thresholds, a table is due once its dead, inserted or changed rows pass them', async (t) => {
  const table = { table: 't', rows: 1000, deadRows: 0, insertedRows: 0, changedRows: 0 };
  t.same(dueTables([{ ...table, deadRows: 250, changedRows: 150 }]), [], 'at 50 + 20% dead and 50 + 10% changed, not yet');
  t.match(dueTables([{ ...table, deadRows: 251 }]), [{ table: 't', vacuum: true, analyse: false }], 'one dead row past: vacuumed');
  t.match(dueTables([{ ...table, insertedRows: 1201 }]), [{ vacuum: true, analyse: false }], 'an append-only table: 1,000 + 20% inserted');
  t.match(dueTables([{ ...table, changedRows: 151 }]), [{ vacuum: false, analyse: true }], 'changed past 50 + 10%: analysed');
  t.match(dueTables([{ ...table, rows: -1, changedRows: 51 }]), [{ analyse: true }], 'a table never analysed (reltuples -1) counts as empty');
});

t.test('a pass vacuums and analyses the churned table and leaves the quiet one alone', async (t) => {
  const { db } = await openTestDatabase(t);
  await churn(db, 'churned', 1000, 2);
  await churn(db, 'quiet', 1000, 0);
  t.match(await statsOf(db, 'churned'), { dead: 2000, vacuumed: false }, 'before: 2,000 dead rows');

  const done = await upkeepDueTables(db);
  const churned = done.find((table) => table.table === 'churned');
  t.match(churned, { vacuumed: true, analysed: true, deadRows: 2000 }, 'the churned table, with what made it due');
  t.notOk(done.find((table) => table.table === 'quiet')?.vacuumed, 'the quiet table is not vacuumed: nothing in it is dead');
  const after = await until('the vacuum counted', () => statsOf(db, 'churned'), (stats) => stats.vacuumed && stats.analysed);
  t.equal(after.dead, 0, 'no dead row left');

  t.same(
    (await upkeepDueTables(db)).filter((table) => table.table === 'churned' || table.table === 'quiet'),
    [],
    'a second pass finds nothing due in either',
  );
});

t.test('the service’s loop runs passes until stopped, and tells each one', async (t) => {
  const { db } = await openTestDatabase(t);
  await churn(db, 'churned', 1000, 1);
  const logged: string[] = [];
  const log = { info: (_: object, message: string) => logged.push(message), warn: (_: object, message: string) => logged.push(message) };
  let heard!: (done: TableUpkeep[]) => void;
  const passed = new Promise<TableUpkeep[]>((resolve) => (heard = resolve));
  const upkeep = startUpkeep(db, { everyMs: 10, log, onPass: (done) => done.some((table) => table.table === 'churned') && heard(done) });
  const done = await passed;
  await upkeep.stop();
  t.match(done.find((table) => table.table === 'churned'), { vacuumed: true });
  t.match(logged, [/vacuumed and analysed the tables past autovacuum’s thresholds/]);
  t.equal((await statsOf(db, 'churned')).dead, 0);
});

t.test('the warning reads the server’s own autovacuum setting', { skip: integrationDatabaseUrl ? 'PGlite only: the Postgres server’s setting is the machine’s' : false }, async (t) => {
  const { db } = await openTestDatabase(t);
  t.equal(await autovacuumOff(db), false, 'PGlite reads on (though it runs none): serve starts its own pass instead of warning');
  // A database started with autovacuum off, as this machine's Postgres server is configured.
  const off = pgliteDatabase(await PGlite.create({ loadDataDir: await pgliteTemplate('empty'), startParams: [...PGlite.defaultStartParams, '-c', 'autovacuum=off'] }));
  t.teardown(() => off.close());
  t.equal(await autovacuumOff(off.db), true, 'started with autovacuum off: read as off');
});
