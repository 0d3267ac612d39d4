// A `stylist` command against a DATA_DIR another running server holds: handed to that server over
// its admin channel when it answers; refused at once, naming the DATA_DIR and the server's pid,
// when it cannot take the command (still starting, or stopped): never a wait on it.
import { spawn } from 'node:child_process';
import { watch } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { cleanEnv, runStylist, stylistBin } from '../support/cli.js';
import { seedPgliteDir } from '../support/pglite-template.js';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Resolves when `name` appears in `dir` (an inotify event, not a poll). */
const appears = (dir: string, name: string): { ready: Promise<void>; close(): void } => {
  let close = () => {};
  const ready = new Promise<void>((resolve) => {
    const watcher = watch(dir, (_event, file) => {
      if (file === name) resolve();
    });
    close = () => watcher.close();
    // Already there before the watch began.
    void readdir(dir).then((files) => files.includes(name) && resolve());
  });
  return { ready: ready.finally(close), close };
};

t.test('a command refuses a DATA_DIR held by a server that cannot take it, naming the directory and the pid; a running server takes it', async (t) => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'stylist-busy-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  await seedPgliteDir(path.join(dataDir, 'pglite'));
  // The shortest wait for a server's answer (ADMIN_ANSWER_SECONDS): the refusals cost the test its
  // wait twice. No demo catalogue: its ingest would only compete for the cores with other files.
  const env = cleanEnv({ DATA_DIR: dataDir, ADMIN_ANSWER_SECONDS: '2', DEMO_SEED: 'false' });

  const locked = appears(dataDir, 'stylist.pid');
  const child = spawn(process.execPath, [stylistBin, 'serve'], { env: { ...env, PORT: '0', LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'] });
  t.teardown(() => child.kill('SIGKILL'));
  let output = '';
  const running = new Promise<void>((resolve) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (/"msg":"stylist is running"/.test(output)) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

  // Frozen as soon as it holds the DATA_DIR: it cannot answer, and the embedded database is its.
  await locked.ready;
  child.kill('SIGSTOP');
  const refusal = new RegExp(`^stylist: DATA_DIR ${escape(dataDir)} is in use by another stylist process \\(pid ${child.pid}\\)`);
  const starting = await runStylist(['org', 'create', '--name', 'Too Early', '--json'], env, 60_000);
  t.equal(starting.code, 1);
  t.match(starting.stderr, refusal, 'refused, with the DATA_DIR and the pid');
  t.equal(starting.stdout, '', 'nothing printed as a result');

  child.kill('SIGCONT');
  await running;
  const created = await runStylist(['org', 'create', '--name', 'Served Org', '--json'], env, 60_000);
  t.equal(created.code, 0, created.stderr);
  const { organizationId } = JSON.parse(created.stdout);

  // Stopped while it runs: the admin channel takes the connection but never answers.
  child.kill('SIGSTOP');
  const stopped = await runStylist(['key', 'create', '--org', organizationId, '--name', 'late', '--json'], env, 60_000);
  t.equal(stopped.code, 1);
  t.match(stopped.stderr, refusal);
  t.match(stopped.stderr, /did not answer on its admin channel within 2 s; nothing was changed/);

  // Resumed, the server reads the request the CLI gave up on, and leaves it undone.
  const discarded = new Promise<void>((resolve) => {
    const onData = () => /after the CLI had given up on it; not run/.test(output) && resolve();
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
  });
  child.kill('SIGCONT');
  await discarded;
  const listed = await runStylist(['key', 'list', '--org', organizationId, '--json'], env, 60_000);
  t.equal(listed.code, 0, listed.stderr);
  t.notMatch(listed.stdout, /"late"/, 'the refused command changed nothing');
  child.kill('SIGTERM');
  t.equal(await exited, 0, 'the server, resumed, stops cleanly');
  t.notMatch(output, /Too Early/, 'the command refused during start-up never reached the server');
});
