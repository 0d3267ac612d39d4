// Vacuum and analyse for the embedded database, which has no autovacuum of its own.
//
// PGlite is Postgres in one process without its background workers: `autovacuum` reads on, but no
// launcher runs. Measured (PGlite 0.5, 2026-11-29): 50,000 rows updated, and 70 s later
// pg_stat_user_tables still counted all 50,000 dead and no analyse. Left so, a read model's
// rewritten rows are never reclaimed (a store synced every hour rewrites its changed items, a
// projection its checkpoint on every batch) and the planner plans every query without statistics.
// So the embedded database does autovacuum's work itself: from time to time it reads
// pg_stat_user_tables and vacuums or analyses each table past autovacuum's own default thresholds,
// one table at a time. PGlite runs one statement at a time, so a vacuum holds the other queries
// for as long as it runs; the thresholds are autovacuum's so that this is rare, and each pass is
// logged with its time.
//
// A Postgres server has autovacuum: `serve` warns when it is off (`autovacuumOff`), and this pass
// is then what the benchmarks run after loading a catalogue, as that server would have done.
import { sql, type Kysely } from 'kysely';

/** Postgres's defaults: autovacuum_vacuum_threshold and _scale_factor, the insert and analyse ones. */
export const AUTOVACUUM_DEFAULTS = {
  vacuum: { rows: 50, share: 0.2 },
  /** Rows only inserted (an append-only table: the events) still want a vacuum, for the visibility map and freezing. */
  vacuumInserts: { rows: 1000, share: 0.2 },
  analyse: { rows: 50, share: 0.1 },
} as const;

/** How often `startUpkeep` looks, by default: autovacuum's own naptime. */
export const UPKEEP_EVERY_MS = 60_000;

export interface TableUpkeep {
  table: string;
  vacuumed: boolean;
  analysed: boolean;
  /** What made it due: dead rows, rows inserted since the last vacuum, rows changed since the last analyse. */
  deadRows: number;
  insertedRows: number;
  changedRows: number;
  ms: number;
}

interface TableStats {
  table: string;
  /** pg_class.reltuples: -1 before a table's first vacuum or analyse. */
  rows: number;
  deadRows: number;
  insertedRows: number;
  changedRows: number;
}

/** What is due in `stats`, by autovacuum's rule: a threshold plus a share of the table's rows. */
export function dueTables(stats: readonly TableStats[]): Array<TableStats & { vacuum: boolean; analyse: boolean }> {
  const past = (count: number, rows: number, rule: { rows: number; share: number }) => count > rule.rows + rule.share * Math.max(rows, 0);
  return stats
    .map((table) => ({
      ...table,
      vacuum: past(table.deadRows, table.rows, AUTOVACUUM_DEFAULTS.vacuum) || past(table.insertedRows, table.rows, AUTOVACUUM_DEFAULTS.vacuumInserts),
      analyse: past(table.changedRows, table.rows, AUTOVACUUM_DEFAULTS.analyse),
    }))
    .filter((table) => table.vacuum || table.analyse);
}

async function readStats(db: Kysely<any>): Promise<TableStats[]> {
  const { rows } = await sql<{ table: string; rows: number; dead: string; inserted: string; changed: string }>`
    select s.relname as "table", c.reltuples as rows, s.n_dead_tup as dead, s.n_ins_since_vacuum as inserted, s.n_mod_since_analyze as changed
      from pg_stat_user_tables s join pg_class c on c.oid = s.relid
     where s.schemaname = current_schema()
     order by s.relname`.execute(db);
  return rows.map((row) => ({ table: row.table, rows: Number(row.rows), deadRows: Number(row.dead), insertedRows: Number(row.inserted), changedRows: Number(row.changed) }));
}

/**
 * Vacuums and analyses the tables of the current schema past autovacuum's thresholds, one at a
 * time, and says what it did. `VACUUM` cannot run inside a transaction: `db` must not be one.
 */
export async function upkeepDueTables(db: Kysely<any>): Promise<TableUpkeep[]> {
  const done: TableUpkeep[] = [];
  for (const table of dueTables(await readStats(db))) {
    const started = performance.now();
    const name = sql.id(table.table);
    if (table.vacuum && table.analyse) await sql`vacuum (analyze) ${name}`.execute(db);
    else if (table.vacuum) await sql`vacuum ${name}`.execute(db);
    else await sql`analyze ${name}`.execute(db);
    done.push({ table: table.table, vacuumed: table.vacuum, analysed: table.analyse, deadRows: table.deadRows, insertedRows: table.insertedRows, changedRows: table.changedRows, ms: Math.round(performance.now() - started) });
  }
  return done;
}

export interface UpkeepLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export interface Upkeep {
  /** Stops looking; resolves once a pass under way has finished. */
  stop(): Promise<void>;
}

/**
 * Runs `upkeepDueTables` every `everyMs` until stopped. A pass that fails is logged and the next
 * one tries again; `onPass` hears each pass's tables (tests wait on it, not on a clock).
 */
export function startUpkeep(db: Kysely<any>, options: { everyMs?: number; log?: UpkeepLog; onPass?: (done: TableUpkeep[]) => void } = {}): Upkeep {
  const everyMs = options.everyMs ?? UPKEEP_EVERY_MS;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const pass = async () => {
    try {
      const done = await upkeepDueTables(db);
      if (done.length) options.log?.info({ tables: done }, 'embedded database: vacuumed and analysed the tables past autovacuum’s thresholds');
      options.onPass?.(done);
    } catch (error) {
      if (!stopped) options.log?.warn({ err: error }, 'embedded database: vacuum or analyse failed; tried again later');
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = pass().finally(schedule);
    }, everyMs);
    // A process with nothing else to do is not kept alive for it.
    timer.unref();
  };
  schedule();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

/** True when the Postgres server behind `db` runs with autovacuum off (a PGlite database always reads on, and has none). */
export async function autovacuumOff(db: Kysely<any>): Promise<boolean> {
  const { rows } = await sql<{ autovacuum: string }>`show autovacuum`.execute(db);
  return rows[0]?.autovacuum === 'off';
}
