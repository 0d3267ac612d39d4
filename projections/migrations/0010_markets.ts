import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('data_sources').addColumn('markets', 'jsonb').execute();
  await db.schema.alterTable('data_sources').addColumn('default_market', 'text').execute();

  // How each market's feed fared at the last sync: written by the sync worker.
  await db.schema
    .createTable('source_markets')
    .addColumn('source_id', 'uuid', (c) => c.notNull())
    .addColumn('handle', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('products', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('read_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('source_markets_pk', ['source_id', 'handle'])
    .execute();

  // Prices and stock of an item in one market, replaced whole by each sync that reads the market's
  // feed: derived from the store like search vectors, so written by the worker, not event-sourced.
  // `default_market` records the default they were read against (a change makes them stale).
  await db.schema
    .createTable('market_prices')
    .addColumn('item_id', 'uuid', (c) => c.notNull())
    .addColumn('market', 'text', (c) => c.notNull())
    .addColumn('dataset_id', 'uuid', (c) => c.notNull())
    .addColumn('source_id', 'uuid', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('price', 'double precision', (c) => c.notNull())
    .addColumn('compare_at_price', 'double precision')
    .addColumn('available', 'boolean', (c) => c.notNull())
    .addColumn('variants', 'jsonb', (c) => c.notNull())
    .addColumn('default_market', 'text')
    .addColumn('read_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('market_prices_pk', ['item_id', 'market'])
    .execute();
  await sql`create index market_prices_source on market_prices (source_id, market)`.execute(db);
  await sql`create index market_prices_dataset on market_prices (dataset_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('market_prices').execute();
  await db.schema.dropTable('source_markets').execute();
  await db.schema.alterTable('data_sources').dropColumn('default_market').execute();
  await db.schema.alterTable('data_sources').dropColumn('markets').execute();
}
