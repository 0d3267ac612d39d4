// `stylist …`: every failure ends as one line on stderr and exit code 1, never a stack trace alone.
import { PROCESS_UMASK } from '../data-dir.js';
import { runCli } from './run.js';

// The embedded database, stored files and the admin channel are the service's alone: files this
// process creates are 0600 (PGlite would otherwise leave its files 0666 under a 0022 umask).
process.umask(PROCESS_UMASK);

const outcome = await runCli(process.argv.slice(2), { env: process.env, stdout: process.stdout, stderr: process.stderr });
if ('exitCode' in outcome) process.exit(outcome.exitCode);

const service = outcome.serving;
let signals = 0;
const stop = (signal: string) => {
  if (++signals > 1) process.exit(130);
  service.platform.logger.info({ signal }, 'shutting down');
  service.shutdown().then(() => process.exit(0));
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
