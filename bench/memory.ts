// Memory of the embedded default at rest, and under one merchant's heaviest legal load.
// (idle) `stylist serve` as `npm start` runs it (PGlite, in-process queue, every role) on a fresh
// data directory: it seeds the demo catalogue, the ingest worker processes it, a shopper searches
// it once; then the process rests 10 s. Its RSS then, and again after a full collection, with
// where it goes: V8's heap (code among it), external memory (Buffers, PGlite's WebAssembly memory),
// and the search memory's own estimate. Goal: RSS ≤ 512 MB (the smallest VPS has 1 GB). The children
// run as `stylist serve` does (bin/stylist.mjs; Linux, Node >= 22.15): with MALLOC_ARENA_MAX=2 unless
// it is set (`MALLOC_ARENA_MAX=0` measures glibc's default) and serve's V8 heap limit unless
// BENCH_MEMORY_NODE_FLAGS or NODE_OPTIONS gives one (`--max-old-space-size=4096` measures V8's own).
// Loads: (a) a sync of a 25,000-product store (the
// Shopify fixtures replicated with new ids, served locally) and (b) 4 concurrent uploads of the
// largest body the upload route accepts (1,000 real products padded to the body limit), with
// `/healthz` timed every 50 ms meanwhile. Each runs in a child process of its own (the service with
// the in-process queue, `sync` or API only, on embedded PGlite, whose WebAssembly Postgres lives
// in the process and weighs about 120 MB at rest, or on a Postgres server), which samples its own RSS every
// 50 ms: the baseline is the idle service just before, the peak the highest sample (and the OS's
// high-water mark, `maxRSS`). The store and the uploading client live in this parent process, so
// their memory is not counted. Goal: peak RSS ≤ 512 MB in both.
//   node --import tsx bench/memory.ts
//   BENCH_MEMORY_PRODUCTS=25000  BENCH_MEMORY_UPLOADS=4  BENCH_MEMORY_UPLOAD_MB=<body size; default the route's limit>
//   BENCH_MEMORY_LOADS=idle,sync,upload (idle: embedded only)  BENCH_MEMORY_BACKENDS=postgres,pglite  DATABASE_URL=postgres://… (server; a fresh database per child, dropped afterwards)
//   BENCH_MEMORY_ALLOCATIONS=/tmp/sync.heapprofile (the load's allocations by function, collected ones included)
//   BENCH_MEMORY_NODE_FLAGS='--max-old-space-size=200' (flags of the service child: a diagnosis, not a setting; a load that
//     still completes under a small heap cap holds that little live memory, the rest of its peak is garbage not yet collected)
// `heap MB` and `external MB` are V8's heapUsed and external (Buffers, WebAssembly memory) in the sample of the peak;
// `heap grew MB` is how much V8's heap (heapTotal) grew from the baseline to that sample.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { getHeapSpaceStatistics } from 'node:v8';
import { createLogger } from '../api/logging.js';
import { buildServiceApi } from '../app/api.js';
import { executeCommand } from '../app/cli/execute.js';
import { openPlatform } from '../app/platform.js';
import { serve } from '../app/serve.js';
import { startWorkers } from '../app/workers.js';
import { DEMO_DATASET_ID } from '../commands/demo-catalogue.js';
import { generateDemoCatalogue } from '../domain/demo-catalogue/generate.js';
import { UPLOAD_BODY_LIMIT } from '../api/routes/item-upload.js';
import { loadConfig } from '../infra/config/config.js';
import { redactUrl } from '../infra/db/database.js';
import { canRestart, serveRestart } from '../bin/serve-restart.mjs';
import { adminStatement, DEFAULT_URL } from './eventstore.js';
import { loadShopifyFixtures, replicateProducts, shopifyFixturesAvailable, shopifyFixturesDir, startShopifyStore } from '../test/support/shopify-store.js';
import { LOCAL_STORES_ENV } from '../test/support/outbound.js';

type Product = Record<string, any>;

const GOAL_PEAK_MB = 512;
const MB = 1024 * 1024;
/** The environment of the service child: the permission to read the local fake store goes here, nowhere else. */
const SERVICE_ENV: Record<string, string> = { ...LOCAL_STORES_ENV };
// The children start as `stylist serve` would start itself again, so they weigh what it would.
const NODE_FLAGS = (process.env.BENCH_MEMORY_NODE_FLAGS ?? '').split(' ').filter(Boolean);
const SERVE_START = canRestart() ? serveRestart(NODE_FLAGS, process.env) : null;
const CHILD_FLAGS = SERVE_START?.flags ?? NODE_FLAGS;
if (SERVE_START?.env.MALLOC_ARENA_MAX !== undefined) SERVICE_ENV.MALLOC_ARENA_MAX = SERVE_START.env.MALLOC_ARENA_MAX;

interface Row {
  backend: Backend;
  load: string;
  'baseline MB': number;
  'peak MB': number;
  'added MB': number;
  'maxRSS MB': number;
  'heap MB': number;
  'external MB': number;
  'heap grew MB': number;
  seconds: number;
  /** Slowest `/healthz` answer while the load ran (uploads only). */
  'healthz max ms'?: number;
  result: string;
}

const mb = (bytes: number) => Math.round(bytes / MB);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// The child: the service, measuring itself. It talks to the parent in lines on stdout and stdin.

async function child(task: 'sync' | 'upload'): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'stylist-bench-memory-'));
  const say = (message: object) => process.stdout.write(`${JSON.stringify(message)}\n`);
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, STYLIST_SECRET: 'm'.repeat(40), LOG_LEVEL: 'silent', DATABASE_URL: process.env.BENCH_MEMORY_DATABASE ?? '', NATS_URL: '' });
  const logger = createLogger({ level: 'silent' });
  const platform = await openPlatform(config, logger);
  await platform.projections.start();
  const app = await buildServiceApi(platform);
  const workers = task === 'sync' ? await startWorkers(platform, ['sync'], logger) : null;
  const answer = await executeCommand(platform, ['org', 'create', '--name', 'Memory Boutique', '--plan', 'unlimited', '--json']);
  if (!answer.ok) throw new Error(answer.error);
  const key = (answer.result as { privateKey: string }).privateKey;
  const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) => {
    const response = await app.inject({ method, url, headers: { authorization: `Bearer ${key}` }, ...(payload ? { payload } : {}) });
    if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body.slice(0, 300)}`);
    return response.json();
  };
  const datasetId = (await call('POST', '/v1/datasets', { name: 'Memory store', config: { storeUrl: 'https://memory.example.com' } })).datasetId as string;
  await call('PATCH', `/v1/datasets/${datasetId}/activate`);

  // The idle reading once the RSS settles. Two PGlite children of one evening read 867 and 885 MB
  // idle, twice the usual, and their loads then looked free; the cause is not known (an initdb done
  // in this process, if its own process failed, keeps ~470 MB for good: infra/db/database.ts).
  if (!(await settled())) console.error(`bench/memory.ts: the ${task} child's RSS did not settle in 10 s; its idle reading may be off`);
  const { rss: baseline, heapTotal: baselineHeap } = process.memoryUsage();
  let peak = process.memoryUsage();
  const sample = () => {
    const now = process.memoryUsage();
    if (now.rss > peak.rss) peak = now;
  };
  const sampler = setInterval(sample, 50);
  const allocations = process.env.BENCH_MEMORY_ALLOCATIONS ? await sampleAllocations(process.env.BENCH_MEMORY_ALLOCATIONS) : undefined;
  const report = async (result: string, seconds: number) => {
    clearInterval(sampler);
    await allocations?.();
    sample();
    say({ baseline, peak: peak.rss, heap: peak.heapUsed, heapGrew: peak.heapTotal - baselineHeap, external: peak.external, maxRss: process.resourceUsage().maxRSS * 1024, seconds, result });
  };

  if (task === 'sync') {
    const t0 = performance.now();
    const base = `/v1/datasets/${datasetId}`;
    const { source } = await call('POST', `${base}/sources`, { type: 'shopify-api', endpoint: process.env.BENCH_MEMORY_FEED, syncPeriod: 0 });
    const [job] = (await call('GET', `${base}/sources/${source.sourceId}/sync/jobs`)).jobs as Product[];
    for (;;) {
      const current = (await call('GET', `${base}/sources/${source.sourceId}/sync/jobs/${job!.jobId}`)).job;
      if (current.status === 'completed' || current.status === 'failed') {
        await report(current.status === 'completed' ? JSON.stringify(current.result.stats) : `failed: ${current.result.error}`, (performance.now() - t0) / 1000);
        break;
      }
      await sleep(100);
    }
  } else {
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    say({ url, datasetId, key });
    // The parent sends its uploads, then one line: report.
    for await (const _line of createInterface({ input: process.stdin })) break;
    await report('', 0);
  }
  await workers?.stop();
  await app.close();
  await platform.close();
  await rm(dataDir, { recursive: true, force: true });
}

/**
 * BENCH_MEMORY_ALLOCATIONS=FILE: every allocation of the load sampled (collected ones included,
 * which V8's sampling heap profiler leaves out by default), written as a .heapprofile DevTools
 * opens, and its top allocating functions printed: where the garbage behind a peak comes from.
 */
async function sampleAllocations(file: string): Promise<() => Promise<void>> {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', { samplingInterval: 64 * 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  return async () => {
    const { profile } = await session.post('HeapProfiler.stopSampling');
    session.disconnect();
    await writeFile(file, JSON.stringify(profile));
    type Node = { callFrame: { functionName: string; url: string; lineNumber: number }; selfSize: number; children: Node[] };
    const bySite = new Map<string, number>();
    let total = 0;
    const walk = (node: Node): void => {
      const { functionName, url, lineNumber } = node.callFrame;
      const site = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules\/)?/, '')}:${lineNumber + 1}`;
      bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
      total += node.selfSize;
      node.children.forEach(walk);
    };
    walk(profile.head as Node);
    const top = [...bySite].sort((a, b) => b[1] - a[1]).slice(0, 25);
    console.error(`allocated about ${mb(total)} MB; the top sites:`);
    for (const [site, bytes] of top) console.error(`  ${String(mb(bytes)).padStart(6)} MB  ${site}`);
  };
}

// ---------------------------------------------------------------------------------------------
// The idle child: `stylist serve` with the demo seed, measuring itself once the catalogue is in.

interface IdleMeasured {
  /** Resting 10 s after the demo catalogue was ingested and searched once. */
  rested: NodeJS.MemoryUsage;
  /** Then after a full collection: what is alive. */
  collected: NodeJS.MemoryUsage;
  wasm: number;
  search: number;
  code: number;
  peak: number;
  seconds: number;
}

async function idleChild(): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'stylist-bench-idle-'));
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, STYLIST_SECRET: 'm'.repeat(40), LOG_LEVEL: 'silent', DATABASE_URL: '', NATS_URL: '', PORT: '0' });
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 50);
  const t0 = performance.now();
  const service = await serve(config);
  const { platform } = service;
  const products = generateDemoCatalogue().length;
  for (;;) {
    const rows = await platform.database.db.selectFrom('catalogue_items').select(['queue_status']).where('dataset_id', '=', DEMO_DATASET_ID).execute();
    if (rows.length >= products && rows.every((row) => !['pending', 'partial_update', 'processing'].includes(row.queue_status as string))) break;
    await sleep(500);
  }
  const search = await service.app!.inject({ method: 'POST', url: '/v1/search', headers: { authorization: `Bearer ${config.demo.key}` }, payload: { query: 'linen shirt' } });
  if (search.statusCode !== 200) throw new Error(`the first search answered ${search.statusCode}: ${search.body.slice(0, 200)}`);
  const seconds = (performance.now() - t0) / 1000;
  await sleep(10_000);
  clearInterval(sampler);
  const rested = process.memoryUsage();
  global.gc?.();
  await sleep(1000);
  const collected = process.memoryUsage();
  const code = getHeapSpaceStatistics().find((space) => space.space_name === 'code_space')?.space_used_size ?? 0;
  const measured: IdleMeasured = { rested, collected, wasm: platform.database.wasmMemoryBytes?.() ?? 0, search: platform.search().memory.heldBytes(), code, peak, seconds };
  process.stdout.write(`${JSON.stringify(measured)}\n`);
  await service.shutdown();
  await rm(dataDir, { recursive: true, force: true });
}

interface IdleRow {
  load: string;
  'RSS MB': number;
  'RSS after GC MB': number;
  'heap MB': number;
  'code MB': number;
  'external MB': number;
  'PGlite WASM MB': number;
  'search memory MB': number;
  'peak while seeding MB': number;
  'seconds to idle': number;
}

async function measureIdle(): Promise<IdleRow> {
  const child = await spawnChild('idle', 'pglite', {});
  const m: IdleMeasured = await child.next();
  await child.exited;
  return {
    load: 'embedded default, idle after demo seed',
    'RSS MB': mb(m.rested.rss),
    'RSS after GC MB': mb(m.collected.rss),
    'heap MB': mb(m.collected.heapUsed),
    'code MB': mb(m.code),
    'external MB': mb(m.collected.external),
    'PGlite WASM MB': mb(m.wasm),
    'search memory MB': Math.round((m.search / MB) * 10) / 10,
    'peak while seeding MB': mb(m.peak),
    'seconds to idle': Math.round(m.seconds),
  };
}

// ---------------------------------------------------------------------------------------------
// The parent: the store, the uploads, the table.

interface Measured {
  baseline: number;
  peak: number;
  heap: number;
  heapGrew: number;
  external: number;
  maxRss: number;
  seconds: number;
  result: string;
}

type Backend = 'pglite' | 'postgres';

/** A fresh database for one child on Postgres, dropped once it exited. */
async function databaseFor(backend: Backend): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (backend === 'pglite') return { env: {}, drop: async () => {} };
  const server = process.env.DATABASE_URL || DEFAULT_URL;
  const name = `stylist_bench_memory_${Math.random().toString(16).slice(2, 10)}`;
  await adminStatement(server, `create database ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return { env: { BENCH_MEMORY_DATABASE: url.toString() }, drop: () => adminStatement(server, `drop database if exists ${name} with (force)`) };
}

async function spawnChild(task: 'sync' | 'upload' | 'idle', backend: Backend, env: Record<string, string>) {
  const database = await databaseFor(backend);
  const proc = spawn(process.execPath, [...CHILD_FLAGS, '--expose-gc', '--import', fileURLToPath(new URL('../bin/typescript.mjs', import.meta.url)), fileURLToPath(import.meta.url)], {
    env: { ...process.env, ...SERVICE_ENV, ...env, ...database.env, BENCH_MEMORY_CHILD: task },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: proc.stdout! })[Symbol.asyncIterator]();
  const next = async (): Promise<any> => {
    const { value, done } = await lines.next();
    if (done) throw new Error(`the ${task} child ended without an answer (exit ${proc.exitCode})`);
    return JSON.parse(value as string);
  };
  const exited = new Promise<void>((resolve) => proc.on('exit', () => resolve())).then(() => database.drop());
  return { proc, next, exited };
}

async function measureSync(backend: Backend, count: number): Promise<Row> {
  const products = replicateProducts(loadShopifyFixtures(), count);
  const store = await startShopifyStore(null, { products, photos: 'none' });
  try {
    const child = await spawnChild('sync', backend, { BENCH_MEMORY_FEED: store.url });
    const measured: Measured = await child.next();
    await child.exited;
    return row(backend, `sync of ${count.toLocaleString('en-US')} products`, measured);
  } finally {
    await store.close();
  }
}

/** 1,000 real products, the body padded with description text to `bytes` exactly (when the bounds allow it). */
function uploadBody(bytes: number, run: number): Buffer {
  const products: Product[] = replicateProducts(loadShopifyFixtures(), 1000).map((product: Product, i) => ({ ...product, id: `${run}-${i}`, images: (product.images ?? []).slice(0, 10) }));
  const bare = Buffer.byteLength(JSON.stringify({ products }));
  const spare = Math.max(0, bytes - bare);
  const each = Math.floor(spare / products.length);
  for (const [i, product] of products.entries()) product.body_html = `${product.body_html ?? ''}${'x'.repeat(each + (i < spare - each * products.length ? 1 : 0))}`;
  return Buffer.from(JSON.stringify({ products }));
}

async function measureUploads(backend: Backend, uploads: number, bytes: number): Promise<Row> {
  const bodies = Array.from({ length: uploads }, (_, i) => uploadBody(bytes, i));
  const child = await spawnChild('upload', backend, {});
  const { url, datasetId, key } = await child.next();
  let healthzMax = 0;
  let uploading = true;
  const probe = (async () => {
    while (uploading) {
      const t0 = performance.now();
      await fetch(`${url}/healthz`).then((response) => response.arrayBuffer());
      healthzMax = Math.max(healthzMax, performance.now() - t0);
      await sleep(50);
    }
  })();
  const t0 = performance.now();
  const statuses = await Promise.all(
    bodies.map(async (body) => {
      const response = await fetch(`${url}/v1/datasets/${datasetId}/items/upload`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body });
      const answer = (await response.json()) as { summary?: { queued: number; failed: number }; error?: string };
      return `${response.status}${answer.summary ? ` ${answer.summary.queued} queued, ${answer.summary.failed} failed` : ` ${answer.error}`}`;
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  uploading = false;
  await probe;
  child.proc.stdin!.write('report\n');
  const measured: Measured = await child.next();
  child.proc.stdin!.end();
  await child.exited;
  return { ...row(backend, `${uploads} uploads of ${(bytes / MB).toFixed(1)} MB at once`, { ...measured, seconds, result: [...new Set(statuses)].join('; ') }), 'healthz max ms': Math.round(healthzMax) };
}

const row = (backend: Backend, load: string, m: Measured): Row => ({
  backend,
  load,
  'baseline MB': mb(m.baseline),
  'peak MB': mb(m.peak),
  'added MB': mb(m.peak - m.baseline),
  'maxRSS MB': mb(m.maxRss),
  'heap MB': mb(m.heap),
  'external MB': mb(m.external),
  'heap grew MB': mb(m.heapGrew),
  seconds: Math.round(m.seconds * 10) / 10,
  result: m.result,
});

async function main(): Promise<void> {
  const loads = (process.env.BENCH_MEMORY_LOADS || 'idle,sync,upload').split(',');
  if (!shopifyFixturesAvailable() && !loads.includes('idle')) {
    console.log(`bench/memory.ts: ${shopifyFixturesDir} is absent; nothing to measure.`);
    return;
  }
  const count = Number(process.env.BENCH_MEMORY_PRODUCTS) || 25_000;
  const uploads = Number(process.env.BENCH_MEMORY_UPLOADS) || 4;
  const bytes = Math.floor((Number(process.env.BENCH_MEMORY_UPLOAD_MB) || UPLOAD_BODY_LIMIT / MB) * MB) - 1024;
  const backends = (process.env.BENCH_MEMORY_BACKENDS || 'postgres,pglite').split(',').filter((name): name is Backend => name === 'pglite' || name === 'postgres');
  console.error(`bench/memory.ts: ${backends.join(' and ')} (Postgres ${redactUrl(process.env.DATABASE_URL || DEFAULT_URL)}), in-process queue; node ${process.version}; MALLOC_ARENA_MAX=${SERVICE_ENV.MALLOC_ARENA_MAX ?? process.env.MALLOC_ARENA_MAX ?? '(glibc default)'}; service flags: ${CHILD_FLAGS.join(' ') || '(none)'}`);
  const rows: Row[] = [];
  const idle = loads.includes('idle') ? await measureIdle() : null;
  if (idle) {
    console.table([idle]);
    console.log(`verdict: pglite, ${idle.load}: ${idle['RSS MB'] <= GOAL_PEAK_MB ? 'meets' : 'MISSES'} the goal (${idle['RSS MB']} MB RSS ≤ ${GOAL_PEAK_MB})`);
  }
  for (const backend of shopifyFixturesAvailable() ? backends : []) {
    if (loads.includes('sync')) rows.push(await measureSync(backend, count));
    if (loads.includes('upload')) rows.push(await measureUploads(backend, uploads, bytes));
  }
  if (rows.length) console.table(rows);
  for (const r of rows) console.log(`verdict: ${r.backend}, ${r.load}: ${r['peak MB'] <= GOAL_PEAK_MB ? 'meets' : 'MISSES'} the goal (peak ${r['peak MB']} MB RSS ≤ ${GOAL_PEAK_MB})`);
  await mkdir(new URL('results/', import.meta.url), { recursive: true });
  await writeFile(new URL('results/memory.json', import.meta.url), JSON.stringify({ at: new Date().toISOString(), backends, goalPeakMb: GOAL_PEAK_MB, idle, rows }, null, 2));
}

const role = process.env.BENCH_MEMORY_CHILD;
if (role === 'idle') await idleChild();
else if (role === 'sync' || role === 'upload') await child(role);
else if ((process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) || process.env.BENCH_MAIN) await main();

/** After a full collection, until two readings 250 ms apart are within 2% of each other; false after 10 s without. */
async function settled(): Promise<boolean> {
  global.gc?.();
  let last = process.memoryUsage().rss;
  for (const until = Date.now() + 10_000; Date.now() < until; ) {
    await sleep(250);
    const now = process.memoryUsage().rss;
    if (Math.abs(now - last) <= last * 0.02) return true;
    last = now;
  }
  return false;
}
