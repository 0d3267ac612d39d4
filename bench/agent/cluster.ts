// The service as the agent benchmark runs it, on the production path: a fresh database on the
// Postgres server (dropped after) and a random NATS prefix (its streams deleted after). This
// process runs the API (with the turn relay), the projections and the ingest worker that loads the
// catalogue; agent turns run in separate `stylist serve --role agent` child processes on the same
// database and prefix, so every turn crosses JetStream (the turn) and a NATS subject (its events).
// One organization on the unlimited plan; its public key is what the shoppers chat with.
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger } from '../../api/logging.js';
import { buildServiceApi } from '../../app/api.js';
import { openPlatform } from '../../app/platform.js';
import { startWorkers } from '../../app/workers.js';
import { loadConfig } from '../../infra/config/config.js';
import { deleteStreams } from '../../test/support/nats.js';
import { startWorkerProcess, stopWorkerProcess, type WorkerProcess } from '../../test/support/worker-processes.js';
import { openPostgresBackend } from '../eventstore.js';
import { benchOrganization, type SearchBenchService } from '../search/service.js';

export interface AgentBenchService extends SearchBenchService {
  natsUrl: string;
  natsPrefix: string;
  /** `stylist serve --role agent` processes running now. */
  agentWorkers: WorkerProcess[];
  /**
   * Starts one more agent worker process; resolves once it says it is running. With `profilePrefix`
   * it profiles its CPU and writes `<profilePrefix>-<n>.cpuprofile` at each SIGUSR2 (cpu-profile-preload.mjs).
   */
  startAgentWorker(profilePrefix?: string): Promise<WorkerProcess>;
}

const SECRET = 's'.repeat(40);
const PROFILE_PRELOAD = fileURLToPath(new URL('cpu-profile-preload.mjs', import.meta.url));

/** The agent settings both sides read, from the bench's environment where it sets them (else the service's defaults). */
function agentEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ['AGENT_CONCURRENCY', 'AGENT_MAX_PER_ORGANIZATION', 'STYLIST_CHAT_MODEL', 'OPENAI_BASE_URL', 'OPENAI_API_KEY']) {
    const value = process.env[name];
    if (value) env[name] = value;
  }
  return env;
}

export async function startAgentBenchService(natsUrl: string): Promise<AgentBenchService> {
  const backend = await openPostgresBackend();
  if (!backend.url) {
    await backend.dispose();
    throw new Error('the Postgres server would not create a database for the bench (only a schema): agent worker processes need a database URL of their own');
  }
  const dataDir = await mkdtemp(path.join(tmpdir(), 'stylist-bench-agent-'));
  const natsPrefix = `bench${randomBytes(4).toString('hex')}`;
  const shared = { NATS_URL: natsUrl, NATS_PREFIX: natsPrefix, STYLIST_SECRET: SECRET, ...agentEnv() };
  const logger = createLogger({ level: (process.env.LOG_LEVEL as 'error') || 'silent' });
  const platform = await openPlatform(loadConfig({ ...shared, DATA_DIR: path.join(dataDir, 'api'), LOG_LEVEL: 'silent' }), logger, { database: backend.database });
  const agentWorkers: WorkerProcess[] = [];
  const cleanups: Array<() => Promise<unknown>> = [() => platform.close()];
  const close = async () => {
    await Promise.all(agentWorkers.map((worker) => stopWorkerProcess(worker)));
    for (const cleanup of cleanups) await cleanup().catch((error: Error) => console.error(`bench/agent.ts: cleanup: ${error.message}`));
    await backend.dispose();
    await deleteStreams(natsUrl, `${natsPrefix}_`).catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await platform.projections.start();
    const app = await buildServiceApi(platform);
    cleanups.unshift(() => app.close());
    // The ingest worker loads the catalogue; this process runs no agent worker, so every turn crosses NATS.
    const workers = await startWorkers(platform, ['ingest'], logger);
    cleanups.unshift(() => workers.stop());
    const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
    const organization = await benchOrganization(platform, baseUrl, 'Agent Bench');
    const startAgentWorker = async (profilePrefix?: string) => {
      const n = agentWorkers.length + 1;
      const workerDir = path.join(dataDir, `agent-${n}`);
      await mkdir(workerDir, { recursive: true });
      const worker = await startWorkerProcess(`agent ${n}`, 'agent', { ...shared, DATABASE_URL: backend.url!, DATA_DIR: workerDir, ...(profilePrefix ? { NODE_OPTIONS: `--import=${PROFILE_PRELOAD}`, BENCH_PROFILE_PREFIX: profilePrefix } : {}) });
      agentWorkers.push(worker);
      return worker;
    };
    return { backend, platform, baseUrl, dataDir, ...organization, close, natsUrl, natsPrefix, agentWorkers, startAgentWorker };
  } catch (error) {
    await close();
    throw error;
  }
}
