// Starts the workers of some roles on an open platform: one consumer per worker, plus its
// background work. `serve` and the tests start them the same way.
import type { Logger } from 'pino';
import { workersFor } from '../workers/index.js';
import type { WorkerContext } from '../workers/worker.js';
import type { Platform } from './platform.js';

export interface RunningWorkers {
  subjects: string[];
  /** In-flight jobs finish or are given back. */
  stop(): Promise<void>;
  /** As if the process died: long work halts where it is, nothing is acknowledged or written. */
  abandon(): Promise<void>;
}

export async function startWorkers(platform: Platform, roles: readonly string[], logger: Logger): Promise<RunningWorkers> {
  const stoppers: Array<{ stop(): Promise<void> }> = [];
  const workers = workersFor(roles);
  const halt = new AbortController();
  const context: WorkerContext = { eventStore: platform.eventStore, database: platform.database, queue: platform.queue, objects: platform.objects, logger, config: platform.config, secret: platform.secret, channel: platform.channel, search: platform.search, halt: halt.signal };
  for (const worker of workers) {
    const own = { ...context, logger: logger.child({ worker: worker.subject }) };
    const options = typeof worker.options === 'function' ? worker.options(own) : worker.options;
    if (worker.handler) stoppers.push(await platform.queue.consume(worker.subject, worker.handler(own), options));
    const background = worker.background?.(own);
    if (background) stoppers.push(background);
  }
  const stop = async () => {
    await Promise.all(stoppers.map((stopper) => stopper.stop()));
  };
  return {
    subjects: workers.filter((worker) => worker.handler).map((worker) => worker.subject),
    stop,
    abandon: async () => {
      halt.abort(new Error('workers abandoned'));
      await stop();
    },
  };
}
