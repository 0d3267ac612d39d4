// The WorkQueue port: carries work to workers. The event store stays the truth, so a lost or
// duplicated message must be harmless; handlers are idempotent. Adapters: `inprocess.ts`, `jetstream.ts`.

export interface EnqueueOptions {
  /** Messages with the same dedupeId within the dedupe window are dropped (JetStream `Nats-Msg-Id`). */
  dedupeId?: string;
  /**
   * Whose work this is (the organization). A consumer with `maxPerKey` serves the keys with waiting
   * messages in turn rather than in arrival order, so one key's backlog cannot hold up another's.
   * On JetStream keyed messages live apart and only a consumer with `maxPerKey` reads them: give
   * keys on subjects consumed that way (ingest.items) and no others.
   */
  key?: string;
}

export interface Job<T = unknown> {
  readonly id: string;
  readonly subject: string;
  readonly payload: T;
  /** 1 on the first delivery. */
  readonly deliveryCount: number;
  ack(): Promise<void>;
  /** Give the message back to be redelivered after `delayMs` (default: at once). */
  nak(delayMs?: number): Promise<void>;
  /** Heartbeat: the job is still being worked on, do not redeliver it yet. */
  working(): Promise<void>;
}

export interface ConsumeOptions<T> {
  /** Validates every payload; an invalid one goes straight to dead-letter. */
  parse?: (payload: unknown) => T;
  /** Messages worked on at once by this consumer (default 1). */
  concurrency?: number;
  /**
   * Fair delivery by key (EnqueueOptions.key): keys with waiting messages take turns, and at most
   * this many messages of one key are in flight at once across every consumer of the subject.
   * Absent: arrival order, as for any subject whose work is not split by tenant.
   */
  maxPerKey?: number;
  /** Deliveries before the message is dead-lettered (default 5). */
  maxDeliver?: number;
  /** Without ack or `working()` for this long, the message is redelivered (default 30 s). */
  ackWaitMs?: number;
  /** Delay before redelivery when the handler throws (default 1 s). */
  retryDelayMs?: number;
  /** Called once when a message is given up on; the message is then terminated. */
  onDeadLetter?: (dead: DeadLetter) => Promise<void>;
  /**
   * What of a given-up message's payload is kept in the dead letter (default: all of it). A subject
   * whose payload carries personal data that must not outlive the work keeps only its identifiers.
   */
  deadLetterPayload?: (payload: unknown) => unknown;
}

export interface DeadLetter {
  id: string;
  subject: string;
  payload: unknown;
  deliveryCount: number;
  reason: string;
}

/**
 * The handler settles the job: returning without ack/nak acks it; throwing naks it with
 * `retryDelayMs` until `maxDeliver` is reached, then `onDeadLetter` runs and the message is dropped.
 */
export type JobHandler<T> = (job: Job<T>) => Promise<void>;

export interface Consumer {
  /** Stops taking new messages, waits for in-flight handlers (naking those still running at `graceMs`). */
  stop(graceMs?: number): Promise<void>;
}

export interface WorkQueue {
  readonly kind: 'inprocess' | 'jetstream';
  enqueue(subject: string, payload: unknown, options?: EnqueueOptions): Promise<{ duplicate: boolean }>;
  consume<T>(subject: string, handler: JobHandler<T>, options?: ConsumeOptions<T>): Promise<Consumer>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
