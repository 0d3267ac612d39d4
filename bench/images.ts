// What image delivery costs: a 1600×2000 JPEG (a demo photo, drawn by infra/demo-photos) asked for
// as a 400 px WebP through `GET /v1/image/{key}/-/resize/400x/-/format/webp`, 32 connections:
//   cached  the same variant again and again (served from memory; the store after a restart)
//   cold    a variant never made before every request, each one decoded, resized, encoded by
//           sharp and kept in the object store. Sides snap up to a ladder and qualities to four
//           levels (domain/image/variant-space.ts), so one original has few variants near 400 px:
//           the chains are the ladder's steps that make it 320 to 480 px wide (320, 400, 480
//           wide; 400, 480, 512, 600 high) × no quality and the four levels, WebP (35 per key),
//           over as many keys of the photo as the run can use, every one distinct. The requests
//           come from 64 client addresses (X-Forwarded-For; the bench service trusts one proxy):
//           one address may make 60 new variants at once and 120 a minute, and hold half the
//           transform slots, so what is measured is the machine, not one address's share.
// beside a bare fastify route answering the same bytes from memory (what "a static file" costs).
// The server's peak resident memory is sampled every 20 ms during each run.
//   abuse   a shopper's new variant (a 400 px WebP of a photo nobody asked for before), one at a
//           time, paced across the run: alone, then while one other address floods distinct
//           chains (every ladder step × format × quality, AVIF too, the biggest pictures first)
//           with 32 connections, the service on its default limits. Its p50/p95 in both, and
//           flood ÷ alone.
//   BENCH_SECONDS=10 (per run; 3 is a quick look)   S3_ENDPOINT… to bench on S3 instead of the file store
//
// `startBenchService()` is the service as `stylist serve` builds it, on a temporary DATA_DIR, with
// one organization and its keys: other measurements (uploads) start it the same way and add
// their own `Run`s to the table.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { createLogger } from '../api/logging.js';
import { buildServiceApi } from '../app/api.js';
import { executeCommand } from '../app/cli/execute.js';
import { openPlatform, type Platform } from '../app/platform.js';
import { generateDemoCatalogue } from '../domain/demo-catalogue/generate.js';
import { IMAGE_FORMATS } from '../domain/image/transforms.js';
import { QUALITY_LEVELS, SIDE_STEPS } from '../domain/image/variant-space.js';
import { renderDemoPhoto } from '../infra/demo-photos/render.js';
import { loadConfig } from '../infra/config/config.js';
import { measureUploads, type UploadTiming } from './images/uploads.js';

export interface BenchService {
  app: FastifyInstance;
  platform: Platform;
  /** `http://127.0.0.1:<port>` */
  url: string;
  organization: { organizationId: string; privateKey: string; publicKey: string };
  close(): Promise<void>;
}

/** The real service API listening on a free port, on a fresh DATA_DIR (and S3 when S3_* is set). */
export async function startBenchService(env: Record<string, string> = {}): Promise<BenchService> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'stylist-bench-images-'));
  const s3 = Object.fromEntries(['S3_ENDPOINT', 'S3_ACCESS_KEY', 'S3_SECRET_KEY', 'S3_BUCKET'].flatMap((name) => (process.env[name] ? [[name, process.env[name]!]] : [])));
  const config = loadConfig({ DATA_DIR: dataDir, STYLIST_SECRET: 'b'.repeat(40), LOG_LEVEL: 'silent', ...s3, ...env });
  const platform = await openPlatform(config, createLogger({ level: 'silent' }));
  await platform.projections.start();
  const app = await buildServiceApi(platform);
  const answer = await executeCommand(platform, ['org', 'create', '--name', 'Bench Boutique', '--plan', 'unlimited', '--json']);
  if (!answer.ok) throw new Error(answer.error);
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    platform,
    url,
    organization: answer.result as BenchService['organization'],
    close: async () => {
      await app.close();
      await platform.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Run {
  case: string;
  requestsPerSecond: number;
  p50: number;
  p95: number;
  p99: number;
  non2xx: number;
  /** The server process's resident memory as the run started, and its peak during the run. */
  startRssMb: number;
  peakRssMb: number;
}

const autocannonPath = createRequire(import.meta.url).resolve('autocannon');

interface CannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p90: number; p97_5: number; p99: number };
  non2xx: number;
  errors: number;
  statusCodeStats?: Record<string, { count: number }>;
}

export interface CannonOptions {
  method?: string;
  body?: string;
  headers?: Record<string, string>;
  /** Statements run once before the load, in the scope `paths` and `headersOf` see (tables of paths). */
  prelude?: string;
  /** The body of a function of the request number returning headers to add to that request. */
  headersOf?: string;
}

/**
 * autocannon in its own process, so the load does not share the server's event loop. `paths` is
 * the body of a function of the request number returning the path to ask for.
 */
export function autocannon(base: string, seconds: number, paths: string, options: CannonOptions = {}): Promise<CannonResult> {
  const script = `
    const autocannon = (await import(${JSON.stringify(pathToFileURL(autocannonPath).href)})).default;
    ${options.prelude ?? ''}
    const pathOf = (n) => { ${paths} };
    const headersOf = (n) => { ${options.headersOf ?? 'return {};'} };
    let n = 0;
    const result = await autocannon({
      url: ${JSON.stringify(base)}, connections: 32, duration: ${seconds},
      method: ${JSON.stringify(options.method ?? 'GET')}, headers: ${JSON.stringify(options.headers ?? {})},
      ${options.body === undefined ? '' : `body: ${JSON.stringify(options.body)},`}
      requests: [{ setupRequest: (request) => { const i = n++; return { ...request, path: pathOf(i), headers: { ...request.headers, ...headersOf(i) } }; } }],
    });
    process.stdout.write(JSON.stringify(result));`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as CannonResult) : reject(new Error(`autocannon exited with ${code}`))));
  });
}

/** Runs `load` while sampling this process's resident memory; the run with its peak. */
export async function measure(name: string, load: () => Promise<CannonResult>): Promise<Run> {
  const start = process.memoryUsage().rss;
  let peak = start;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  try {
    const result = await load();
    return {
      case: name,
      requestsPerSecond: Math.round(result.requests.average),
      p50: result.latency.p50,
      // autocannon reports p90 and p97.5; p95 is read between them.
      p95: Math.round(((result.latency.p90 + result.latency.p97_5) / 2) * 10) / 10,
      p99: result.latency.p99,
      non2xx: result.non2xx + result.errors,
      startRssMb: Math.round(start / 2 ** 20),
      peakRssMb: Math.round(peak / 2 ** 20),
    };
  } finally {
    clearInterval(sampler);
  }
}

/** A 1600 px wide JPEG of a patterned demo product, as ingest would store it. */
export async function benchPhoto(width = 1600): Promise<Buffer> {
  const products = generateDemoCatalogue();
  const spec = (products.find((product) => product.photos[0] && product.photos[0].pattern !== 'solid') ?? products[0]!).photos[0]!;
  return sharp(await renderDemoPhoto(spec, width)).jpeg({ quality: 85 }).toBuffer();
}

/** The same photo under `count` fresh keys: each key is an original of its own to the service. */
async function storeCopies(service: BenchService, photo: Buffer, count: number): Promise<string[]> {
  const keys = Array.from({ length: count }, () => `images/${randomUUID()}.jpeg`);
  for (const key of keys) await service.platform.objects.put(key, photo, { contentType: 'image/jpeg' });
  return keys;
}

/** Variants kept in the store under these originals. */
async function variantsOf(service: BenchService, keys: string[]): Promise<number> {
  let count = 0;
  for (const key of keys) count += (await service.platform.objects.list(`variants/${key}/`)).length;
  return count;
}

/**
 * `/-/resize/<w>x` and `/-/resize/x<h>` for each ladder step that makes the photo from `from` to
 * `to` px wide and is smaller than its side (a real resize), largest first.
 */
const resizes = (size: { width: number; height: number }, from: number, to: number) => {
  const byWidth = SIDE_STEPS.filter((step) => step < size.width).map((step) => ({ width: step, path: `/-/resize/${step}x` }));
  const byHeight = SIDE_STEPS.filter((step) => step < size.height).map((step) => ({ width: (step * size.width) / size.height, path: `/-/resize/x${step}` }));
  return [...byWidth, ...byHeight]
    .filter(({ width }) => width >= from && width <= to)
    .sort((a, b) => b.width - a.width)
    .map(({ path }) => path);
};
const qualities = ['', ...QUALITY_LEVELS.map((quality) => `/-/quality/${quality}`)];

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))]!;
const round = (value: number, places = 1) => Math.round(value * 10 ** places) / 10 ** places;

export async function imageRuns(service: BenchService, seconds: number): Promise<Run[]> {
  const photo = await benchPhoto();
  const size = await sharp(photo).metadata().then(({ width, height }) => ({ width: width!, height: height! }));
  const [key] = await storeCopies(service, photo, 1);
  const variant = `/v1/image/${key}/-/resize/400x/-/format/webp`;
  const warm = await service.app.inject({ url: variant });
  if (warm.statusCode !== 200) throw new Error(`the variant: ${warm.statusCode} ${warm.body}`);

  const bare = Fastify();
  const bytes = warm.rawPayload;
  bare.get('/static.webp', (_request, reply) => reply.header('content-type', 'image/webp').send(bytes));
  const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });
  try {
    const runs: Run[] = [];
    await autocannon(service.url, 2, `return ${JSON.stringify(variant)};`); // warm-up: JIT, sockets
    runs.push(await measure('bare fastify route, the same bytes from memory', () => autocannon(bareUrl, seconds, "return '/static.webp';")));
    runs.push(await measure('cached: 400 px WebP variant', () => autocannon(service.url, seconds, `return ${JSON.stringify(variant)};`)));
    runs.push(await measure('original: 1600 px JPEG as stored', () => autocannon(service.url, seconds, `return ${JSON.stringify(`/v1/image/${key}`)};`)));

    // Every request a variant never made before: the ladder's steps near 400 px × qualities, WebP,
    // over enough keys of the photo for 100 new variants a second per core (about 35 per core were measured).
    const chains = resizes(size, 320, 480).flatMap((resize) => qualities.map((quality) => `${resize}/-/format/webp${quality}`));
    const coldKeys = await storeCopies(service, photo, Math.ceil((seconds * 100 * availableParallelism()) / chains.length));
    const addresses = 64;
    const cold = await measure(`cold: a new ~400 px WebP variant each request`, () =>
      autocannon(service.url, seconds, `return '/v1/image/' + keys[Math.floor(n / chains.length) % keys.length] + chains[n % chains.length];`, {
        prelude: `const keys = ${JSON.stringify(coldKeys)}; const chains = ${JSON.stringify(chains)};`,
        headersOf: `return { 'x-forwarded-for': '10.20.0.' + (1 + (n % ${addresses})) };`,
      }),
    );
    const made = await variantsOf(service, coldKeys);
    cold.case += ` (${made} made, ${coldKeys.length} keys × ${chains.length} chains, ${addresses} addresses)`;
    runs.push(cold);
    return runs;
  } finally {
    await bare.close();
  }
}

export interface AbuseTiming {
  measurement: string;
  /** New variants the shopper asked for in each condition, one at a time. */
  samples: number;
  aloneP50Ms: number;
  aloneP95Ms: number;
  floodP50Ms: number;
  floodP95Ms: number;
  /** Flood ÷ alone. */
  p50Ratio: number;
  p95Ratio: number;
  /** The shopper's answers other than 200, both conditions together (should be 0). */
  shopperNon200: number;
  floodRequestsPerSecond: number;
  /** The flood's answers: 429 (its share of new variants spent, or its line full), 503, none within autocannon's 10 s; and the variants it had made. */
  flood429: number;
  flood503: number;
  floodTimeouts: number;
  floodMade: number;
}

/** One new variant per key, one request at a time, spread evenly over `spanMs`; each one's time. */
async function shopper(service: BenchService, keys: string[], from: string, spanMs: number): Promise<{ times: number[]; failed: number }> {
  const gap = spanMs / keys.length;
  const started = performance.now();
  const times: number[] = [];
  let failed = 0;
  for (const [index, key] of keys.entries()) {
    const wait = started + index * gap - performance.now();
    if (wait > 0) await sleep(wait);
    const sent = performance.now();
    const response = await fetch(`${service.url}/v1/image/${key}/-/resize/400x/-/format/webp`, { headers: { 'x-forwarded-for': from } });
    await response.arrayBuffer();
    times.push(performance.now() - sent);
    if (response.status !== 200) failed++;
  }
  return { times: times.sort((a, b) => a - b), failed };
}

/**
 * A shopper's new variants alone, then while one other address floods new variants, on the
 * service's default limits (the bench service only trusts one proxy, to tell addresses apart).
 */
export async function abuseRun(service: BenchService, seconds: number): Promise<AbuseTiming> {
  const photo = await benchPhoto();
  const size = await sharp(photo).metadata().then(({ width, height }) => ({ width: width!, height: height! }));
  const samples = Math.max(20, seconds * 4);
  const spanMs = Math.max(1_000, seconds * 1_000 - 2_000);
  const aloneKeys = await storeCopies(service, photo, samples);
  const floodedKeys = await storeCopies(service, photo, samples);
  // Every resize the ladder has for this photo (and none) × every format × no quality and the four
  // levels, the biggest pictures (the dearest to make) first, as someone out to cost the most would ask.
  const chains = ['', ...resizes(size, 1, Infinity)]
    .flatMap((resize) => IMAGE_FORMATS.flatMap((format) => qualities.map((quality) => `${resize}/-/format/${format}${quality}`)))
    .filter((chain) => chain !== '/-/format/jpeg'); // the original itself
  const floodKeys = await storeCopies(service, photo, 4);

  await sleep(1_000); // what the runs before left running ends
  const alone = await shopper(service, aloneKeys, '10.77.0.1', spanMs);
  const flood = autocannon(service.url, seconds, `return '/v1/image/' + keys[Math.floor(n / chains.length) % keys.length] + chains[n % chains.length];`, {
    prelude: `const keys = ${JSON.stringify(floodKeys)}; const chains = ${JSON.stringify(chains)};`,
    headers: { 'x-forwarded-for': '10.66.0.1' },
  });
  await sleep(1_000); // the flood's process started and its burst of new variants under way
  const flooded = await shopper(service, floodedKeys, '10.77.0.2', spanMs);
  const floodResult = await flood;
  const status = (code: string) => floodResult.statusCodeStats?.[code]?.count ?? 0;
  const [aloneP50, aloneP95, floodP50, floodP95] = [percentile(alone.times, 0.5), percentile(alone.times, 0.95), percentile(flooded.times, 0.5), percentile(flooded.times, 0.95)];
  return {
    measurement: "abuse: a shopper's new 400 px WebP, alone vs while another address floods new variants (default limits)",
    samples,
    aloneP50Ms: round(aloneP50),
    aloneP95Ms: round(aloneP95),
    floodP50Ms: round(floodP50),
    floodP95Ms: round(floodP95),
    p50Ratio: round(floodP50 / aloneP50, 2),
    p95Ratio: round(floodP95 / aloneP95, 2),
    shopperNon200: alone.failed + flooded.failed,
    floodRequestsPerSecond: Math.round(floodResult.requests.average),
    flood429: status('429'),
    flood503: status('503'),
    floodTimeouts: floodResult.errors,
    floodMade: await variantsOf(service, floodKeys),
  };
}

async function main(): Promise<void> {
  const seconds = Number(process.env.BENCH_SECONDS) || 10;
  const started = performance.now();
  // One proxy trusted (autocannon and the shopper, on loopback, say who they are in X-Forwarded-For); every other limit its default.
  const service = await startBenchService({ TRUST_PROXY: '1' });
  let runs: Run[];
  let abuse: AbuseTiming;
  let uploads: UploadTiming;
  try {
    runs = await imageRuns(service, seconds);
    abuse = await abuseRun(service, seconds);
    // Ten photo-sized JPEGs in one request, one request at a time (goal ≤ 300 ms).
    uploads = await measureUploads(service.url, service.organization.privateKey, { requests: Number(process.env.BENCH_UPLOAD_REQUESTS) || 20 });
  } finally {
    await service.close();
  }
  const machine = `${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? 'unknown'}), Node ${process.versions.node}, ${service.platform.objects.kind} store`;
  console.log(machine);
  console.table(runs);
  console.table([abuse]);
  console.table([{ measurement: `upload: ten ${(uploads.bytesPerFile / 1e6).toFixed(2)} MB photos in one request`, ...uploads, goalMs: 300 }]);
  console.log(`${seconds} s per run, ${Math.round((performance.now() - started) / 1000)} s in all`);
  await mkdir(new URL('results/', import.meta.url), { recursive: true });
  await writeFile(new URL('results/images.json', import.meta.url), JSON.stringify({ at: new Date().toISOString(), seconds, machine, runs, abuse, uploads }, null, 2));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
