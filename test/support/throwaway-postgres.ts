// A Postgres server of the test's own (initdb in a temporary directory, a free port, its socket
// there too), to restart in the middle of a run without touching the machine's main server.
// Needs the server binaries (/usr/lib/postgresql/N/bin) and root (to run them as `postgres`).
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.js';

const run = promisify(execFile);

export interface ThrowawayServer {
  url: string;
  restart(): Promise<void>;
  stop(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

/** Why a throwaway server cannot run here, or null when it can. */
export function throwawayUnavailable(): string | null {
  if (!binDir()) return 'no Postgres server binaries under /usr/lib/postgresql';
  if (userInfo().uid !== 0) return 'needs root to run initdb as the postgres user';
  return null;
}

function binDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  const found = versions.map((v) => path.join(root, v, 'bin')).find((dir) => existsSync(path.join(dir, 'initdb')));
  return found ?? null;
}


export async function startThrowawayServer(): Promise<ThrowawayServer> {
  const bin = binDir();
  if (!bin) throw new Error('no Postgres server binaries');
  const dir = await mkdtemp(path.join(tmpdir(), 'stylist-pg-'));
  const { uid, gid } = await postgresIds();
  await chown(dir, uid, gid);
  const data = path.join(dir, 'data');
  const port = await freePort();
  const asPostgres = (command: string, args: string[]) => run('runuser', ['-u', 'postgres', '--', path.join(bin, command), ...args], { timeout: 60_000 });
  await asPostgres('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`;
  const ctl = (...args: string[]) => asPostgres('pg_ctl', ['-D', data, '-l', path.join(dir, 'log'), '-w', '-t', '30', ...args]);
  await ctl('-o', options, 'start');
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: async () => void (await ctl('-o', options, 'start')),
    stop: async () => void (await ctl('-m', 'fast', 'stop')),
    restart: async () => void (await ctl('-m', 'fast', '-o', options, 'restart')),
    destroy: async () => {
      await ctl('-m', 'immediate', 'stop').catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function postgresIds(): Promise<{ uid: number; gid: number }> {
  const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}
