// Wakes idle subscribers when something was appended. A hint only: subscribers also poll, so a
// lost wake-up (dropped LISTEN connection, an append from a process that does not notify) costs
// one poll interval, never an event.
import pg from 'pg';

export class Wakeup {
  #generation = 0;
  readonly #waiters = new Set<() => void>();

  /** Read it before looking for events, then pass it to `wait`, so a wake-up in between is not lost. */
  get generation(): number {
    return this.#generation;
  }

  notify(): void {
    this.#generation++;
    for (const wake of [...this.#waiters]) wake();
  }

  /** Resolves on a wake-up after `seen`, after `timeoutMs`, or on abort. */
  wait(seen: number, timeoutMs: number, signal?: AbortSignal): Promise<void> {
    if (this.#generation !== seen || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        this.#waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      signal?.addEventListener('abort', done, { once: true });
      this.#waiters.add(done);
    });
  }
}

export interface Listener {
  close(): Promise<void>;
}

/**
 * LISTENs on a dedicated connection (a pooled one would be handed back and lose it) and
 * reconnects after failures; every (re)connect counts as a wake-up for what may have been missed.
 */
export function listen(config: pg.ClientConfig, channel: string, onNotify: () => void, retryMs = 1000): Listener {
  let closed = false;
  let client: pg.Client | undefined;
  let retryTimer: NodeJS.Timeout | undefined;

  const connect = async () => {
    const next = new pg.Client(config);
    // An error event without a listener would crash the process.
    next.on('error', () => reconnect(next));
    next.on('end', () => reconnect(next));
    next.on('notification', (message) => {
      if (message.channel === channel) onNotify();
    });
    client = next;
    try {
      await next.connect();
      await next.query(`listen ${quoteIdentifier(channel)}`);
      if (closed) await next.end().catch(() => {});
      else onNotify();
    } catch {
      reconnect(next);
    }
  };

  const reconnect = (failed: pg.Client) => {
    if (closed || client !== failed) return;
    client = undefined;
    failed.end().catch(() => {});
    retryTimer = setTimeout(() => void connect(), retryMs);
    retryTimer.unref();
  };

  void connect();
  return {
    close: async () => {
      closed = true;
      clearTimeout(retryTimer);
      const current = client;
      client = undefined;
      await current?.end().catch(() => {});
    },
  };
}

const quoteIdentifier = (name: string): string => `"${name.replaceAll('"', '""')}"`;
