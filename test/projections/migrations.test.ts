import t from 'tap';
import { sql } from 'kysely';
import { migrate } from '../../projections/migrations.js';
import { readModelMigrations } from '../../projections/migrations/index.js';
import { openTestDatabase } from '../support/database.js';

t.test('migrate names a failing migration, then applies every migration once, in order', async (t) => {
  const { db } = await openTestDatabase(t, { template: 'empty' });
  await sql`create table projection_checkpoints (name text)`.execute(db);
  await t.rejects(migrate(db), { name: 'MigrationFailed', message: /0001_projection_checkpoints failed: .*already exists/ });
  await sql`drop table projection_checkpoints`.execute(db);

  const all = Object.keys(readModelMigrations).sort();
  t.equal(all[0], '0001_projection_checkpoints');
  t.same(await migrate(db), { applied: all });
  t.same(await migrate(db), { applied: [] }, 'up to date');

  await db.insertInto('projection_checkpoints').values({ name: 'x', position: '1/2' }).execute();
  const row = await db.selectFrom('projection_checkpoints').selectAll().executeTakeFirstOrThrow();
  t.match(row, { name: 'x', position: '1/2' });
  t.equal(Number(row.events_applied), 0);
  t.type(row.updated_at, Date);
});
