// A run's log entries, written as the run goes so `…/logs` shows progress while it runs. Entries
// are buffered and written a page at a time; past the cap only the count grows, and the last entry
// says how many were left out (a store with 25,000 broken products must not write 25,000 rows).
import type { Kysely } from 'kysely';

export type LogLevel = 'info' | 'warn' | 'error';

/** Entries kept per run. */
export const MAX_LOG_ENTRIES = 500;

export class SyncLogWriter {
  private buffer: Array<{ log_id: string; position: number; at: string; level: LogLevel; message: string; sku: string | null }> = [];
  private written = 0;
  private dropped = 0;
  private flushing: Promise<void> = Promise.resolve();

  private readonly db: Kysely<any>;
  readonly logId: string;
  private readonly now: () => Date;
  constructor(
    db: Kysely<any>,
    logId: string,
    now: () => Date = () => new Date(),
  ) {
    this.db = db;
    this.logId = logId;
    this.now = now;
  }

  add(level: LogLevel, message: string, sku: string | null = null): void {
    // The last place is kept for the note on what was left out.
    if (this.written + this.buffer.length >= MAX_LOG_ENTRIES - 1) {
      this.dropped++;
      return;
    }
    this.buffer.push({ log_id: this.logId, position: this.written + this.buffer.length, at: this.now().toISOString(), level, message, sku });
  }

  /** Writes what is buffered; calls are chained so entries land in order. */
  flush(): Promise<void> {
    const rows = this.buffer;
    this.buffer = [];
    this.written += rows.length;
    this.flushing = this.flushing.then(async () => {
      if (rows.length) await this.db.insertInto('sync_log_entries').values(rows).execute();
    });
    return this.flushing;
  }

  /** The final flush, with the count of entries left out. */
  async close(): Promise<void> {
    if (this.dropped > 0) {
      this.buffer.push({ log_id: this.logId, position: this.written + this.buffer.length, at: this.now().toISOString(), level: 'warn', message: `${this.dropped} more log entries were left out (a log keeps ${MAX_LOG_ENTRIES}).`, sku: null });
    }
    await this.flush();
  }
}
