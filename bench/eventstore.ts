// Append throughput of the Postgres event store on PGlite (a temp directory) and on a Postgres
// server (a fresh database, dropped afterwards): 1, 16 and 64 writers appending single events to
// their own streams, and 16 writers fighting over one hot stream (a conflict re-reads the
// stream's new events and retries). Target: ≥ 5,000 events/s and p99 ≤ 20 ms with 16 writers
// on the server.
//   node --import tsx bench/eventstore.ts
//   BENCH_SECONDS=5 (per case)  BENCH_BACKENDS=pglite,postgres  BENCH_APPEND_CONCURRENCY=2
//   DATABASE_URL=postgres://… (server to use; default postgres://postgres@127.0.0.1:5432/postgres)
import { randomBytes } from 'node:crypto';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { openDatabase, redactUrl, type Database } from '../infra/db/database.js';
import { WrongExpectedRevision, type EventStore, type NewEvent } from '../infra/eventstore/port.js';
import { openPostgresEventStore, type PostgresEventStoreOptions } from '../infra/eventstore/postgres.js';

export type BackendKind = 'pglite' | 'postgres';

export interface BenchBackend {
  kind: BackendKind;
  /** Where it runs, for the report (no credentials). */
  label: string;
  database: Database;
  store: EventStore;
  /** Closes the store and the database and removes what was created. */
  dispose(): Promise<void>;
  /** The Postgres database's own URL, for another process to open it (absent on PGlite or a schema). */
  url?: string;
}

export interface AppendCase {
  name: string;
  writers: number;
  /** All writers append to one stream, re-reading it after each conflict. */
  hotStream?: boolean;
  durationMs: number;
}

export interface AppendMeasurement {
  case: string;
  backend: BackendKind;
  writers: number;
  events: number;
  seconds: number;
  eventsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  conflicts: number;
  /** This process's CPU time over wall time, in cores. */
  benchCpuCores: number;
  /** Whole machine busy time over wall time, in cores (other processes included). */
  machineCpuCores: number;
}

export const DEFAULT_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** PGlite in a fresh temp directory, so writes go to disk as in `stylist serve`. */
export async function openPgliteBackend(options: PostgresEventStoreOptions = {}): Promise<BenchBackend> {
  const dir = await mkdtemp(join(os.tmpdir(), 'stylist-bench-'));
  const database = await openDatabase({ pgliteDir: dir });
  const store = await openPostgresEventStore(database, options);
  return {
    kind: 'pglite',
    label: 'PGlite (temp dir)',
    database,
    store,
    dispose: async () => {
      await store.close();
      await database.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Runs one statement on the server as its own client (creating and dropping databases). */
export async function adminStatement(server: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A fresh database on the server, dropped afterwards; a fresh schema if we may not create databases. */
export async function openPostgresBackend(
  url = process.env.DATABASE_URL || DEFAULT_URL,
  options: PostgresEventStoreOptions = {},
  maxConnections = 16,
  /** A database of this name, created if missing and left in place on dispose (BENCH_KEEP). */
  kept?: string,
): Promise<BenchBackend> {
  const name = kept ?? `stylist_bench_${randomBytes(4).toString('hex')}`;
  const admin = (text: string) => adminStatement(url, text);
  let database: Database;
  /** What dispose runs on the server: nothing for a kept database. */
  let cleanup: string | null;
  let ownUrl: string | undefined;
  try {
    if (kept) await admin(`create database ${name}`).catch((error: { code?: string }) => (error.code === '42P04' ? undefined : Promise.reject(error)));
    else await admin(`create database ${name}`);
    const target = new URL(url);
    target.pathname = `/${name}`;
    ownUrl = target.toString();
    database = await openDatabase({ url: ownUrl, maxConnections });
    cleanup = `drop database ${name} with (force)`;
  } catch {
    await admin(`create schema ${name}`);
    database = await openDatabase({ url, schema: name, maxConnections });
    cleanup = `drop schema ${name} cascade`;
  }
  if (kept) cleanup = null;
  const store = await openPostgresEventStore(database, options);
  // A benchmark stopped by Ctrl-C or a kill leaves no database behind: dropped on the way out, then
  // the signal is raised again, so the process ends as it would have.
  const onSignal = (signal: NodeJS.Signals): void => {
    void (cleanup ? admin(cleanup) : Promise.resolve())
      .catch(() => {})
      .finally(() => process.kill(process.pid, signal));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return {
    kind: 'postgres',
    label: `Postgres ${redactUrl(url)} (${name})`,
    database,
    store,
    ...(ownUrl ? { url: ownUrl } : {}),
    dispose: async () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      await store.close();
      await database.close();
      if (cleanup) await admin(cleanup);
    },
  };
}

const payload = (writer: number, n: number): NewEvent => ({
  type: 'ItemPriced',
  data: { itemId: `item-${writer}-${n}`, price: 1999 + n, currency: 'EUR', compareAt: null, variants: [{ sku: `sku-${n}`, stock: n % 7 }] },
  metadata: { organizationId: 'org-bench', actor: { kind: 'system', id: 'bench' }, correlationId: `c-${writer}-${n}`, at: new Date().toISOString() },
});

const STREAMS_PER_WRITER = 100;

/**
 * Runs `spec.writers` loops appending one event per call for `durationMs`. Distinct streams:
 * writer w cycles through its own streams with exact expected revisions. Hot stream: everyone
 * appends to one stream; a conflict counts, re-reads what is new and retries.
 */
export async function measureAppends(backend: BenchBackend, spec: AppendCase): Promise<AppendMeasurement> {
  const { store } = backend;
  const run = randomBytes(3).toString('hex');
  const latencies: number[] = [];
  let conflicts = 0;
  const hot = `bench-${run}-hot`;
  if (spec.hotStream) await store.append(hot, [payload(-1, 0)], { expectedRevision: 'no_stream' });

  const cpuBefore = process.cpuUsage();
  const machineBefore = await machineTicks();
  const started = performance.now();
  const deadline = started + spec.durationMs;

  await Promise.all(
    Array.from({ length: spec.writers }, async (_, w) => {
      const revisions = new Map<string, bigint>();
      let known = spec.hotStream ? 0n : -1n;
      for (let n = 0; performance.now() < deadline; n++) {
        const stream = spec.hotStream ? hot : `bench-${run}-w${w}-s${n % STREAMS_PER_WRITER}`;
        const expectedRevision = spec.hotStream ? known : (revisions.get(stream) ?? 'no_stream');
        const t0 = performance.now();
        try {
          const result = await store.append(stream, [payload(w, n)], { expectedRevision });
          latencies.push(performance.now() - t0);
          if (spec.hotStream) known = result.nextExpectedRevision;
          else revisions.set(stream, result.nextExpectedRevision);
        } catch (error) {
          if (!(error instanceof WrongExpectedRevision)) throw error;
          conflicts++;
          const fresh = await store.readStream(hot, { fromRevision: known + 1n });
          known = fresh.at(-1)?.revision ?? known;
        }
      }
    }),
  );

  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const machineAfter = await machineTicks();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] ?? 0);
  return {
    case: spec.name,
    backend: backend.kind,
    writers: spec.writers,
    events: latencies.length,
    seconds: round(seconds),
    eventsPerSecond: Math.round(latencies.length / seconds),
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    maxMs: round(latencies.at(-1) ?? 0),
    conflicts,
    benchCpuCores: round((cpu.user + cpu.system) / 1e6 / seconds),
    machineCpuCores: machineBefore && machineAfter ? round(busyCores(machineBefore, machineAfter, seconds)) : Number.NaN,
  };
}

export const appendCases = (durationMs: number): AppendCase[] => [
  { name: 'distinct streams', writers: 1, durationMs },
  { name: 'distinct streams', writers: 16, durationMs },
  { name: 'distinct streams', writers: 64, durationMs },
  { name: 'hot stream', writers: 16, hotStream: true, durationMs },
];

const round = (x: number) => Math.round(x * 100) / 100;

interface Ticks {
  busy: number;
  hz: number;
}

// /proc/stat counts in USER_HZ (100 on Linux); absent elsewhere, then the column stays empty.
async function machineTicks(): Promise<Ticks | null> {
  try {
    const line = (await readFile('/proc/stat', 'utf8')).split('\n')[0]!;
    const [, user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).map(Number);
    return { busy: user! + nice! + system! + irq! + softirq! + steal!, hz: 100 };
  } catch {
    return null;
  }
}

const busyCores = (before: Ticks, after: Ticks, seconds: number) => (after.busy - before.busy) / before.hz / seconds;

async function main(): Promise<void> {
  const durationMs = (Number(process.env.BENCH_SECONDS) || 5) * 1000;
  const backends = (process.env.BENCH_BACKENDS || 'pglite,postgres').split(',') as BackendKind[];
  const appendConcurrency = Number(process.env.BENCH_APPEND_CONCURRENCY) || undefined;
  const options: PostgresEventStoreOptions = appendConcurrency ? { appendConcurrency } : {};
  const rows: AppendMeasurement[] = [];
  const labels: string[] = [];

  for (const kind of backends) {
    let backend: BenchBackend;
    try {
      backend = kind === 'pglite' ? await openPgliteBackend(options) : await openPostgresBackend(undefined, options);
    } catch (error) {
      console.error(`${kind} skipped: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    labels.push(backend.label);
    try {
      for (const spec of appendCases(durationMs)) {
        const row = await measureAppends(backend, spec);
        console.error(`${row.backend} ${row.case} ×${row.writers}: ${row.eventsPerSecond} events/s, p99 ${row.p99Ms} ms`);
        rows.push(row);
      }
    } finally {
      await backend.dispose();
    }
  }

  console.table(
    rows.map((r) => ({
      case: r.case,
      backend: r.backend,
      writers: r.writers,
      events: r.events,
      'events/s': r.eventsPerSecond,
      'p50 ms': r.p50Ms,
      'p99 ms': r.p99Ms,
      conflicts: r.conflicts,
      'bench cpu': r.benchCpuCores,
      'machine cpu': r.machineCpuCores,
    })),
  );
  await mkdir(new URL('./results/', import.meta.url), { recursive: true });
  const result = {
    bench: 'eventstore-append',
    at: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    loadAverage: os.loadavg(),
    durationMs,
    options,
    backends: labels,
    rows,
  };
  await writeFile(new URL('./results/eventstore-append.json', import.meta.url), `${JSON.stringify(result, null, 2)}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
