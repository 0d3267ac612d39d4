// The production WorkQueue on NATS JetStream (nats.js v3). Per subject: one work-queue stream
// (acked and terminated messages leave it; `Nats-Msg-Id` + duplicate_window drop duplicates) and
// one durable pull consumer shared by every worker process (explicit ack, ack_wait, max_deliver,
// max_ack_pending = QUEUE_MAX_IN_FLIGHT). Each concurrency slot pulls one message only when it is
// free, so nothing waits in a client buffer while its ack-wait clock runs. What a delivery means
// (settle, retry, dead-letter) is semantics.ts, shared with the in-process adapter. Keyed messages
// and consumers with maxPerKey (fair delivery by organization) are jetstream-lanes.ts.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { connect, nanos, type NatsConnection } from '@nats-io/transport-node';
import {
  AckPolicy,
  DeliverPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  RetentionPolicy,
  StorageType,
  jetstreamManager,
  type ConsumerMessages,
  type Consumer as PullConsumer,
  type JetStreamManager,
  type JsMsg,
  type StreamConfig,
} from '@nats-io/jetstream';
import type { ConsumeOptions, Consumer, EnqueueOptions, JobHandler, WorkQueue } from './port.js';
import { describe, dispatcher, waitFor, type DeadLetterSink, type TransportDelivery } from './semantics.js';
import { settingsOf, validateKey, validateSubject, type Settings } from './settings.js';
import { startLaneConsumer } from './jetstream-lanes.js';
import { tryReply, watchMaxDeliveries } from './jetstream-advisories.js';

const DEFAULT_DEDUPE_WINDOW_MS = 2 * 60_000;
const DEFAULT_GRACE_MS = 10_000;
const DEFAULT_MAX_IN_FLIGHT = 1000; // the server's own default max_ack_pending
/** How long one pull waits on the server; nats.js refuses less than 1 s, and short pulls only add load. */
const PULL_EXPIRES_MS = 30_000;
const RETRY_PAUSE_MS = [500, 1_000, 2_000, 5_000];

export interface JetStreamQueueOptions {
  /** Namespaces subjects, stream and durable names (default `stylist`); tests use a random one. */
  prefix?: string;
  /** Duplicate window of the streams this queue creates (default 2 min). */
  dedupeWindowMs?: number;
  /** max_ack_pending of every durable: messages of one subject in flight across all processes (QUEUE_MAX_IN_FLIGHT). */
  maxInFlight?: number;
  /** Records every message given up on (dead-letters.ts). */
  deadLetters?: DeadLetterSink;
}

export async function openJetStreamQueue(options: JetStreamQueueOptions & { url: string; name?: string }): Promise<WorkQueue> {
  const where = redact(options.url);
  let nc: NatsConnection;
  try {
    nc = await connect({ servers: options.url.split(',').map((s) => s.trim()), name: options.name, maxReconnectAttempts: -1 });
  } catch (error) {
    throw new Error(`cannot connect to NATS at ${where}: ${describe(error)}`, { cause: error });
  }
  try {
    return await jetStreamQueue(nc, options);
  } catch (error) {
    await nc.close().catch(() => undefined);
    throw new Error(`cannot use JetStream at ${where}: ${describe(error)}`, { cause: error });
  }
}

/**
 * The queue over a connection the caller opened; `close()` drains it. Exported so a test can kill
 * a worker's connection without acking, the way a crashed process would.
 */
export async function jetStreamQueue(nc: NatsConnection, options: JetStreamQueueOptions = {}): Promise<WorkQueue> {
  const prefix = options.prefix ?? 'stylist';
  if (!/^[A-Za-z0-9_-]+$/.test(prefix)) throw new TypeError(`invalid JetStream queue prefix: ${JSON.stringify(prefix)}`);
  const duplicateWindow = nanos(options.dedupeWindowMs ?? DEFAULT_DEDUPE_WINDOW_MS);
  const maxInFlight = options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
  const deadLetters = options.deadLetters;
  const jsm = await jetstreamManager(nc); // fails here when the server has no JetStream
  const js = jsm.jetstream();
  const streams = new Map<string, Promise<void>>();
  const consumers = new Set<Consumer>();
  /** `stream:seq` of messages a handler in this process still holds. */
  const inflight = new Set<string>();
  let closed = false;

  const namesOf = (subject: string): Names => {
    validateSubject(subject);
    // Dots become underscores: `a.b` and `a_b` share a stream name, and ensureStream refuses the clash.
    const stream = `${prefix}_${subject.replaceAll('.', '_')}`;
    return { subject, natsSubject: `${prefix}.${subject}`, stream, durable: stream };
  };
  // Keyed messages: `<natsSubject>.<key>` on a stream of their own (one token more than the plain subject: no overlap).
  const keyedNamesOf = (names: Names): Names => ({ ...names, natsSubject: `${names.natsSubject}.*`, stream: `${names.stream}_by_key` });

  const ensureStream = (names: Names): Promise<void> => {
    let ready = streams.get(names.stream);
    if (!ready) {
      ready = createStream(jsm, names, duplicateWindow);
      streams.set(names.stream, ready);
      ready.catch(() => streams.delete(names.stream));
    }
    return ready;
  };

  const assertOpen = () => {
    if (closed) throw new Error('the work queue is closed');
  };

  return {
    kind: 'jetstream',

    async enqueue(subject: string, payload: unknown, options: EnqueueOptions = {}) {
      assertOpen();
      const names = namesOf(subject);
      const body = JSON.stringify(payload);
      if (body === undefined) throw new TypeError('a work queue payload must be JSON-serialisable');
      // Always a message id: it is the job id, and a retried publish cannot double the work.
      const msgID = options.dedupeId ?? randomUUID();
      if (options.key !== undefined) validateKey(options.key);
      const target = options.key === undefined ? names : keyedNamesOf(names);
      const publishTo = options.key === undefined ? names.natsSubject : `${names.natsSubject}.${options.key}`;
      const publish = async () => {
        await ensureStream(target);
        return js.publish(publishTo, body, { msgID });
      };
      const ack = await publish().catch(async (error: unknown) => {
        // The stream may have been deleted under us since we created it: create it again, once.
        if (!(await streamIsMissing(jsm, target.stream))) throw error;
        streams.delete(target.stream);
        return publish();
      });
      return { duplicate: ack.duplicate };
    },

    async consume<T>(subject: string, handler: JobHandler<T>, options: ConsumeOptions<T> = {}) {
      assertOpen();
      const names = namesOf(subject);
      const settings = settingsOf(options);
      await ensureStream(names);
      const { maxPerKey } = settings;
      const consumer =
        maxPerKey === undefined
          ? await startConsumer({ nc, jsm, names, handler, settings, maxInFlight, deadLetters, inflight, ensureStream: () => ensureStream(names) })
          : await startLaneConsumer({
              nc,
              jsm,
              names: { subject, stream: names.stream, durable: names.durable, keyedStream: keyedNamesOf(names).stream, keyedPrefix: `${names.natsSubject}.` },
              handler,
              settings: { ...settings, maxPerKey },
              deadLetters,
              inflight,
              ensureStreams: async () => {
                await Promise.all([ensureStream(names), ensureStream(keyedNamesOf(names))]);
              },
              plainDurable: () => upsertConsumer(jsm, names, settings, maxInFlight),
            });
      consumers.add(consumer);
      return {
        async stop(graceMs?: number) {
          consumers.delete(consumer);
          await consumer.stop(graceMs);
        },
      };
    },

    async ping() {
      assertOpen();
      await jsm.getAccountInfo();
    },

    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...consumers].map((consumer) => consumer.stop()));
      consumers.clear();
      if (!nc.isClosed()) await nc.drain();
    },
  };
}

interface Names {
  subject: string;
  natsSubject: string;
  stream: string;
  durable: string;
}

interface ConsumerContext<T> {
  nc: NatsConnection;
  jsm: JetStreamManager;
  names: Names;
  handler: JobHandler<T>;
  settings: Settings<T>;
  maxInFlight: number;
  deadLetters?: DeadLetterSink;
  inflight: Set<string>;
  ensureStream: () => Promise<void>;
}

async function startConsumer<T>(context: ConsumerContext<T>): Promise<Consumer> {
  const { nc, jsm, names, settings, inflight } = context;
  const key = (seq: number) => `${names.stream}:${seq}`;
  const dispatch = dispatcher(names.subject, context.handler, settings, context.deadLetters);
  const abort = new AbortController();
  const batches = new Set<ConsumerMessages>();
  const givingUp = new Set<Promise<void>>();
  let stopped = false;

  const prepare = async (): Promise<PullConsumer> => {
    await context.ensureStream();
    const info = await upsertConsumer(jsm, names, settings, context.maxInFlight);
    return jsm.jetstream().consumers.getConsumerFromInfo(info);
  };
  let pull = await prepare();

  const transport = (msg: JsMsg): TransportDelivery => ({
    id: msg.headers?.get('Nats-Msg-Id') || String(msg.seq),
    body: msg.string(),
    deliveryCount: msg.info.deliveryCount,
    ack: () => msg.ack(),
    nak: (delayMs) => msg.nak(delayMs > 0 ? delayMs : undefined),
    working: () => msg.working(),
    term: () => msg.term(),
    // The server alone knows whether the ack wait passed; a late ack is simply ignored there.
    current: () => true,
  });

  const deliver = async (msg: JsMsg) => {
    inflight.add(key(msg.seq));
    try {
      await dispatch.run(transport(msg));
    } finally {
      inflight.delete(key(msg.seq));
    }
  };

  // Leaving the loop at its first message ends the pull, and with it the pull's heartbeat monitor,
  // which would otherwise fail the iteration ("heartbeats missed") under a handler running > 30 s.
  const take = async (): Promise<JsMsg | undefined> => {
    const batch = await pull.fetch({ max_messages: 1, expires: PULL_EXPIRES_MS });
    batches.add(batch);
    try {
      if (stopped) void batch.close();
      for await (const msg of batch) return msg;
      return undefined;
    } finally {
      batches.delete(batch);
    }
  };

  const slot = async () => {
    let failures = 0;
    while (!stopped && !nc.isClosed()) {
      let msg: JsMsg | undefined;
      try {
        msg = await take();
        failures = 0;
      } catch {
        // Lost consumer or stream, missed heartbeats, a restarting server: pause, recreate, retry.
        if (stopped || nc.isClosed()) break;
        await sleep(RETRY_PAUSE_MS[Math.min(failures++, RETRY_PAUSE_MS.length - 1)], undefined, { signal: abort.signal }).catch(() => undefined);
        if (!stopped) pull = await prepare().catch(() => pull);
        continue;
      }
      const taken = msg;
      if (!taken) continue;
      // A message that raced the stop goes straight back for another worker.
      if (stopped) tryReply(() => taken.nak());
      else await deliver(taken);
    }
  };

  const advisories = watchMaxDeliveries({
    nc,
    jsm,
    subject: names.subject,
    stream: names.stream,
    durable: names.durable,
    queueGroup: `${names.durable}-dead-letters`,
    inflight,
    dispatch,
    maxDeliver: settings.maxDeliver,
    stopped: () => stopped,
    givingUp,
  });

  for (let i = 0; i < settings.concurrency; i++) void slot();

  return {
    async stop(graceMs = DEFAULT_GRACE_MS) {
      if (stopped) return;
      stopped = true;
      abort.abort();
      tryReply(() => advisories.unsubscribe());
      for (const batch of batches) void batch.close();
      await Promise.all([dispatch.stop(graceMs), waitFor([...givingUp], graceMs)]);
    },
  };
}

async function createStream(jsm: JetStreamManager, names: Names, duplicateWindow: number): Promise<void> {
  const config: Partial<StreamConfig> & { name: string } = {
    name: names.stream,
    subjects: [names.natsSubject],
    retention: RetentionPolicy.Workqueue,
    storage: StorageType.File,
    duplicate_window: duplicateWindow,
  };
  try {
    await jsm.streams.add(config);
    return;
  } catch (error) {
    // Already there with another configuration: adopt it if it carries our subject.
    const info = await jsm.streams.info(names.stream).catch(() => {
      throw error;
    });
    if (!info.config.subjects?.includes(names.natsSubject)) {
      const owner = info.config.subjects?.join(', ');
      throw new Error(`stream ${names.stream} exists for ${owner}, not ${names.natsSubject}`, { cause: error });
    }
    if (info.config.duplicate_window !== duplicateWindow) {
      await jsm.streams.update(names.stream, { ...info.config, duplicate_window: duplicateWindow });
    }
  }
}

async function streamIsMissing(jsm: JetStreamManager, stream: string): Promise<boolean> {
  return jsm.streams.info(stream).then(
    () => false,
    (error: unknown) => error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound,
  );
}

// Workers of one subject share the durable, so the latest settings win. max_ack_pending is the
// cluster's limit (QUEUE_MAX_IN_FLIGHT), not one process's concurrency: set to the latter, a
// second worker process added nothing, and a dead worker's unacknowledged message held the only
// slot until its ack_wait ran out. Updating a durable keeps its messages and delivery state.
async function upsertConsumer<T>(jsm: JetStreamManager, names: Names, settings: Settings<T>, maxInFlight: number) {
  const config = {
    ack_wait: nanos(settings.ackWaitMs),
    max_deliver: settings.maxDeliver,
    max_ack_pending: maxInFlight,
  };
  try {
    return await jsm.consumers.add(names.stream, {
      durable_name: names.durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ...config,
    });
  } catch (error) {
    // Servers from 2.10 refuse to "create" over an existing, different durable: update it instead.
    return await jsm.consumers.update(names.stream, names.durable, config).catch(() => {
      throw error;
    });
  }
}


// Connection errors are printed: keep passwords and tokens out of them.
/** The URL with its password (or token) masked, for error messages. */
export function redact(url: string): string {
  return url.replace(/\/\/([^/@]*)@/g, (_, userinfo: string) => (userinfo.includes(':') ? `//${userinfo.split(':')[0]}:***@` : '//***@'));
}
