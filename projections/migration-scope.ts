// kysely's Migrator checks for its bookkeeping tables by introspecting every table of every
// schema. On a server shared by many schemas that is slow, and it fails outright when another
// schema is dropped meanwhile (parallel test runs). This hands the Migrator a view of the same
// Kysely whose introspection only sees one schema; everything else goes to the real instance.
import { sql, type DatabaseIntrospector, type Kysely, type TableMetadata } from 'kysely';

export function scopedToSchema(db: Kysely<any>, schema: string): Kysely<any> {
  const introspection: DatabaseIntrospector = {
    getSchemas: async () => {
      const { rows } = await sql<{ name: string }>`select nspname as name from pg_catalog.pg_namespace where nspname = ${schema}`.execute(db);
      return rows;
    },
    getTables: async () => {
      const { rows } = await sql<{ name: string }>`
        select table_name as name from information_schema.tables where table_schema = ${schema}`.execute(db);
      return rows.map((row): TableMetadata => ({ name: row.name, schema, isView: false, isForeign: false, columns: [] }));
    },
  };
  return new Proxy(db, {
    get(target, property) {
      if (property === 'introspection') return introspection;
      // Kysely keeps its state in private fields: its methods must run on the real instance.
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
