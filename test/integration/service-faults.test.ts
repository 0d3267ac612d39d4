// The fault of issue 11 as measured, on `stylist serve` itself (a child process on Postgres and
// NATS): every connection of the service terminated five times during an upload of 2,000 items.
// Before, the first unheard 'error' event on a pg client ended the process with 0 items active;
// now the process keeps running and every item is queued (the few appends a terminated connection
// failed are listed under `failures`, and the client sends those again, as document 2 has it) and
// goes on through ingest. Waiting for all 2,000 to be labelled would take minutes on a busy CI
// machine; a queue row in the read model for each, none failed, is what the fault decides.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import t from 'tap';
import { cleanEnv, runStylist, startServer } from '../support/cli.js';
import { deleteStreams } from '../support/nats.js';
import { freshDatabase } from '../support/worker-processes.js';

const databaseUrl = process.env.DATABASE_URL;
const natsUrl = process.env.NATS_URL;
const skip = databaseUrl && natsUrl ? false : 'needs DATABASE_URL and NATS_URL (npm run test:integration)';
const ITEMS = 2000;
const PER_UPLOAD = 500;

const item = (i: number) => ({
  sku: `SKU-${i}`,
  name: `Organic Cotton Crew Neck T-Shirt ${i}`,
  productType: 'T-Shirts',
  brand: 'Acme',
  price: 30,
  variants: [{ sku: `SKU-${i}-M`, label: 'M', inStock: true, price: 30 }],
});

t.test(`every service connection terminated five times during an upload of ${ITEMS} items: the process lives on, every item is queued`, { skip, timeout: 300_000 }, async (t) => {
  const serverUrl = Object.assign(new URL(databaseUrl!), { pathname: '/postgres' }).toString();
  const fresh = await freshDatabase(serverUrl, 'sfaults');
  const dataDir = await mkdtemp(path.join(tmpdir(), 'stylist-service-faults-'));
  const prefix = `sf${randomBytes(5).toString('hex')}`;
  const env = cleanEnv({ DATABASE_URL: fresh.url, NATS_URL: natsUrl!, NATS_PREFIX: prefix, STYLIST_SECRET: 's'.repeat(40), DATA_DIR: dataDir });
  const server = await startServer(env, ['--role', 'api,ingest,projections']);
  t.teardown(async () => {
    server.child.kill('SIGKILL');
    await server.exited;
    await deleteStreams(natsUrl!, `${prefix}_`).catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
    await fresh.drop();
  });
  const org = JSON.parse((await runStylist(['org', 'create', '--name', 'Acme Apparel', '--plan', 'unlimited', '--json'], env)).stdout);
  const call = (method: string, url: string, body?: object, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${url}`, {
      method,
      headers: { authorization: `Bearer ${org.privateKey}`, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  const datasetId = ((await (await call('POST', '/v1/datasets', { name: 'Main', config: { storeUrl: 'https://acme.example.com', currency: 'EUR' } })).json()) as { datasetId: string }).datasetId;
  t.ok(datasetId, 'dataset created');

  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  t.teardown(() => admin.end());
  const name = new URL(fresh.url).pathname.slice(1);
  let terminated = 0;
  const killer = (async () => {
    for (let round = 0; round < 5; round++) {
      await new Promise((resolve) => setTimeout(resolve, 400));
      const { rows } = await admin.query('select pg_terminate_backend(pid) as done from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
      terminated += rows.filter((r) => r.done).length;
    }
  })();

  // A client retries a failed request with its Idempotency-Key (document 1) and sends the entries
  // listed under `failures` again.
  const answers: number[] = [];
  let resent = 0;
  await Promise.all(
    Array.from({ length: ITEMS / PER_UPLOAD }, async (_, u) => {
      let items = Array.from({ length: PER_UPLOAD }, (_, i) => item(u * PER_UPLOAD + i));
      for (let attempt = 0; attempt < 30 && items.length; attempt++) {
        const response = await call('POST', `/v1/datasets/${datasetId}/items/upload`, { items }, { 'idempotency-key': `upload-${u}-${attempt}-${prefix}` }).catch(() => null);
        answers.push(response?.status ?? 0);
        if (response?.status === 202) {
          const { failures } = (await response.json()) as { failures: Array<{ sku: string }> };
          const again = new Set(failures.map((f) => f.sku));
          items = items.filter((entry) => again.has(entry.sku));
          resent += items.length;
        }
        if (items.length) await new Promise((resolve) => setTimeout(resolve, 500));
      }
      if (items.length) throw new Error(`upload ${u} never accepted: ${answers.join(',')}`);
    }),
  );
  await killer;
  t.comment(`${terminated} connections terminated in 5 rounds; upload answers ${answers.join(',')}; ${resent} entries sent again`);
  t.ok(terminated >= 5, 'connections were terminated');

  // Waits for what each assertion needs, not for a time: every item in the read model, then the
  // first one through ingest. The deadlines only bound a run that would otherwise hang; a
  // saturated machine takes longer to get there, not a different answer.
  let counts: Record<string, number> = {};
  const total = () => Object.values(counts).reduce((sum, n) => sum + n, 0);
  const poll = async (done: () => boolean, withinMs: number) => {
    for (const until = Date.now() + withinMs; Date.now() < until; ) {
      const response = await call('GET', `/v1/datasets/${datasetId}`).catch(() => null);
      if (response?.ok) counts = ((await response.json()) as { dataset: { items: Record<string, number> } }).dataset.items;
      if (done()) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };
  await poll(() => total() === ITEMS, 90_000);
  await poll(() => (counts.active ?? 0) > 0 || (counts.failed ?? 0) > 0, 120_000);
  t.comment(`items: ${JSON.stringify(counts)}`);
  if (total() !== ITEMS || counts.failed) {
    // What the read model and the event store hold, for the report.
    const inside = new pg.Client({ connectionString: fresh.url });
    await inside.connect();
    const rows = await inside.query("select status, queue_status, queue_reason, count(*)::int as n from catalogue_items group by 1, 2, 3");
    const streams = await inside.query("select count(distinct stream_id)::int as n, count(*)::int as events from events where stream_id like 'item-%'");
    const types = await inside.query("select type, count(*)::int as n from events group by 1 order by 1");
    const checkpoints = await inside.query('select name, position, events_applied from projection_checkpoints');
    await inside.end();
    t.comment(JSON.stringify({ rows: rows.rows, streams: streams.rows, types: types.rows, checkpoints: checkpoints.rows }));
    t.comment(server.logs().split('\n').filter((line) => /"level":(40|50)/.test(line)).slice(-20).join('\n'));
  }
  t.equal(total(), ITEMS, `all ${ITEMS} items in the read model`);
  t.equal(counts.failed, 0, 'none failed');
  t.ok(counts.active! > 0, 'ingest goes on');
  t.equal(server.child.exitCode, null, 'the process never exited');
  t.equal(server.child.signalCode, null);
  const ready = await fetch(`${server.url}/readyz`);
  t.equal(ready.status, 200, 'ready again');
  t.match(server.logs(), /database connection lost/, 'the lost connections were logged');
});
