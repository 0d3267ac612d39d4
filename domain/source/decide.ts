import { Conflict, NotFound } from '../errors.js';
import type { CommandMeta } from '../metadata.js';
import type { Market } from './markets.js';
import { decideJob, type JobCommand } from '../sync-job/decide.js';
import { jobVisible, type SyncTrigger } from '../sync-job/terms.js';
import type { SourceEvent, SourceSettings, SourceType } from './events.js';
import { liveSource, type Source, type SourceState } from './state.js';

export { CANCELLED_BY_USER, cancelRefusal, SyncClaimLost, SyncJobNotFound } from '../sync-job/terms.js';

type Ids = { sourceId: string; datasetId: string; organizationId: string };

export type SourceCommand =
  | { type: 'CreateSource'; data: Ids & { sourceType: SourceType; markets?: Market[]; defaultMarket?: string | null } & SourceSettings }
  | { type: 'UpdateSource'; data: Ids & { changes: Partial<SourceSettings> } }
  /** `counts`: the jobs and run logs the source takes with it, as the read model shows them; absent: counted from the stream's legacy jobs. */
  | { type: 'DeleteSource'; data: Ids & { counts?: { jobs: number; logs: number } } }
  /** A job written on this stream before jobs had streams of their own. */
  | JobCommand;

/** Document 2: no such source in the organization, or it feeds another dataset. */
export class SourceNotFound extends NotFound {
  constructor() {
    super('Data source not found or access denied');
  }
}

export class SourceNotActive extends Conflict {
  constructor() {
    super('Data source is not active');
  }
}

/** Claim order is priority, then age: syncs someone asked for go before scheduled ones. */
export const SYNC_PRIORITY: Record<SyncTrigger, number> = { manual: 10, 'source-created': 10, schedule: 0 };

const ownSource = (state: SourceState, { organizationId, datasetId }: Ids): Source => {
  const source = liveSource(state);
  if (!source || source.organizationId !== organizationId || source.datasetId !== datasetId) throw new SourceNotFound();
  return source;
};

/** Who may open a job on this source: it exists in this organization and dataset, and is active. */
export function openableSource(state: SourceState, ids: Ids): Source {
  const source = ownSource(state, ids);
  if (source.status !== 'active') throw new SourceNotActive();
  return source;
}

export const decide = (command: SourceCommand, state: SourceState, meta: CommandMeta): SourceEvent[] => {
  const { sourceId, datasetId, organizationId } = command.data;
  const ids = { sourceId, datasetId, organizationId };
  const at = meta.now;
  if (command.type === 'CreateSource') {
    // The id derives from the request's correlation id: finding it means a retried request.
    if (state) {
      if (!('deleted' in state) && state.organizationId === organizationId) return [];
      throw new SourceNotFound();
    }
    const source = command.data;
    return [{ type: 'SourceCreated', data: { ...source, markets: source.markets ?? [], defaultMarket: source.defaultMarket ?? null, at } }];
  }
  const source = ownSource(state, command.data);
  switch (command.type) {
    case 'UpdateSource': {
      const changes = Object.fromEntries(Object.entries(command.data.changes).filter(([field, value]) => value !== undefined && value !== source[field as keyof SourceSettings]));
      return Object.keys(changes).length ? [{ type: 'SourceUpdated', data: { ...ids, changes, at } }] : [];
    }
    case 'DeleteSource': {
      const jobs = Object.values(source.jobs).filter((job) => jobVisible(job, at));
      const counts = command.data.counts ?? { jobs: jobs.length, logs: jobs.filter((job) => job.logId !== null).length };
      return [{ type: 'SourceDeleted', data: { ...ids, deletedJobs: counts.jobs, deletedLogs: counts.logs, at } }];
    }
    default:
      return decideJob(command, source.jobs[command.data.jobId], meta);
  }
};
