// Per-minute request counts kept in this process's memory, for bounds that protect the service
// rather than bill anyone (shopper events carry no key, so no plan to count against). The window
// rule is document 1's: it starts at the first request after a quiet minute and lasts 60 seconds.
// Several API processes each count their own share: the bound is per process, which is enough to
// stop one client from flooding the event store and cheap enough to sit on the hottest write.

export interface WindowHit {
  allowed: boolean;
  /** Seconds until the window ends (for Retry-After). */
  retryAfter: number;
}

const WINDOW_MS = 60_000;

export class MinuteWindows {
  /** Oldest window first: entries are re-inserted when a window restarts. */
  readonly #windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly maxKeys = 100_000) {}

  hit(key: string, limit: number, now: number): WindowHit {
    let window = this.#windows.get(key);
    if (!window || window.start + WINDOW_MS <= now) {
      this.#windows.delete(key);
      window = { start: now, count: 0 };
      this.#windows.set(key, window);
      this.#trim(now);
    }
    window.count++;
    return { allowed: window.count <= limit, retryAfter: Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000)) };
  }

  #trim(now: number): void {
    for (const [key, window] of this.#windows) {
      if (this.#windows.size <= this.maxKeys && window.start + WINDOW_MS > now) return;
      this.#windows.delete(key);
    }
  }
}
