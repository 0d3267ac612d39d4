// The embedded TurnChannel: the API and the agent worker share one process. It keeps the NATS
// adapter's behaviour so the embedded run tests what production does: a frame travels as JSON (one
// NATS could not encode is dropped here too), arrives after `publish` has returned (never inside the
// worker's own call stack), and a frame for a turn nobody listens to is gone, not kept.
import type { Subscription, TurnChannel, TurnFrame } from './port.js';
import { assertTurnId } from './turn-id.js';
import { describe } from '../queue/semantics.js';

/** The NATS adapter's rule too, so an id that would fail in production fails here first. */

export function createInProcessChannel(): TurnChannel {
  const frameListeners = new Listeners<(frame: TurnFrame) => void>('frame');
  const cancelHandlers = new Listeners<() => void>('cancel');
  let closed = false;

  const assertOpen = () => {
    if (closed) throw new Error('the turn channel is closed');
  };

  return {
    kind: 'inprocess',

    async listen(turnId, onFrame) {
      assertOpen();
      assertTurnId(turnId);
      return frameListeners.add(turnId, onFrame);
    },

    publish(turnId, frame) {
      if (closed) return;
      let body: string;
      try {
        assertTurnId(turnId);
        body = JSON.stringify(frame);
      } catch (error) {
        process.emitWarning(`turn ${JSON.stringify(turnId)}: frame ${frame.seq} dropped: ${describe(error)}`);
        return;
      }
      // Parsed per listener, as each NATS subscription decodes its own copy.
      frameListeners.post(turnId, (onFrame) => onFrame(JSON.parse(body) as TurnFrame));
    },

    cancel(turnId) {
      assertTurnId(turnId);
      if (closed) return;
      cancelHandlers.post(turnId, (handler) => handler());
    },

    async onCancel(turnId, handler) {
      assertOpen();
      assertTurnId(turnId);
      return cancelHandlers.add(turnId, handler);
    },

    // Deliveries are microtasks, run first in first out: once this one runs, every frame published
    // before the call has reached its listeners.
    flush: () => new Promise<void>((resolve) => queueMicrotask(resolve)),

    async ping() {
      assertOpen();
    },

    async close() {
      closed = true;
      frameListeners.clear();
      cancelHandlers.clear();
    },
  };
}


/** The handlers of each turn. One entry per subscription, so the same function subscribed twice is two subscriptions. */
class Listeners<H> {
  readonly #byTurn = new Map<string, Set<{ handler: H }>>();

  readonly what: string;
  constructor(what: string) {
    this.what = what;
  }

  add(turnId: string, handler: H): Subscription {
    let entries = this.#byTurn.get(turnId);
    if (!entries) {
      entries = new Set();
      this.#byTurn.set(turnId, entries);
    }
    const entry = { handler };
    entries.add(entry);
    const owner = entries;
    return {
      close: () => {
        owner.delete(entry);
        if (owner.size === 0 && this.#byTurn.get(turnId) === owner) this.#byTurn.delete(turnId);
      },
    };
  }

  /**
   * Calls `deliver` on a later microtask for each handler the turn has now. A subscription closed
   * in between misses it, and one opened in between does not get it, as with NATS.
   */
  post(turnId: string, deliver: (handler: H) => void): void {
    const entries = this.#byTurn.get(turnId);
    if (!entries) return;
    const targets = [...entries];
    queueMicrotask(() => {
      for (const entry of targets) {
        if (!entries.has(entry)) continue;
        // A throwing handler is a bug in one turn's relay; it must not stop the others.
        try {
          deliver(entry.handler);
        } catch (error) {
          process.emitWarning(`turn ${turnId}: a ${this.what} handler threw: ${describe(error)}`);
        }
      }
    });
  }

  clear(): void {
    for (const entries of this.#byTurn.values()) entries.clear();
    this.#byTurn.clear();
  }
}

