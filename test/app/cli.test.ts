// The operator's view: the `stylist` command and `stylist serve`. Most cases run the command in
// this process (runStylistInProcess: the function main.ts calls, with its own environment and
// captured output); a few start real processes, to cover exit codes, signals and the admin channel.
// `stylist serve` on Postgres and NATS is in test/integration/cli-serve.test.ts.
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile, mkdir } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { readAccountSession } from '../../api/auth/account-session.js';
import { ensureDataDir, narrowTreeToOwner } from '../../app/data-dir.js';
import { serverSecret } from '../../app/secret.js';
import { openDatabase } from '../../infra/db/database.js';
import { allProjectors } from '../../projections/index.js';
import { cleanEnv, runStylist, runStylistInProcess, startServer } from '../support/cli.js';
import { seedPgliteDir } from '../support/pglite-template.js';

const tempDataDir = async (t: { teardown(fn: () => unknown): void }) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'stylist-cli-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
};

/** A DATA_DIR whose embedded database a service already made (from the test template: no initdb). */
const usedDataDir = async (t: { teardown(fn: () => unknown): void }) => {
  const dir = await tempDataDir(t);
  await seedPgliteDir(path.join(dir, 'pglite'));
  return dir;
};

const json = (stdout: string) => {
  const lines = stdout.trim().split('\n');
  if (lines.length !== 1) throw new Error(`expected one JSON line on stdout, got:\n${stdout}`);
  return JSON.parse(lines[0]!);
};

const dumpOrganizations = async (dataDir: string) => {
  const database = await openDatabase({ pgliteDir: path.join(dataDir, 'pglite') });
  try {
    const organizations = await database.db.selectFrom('organizations').selectAll().orderBy('organization_id').execute();
    const keys = await database.db.selectFrom('api_keys').selectAll().orderBy('key_id').execute();
    return JSON.stringify({ organizations, keys });
  } finally {
    await database.close();
  }
};

t.test('org create writes through a command and reads back through the read model; rebuild reproduces it exactly', async (t) => {
  const dataDir = await usedDataDir(t);
  const env = cleanEnv({ DATA_DIR: dataDir });

  const created = await runStylistInProcess(['org', 'create', '--name', '  Acme Apparel  ', '--json'], env);
  t.equal(created.code, 0, created.stderr);
  const organization = json(created.stdout);
  t.match(organization.organizationId, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  t.same(Object.keys(organization).sort(), ['keyId', 'organizationId', 'privateKey', 'publicKey'], 'document 3 §2 output');
  t.match(organization.publicKey, /^sgpt-pk-[0-9A-Za-z]+$/);
  t.match(organization.privateKey, /^sgpt-sk-[0-9A-Za-z]+::[0-9A-Za-z]+$/);
  const first = json((await runStylistInProcess(['org', 'show', '--org', organization.organizationId, '--json'], env)).stdout);
  t.equal(first.organization.name, 'Acme Apparel', 'name trimmed');

  const second = json((await runStylistInProcess(['org', 'create', '--name', 'Ünïcödé Boutique 東京', '--json'], env)).stdout);
  const renamed = await runStylistInProcess(['org', 'rename', '--org', organization.organizationId, '--name', 'Acme Outfitters', '--json'], env);
  t.equal(renamed.code, 0, renamed.stderr);
  t.equal(json(renamed.stdout).name, 'Acme Outfitters');

  const shown = json((await runStylistInProcess(['org', 'show', '--org', second.organizationId, '--json'], env)).stdout);
  t.equal(shown.organization.name, 'Ünïcödé Boutique 東京');
  t.equal(shown.organization.reportingTimezone, 'UTC');

  const before = await dumpOrganizations(dataDir);
  t.equal(JSON.parse(before).organizations.length, 2);
  t.equal(JSON.parse(before).keys.length, 4, 'a primary and an unrestricted key each');
  const rebuilt = await runStylistInProcess(['projections', 'rebuild', 'organizations', '--json'], env);
  t.equal(rebuilt.code, 0, rebuilt.stderr);
  t.same(json(rebuilt.stdout), { rebuilt: ['organizations'], events: 9 }, 'every event is read: two organizations with two keys each, one rename');
  t.equal(await dumpOrganizations(dataDir), before, 'rebuilt rows are byte-identical');
  const all = await runStylistInProcess(['projections', 'rebuild', '--json'], env);
  t.same(json(all.stdout), { rebuilt: allProjectors.map((p) => p.name), events: 9 }, 'every read model');
  t.equal(await dumpOrganizations(dataDir), before, 'rebuilt rows are byte-identical');

  const status = json((await runStylistInProcess(['projections', 'status', '--json'], env)).stdout);
  const organizations = status.projections.find((p: { name: string }) => p.name === 'organizations');
  t.ok(organizations?.position, 'checkpoint reported');
});

t.test('session issue --json mints a stylist_session cookie the service can read, for an organization or none', async (t) => {
  const dataDir = await usedDataDir(t);
  const env = cleanEnv({ DATA_DIR: dataDir });
  const org = json((await runStylistInProcess(['org', 'create', '--name', 'Acme Apparel', '--json'], env)).stdout);
  const issued = await runStylistInProcess(['session', 'issue', '--org', org.organizationId, '--json'], env);
  t.equal(issued.code, 0, issued.stderr);
  const cookie = json(issued.stdout);
  t.same(Object.keys(cookie).sort(), ['accountId', 'cookie', 'expiresAt', 'header', 'memberships', 'organizationId', 'value']);
  t.match(cookie, { cookie: 'stylist_session', organizationId: org.organizationId, memberships: [{ organizationId: org.organizationId, active: true }] });
  const read = readAccountSession(await serverSecret(dataDir, undefined), cookie.value, new Date());
  t.match(read, { accountId: cookie.accountId, memberships: [{ organizationId: org.organizationId, active: true }] }, 'signed with the server secret');
  const none = json((await runStylistInProcess(['session', 'issue', '--no-org', '--json'], env)).stdout);
  t.same([none.organizationId, none.memberships], [null, []]);
  const wrong = await runStylistInProcess(['session', 'issue', '--json'], env);
  t.equal(wrong.code, 1);
  t.match(wrong.stderr, /--org ID \(repeatable\) or --no-org/);
});

t.test('CLI mistakes are one line on stderr and exit code 1', async (t) => {
  const dataDir = await usedDataDir(t);
  const env = cleanEnv({ DATA_DIR: dataDir });
  // One after the other: the embedded database admits one process at a time.
  const results = [];
  for (const args of [
    ['org', 'create', '--json'],
    ['org', 'create', '--name', 'x', '--json'],
    ['org', 'show', '--org', '00000000-0000-4000-8000-000000000000', '--json'],
    ['projections', 'rebuild', 'nonsense'],
    ['frobnicate'],
  ]) {
    results.push(await runStylistInProcess(args, env));
  }
  const expected = [
    /^stylist: --name is required\n$/,
    /^stylist: Organization name must be at least 2 characters\n$/,
    /^stylist: Organization '00000000-0000-4000-8000-000000000000' not found\.\n$/,
    /^stylist: unknown projection nonsense \(known: .*organizations.*\)\n$/,
    /^stylist: unknown command: frobnicate\n$/,
  ];
  // The real command, once: the exit code and stderr as a shell sees them.
  results.push(await runStylist(['frobnicate'], env));
  expected.push(/^stylist: unknown command: frobnicate\n$/);
  results.forEach((result, i) => {
    t.equal(result.code, 1, `case ${i}`);
    t.equal(result.stdout, '', 'nothing on stdout');
    t.match(result.stderr, expected[i]!);
  });
});

t.test('start-up failures give one clear line and a non-zero exit, never a stack trace', async (t) => {
  const dataDir = await usedDataDir(t);
  const corrupt = await tempDataDir(t);
  await mkdir(path.join(corrupt, 'pglite'), { recursive: true });
  await writeFile(path.join(corrupt, 'pglite', 'PG_VERSION'), 'garbage\n');
  const cases: Array<[string, NodeJS.ProcessEnv, RegExp]> = [
    ['bad configuration', cleanEnv({ DATA_DIR: dataDir, PORT: 'eighty' }), /^stylist: configuration error: PORT must be a whole number/],
    [
      'Postgres down',
      cleanEnv({ DATA_DIR: dataDir, DATABASE_URL: 'postgres://postgres:pw@127.0.0.1:1/stylist', STYLIST_SECRET: 'x'.repeat(40) }),
      /^stylist: database: cannot connect to Postgres at postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:1\/stylist/,
    ],
    ['NATS down', cleanEnv({ DATA_DIR: dataDir, NATS_URL: 'nats://127.0.0.1:1' }), /^stylist: work queue: .*nats:\/\/127\.0\.0\.1:1/],
    ['corrupt PGlite directory', cleanEnv({ DATA_DIR: corrupt }), /^stylist: database: cannot open the embedded database in .*pglite/],
  ];
  // One after the other: the NATS case opens the same embedded directory as the others.
  for (const [name, env, expected] of cases) {
    const result = await runStylistInProcess(['serve'], env);
    t.equal(result.code, 1, `${name}: exit code`);
    t.match(result.stderr, expected, name);
    t.equal(result.stderr.trim().split('\n').length, 1, `${name}: one line (${result.stderr})`);
    t.notMatch(result.stderr, /\n\s+at /, `${name}: no stack trace`);
  }
});

t.test('stylist serve answers /healthz, takes CLI commands over its admin channel, and stops cleanly', async (t) => {
  // A DATA_DIR that does not exist yet: the service creates it for its own user only.
  const dataDir = path.join(await tempDataDir(t), 'data');
  const env = cleanEnv({ DATA_DIR: dataDir });
  const started = Date.now();
  const server = await startServer(env);
  t.teardown(() => server.child.kill('SIGKILL'));
  const health = await fetch(`${server.url}/healthz`);
  t.equal(health.status, 200);
  // Issue 2: a fresh clone serves /healthz within 15 s (about 10 s here: PGlite's first initdb alone
  // is 5 s). This file shares the two cores with other test files (and, on a developer's machine,
  // other work), so the bound grows with the load it runs under, up to four times: at a load of
  // three per core a healthy start took 33 s, while a start that hangs never answers at all.
  const load = Math.min(4, Math.max(1, loadavg()[0]! / availableParallelism()));
  const bound = Math.round(15_000 * load);
  t.ok(Date.now() - started < bound, `served /healthz ${Date.now() - started} ms after start (bound ${bound} ms at load ×${load.toFixed(2)})`);
  // On Linux with Node >= 22.15 the server started itself again with MALLOC_ARENA_MAX=2 (bin/stylist.mjs).
  const execve = typeof (process as { execve?: unknown }).execve === 'function' && process.platform === 'linux';
  const environ = execve ? (await readFile(`/proc/${server.child.pid}/environ`, 'utf8')).split('\0') : [];
  t.ok(!execve || environ.includes('MALLOC_ARENA_MAX=2'), execve ? 'the server runs with MALLOC_ARENA_MAX=2' : 'no process.execve on this Node: MALLOC_ARENA_MAX is left to the environment');
  // …and with a V8 heap limit under 2 GB, where V8 grows the heap by at most twice its live set: 1 GB past SEARCH_MEMORY_MB (512).
  const cmdline = execve ? (await readFile(`/proc/${server.child.pid}/cmdline`, 'utf8')).split('\0') : [];
  t.ok(!execve || cmdline.includes('--max-old-space-size=1536'), execve ? 'the server runs with --max-old-space-size=1536' : 'no process.execve on this Node: the heap limit is V8\'s');
  t.ok(!execve || cmdline.includes('--heap-growing-percent=25'), execve ? '…and lets its heap grow 25% past what a full collection left alive' : 'no process.execve on this Node: the heap grows as V8 decides');
  const ready = await fetch(`${server.url}/readyz`);
  const readiness = (await ready.json()) as Record<string, unknown>;
  // The search memory's figures move with the demo's ingest: only their kind is fixed.
  t.match(readiness.searchMemory, { datasets: Number, items: Number, heldMb: Number, budgetMb: 512, restored: Number, built: Number, evicted: 0, evictedSoonAfterLoad: 0 });
  delete readiness.searchMemory;
  t.same(readiness, {
    status: 'ready',
    checks: { eventStore: 'ok', database: 'ok', queue: 'ok', objectStore: 'ok', turnChannel: 'ok', projections: 'ok', searchMemory: 'ok' },
    projections: {
      lagLimitSeconds: 30,
      problems: [],
      oldestTransactionSeconds: null,
      // Both projection lanes run in the one embedded process.
      lanes: [
        { name: 'catalogue', here: true, lagSeconds: 0, ok: true },
        { name: 'shopper', here: true, lagSeconds: 0, ok: true },
      ],
    },
  });
  t.equal((await stat(dataDir)).mode & 0o777, 0o700, 'DATA_DIR created 0700');
  // Every file the service wrote (database, secret, admin channel) is the service user's alone.
  const opened = await readdir(dataDir, { recursive: true });
  // The demo catalogue's photos are still being written: a temporary file may be gone by its stat.
  const modeOf = (name: string) => stat(path.join(dataDir, name)).then((s) => s.mode & 0o777, () => undefined);
  const modes = (await Promise.all(opened.map(async (name) => ({ name, mode: await modeOf(name) })))).filter((entry): entry is { name: string; mode: number } => entry.mode !== undefined);
  t.ok(modes.length > 10, `${modes.length} files and directories under DATA_DIR`);
  // PGlite unpacks its database files 0666 whatever the umask; the service narrows them as it opens.
  t.ok(modes.filter(({ name }) => name.startsWith('pglite/')).length > 100, 'the database files are among them');
  const open = modes.filter(({ mode }) => (mode & 0o077) !== 0);
  t.same(open, [], 'no directory and no file, database files included, is open to group or others');
  t.ok(existsSync(path.join(dataDir, 'admin.json')), 'admin channel address written');

  // The server holds the embedded database, so this only works through the admin channel.
  const created = await runStylist(['org', 'create', '--name', 'Served Org', '--json'], env);
  t.equal(created.code, 0, created.stderr);
  const { organizationId } = json(created.stdout);
  const shown = json((await runStylistInProcess(['org', 'show', '--org', organizationId, '--json'], env)).stdout);
  t.equal(shown.organization.organizationId, organizationId);
  t.equal(shown.organization.name, 'Served Org');

  const second = await runStylistInProcess(['serve'], env);
  t.equal(second.code, 1);
  t.match(second.stderr, /DATA_DIR .* is in use by another stylist process/, 'a second server refuses the same DATA_DIR');

  server.child.kill('SIGTERM');
  t.equal(await server.exited, 0, 'clean exit on SIGTERM');
  t.notOk(existsSync(path.join(dataDir, 'admin.json')), 'admin channel removed');
  t.notOk(existsSync(path.join(dataDir, 'stylist.pid')), 'lock released');

  // With the server gone the CLI opens the stores itself and sees the same data.
  const after = json((await runStylistInProcess(['org', 'show', '--org', organizationId, '--json'], env)).stdout);
  t.equal(after.organization.name, 'Served Org');
});

t.test('a DATA_DIR left open by an older version is narrowed to its owner', async (t) => {
  const dataDir = path.join(await tempDataDir(t), 'old');
  await mkdir(dataDir);
  await chmod(dataDir, 0o755);
  await ensureDataDir(dataDir);
  t.equal((await stat(dataDir)).mode & 0o777, 0o700);
});

t.test('files left open to group or others under a tree are narrowed to their owner', async (t) => {
  const root = path.join(await tempDataDir(t), 'tree');
  await mkdir(path.join(root, 'base', '5'), { recursive: true });
  await chmod(root, 0o700);
  await chmod(path.join(root, 'base', '5'), 0o700);
  await chmod(path.join(root, 'base'), 0o755);
  await writeFile(path.join(root, 'base', '5', '1259'), 'x');
  await chmod(path.join(root, 'base', '5', '1259'), 0o666);
  await writeFile(path.join(root, 'PG_VERSION'), '17');
  await chmod(path.join(root, 'PG_VERSION'), 0o600);
  t.equal(await narrowTreeToOwner(root), 2, 'the open directory and the open file, nothing else');
  t.equal((await stat(path.join(root, 'base'))).mode & 0o777, 0o700);
  t.equal((await stat(path.join(root, 'base', '5', '1259'))).mode & 0o777, 0o600);
  t.equal((await stat(path.join(root, 'PG_VERSION'))).mode & 0o777, 0o600);
});
