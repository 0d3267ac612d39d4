// Stream length and fold time of a source synced 10,000 times, in the layout before issue 11 (every
// job's events on the source's stream) and the one since (each job on its own `syncjob-*`
// stream; the source's stream keeps its own life). Each sync is the usual three events
// (requested, claimed, completed). What is timed is what every job command reads before it
// decides: the old layout folds the whole source stream; the new one folds the source's stream
// and finds the latest job (two small reads when this process saw the source before, about
// 2·log2(n) when it did not).
//   node --import tsx bench/streams.ts
//   BENCH_SYNCS=10000  BENCH_BACKENDS=pglite,postgres  DATABASE_URL=postgres://… (the server; postgres is skipped without it)
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { loadState } from '../commands/handle.js';
import { latestJob } from '../commands/sync-jobs.js';
import { sourceDecider, sourceStream } from '../domain/source/index.js';
import { syncJobId, syncJobStream } from '../domain/sync-job/index.js';
import type { EventStore, NewEvent } from '../infra/eventstore/port.js';
import { openPgliteBackend, openPostgresBackend, type BenchBackend } from './eventstore.js';

const SYNCS = Number(process.env.BENCH_SYNCS ?? 10_000);
const BACKENDS = (process.env.BENCH_BACKENDS ?? 'pglite,postgres').split(',');
const ORG = randomUUID();
const DATASET = randomUUID();
const STATS = { retrieved: 120, added: 2, updated: 5, archived: 1, failed: 0 };

const event = (type: string, data: Record<string, unknown>): NewEvent => ({
  id: randomUUID(),
  type,
  data,
  metadata: { organizationId: ORG, actor: { kind: 'system', id: 'bench' }, correlationId: randomUUID(), at: new Date().toISOString() },
});

const created = (sourceId: string) =>
  event('SourceCreated', { sourceId, datasetId: DATASET, organizationId: ORG, sourceType: 'shopify-api', endpoint: 'https://shop.example.com/products.json', syncPeriod: 60, status: 'active', at: new Date().toISOString() });

/** One sync's events: requested, claimed, completed. */
const sync = (sourceId: string, jobId: string, number?: number): NewEvent[] => {
  const ids = { sourceId, datasetId: DATASET, organizationId: ORG, jobId };
  const at = new Date().toISOString();
  const logId = randomUUID();
  return [
    event('SyncJobRequested', { ...ids, ...(number ? { number } : {}), priority: 0, trigger: 'schedule', at }),
    event('SyncJobClaimed', { ...ids, workerId: 'bench', logId, at }),
    event('SyncJobCompleted', { ...ids, workerId: 'bench', logId, stats: STATS, at }),
  ];
};

async function writeOld(store: EventStore, sourceId: string): Promise<number> {
  await store.append(sourceStream(sourceId), [created(sourceId)], { expectedRevision: 'no_stream' });
  let revision = 0n;
  // 100 syncs per append: what matters is the stream's length, not how it got there.
  for (let start = 0; start < SYNCS; start += 100) {
    const events = Array.from({ length: Math.min(100, SYNCS - start) }, () => sync(sourceId, randomUUID())).flat();
    revision = (await store.append(sourceStream(sourceId), events, { expectedRevision: revision })).nextExpectedRevision as bigint;
  }
  return Number(revision) + 1;
}

async function writeNew(store: EventStore, sourceId: string): Promise<number> {
  await store.append(sourceStream(sourceId), [created(sourceId)], { expectedRevision: 'no_stream' });
  const writers = 8;
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      for (let n = w + 1; n <= SYNCS; n += writers) {
        const jobId = syncJobId(sourceId, n);
        await store.append(syncJobStream(jobId), sync(sourceId, jobId, n), { expectedRevision: 'no_stream' });
      }
    }),
  );
  return 3;
}

async function median(times: number, run: () => Promise<unknown>): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return Math.round(samples[Math.floor(samples.length / 2)]! * 100) / 100;
}

interface Row {
  backend: string;
  layout: string;
  syncs: number;
  'longest stream': number;
  'events written': number;
  'write s': number;
  'fold ms (median)': number;
  'cold fold ms': number;
}

async function measure(backend: BenchBackend): Promise<Row[]> {
  const rows: Row[] = [];
  const oldSource = randomUUID();
  let started = performance.now();
  const oldLength = await writeOld(backend.store, oldSource);
  const oldWrite = (performance.now() - started) / 1000;
  console.error(`${backend.kind}: old layout written in ${oldWrite.toFixed(1)} s`);
  const foldOld = () => loadState(backend.store, sourceDecider, sourceStream(oldSource));
  const oldCold = await median(1, foldOld);
  console.error(`${backend.kind}: old layout cold fold ${oldCold} ms`);
  rows.push({ backend: backend.kind, layout: 'jobs on the source stream (before)', syncs: SYNCS, 'longest stream': oldLength, 'events written': oldLength, 'write s': Number(oldWrite.toFixed(1)), 'fold ms (median)': await median(3, foldOld), 'cold fold ms': oldCold });

  const newSource = randomUUID();
  started = performance.now();
  const jobLength = await writeNew(backend.store, newSource);
  const newWrite = (performance.now() - started) / 1000;
  console.error(`${backend.kind}: new layout written in ${newWrite.toFixed(1)} s`);
  const foldNew = async () => {
    await loadState(backend.store, sourceDecider, sourceStream(newSource));
    return latestJob(backend.store, newSource);
  };
  const newCold = await median(1, foldNew);
  const latest = await latestJob(backend.store, newSource);
  if (latest?.number !== SYNCS) throw new Error(`latest job ${latest?.number}, expected ${SYNCS}`);
  rows.push({ backend: backend.kind, layout: 'a stream per job (after)', syncs: SYNCS, 'longest stream': jobLength, 'events written': 1 + 3 * SYNCS, 'write s': Number(newWrite.toFixed(1)), 'fold ms (median)': await median(9, foldNew), 'cold fold ms': newCold });
  return rows;
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  for (const kind of BACKENDS) {
    if (kind === 'postgres' && !process.env.DATABASE_URL) {
      console.error('postgres skipped: DATABASE_URL is not set');
      continue;
    }
    const backend = kind === 'pglite' ? await openPgliteBackend() : await openPostgresBackend();
    try {
      rows.push(...(await measure(backend)));
    } finally {
      await backend.dispose();
    }
  }
  console.table(rows);
  await mkdir(new URL('./results/', import.meta.url), { recursive: true });
  await writeFile(new URL('./results/streams.json', import.meta.url), `${JSON.stringify({ bench: 'streams', at: new Date().toISOString(), node: process.version, cpus: os.cpus().length, loadAverage: os.loadavg(), syncs: SYNCS, rows }, null, 2)}\n`);
}

await main();
