// What the gateway costs: requests/s and latency of an authenticated, metered
// `GET /v1/widget/presets` on the real service API against a bare fastify route running the same
// read-model query (and, for scale, one answering the same JSON from memory), in the same run.
// autocannon runs in a child process with 32 connections.
//   BENCH_SECONDS=10 (per run)  BENCH_BACKENDS=pglite,postgres  DATABASE_URL=postgres://…
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Fastify from 'fastify';
import { createLogger } from '../api/logging.js';
import { buildServiceApi } from '../app/api.js';
import { executeCommand } from '../app/cli/execute.js';
import { openPlatform } from '../app/platform.js';
import { loadConfig } from '../infra/config/config.js';
import { listWidgetPresets } from '../projections/queries/widget-presets.js';
import { openPgliteBackend, openPostgresBackend, type BenchBackend } from './eventstore.js';

interface Run {
  backend: string;
  target: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
}

const autocannonBin = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

/** autocannon in its own process, so the load generator does not share the server's event loop. */
function autocannon(url: string, headers: Record<string, string>, seconds: number): Promise<{ requests: { average: number }; latency: { p50: number; p99: number }; non2xx: number }> {
  const args = [autocannonBin, '-c', '32', '-d', String(seconds), '-j', ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]), url];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`autocannon exited with ${code}`))));
  });
}

async function benchBackend(backend: BenchBackend, seconds: number): Promise<Run[]> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'stylist-bench-gw-'));
  const config = loadConfig({ DATA_DIR: dataDir, STYLIST_SECRET: 'b'.repeat(40), LOG_LEVEL: 'silent' });
  const platform = await openPlatform(config, createLogger({ level: 'silent' }), { database: backend.database });
  await platform.projections.start();
  const app = await buildServiceApi(platform);
  const bare = Fastify();
  try {
    const cli = async (argv: string[]) => {
      const answer = await executeCommand(platform, argv);
      if (!answer.ok) throw new Error(answer.error);
      return answer.result as Record<string, string>;
    };
    const org = await cli(['org', 'create', '--name', 'Bench Boutique', '--json']);
    // Metered, with limits the run cannot reach: every request still counts quota and RPM.
    await cli(['plan', 'set', '--org', org.organizationId!, '--resource', 'api.v1.widget.presets.list', '--quota', '1000000000', '--rpm', '1000000000']);
    const authorization = `Bearer ${org.privateKey}`;
    // The same organization's presets through a key on an unlimited plan with no RPM: the gateway
    // without counters, to tell authentication from metering.
    const unmetered = await cli(['org', 'create', '--name', 'Bench Unmetered', '--plan', 'unlimited', '--json']);
    const colours = Object.fromEntries(
      ['buttonColor', 'buttonHoverColor', 'buttonTextColor', 'typingDotColor', 'accentColor', 'accentHoverColor', 'mutedTextColor', 'primaryTextColor', 'pageColor', 'surfaceColor', 'borderColor', 'inputColor', 'footerColor'].map((k) => [k, '#336699']),
    );
    for (const key of [org.privateKey, unmetered.privateKey]) {
      for (const name of ['Light', 'Dark', 'Holiday']) {
        const created = await app.inject({ method: 'POST', url: '/v1/widget/presets', headers: { authorization: `Bearer ${key}` }, payload: { name, buttonLabel: 'Ask a stylist', ...colours } });
        if (created.statusCode !== 201) throw new Error(`creating a preset: ${created.statusCode} ${created.body}`);
      }
    }
    const list = await app.inject({ url: '/v1/widget/presets', headers: { authorization } });
    if (list.statusCode !== 200) throw new Error(`listing presets: ${list.statusCode} ${list.body}`);
    const body = list.json();
    // Two baselines: the same JSON from memory, and the same query without the gateway in front,
    // so the ratio shows what authentication and metering add to the endpoint.
    bare.get('/static/presets', async () => body);
    bare.get('/v1/widget/presets', async () => ({ presets: await listWidgetPresets(platform.database.db, org.organizationId!) }));

    const gatewayUrl = await app.listen({ port: 0, host: '127.0.0.1' });
    const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });
    const runs: Run[] = [];
    const measure = async (target: string, url: string, headers: Record<string, string>) => {
      await autocannon(url, headers, 2); // warm-up: JIT, pools, caches
      const result = await autocannon(url, headers, seconds);
      runs.push({ backend: backend.kind, target, requestsPerSecond: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx });
    };
    await measure('bare route, static JSON', `${bareUrl}/static/presets`, {});
    await measure('bare fastify route', `${bareUrl}/v1/widget/presets`, {});
    await measure('gateway: key + metering + query', `${gatewayUrl}/v1/widget/presets`, { authorization });
    await measure('gateway, unlimited plan (no counters)', `${gatewayUrl}/v1/widget/presets`, { authorization: `Bearer ${unmetered.privateKey}` });
    return runs;
  } finally {
    await bare.close();
    await app.close();
    await platform.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const seconds = Number(process.env.BENCH_SECONDS) || 10;
  const backends = (process.env.BENCH_BACKENDS || 'pglite,postgres').split(',');
  const runs: Run[] = [];
  for (const kind of backends) {
    const backend = kind === 'postgres' ? await openPostgresBackend() : await openPgliteBackend();
    try {
      runs.push(...(await benchBackend(backend, seconds)));
    } finally {
      await backend.dispose();
    }
  }
  const table = runs.map((run) => {
    const bare = runs.find((r) => r.backend === run.backend && r.target === 'bare fastify route')!;
    return { ...run, 'share of bare': `${Math.round((run.requestsPerSecond / bare.requestsPerSecond) * 100)}%` };
  });
  console.table(table);
  await mkdir(new URL('results/', import.meta.url), { recursive: true });
  await writeFile(new URL('results/gateway.json', import.meta.url), JSON.stringify({ at: new Date().toISOString(), seconds, runs: table }, null, 2));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
