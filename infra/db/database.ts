// Opens the relational database that holds the read models and, by default, the event store:
// PGlite in-process (embedded default) or a Postgres server through `pg`.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, PostgresDialect, sql } from 'kysely';
import pg from 'pg';

export interface Database {
  readonly kind: 'pglite' | 'postgres';
  readonly db: Kysely<any>;
  /** Postgres only: the pool, for adapters that need a dedicated client (LISTEN). */
  readonly pool?: pg.Pool;
  /** Postgres only: connection settings to open a dedicated client with the same schema. */
  readonly clientConfig?: pg.ClientConfig;
  ping(): Promise<void>;
  close(): Promise<void>;
  /** PGlite only: the bytes of its WebAssembly memory (Postgres's own memory; it grows and never shrinks). */
  wasmMemoryBytes?(): number;
}

export interface OpenDatabaseOptions {
  /** postgres:// URL; absent → PGlite. */
  url?: string;
  /** PGlite data directory, or `memory://` for a throwaway database. */
  pgliteDir?: string;
  /** Postgres only: run every connection with this search_path (isolated test schemas). */
  schema?: string;
  /** Postgres only: pool size (default 10). */
  maxConnections?: number;
  /** Told of connection failures outside any query (a terminated backend, a server restart). */
  onConnectionError?: (error: Error) => void;
}

export class DatabaseUnavailable extends Error {
  override name = 'DatabaseUnavailable';
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  return options.url ? openPostgres(options.url, options) : openPglite(options.pgliteDir ?? 'memory://');
}

async function openPglite(dir: string): Promise<Database> {
  let pglite: PGlite;
  try {
    if (isFreshDirectory(dir)) await initializeElsewhere(dir);
    // Loaded only when used: the module alone weighs about 30 MB of RSS in a process on a Postgres server.
    const { PGlite } = await import('@electric-sql/pglite');
    pglite = await PGlite.create(dir, { startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS] });
  } catch (error) {
    throw new DatabaseUnavailable(
      `cannot open the embedded database in ${dir} (${describe(error)}); move the directory away or set DATA_DIR to a fresh one`,
    );
  }
  return pgliteDatabase(pglite);
}

/**
 * Postgres's memory settings inside PGlite. Its WebAssembly memory grows to the most it ever held
 * and never shrinks, and Postgres's shared memory is zeroed when it starts, so every megabyte of
 * shared_buffers is resident from the start: 128 MB (initdb's default) made PGlite weigh about
 * 240 MB in an idle process. The embedded default's database is small (the demo catalogue and its
 * events take tens of megabytes) and pages missing from the buffers are read from the operating
 * system's file cache, so 32 MB holds what is read often. Sorts and index builds are bounded
 * likewise: the memory they take stays taken. (Below the module's declared 128 MB of WebAssembly
 * memory nothing can go; only the part Postgres touches is resident.)
 */
const PGLITE_SETTINGS = ['-c', 'shared_buffers=32MB', '-c', 'work_mem=4MB', '-c', 'maintenance_work_mem=16MB', '-c', 'temp_buffers=2MB'];

/** A data directory Postgres has not been initialized in (a file path; `memory://` and the like are left to PGlite). */
function isFreshDirectory(dir: string): boolean {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(dir) && !dir.startsWith('file://')) return false;
  return !existsSync(path.join(dir.replace(/^file:\/\//, ''), 'PG_VERSION'));
}

/**
 * Runs initdb in a process of its own. Done in this one, initdb's WebAssembly instance leaves
 * about 470 MB resident for good (830 MB against 360 MB once the database is open); its own
 * process gives all of it back when it exits. Any failure is left to the open that follows,
 * which reports it.
 */
async function initializeElsewhere(dir: string): Promise<void> {
  const module = import.meta.resolve('@electric-sql/pglite');
  const script = `const { PGlite } = await import(${JSON.stringify(module)}); const db = await PGlite.create(${JSON.stringify(dir)}); await db.close();`;
  await new Promise<void>((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'ignore', env: { ...process.env, NODE_OPTIONS: '' } });
    child.on('error', () => resolve());
    child.on('exit', () => resolve());
  });
}

/** The Database over an open PGlite (also used by tests that load a PGlite from a template). */
export function pgliteDatabase(pglite: PGlite): Database {
  const db = new Kysely<any>({ dialect: new PGliteDialect({ pglite }) });
  return {
    kind: 'pglite',
    db,
    ping: async () => void (await sql`select 1`.execute(db)),
    close: async () => {
      await db.destroy();
      if (!pglite.closed) await pglite.close();
    },
    wasmMemoryBytes: () => (pglite.Module as { wasmMemory?: { buffer: ArrayBuffer } }).wasmMemory?.buffer.byteLength ?? 0,
  };
}

async function openPostgres(url: string, options: OpenDatabaseOptions): Promise<Database> {
  const clientConfig: pg.ClientConfig = {
    connectionString: url,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  };
  const pool = new pg.Pool({ ...clientConfig, max: options.maxConnections ?? 10, connectionTimeoutMillis: 5000 });
  // A connection that fails outside a query emits 'error' on its client; unheard, that event kills
  // the process. The pool listens only while a client is idle, so every client gets a listener of
  // its own for the time it is checked out (kysely holds one across a transaction). The failed
  // client is not queryable any more: the pool drops it on release and the caller's query fails.
  pool.on('connect', (client) => client.on('error', (error: Error) => options.onConnectionError?.(error)));
  // The pool repeats an idle client's error: already reported by the client's own listener.
  pool.on('error', () => {});
  try {
    const client = await pool.connect();
    client.release();
  } catch (error) {
    await pool.end().catch(() => {});
    throw new DatabaseUnavailable(`cannot connect to Postgres at ${redactUrl(url)} (${describe(error)})`);
  }
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
  return {
    kind: 'postgres',
    db,
    pool,
    clientConfig,
    ping: async () => void (await sql`select 1`.execute(db)),
    close: () => db.destroy(),
  };
}

export const redactUrl = (url: string): string => url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');

const describe = (error: unknown): string => {
  if (error instanceof AggregateError && error.errors.length) return describe(error.errors[0]);
  if (error instanceof Error) return error.message || error.name;
  return String(error);
};
