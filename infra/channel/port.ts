// The TurnChannel port of DESIGN.md ("Agent turn"): an agent worker publishes what a turn produces
// and the API process that holds the shopper's connection relays it. Frames of one turn go to one
// listener in the order they were published; a cancel goes the other way when the shopper leaves.
// Adapters: in-process (the embedded default: API and agent worker share the process) and NATS
// core subjects (one subject per turn; production, beside JetStream's work queue).
//
// Nothing here is durable: a turn lives as long as the shopper's connection. A frame lost on the
// way shows as a gap in `seq`, and the relay turns a gap into an `error` event rather than a
// silently different answer. A worker that dies stops sending heartbeats, and the relay notices.

/**
 * One frame of a turn, numbered from 1 by the worker in the order published; `at` is when the
 * worker sent it (ms since the epoch, sub-millisecond), so the relay can tell what the hop cost.
 */
export type TurnFrame =
  /** The worker took the turn. */
  | { seq: number; at?: number; kind: 'started'; worker: string }
  /** The worker is still on it (sent every AGENT_HEARTBEAT_MS while it works). */
  | { seq: number; at?: number; kind: 'heartbeat' }
  /** An SSE event for the shopper (`event` is its name, `data` its payload). */
  | { seq: number; at?: number; kind: 'event'; event: string; data: unknown };

export interface Subscription {
  close(): void;
}

export interface TurnChannel {
  readonly kind: 'inprocess' | 'nats';
  /** API side: hear a turn's frames. Subscribe before the turn is enqueued, so nothing is missed. Resolves once the subscription is live. */
  listen(turnId: string, onFrame: (frame: TurnFrame) => void): Promise<Subscription>;
  /** Worker side: send a frame. Ordered per turn; never throws (a frame that cannot go is a gap the relay sees). */
  publish(turnId: string, frame: TurnFrame): void;
  /** API side: the shopper went away; ask the worker to stop the turn. */
  cancel(turnId: string): void;
  /** Worker side: hear a cancel for a turn it runs. Resolves once the subscription is live. */
  onCancel(turnId: string, handler: () => void): Promise<Subscription>;
  /** Flushes what was published (NATS) so frames are on the wire before a worker acks or exits. */
  flush(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
