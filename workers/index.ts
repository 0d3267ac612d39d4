// Every worker the service runs, by role.
import { datasetCleanupWorker, ingestWorker } from './ingest/index.js';
import { syncScheduler, syncWorker } from './sync/index.js';
import { agentWorker } from './agent/index.js';
import type { WorkerDefinition, WorkerRole } from './worker.js';

// Each worker has its own payload type.
export const allWorkers: ReadonlyArray<WorkerDefinition<any>> = [ingestWorker, datasetCleanupWorker, syncWorker, syncScheduler, agentWorker];

export function workersFor(roles: readonly string[]): ReadonlyArray<WorkerDefinition<any>> {
  return allWorkers.filter((worker) => roles.includes(worker.role satisfies WorkerRole));
}
