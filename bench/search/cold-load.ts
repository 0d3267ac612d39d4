// Cold load of one dataset into the search memory (projections/search-memory.ts): built from the
// read model (rows, document parse and postings, HNSW graph one vector at a time) against read from
// its saved copy (object store get, checksum and decode, graph load, postings, catching up with
// the read model), stage by stage; then what a loaded dataset costs in memory (the memory's own
// estimate against the process's growth), and so how many items one GB of SEARCH_MEMORY_MB holds.
//
// The dataset is the fixture feeds' products replicated (bench/search/catalogue.ts, as
// bench/search.ts makes its catalogues) into one store dataset, uploaded through the API and
// ingested by the real worker (offline models, no photos), so rows, documents and embeddings are
// what the service makes. Each end-to-end load is a fresh SearchMemory (a process that has never
// seen the dataset), timed BENCH_REPEATS times, median reported.
//   node --expose-gc --import tsx bench/search/cold-load.ts
//   BENCH_ITEMS=10000  BENCH_REPEATS=5  BENCH_COPIES=4 (memories held at once for the memory figure)
//   BENCH_BACKEND=postgres|pglite  DATABASE_URL=postgres://… (the server; default postgres://postgres@127.0.0.1:5432/postgres)
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sql, type Kysely } from 'kysely';
import { openDatabase } from '../../infra/db/database.js';
import { openFileObjectStore } from '../../infra/objects/files.js';
import type { ObjectStore } from '../../infra/objects/port.js';
import { createHnswIndex, restoreHnswIndex } from '../../infra/vectors/hnsw.js';
import { DatasetMemory, Lexicon, SearchMemory } from '../../projections/search-memory.js';
import { applyRow, readActiveRows, readChanges, readHead, readUnchanged, type LoadedRow } from '../../projections/search-memory/rows.js';
import { decodeSnapshot, encodeSnapshot, snapshotKey } from '../../projections/search-memory/snapshot.js';
import { FEED_STORES, FEEDS_DIR, missingFeeds, readFeed } from '../search-quality/feeds.js';
import { FEEDS } from '../search-quality/queries.js';
import { catalogueProduct, type ShopifyProduct } from './catalogue.js';
import { createStoreDataset, startSearchService, uploadProducts, waitProcessed, type BackendKind } from './service.js';

const env = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const ms = (n: number) => Math.round(n * 10) / 10;
const mb = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;

interface Stage {
  stage: string;
  ms: number;
  note?: string;
}

async function timed<T>(run: () => Promise<T> | T): Promise<[T, number]> {
  const started = performance.now();
  const value = await run();
  return [value, performance.now() - started];
}

/** The built path, stage by stage, with the same functions a load uses. */
async function builtStages(db: Kysely<any>, datasetId: string): Promise<Stage[]> {
  const rows: LoadedRow[] = [];
  const [, read] = await timed(() => readActiveRows(db, datasetId, (row) => rows.push(row)));
  const memory = new DatasetMemory();
  const lexicon = new Lexicon();
  const [, parse] = await timed(() => {
    for (const row of rows) applyRow(memory, { ...row, vector: null }, lexicon);
  });
  const dimensions = rows.find((row) => row.vector?.length)?.vector?.length ?? 0;
  const [, graph] = await timed(() => {
    const index = createHnswIndex({ dimensions });
    for (const row of rows) if (row.vector?.length) index.upsert(row.item_id, row.vector);
  });
  return [
    { stage: 'rows read (search_documents ⋈ item_embeddings)', ms: read, note: `${rows.length} rows` },
    { stage: 'documents parsed, postings placed', ms: parse },
    { stage: 'HNSW graph built, one vector at a time', ms: graph, note: `${dimensions} dimensions` },
  ];
}

/** The saved-copy path, stage by stage. */
async function snapshotStages(db: Kysely<any>, objects: ObjectStore, datasetId: string, bytes: Buffer): Promise<Stage[]> {
  const [stored, get] = await timed(() => objects.get(snapshotKey(datasetId)));
  if (!stored) throw new Error('no saved copy to read');
  const [, hash] = await timed(() => createHash('sha256').update(stored.body).digest());
  const lexicon = new Lexicon();
  const [saved, decode] = await timed(() => decodeSnapshot(stored.body, datasetId, lexicon));
  const image = saved.vectors?.image();
  const [, graph] = await timed(() => (image ? restoreHnswIndex(image) : null));
  const memory = new DatasetMemory();
  const [, place] = await timed(() => memory.restore(saved.docs, saved.vectors));
  const [, catchUp] = await timed(async () => {
    await readHead(db);
    const read = await readChanges(db, saved.cursor, [datasetId], (row) => applyRow(memory, row, lexicon));
    await readUnchanged(db, datasetId, saved.cursor);
    return read;
  });
  return [
    { stage: 'object store get', ms: get, note: `${mb(bytes.length)} MB` },
    { stage: 'decoded: checksum, header, docs, graph load', ms: decode, note: `of which checksum ${ms(hash)} ms, graph load ${ms(graph)} ms` },
    { stage: 'postings placed', ms: place },
    { stage: 'caught up: head, changes since, check against the read model', ms: catchUp },
  ];
}

/** A fresh memory's whole load of the dataset, as the first search in a new process has it. */
async function endToEnd(db: Kysely<any>, datasetId: string, snapshots: ObjectStore | null, repeats: number): Promise<{ ms: number[]; how: string[] }> {
  const times: number[] = [];
  const how: string[] = [];
  for (let i = 0; i < repeats; i++) {
    const memory = new SearchMemory(db, { snapshots });
    const [, took] = await timed(() => memory.ready([datasetId], null));
    times.push(took);
    how.push(memory.loads.at(-1)?.how ?? '?');
    await memory.close();
  }
  return { ms: times, how };
}

async function main(): Promise<void> {
  const missing = missingFeeds();
  if (missing.length) {
    console.log(`bench/search/cold-load.ts: SKIPPED, the fixture feeds are not in ${FEEDS_DIR} (missing: ${missing.join(', ')}).`);
    return;
  }
  if (!global.gc) console.error('run with node --expose-gc for the memory figures (they are noisier without)');
  const kind: BackendKind = (process.env.BENCH_BACKEND || 'postgres') === 'pglite' ? 'pglite' : 'postgres';
  const items = env('BENCH_ITEMS', 10_000);
  const repeats = env('BENCH_REPEATS', 5);
  const copies = env('BENCH_COPIES', 4);
  const pool: ShopifyProduct[] = FEEDS.flatMap((feed) => readFeed(feed));
  const service = await startSearchService(kind);
  try {
    const db = service.platform.database.db;
    const started = performance.now();
    const datasetId = await createStoreDataset(service, FEED_STORES[FEEDS[0]!]!);
    const products = Array.from({ length: items }, (_, i) => catalogueProduct(pool, i));
    const uploaded = await uploadProducts(service, datasetId, products);
    console.error(`  uploaded ${uploaded.queued} products; waiting for the ingest worker`);
    await waitProcessed(service, new Map([[datasetId, uploaded.queued]]), (done, total) => console.error(`  ${done} of ${total} processed`));
    for (;;) {
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from search_documents where dataset_id = ${datasetId} and status = 'active'`.execute(db);
      if (rows[0]!.n >= uploaded.queued - uploaded.failures.length) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    console.error(`  ${items} items ingested in ${ms((performance.now() - started) / 1000)} s`);

    const objects = service.platform.objects;
    const load = os.loadavg().map((n) => n.toFixed(1)).join(' / ');
    // Built: no object store (with one, each built load would save a copy the next would read).
    const built = await endToEnd(db, datasetId, null, repeats);
    const builtStagesList = await builtStages(db, datasetId);

    // Saved: what a built load writes, and what it costs the searches going on meanwhile.
    const source = new SearchMemory(db);
    const [memory] = await source.ready([datasetId], null);
    const head = await readHead(db);
    const blocked = monitorEventLoopDelay({ resolution: 1 });
    blocked.enable();
    const [bytes, encode] = await timed(async () => encodeSnapshot(datasetId, head, memory!, source.lexicon));
    blocked.disable();
    const longestBlock = blocked.max / 1e6;
    const [, put] = await timed(() => objects.put(snapshotKey(datasetId), bytes, { contentType: 'application/octet-stream' }));
    const fromCopy = await endToEnd(db, datasetId, objects, repeats);
    const copyStages = await snapshotStages(db, objects, datasetId, bytes);

    // Memory: `copies` memories holding the dataset at once, in a process of their own (this one
    // has built and freed too much for its RSS to say anything).
    // Twice: restored from the copy (no variants or answer bodies yet), and built from the read model (all held, as a restored dataset ends up once every item was priced and shown).
    const measuring = (from: 'copy' | 'read model') =>
      measureMemoryElsewhere({ url: service.backend.url!, objectsDir: path.join(service.platform.config.dataDir, 'objects'), datasetId, copies, from });
    const measured = service.backend.url
      ? { fromCopy: await measuring('copy'), built: await measuring('read model') }
      : null;
    if (!measured) console.error('  memory: skipped, the bench database has no URL another process can open (BENCH_BACKEND=postgres)');
    const machine = `${os.cpus()[0]?.model ?? 'CPU'}, ${os.cpus().length} cores, Node ${process.versions.node}, ${service.backend.label}, object store: ${objects.kind}`;
    console.log(`\nCold load of one dataset of ${memory!.docs.size.toLocaleString('en')} items into the search memory: ${machine}; load average at start ${load}`);
    console.log('| Load | median ms | runs ms |');
    console.log('| --- | --- | --- |');
    console.log(`| built from the read model | ${ms(median(built.ms))} | ${built.ms.map(ms).join(', ')} (${[...new Set(built.how)].join()}) |`);
    console.log(`| from the saved copy | **${ms(median(fromCopy.ms))}** | ${fromCopy.ms.map(ms).join(', ')} (${[...new Set(fromCopy.how)].join()}) |`);
    console.log('\n| Stage (one run) | ms | |');
    console.log('| --- | --- | --- |');
    for (const s of builtStagesList) console.log(`| built: ${s.stage} | ${ms(s.ms)} | ${s.note ?? ''} |`);
    for (const s of copyStages) console.log(`| copy: ${s.stage} | ${ms(s.ms)} | ${s.note ?? ''} |`);
    console.log(`| saving: encoded, a slice at a time | ${ms(encode)} | ${mb(bytes.length)} MB; longest event-loop block ${ms(longestBlock)} ms |`);
    console.log(`| saving: object store put | ${ms(put)} | |`);
    if (measured) {
      for (const [how, figures] of [['restored from its copy (no variants or answer bodies)', measured.fromCopy], ['built from the read model (every variants and answer body held)', measured.built]] as const) {
        const { estimatePerItem, rssPerItem, heapPerItem, externalPerItem } = figures;
        console.log(
          `\nMemory of a loaded dataset, ${how}, ${copies} copies held at once in a fresh process (after gc): per item, estimate (memoryBytes) ${Math.round(estimatePerItem)} B; RSS growth ${Math.round(rssPerItem)} B (V8 heap ${Math.round(heapPerItem)} B, array buffers ${Math.round(externalPerItem)} B, the rest native: the graphs); so one GB of RSS holds about ${Math.round(2 ** 30 / rssPerItem).toLocaleString('en')} items.`,
        );
      }
    }
    await mkdir(new URL('../results/', import.meta.url), { recursive: true });
    await writeFile(
      new URL('../results/search-cold-load.json', import.meta.url),
      JSON.stringify({ at: new Date().toISOString(), machine, loadAverage: load, items: memory!.docs.size, built, fromCopy, builtStages: builtStagesList, copyStages, save: { encodeMs: encode, longestBlockMs: longestBlock, putMs: put, bytes: bytes.length }, memory: measured && { copies, ...measured } }, null, 2),
    );
    source.close();
  } finally {
    await service.close();
  }
}

interface MemoryFigures {
  estimatePerItem: number;
  rssPerItem: number;
  heapPerItem: number;
  externalPerItem: number;
}

/** This file again, as a child process that loads `copies` of the dataset (from its saved copy, or built from the read model) and reports its growth. */
async function measureMemoryElsewhere(input: MemoryChildInput): Promise<MemoryFigures> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url)], {
    env: { ...process.env, BENCH_MEMORY_CHILD: JSON.stringify(input) },
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout.trim().split('\n').pop()!) as MemoryFigures;
}

interface MemoryChildInput {
  url: string;
  objectsDir: string;
  datasetId: string;
  copies: number;
  from: 'copy' | 'read model';
}

async function memoryChild(input: MemoryChildInput): Promise<void> {
  const database = await openDatabase({ url: input.url, maxConnections: 2 });
  const objects = await openFileObjectStore(input.objectsDir);
  // One load first, dropped: code, JIT and pools are paid before the baseline.
  const first = new SearchMemory(database.db, { snapshots: objects });
  await first.ready([input.datasetId], null);
  first.close();
  const settle = async () => {
    for (let i = 0; i < 3; i++) {
      global.gc?.();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return process.memoryUsage();
  };
  const before = await settle();
  const held: SearchMemory[] = [];
  for (let i = 0; i < input.copies; i++) {
    const memory = new SearchMemory(database.db, input.from === 'copy' ? { snapshots: objects } : {});
    await memory.ready([input.datasetId], null);
    held.push(memory);
  }
  const after = await settle();
  const items = held.reduce((sum, memory) => sum + memory.stats().reduce((n, d) => n + d.items, 0), 0);
  const figures: MemoryFigures = {
    estimatePerItem: held.reduce((sum, memory) => sum + memory.heldBytes(), 0) / items,
    rssPerItem: (after.rss - before.rss) / items,
    heapPerItem: (after.heapUsed - before.heapUsed) / items,
    externalPerItem: (after.arrayBuffers - before.arrayBuffers) / items,
  };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
  await database.close();
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (process.env.BENCH_MEMORY_CHILD) await memoryChild(JSON.parse(process.env.BENCH_MEMORY_CHILD) as Parameters<typeof memoryChild>[0]);
  else await main();
}
