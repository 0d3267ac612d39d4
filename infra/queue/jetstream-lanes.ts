// Fair delivery by key on JetStream (ConsumeOptions.maxPerKey). A keyed message is published to
// `<subject>.<key>` on a stream of its own (`<stream>_by_key`); each key is read by a durable of its
// own filtered to its subject, whose max_ack_pending is maxPerKey: the server holds every key to
// its limit across all processes. Each slot of a process takes its next message from the next key
// in turn that has undelivered messages (known from the consumers' info, refreshed a few times a
// second), so a key that arrives behind another's backlog of thousands is served at the next free
// slot. Unkeyed messages (older ones, replayed dead letters) are one more lane: the subject's own
// durable. A key's durable left unused for an hour is removed by the server (inactive_threshold).
import { setTimeout as sleep } from 'node:timers/promises';
import { nanos, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import { AckPolicy, DeliverPolicy, type ConsumerInfo, type ConsumerMessages, type Consumer as PullConsumer, type JetStreamManager, type JsMsg } from '@nats-io/jetstream';
import type { Consumer, JobHandler } from './port.js';
import { dispatcher, waitFor, type DeadLetterSink, type TransportDelivery } from './semantics.js';
import type { Settings } from './settings.js';
import { tryReply, watchMaxDeliveries } from './jetstream-advisories.js';

const DEFAULT_GRACE_MS = 10_000;
/** How often the lanes' backlogs are read again. */
const REFRESH_MS = 250;
/** nats.js refuses shorter pulls; a pull on a lane at its limit waits this long for nothing. */
const PULL_EXPIRES_MS = 1_000;
const IDLE_KEY_MS = 60 * 60_000;

export interface LaneNames {
  subject: string;
  /** The plain stream and its durable: unkeyed messages. */
  stream: string;
  durable: string;
  /** The keyed stream: `<natsSubject>.<key>`. */
  keyedStream: string;
  keyedPrefix: string;
}

export interface LaneContext<T> {
  nc: NatsConnection;
  jsm: JetStreamManager;
  names: LaneNames;
  handler: JobHandler<T>;
  settings: Settings<T> & { maxPerKey: number };
  deadLetters?: DeadLetterSink;
  /** `stream:seq` of messages a handler in this process still holds. */
  inflight: Set<string>;
  /** Creates both streams if missing. */
  ensureStreams: () => Promise<void>;
  /** Creates or updates the plain durable (the subject's own, max_ack_pending QUEUE_MAX_IN_FLIGHT). */
  plainDurable: () => Promise<ConsumerInfo>;
}

interface Lane {
  key: string | null;
  stream: string;
  durable: string;
  pull?: PullConsumer;
  preparing?: Promise<PullConsumer>;
  /** Undelivered messages as last read. */
  pending: number;
  /** Delivered and not acknowledged (some may be waiting for their redelivery). */
  unacked: number;
  limit: number;
  /** A pull found nothing: leave the lane alone until then. */
  quietUntil: number;
}

export async function startLaneConsumer<T>(context: LaneContext<T>): Promise<Consumer> {
  const { nc, jsm, names, settings, inflight } = context;
  const dispatch = dispatcher(names.subject, context.handler, settings, context.deadLetters);
  const abort = new AbortController();
  const batches = new Set<ConsumerMessages>();
  const givingUp = new Set<Promise<void>>();
  const lanes = new Map<string, Lane>();
  let turn = 0;
  let stopped = false;
  // Idle slots wait for the next refresh or for a message of this process to be settled.
  const idle = new Set<() => void>();
  const nudge = () => {
    for (const wake of idle) wake();
    idle.clear();
  };
  const rest = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, REFRESH_MS);
      idle.add(() => {
        clearTimeout(timer);
        resolve();
      });
    });

  await context.ensureStreams();
  const plain: Lane = { key: null, stream: names.stream, durable: names.durable, pending: 0, unacked: 0, limit: Infinity, quietUntil: 0 };
  plain.pull = jsm.jetstream().consumers.getConsumerFromInfo(await context.plainDurable());
  lanes.set('', plain);

  const keyedDurable = (key: string) => `${names.durable}_k_${key}`;
  const prepare = (lane: Lane): Promise<PullConsumer> => {
    lane.preparing ??= (async () => {
      if (lane.key === null) {
        lane.pull = jsm.jetstream().consumers.getConsumerFromInfo(await context.plainDurable());
        return lane.pull;
      }
      const config = {
        ack_wait: nanos(settings.ackWaitMs),
        max_deliver: settings.maxDeliver,
        max_ack_pending: settings.maxPerKey,
        inactive_threshold: nanos(IDLE_KEY_MS),
      };
      const info = await jsm.consumers
        .add(lane.stream, { durable_name: lane.durable, ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.All, filter_subject: `${names.keyedPrefix}${lane.key}`, ...config })
        .catch(() => jsm.consumers.update(lane.stream, lane.durable, config));
      lane.pull = jsm.jetstream().consumers.getConsumerFromInfo(info);
      return lane.pull;
    })().finally(() => {
      lane.preparing = undefined;
    });
    return lane.preparing;
  };

  // What each lane has waiting: keys from the keyed stream's subjects, counts from the durables.
  const refresh = async () => {
    const info = await jsm.streams.info(names.keyedStream, { subjects_filter: `${names.keyedPrefix}>` });
    const keys = Object.entries(info.state.subjects ?? {}).filter(([, count]) => count > 0).map(([subject]) => subject.slice(names.keyedPrefix.length));
    for (const key of keys) {
      if (!lanes.has(key)) lanes.set(key, { key, stream: names.keyedStream, durable: keyedDurable(key), pending: 1, unacked: 0, limit: settings.maxPerKey, quietUntil: 0 });
    }
    const present = new Set(keys);
    for (const [key, lane] of lanes) {
      if (lane.key !== null && !present.has(key)) {
        lanes.delete(key);
        continue;
      }
      if (!lane.pull) continue;
      const consumer = await jsm.consumers.info(lane.stream, lane.durable).catch(() => null);
      if (!consumer) {
        lane.pull = undefined; // removed as idle, or the stream was recreated: prepared again on its turn
        continue;
      }
      lane.pending = consumer.num_pending;
      lane.unacked = consumer.num_ack_pending;
    }
  };
  const refresher = (async () => {
    while (!stopped) {
      await refresh().catch(() => undefined);
      nudge();
      await sleep(REFRESH_MS, undefined, { signal: abort.signal }).catch(() => undefined);
    }
  })();

  /**
   * The next lane in turn with something to take: undelivered messages under its limit, or
   * unacknowledged ones that may be waiting for their redelivery (tried at most once a second).
   */
  const pick = (): Lane | undefined => {
    const all = [...lanes.values()];
    const now = Date.now();
    for (let i = 0; i < all.length; i++) {
      const lane = all[(turn + i) % all.length]!;
      if (lane.quietUntil > now) continue;
      const ready = lane.pending > 0 && lane.unacked < lane.limit;
      const maybeRedelivery = lane.pending === 0 && lane.unacked > 0;
      if (!ready && !maybeRedelivery) continue;
      turn = (turn + i + 1) % all.length;
      if (ready) {
        lane.pending--;
        lane.unacked++;
      } else lane.quietUntil = now + PULL_EXPIRES_MS;
      return lane;
    }
    return undefined;
  };

  const take = async (lane: Lane): Promise<JsMsg | undefined> => {
    const pull = lane.pull ?? (await prepare(lane));
    const batch = await pull.fetch({ max_messages: 1, expires: PULL_EXPIRES_MS });
    batches.add(batch);
    try {
      if (stopped) void batch.close();
      for await (const msg of batch) return msg;
      lane.quietUntil = Date.now() + PULL_EXPIRES_MS;
      return undefined;
    } finally {
      batches.delete(batch);
    }
  };

  const transport = (msg: JsMsg): TransportDelivery => ({
    id: msg.headers?.get('Nats-Msg-Id') || String(msg.seq),
    body: msg.string(),
    deliveryCount: msg.info.deliveryCount,
    ack: () => msg.ack(),
    nak: (delayMs) => msg.nak(delayMs > 0 ? delayMs : undefined),
    working: () => msg.working(),
    term: () => msg.term(),
    current: () => true,
  });

  const slot = async () => {
    while (!stopped && !nc.isClosed()) {
      const lane = pick();
      if (!lane) {
        await rest();
        continue;
      }
      let msg: JsMsg | undefined;
      try {
        msg = await take(lane);
      } catch {
        lane.pull = undefined;
        lane.quietUntil = Date.now() + PULL_EXPIRES_MS;
        continue;
      }
      if (!msg) continue;
      const taken = msg;
      if (stopped) {
        tryReply(() => taken.nak());
        continue;
      }
      const id = `${lane.stream}:${taken.seq}`;
      inflight.add(id);
      try {
        await dispatch.run(transport(taken));
      } finally {
        inflight.delete(id);
        // Settled here: the lane has one fewer unacknowledged until the next refresh says otherwise.
        lane.unacked = Math.max(0, lane.unacked - 1);
        nudge();
      }
    }
  };

  // As jetstream.ts: a message whose last delivery died with its worker is dead-lettered here.
  const advisories: Subscription[] = [
    [names.stream, names.durable],
    [names.keyedStream, `${names.durable}_k_*`],
  ].map(([stream, durable]) =>
    watchMaxDeliveries({
      nc,
      jsm,
      subject: names.subject,
      stream: stream!,
      durable: durable!,
      queueGroup: `${names.durable}-dead-letters`,
      inflight,
      dispatch,
      maxDeliver: settings.maxDeliver,
      stopped: () => stopped,
      givingUp,
    }),
  );

  for (let i = 0; i < settings.concurrency; i++) void slot();

  return {
    async stop(graceMs = DEFAULT_GRACE_MS) {
      if (stopped) return;
      stopped = true;
      abort.abort();
      nudge();
      for (const subscription of advisories) tryReply(() => subscription.unsubscribe());
      for (const batch of batches) void batch.close();
      await Promise.all([dispatch.stop(graceMs), waitFor([...givingUp], graceMs), refresher]);
    },
  };
}

