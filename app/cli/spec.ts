// The shape of an operator command and the helpers every command module shares.
import { randomUUID } from 'node:crypto';
import type { CommandMeta } from '../../domain/metadata.js';
import type { Position } from '../../infra/eventstore/port.js';
import type { Platform } from '../platform.js';
import type { ProgressSink } from './progress.js';

export interface CommandContext {
  progress: ProgressSink;
}

export interface CommandSpec {
  /** Words that name the command, e.g. ['org', 'create']. */
  words: string[];
  usage: string;
  options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;
  /** At most this many words after the command words. */
  maxArguments?: number;
  /** `context.progress` reports long work (a terminal shows it; see progress.ts). */
  run(platform: Platform, values: Record<string, unknown>, args: string[], context: CommandContext): Promise<Record<string, unknown>>;
  text(result: Record<string, any>): string;
}

export class UsageError extends Error {
  override name = 'UsageError';
}

/** Commands from the command line act as the system's `cli` actor. */
export const operator = (): CommandMeta => ({
  now: new Date().toISOString(),
  actor: { kind: 'system', id: 'cli' },
  correlationId: randomUUID(),
});

export const required = (values: Record<string, unknown>, name: string): string => {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value;
};

/**
 * How long a command waits for its read models. Longer than a request's wait: what the command
 * wrote is already stored, and an operator on a loaded machine would rather wait a few seconds more
 * than be told it failed (the suite under load once saw `org create` time out at 5 s).
 */
export const CLI_READ_MODEL_WAIT_MS = 30_000;

/** Waits until the named read models show what the command wrote. */
export const settle = async (platform: Platform, result: { position: Position | null }, projections: string[]): Promise<void> => {
  if (result.position) await platform.projections.waitFor(result.position, projections, CLI_READ_MODEL_WAIT_MS);
};
