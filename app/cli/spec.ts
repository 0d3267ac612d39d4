// The shape of an operator command, shared by every command module.
import type { Platform } from '../platform.js';

export interface CommandSpec {
  /** Words that name the command, e.g. ['org', 'create']. */
  words: string[];
  usage: string;
  options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;
  /** At most this many words after the command words. */
  maxArguments?: number;
  run(platform: Platform, values: Record<string, unknown>, args: string[]): Promise<Record<string, unknown>>;
  text(result: Record<string, any>): string;
}

export class UsageError extends Error {
  override name = 'UsageError';
}
