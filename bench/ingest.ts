// End-to-end ingest: real-shaped products (the Shopify fixtures replicated with new ids) uploaded
// through the API in batches of 1,000 and ingested by the worker until every one is `active`,
// with and without photos (served by a local HTTP server), on PGlite with the in-process queue
// and on Postgres with NATS JetStream. Goals on 2 cores: ≥ 200 items/s without photos, ≥ 40 with,
// and an upload of 1,000 products answering within 1 s.
//   BENCH_ITEMS=5000  BENCH_PHOTO_ITEMS=2000  BENCH_BACKENDS=pglite,postgres  NATS_URL=nats://…
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { createLogger } from '../api/logging.js';
import { buildServiceApi } from '../app/api.js';
import { executeCommand } from '../app/cli/execute.js';
import { openPlatform } from '../app/platform.js';
import { startWorkers } from '../app/workers.js';
import { loadConfig } from '../infra/config/config.js';
import { deleteStreams } from '../test/support/nats.js';
import { LOCAL_STORES_ENV } from '../test/support/outbound.js';
import { openPgliteBackend, openPostgresBackend, type BenchBackend } from './eventstore.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../shared/fixtures/shopify');
const BATCH = 1000;

interface Row {
  backend: string;
  photos: string;
  items: number;
  /** The first batch, before the worker has anything to do: what a merchant's upload costs alone. */
  'first upload ms': number;
  'upload p50 ms': number;
  'upload max ms': number;
  'seconds to active': number;
  'items/s': number;
}

async function loadProducts(count: number, withPhotos: string[] | null): Promise<object[]> {
  const files = (await readdir(FIXTURES)).filter((f) => f.endsWith('.json'));
  const pool: any[] = [];
  for (const file of files) {
    const parsed = JSON.parse(await readFile(path.join(FIXTURES, file), 'utf8'));
    pool.push(...(Array.isArray(parsed) ? parsed : parsed.products ?? []));
  }
  const run = randomBytes(3).toString('hex');
  return Array.from({ length: count }, (_, i) => {
    const product = pool[i % pool.length];
    const copy = Math.floor(i / pool.length);
    return {
      ...product,
      id: `${run}-${i}`,
      title: copy ? `${product.title} ${copy}` : product.title,
      variants: (product.variants ?? []).map((v: any, j: number) => ({ ...v, id: `${run}-${i}-${j}`, sku: `${run}-${i}-${j}` })),
      // Up to three photos from the local image server, instead of the store's CDN.
      images: withPhotos ? withPhotos.slice(0, 1 + (i % 3)).map((src) => ({ src: `${src}?p=${i}` })) : [],
    };
  });
}

/** A local image server with a few product shots of realistic size (JPEG, 1000×1250). */
async function startImageServer(): Promise<{ urls: string[]; close(): Promise<void> }> {
  const shots = await Promise.all(
    ['#8a2be2', '#1f2a44', '#c0392b'].map((hex) =>
      sharp({ create: { width: 1000, height: 1250, channels: 3, background: '#f4f4f4' } })
        .composite([{ input: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1250"><rect x="250" y="200" width="500" height="900" rx="40" fill="${hex}"/></svg>`) }])
        .jpeg({ quality: 85 })
        .toBuffer(),
    ),
  );
  const server = createServer((request, response) => {
    const index = Number(/\/(\d)\.jpg/.exec(request.url ?? '')?.[1] ?? 0);
    const body = shots[index % shots.length]!;
    response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': body.length });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { urls: [0, 1, 2].map((i) => `${base}/${i}.jpg`), close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function measure(backend: BenchBackend, products: object[], photos: boolean): Promise<Row> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'stylist-bench-ingest-'));
  // The photos come from a server on 127.0.0.1.
  const env: Record<string, string> = { DATA_DIR: dataDir, STYLIST_SECRET: 'b'.repeat(40), LOG_LEVEL: 'silent', ...LOCAL_STORES_ENV };
  if (backend.kind === 'postgres' && process.env.NATS_URL !== '') {
    env.NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
    env.NATS_PREFIX = `bench${randomBytes(4).toString('hex')}`;
  }
  const config = loadConfig(env);
  const logger = createLogger({ level: (process.env.LOG_LEVEL as 'error') || 'silent' });
  const platform = await openPlatform(config, logger, { database: backend.database });
  await platform.projections.start();
  const app = await buildServiceApi(platform);
  const workers = await startWorkers(platform, ['ingest'], logger);
  try {
    const answer = await executeCommand(platform, ['org', 'create', '--name', 'Bench Boutique', '--plan', 'unlimited', '--json']);
    if (!answer.ok) throw new Error(answer.error);
    const headers = { authorization: `Bearer ${(answer.result as { privateKey: string }).privateKey}` };
    const created = await app.inject({ method: 'POST', url: '/v1/datasets', headers, payload: { name: 'Bench', config: { storeUrl: 'https://bench.example', currency: 'USD' } } });
    const datasetId = created.json().datasetId;
    await app.inject({ method: 'PATCH', url: `/v1/datasets/${datasetId}/activate`, headers });

    const started = performance.now();
    const uploads: number[] = [];
    for (let start = 0; start < products.length; start += BATCH) {
      const t0 = performance.now();
      const response = await app.inject({ method: 'POST', url: `/v1/datasets/${datasetId}/items/upload`, headers, payload: { products: products.slice(start, start + BATCH) } });
      uploads.push(performance.now() - t0);
      if (response.statusCode !== 202 || response.json().summary.failed) throw new Error(`upload: ${response.statusCode} ${response.body.slice(0, 300)}`);
    }
    for (;;) {
      const counts = (await app.inject({ url: `/v1/datasets/${datasetId}`, headers })).json().dataset.items;
      if (counts.active >= products.length) break;
      if (counts.failed) throw new Error(`${counts.failed} items failed`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const seconds = (performance.now() - started) / 1000;
    const first = uploads[0]!;
    uploads.sort((a, b) => a - b);
    return {
      backend: backend.kind === 'postgres' ? `Postgres + ${platform.queue.kind === 'jetstream' ? 'NATS' : 'in-process queue'}` : 'PGlite + in-process queue',
      photos: photos ? '1–3 per item' : 'none',
      items: products.length,
      'first upload ms': Math.round(first),
      'upload p50 ms': Math.round(uploads[Math.floor(uploads.length / 2)]!),
      'upload max ms': Math.round(uploads.at(-1)!),
      'seconds to active': Math.round(seconds * 10) / 10,
      'items/s': Math.round(products.length / seconds),
    };
  } finally {
    await app.close();
    await workers.stop();
    await platform.close();
    await rm(dataDir, { recursive: true, force: true });
    if (env.NATS_PREFIX) await deleteStreams(env.NATS_URL!, `${env.NATS_PREFIX}_`);
  }
}

async function main(): Promise<void> {
  if (!existsSync(FIXTURES)) {
    console.log(`bench/ingest.ts: ${FIXTURES} is absent; nothing to measure.`);
    return;
  }
  const items = Number(process.env.BENCH_ITEMS) || 5000;
  const photoItems = Number(process.env.BENCH_PHOTO_ITEMS) || 2000;
  const images = await startImageServer();
  const rows: Row[] = [];
  try {
    for (const kind of (process.env.BENCH_BACKENDS || 'pglite,postgres').split(',')) {
      for (const photos of [false, true]) {
        const backend = kind === 'postgres' ? await openPostgresBackend() : await openPgliteBackend();
        try {
          const row = await measure(backend, await loadProducts(photos ? photoItems : items, photos ? images.urls : null), photos);
          console.error(JSON.stringify(row));
          rows.push(row);
        } finally {
          await backend.dispose();
        }
      }
    }
  } finally {
    await images.close();
  }
  console.table(rows);
  await mkdir(new URL('results/', import.meta.url), { recursive: true });
  await writeFile(new URL('results/ingest.json', import.meta.url), JSON.stringify({ at: new Date().toISOString(), rows }, null, 2));
}

if ((process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) || process.env.BENCH_MAIN) await main();
