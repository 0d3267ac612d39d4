// The API side of an agent turn (DESIGN "Agent turn"): listen on the turn's channel subject, put
// the turn on the work queue, and hand the route the events an agent worker publishes for it, in
// order, until `done` or `error`. Whatever goes wrong on the way becomes an `error` event, never a
// stream left hanging:
//   no worker takes the turn within AGENT_PICKUP_TIMEOUT_SECONDS      → busy
//   the worker goes silent for AGENT_SILENCE_MS (it died: no heartbeat) → worker
//   a frame is missing (a gap in the worker's numbering)              → worker
//   the turn outlives AGENT_TURN_TIMEOUT_SECONDS (and the worker did not end it) → timeout
// The shopper leaving cancels the turn on its worker.
//
// One organization has at most `maxPerOrganization` turns on the queue from this process at once;
// its further turns wait here for one of them to end, so a tenant sending many turns at once
// takes turns with the others instead of filling every worker (waiting counts against pickup).
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { AGENT_FAILURES, type AgentEvent, type AgentEventName } from '../domain/agent/stream-events.js';
import type { TurnChannel, TurnFrame } from '../infra/channel/port.js';
import { AGENT_SUBJECT, type AgentTurnMessage } from '../infra/queue/messages.js';
import type { WorkQueue } from '../infra/queue/port.js';

export interface TurnRelayOptions {
  channel: TurnChannel;
  queue: WorkQueue;
  logger: Logger;
  pickupTimeoutMs: number;
  silenceMs: number;
  turnTimeoutMs: number;
  maxPerOrganization: number;
}

export interface TurnHandle {
  turnId: string;
  /** The turn's events, ending with `done` or `error`. */
  events: AsyncIterable<AgentEvent>;
  /** The shopper went away: stop the turn on its worker and end `events`. */
  cancel(): void;
}

/** No slot for the organization came free in time: answered before any stream (503). */
export class TurnsBusy extends Error {
  override name = 'TurnsBusy';
}

/** A queue that holds at most one reader; `end` after the last item. */
class EventLine implements AsyncIterable<AgentEvent> {
  readonly #items: AgentEvent[] = [];
  #ended = false;
  #wake: (() => void) | null = null;

  push(event: AgentEvent): void {
    if (this.#ended) return;
    this.#items.push(event);
    this.#wake?.();
  }

  end(): void {
    this.#ended = true;
    this.#wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<AgentEvent> {
    for (;;) {
      while (this.#items.length) yield this.#items.shift()!;
      if (this.#ended) return;
      await new Promise<void>((resolve) => (this.#wake = resolve));
      this.#wake = null;
    }
  }
}

/** Turns of each organization on the queue from this process, and those waiting for a slot, in arrival order. */
class OrganizationSlots {
  readonly #running = new Map<string, number>();
  readonly #waiting = new Map<string, Array<() => void>>();

  readonly limit: number;
  constructor(limit: number) {
    this.limit = limit;
  }

  async take(organizationId: string, timeoutMs: number): Promise<() => void> {
    const running = this.#running.get(organizationId) ?? 0;
    if (running >= this.limit) {
      await new Promise<void>((resolve, reject) => {
        const queue = this.#waiting.get(organizationId) ?? [];
        this.#waiting.set(organizationId, queue);
        const timer = setTimeout(() => {
          const at = queue.indexOf(grant);
          if (at >= 0) queue.splice(at, 1);
          reject(new TurnsBusy(`organization ${organizationId} has ${this.limit} turns running`));
        }, timeoutMs);
        const grant = () => {
          clearTimeout(timer);
          resolve();
        };
        queue.push(grant);
      });
    } else this.#running.set(organizationId, running + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.get(organizationId)?.shift();
      // A waiter takes the slot over: the count stays.
      if (next) return next();
      const count = (this.#running.get(organizationId) ?? 1) - 1;
      if (count > 0) this.#running.set(organizationId, count);
      else this.#running.delete(organizationId);
      this.#waiting.delete(organizationId);
    };
  }
}

/** How long frames took from their worker to this process, the latest RELAY_SAMPLES of them (benchmarks read it). */
const RELAY_SAMPLES = 10_000;

export class TurnRelay {
  readonly #options: TurnRelayOptions;
  readonly #slots: OrganizationSlots;
  readonly #hops: number[] = [];
  #hop = 0;

  /** Worker → this process, in ms, for the latest frames (oldest first is not kept: a ring). */
  hopTimes(): number[] {
    return [...this.#hops];
  }

  constructor(options: TurnRelayOptions) {
    this.#options = options;
    this.#slots = new OrganizationSlots(options.maxPerOrganization);
  }

  /** Enqueues the turn; throws (before any stream) when it cannot be enqueued or the organization has no free slot in time. */
  async start(turn: { organizationId: string; demo: boolean; request: Record<string, unknown> }): Promise<TurnHandle> {
    const { channel, queue, logger } = this.#options;
    const enqueuedAt = Date.now();
    const release = await this.#slots.take(turn.organizationId, this.#options.pickupTimeoutMs);
    const turnId = randomUUID();
    const line = new EventLine();
    const log = logger.child({ turnId });
    let expected = 1;
    let finished = false;
    const timers = new Set<NodeJS.Timeout>();
    const timer = (ms: number, then: () => void) => {
      const handle = setTimeout(() => {
        timers.delete(handle);
        then();
      }, ms);
      timers.add(handle);
      return handle;
    };

    const finish = (final: AgentEvent | null) => {
      if (finished) return;
      finished = true;
      for (const handle of timers) clearTimeout(handle);
      subscription?.close();
      release();
      if (final) line.push(final);
      line.end();
    };
    const fail = (error: string, why: string) => {
      log.warn({ why, startedMs: Date.now() - enqueuedAt }, 'agent turn ended without its worker');
      finish({ event: 'error', data: { error } });
    };

    let silence: NodeJS.Timeout | undefined;
    const heard = () => {
      if (silence) {
        clearTimeout(silence);
        timers.delete(silence);
      }
      silence = timer(this.#options.silenceMs, () => fail(AGENT_FAILURES.worker, 'worker silent'));
    };

    const onFrame = (frame: TurnFrame) => {
      if (finished) return;
      if (frame.seq !== expected) return fail(AGENT_FAILURES.worker, `frame ${expected} lost (got ${frame.seq})`);
      if (typeof frame.at === 'number') this.#hops[this.#hop++ % RELAY_SAMPLES] = performance.timeOrigin + performance.now() - frame.at;
      expected++;
      if (frame.kind === 'started') {
        clearTimeout(pickup);
        timers.delete(pickup);
      }
      heard();
      if (frame.kind !== 'event') return;
      const event = { event: frame.event as AgentEventName, data: frame.data } as AgentEvent;
      if (event.event === 'done' || event.event === 'error') finish(event);
      else line.push(event);
    };

    let subscription: { close(): void } | undefined;
    const waited = Date.now() - enqueuedAt;
    const pickup = timer(Math.max(1, this.#options.pickupTimeoutMs - waited), () => fail(AGENT_FAILURES.busy, 'no worker took the turn'));
    timer(this.#options.pickupTimeoutMs + this.#options.turnTimeoutMs + this.#options.silenceMs, () => fail(AGENT_FAILURES.timeout, 'turn deadline'));
    try {
      subscription = await channel.listen(turnId, onFrame);
      const message: AgentTurnMessage = {
        turnId,
        organizationId: turn.organizationId,
        demo: turn.demo,
        enqueuedAt: new Date(enqueuedAt).toISOString(),
        giveUpAt: new Date(enqueuedAt + this.#options.pickupTimeoutMs).toISOString(),
        request: turn.request,
      };
      await queue.enqueue(AGENT_SUBJECT, message, { dedupeId: turnId });
    } catch (error) {
      finished = true;
      for (const handle of timers) clearTimeout(handle);
      subscription?.close();
      release();
      throw error;
    }
    return {
      turnId,
      events: line,
      cancel: () => {
        if (finished) return;
        channel.cancel(turnId);
        log.info('agent turn cancelled: the shopper left');
        finish(null);
      },
    };
  }
}
