// The TurnChannel contract (infra/channel/port.ts), run against every adapter by turn-channel.test.ts.
// Each test opens the API end and the worker end of one channel (one object in process, two NATS
// connections in production) and waits for frames to arrive, never for time to pass: a frame that
// never comes fails the test at a generous safety timeout naming what was awaited. To show that
// something did NOT arrive, a test publishes a marker after it and waits for the marker instead:
// both adapters keep the order of what one end sends, across turns too.
import type { Subscription, TurnChannel, TurnFrame } from '../../infra/channel/port.js';
import type { Tap } from './workqueue.contract.js';

export interface ChannelEnds {
  /** Holds the shopper's connection: listens to frames, sends cancels. */
  api: TurnChannel;
  /** Runs the turn: publishes frames, hears cancels. */
  worker: TurnChannel;
}

export interface ChannelAdapter {
  name: string;
  /** A fresh channel; the contract closes both ends when the test ends. */
  open(): Promise<ChannelEnds>;
}

/** Long enough for a loaded two-core machine; only reached when something is lost. */
const SAFETY_MS = 20_000;

export function turnChannelContract(t: Tap, adapter: ChannelAdapter): void {
  const setup = async (t: Tap): Promise<ChannelEnds> => {
    const ends = await adapter.open();
    t.teardown(() => Promise.all([ends.api.close(), ends.worker.close()]));
    return ends;
  };

  t.test('1,000 frames of a turn published at once arrive complete and in order', async (t) => {
    const { api, worker } = await setup(t);
    const inbox = new Inbox('turn-1');
    await api.listen('turn-1', inbox.onFrame);
    const sent = framesOf('turn-1', 1000);
    for (const frame of sent) worker.publish('turn-1', frame);
    await inbox.until(1000);
    t.same(inbox.frames, sent);
  });

  t.test('publish and cancel return before any listener runs', async (t) => {
    const { api, worker } = await setup(t);
    const inbox = new Inbox('later');
    const cancels = new Counters();
    await api.listen('later', inbox.onFrame);
    await worker.onCancel('later', cancels.countFor('later'));
    worker.publish('later', framesOf('later', 1)[0]!);
    api.cancel('later');
    // Still in the publisher's own call stack: a worker's loop never runs relay code.
    t.same([inbox.frames.length, cancels.counts()], [0, {}]);
    await Promise.all([inbox.until(1), cancels.until('later', 1)]);
  });

  t.test('two turns do not hear each other', async (t) => {
    const { api, worker } = await setup(t);
    const [a, b] = [new Inbox('turn-a'), new Inbox('turn-b')];
    await api.listen('turn-a', a.onFrame);
    await api.listen('turn-b', b.onFrame);
    const [sentA, sentB] = [framesOf('turn-a', 10), framesOf('turn-b', 10)];
    for (let i = 0; i < 10; i++) {
      worker.publish('turn-a', sentA[i]!);
      worker.publish('turn-b', sentB[i]!);
    }
    await Promise.all([a.until(10), b.until(10)]);
    t.same(a.frames, sentA);
    t.same(b.frames, sentB);
  });

  t.test('a frame published as soon as listen resolves is received', async (t) => {
    const { api, worker } = await setup(t);
    // Many turns, each published the moment its listen resolves: a subscription that is not yet
    // live on the server would lose some of them.
    const inboxes = Array.from({ length: 100 }, (_, i) => new Inbox(`early-${i}`));
    for (const inbox of inboxes) {
      await api.listen(inbox.turnId, inbox.onFrame);
      worker.publish(inbox.turnId, framesOf(inbox.turnId, 1)[0]!);
    }
    await Promise.all(inboxes.map((inbox) => inbox.until(1)));
    for (const inbox of inboxes) t.same(inbox.frames, framesOf(inbox.turnId, 1), inbox.turnId);
  });

  t.test('a cancel reaches onCancel of its turn only', async (t) => {
    const { api, worker } = await setup(t);
    const cancels = new Counters();
    for (const turnId of ['running', 'other', 'marker']) await worker.onCancel(turnId, cancels.countFor(turnId));
    const frames = new Inbox('running');
    await api.listen('running', frames.onFrame);
    api.cancel('running');
    api.cancel('marker');
    await Promise.all([cancels.until('running', 1), cancels.until('marker', 1)]);
    t.same(cancels.counts(), { running: 1, marker: 1 }, 'the other turn heard nothing');
    t.same(frames.frames, [], 'a cancel is not a frame');
  });

  t.test('closing a subscription stops its deliveries', async (t) => {
    const { api, worker } = await setup(t);
    const [closing, marker] = [new Inbox('closing'), new Inbox('marker')];
    const subscription = await api.listen('closing', closing.onFrame);
    await api.listen('marker', marker.onFrame);
    const sent = framesOf('closing', 3);
    worker.publish('closing', sent[0]!);
    await closing.until(1);
    subscription.close();
    worker.publish('closing', sent[1]!);
    worker.publish('closing', sent[2]!);
    worker.publish('marker', framesOf('marker', 1)[0]!);
    await marker.until(1);
    t.same(closing.frames, [sent[0]], 'nothing after close()');
    t.doesNotThrow(() => subscription.close(), 'closing twice is harmless');

    const cancels = new Counters();
    const cancelSubscription = await worker.onCancel('closing', cancels.countFor('closing'));
    await worker.onCancel('marker', cancels.countFor('marker'));
    cancelSubscription.close();
    api.cancel('closing');
    api.cancel('marker');
    await cancels.until('marker', 1);
    t.same(cancels.counts(), { marker: 1 }, 'no cancel after close()');
  });

  t.test('a listener that closes its subscription on a frame hears nothing after it, though more was on the way', async (t) => {
    const { api, worker } = await setup(t);
    const [ending, marker] = [new Inbox('ending'), new Inbox('marker')];
    // The relay's way: it stops listening on the turn's last frame, with later ones already sent.
    const subscription: Subscription = await api.listen('ending', (frame) => {
      ending.onFrame(frame);
      if (frame.seq === 2) subscription.close();
    });
    await api.listen('marker', marker.onFrame);
    const sent = framesOf('ending', 5);
    for (const frame of sent) worker.publish('ending', frame);
    worker.publish('marker', framesOf('marker', 1)[0]!);
    await marker.until(1);
    t.same(ending.frames, sent.slice(0, 2));
  });

  t.test('a frame or cancel nobody listens to is dropped, not kept for a later listener', async (t) => {
    const { api, worker } = await setup(t);
    const sent = framesOf('late', 2);
    t.doesNotThrow(() => worker.publish('late', sent[0]!));
    t.doesNotThrow(() => api.cancel('late'));
    // Both ends flushed: the frame has come and gone before anyone listens.
    await worker.flush();
    await api.flush();
    const inbox = new Inbox('late');
    const cancels = new Counters();
    await api.listen('late', inbox.onFrame);
    await worker.onCancel('late', cancels.countFor('late'));
    worker.publish('late', sent[1]!);
    await inbox.until(1);
    t.same(inbox.frames, [sent[1]]);
    t.same(cancels.counts(), {});
  });

  t.test('50 turns of 100 frames, published interleaved, each arrive complete and in order', async (t) => {
    const { api, worker } = await setup(t);
    const inboxes = Array.from({ length: 50 }, (_, i) => new Inbox(`concurrent-${i}`));
    await Promise.all(inboxes.map((inbox) => api.listen(inbox.turnId, inbox.onFrame)));
    const sent = new Map(inboxes.map((inbox) => [inbox.turnId, framesOf(inbox.turnId, 100)]));
    for (let i = 0; i < 100; i++) for (const [turnId, frames] of sent) worker.publish(turnId, frames[i]!);
    await Promise.all(inboxes.map((inbox) => inbox.until(100)));
    const disordered = inboxes.filter((inbox) => !sameFrames(inbox.frames, sent.get(inbox.turnId)!)).map((inbox) => inbox.turnId);
    t.same(disordered, [], 'every turn got exactly its frames, in order');
  });

  t.test('a listener that throws loses only its own frame', async (t) => {
    const { api, worker } = await setup(t);
    const [throwing, quiet] = [new Inbox('throwing'), new Inbox('quiet')];
    await api.listen('throwing', (frame) => {
      throwing.onFrame(frame);
      if (frame.seq === 1) throw new Error('a relay bug (expected by the test)');
    });
    await api.listen('quiet', quiet.onFrame);
    const [sentThrowing, sentQuiet] = [framesOf('throwing', 3), framesOf('quiet', 3)];
    for (let i = 0; i < 3; i++) {
      worker.publish('throwing', sentThrowing[i]!);
      worker.publish('quiet', sentQuiet[i]!);
    }
    await Promise.all([throwing.until(3), quiet.until(3)]);
    t.same(throwing.frames, sentThrowing, 'the throwing listener still hears what follows');
    t.same(quiet.frames, sentQuiet, 'other turns are untouched');
  });

  t.test('a turn id that is not one subject token is refused', async (t) => {
    const { api, worker } = await setup(t);
    for (const turnId of ['', 'a.b', 'a*', '>', 'a b', 'tour-é', 'x'.repeat(129)]) {
      await t.rejects(api.listen(turnId, () => undefined), TypeError, `listen ${JSON.stringify(turnId)}`);
      await t.rejects(worker.onCancel(turnId, () => undefined), TypeError, `onCancel ${JSON.stringify(turnId)}`);
      t.throws(() => api.cancel(turnId), TypeError, `cancel ${JSON.stringify(turnId)}`);
    }
    t.doesNotThrow(() => worker.publish('a.b', { seq: 1, kind: 'heartbeat' }), 'publish drops it instead (it never throws)');
    await api.listen('x'.repeat(128), () => undefined);
  });

  t.test('ping answers while open; after close(), sends are dropped, subscribing fails, closing again is harmless', async (t) => {
    const { api, worker } = await setup(t);
    await t.resolves(api.ping());
    await t.resolves(worker.ping());
    await Promise.all([api.close(), worker.close()]);
    t.doesNotThrow(() => worker.publish('after', { seq: 1, kind: 'heartbeat' }));
    t.doesNotThrow(() => api.cancel('after'));
    await t.resolves(worker.flush(), 'flush after close has nothing left to send');
    await t.rejects(api.listen('after', () => undefined), /closed/);
    await t.rejects(worker.onCancel('after', () => undefined), /closed/);
    await t.rejects(api.ping(), /closed/);
    await t.resolves(api.close());
  });
}

/** Every kind of frame, with nested data, numbered from 1 as a worker does. */
export function framesOf(turnId: string, count: number): TurnFrame[] {
  return Array.from({ length: count }, (_, i): TurnFrame => {
    const seq = i + 1;
    if (seq === 1) return { seq, kind: 'started', worker: `worker-for-${turnId}` };
    if (seq % 10 === 0) return { seq, kind: 'heartbeat' };
    return { seq, kind: 'event', event: 'text', data: { turnId, delta: `word ${seq} `, tags: ['a', seq], nested: { ok: true, none: null } } };
  });
}

/** What one listener heard, and a way to wait for it to have heard enough. */
export class Inbox {
  readonly frames: TurnFrame[] = [];
  #waiters: Array<{ count: number; resolve: () => void }> = [];

  readonly turnId: string;
  constructor(turnId: string) {
    this.turnId = turnId;
  }

  readonly onFrame = (frame: TurnFrame): void => {
    this.frames.push(frame);
    const due = this.#waiters.filter((waiter) => this.frames.length >= waiter.count);
    this.#waiters = this.#waiters.filter((waiter) => !due.includes(waiter));
    for (const waiter of due) waiter.resolve();
  };

  until(count: number): Promise<void> {
    if (this.frames.length >= count) return Promise.resolve();
    const arrived = new Promise<void>((resolve) => this.#waiters.push({ count, resolve }));
    return within(arrived, () => `${count} frames of ${this.turnId} (got ${this.frames.length})`);
  }
}

/** Cancels heard per turn. */
class Counters {
  readonly #counts = new Map<string, number>();
  readonly #waiters: Array<{ turnId: string; count: number; resolve: () => void }> = [];

  countFor(turnId: string): () => void {
    return () => {
      this.#counts.set(turnId, (this.#counts.get(turnId) ?? 0) + 1);
      for (const waiter of this.#waiters) if (waiter.turnId === turnId && this.#counts.get(turnId)! >= waiter.count) waiter.resolve();
    };
  }

  counts(): Record<string, number> {
    return Object.fromEntries(this.#counts);
  }

  until(turnId: string, count: number): Promise<void> {
    if ((this.#counts.get(turnId) ?? 0) >= count) return Promise.resolve();
    const heard = new Promise<void>((resolve) => this.#waiters.push({ turnId, count, resolve }));
    return within(heard, () => `${count} cancels of ${turnId} (got ${this.#counts.get(turnId) ?? 0})`);
  }
}

/** The promise, or a failure naming what never came once SAFETY_MS has passed. */
async function within(promise: Promise<void>, what: () => string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${SAFETY_MS} ms waiting for ${what()}`)), SAFETY_MS);
  });
  try {
    await Promise.race([promise, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

function sameFrames(heard: TurnFrame[], sent: TurnFrame[]): boolean {
  return JSON.stringify(heard) === JSON.stringify(sent);
}
