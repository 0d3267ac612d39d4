// Each table has one owner. The data-sources projector owns data_sources, sync_jobs and sync_logs
// and a rebuild of it touches nothing else; the run traces the sync worker writes (log entries,
// heartbeats, market prices and states) are removed by the worker's own sweep, not by a projector.
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import t from 'tap';
import { sweepRunTraces, SYNC_WORKER_TABLES } from '../../workers/sync/sweep.js';
import { startTestService } from '../support/service.js';

const OWN = ['data_sources', 'sync_jobs', 'sync_logs'];

async function snapshot(db: Kysely<any>, skip: readonly string[]): Promise<Record<string, unknown[]>> {
  const { rows } = await sql<{ table_name: string }>`select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db);
  const tables = rows.map((row) => row.table_name).filter((name) => !skip.includes(name) && !/checkpoint|projection/.test(name)).sort();
  const out: Record<string, unknown[]> = {};
  for (const table of tables) {
    const all = await db.selectFrom(table).selectAll().execute();
    out[table] = all.map((row) => JSON.stringify(row)).sort();
  }
  return out;
}

t.test("rebuilding the data-sources projector leaves every other table, the sync worker's included, as it was", async (t) => {
  const service = await startTestService(t);
  const db = service.platform.database.db;
  const org = await service.cli(['org', 'create', '--name', 'Acme', '--json']);
  const headers = { authorization: `Bearer ${org.privateKey}` };
  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) => service.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const datasetId = (await call('POST', '/v1/datasets', { name: 'Main' })).json().datasetId;
  const add = async () => (await call('POST', `/v1/datasets/${datasetId}/sources`, { type: 'shopify-api', endpoint: 'https://shop.example.com' })).json().source.sourceId as string;
  const [kept, gone] = [await add(), await add()];

  // What a sync worker wrote for both sources while they ran.
  const longAgo = new Date(Date.now() - 3 * 3_600_000);
  for (const sourceId of [kept, gone]) {
    const logId = randomUUID();
    await db.insertInto('sync_log_entries').values({ log_id: logId, position: 0, at: longAgo, level: 'info', message: 'Sync started', sku: null }).execute();
    await db.insertInto('sync_heartbeats').values({ job_id: randomUUID(), worker_id: 'worker-a', beat_at: longAgo, progress: '{}' }).execute();
    await db.insertInto('sync_waiting').values({ job_id: randomUUID(), source_id: sourceId, dataset_id: datasetId, organization_id: org.organizationId, priority: 10, created_at: longAgo, since: longAgo }).execute();
    await db.insertInto('source_markets').values({ source_id: sourceId, handle: 'us', status: 'ok', reason: null, products: 1, read_at: longAgo }).execute();
    await db
      .insertInto('market_prices')
      .values({ item_id: randomUUID(), market: 'us', dataset_id: datasetId, source_id: sourceId, currency: 'USD', price: 10, compare_at_price: null, available: true, variants: '[]', default_market: null, read_at: longAgo })
      .execute();
  }
  t.equal((await call('DELETE', `/v1/datasets/${datasetId}/sources/${gone}`)).statusCode, 200);

  const others = await snapshot(db, OWN);
  for (const table of SYNC_WORKER_TABLES) t.ok(others[table]?.length, `${table} has rows before the rebuild`);
  const own = await snapshot(db, []);
  await service.platform.projections.rebuild(['data_sources']);
  t.same(await snapshot(db, OWN), others, 'no table but its own is touched');
  const after = await snapshot(db, []);
  for (const table of OWN) t.same(after[table], own[table], `${table} rebuilt as it was`);

  // The worker's sweep removes the traces of the deleted source, and only those.
  t.equal(await sweepRunTraces(db, new Date()), 2 + 2 + 2, "log entries and beats of no live job, prices and market states of the deleted source");
  t.same((await db.selectFrom('market_prices').select('source_id').execute()).map((row) => row.source_id), [kept]);
  t.same((await db.selectFrom('source_markets').select('source_id').execute()).map((row) => row.source_id), [kept]);
  t.equal(await sweepRunTraces(db, new Date()), 0);
});
