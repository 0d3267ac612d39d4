// A SIGKILL in the middle of a batch must roll back that batch's rows and checkpoint together,
// so the next run applies every event exactly once.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { openDatabase, type Database } from '../../infra/db/database.js';
import { openPostgresEventStore } from '../../infra/eventstore/postgres.js';
import { migrate } from '../../projections/migrations.js';
import { ProjectionRunner } from '../../projections/runner.js';
import { seedPgliteDir } from '../support/pglite-template.js';
import { countingProjector, createCountingTables, TICKED } from './fixtures/counting.js';

const EVENTS = 300;
const BATCH = 50;
const KILL_AT = 130; // inside the third batch: the child stalls there until killed
const child = fileURLToPath(new URL('./fixtures/slow-runner.ts', import.meta.url));
const typescript = fileURLToPath(new URL('../../bin/typescript.mjs', import.meta.url));

t.test('killed mid-batch, restarted: every event applied exactly once', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'stylist-crash-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await seedPgliteDir(dir); // a database as a first start leaves it, without initdb's seconds

  await withStore(dir, async (database, store) => {
    await migrate(database.db);
    await createCountingTables(database.db);
    for (let stream = 0; stream < EVENTS / 10; stream++) {
      const events = Array.from({ length: 10 }, (_, i) => ({ type: TICKED, data: { tick: stream * 10 + i } }));
      await store.append(`tick-${stream}`, events, { expectedRevision: 'no_stream' });
    }
  });

  const seen = await runUntilKilled(dir, KILL_AT);
  t.equal(seen, KILL_AT, 'killed in the middle of a batch');

  await withStore(dir, async (database, store) => {
    const db = database.db;
    const checkpoint = await db.selectFrom('projection_checkpoints').selectAll().where('name', '=', 'ticks').executeTakeFirstOrThrow();
    const counterAfterCrash = Number((await db.selectFrom('tick_counter').select('applied').executeTakeFirstOrThrow()).applied);
    t.equal(Number(checkpoint.events_applied), counterAfterCrash, 'checkpoint and rows committed together');
    t.equal(counterAfterCrash % BATCH, 0, `the interrupted batch left nothing behind (${counterAfterCrash} applied)`);
    t.equal(counterAfterCrash, Math.floor(KILL_AT / BATCH) * BATCH, 'the batch in flight was rolled back, those before kept');

    const runner = new ProjectionRunner({ store, db, projectors: [countingProjector()], batchSize: BATCH });
    await runner.start();
    try {
      await runner.waitFor((await store.committedHead())!, ['ticks'], 20_000);
    } finally {
      await runner.stop();
    }
    const counter = Number((await db.selectFrom('tick_counter').select('applied').executeTakeFirstOrThrow()).applied);
    t.equal(counter, EVENTS, 'the counter saw each event once');
    const rows = await db.selectFrom('tick_rows').select(['position', 'tick']).orderBy('tick').execute();
    t.equal(rows.length, EVENTS, 'one row per event');
    t.same(
      rows.map((r) => r.tick),
      Array.from({ length: EVENTS }, (_, i) => i),
    );
    t.equal(new Set(rows.map((r) => r.position)).size, EVENTS);
  });
});

async function withStore(
  dir: string,
  fn: (database: Database, store: Awaited<ReturnType<typeof openPostgresEventStore>>) => Promise<void>,
): Promise<void> {
  const database = await openDatabase({ pgliteDir: dir });
  try {
    const store = await openPostgresEventStore(database);
    try {
      await fn(database, store);
    } finally {
      await store.close();
    }
  } finally {
    await database.close();
  }
}

/** Runs the slow runner until it reports `killAt` handler calls, SIGKILLs it; returns the last count seen. */
function runUntilKilled(dir: string, killAt: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', typescript, child, dir, String(BATCH), String(killAt)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let seen = 0;
    let stderr = '';
    let pending = '';
    const timer = setTimeout(() => proc.kill('SIGKILL'), 30_000);
    proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    proc.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        const match = /^applied (\d+)$/.exec(line);
        if (match) seen = Math.max(seen, Number(match[1]));
      }
      if (seen >= killAt && proc.exitCode === null && !proc.killed) proc.kill('SIGKILL');
    });
    proc.on('error', reject);
    proc.on('exit', (_code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL' && seen >= killAt) resolve(seen);
      else reject(new Error(`slow runner ended before the kill (signal ${signal}, ${seen} applied): ${stderr}`));
    });
  });
}
