// A fresh, isolated database for one test: PGlite in memory on the embedded run; on the
// integration run (DATABASE_URL set) a new schema on the Postgres server, dropped afterwards.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../../infra/db/database.js';

export const integrationDatabaseUrl = process.env.DATABASE_URL || undefined;

export interface Teardown {
  teardown(fn: () => unknown): void;
}

export async function openTestDatabase(t: Teardown, options: { maxConnections?: number } = {}): Promise<Database> {
  if (!integrationDatabaseUrl) {
    const database = await openDatabase({ pgliteDir: 'memory://' });
    t.teardown(() => database.close());
    return database;
  }
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: integrationDatabaseUrl });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const database = await openDatabase({ url: integrationDatabaseUrl, schema, ...options });
  t.teardown(async () => {
    await database.close();
    const dropper = new pg.Client({ connectionString: integrationDatabaseUrl });
    await dropper.connect();
    await dropper.query(`drop schema ${schema} cascade`);
    await dropper.end();
  });
  return database;
}
