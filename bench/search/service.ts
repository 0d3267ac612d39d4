// The service as the search benchmarks run it: API listening on 127.0.0.1, projections and the
// ingest worker in this process (in-process queue, or NATS JetStream when NATS_URL is set), offline
// models; one organization on the unlimited plan; store datasets filled through the upload route
// and waited on until every item is processed.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLogger } from '../../api/logging.js';
import { buildServiceApi } from '../../app/api.js';
import { executeCommand } from '../../app/cli/execute.js';
import { openPlatform, type Platform } from '../../app/platform.js';
import { startWorkers } from '../../app/workers.js';
import { loadConfig } from '../../infra/config/config.js';
import { deleteStreams } from '../../test/support/nats.js';
import { openPgliteBackend, openPostgresBackend, type BenchBackend } from '../eventstore.js';

/** The upload route takes at most this many entries. */
export const UPLOAD_BATCH = 1000;

export interface SearchBenchService {
  backend: BenchBackend;
  platform: Platform;
  /** http://127.0.0.1:PORT */
  baseUrl: string;
  /** Its DATA_DIR: the object store (files) where its search memory saves its copies. */
  dataDir: string;
  privateKey: string;
  publicKey: string;
  organizationId: string;
  /** A CLI command as `stylist …` would run it; throws with its error. */
  cli(argv: string[]): Promise<Record<string, any>>;
  /** A private-key call to the service; throws unless the status is `expect`. */
  call(method: string, url: string, body: unknown, expect: number): Promise<any>;
  close(): Promise<void>;
}

export interface StoreDataset {
  name: string;
  storeUrl: string;
  currency: string;
}

export type BackendKind = 'pglite' | 'postgres';

/**
 * The search memory's budget in the benchmarks' processes: room for 100,000 items (about 600 MB)
 * and more, so a search bench measures searching, not a too-small budget dropping and reloading
 * datasets (at the default 512 MB, 100,000 items in seven datasets did that on every search).
 */
export const BENCH_SEARCH_MEMORY_MB = process.env.SEARCH_MEMORY_MB ?? '2048';

/** The keys of an organization a kept bench database already holds (BENCH_KEEP). */
export type BenchKeys = Pick<SearchBenchService, 'privateKey' | 'publicKey' | 'organizationId'>;

/**
 * `roles`: the worker roles this process runs beside the API (the agent benchmarks add `agent`).
 * `kept`: a Postgres database kept between runs, and the keys of its organization when it has one.
 */
export async function startSearchService(kind: BackendKind, roles: readonly string[] = ['ingest'], kept?: { database: string; keys: BenchKeys | null }): Promise<SearchBenchService> {
  const backend = kind === 'postgres' ? await openPostgresBackend(undefined, undefined, undefined, kept?.database) : await openPgliteBackend();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'stylist-bench-search-'));
  const env: Record<string, string> = { DATA_DIR: dataDir, STYLIST_SECRET: 's'.repeat(40), LOG_LEVEL: 'silent', SEARCH_MEMORY_MB: BENCH_SEARCH_MEMORY_MB };
  if (kind === 'postgres' && process.env.NATS_URL) {
    env.NATS_URL = process.env.NATS_URL;
    env.NATS_PREFIX = `bench${randomBytes(4).toString('hex')}`;
  }
  const logger = createLogger({ level: (process.env.LOG_LEVEL as 'error') || 'silent' });
  const platform = await openPlatform(loadConfig(env), logger, { database: backend.database });
  await platform.projections.start();
  const app = await buildServiceApi(platform);
  const workers = await startWorkers(platform, roles, logger);
  const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  const close = async () => {
    await app.close();
    await workers.stop();
    await platform.close();
    await backend.dispose();
    await rm(dataDir, { recursive: true, force: true });
    if (env.NATS_PREFIX) await deleteStreams(env.NATS_URL!, `${env.NATS_PREFIX}_`);
  };
  try {
    const organization = kept?.keys ? organizationCalls(platform, baseUrl, kept.keys) : await benchOrganization(platform, baseUrl, 'Search Bench');
    return { backend, platform, baseUrl, dataDir, ...organization, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** What a bench service gives to talk to it as its organization: the keys, the CLI, private-key calls. */
export type BenchOrganization = Pick<SearchBenchService, 'privateKey' | 'publicKey' | 'organizationId' | 'cli' | 'call'>;

/**
 * The bench's organization, created as `stylist org create` would on the unlimited plan (no
 * quota stops a benchmark), on the service `platform` runs and that listens at `baseUrl`.
 */
export async function benchOrganization(platform: Platform, baseUrl: string, name: string): Promise<BenchOrganization> {
  const org = await runCli(platform, ['org', 'create', '--name', name, '--plan', 'unlimited']);
  return organizationCalls(platform, baseUrl, { privateKey: org.privateKey, publicKey: org.publicKey, organizationId: org.organizationId });
}

async function runCli(platform: Platform, argv: string[]): Promise<Record<string, any>> {
  const answer = await executeCommand(platform, [...argv, '--json']);
  if (!answer.ok) throw new Error(`stylist ${argv.join(' ')}: ${answer.error}`);
  return answer.result as Record<string, any>;
}

/** Calls to the service as the organization these keys are of. */
function organizationCalls(platform: Platform, baseUrl: string, keys: BenchKeys): BenchOrganization {
  const { privateKey } = keys;
  const cli = (argv: string[]) => runCli(platform, argv);
  const call = async (method: string, url: string, body: unknown, expect: number) => {
    const response = await fetch(`${baseUrl}${url}`, {
      method,
      headers: { authorization: `Bearer ${privateKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status !== expect) throw new Error(`${method} ${url}: ${response.status} ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : null;
  };
  return { ...keys, cli, call };
}

/** A new active dataset for one store; its storeDomain is the storeUrl's host. */
export async function createStoreDataset(service: SearchBenchService, store: StoreDataset): Promise<string> {
  const config = { storeUrl: store.storeUrl, storeDomain: new URL(store.storeUrl).host, currency: store.currency };
  const created = await service.call('POST', '/v1/datasets', { name: store.name, config }, 201);
  await service.call('PATCH', `/v1/datasets/${created.datasetId}/activate`, undefined, 200);
  return created.datasetId as string;
}

export interface UploadReport {
  /** Distinct skus queued (an unchanged product is not). */
  queued: number;
  failures: Array<{ index: number; sku: string; error: string }>;
  /** Milliseconds per upload request. */
  requestsMs: number[];
}

/** Products of a store's products.json, in requests of at most 1,000. */
export async function uploadProducts(service: SearchBenchService, datasetId: string, products: readonly object[]): Promise<UploadReport> {
  const report: UploadReport = { queued: 0, failures: [], requestsMs: [] };
  for (let start = 0; start < products.length; start += UPLOAD_BATCH) {
    const started = performance.now();
    const answer = await service.call('POST', `/v1/datasets/${datasetId}/items/upload`, { products: products.slice(start, start + UPLOAD_BATCH) }, 202);
    report.requestsMs.push(performance.now() - started);
    report.queued += answer.summary.queued;
    report.failures.push(...answer.failures.map((f: UploadReport['failures'][number]) => ({ ...f, index: f.index + start })));
  }
  return report;
}

export interface DatasetCounts {
  active: number;
  archived: number;
  pending: number;
  processing: number;
  failed: number;
}

export const datasetCounts = async (service: SearchBenchService, datasetId: string): Promise<DatasetCounts> =>
  (await service.call('GET', `/v1/datasets/${datasetId}`, undefined, 200)).dataset.items;

/**
 * Waits until nothing is pending or processing in these datasets and each holds at least the
 * number of items expected (active, archived or failed); returns their counts. Calls `progress`
 * every few seconds with items done so far.
 */
export async function waitProcessed(
  service: SearchBenchService,
  expected: ReadonlyMap<string, number>,
  progress: (done: number, total: number) => void = () => {},
  timeoutMs = 3_600_000,
): Promise<Map<string, DatasetCounts>> {
  const total = [...expected.values()].reduce((a, b) => a + b, 0);
  const deadline = Date.now() + timeoutMs;
  let lastReport = Date.now();
  for (;;) {
    const counts = new Map<string, DatasetCounts>();
    for (const id of expected.keys()) counts.set(id, await datasetCounts(service, id));
    const done = [...counts.values()].reduce((sum, c) => sum + c.active + c.archived + c.failed, 0);
    const settled = [...counts].every(([id, c]) => !c.pending && !c.processing && c.active + c.archived + c.failed >= expected.get(id)!);
    if (settled) return counts;
    if (Date.now() > deadline) throw new Error(`items still not processed after ${timeoutMs / 1000} s: ${done} of ${total}`);
    if (Date.now() - lastReport > 5000) {
      progress(done, total);
      lastReport = Date.now();
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
