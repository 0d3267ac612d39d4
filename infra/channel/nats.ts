// The production TurnChannel on NATS core subjects: `<prefix>.agent.turn.<turnId>` carries a turn's
// frames (JSON) from the worker to the API process holding the shopper's connection, and
// `<prefix>.agent.cancel.<turnId>` a cancel back. NATS keeps the order of one connection's messages
// and stores none: a frame sent while nobody listens, over the server's max_payload, or while the
// listener is reconnecting is gone, and the relay sees the hole in `seq` (port.ts).
import { connect, type Msg, type NatsConnection } from '@nats-io/transport-node';
import { redact } from '../queue/jetstream.js';
import type { Subscription, TurnChannel, TurnFrame } from './port.js';
import { assertTurnId, TURN_ID } from './turn-id.js';
import { describe } from '../queue/semantics.js';

/** One subject token: no dots, wildcards or spaces, and short enough for the protocol's control line. */


export interface NatsChannelOptions {
  /** NATS_URL: one server URL or several, comma-separated. */
  url: string;
  /** Namespaces the subjects (the work queue's prefix); tests use a random one. */
  prefix: string;
  /** The connection's name in the server's monitoring. */
  name?: string;
}

export async function openNatsChannel(options: NatsChannelOptions): Promise<TurnChannel> {
  if (!TURN_ID.test(options.prefix)) throw new TypeError(`invalid turn channel prefix: ${JSON.stringify(options.prefix)}`);
  let nc: NatsConnection;
  try {
    // Never give up reconnecting: a turn in flight loses frames meanwhile, the service does not die.
    nc = await connect({ servers: options.url.split(',').map((s) => s.trim()), name: options.name, maxReconnectAttempts: -1 });
  } catch (error) {
    throw new Error(`cannot connect to NATS at ${redact(options.url)}: ${describe(error)}`, { cause: error });
  }
  return natsChannel(nc, options.prefix);
}

function natsChannel(nc: NatsConnection, prefix: string): TurnChannel {
  let closing: Promise<void> | undefined;

  const subjectOf = (what: 'turn' | 'cancel', turnId: string) => {
    assertTurnId(turnId);
    return `${prefix}.agent.${what}.${turnId}`;
  };

  const assertOpen = () => {
    if (closing) throw new Error('the turn channel is closed');
  };

  // Resolves once the server has the subscription (the PONG after our SUB), so a message published
  // after that, from any connection, reaches it.
  const subscribe = async (subject: string, onMessage: (msg: Msg) => void): Promise<Subscription> => {
    const sub = nc.subscribe(subject, {
      callback: (error, msg) => {
        if (error) return process.emitWarning(`${subject}: subscription failed: ${error.message}`);
        // nats.js calls this from its protocol parser: a throw here would break the whole connection.
        try {
          onMessage(msg);
        } catch (cause) {
          process.emitWarning(`${subject}: a handler threw: ${describe(cause)}`);
        }
      },
    });
    try {
      await nc.flush();
    } catch (error) {
      sub.unsubscribe();
      throw error;
    }
    return { close: () => sub.unsubscribe() };
  };

  return {
    kind: 'nats',

    async listen(turnId, onFrame) {
      assertOpen();
      const subject = subjectOf('turn', turnId);
      return subscribe(subject, (msg) => {
        const frame = frameOf(msg.string());
        if (frame) onFrame(frame);
        else process.emitWarning(`${subject}: ignored a message that is not a turn frame`);
      });
    },

    publish(turnId, frame) {
      if (closing) return;
      try {
        nc.publish(subjectOf('turn', turnId), JSON.stringify(frame));
      } catch (error) {
        process.emitWarning(`turn ${JSON.stringify(turnId)}: frame ${frame.seq} dropped: ${describe(error)}`);
      }
    },

    cancel(turnId) {
      const subject = subjectOf('cancel', turnId);
      if (closing) return;
      try {
        nc.publish(subject);
      } catch (error) {
        process.emitWarning(`${subject}: cancel dropped: ${describe(error)}`);
      }
    },

    async onCancel(turnId, handler) {
      assertOpen();
      return subscribe(subjectOf('cancel', turnId), () => handler());
    },

    // After close(), drain has sent what was published.
    flush: () => closing ?? nc.flush(),

    async ping() {
      assertOpen();
      await nc.rtt(); // fails at once while disconnected
    },

    close() {
      closing ??= nc.isClosed() ? Promise.resolve() : nc.drain();
      return closing;
    },
  };
}

/** A turn frame, or undefined for anything else that reached the subject. */
function frameOf(text: string): TurnFrame | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const fields = value as Record<string, unknown>;
  if (typeof fields.seq !== 'number' || !Number.isSafeInteger(fields.seq) || fields.seq < 1) return undefined;
  switch (fields.kind) {
    case 'started':
      return typeof fields.worker === 'string' ? (value as TurnFrame) : undefined;
    case 'heartbeat':
      return value as TurnFrame;
    case 'event':
      return typeof fields.event === 'string' ? (value as TurnFrame) : undefined;
    default:
      return undefined;
  }
}


