// What image delivery costs: a 1600 px JPEG (a demo photo, drawn by infra/demo-photos) asked for as
// a 400 px WebP through `GET /v1/image/{key}/-/resize/400x/-/format/webp`, 32 connections:
//   cached  the same variant again and again (served from memory; the store after a restart)
//   cold    a new variant every request (width 390..410 × quality 100..1: 2,100 distinct),
//           each one decoded, resized, encoded by sharp and kept in the object store
// beside a bare fastify route answering the same bytes from memory (what "a static file" costs).
// The server's peak resident memory is sampled every 20 ms during each run.
//   BENCH_SECONDS=10 (per run)   S3_ENDPOINT… to bench on S3 instead of the file store
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
import { pathToFileURL } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { createLogger } from '../api/logging.js';
import { buildServiceApi } from '../app/api.js';
import { executeCommand } from '../app/cli/execute.js';
import { openPlatform, type Platform } from '../app/platform.js';
import { generateDemoCatalogue } from '../domain/demo-catalogue/generate.js';
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
  requests: { average: number };
  latency: { p50: number; p90: number; p97_5: number; p99: number };
  non2xx: number;
  errors: number;
}

/**
 * autocannon in its own process, so the load does not share the server's event loop. `paths` is
 * the body of a function of the request number returning the path to ask for.
 */
export function autocannon(base: string, seconds: number, paths: string, options: { method?: string; body?: string; headers?: Record<string, string> } = {}): Promise<CannonResult> {
  const script = `
    const autocannon = (await import(${JSON.stringify(pathToFileURL(autocannonPath).href)})).default;
    const pathOf = (n) => { ${paths} };
    let n = 0;
    const result = await autocannon({
      url: ${JSON.stringify(base)}, connections: 32, duration: ${seconds},
      method: ${JSON.stringify(options.method ?? 'GET')}, headers: ${JSON.stringify(options.headers ?? {})},
      ${options.body === undefined ? '' : `body: ${JSON.stringify(options.body)},`}
      requests: [{ setupRequest: (request) => ({ ...request, path: pathOf(n++) }) }],
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

export async function imageRuns(service: BenchService, seconds: number): Promise<Run[]> {
  const photo = await benchPhoto();
  const key = `images/${randomUUID()}.jpeg`;
  await service.platform.objects.put(key, photo, { contentType: 'image/jpeg' });
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
    // Every request a variant never made before: 21 widths × 100 qualities.
    const cold = `return ${JSON.stringify(`/v1/image/${key}/-/resize/`)} + (390 + (n % 21)) + 'x/-/format/webp/-/quality/' + (100 - (Math.floor(n / 21) % 100));`;
    runs.push(await measure('cold: a new 400 px WebP variant each request', () => autocannon(service.url, seconds, cold)));
    // Less the one variant of the cached run.
    const made = (await service.platform.objects.list(`variants/${key}/`)).length - 1;
    runs[runs.length - 1]!.case += ` (${made} made)`;
    return runs;
  } finally {
    await bare.close();
  }
}

async function main(): Promise<void> {
  const seconds = Number(process.env.BENCH_SECONDS) || 10;
  const service = await startBenchService();
  let runs: Run[];
  let uploads: UploadTiming;
  try {
    runs = await imageRuns(service, seconds);
    // Ten photo-sized JPEGs in one request, one request at a time (goal ≤ 300 ms).
    uploads = await measureUploads(service.url, service.organization.privateKey, { requests: Number(process.env.BENCH_UPLOAD_REQUESTS) || 20 });
  } finally {
    await service.close();
  }
  const machine = `${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? 'unknown'}), Node ${process.versions.node}, ${service.platform.objects.kind} store`;
  console.log(machine);
  console.table(runs);
  console.table([{ measurement: `upload: ten ${(uploads.bytesPerFile / 1e6).toFixed(2)} MB photos in one request`, ...uploads, goalMs: 300 }]);
  await mkdir(new URL('results/', import.meta.url), { recursive: true });
  await writeFile(new URL('results/images.json', import.meta.url), JSON.stringify({ at: new Date().toISOString(), seconds, machine, runs, uploads }, null, 2));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
