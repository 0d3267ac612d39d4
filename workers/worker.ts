// A worker: a queue consumer that belongs to one `stylist serve` role. Features add theirs to
// `index.ts`; `serve` starts the workers of the roles it runs and stops them before the stores close.
import type { Logger } from 'pino';
import type { EventStore } from '../infra/eventstore/port.js';
import type { Database } from '../infra/db/database.js';
import type { ObjectStore } from '../infra/objects/port.js';
import type { ConsumeOptions, JobHandler, WorkQueue } from '../infra/queue/port.js';

export type WorkerRole = 'ingest' | 'sync' | 'agent' | 'scheduler';

export interface WorkerContext {
  eventStore: EventStore;
  database: Database;
  queue: WorkQueue;
  objects: ObjectStore;
  logger: Logger;
}

export interface WorkerDefinition<T = unknown> {
  role: WorkerRole;
  /** Queue subject the worker consumes. */
  subject: string;
  /** Builds the handler once the stores are open. */
  handler(context: WorkerContext): JobHandler<T>;
  options?: ConsumeOptions<T>;
}
