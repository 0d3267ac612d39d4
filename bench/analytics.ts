// Widget sessions and shopper events under load, on the real service API over HTTP (issue 15):
//   preflight  GET /v1/widget/preflight, 32 connections, an unlimited plan (and a metered one, and
//              one without the preflight cache), beside GET /healthz in the same run;
//   ingest     POST /v1/events, batches of 20 shopper events, 32 connections, each request on the
//              next of many sessions (every event a new client id), counted back from the store.
// Each figure is one exported function taking a running bench service, so another figure (the
// analytics replay) is one more function and one more row of the same table.
//   replay     1,000,000 shopper events counted into the analytics read model three ways
//              (bench/analytics/replay.ts; its own database, Postgres only).
//   BENCH_SECONDS=10 (per run)  BENCH_BACKENDS=postgres,pglite  DATABASE_URL=postgres://…
//   BENCH_ONLY=preflight|ingest|replay  BENCH_SHOPPER_EVENTS=1000000
//   BENCH_EVENT_RATES=5000,max  shopper events/s of each ingest run (max: as fast as answered)
//   BENCH_SHOPPER_LANE=inline|process  process: the shopper projection lane in a `stylist serve
//     --role projections-shopper` process of its own (Postgres only), the catalogue lane here
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { createLogger } from '../api/logging.js';
import { buildServiceApi } from '../app/api.js';
import { executeCommand } from '../app/cli/execute.js';
import { openPlatform, type Platform } from '../app/platform.js';
import { loadConfig } from '../infra/config/config.js';
import { EVENTS_TABLE } from '../infra/eventstore/postgres-schema.js';
import { allProjectors } from '../projections/index.js';
import { randomUUID } from 'node:crypto';
import { CATALOGUE_PROJECTIONS } from '../api/routes/dataset-shared.js';
import { createDataset } from '../commands/datasets.js';
import { newDatasetContent } from '../domain/dataset/index.js';
import { openPgliteBackend, openPostgresBackend, type BenchBackend } from './eventstore.js';
import { measureReplay, printReplay, type ReplayResult } from './analytics/replay.js';
import { startWorkerProcess, stopWorkerProcess, type WorkerProcess } from '../test/support/worker-processes.js';

export interface Figure {
  backend: string;
  figure: string;
  /** Requests per second (for ingest: requests of `batch` events). */
  requestsPerSecond: number;
  eventsPerSecond?: number;
  p50Ms: number;
  p95Ms?: number;
  p99Ms: number;
  non2xx: number;
  note?: string;
}

/** A service on a fresh database with one organization: presets, stores, an unlimited and a metered key. */
export interface BenchService {
  backend: BenchBackend;
  platform: Platform;
  /** The service API listening on 127.0.0.1 (address in `url`). */
  url: string;
  app: FastifyInstance;
  unlimitedKey: string;
  meteredKey: string;
  /** The private key of the unlimited organization (catalogue writes). */
  privateKey: string;
  organizationId: string;
  /** Where the shopper projection lane runs: in this process, or a process of its own. */
  shopperLane: 'inline' | 'process';
  close(): Promise<void>;
}

const CONNECTIONS = 32;
const autocannonBin = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

/** autocannon in its own process, so the load generator does not share the server's event loop. */
function autocannon(url: string, headers: Record<string, string>, seconds: number): Promise<{ requests: { average: number }; latency: { p50: number; p99: number }; non2xx: number }> {
  const args = [autocannonBin, '-c', String(CONNECTIONS), '-d', String(seconds), '-j', ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]), url];
  return runJson(process.execPath, args);
}

function runJson<T>(command: string, args: string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as T) : reject(new Error(`${path.basename(args[args.length - 2] ?? command)} exited with ${code}`))));
  });
}

const colours = Object.fromEntries(
  ['buttonColor', 'buttonHoverColor', 'buttonTextColor', 'typingDotColor', 'accentColor', 'accentHoverColor', 'mutedTextColor', 'primaryTextColor', 'pageColor', 'surfaceColor', 'borderColor', 'inputColor', 'footerColor'].map((k) => [k, '#336699']),
);

export async function startBenchService(backend: BenchBackend, shopperLane: 'inline' | 'process' = 'inline'): Promise<BenchService> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'stylist-bench-analytics-'));
  const config = loadConfig({ DATA_DIR: dataDir, STYLIST_SECRET: 'b'.repeat(40), LOG_LEVEL: 'silent' });
  const platform = await openPlatform(config, createLogger({ level: 'silent' }), { database: backend.database });
  let shopperProcess: WorkerProcess | undefined;
  if (shopperLane === 'process') {
    if (!backend.url) throw new Error('BENCH_SHOPPER_LANE=process needs a Postgres database of its own (not PGlite, not a schema)');
    await platform.projections.start(['catalogue']);
    shopperProcess = await startWorkerProcess('shopper lane', 'projections-shopper', { DATABASE_URL: backend.url, DATA_DIR: path.join(dataDir, 'shopper'), STYLIST_SECRET: 'b'.repeat(40) });
  } else {
    await platform.projections.start();
  }
  // Every load comes from 127.0.0.1: the per-address bound of /v1/events is raised, the per-session one kept.
  const app = await buildServiceApi(platform, { eventLimits: { addressRpm: 1e9 } });
  const cli = async (argv: string[]) => {
    const answer = await executeCommand(platform, argv);
    if (!answer.ok) throw new Error(answer.error);
    return answer.result as Record<string, string>;
  };
  const org = await cli(['org', 'create', '--name', 'Bench Boutique', '--plan', 'unlimited', '--json']);
  const organizationId = org.organizationId!;
  // A second organization whose plan meters preflight with limits the run cannot reach: every request counts quota and RPM.
  const meteredOrg = await cli(['org', 'create', '--name', 'Bench Metered', '--json']);
  await cli(['plan', 'set', '--org', meteredOrg.organizationId!, '--resource', 'api.v1.widget.preflight', '--quota', '1000000000', '--rpm', '1000000000']);
  for (const key of [org.privateKey!, meteredOrg.privateKey!]) {
    for (const name of ['Light', 'Dark', 'Holiday']) {
      const created = await app.inject({ method: 'POST', url: '/v1/widget/presets', headers: { authorization: `Bearer ${key}` }, payload: { name, buttonLabel: 'Ask a stylist', ...colours } });
      if (created.statusCode !== 201) throw new Error(`creating a preset: ${created.statusCode} ${created.body}`);
    }
    for (const [name, domain] of [['Main', 'main.example.com'], ['Outlet', 'outlet.example.com']]) {
      const created = await app.inject({ method: 'POST', url: '/v1/datasets', headers: { authorization: `Bearer ${key}` }, payload: { name, config: { storeName: name, storeDomain: domain } } });
      if (created.statusCode !== 201) throw new Error(`creating a dataset: ${created.statusCode} ${created.body}`);
      await app.inject({ method: 'PATCH', url: `/v1/datasets/${created.json().datasetId}/activate`, headers: { authorization: `Bearer ${key}` } });
    }
  }
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    backend,
    privateKey: org.privateKey!,
    platform,
    app,
    url,
    unlimitedKey: org.publicKey!,
    meteredKey: meteredOrg.publicKey!,
    organizationId,
    shopperLane,
    close: async () => {
      await app.close();
      if (shopperProcess) await stopWorkerProcess(shopperProcess);
      await platform.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Preflight against /healthz in the same run: unlimited plan (the issue's figure), without the cache, and metered. */
export async function measurePreflight(service: BenchService, seconds: number): Promise<Figure[]> {
  const figures: Figure[] = [];
  const measure = async (figure: string, url: string, headers: Record<string, string>, note?: string) => {
    await autocannon(url, headers, 2); // warm-up: JIT, pools, caches
    const result = await autocannon(url, headers, seconds);
    figures.push({ backend: service.backend.kind, figure, requestsPerSecond: Math.round(result.requests.average), p50Ms: result.latency.p50, p99Ms: result.latency.p99, non2xx: result.non2xx, ...(note ? { note } : {}) });
  };
  await measure('GET /healthz', `${service.url}/healthz`, {});
  await measure('preflight, unlimited plan', `${service.url}/v1/widget/preflight`, { authorization: `Bearer ${service.unlimitedKey}` }, 'goal ≥ 5,000 req/s');
  // The same service without the cache, as a second API on the same database, only for its run.
  const uncached = await buildServiceApi(service.platform, { cachePreflight: false });
  try {
    const uncachedUrl = await uncached.listen({ port: 0, host: '127.0.0.1' });
    await measure('preflight, unlimited plan, no cache', `${uncachedUrl}/v1/widget/preflight`, { authorization: `Bearer ${service.unlimitedKey}` }, 'before: preset + stores queries per request');
  } finally {
    await uncached.close();
  }
  await measure('preflight, metered (quota + RPM)', `${service.url}/v1/widget/preflight`, { authorization: `Bearer ${service.meteredKey}` }, 'two counter statements per batch of requests');
  return figures;
}

/** Events per second of an ingest run; undefined: as fast as the service answers. */
export type EventRate = number | undefined;

/**
 * Shopper events over HTTP, batches of `batch`, on `sessions` widget sessions taken in turn: one
 * run per rate, each with the catalogue probe beside it, after one idle probe.
 */
export async function measureIngest(service: BenchService, seconds: number, rates: readonly EventRate[] = [undefined], batch = 20, sessions = 2000): Promise<Figure[]> {
  const tokens: string[] = [];
  for (let i = 0; i < sessions; i++) {
    const response = await service.app.inject({ url: '/v1/widget/preflight', headers: { authorization: `Bearer ${service.unlimitedKey}` } });
    tokens.push(response.json().session.token);
  }
  const settingsFile = path.join(os.tmpdir(), `stylist-bench-ingest-${process.pid}.json`);
  const client = fileURLToPath(new URL('analytics/ingest-client.ts', import.meta.url));
  const run = async (runSeconds: number, offset: number, eventsPerSecond: EventRate) => {
    // Each run on sessions of its own, so the warm-up's events do not count against the measured run's sessions.
    const own = [...tokens.slice(offset), ...tokens.slice(0, offset)];
    const rate = eventsPerSecond ? Math.max(1, Math.round(eventsPerSecond / batch)) : undefined;
    await writeFile(settingsFile, JSON.stringify({ url: `${service.url}/v1/events`, tokens: own, batch, connections: CONNECTIONS, seconds: runSeconds, ...(rate ? { rate } : {}) }));
    return runJson<{ requests: { average: number; total: number }; latency: { p50: number; p99: number }; non2xx: number }>(process.execPath, ['--import', 'tsx', client, settingsFile]);
  };
  const where = service.shopperLane === 'process' ? 'shopper lane in its own process' : 'both lanes in this process';
  const probeRow = (what: string, when: string, latencies: number[]): Figure => ({
    backend: service.backend.kind,
    figure: `${what}, ${when}`,
    requestsPerSecond: 0,
    p50Ms: percentile(latencies, 0.5),
    p95Ms: percentile(latencies, 0.95),
    p99Ms: percentile(latencies, 0.99),
    non2xx: 0,
    note: `${latencies.length} requests, one every ${PROBE_EVERY_MS} ms; ${where}`,
  });
  const WRITE = 'a catalogue write answered once projected (POST /v1/datasets)';
  const READ = 'the same dataset read back (GET /v1/datasets/{id})';
  const HEALTH = 'GET /healthz in the same process';
  const probeRows = (when: string, probed: Probed): Figure[] => [
    probeRow(WRITE, when, probed.writes),
    probeRow('  its append alone (createDataset)', when, probed.appends),
    probeRow('  its wait for the read models alone (waitFor datasets, catalogue_items)', when, probed.projected),
    probeRow(READ, when, probed.reads),
    probeRow(HEALTH, when, probed.health),
  ];
  try {
    await run(2, sessions / 2, undefined);
    await drained(service);
    const idle = await probeCatalogueWrites(service, 5_000);
    const figures: Figure[] = [...probeRows('idle', idle)];
    let offset = 0;
    for (const rate of rates) {
      offset = (offset + sessions / 4) % sessions;
      const when = `during ${rate ? `${rate.toLocaleString('en')} events/s` : 'the most events/s the service takes'}`;
      const before = await recordedShopperEvents(service);
      const probing = new AbortController();
      const [result, loaded] = await Promise.all([run(seconds, offset, rate).finally(() => probing.abort()), probeCatalogueWrites(service, seconds * 1000, probing.signal)]);
      const recorded = (await recordedShopperEvents(service)) - before;
      const drainMs = await drained(service);
      figures.push(...probeRows(when, loaded), {
        backend: service.backend.kind,
        figure: `POST /v1/events, ${batch} a request, ${sessions} sessions, ${rate ? `paced at ${rate.toLocaleString('en')} events/s` : 'unpaced'}`,
        requestsPerSecond: Math.round(result.requests.average),
        eventsPerSecond: Math.round(recorded / seconds),
        p50Ms: result.latency.p50,
        p99Ms: result.latency.p99,
        non2xx: result.non2xx,
        note: `goal ≥ 5,000 events/s; ${recorded} events in the store; every read model caught up ${(drainMs / 1000).toFixed(1)} s after; load ${os.loadavg()[0]!.toFixed(1)}`,
      });
    }
    return figures;
  } finally {
    await rm(settingsFile, { force: true });
  }
}

const PROBE_EVERY_MS = Number(process.env.BENCH_PROBE_MS) || 100;

interface Probed {
  writes: number[];
  reads: number[];
  health: number[];
  /** The append of a dataset create alone, and the wait for its read models alone. */
  appends: number[];
  projected: number[];
}

/** Waits until every read model has applied everything appended so far (a run's backlog); returns how long that took. */
async function drained(service: BenchService): Promise<number> {
  const started = Date.now();
  const head = await service.platform.eventStore.committedHead();
  if (head) await service.platform.projections.waitFor(head, allProjectors.map((p) => p.name), 600_000);
  return Date.now() - started;
}

/**
 * A dataset created every PROBE_EVERY_MS through the API, which answers once the catalogue's read
 * models have it (read-your-writes): how long a catalogue change takes to be projected, idle or
 * while shopper events stream in (they go through the same event store; the projections, since
 * issue 28, in a lane of their own). Beside it, /healthz: what any request pays in this process.
 */
async function probeCatalogueWrites(service: BenchService, durationMs: number, signal?: AbortSignal): Promise<Probed> {
  const writes: number[] = [];
  const reads: number[] = [];
  const health: number[] = [];
  const appends: number[] = [];
  const projected: number[] = [];
  const headers = { authorization: `Bearer ${service.privateKey}` };
  const until = Date.now() + durationMs;
  for (let n = 0; Date.now() < until && !signal?.aborted; n++) {
    let started = performance.now();
    const created = await service.app.inject({ method: 'POST', url: '/v1/datasets', headers, payload: { name: `Probe ${Date.now()}-${n}` } });
    if (created.statusCode !== 201) throw new Error(`probe: ${created.statusCode} ${created.body}`);
    writes.push(performance.now() - started);
    // The same dataset read back: what the busy process costs any request, projection or not.
    started = performance.now();
    await service.app.inject({ url: `/v1/datasets/${created.json().datasetId}`, headers });
    reads.push(performance.now() - started);
    started = performance.now();
    await service.app.inject({ url: '/healthz' });
    health.push(performance.now() - started);
    // The same write's two halves, through the command in this process: its append, then the wait
    // for the catalogue's read models (what the projection lanes change). Not at once: right after
    // the write above was waited for, the lane has just caught up, and the wait timed then was a
    // third of the write's own (2026-11-27, Postgres, 5,000 events/s).
    await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS / 2));
    started = performance.now();
    const meta = { now: new Date().toISOString(), actor: { kind: 'system' as const, id: 'bench' }, correlationId: randomUUID() };
    const { position } = await createDataset(service.platform.eventStore, { organizationId: service.organizationId, content: newDatasetContent({ name: `Probe ${n}` }) }, meta);
    appends.push(performance.now() - started);
    started = performance.now();
    if (position) await service.platform.projections.waitFor(position, CATALOGUE_PROJECTIONS);
    projected.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
  }
  return { writes, reads, health, appends, projected };
}

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! * 10) / 10 : NaN;
};

/** Shopper events on the store, counted from the events themselves. */
async function recordedShopperEvents(service: BenchService): Promise<number> {
  const { rows } = await sql<{ n: string | number | null }>`
    select sum(jsonb_array_length(data->'events')) as n from ${sql.table(EVENTS_TABLE)} where type = 'ShopperEventsRecorded'`.execute(service.platform.database.db);
  return Number(rows[0]?.n ?? 0);
}

export const machine = (): string => {
  const cpus = os.cpus();
  return `${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, load ${os.loadavg().map((l) => l.toFixed(1)).join('/')}, Node ${process.version}`;
};

async function main(): Promise<void> {
  const seconds = Number(process.env.BENCH_SECONDS) || 10;
  const backends = (process.env.BENCH_BACKENDS || 'postgres').split(',');
  const only = process.env.BENCH_ONLY;
  const rates: EventRate[] = (process.env.BENCH_EVENT_RATES || '5000,max').split(',').map((r) => (r.trim() === 'max' ? undefined : Number(r)));
  const shopperLane = process.env.BENCH_SHOPPER_LANE === 'process' ? 'process' : 'inline';
  const figures: Figure[] = [];
  const startedOn = machine();
  for (const kind of only === 'replay' ? [] : backends) {
    const backend = kind === 'postgres' ? await openPostgresBackend() : await openPgliteBackend();
    const service = await startBenchService(backend, shopperLane).catch(async (error: unknown) => {
      await backend.dispose();
      throw error;
    });
    try {
      if (!only || only === 'preflight') figures.push(...(await measurePreflight(service, seconds)));
      if (!only || only === 'ingest') figures.push(...(await measureIngest(service, seconds, rates)));
    } finally {
      await service.close();
      await backend.dispose();
    }
  }
  const replay: ReplayResult | null = !only || only === 'replay' ? await measureReplay(Number(process.env.BENCH_SHOPPER_EVENTS) || 1_000_000) : null;
  console.log(`machine: ${startedOn}`);
  if (figures.length) console.table(figures);
  if (replay) printReplay(replay);
  await mkdir(new URL('results/', import.meta.url), { recursive: true });
  await writeFile(new URL('results/analytics.json', import.meta.url), JSON.stringify({ at: new Date().toISOString(), machine: startedOn, seconds, figures, replay }, null, 2));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
