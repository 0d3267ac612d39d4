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

export interface ListenOptions {
  /** First wait before reconnecting; doubles per failed attempt up to `maxRetryMs`. Default 250. */
  retryMs?: number;
  maxRetryMs?: number;
  /** Told when the connection is lost (once per loss, not per failed attempt). */
  onError?: (error: Error) => void;
}

/**
 * LISTENs on a dedicated connection (a pooled one would be handed back and lose it) and
 * reconnects after failures with a capped, jittered backoff; every (re)connect counts as a wake-up
 * for what may have been missed. Its errors never escape: an unheard 'error' event would end the process.
 */
export function listen(config: pg.ClientConfig, channel: string, onNotify: () => void, options: ListenOptions = {}): Listener {
  const firstRetryMs = options.retryMs ?? 250;
  const maxRetryMs = options.maxRetryMs ?? 10_000;
  let closed = false;
  let client: pg.Client | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let retryMs = firstRetryMs;
  let connected = true;

  const connect = async () => {
    const next = new pg.Client(config);
    next.on('error', (error: Error) => reconnect(next, error));
    next.on('end', () => reconnect(next, new Error('LISTEN connection ended')));
    next.on('notification', (message) => {
      if (message.channel === channel) onNotify();
    });
    client = next;
    try {
      await next.connect();
      await next.query(`listen ${quoteIdentifier(channel)}`);
      if (closed) {
        await next.end().catch(() => {});
        return;
      }
      retryMs = firstRetryMs;
      connected = true;
      onNotify();
    } catch (error) {
      reconnect(next, error as Error);
    }
  };

  const reconnect = (failed: pg.Client, error: Error) => {
    if (closed || client !== failed) return;
    if (connected) options.onError?.(error);
    connected = false;
    client = undefined;
    failed.end().catch(() => {});
    const wait = retryMs / 2 + Math.random() * (retryMs / 2);
    retryMs = Math.min(retryMs * 2, maxRetryMs);
    retryTimer = setTimeout(() => void connect(), wait);
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
