// Consume options with their defaults applied and checked, shared by both adapters so a
// subject or setting that works embedded works the same on JetStream.
import type { ConsumeOptions, DeadLetter } from './port.js';

export interface Settings<T> {
  parse?: (payload: unknown) => T;
  concurrency: number;
  /** Fair delivery by key; undefined: arrival order. */
  maxPerKey?: number;
  maxDeliver: number;
  ackWaitMs: number;
  retryDelayMs: number;
  onDeadLetter?: (dead: DeadLetter) => Promise<void>;
  deadLetterPayload?: (payload: unknown) => unknown;
}

export function settingsOf<T>(options: ConsumeOptions<T>): Settings<T> {
  return {
    parse: options.parse,
    concurrency: positive('concurrency', options.concurrency ?? 1),
    maxPerKey: options.maxPerKey === undefined ? undefined : positive('maxPerKey', options.maxPerKey),
    maxDeliver: positive('maxDeliver', options.maxDeliver ?? 5),
    ackWaitMs: positive('ackWaitMs', options.ackWaitMs ?? 30_000),
    retryDelayMs: Math.max(0, options.retryDelayMs ?? 1_000),
    onDeadLetter: options.onDeadLetter,
    deadLetterPayload: options.deadLetterPayload,
  };
}

function positive(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
}

/** A fairness key is one subject token (JetStream files keyed messages under `<subject>.<key>`). */
export function validateKey(key: string): void {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(key)) throw new TypeError(`invalid work queue key: ${JSON.stringify(key)}`);
}

/** Dot-separated tokens of letters, digits, `_` and `-`: valid NATS subject and stream-name parts. */
export function validateSubject(subject: string): void {
  if (!/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(subject)) throw new TypeError(`invalid work queue subject: ${JSON.stringify(subject)}`);
}
