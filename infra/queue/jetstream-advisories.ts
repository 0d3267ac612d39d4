// What JetStream tells about a message it stopped delivering. A message whose last delivery died
// with its worker (the process was killed) never reached a handler that could dead-letter it, and
// JetStream stops delivering it: it only publishes a MAX_DELIVERIES advisory. A queue group hands
// each advisory to one live process, which dead-letters the message and deletes it from the
// stream. Advisories are not persisted: if no worker is subscribed when one is published, the
// message stays in the stream, which the design tolerates (pending work is re-derived from events).
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import type { JetStreamManager } from '@nats-io/jetstream';
import { describe, type Dispatcher } from './semantics.js';

export interface MaxDeliveriesWatch {
  nc: NatsConnection;
  jsm: JetStreamManager;
  subject: string;
  stream: string;
  /** A durable's name, or a wildcard over several (`<durable>_k_*`). */
  durable: string;
  queueGroup: string;
  /** `stream:seq` of messages a handler in this process still holds: that handler settles them. */
  inflight: ReadonlySet<string>;
  dispatch: Pick<Dispatcher, 'giveUp'>;
  maxDeliver: number;
  stopped: () => boolean;
  /** Dead-lettering under way, awaited on stop. */
  givingUp: Set<Promise<void>>;
}

export function watchMaxDeliveries(watch: MaxDeliveriesWatch): Subscription {
  const { jsm, stream, dispatch } = watch;
  const onAdvisory = async (data: string) => {
    const advisory = JSON.parse(data) as { stream_seq?: number; deliveries?: number };
    const seq = advisory.stream_seq;
    if (typeof seq !== 'number' || watch.inflight.has(`${stream}:${seq}`)) return;
    const stored = await jsm.streams.getMessage(stream, { seq }).catch(() => null);
    if (!stored) return; // acked late, or already handled by another process
    const id = stored.header?.get('Nats-Msg-Id') || String(seq);
    await dispatch.giveUp({ id, body: new TextDecoder().decode(stored.data), deliveryCount: advisory.deliveries ?? watch.maxDeliver });
    await jsm.streams.deleteMessage(stream, seq, false).catch(() => undefined);
  };
  return watch.nc.subscribe(`$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.${stream}.${watch.durable}`, {
    queue: watch.queueGroup,
    callback: (error, msg) => {
      if (error || watch.stopped()) return;
      const handled = onAdvisory(msg.string()).catch((cause) => process.emitWarning(`cannot dead-letter a ${watch.subject} message after max deliveries: ${describe(cause)}`));
      watch.givingUp.add(handled);
      void handled.finally(() => watch.givingUp.delete(handled));
    },
  });
}

/** A reply to the server on a connection that may have closed meanwhile. */
export function tryReply(reply: () => void): void {
  try {
    reply();
  } catch {
    // Closed connection: nothing to tell the server any more.
  }
}
