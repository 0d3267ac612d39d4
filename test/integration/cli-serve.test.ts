// `stylist serve` on Postgres and NATS JetStream as real processes, with the CLI reaching it the
// way an operator's would (the database is the server's, so no admin channel is needed).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { cleanEnv, runStylist, startServer } from '../support/cli.js';

const databaseUrl = process.env.DATABASE_URL;
const natsUrl = process.env.NATS_URL;
const skip = !databaseUrl || !natsUrl ? 'needs DATABASE_URL and NATS_URL (npm run test:integration)' : false;

const json = (stdout: string) => JSON.parse(stdout.trim()) as Record<string, any>;

t.test('stylist serve on Postgres and NATS JetStream', { skip }, async (t) => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'stylist-cli-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const env = cleanEnv({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl!, NATS_URL: natsUrl!, STYLIST_SECRET: 'i'.repeat(40) });
  const server = await startServer(env, ['--role', 'api,projections']);
  t.teardown(() => server.child.kill('SIGKILL'));
  const ready = await fetch(`${server.url}/readyz`);
  const readiness = (await ready.json()) as { projections: { oldestTransactionSeconds: unknown } };
  t.match(readiness, {
    status: 'ready',
    checks: { eventStore: 'ok', database: 'ok', queue: 'ok', objectStore: 'ok', turnChannel: 'ok', projections: 'ok' },
    projections: { lagLimitSeconds: 30, problems: [] },
  });
  // Another test's transaction on the same server may be open right now: a number of seconds or none.
  const oldest = readiness.projections.oldestTransactionSeconds;
  t.ok(oldest === null || typeof oldest === 'number', `oldest transaction: ${String(oldest)}`);
  const created = await runStylist(['org', 'create', '--name', 'Postgres Org', '--json'], env);
  t.equal(created.code, 0, created.stderr);
  const shown = json((await runStylist(['org', 'show', '--org', json(created.stdout).organizationId, '--json'], env)).stdout);
  t.equal(shown.organization.name, 'Postgres Org');
  server.child.kill('SIGTERM');
  t.equal(await server.exited, 0);
});
