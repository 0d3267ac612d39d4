// The queue's semantics, shared by both adapters so a handler behaves the same embedded and on
// JetStream: parse the payload, run the handler, settle the delivery once (return acks, throw naks
// with the retry delay until maxDeliver, then dead-letter), record every message given up on, and
// stop with a grace period. The adapters only move messages: they hand over a TransportDelivery
// and carry out its ack, nak, working and term.
import { setTimeout as sleep } from 'node:timers/promises';
import type { DeadLetter, Job, JobHandler } from './port.js';
import type { Settings } from './settings.js';

/** One delivery of one message, as a transport hands it over. */
export interface TransportDelivery {
  /** The message id: the dedupe id it was enqueued with, or one the transport gave it. */
  readonly id: string;
  /** JSON text, parsed afresh on every delivery so a handler's mutations never leak into a retry. */
  readonly body: string;
  /** 1 on the first delivery. */
  readonly deliveryCount: number;
  ack(): void;
  /** Redeliver after `delayMs` (0: at once). */
  nak(delayMs: number): void;
  /** Restart the ack-wait clock. */
  working(): void;
  /** Never deliver it again. */
  term(): void;
  /** False once the transport gave the message to someone else (its ack wait passed). */
  current(): boolean;
}

/** Where every message given up on is recorded, whatever its subject (dead-letters.ts). */
export type DeadLetterSink = (dead: DeadLetter) => Promise<void>;

export interface Dispatcher {
  /** Runs the handler on one delivery and settles it; resolves once settled. */
  run(delivery: TransportDelivery): Promise<void>;
  /** A message the transport will not deliver again: its last delivery ended without an ack. */
  giveUp(message: { id: string; body: string; deliveryCount: number }): Promise<void>;
  /** Deliveries whose handler is still running. */
  readonly active: number;
  /** Waits up to `graceMs` for running handlers, then gives their messages back (nak). */
  stop(graceMs: number): Promise<void>;
}

/** The part of a payload a subject keeps in its dead letters; on a payload it cannot read, nothing. */
const keptOf = (keep: (payload: unknown) => unknown, payload: unknown): unknown => {
  try {
    return keep(payload);
  } catch {
    return null;
  }
};

export const unsettledReason = (deliveries: number): string =>
  `gave up after ${deliveries} deliveries: the last one ended without an ack (worker crashed, timed out, or naked it)`;

export function dispatcher<T>(subject: string, handler: JobHandler<T>, settings: Settings<T>, sink?: DeadLetterSink): Dispatcher {
  const running = new Map<TransportDelivery, Promise<void>>();
  const settled = new WeakSet<TransportDelivery>();

  const settle = (delivery: TransportDelivery, reply: () => void) => {
    if (settled.has(delivery)) return;
    settled.add(delivery);
    tryReply(reply);
  };

  // Recorded first (the durable trace an operator lists and replays), then the worker's own reaction.
  const deadLetter = async (given: DeadLetter) => {
    const dead = settings.deadLetterPayload ? { ...given, payload: keptOf(settings.deadLetterPayload, given.payload) } : given;
    for (const [what, record] of [['recording', sink], ['onDeadLetter', settings.onDeadLetter]] as const) {
      if (!record) continue;
      try {
        await record(dead);
      } catch (error) {
        process.emitWarning(`${what} failed for ${subject} message ${dead.id}: ${describe(error)}`);
      }
    }
  };

  const execute = async (delivery: TransportDelivery, payload: T) => {
    const job: Job<T> = {
      id: delivery.id,
      subject,
      payload,
      deliveryCount: delivery.deliveryCount,
      ack: async () => settle(delivery, () => delivery.ack()),
      nak: async (delayMs = 0) => settle(delivery, () => delivery.nak(Math.max(0, delayMs))),
      working: async () => {
        if (!settled.has(delivery) && delivery.current()) tryReply(() => delivery.working());
      },
    };
    try {
      await handler(job);
      settle(delivery, () => delivery.ack());
    } catch (error) {
      if (settled.has(delivery) || !delivery.current()) return;
      if (delivery.deliveryCount < settings.maxDeliver) return settle(delivery, () => delivery.nak(settings.retryDelayMs));
      settled.add(delivery);
      tryReply(() => delivery.working()); // no redelivery while the dead letter is written
      await deadLetter({ id: delivery.id, subject, payload, deliveryCount: delivery.deliveryCount, reason: describe(error) });
      tryReply(() => delivery.term());
    }
  };

  return {
    async run(delivery) {
      let raw: unknown;
      let payload: T;
      try {
        raw = JSON.parse(delivery.body);
        payload = settings.parse ? settings.parse(raw) : (raw as T);
      } catch (error) {
        settled.add(delivery);
        await deadLetter({ id: delivery.id, subject, payload: raw ?? delivery.body, deliveryCount: delivery.deliveryCount, reason: `invalid payload: ${describe(error)}` });
        tryReply(() => delivery.term());
        return;
      }
      const done = execute(delivery, payload).finally(() => running.delete(delivery));
      running.set(delivery, done);
      await done;
    },

    async giveUp(message) {
      await deadLetter({ id: message.id, subject, payload: parseJsonOr(message.body), deliveryCount: message.deliveryCount, reason: unsettledReason(message.deliveryCount) });
    },

    get active() {
      return running.size;
    },

    async stop(graceMs) {
      await waitFor([...running.values()], graceMs);
      for (const delivery of running.keys()) settle(delivery, () => delivery.nak(0));
    },
  };
}

function tryReply(reply: () => void): void {
  try {
    reply();
  } catch {
    // The connection is gone: the server redelivers after ack_wait, which the design allows.
  }
}

export function parseJsonOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Resolves when every promise has settled or after `ms`, leaving no timer behind. */
export async function waitFor(promises: Promise<unknown>[], ms: number): Promise<void> {
  if (promises.length === 0) return;
  const timer = new AbortController();
  await Promise.race([Promise.allSettled(promises), sleep(ms, undefined, { signal: timer.signal }).catch(() => undefined)]);
  timer.abort();
}
