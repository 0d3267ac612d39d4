// The embedded WorkQueue: JetStream's work-queue semantics in memory, so `npm start` and the
// embedded test run exercise the same contract as production (test/infra/workqueue.contract.ts).
// Messages live per subject; a consumer takes them while it has a free concurrency slot.
import { randomUUID } from 'node:crypto';
import type { ConsumeOptions, Consumer, EnqueueOptions, Job, JobHandler, WorkQueue } from './port.js';
import { settingsOf, validateSubject, type Settings } from './settings.js';

const DEFAULT_DEDUPE_WINDOW_MS = 2 * 60_000; // JetStream's default duplicate_window
const DEFAULT_GRACE_MS = 10_000;

interface Message {
  readonly id: string;
  readonly subject: string;
  /** JSON text, parsed afresh on every delivery so a handler's mutations never leak into a retry. */
  readonly body: string;
  deliveries: number;
  state: 'ready' | 'delayed' | 'inflight' | 'done';
  current?: Delivery;
  delayTimer?: NodeJS.Timeout;
}

interface Delivery {
  readonly message: Message;
  readonly count: number;
  /** Set once the delivery is acked, naked or given up on; later calls are ignored. */
  settled: boolean;
  ackTimer?: NodeJS.Timeout;
  handler?: Promise<void>;
}

interface SubjectState {
  readonly ready: Message[];
  readonly delayed: Set<Message>;
  readonly consumers: InProcessConsumer[];
  readonly seen: Map<string, number>; // dedupe id → expiry (ms since epoch)
  next: number; // round-robin cursor over consumers
}

interface InProcessConsumer extends Consumer {
  readonly settings: Settings<unknown>;
  readonly active: Set<Delivery>;
  stopped: boolean;
  deliver(message: Message): void;
}

export function createInProcessQueue(options: { dedupeWindowMs?: number } = {}): WorkQueue {
  const dedupeWindowMs = options.dedupeWindowMs ?? DEFAULT_DEDUPE_WINDOW_MS;
  const subjects = new Map<string, SubjectState>();
  let closed = false;

  const stateOf = (subject: string): SubjectState => {
    let state = subjects.get(subject);
    if (!state) {
      state = { ready: [], delayed: new Set(), consumers: [], seen: new Map(), next: 0 };
      subjects.set(subject, state);
    }
    return state;
  };

  const assertOpen = () => {
    if (closed) throw new Error('the work queue is closed');
  };

  // Hands due messages to consumers with a free slot, round robin, until one side runs out.
  const pump = (state: SubjectState) => {
    while (state.ready.length > 0) {
      const consumer = pickConsumer(state);
      if (!consumer) return;
      const message = state.ready.shift() as Message;
      consumer.deliver(message);
    }
  };

  const pickConsumer = (state: SubjectState): InProcessConsumer | undefined => {
    const { consumers } = state;
    for (let i = 0; i < consumers.length; i++) {
      const consumer = consumers[(state.next + i) % consumers.length] as InProcessConsumer;
      if (!consumer.stopped && consumer.active.size < consumer.settings.concurrency) {
        state.next = (state.next + i + 1) % consumers.length;
        return consumer;
      }
    }
    return undefined;
  };

  // Redeliveries go to the head of the line, as JetStream serves its redelivery queue first.
  const requeue = (message: Message, delayMs: number) => {
    const state = stateOf(message.subject);
    message.current = undefined;
    if (delayMs > 0) {
      message.state = 'delayed';
      state.delayed.add(message);
      message.delayTimer = setTimeout(() => {
        state.delayed.delete(message);
        message.delayTimer = undefined;
        message.state = 'ready';
        state.ready.unshift(message);
        pump(state);
      }, delayMs);
      return;
    }
    message.state = 'ready';
    state.ready.unshift(message);
    pump(state);
  };

  const finish = (message: Message) => {
    message.state = 'done';
    message.current = undefined;
  };

  const createConsumer = <T>(subject: string, handler: JobHandler<T>, settings: Settings<T>): InProcessConsumer => {
    const state = stateOf(subject);
    const active = new Set<Delivery>();

    const clearAckTimer = (delivery: Delivery) => {
      clearTimeout(delivery.ackTimer);
      delivery.ackTimer = undefined;
    };

    const armAckTimer = (delivery: Delivery) => {
      clearAckTimer(delivery);
      // Not settled in time: the worker is presumed dead and the message goes to someone else,
      // while this handler keeps its slot until it returns (as a hung JetStream client would).
      delivery.ackTimer = setTimeout(() => {
        delivery.ackTimer = undefined;
        if (delivery.message.current === delivery) requeue(delivery.message, 0);
      }, settings.ackWaitMs);
    };

    const isCurrent = (delivery: Delivery) => !delivery.settled && delivery.message.current === delivery;

    const ack = (delivery: Delivery) => {
      if (delivery.settled) return;
      delivery.settled = true;
      clearAckTimer(delivery);
      const { message } = delivery;
      if (message.current === delivery) return finish(message);
      // A late ack still wins while the message waits for its redelivery, as on JetStream.
      if (message.deliveries === delivery.count && (message.state === 'ready' || message.state === 'delayed')) {
        const index = state.ready.indexOf(message);
        if (index >= 0) state.ready.splice(index, 1);
        clearTimeout(message.delayTimer);
        state.delayed.delete(message);
        finish(message);
      }
    };

    const nak = (delivery: Delivery, delayMs: number) => {
      if (!isCurrent(delivery)) return;
      delivery.settled = true;
      clearAckTimer(delivery);
      requeue(delivery.message, delayMs);
    };

    const deadLetter = async (message: Message, deliveryCount: number, reason: string, payload: unknown) => {
      finish(message);
      if (!settings.onDeadLetter) return;
      try {
        await settings.onDeadLetter({ id: message.id, subject, payload, deliveryCount, reason });
      } catch (error) {
        process.emitWarning(`onDeadLetter failed for ${subject} message ${message.id}: ${describe(error)}`);
      }
    };

    const run = async (delivery: Delivery, payload: T) => {
      const job: Job<T> = {
        id: delivery.message.id,
        subject,
        payload,
        deliveryCount: delivery.count,
        ack: async () => ack(delivery),
        nak: async (delayMs = 0) => nak(delivery, delayMs),
        working: async () => {
          if (isCurrent(delivery)) armAckTimer(delivery);
        },
      };
      try {
        await handler(job);
        ack(delivery);
      } catch (error) {
        if (!isCurrent(delivery)) return;
        if (delivery.count >= settings.maxDeliver) {
          delivery.settled = true;
          clearAckTimer(delivery);
          await deadLetter(delivery.message, delivery.count, describe(error), payload);
        } else {
          nak(delivery, settings.retryDelayMs);
        }
      }
    };

    const consumer: InProcessConsumer = {
      settings: settings as Settings<unknown>,
      active,
      stopped: false,
      deliver(message) {
        const raw = JSON.parse(message.body) as unknown;
        // Due again after its last allowed delivery (a crash, a nak or a stop): give up on it,
        // as JetStream does at max_deliver (see the MAX_DELIVERIES advisory in jetstream.ts).
        if (message.deliveries >= settings.maxDeliver) {
          void deadLetter(message, message.deliveries, unsettledReason(message.deliveries), raw);
          return;
        }
        message.deliveries += 1;
        let payload: T;
        try {
          payload = settings.parse ? settings.parse(raw) : (raw as T);
        } catch (error) {
          void deadLetter(message, message.deliveries, `invalid payload: ${describe(error)}`, raw);
          return;
        }
        const delivery: Delivery = { message, count: message.deliveries, settled: false };
        message.state = 'inflight';
        message.current = delivery;
        active.add(delivery);
        armAckTimer(delivery);
        delivery.handler = run(delivery, payload).finally(() => {
          clearAckTimer(delivery);
          active.delete(delivery);
          // The next message waits one turn of the event loop, as one from a network queue would.
          // Handed over at once, a handler whose awaits all settle without I/O (PGlite answers on
          // this thread) would run job after job in microtasks, and timers (the projection
          // runner's polls, ack timers) and sockets would never get a turn.
          if (!consumer.stopped) setImmediate(() => pump(state));
        });
      },
      async stop(graceMs = DEFAULT_GRACE_MS) {
        if (consumer.stopped) return;
        consumer.stopped = true;
        const index = state.consumers.indexOf(consumer);
        if (index >= 0) state.consumers.splice(index, 1);
        await waitFor([...active].map((delivery) => delivery.handler as Promise<void>), graceMs);
        for (const delivery of active) {
          nak(delivery, 0);
          clearAckTimer(delivery);
          delivery.settled = true;
        }
        active.clear();
      },
    };
    return consumer;
  };

  return {
    kind: 'inprocess',

    async enqueue(subject: string, payload: unknown, options: EnqueueOptions = {}) {
      assertOpen();
      validateSubject(subject);
      const body = toJson(payload);
      const state = stateOf(subject);
      const now = Date.now();
      // Entries go in with the same window, so the oldest come first and the sweep stops early.
      for (const [id, expiresAt] of state.seen) {
        if (expiresAt > now) break;
        state.seen.delete(id);
      }
      if (options.dedupeId !== undefined) {
        if ((state.seen.get(options.dedupeId) ?? 0) > now) return { duplicate: true };
        state.seen.delete(options.dedupeId);
        state.seen.set(options.dedupeId, now + dedupeWindowMs);
      }
      const message: Message = { id: options.dedupeId ?? randomUUID(), subject, body, deliveries: 0, state: 'ready' };
      state.ready.push(message);
      pump(state);
      return { duplicate: false };
    },

    async consume<T>(subject: string, handler: JobHandler<T>, options: ConsumeOptions<T> = {}) {
      assertOpen();
      validateSubject(subject);
      const consumer = createConsumer(subject, handler, settingsOf(options));
      const state = stateOf(subject);
      state.consumers.push(consumer);
      // Let the caller finish wiring up before the first delivery, as a network consumer would.
      queueMicrotask(() => pump(state));
      return consumer;
    },

    async ping() {
      assertOpen();
    },

    async close() {
      if (closed) return;
      closed = true;
      const consumers = [...subjects.values()].flatMap((state) => state.consumers);
      await Promise.all(consumers.map((consumer) => consumer.stop()));
      for (const state of subjects.values()) {
        for (const message of state.delayed) clearTimeout(message.delayTimer);
        state.delayed.clear();
        state.ready.length = 0;
      }
      subjects.clear();
    },
  };
}

function toJson(payload: unknown): string {
  const body = JSON.stringify(payload);
  if (body === undefined) throw new TypeError('a work queue payload must be JSON-serialisable');
  return body;
}

function unsettledReason(deliveries: number): string {
  return `gave up after ${deliveries} deliveries: the last one ended without an ack (worker crashed, timed out, or naked it)`;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// Resolves when every promise has settled or after `ms`, leaving no timer behind.
async function waitFor(promises: Promise<unknown>[], ms: number): Promise<void> {
  if (promises.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  try {
    await Promise.race([Promise.allSettled(promises), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
