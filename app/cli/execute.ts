// Finds the command named by argv, checks its options and runs it against an open platform.
import { parseArgs } from 'node:util';
import { DomainError } from '../../domain/errors.js';
import type { AdminAnswer } from '../admin.js';
import type { Platform } from '../platform.js';
import { commands, UsageError, type CommandSpec } from './commands.js';
import { noProgress, type ProgressSink } from './progress.js';

export function findCommand(argv: string[]): { spec: CommandSpec; values: Record<string, unknown>; args: string[]; json: boolean } {
  const spec = commands
    .filter((c) => c.words.every((word, i) => argv[i] === word))
    .sort((a, b) => b.words.length - a.words.length)[0];
  if (!spec) throw new UsageError(`unknown command: ${argv.join(' ') || '(none)'}`);
  let parsed;
  try {
    parsed = parseArgs({
      args: argv.slice(spec.words.length),
      options: { ...spec.options, json: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message.split('\n')[0]}\nusage: ${spec.usage}`);
  }
  if (parsed.positionals.length > (spec.maxArguments ?? 0)) throw new UsageError(`unexpected argument ${parsed.positionals.join(' ')}\nusage: ${spec.usage}`);
  const { json, ...values } = parsed.values as Record<string, unknown>;
  return { spec, values, args: parsed.positionals, json: json === true };
}

export async function executeCommand(platform: Platform, argv: string[], progress: ProgressSink = noProgress): Promise<AdminAnswer> {
  try {
    const { spec, values, args } = findCommand(argv);
    return { ok: true, result: await spec.run(platform, values, args, { progress }) };
  } catch (error) {
    if (error instanceof UsageError) return { ok: false, error: error.message, usage: true };
    if (error instanceof DomainError) return { ok: false, error: error.message };
    platform.logger.error({ err: error, argv: argv.slice(0, 2) }, 'admin command failed');
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
