// Operator commands for store sync: connect a store, list sources, start a sync, watch it
// (status, progress and the latest log entries) and cancel a pending one. They run the same
// commands as the HTTP API; the organization is named with --org as the CLI has no key.
import { createSource } from '../../commands/sources.js';
import { cancelSyncJob, requestSyncJob } from '../../commands/sync-jobs.js';
import { NotFound } from '../../domain/errors.js';
import { DEFAULT_SYNC_PERIOD, endpointField, SourceNotActive, syncPeriodField } from '../../domain/source/index.js';
import { getDataset } from '../../projections/queries/datasets.js';
import { getSource, listSources } from '../../projections/queries/sources.js';
import { getSyncJob, jobProgress, listSyncJobs, listSyncLogs, type SyncJob } from '../../projections/queries/sync.js';
import type { Platform } from '../platform.js';
import { follow } from './follow.js';
import { operator, required, settle, UsageError, type CommandSpec } from './spec.js';

const PROJECTIONS = ['data_sources'];

const sourceIds = async (platform: Platform, values: Record<string, unknown>) => {
  const ids = { organizationId: required(values, 'org'), datasetId: required(values, 'dataset'), sourceId: required(values, 'source') };
  if (!(await getSource(platform.database.db, ids.organizationId, ids.datasetId, ids.sourceId))) throw new NotFound(`Data source not found: ${ids.sourceId}`);
  return ids;
};

const jobLine = (job: SyncJob): string => {
  const stats = job.result.stats;
  const counts = stats ? ` retrieved ${stats.retrieved}, added ${stats.added}, updated ${stats.updated}, archived ${stats.archived}, failed ${stats.failed}` : '';
  return `${job.jobId}  ${job.status.padEnd(10)} ${job.createdAt}${counts}${job.result.error ? `  error: ${job.result.error}` : ''}`;
};

const ids = { org: { type: 'string' }, dataset: { type: 'string' }, source: { type: 'string' } } as const;

export const syncCommands: CommandSpec[] = [
  {
    words: ['source', 'add'],
    usage: 'stylist source add --org ID --dataset ID --endpoint URL [--period MINUTES] [--inactive]',
    options: { org: { type: 'string' }, dataset: { type: 'string' }, endpoint: { type: 'string' }, period: { type: 'string' }, inactive: { type: 'boolean' } },
    run: async (platform, values) => {
      const organizationId = required(values, 'org');
      const datasetId = required(values, 'dataset');
      if (!(await getDataset(platform.database.db, organizationId, datasetId))) throw new NotFound('Dataset not found for this organization.');
      const endpoint = endpointField.safeParse(required(values, 'endpoint'));
      if (!endpoint.success) throw new UsageError(endpoint.error.issues[0]!.message);
      const period = values.period === undefined ? { success: true as const, data: DEFAULT_SYNC_PERIOD } : syncPeriodField.safeParse(values.period);
      if (!period.success) throw new UsageError(period.error.issues[0]!.message);
      const status = values.inactive === true ? 'inactive' : 'active';
      const { sourceId, position } = await createSource({ store: platform.eventStore, queue: platform.queue }, { organizationId, datasetId, endpoint: endpoint.data, syncPeriod: period.data, status }, operator());
      await settle(platform, { position }, PROJECTIONS);
      const { jobs } = await listSyncJobs(platform.database.db, { organizationId, datasetId, sourceId }, 1);
      return { sourceId, endpoint: endpoint.data, syncPeriod: period.data, status, firstJobId: jobs[0]?.jobId ?? null };
    },
    text: (r) => `source ${r.sourceId} reads ${r.endpoint}${r.firstJobId ? `; first sync ${r.firstJobId} queued` : ''}`,
  },
  {
    words: ['source', 'list'],
    usage: 'stylist source list --org ID --dataset ID',
    options: { org: { type: 'string' }, dataset: { type: 'string' } },
    run: async (platform, values) => {
      const { sources, total } = await listSources(platform.database.db, required(values, 'org'), required(values, 'dataset'), 1, 100);
      return { sources, total };
    },
    text: (r) =>
      (r.sources as Array<{ sourceId: string; status: string; config: { endpoint: string }; sync: { period: number; previous: string | null } }>)
        .map((s) => `${s.sourceId}  ${s.status.padEnd(8)} every ${s.sync.period || 'never'}${s.sync.period ? ' min' : ''}  last ${s.sync.previous ?? 'never'}  ${s.config.endpoint}`)
        .join('\n') || 'no sources',
  },
  {
    words: ['sync', 'start'],
    usage: 'stylist sync start --org ID --dataset ID --source ID [--wait]',
    options: { ...ids, wait: { type: 'boolean' } },
    run: async (platform, values, _args, { progress }) => {
      const source = await sourceIds(platform, values);
      const dataset = await getDataset(platform.database.db, source.organizationId, source.datasetId);
      if (dataset?.status === 'archived') throw new SourceNotActive();
      const { job, existing, position } = await requestSyncJob({ store: platform.eventStore, queue: platform.queue }, source, 'manual', operator());
      await settle(platform, { position }, PROJECTIONS);
      if (values.wait !== true) return { jobId: job.jobId, status: job.status, existing };
      // Followed to its end: the sync worker's heartbeat says where it is (pages fetched, products queued).
      const db = platform.database.db;
      const ended = await follow(progress, `sync ${job.jobId}`, async () => {
        const now = await getSyncJob(db, source, job.jobId);
        const beat = now?.status === 'processing' ? await jobProgress(db, job.jobId) : null;
        const toQueue = typeof beat?.toQueue === 'number' ? beat.toQueue : null;
        const done = typeof beat?.queued === 'number' ? beat.queued : typeof beat?.retrieved === 'number' ? beat.retrieved : 0;
        return {
          done: !!now && now.status !== 'pending' && now.status !== 'processing',
          step: { what: `sync ${now?.status ?? 'pending'}${beat?.phase ? ` (${String(beat.phase)})` : ''}`, done, total: toQueue, unit: toQueue === null ? 'products read' : 'products queued' },
          value: now,
        };
      });
      return { jobId: job.jobId, status: ended?.status ?? job.status, existing, stats: ended?.result.stats ?? null, error: ended?.result.error ?? null };
    },
    text: (r) => (r.error ? `sync ${r.jobId} ${r.status}: ${r.error}` : r.stats ? `sync ${r.jobId} ${r.status}: ${JSON.stringify(r.stats)}` : r.existing ? `sync ${r.jobId} is already ${r.status}` : `sync ${r.jobId} queued`),
  },
  {
    words: ['sync', 'status'],
    usage: 'stylist sync status --org ID --dataset ID --source ID [--job ID]',
    options: { ...ids, job: { type: 'string' } },
    run: async (platform, values) => {
      const source = await sourceIds(platform, values);
      const db = platform.database.db;
      const job = typeof values.job === 'string' ? await getSyncJob(db, source, values.job) : ((await listSyncJobs(db, source, 1)).jobs[0] ?? null);
      if (!job && typeof values.job === 'string') throw new NotFound('Sync job not found');
      const progress = job?.status === 'processing' ? await jobProgress(db, job.jobId) : null;
      const { logs } = await listSyncLogs(db, source, 1, 10);
      const log = job?.logId ? (logs.find((l) => l.logId === job.logId) ?? null) : null;
      return {
        job,
        progress,
        log,
      };
    },
    text: (r) => {
      if (!r.job) return 'no sync jobs yet';
      const lines = [jobLine(r.job)];
      if (r.progress) lines.push(`progress: ${JSON.stringify(r.progress)}`);
      for (const entry of (r.log?.entries ?? []).slice(-15)) lines.push(`  ${entry.at} ${entry.level.padEnd(5)} ${entry.sku ? `[${entry.sku}] ` : ''}${entry.message}`);
      return lines.join('\n');
    },
  },
  {
    words: ['sync', 'jobs'],
    usage: 'stylist sync jobs --org ID --dataset ID --source ID',
    options: { ...ids },
    run: async (platform, values) => {
      const source = await sourceIds(platform, values);
      return listSyncJobs(platform.database.db, source, 100);
    },
    text: (r) => (r.jobs as SyncJob[]).map(jobLine).join('\n') || 'no sync jobs',
  },
  {
    words: ['sync', 'cancel'],
    usage: 'stylist sync cancel --org ID --dataset ID --source ID --job ID',
    options: { ...ids, job: { type: 'string' } },
    run: async (platform, values) => {
      const source = await sourceIds(platform, values);
      const jobId = required(values, 'job');
      const { position } = await cancelSyncJob(platform.eventStore, { ...source, jobId }, operator());
      await settle(platform, { position }, PROJECTIONS);
      return { jobId, cancelled: true };
    },
    text: (r) => `sync ${r.jobId} cancelled`,
  },
];
