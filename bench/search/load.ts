// The load of the search performance benchmark, run in a process of its own so the clients do not
// share the service's event loop: `clients` concurrent shoppers over keep-alive connections (an
// undici Pool with one connection each), each sending the next body of the mix as soon as the
// previous answer is read, for a warm-up and then a measured window. Prints one JSON line.
//   node --import tsx bench/search/load.ts CONFIG.json
// where CONFIG.json is a LoadConfig. `runLoad` spawns it and parses the line (bench/shared/child-process.ts).
import { Pool } from 'undici';
import { childProcessMain, runInChildProcess } from '../shared/child-process.js';
import type { SearchBody } from './client.js';

export interface LoadConfig {
  baseUrl: string;
  /** More API processes of the same service (as behind a load balancer): client c talks to the (c mod n)-th of baseUrl and these. */
  moreBaseUrls?: string[];
  publicKey: string;
  bodies: SearchBody[];
  clients: number;
  warmupSeconds: number;
  seconds: number;
  /** A path to GET instead of the searches (`/healthz`: the bare server, the baseline of the same run). */
  get?: string;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** Answers other than 200 in the measured window, by status (0: the request itself failed). */
  errors: Record<string, number>;
  firstError: string | null;
}

/** The value at quantile q (0..1) of sorted numbers, nearest rank. */
export function quantile(sorted: readonly number[], q: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

async function generate(config: LoadConfig): Promise<LoadResult> {
  const urls = [config.baseUrl, ...(config.moreBaseUrls ?? [])];
  const pools = urls.map((url) => new Pool(url, { connections: Math.ceil(config.clients / urls.length), pipelining: 1, keepAliveTimeout: 60_000 }));
  const headers = { authorization: `Bearer ${config.publicKey}`, 'content-type': 'application/json' };
  const payloads = config.bodies.map((body) => JSON.stringify(body));
  const latencies: number[] = [];
  const errors: Record<string, number> = {};
  let firstError: string | null = null;
  const start = performance.now();
  const measureFrom = start + config.warmupSeconds * 1000;
  const end = measureFrom + config.seconds * 1000;
  const client = async (c: number) => {
    for (let n = c * 7919; performance.now() < end; n++) {
      const body = payloads[n % payloads.length]!;
      const sent = performance.now();
      let status = 0;
      let text: string;
      try {
        const response = await pools[c % pools.length]!.request(config.get ? { path: config.get, method: 'GET' } : { path: '/v1/search', method: 'POST', headers, body });
        status = response.statusCode;
        text = await response.body.text();
      } catch (error) {
        text = String(error);
      }
      const done = performance.now();
      if (sent < measureFrom || done > end) continue;
      if (status === 200) latencies.push(done - sent);
      else {
        errors[status] = (errors[status] ?? 0) + 1;
        firstError ??= `${status} ${text.slice(0, 300)} (body ${body.slice(0, 200)})`;
      }
    }
  };
  await Promise.all(Array.from({ length: config.clients }, (_, c) => client(c)));
  await Promise.all(pools.map((pool) => pool.close()));
  latencies.sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 100) / 100;
  const requests = latencies.length + Object.values(errors).reduce((a, b) => a + b, 0);
  return {
    requests,
    seconds: config.seconds,
    requestsPerSecond: Math.round(requests / config.seconds),
    p50: round(quantile(latencies, 0.5)),
    p95: round(quantile(latencies, 0.95)),
    p99: round(quantile(latencies, 0.99)),
    max: round(latencies.at(-1) ?? NaN),
    errors,
    firstError,
  };
}

/** Runs the load in a child process (config passed in a file) and returns what it measured. */
export function runLoad(configFile: string): Promise<LoadResult> {
  return runInChildProcess<LoadResult>(import.meta.url, configFile, 'the load process');
}

await childProcessMain(import.meta.url, generate);
