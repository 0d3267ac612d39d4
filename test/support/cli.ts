// Runs the `stylist` command: in a child process, as an operator would, or in this process
// through the same function main.ts calls (no process start per case: seconds each on two cores).
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../app/cli/run.js';

export const stylistBin = fileURLToPath(new URL('../../bin/stylist.mjs', import.meta.url));

/** The environment of a clean shell: nothing of the test run's own configuration leaks in. */
export const cleanEnv = (extra: Record<string, string>): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  ...extra,
});

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runStylist(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 90_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [stylistBin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`stylist ${args.join(' ')} did not finish in ${timeoutMs} ms\n${stderr}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** `stylist …` in this process with its own environment and captured output; never `serve`. */
export async function runStylistInProcess(args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const outcome = await runCli(args, {
    env,
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  });
  if ('serving' in outcome) {
    await outcome.serving.shutdown();
    throw new Error(`stylist ${args.join(' ')} started a server: run it with startServer`);
  }
  return { code: outcome.exitCode, stdout, stderr };
}

export interface RunningServer {
  child: ChildProcess;
  url: string;
  logs: () => string;
  exited: Promise<number | null>;
}

/** What `stylist serve` logs once it listens (with its `url`, unless it serves no HTTP). */
export const RUNNING_LINE = '"msg":"stylist is running"';

/** The URL a "stylist is running" log line names; null for any other line, or one naming none. */
export const runningUrl = (line: string): string | null => (line.includes(RUNNING_LINE) ? (/"url":"(http:\/\/[^"]+)"/.exec(line)?.[1] ?? null) : null);

/** Starts `stylist serve` on a free port and resolves once it says it is running. */
export function startServer(env: NodeJS.ProcessEnv, args: string[] = [], timeoutMs = 60_000): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [stylistBin, 'serve', ...args], {
      env: { ...env, PORT: '0', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`stylist serve did not start in ${timeoutMs} ms\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk;
      const url = output.split('\n').map(runningUrl).find((found) => found !== null);
      if (url) {
        clearTimeout(timer);
        resolve({ child, url, logs: () => output, exited });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`stylist serve exited with ${code} before it was running\n${output}`));
    });
  });
}
