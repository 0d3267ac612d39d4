// A fresh, isolated database for one test: PGlite in memory on the embedded run; on the
// integration run (DATABASE_URL set) a new schema on the Postgres server, dropped afterwards.
//
// PGlite's initdb costs seconds per database on two cores, the migrations a tenth of that, so
// each embedded test database is loaded from a data-directory tarball made once per machine
// (see pglite-template.ts): a few hundred milliseconds instead.
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openDatabase, pgliteDatabase, type Database } from '../../infra/db/database.js';
import { pgliteTemplate } from './pglite-template.js';

export const integrationDatabaseUrl = process.env.DATABASE_URL || undefined;

export interface Teardown {
  teardown(fn: () => unknown): void;
}

export interface TestDatabaseOptions {
  maxConnections?: number;
  /**
   * PGlite only: `'migrated'` (default) holds the read-model migrations and the event store's
   * schema already, as a service that ran once would; `'empty'` is a database just initialised.
   */
  template?: 'migrated' | 'empty';
}

export async function openTestDatabase(t: Teardown, options: TestDatabaseOptions = {}): Promise<Database> {
  if (!integrationDatabaseUrl) {
    const database = await openTemplatePglite(options.template ?? 'migrated');
    t.teardown(() => database.close());
    return database;
  }
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: integrationDatabaseUrl });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const database = await openDatabase({ url: integrationDatabaseUrl, schema, maxConnections: options.maxConnections });
  t.teardown(async () => {
    await database.close();
    const dropper = new pg.Client({ connectionString: integrationDatabaseUrl });
    await dropper.connect();
    await dropper.query(`drop schema ${schema} cascade`);
    await dropper.end();
  });
  return database;
}

/** The same Database as infra/db/database.ts opens for `memory://`, started from a template. */
async function openTemplatePglite(template: 'migrated' | 'empty'): Promise<Database> {
  const pglite = await PGlite.create({ loadDataDir: await pgliteTemplate(template) });
  return pgliteDatabase(pglite);
}
