// The embedded WorkQueue: JetStream's work-queue semantics in memory, so `npm start` and the
// embedded test run exercise the same contract as production (test/infra/workqueue.contract.ts).
// Messages live per subject; a consumer takes them while it has a free concurrency slot and the
// subject is under its in-flight limit: the oldest first, or with maxPerKey the keys in turn, each
// under its own in-flight limit (waiting-line.ts). What a delivery means (settle, retry, dead-letter) is
// semantics.ts, shared with the JetStream adapter; this file only moves messages.
import { randomUUID } from 'node:crypto';
import type { ConsumeOptions, Consumer, EnqueueOptions, JobHandler, WorkQueue } from './port.js';
import { dispatcher, type DeadLetterSink, type Dispatcher, type TransportDelivery } from './semantics.js';
import { settingsOf, validateKey, validateSubject, type Settings } from './settings.js';
import { WaitingLine } from './waiting-line.js';

const DEFAULT_DEDUPE_WINDOW_MS = 2 * 60_000; // JetStream's default duplicate_window
const DEFAULT_GRACE_MS = 10_000;
const DEFAULT_MAX_IN_FLIGHT = 1000; // JetStream's default max_ack_pending

interface Message {
  readonly id: string;
  readonly subject: string;
  readonly body: string;
  /** EnqueueOptions.key, '' without one. */
  readonly key: string;
  place: number;
  deliveries: number;
  state: 'ready' | 'delayed' | 'inflight' | 'done';
  /** The delivery the message is out on; an older one whose ack wait passed no longer counts. */
  current?: object;
  delayTimer?: NodeJS.Timeout;
}

interface SubjectState {
  readonly ready: WaitingLine<Message>;
  /** Messages in flight per key. */
  readonly flying: Map<string, number>;
  readonly delayed: Set<Message>;
  readonly consumers: InProcessConsumer[];
  readonly seen: Map<string, number>; // dedupe id → expiry (ms since epoch)
  next: number; // round-robin cursor over consumers
}

interface InProcessConsumer extends Consumer {
  readonly settings: Settings<unknown>;
  readonly dispatch: Dispatcher;
  stopped: boolean;
  deliver(message: Message): void;
}

export interface InProcessQueueOptions {
  dedupeWindowMs?: number;
  /** Messages of one subject in flight at once across its consumers (QUEUE_MAX_IN_FLIGHT). */
  maxInFlight?: number;
  /** Records every message given up on (dead-letters.ts). */
  deadLetters?: DeadLetterSink;
}

export function createInProcessQueue(options: InProcessQueueOptions = {}): WorkQueue {
  const dedupeWindowMs = options.dedupeWindowMs ?? DEFAULT_DEDUPE_WINDOW_MS;
  const maxInFlight = options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
  const subjects = new Map<string, SubjectState>();
  let closed = false;

  const stateOf = (subject: string): SubjectState => {
    let state = subjects.get(subject);
    if (!state) {
      state = { ready: new WaitingLine(), flying: new Map(), delayed: new Set(), consumers: [], seen: new Map(), next: 0 };
      subjects.set(subject, state);
    }
    return state;
  };

  const assertOpen = () => {
    if (closed) throw new Error('the work queue is closed');
  };

  // Hands due messages to consumers with a free slot, round robin, until one side runs out.
  const pump = (state: SubjectState) => {
    while (state.ready.size > 0) {
      const consumer = pickConsumer(state);
      if (!consumer) return;
      const limit = consumer.settings.maxPerKey;
      const message = limit === undefined ? state.ready.takeOldest() : state.ready.takeFair((key) => (state.flying.get(key) ?? 0) < limit);
      if (!message) return;
      consumer.deliver(message);
    }
  };

  // A message leaving or entering flight changes its key's count.
  const moveTo = (message: Message, next: Message['state']) => {
    const flying = stateOf(message.subject).flying;
    const change = (next === 'inflight' ? 1 : 0) - (message.state === 'inflight' ? 1 : 0);
    if (change) {
      const count = (flying.get(message.key) ?? 0) + change;
      if (count > 0) flying.set(message.key, count);
      else flying.delete(message.key);
    }
    message.state = next;
  };

  const pickConsumer = (state: SubjectState): InProcessConsumer | undefined => {
    const { consumers } = state;
    if (consumers.reduce((sum, consumer) => sum + consumer.dispatch.active, 0) >= maxInFlight) return undefined;
    for (let i = 0; i < consumers.length; i++) {
      const consumer = consumers[(state.next + i) % consumers.length] as InProcessConsumer;
      if (!consumer.stopped && consumer.dispatch.active < consumer.settings.concurrency) {
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
      moveTo(message, 'delayed');
      state.delayed.add(message);
      message.delayTimer = setTimeout(() => {
        state.delayed.delete(message);
        message.delayTimer = undefined;
        moveTo(message, 'ready');
        state.ready.unshift(message);
        pump(state);
      }, delayMs);
      return;
    }
    moveTo(message, 'ready');
    state.ready.unshift(message);
    pump(state);
  };

  const finish = (message: Message) => {
    moveTo(message, 'done');
    message.current = undefined;
  };

  const createConsumer = <T>(subject: string, handler: JobHandler<T>, settings: Settings<T>): InProcessConsumer => {
    const state = stateOf(subject);
    const dispatch = dispatcher(subject, handler, settings, options.deadLetters);

    // One delivery: an ack timer that hands the message to someone else when it runs out, while
    // the handler keeps its slot until it returns (as a hung JetStream client would).
    const transport = (message: Message): TransportDelivery => {
      const token = {};
      let ackTimer: NodeJS.Timeout | undefined;
      const current = () => message.current === token;
      const clear = () => {
        clearTimeout(ackTimer);
        ackTimer = undefined;
      };
      const arm = () => {
        clear();
        ackTimer = setTimeout(() => {
          ackTimer = undefined;
          if (current()) requeue(message, 0);
        }, settings.ackWaitMs);
      };
      const count = message.deliveries;
      moveTo(message, 'inflight');
      message.current = token;
      arm();
      return {
        id: message.id,
        body: message.body,
        deliveryCount: count,
        current,
        working: () => {
          if (current()) arm();
        },
        ack: () => {
          clear();
          if (current()) return finish(message);
          // A late ack still wins while the message waits for its redelivery, as on JetStream.
          if (message.deliveries === count && (message.state === 'ready' || message.state === 'delayed')) {
            state.ready.remove(message);
            clearTimeout(message.delayTimer);
            state.delayed.delete(message);
            finish(message);
          }
        },
        nak: (delayMs) => {
          clear();
          if (current()) requeue(message, delayMs);
        },
        term: () => {
          clear();
          if (current()) finish(message);
        },
      };
    };

    const consumer: InProcessConsumer = {
      settings: settings as Settings<unknown>,
      dispatch,
      stopped: false,
      deliver(message) {
        // Due again after its last allowed delivery (a crash, a nak or a stop): give up on it,
        // as JetStream does at max_deliver (see the MAX_DELIVERIES advisory in jetstream.ts).
        if (message.deliveries >= settings.maxDeliver) {
          finish(message);
          void dispatch.giveUp({ id: message.id, body: message.body, deliveryCount: message.deliveries });
          return;
        }
        message.deliveries += 1;
        const delivery = transport(message);
        void dispatch.run(delivery).finally(() => {
          // The next message waits one turn of the event loop, as one from a network queue would.
          // Handed over at once, a handler whose awaits all settle without I/O (PGlite answers on
          // this thread) would run job after job in microtasks, and timers (the projection
          // runner's polls, ack timers) and sockets would never get a turn.
          setImmediate(() => pump(state));
        });
      },
      async stop(graceMs = DEFAULT_GRACE_MS) {
        if (consumer.stopped) return;
        consumer.stopped = true;
        const index = state.consumers.indexOf(consumer);
        if (index >= 0) state.consumers.splice(index, 1);
        await dispatch.stop(graceMs);
      },
    };
    return consumer;
  };

  return {
    kind: 'inprocess',

    async enqueue(subject: string, payload: unknown, options: EnqueueOptions = {}) {
      assertOpen();
      validateSubject(subject);
      const body = JSON.stringify(payload);
      if (body === undefined) throw new TypeError('a work queue payload must be JSON-serialisable');
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
      if (options.key !== undefined) validateKey(options.key);
      state.ready.push({ id: options.dedupeId ?? randomUUID(), subject, body, key: options.key ?? '', place: 0, deliveries: 0, state: 'ready' });
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
        state.ready.clear();
      }
      subjects.clear();
    },
  };
}
