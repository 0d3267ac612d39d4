// Worker processes as an operator runs them: `stylist serve --role …` child processes sharing one
// Postgres database and one NATS prefix, for the scale-out test and benchmark. Every child started
// here is killed when this process exits, whatever happens to it.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { cleanEnv, RUNNING_LINE, runningUrl, stylistBin } from './cli.js';

export interface WorkerProcess {
  name: string;
  process: ChildProcess;
  pid: number;
  /** Its last lines of output, for an error report. */
  tail: string[];
  /** Its API on loopback, at the port its "stylist is running" line names (null when the line names none). */
  url: string | null;
  exited: Promise<number | null>;
}

const running = new Set<WorkerProcess>();
let exitHook = false;

/** Starts `stylist serve --role ROLES` and resolves once it logs that it is running. */
export function startWorkerProcess(name: string, roles: string, env: Record<string, string>, timeoutMs = 60_000): Promise<WorkerProcess> {
  if (!exitHook) {
    exitHook = true;
    process.on('exit', () => {
      for (const worker of running) if (worker.process.exitCode === null && worker.process.signalCode === null) worker.process.kill('SIGKILL');
    });
  }
  const child = spawn(process.execPath, [stylistBin, 'serve', '--role', roles], {
    env: cleanEnv({ PORT: '0', LOG_LEVEL: 'info', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const worker: WorkerProcess = {
    name,
    process: child,
    pid: child.pid ?? -1,
    tail: [],
    url: null,
    exited: new Promise((done) => child.on('exit', (code, signal) => done(code ?? (signal ? 128 : null)))),
  };
  running.add(worker);
  void worker.exited.then(() => running.delete(worker));
  return new Promise((resolve, reject) => {
    let started = false;
    let partial = '';
    const onData = (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        worker.tail.push(line.slice(0, 600));
        if (worker.tail.length > 60) worker.tail.shift();
        if (!started && line.includes(RUNNING_LINE)) {
          started = true;
          const url = runningUrl(line);
          const port = url ? new URL(url).port : '';
          worker.url = port ? `http://127.0.0.1:${port}` : null;
          clearTimeout(timer);
          resolve(worker);
        }
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} did not start in ${timeoutMs} ms\n${worker.tail.join('\n')}`));
    }, timeoutMs);
    void worker.exited.then((code) => {
      clearTimeout(timer);
      if (!started) reject(new Error(`${name} exited with ${code} before it was running\n${worker.tail.join('\n')}`));
    });
  });
}

/** SIGTERM (in-flight jobs finish or are given back), SIGKILL after `graceMs`. */
export async function stopWorkerProcess(worker: WorkerProcess, graceMs = 15_000): Promise<void> {
  if (worker.process.exitCode !== null || worker.process.signalCode !== null) return;
  worker.process.kill('SIGTERM');
  const timer = setTimeout(() => worker.process.kill('SIGKILL'), graceMs);
  await worker.exited;
  clearTimeout(timer);
}

/** A fresh database on the server of `serverUrl`, dropped by `drop()` whatever it holds. */
export async function freshDatabase(serverUrl: string, label: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `stylist_${label}_${randomBytes(4).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  url.search = '';
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}
