// The clients of a benchmark in a process of their own, so that they do not share the event loop of
// the service they measure (bench/search/load.ts, bench/agent/shoppers.ts). Both halves of the
// exchange are here: the bench writes the clients' config to a file and runs the clients' module
// with it (`runInChildProcess`); the module, run so, reads the config, measures, and prints what it
// measured as one JSON line (`childProcessMain`), which the bench parses.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Runs the module at `moduleUrl` under tsx with `configFile` as its argument and resolves with the
 * JSON of the last line it printed. Its stderr (progress) goes to this process's; `what` names it
 * in errors ("the load process").
 */
export function runInChildProcess<Result>(moduleUrl: string, configFile: string, what: string): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(moduleUrl), configFile], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`${what} exited with ${code}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').at(-1)!) as Result);
      } catch {
        reject(new Error(`${what} printed no result: ${out.slice(0, 300)}`));
      }
    });
  });
}

/**
 * The child's side, called at the top level of the module at `moduleUrl`: when that module is the
 * one node was started with, reads the config file named on the command line, runs `measure` on
 * it and prints the result as one JSON line. Imported by the bench instead, it does nothing.
 */
export async function childProcessMain<Config, Result>(moduleUrl: string, measure: (config: Config) => Promise<Result>): Promise<void> {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  const config = JSON.parse(await readFile(process.argv[2]!, 'utf8')) as Config;
  console.log(JSON.stringify(await measure(config)));
}
