// Store sync end to end: a 25,000-product Shopify store served locally (the fixtures replicated
// with new ids, no photos), connected as a source through the API and synced by `stylist serve
// --role sync,ingest` child processes on Postgres + NATS JetStream, with 1 and 2 of them. This
// process runs the API, the projections and the scheduler. Measured: the first sync (connect to
// job completed: fetch, diff and queue; the fetch alone from the run's log), the time until every
// item is active, a re-sync with nothing changed, and a re-sync after 1% of the prices changed
// (until those partial updates are applied). Goals: fetch and diff ≤ 30 s; a re-sync with nothing
// changed ≤ 15 s and queues nothing. (25,000 is also the most one sync reads: the feed's empty page
// 101 shows the store ends there, so the run is not capped.)
//   node --import tsx bench/sync.ts
//   BENCH_SYNC_PRODUCTS=25000  BENCH_SYNC_WORKERS=1,2  BENCH_SYNC_PRICE_CHANGE=1 (0: skip that step)
//   DATABASE_URL=postgres://… (server; a fresh database per run, dropped afterwards)  NATS_URL=nats://…
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createLogger } from '../api/logging.js';
import { buildServiceApi } from '../app/api.js';
import { executeCommand } from '../app/cli/execute.js';
import { openPlatform } from '../app/platform.js';
import { startWorkers } from '../app/workers.js';
import { itemIdFor } from '../domain/item/identity.js';
import { adminStatement } from './eventstore.js';
import { redactUrl } from '../infra/db/database.js';
import { loadConfig } from '../infra/config/config.js';
import { cleanEnv, stylistBin } from '../test/support/cli.js';
import { deleteStreams } from '../test/support/nats.js';
import { LOCAL_STORES_ENV } from '../test/support/outbound.js';
import { loadShopifyFixtures, replicateProducts, shopifyFixturesAvailable, shopifyFixturesDir, startShopifyStore } from '../test/support/shopify-store.js';
import { DEFAULT_URL } from './eventstore.js';

type Product = Record<string, any>;

/** Goals from the issue, in seconds. */
const GOAL_FIRST_SYNC_S = 30;
const GOAL_QUIET_RESYNC_S = 15;

interface Row {
  workers: number;
  products: number;
  /** Connect to job `completed`: fetch, parse, diff and queue. */
  'first sync s': number;
  /** From the run's log: reading every page of products.json. */
  'fetch s': number;
  /** Connect until every imported item is active. */
  'to active s': number;
  /** Items made active per second, counted from the connect. */
  'items/s': number;
  'no-change re-sync s': number;
  /** added + updated + archived of the re-sync with nothing changed: must be 0. */
  queued: number;
  /** Re-sync after 1% of the products' prices changed: to job `completed`. */
  'price re-sync s'?: number;
  /** …and until those partial updates are applied. */
  'prices applied s'?: number;
  'prices updated'?: number;
}

const round = (seconds: number) => Math.round(seconds * 10) / 10;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// Child processes: `stylist serve --role sync,ingest`, killed whatever happens to this one.

interface Child {
  process: ChildProcess;
  name: string;
  /** The last lines it wrote, for an error report. */
  tail: string[];
  /** Its warn/error/fatal log lines (at most 50 kept). */
  problems: string[];
  exited: Promise<number | null>;
  /** Set once it exited while it was still meant to run. */
  died?: string;
}

const children = new Set<Child>();

function killAllNow(): void {
  for (const child of children) if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGKILL');
}

/** Set by Ctrl-C: the run stops at its next poll and cleans up as after an error; a second one quits at once. */
let interruptedBy: string | undefined;

function killChildrenOnExit(): void {
  process.on('exit', killAllNow);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      killAllNow();
      if (interruptedBy) process.exit(130);
      interruptedBy = signal;
      console.error(`bench/sync.ts: ${signal}; cleaning up (again to quit at once)`);
      setTimeout(() => process.exit(130), 30_000).unref();
    });
  }
}

/** Starts one worker process and resolves once it logs that it is running. */
function startChild(name: string, env: Record<string, string>, timeoutMs = 60_000): Promise<Child> {
  const proc = spawn(process.execPath, [stylistBin, 'serve', '--role', 'sync,ingest'], {
    env: cleanEnv({ ...env, PORT: '0', LOG_LEVEL: 'info' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const child: Child = { process: proc, name, tail: [], problems: [], exited: new Promise((done) => proc.on('exit', (code, signal) => done(code ?? (signal ? 128 : null)))) };
  children.add(child);
  return new Promise((resolve, reject) => {
    let running = false;
    let partial = '';
    const onData = (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        child.tail.push(line);
        if (child.tail.length > 60) child.tail.shift();
        const level = Number(/"level":(\d+)/.exec(line)?.[1] ?? 0);
        if ((level >= 40 || !line.startsWith('{')) && line.trim() && child.problems.length < 50) child.problems.push(line.slice(0, 500));
        if (!running && /"msg":"stylist is running"/.test(line)) {
          running = true;
          clearTimeout(timer);
          resolve(child);
        }
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`${name} did not start in ${timeoutMs} ms\n${child.tail.join('\n')}`));
    }, timeoutMs);
    void child.exited.then((code) => {
      clearTimeout(timer);
      child.died ??= `${name} exited with ${code}`;
      if (!running) reject(new Error(`${name} exited with ${code} before it was running\n${child.tail.join('\n')}`));
    });
  });
}

/** SIGTERM (in-flight jobs finish or are given back), SIGKILL after `graceMs`. */
async function stopChild(child: Child, graceMs = 15_000): Promise<void> {
  child.died ??= 'stopped';
  if (child.process.exitCode === null && child.process.signalCode === null) {
    child.process.kill('SIGTERM');
    const timer = setTimeout(() => child.process.kill('SIGKILL'), graceMs);
    await child.exited;
    clearTimeout(timer);
  }
  children.delete(child);
}

// ---------------------------------------------------------------------------------------------
// A fresh database per run, dropped afterwards (as bin/integration.mjs does).

async function freshDatabase(server: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `stylist_bench_sync_${randomBytes(4).toString('hex')}`;
  await adminStatement(server, `create database ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => adminStatement(server, `drop database if exists ${name} with (force)`).catch((error: Error) => console.error(`bench/sync.ts: could not drop ${name}: ${error.message}`)),
  };
}

// ---------------------------------------------------------------------------------------------

async function measure(server: string, natsUrl: string, workerCount: number, products: Product[], priceChange: boolean): Promise<{ row: Row; notes: string[] }> {
  const notes: string[] = [];
  const database = await freshDatabase(server);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'stylist-bench-sync-'));
  // The fake store listens on 127.0.0.1.
  const shared = { DATABASE_URL: database.url, NATS_URL: natsUrl, NATS_PREFIX: `bench${randomBytes(4).toString('hex')}`, STYLIST_SECRET: 'b'.repeat(40), ...LOCAL_STORES_ENV };
  const cleanups: Array<() => Promise<unknown>> = [];
  const store = await startShopifyStore(null, { products, photos: 'none' });
  const started: Child[] = [];
  try {
    const config = loadConfig({ ...shared, DATA_DIR: path.join(dataDir, 'api'), LOG_LEVEL: 'silent' });
    const logger = createLogger({ level: (process.env.LOG_LEVEL as 'error') || 'silent' });
    // Opened first: the read-model migrations are applied before any worker process starts.
    const platform = await openPlatform(config, logger);
    cleanups.unshift(() => platform.close());
    await platform.projections.start();
    const app = await buildServiceApi(platform);
    cleanups.unshift(() => app.close());
    const scheduler = await startWorkers(platform, ['scheduler'], logger);
    cleanups.unshift(() => scheduler.stop());

    // Each process gets a DATA_DIR of its own (its admin channel file); the stores are shared.
    for (let i = 0; i < workerCount; i++) started.push(await startChild(`worker ${i + 1}`, { ...shared, DATA_DIR: path.join(dataDir, `worker-${i + 1}`) }));

    const answer = await executeCommand(platform, ['org', 'create', '--name', 'Bench Boutique', '--plan', 'unlimited', '--json']);
    if (!answer.ok) throw new Error(answer.error);
    const headers = { authorization: `Bearer ${(answer.result as { privateKey: string }).privateKey}` };
    const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
      const response = await app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
      if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body.slice(0, 300)}`);
      return response.json();
    };
    const alive = () => {
      if (interruptedBy) throw new Error(`interrupted by ${interruptedBy}`);
      const dead = started.find((child) => child.died);
      if (dead) throw new Error(`${dead.died}\n${dead.tail.join('\n')}`);
    };
    const until = async <T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number, everyMs = 200): Promise<T> => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        alive();
        const value = await read();
        if (done(value)) return value;
        if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}: ${JSON.stringify(value).slice(0, 400)}`);
        await sleep(everyMs);
      }
    };
    // Generous: a slow machine ingesting at 25 items/s still finishes.
    const timeoutMs = 120_000 + products.length * 40;

    const datasetId = (await call('POST', '/v1/datasets', { name: 'Bench store' })).datasetId as string;
    const base = `/v1/datasets/${datasetId}`;
    const finished = (sourceId: string, jobId: string) =>
      until(`sync job ${jobId}`, () => call('GET', `${base}/sources/${sourceId}/sync/jobs/${jobId}`).then((body) => body.job), (job) => job?.status === 'completed' || job?.status === 'failed', timeoutMs, 100);
    /** Every queued item applied: the projection has caught up with the event store and no queue row is open. */
    const settled = async (active: number) => {
      const head = await platform.eventStore.committedHead();
      if (head) await platform.projections.waitFor(head, ['catalogue_items'], timeoutMs);
      return until(
        `${active} items active`,
        () => call('GET', base).then((body) => body.dataset.items as Record<string, number>),
        (counts) => {
          if (counts.failed) throw new Error(`${counts.failed} items failed to ingest`);
          return counts.active! >= active && !counts.pending && !counts.partial_update && !counts.processing;
        },
        timeoutMs,
        250,
      );
    };
    const runLog = async (sourceId: string, jobId: string) => {
      const { logs } = await call('GET', `${base}/sources/${sourceId}/logs?limit=5`);
      const log = (logs as Product[]).find((entry) => entry.jobId === jobId);
      const messages: string[] = (log?.entries ?? []).map((entry: Product) => String(entry.message));
      const read = messages.map((m) => /^Read (\d+) products in (\d+) pages \(([\d.]+) s\)/.exec(m)).find(Boolean);
      const total = messages.map((m) => /^Sync finished in ([\d.]+) s/.exec(m)).find(Boolean);
      const problems: string[] = (log?.entries ?? []).filter((entry: Product) => entry.level !== 'info').map((entry: Product) => `${entry.level}: ${entry.message}`);
      if (!read) problems.push(`no "Read N products" entry in the log of job ${jobId}`);
      return { fetchS: read ? Number(read[3]) : NaN, pages: read ? Number(read[2]) : NaN, runS: total ? Number(total[1]) : NaN, problems };
    };
    const resync = async (sourceId: string) => {
      const t0 = performance.now();
      const { jobId } = await call('POST', `${base}/sources/${sourceId}/sync/jobs`);
      const job = await finished(sourceId, jobId);
      if (job.status !== 'completed') throw new Error(`re-sync failed: ${job.result.error}`);
      return { job, startedAt: t0, seconds: (performance.now() - t0) / 1000 };
    };

    // (a) First sync: connect (an active source gets its first job at once) to completed.
    const t0 = performance.now();
    const created = await call('POST', `${base}/sources`, { type: 'shopify-api', endpoint: store.url, syncPeriod: 0 });
    const sourceId = created.source.sourceId as string;
    const [job] = (await call('GET', `${base}/sources/${sourceId}/sync/jobs`)).jobs as Product[];
    const first = await finished(sourceId, job!.jobId);
    const firstS = (performance.now() - t0) / 1000;
    if (first.status !== 'completed') throw new Error(`first sync failed: ${first.result.error}`);
    const stats = first.result.stats;
    const firstLog = await runLog(sourceId, first.jobId);
    console.error(`  [${workerCount}w] first sync ${round(firstS)} s (fetch ${firstLog.fetchS} s, ${firstLog.pages} pages; run ${firstLog.runS} s): ${JSON.stringify(stats)}`);
    if (stats.retrieved !== products.length) notes.push(`first sync retrieved ${stats.retrieved} of ${products.length} products`);
    if (stats.failed) notes.push(`${stats.failed} products were not imported`);
    notes.push(...firstLog.problems.slice(0, 5).map((problem) => `first sync log: ${problem}`));

    // (b) Until every imported item is active.
    await settled(stats.added);
    const activeS = (performance.now() - t0) / 1000;
    const total = (await call('GET', `${base}/items?limit=1`)).pagination.total as number;
    if (total !== stats.added) notes.push(`items total ${total} ≠ added ${stats.added}`);
    console.error(`  [${workerCount}w] ${stats.added} items active after ${round(activeS)} s`);

    // (c) Re-sync with nothing changed: must queue nothing.
    const quiet = await resync(sourceId);
    const q = quiet.job.result.stats;
    const queued = q.added + q.updated + q.archived;
    const quietLog = await runLog(sourceId, quiet.job.jobId);
    console.error(`  [${workerCount}w] no-change re-sync ${round(quiet.seconds)} s (fetch ${quietLog.fetchS} s; run ${quietLog.runS} s): ${JSON.stringify(q)}`);
    if (queued) notes.push(`the no-change re-sync queued ${queued}: ${JSON.stringify(q)}`);
    notes.push(...quietLog.problems.slice(0, 5).map((problem) => `no-change re-sync log: ${problem}`));

    const row: Row = {
      workers: workerCount,
      products: products.length,
      'first sync s': round(firstS),
      'fetch s': firstLog.fetchS,
      'to active s': round(activeS),
      'items/s': Math.round(stats.added / activeS),
      'no-change re-sync s': round(quiet.seconds),
      queued,
    };

    // (d) 1% of the products change price: partial updates only.
    if (priceChange) {
      const step = 100;
      const repriced: Product[] = [];
      for (let i = 0; i < store.products.length; i += step) {
        const product = store.products[i] as Product;
        for (const variant of product.variants ?? []) variant.price = (Number(variant.price || 0) + 1).toFixed(2);
        repriced.push(product);
      }
      const changed = repriced.length;
      const priced = await resync(sourceId);
      const p = priced.job.result.stats;
      await settled(stats.added);
      // And the new price reads back on the first and the last repriced item (as the sync test checks it).
      for (const product of new Set([repriced[0]!, repriced.at(-1)!])) {
        const price = `"price":${Number(product.variants?.[0]?.price)}`;
        await until(`the new price of product ${product.id}`, () => call('GET', `${base}/items/${itemIdFor(datasetId, String(product.id))}`).then((body) => JSON.stringify(body)), (body) => body.includes(price), timeoutMs);
      }
      const appliedS = (performance.now() - priced.startedAt) / 1000;
      console.error(`  [${workerCount}w] price re-sync ${round(priced.seconds)} s, applied after ${round(appliedS)} s: ${JSON.stringify(p)}`);
      if (p.updated !== changed || p.added || p.archived) notes.push(`price re-sync: ${changed} products repriced, stats ${JSON.stringify(p)}`);
      row['price re-sync s'] = round(priced.seconds);
      row['prices applied s'] = round(appliedS);
      row['prices updated'] = p.updated;
    }

    for (const child of started) for (const line of child.problems) notes.push(`${child.name}: ${line}`);
    return { row, notes };
  } finally {
    for (const child of started) await stopChild(child);
    for (const cleanup of cleanups) await cleanup().catch((error: Error) => console.error(`bench/sync.ts: cleanup: ${error.message}`));
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
    await deleteStreams(natsUrl, `${shared.NATS_PREFIX}_`).catch((error: Error) => console.error(`bench/sync.ts: streams not deleted: ${error.message}`));
    await database.drop();
  }
}

async function main(): Promise<void> {
  if (!shopifyFixturesAvailable()) {
    console.log(`bench/sync.ts: ${shopifyFixturesDir} is absent; nothing to measure.`);
    return;
  }
  const count = Number(process.env.BENCH_SYNC_PRODUCTS) || 25_000;
  const workerCounts = (process.env.BENCH_SYNC_WORKERS || '1,2').split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0);
  const priceChange = process.env.BENCH_SYNC_PRICE_CHANGE !== '0';
  const server = process.env.DATABASE_URL || DEFAULT_URL;
  const natsUrl = process.env.NATS_URL || 'nats://127.0.0.1:4222';
  killChildrenOnExit();
  const products = replicateProducts(loadShopifyFixtures(), count);
  console.error(`bench/sync.ts: ${count} products, ${workerCounts.join(' and ')} worker process(es); Postgres ${redactUrl(server)}, NATS ${natsUrl}`);

  const rows: Row[] = [];
  const notes: string[] = [];
  for (const workers of workerCounts) {
    if (interruptedBy) throw new Error(`interrupted by ${interruptedBy}`);
    // Each run gets its own copy: the price step changes the store's products.
    const result = await measure(server, natsUrl, workers, replicateProducts(products, products.length), priceChange);
    console.error(JSON.stringify(result.row));
    rows.push(result.row);
    notes.push(...result.notes.map((note) => `[${workers}w] ${note}`));
  }
  console.table(rows);
  for (const note of notes) console.log(`note: ${note}`);
  const verdicts = rows.map((row) => {
    const ok = row['first sync s'] <= GOAL_FIRST_SYNC_S && row['no-change re-sync s'] <= GOAL_QUIET_RESYNC_S && row.queued === 0;
    return `${row.workers} worker process(es): ${ok ? 'meets' : 'MISSES'} the goals (first sync ${row['first sync s']} s ≤ ${GOAL_FIRST_SYNC_S}; no-change re-sync ${row['no-change re-sync s']} s ≤ ${GOAL_QUIET_RESYNC_S}, queued ${row.queued} = 0)`;
  });
  for (const verdict of verdicts) console.log(`verdict: ${verdict}${count < 25_000 ? ` [${count} products, not the 25,000 of the goal]` : ''}`);
  await mkdir(new URL('results/', import.meta.url), { recursive: true });
  await writeFile(new URL('results/sync.json', import.meta.url), JSON.stringify({ at: new Date().toISOString(), products: count, goals: { firstSyncS: GOAL_FIRST_SYNC_S, quietResyncS: GOAL_QUIET_RESYNC_S }, rows, notes }, null, 2));
}

if ((process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) || process.env.BENCH_MAIN) {
  await main().catch((error: unknown) => {
    if (!interruptedBy) throw error;
    process.exit(130);
  });
}
