// Long CLI work shows its progress to the person at the terminal, and only there: the line drawn
// in place, what the admin channel carries from a running server, and a rebuild through `stylist`.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { openAdminChannel, sendToServer } from '../../app/admin.js';
import { follow, NothingMoved } from '../../app/cli/follow.js';
import { progressLine, terminalProgress, type Progress } from '../../app/cli/progress.js';
import { runCli } from '../../app/cli/run.js';
import { cleanEnv } from '../support/cli.js';
import { seedPgliteDir } from '../support/pglite-template.js';

const tempDataDir = async (t: { teardown(fn: () => unknown): void }) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'stylist-progress-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
};

t.test('a progress line: done of total, percent, rate and what is left', async (t) => {
  t.equal(progressLine({ what: 'replaying dead letters', done: 30, total: 120, unit: 'messages' }, 10), 'replaying dead letters  30/120 messages  25%  3/s  ETA 30 s');
  t.equal(progressLine({ what: 'rebuilding every projection', done: 12_000, total: null, unit: 'events' }, 3), 'rebuilding every projection  12,000 events  4,000/s');
  t.equal(progressLine({ what: 'x', done: 0, total: 5, unit: 'items' }, 0), 'x  0/5 items  0%');
});

t.test('drawn in place on a terminal, at most ten times a second, ending its line; nothing elsewhere', async (t) => {
  let clock = 0;
  let written = '';
  const terminal = terminalProgress({ isTTY: true, write: (text: string) => (written += text) }, () => clock);
  const step = (done: number) => terminal.report({ what: 'replaying', done, total: 10, unit: 'messages' });
  step(1);
  clock += 50;
  step(2); // within 100 ms of the last line: not drawn
  clock += 100;
  step(3);
  clock += 1;
  step(10); // the last step is always drawn
  terminal.end();
  const lines = written.split('\r\x1b[K').filter(Boolean);
  t.same(lines.map((line) => line.split('  ')[1]), ['1/10 messages', '3/10 messages', '10/10 messages']);
  t.ok(written.endsWith('\n'), 'the line is finished');

  let piped = '';
  const notTerminal = terminalProgress({ write: (text: string) => (piped += text) });
  notTerminal.report({ what: 'replaying', done: 1, total: 2, unit: 'messages' });
  notTerminal.end();
  t.equal(piped, '', 'a pipe gets nothing: it reads the answer');
});

t.test('the admin channel carries a running server\'s progress to the CLI, then the answer', async (t) => {
  const dataDir = await tempDataDir(t);
  const channel = await openAdminChannel(dataDir, async (argv, progress) => {
    for (let done = 0; done <= 3; done++) progress({ what: 'working', done, total: 3, unit: 'steps' });
    return { ok: true, result: { argv } };
  });
  t.teardown(() => channel.close());
  const seen: Progress[] = [];
  const answer = await sendToServer(dataDir, ['projections', 'rebuild'], (step) => seen.push(step));
  t.same(answer, { ok: true, result: { argv: ['projections', 'rebuild'] } });
  t.same(seen.map((step) => step.done), [0, 1, 2, 3]);
});

t.test('`stylist projections rebuild` on a terminal shows the events replayed; piped, stdout stays the answer', async (t) => {
  const dataDir = await tempDataDir(t);
  await seedPgliteDir(path.join(dataDir, 'pglite'));
  const env = cleanEnv({ DATA_DIR: dataDir });
  let stdout = '';
  let stderr = '';
  await runCli(['org', 'create', '--name', 'Progress Apparel'], { env, stdout: { write: () => undefined }, stderr: { write: () => undefined } });
  const outcome = await runCli(['projections', 'rebuild'], { env, stdout: { write: (text: string) => (stdout += text) }, stderr: { isTTY: true, write: (text: string) => (stderr += text) } });
  t.same(outcome, { exitCode: 0 });
  t.match(stdout, /^rebuilt .* from \d+ events\n$/);
  const drawn = stderr.split('\r\u001b[K').filter(Boolean);
  t.ok(drawn.length >= 1, 'the replay drawn in place on the terminal');
  t.match(drawn.at(-1), /^rebuilding every projection {2}\d+ events/);
  t.ok(stderr.endsWith('\n'));
});

t.test('--wait follows work in the workers to its end, and says so when nothing moves', async (t) => {
  let done = 0;
  const seen: number[] = [];
  const value = await follow(
    (step) => seen.push(step.done),
    'work',
    async () => {
      done = Math.min(done + 2, 5);
      return { done: done === 5, step: { what: 'work', done, total: 5, unit: 'items' }, value: 'finished' };
    },
    { pollMs: 1 },
  );
  t.equal(value, 'finished');
  t.same(seen, [2, 4, 5]);

  await t.rejects(
    follow(() => undefined, 'demo catalogue ingest', async () => ({ done: false, step: { what: 'x', done: 3, total: 300, unit: 'products live' }, value: null }), { pollMs: 1, stalledMs: 30 }),
    new NothingMoved('demo catalogue ingest: nothing moved for 0 s; is a server with the worker role for it running? (it goes on in the queue)'),
  );
});
