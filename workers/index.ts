// Every worker the service runs, by role. Empty until the ingest, sync and agent features land.
import type { WorkerDefinition, WorkerRole } from './worker.js';

export const allWorkers: ReadonlyArray<WorkerDefinition<never>> = [];

export function workersFor(roles: readonly string[]): ReadonlyArray<WorkerDefinition<never>> {
  return allWorkers.filter((worker) => roles.includes(worker.role satisfies WorkerRole));
}
