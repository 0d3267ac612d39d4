// The stylist agent, POST /v2/agent/chat, on the production path: Postgres + NATS, the offline
// model (STYLIST_CHAT_MODEL unset), a catalogue of BENCH_ITEMS (10,000) items, the turns run by a
// `stylist serve --role agent` process of their own. This process runs the API with the turn relay,
// the projections and the ingest worker (bench/agent/cluster.ts); the shoppers run in a third
// process (bench/agent/shoppers.ts) over real sockets. Goals (the issue):
//   one shopper at a time, p95:  first event ≤ 50 ms, first `search_results` ≤ 250 ms, whole turn ≤ 400 ms;
//                                POST /v1/chat (the v1 adapter over the same turn): its first text
//                                within 50 ms of v2's, at p50 and p95;
//   20 concurrent shoppers:      turns/s and the same p95s; no event lost or reordered; the relay
//                                through NATS (worker → API, per frame) ≤ 5 ms p95.
// Steps, all in one run (ratios within a run are what to compare: the machine is shared):
//   - the catalogue: the fixture feeds replicated (bench/search/catalogue.ts), one dataset per feed,
//     uploaded through the upload route and waited on until processed, as bench/search.ts does
//     (10,000 items: about 1.5 minutes on 2 cores, progress printed);
//   - the agent worker process started; the baselines: the bare NATS hop (an idle publisher → this
//     process, bench/agent/nats-probe.ts, kept running through every phase) and GET /healthz with
//     autocannon, one connection then BENCH_CONCURRENCY;
//   - one shopper: BENCH_WARMUP_TURNS (10; the first loads the worker's search memory) then
//     BENCH_TURNS (150) turns one at a time, the conversations of bench/agent/conversations.ts in
//     turn (two-turn ones send the first turn's history back); then the same for POST /v1/chat,
//     `stream: true` (two-turn ones send the first turn's chatId; a store's site, its dataset);
//   - BENCH_CONCURRENCY (20) shoppers in a closed loop: BENCH_WARMUP_SECONDS (5) then
//     BENCH_SECONDS (45), /healthz probed meanwhile;
//   - with BENCH_AGENT_WORKERS=2, a second agent process, warmed until it has served turns, and the
//     concurrent run again.
// Every turn's stream is checked (bench/agent/stream-check.ts). After each phase: the relay's hop
// times from `platform.relay.hopTimes()` and the turn's stages on this process's clock
// (bench/agent/relay-hops.ts), and the CPU each process used (bench/agent/cpu.ts), to say what
// bounds each figure. Tables and verdicts: bench/agent/report.ts; JSON in bench/results/agent.json.
// After loading, a run takes about 3 minutes (4 with two agent processes).
//   node --import tsx bench/agent.ts            (or npm run bench -- agent)
//   BENCH_ITEMS=10000  BENCH_TURNS=150  BENCH_WARMUP_TURNS=10  BENCH_CONCURRENCY=20  BENCH_SECONDS=45
//   BENCH_WARMUP_SECONDS=5  BENCH_HEALTHZ_SECONDS=5  BENCH_AGENT_WORKERS=1|2
//   BENCH_CPU_PROFILE=DIR  CPU profiles per phase of this process and of each agent worker process
//                          (node --import tsx bench/search/profile-summary.ts FILE)
//   AGENT_CONCURRENCY, AGENT_MAX_PER_ORGANIZATION  (passed to both sides; else the service's defaults, 16 and 8)
//   DATABASE_URL=postgres://… (the server; default postgres://postgres@127.0.0.1:5432/postgres)  NATS_URL=nats://… (default nats://127.0.0.1:4222)
//   BENCH_BACKEND other than postgres, no Postgres or NATS server, or no fixture feeds: skipped with a notice.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { connect } from '@nats-io/transport-node';
import pg from 'pg';
import { startAgentBenchService, type AgentBenchService } from './agent/cluster.js';
import { cpuSnapshot, cpuUse } from './agent/cpu.js';
import { startNatsProbe, type NatsProbe } from './agent/nats-probe.js';
import { BENCH_CONVERSATIONS } from './agent/conversations.js';
import { watchRelay, type RelayWatch } from './agent/relay-hops.js';
import { GOALS, printTables, verdicts, type HealthzRun, type Phase, type Report } from './agent/report.js';
import { quantiles, runShoppers, type ShoppersConfig } from './agent/shoppers.js';
import { DEFAULT_URL } from './eventstore.js';
import { loadCatalogue } from './search.js';
import { FEED_STORES, FEEDS_DIR, missingFeeds, readFeed } from './search-quality/feeds.js';
import { FEEDS } from './search-quality/queries.js';
import { startCpuProfile } from './shared/profile.js';

const env = (name: string, fallback: number) => (process.env[name] === undefined || process.env[name] === '' ? fallback : Number(process.env[name]));


const autocannonBin = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

/** GET /healthz with autocannon in its own process: the bare server, beside the turns. */
function healthz(baseUrl: string, connections: number, seconds: number): Promise<HealthzRun> {
  const args = [autocannonBin, '-c', String(connections), '-d', String(seconds), '-j', `${baseUrl}/healthz`];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited with ${code}`));
      const result = JSON.parse(out) as { requests: { average: number }; latency: { p50: number; p97_5: number; p99: number }; non2xx: number };
      resolve({ connections, requestsPerSecond: Math.round(result.requests.average), p50: result.latency.p50, p97_5: result.latency.p97_5, p99: result.latency.p99, non2xx: result.non2xx });
    });
  });
}

async function machine(): Promise<string> {
  const cpus = os.cpus();
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL || DEFAULT_URL });
  await client.connect();
  const server = `Postgres ${(await client.query('show server_version')).rows[0].server_version}`;
  await client.end();
  const load = os.loadavg().map((n) => n.toFixed(1)).join(' ');
  return `${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}, ${server}, NATS; load average at start ${load}`;
}

/** Null (and why) when the servers this bench needs are not there. */
async function missingServers(natsUrl: string): Promise<string | null> {
  if ((process.env.BENCH_BACKEND || 'postgres') !== 'postgres') return `BENCH_BACKEND=${process.env.BENCH_BACKEND}: this bench runs the agent in a process of its own, which needs Postgres and NATS`;
  try {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL || DEFAULT_URL });
    await client.connect();
    await client.end();
  } catch (error) {
    return `no Postgres server at DATABASE_URL (${(error as Error).message})`;
  }
  try {
    const nc = await connect({ servers: natsUrl, reconnect: false, timeout: 3000 });
    await nc.close();
  } catch (error) {
    return `no NATS server at ${natsUrl} (${(error as Error).message})`;
  }
  return null;
}

interface Watchers {
  relay: RelayWatch;
  probe: NatsProbe;
  profileDir: string | null;
}

/** Signal counts sent to each profiled worker (its n-th SIGUSR2 writes its n-th file). */
const profileSignals = new Map<number, number>();

/** Brackets a phase in a profiled agent worker: a SIGUSR2 now ends its previous profile, one at `stop` writes this phase's. */
async function workerProfile(worker: AgentBenchService['agentWorkers'][number], profileDir: string): Promise<{ stop(file: string): Promise<void> }> {
  const signal = async () => {
    const n = (profileSignals.get(worker.pid) ?? 0) + 1;
    profileSignals.set(worker.pid, n);
    worker.process.kill('SIGUSR2');
    const written = path.join(profileDir, `agent-worker-${worker.name.split(' ').at(-1)}-${n}.cpuprofile`);
    for (let waited = 0; waited < 30_000 && !(await stat(written).catch(() => null)); waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    return written;
  };
  await rm(await signal(), { force: true });
  return {
    async stop(file) {
      await rename(await signal(), file);
      console.error(`  CPU profile of ${worker.name} written to ${file}`);
    },
  };
}

async function phase(name: string, service: AgentBenchService, { relay, probe, profileDir }: Watchers, workDir: string, config: ShoppersConfig): Promise<Phase> {
  const slug = name.replace(/\W+/g, '-');
  const file = path.join(workDir, `${slug}.json`);
  await writeFile(file, JSON.stringify(config));
  console.error(`  ${name}: ${config.mode === 'sequential' ? `${config.warmupTurns} warm-up turns, then ${config.turns} one at a time` : `${config.concurrency} shoppers, ${config.warmupSeconds} s warm-up + ${config.seconds} s`}`);
  relay.begin();
  probe.take();
  const cpuBefore = cpuSnapshot(service.agentWorkers.map((w) => w.pid));
  // This process's profile: the API, the relay and the projections.
  const profiling = profileDir ? await startCpuProfile('the API process') : null;
  const workerProfiles = profileDir ? await Promise.all(service.agentWorkers.map((worker) => workerProfile(worker, profileDir))) : [];
  const shoppers = await runShoppers(file);
  if (profiling) await profiling.stop(path.join(profileDir!, `api-${slug}.cpuprofile`));
  for (const [i, profile] of workerProfiles.entries()) await profile.stop(path.join(profileDir!, `agent-worker-${i + 1}-${slug}.cpuprofile`));
  const hops = relay.end();
  const cpu = cpuUse(cpuBefore, cpuSnapshot(service.agentWorkers.map((w) => w.pid)));
  const natsProbe = quantiles(probe.take());
  const dead = service.agentWorkers.find((worker) => worker.process.exitCode !== null);
  if (dead) throw new Error(`${dead.name} exited during ${name}\n${dead.tail.join('\n')}`);
  console.error(`    ${JSON.stringify({ turns: shoppers.turns, turnsPerSecond: shoppers.turnsPerSecond, firstEvent: shoppers.firstEvent, firstText: shoppers.firstText, firstResults: shoppers.firstResults, whole: shoppers.whole, outcomes: shoppers.outcomes, lost: shoppers.lostTurns, reordered: shoppers.reorderedTurns, history: shoppers.historyTurns })}`);
  console.error(`    relay: ${JSON.stringify(hops)}`);
  console.error(`    bare NATS hop: ${JSON.stringify(natsProbe)}`);
  console.error(`    CPU: ${JSON.stringify(cpu)}`);
  for (const problem of shoppers.problems.slice(0, 5)) console.error(`    ${problem}`);
  return { name, agentProcesses: service.agentWorkers.length, shoppers, relay: hops, natsProbe, cpu };
}

/**
 * Turns until every agent worker process has ended a few: each loads its search memory on its
 * first turn (seconds at 10,000 items), which is not what a phase measures. Turns go to whichever
 * process pulls them, so the shoppers run in short rounds until each process has had its share.
 */
async function warmWorkers(service: AgentBenchService, { relay }: Watchers, workDir: string, config: ShoppersConfig): Promise<void> {
  const file = path.join(workDir, 'warm-up.json');
  await writeFile(file, JSON.stringify(config));
  const cold = () => service.agentWorkers.filter((worker) => (relay.turnsByWorker().get(`${os.hostname()}:${worker.pid}`) ?? 0) < 5);
  for (let round = 1; round <= 10 && cold().length; round++) {
    await runShoppers(file);
    console.error(`  warm-up round ${round}: turns by worker ${JSON.stringify(Object.fromEntries(relay.turnsByWorker()))}`);
  }
  if (cold().length) console.error(`  ${cold().map((w) => w.name).join(', ')} took too few turns in the warm-up; measuring anyway`);
}

async function main(): Promise<void> {
  const missing = missingFeeds();
  if (missing.length) {
    console.log(`bench/agent.ts: SKIPPED, the fixture feeds are not in ${FEEDS_DIR} (missing: ${missing.join(', ')}).`);
    return;
  }
  const natsUrl = process.env.NATS_URL || 'nats://127.0.0.1:4222';
  const absent = await missingServers(natsUrl);
  if (absent) {
    console.log(`bench/agent.ts: SKIPPED, ${absent}.`);
    return;
  }
  const items = env('BENCH_ITEMS', 10_000);
  const concurrency = env('BENCH_CONCURRENCY', 20);
  const agentProcesses = Math.max(1, Math.min(2, env('BENCH_AGENT_WORKERS', 1)));
  const profileDir = process.env.BENCH_CPU_PROFILE ? path.resolve(process.env.BENCH_CPU_PROFILE) : null;
  if (profileDir) await mkdir(profileDir, { recursive: true });
  const header = await machine();
  const service = await startAgentBenchService(natsUrl);
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'stylist-bench-agent-shoppers-'));
  const relay = watchRelay(service.platform.channel, () => service.platform.relay);
  let probe: NatsProbe | null = null;
  const report: Report = {
    at: new Date().toISOString(),
    machine: header,
    items,
    loading: null,
    model: service.platform.config.openai?.chatModel ?? 'offline-stylist',
    agent: { concurrencyPerProcess: service.platform.config.agent.concurrency, maxPerOrganization: service.platform.config.agent.maxPerOrganization },
    goals: GOALS,
    healthz: [],
    natsProbeIdle: null,
    phases: [],
    verdicts: [],
  };
  try {
    console.error(`\n${items} items on ${service.backend.label}, NATS ${natsUrl} (prefix ${service.natsPrefix})`);
    const pools = new Map(FEEDS.map((feed) => [feed, readFeed(feed)]));
    const catalogue = await loadCatalogue(service, pools, items);
    report.loading = catalogue.loading;
    const storeDatasets = Object.fromEntries([...catalogue.datasets].map(([feed, datasetId]) => [new URL(FEED_STORES[feed]!.storeUrl).origin, datasetId]));

    const profilePrefix = (n: number) => (profileDir ? path.join(profileDir, `agent-worker-${n}`) : undefined);
    const worker = await service.startAgentWorker(profilePrefix(1));
    console.error(`  agent worker process started (pid ${worker.pid})`);

    probe = await startNatsProbe(natsUrl, service.natsPrefix, relay.listenUnwatched);
    await new Promise((resolve) => setTimeout(resolve, 5000));
    report.natsProbeIdle = quantiles(probe.take());
    console.error(`  bare NATS hop, idle: ${JSON.stringify(report.natsProbeIdle)}`);
    const watchers = { relay, probe, profileDir };

    for (const connections of [1, concurrency]) {
      report.healthz.push(await healthz(service.baseUrl, connections, env('BENCH_HEALTHZ_SECONDS', 5)));
      console.error(`  /healthz, ${connections} connection(s): ${JSON.stringify(report.healthz.at(-1))}`);
    }

    const base = { baseUrl: service.baseUrl, publicKey: service.publicKey, conversations: [...BENCH_CONVERSATIONS] };
    const sequential: ShoppersConfig = { ...base, mode: 'sequential', warmupTurns: env('BENCH_WARMUP_TURNS', 10), turns: env('BENCH_TURNS', 150) };
    report.phases.push(await phase('one shopper', service, watchers, workDir, sequential));
    // The v1 row: the same conversations through POST /v1/chat, warmed up as well (its first turns
    // open the chat code paths). Each new conversation is a new chat: far under CHAT_MAX_PER_ORGANIZATION.
    report.phases.push(await phase('one shopper, v1', service, watchers, workDir, { ...sequential, api: 'v1', storeDatasets }));
    const concurrent: ShoppersConfig = { ...base, mode: 'concurrent', concurrency, warmupSeconds: env('BENCH_WARMUP_SECONDS', 5), seconds: env('BENCH_SECONDS', 45), probeHealthz: true };
    report.phases.push(await phase(`${concurrency} shoppers`, service, watchers, workDir, concurrent));
    if (agentProcesses === 2) {
      const second = await service.startAgentWorker(profilePrefix(2));
      console.error(`  second agent worker process started (pid ${second.pid})`);
      await warmWorkers(service, watchers, workDir, { ...concurrent, warmupSeconds: 0, seconds: 4, probeHealthz: false });
      report.phases.push(await phase(`${concurrency} shoppers, 2 agent processes`, service, watchers, workDir, concurrent));
    }
  } finally {
    await probe?.stop();
    await service.close();
    await rm(workDir, { recursive: true, force: true });
  }
  report.verdicts = verdicts(report.phases);
  printTables(report);
  if (profileDir) console.log(`\nCPU profiles in ${profileDir}: node --import tsx bench/search/profile-summary.ts FILE`);
  await mkdir(new URL('results/', import.meta.url), { recursive: true });
  await writeFile(new URL('results/agent.json', import.meta.url), JSON.stringify(report, null, 2));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();

