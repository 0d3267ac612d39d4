// `stylist …` as a function of its arguments and environment: main.ts runs it for the real
// command; tests call it in-process, which is the same code without a process start per case.
import { parseArgs } from 'node:util';
import { createLogger } from '../../api/logging.js';
import { ConfigError, loadConfig } from '../../infra/config/config.js';
import { DatabaseUnavailable } from '../../infra/db/database.js';
import { sendToServer } from '../admin.js';
import { lockDataDir } from '../lock.js';
import { openPlatform, StartupError } from '../platform.js';
import { parseRoles, serve, type RunningService } from '../serve.js';
import { commands, UsageError } from './commands.js';
import { executeCommand, findCommand } from './execute.js';
import { terminalProgress } from './progress.js';

export interface CliIo {
  env: Record<string, string | undefined>;
  stdout: { write(text: string): unknown };
  /** `isTTY`: progress of long work is drawn here (app/cli/progress.ts). */
  stderr: { write(text: string): unknown; isTTY?: boolean };
}

export type CliOutcome = { exitCode: number } | { serving: RunningService };

const usage = () =>
  ['usage:', '  stylist serve [--role api,ingest,sync,agent,scheduler,projections]', ...commands.map((c) => `  ${c.usage} [--json]`)].join('\n');

const known = [ConfigError, StartupError, UsageError, DatabaseUnavailable];

/** Runs one `stylist` invocation; every failure is one line on stderr and exit code 1. */
export async function runCli(argv: string[], io: CliIo): Promise<CliOutcome> {
  try {
    return await run(argv, io);
  } catch (error) {
    const message = known.some((k) => error instanceof k) ? (error as Error).message : describe(error);
    io.stderr.write(`stylist: ${message}\n`);
    return { exitCode: 1 };
  }
}

const describe = (error: unknown): string => (error instanceof Error ? error.message || error.name : String(error));

async function run(argv: string[], io: CliIo): Promise<CliOutcome> {
  if (!argv.length || ['-h', '--help', 'help'].includes(argv[0]!)) {
    io.stdout.write(`${usage()}\n`);
    return { exitCode: argv.length ? 0 : 1 };
  }
  if (argv[0] === 'serve') {
    const { values } = parseArgs({ args: argv.slice(1), options: { role: { type: 'string' } }, strict: true });
    return { serving: await serve(loadConfig(io.env), parseRoles(values.role)) };
  }

  const { spec, json } = findCommand(argv);
  const config = loadConfig(io.env);
  const print = (result: Record<string, unknown>) => io.stdout.write(`${json ? JSON.stringify(result) : spec.text(result)}\n`);

  const shown = terminalProgress(io.stderr);
  const remote = await sendToServer(config.dataDir, argv, shown.report, config.adminAnswerMs).finally(() => shown.end());
  if (remote) {
    if (!remote.ok) throw remote.usage ? new UsageError(remote.error) : new Error(remote.error);
    print(remote.result);
    return { exitCode: 0 };
  }
  // No server holds the stores: open them here. Logs stay off unless LOG_LEVEL asks for them (then
  // on stderr), so a failure is the one line below and stdout stays one JSON object.
  const logger = createLogger({ level: io.env.LOG_LEVEL ? config.logLevel : 'silent', destination: io.stderr as never });
  const lock = config.databaseUrl ? undefined : await lockDataDir(config.dataDir);
  try {
    const platform = await openPlatform(config, logger);
    try {
      await platform.projections.start();
      const local = terminalProgress(io.stderr);
      const answer = await executeCommand(platform, argv, local.report).finally(() => local.end());
      if (!answer.ok) throw answer.usage ? new UsageError(answer.error) : new Error(answer.error);
      print(answer.result);
      return { exitCode: 0 };
    } finally {
      await platform.close();
    }
  } finally {
    await lock?.release();
  }
}
