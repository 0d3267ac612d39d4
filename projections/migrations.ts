// Brings the read-model schema up to date with kysely's Migrator. The bookkeeping tables have
// their own names so they cannot collide with anything else sharing the database (the events table).
import { sql, type Kysely } from 'kysely';
import { Migrator } from 'kysely/migration';
import { scopedToSchema } from './migration-scope.js';
import { readModelMigrations } from './migrations/index.js';

export class MigrationFailed extends Error {
  override name = 'MigrationFailed';
}

export async function migrate(db: Kysely<any>): Promise<{ applied: string[] }> {
  // Named explicitly: without a schema the Migrator takes its tables found in any schema
  // (another test run's, another tenant's) for ours.
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
  const schema = rows[0]?.schema;
  if (!schema) throw new MigrationFailed('read-model migrations need a current schema: check the search_path');
  const migrator = new Migrator({
    db: scopedToSchema(db, schema),
    provider: { getMigrations: async () => ({ ...readModelMigrations }) },
    migrationTableName: 'read_model_migrations',
    migrationLockTableName: 'read_model_migrations_lock',
    migrationTableSchema: schema,
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results.find((result) => result.status === 'Error')?.migrationName;
    const reason = error instanceof Error ? error.message : String(error);
    throw new MigrationFailed(`read-model migration ${failed ?? '(setup)'} failed: ${reason}`, { cause: error });
  }
  return { applied: results.filter((result) => result.status === 'Success').map((result) => result.migrationName) };
}
