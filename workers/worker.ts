// A worker: a queue consumer that belongs to one `stylist serve` role. Features add theirs to
// `index.ts`; `serve` starts the workers of the roles it runs and stops them before the stores close.
import type { Logger } from 'pino';
import type { Config } from '../infra/config/config.js';
import type { EventStore } from '../infra/eventstore/port.js';
import type { Database } from '../infra/db/database.js';
import type { ObjectStore } from '../infra/objects/port.js';
import type { TurnChannel } from '../infra/channel/port.js';
import type { Embedder } from '../infra/models/port.js';
import type { SearchMemory } from '../projections/search-memory.js';
import type { ConsumeOptions, JobHandler, WorkQueue } from '../infra/queue/port.js';

export type WorkerRole = 'ingest' | 'sync' | 'agent' | 'scheduler';

export interface WorkerContext {
  eventStore: EventStore;
  database: Database;
  queue: WorkQueue;
  objects: ObjectStore;
  logger: Logger;
  config: Config;
  /** The server secret (cart intents are signed with it). */
  secret: string;
  /** Agent turns' frames and cancels. */
  channel: TurnChannel;
  /** The process's search memory and query embedder (shared with the API's search). */
  search(): { memory: SearchMemory; embedder: Embedder };
  /**
   * Aborted when the workers are abandoned rather than stopped (a test standing in for a killed
   * process): long work stops where it is and writes nothing more.
   */
  halt: AbortSignal;
}

export interface WorkerDefinition<T = unknown> {
  role: WorkerRole;
  /** Names the worker in logs; also the queue subject it consumes when it has a handler. */
  subject: string;
  /** Builds the handler once the stores are open; absent for a worker that only does background work. */
  handler?(context: WorkerContext): JobHandler<T>;
  /** Consumer settings; a function when they need the stores (a dead-letter handler that records the failure). */
  options?: ConsumeOptions<T> | ((context: WorkerContext) => ConsumeOptions<T>);
  /** Work the role does besides consuming (a sweep re-deriving lost messages); stopped before the consumer. */
  background?(context: WorkerContext): { stop(): Promise<void> };
}
