// `--wait` for CLI commands whose work runs in the server's workers (a sync, the demo catalogue's
// ingest): poll the read model, report progress, answer when the work is done. When nothing moves
// for STALLED_MS, the answer says why (usually: no server with that worker role is running, so
// the work waits on the queue) instead of waiting for ever.
import type { Progress, ProgressSink } from './progress.js';

const POLL_MS = 500;
const STALLED_MS = 60_000;

export class NothingMoved extends Error {
  override name = 'NothingMoved';
}

/**
 * Polls `read` until it says done; each new reading is reported. `what` names the work in the
 * message when it stalls.
 */
export async function follow<T>(
  progress: ProgressSink,
  what: string,
  read: () => Promise<{ done: boolean; step: Progress; value: T }>,
  options: { pollMs?: number; stalledMs?: number } = {},
): Promise<T> {
  const pollMs = options.pollMs ?? POLL_MS;
  const stalledMs = options.stalledMs ?? STALLED_MS;
  let lastChange = Date.now();
  let last = '';
  for (;;) {
    const reading = await read();
    progress(reading.step);
    if (reading.done) return reading.value;
    const seen = JSON.stringify(reading.step);
    if (seen !== last) {
      last = seen;
      lastChange = Date.now();
    } else if (Date.now() - lastChange > stalledMs) {
      throw new NothingMoved(`${what}: nothing moved for ${Math.round(stalledMs / 1000)} s; is a server with the worker role for it running? (it goes on in the queue)`);
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
