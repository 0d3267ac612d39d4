// `stylist …`: every failure ends as one line on stderr and exit code 1, never a stack trace alone.
import { parseArgs } from 'node:util';
import { createLogger } from '../../api/logging.js';
import { ConfigError, loadConfig } from '../../infra/config/config.js';
import { DatabaseUnavailable } from '../../infra/db/database.js';
import { sendToServer } from '../admin.js';
import { lockDataDir } from '../lock.js';
import { openPlatform, StartupError } from '../platform.js';
import { parseRoles, serve } from '../serve.js';
import { commands, UsageError } from './commands.js';
import { executeCommand, findCommand } from './execute.js';

const usage = () =>
  ['usage:', '  stylist serve [--role api,ingest,sync,agent,scheduler,projections]', ...commands.map((c) => `  ${c.usage} [--json]`)].join('\n');

async function main(argv: string[]): Promise<number> {
  if (!argv.length || ['-h', '--help', 'help'].includes(argv[0]!)) {
    process.stdout.write(`${usage()}\n`);
    return argv.length ? 0 : 1;
  }
  if (argv[0] === 'serve') {
    const { values } = parseArgs({ args: argv.slice(1), options: { role: { type: 'string' } }, strict: true });
    const roles = parseRoles(values.role);
    const service = await serve(loadConfig(), roles);
    let signals = 0;
    const stop = (signal: string) => {
      if (++signals > 1) process.exit(130);
      service.platform.logger.info({ signal }, 'shutting down');
      service.shutdown().then(() => process.exit(0));
    };
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGTERM', () => stop('SIGTERM'));
    return -1; // keep running
  }

  const { spec, json } = findCommand(argv);
  const config = loadConfig();
  const print = (result: Record<string, unknown>) => process.stdout.write(`${json ? JSON.stringify(result) : spec.text(result)}\n`);

  const remote = await sendToServer(config.dataDir, argv);
  if (remote) {
    if (!remote.ok) throw remote.usage ? new UsageError(remote.error) : new Error(remote.error);
    print(remote.result);
    return 0;
  }
  // No server holds the stores: open them here. Logs stay off unless LOG_LEVEL asks for them (then
  // on stderr), so a failure is the one line below and stdout stays one JSON object.
  const logger = createLogger({ level: process.env.LOG_LEVEL ? config.logLevel : 'silent', destination: process.stderr as never });
  const lock = config.databaseUrl ? undefined : await lockDataDir(config.dataDir);
  try {
    const platform = await openPlatform(config, logger);
    try {
      await platform.projections.start();
      const answer = await executeCommand(platform, argv);
      if (!answer.ok) throw answer.usage ? new UsageError(answer.error) : new Error(answer.error);
      print(answer.result);
      return 0;
    } finally {
      await platform.close();
    }
  } finally {
    await lock?.release();
  }
}

const known = [ConfigError, StartupError, UsageError, DatabaseUnavailable];

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error: Error) => {
    const message = known.some((k) => error instanceof k) ? error.message : `${error.message || error.name}`;
    process.stderr.write(`stylist: ${message}\n`);
    process.exit(1);
  },
);
