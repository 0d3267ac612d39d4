// The WorkQueue contract (infra/queue/port.ts), run against every adapter by workqueue.test.ts.
// Timings use ackWait values of 1–1.5 s (JetStream honours sub-second ack_wait to a few ms, but
// nats.js pulls cannot expire under 1 s) and wide margins: tests share two cores with others.
import { setTimeout as sleep } from 'node:timers/promises';
import type tap from 'tap';
import type { DeadLetter, Job, WorkQueue } from '../../infra/queue/port.js';

// The type tap gives a subtest callback (its last overload takes the callback alone).
export type Tap = Parameters<Parameters<typeof tap.test>[0]>[0];

/** One backend shared by several worker processes (for JetStream, one connection each). */
export interface QueueWorld {
  open(): Promise<WorkQueue>;
  /** Kills a worker opened here the way a crash would: nothing acked, nothing naked. */
  crash(queue: WorkQueue): Promise<void>;
  /** Closes every queue and removes what the world created (streams, for JetStream). */
  dispose(): Promise<void>;
}

export interface WorldOptions {
  dedupeWindowMs?: number;
  /** QUEUE_MAX_IN_FLIGHT: messages of one subject in flight across every worker. */
  maxInFlight?: number;
  /** The queue's own record of every message given up on. */
  deadLetters?: (dead: DeadLetter) => Promise<void>;
}

export interface QueueAdapter {
  name: string;
  world(options?: WorldOptions): Promise<QueueWorld>;
}

interface Seen<T> {
  job: Job<T>;
  at: number;
}

const SUBJECT = 'jobs';

export function workQueueContract(t: Tap, adapter: QueueAdapter): void {
  // A world per test, and handlers that hang until the test ends (then fail, so nothing acks).
  const setup = async (t: Tap, options?: WorldOptions) => {
    const world = await adapter.world(options);
    const releases: Array<() => void> = [];
    t.teardown(async () => {
      for (const release of releases) release();
      await world.dispose();
    });
    const hang = () => new Promise<never>((_, reject) => releases.push(() => reject(new Error('released at teardown'))));
    return { world, hang, queue: await world.open() };
  };

  t.test('a job taken by a worker that crashes without acking goes to another worker after ackWait', async (t) => {
    const { world, hang, queue: a } = await setup(t);
    const options = { ackWaitMs: 1500 };
    const seenByA: Seen<unknown>[] = [];
    await a.consume(SUBJECT, async (job) => {
      seenByA.push({ job, at: Date.now() });
      await hang();
    }, options);
    const b = await world.open();
    await a.enqueue(SUBJECT, { order: 1 });
    await until(() => seenByA.length === 1, 'worker A takes the job');
    await world.crash(a);

    const seenByB: Seen<unknown>[] = [];
    await b.consume(SUBJECT, async (job) => void seenByB.push({ job, at: Date.now() }), options);
    await until(() => seenByB.length === 1, 'worker B gets the job', 10_000);
    const [first, second] = [seenByA[0] as Seen<unknown>, seenByB[0] as Seen<unknown>];
    t.equal(second.job.deliveryCount, 2, 'second delivery');
    t.same(second.job.payload, { order: 1 });
    t.equal(second.job.id, first.job.id, 'same job id');
    t.ok(second.at - first.at >= options.ackWaitMs - 150, `not redelivered before ackWait (${second.at - first.at} ms)`);
    await sleep(500);
    t.equal(seenByA.length + seenByB.length, 2, 'no further deliveries once B acked');
  });

  t.test('acked jobs are not redelivered, whichever way they are acked', async (t) => {
    const { queue } = await setup(t);
    const seen: Job<{ how: string }>[] = [];
    await queue.consume<{ how: string }>(SUBJECT, async (job) => {
      seen.push(job);
      if (job.payload.how === 'explicit') await job.ack();
      if (job.payload.how === 'ack-then-throw') {
        await job.ack();
        throw new Error('failed after acking');
      }
    }, { ackWaitMs: 1000, concurrency: 2, retryDelayMs: 0 });
    for (const how of ['explicit', 'by-returning', 'ack-then-throw']) await queue.enqueue(SUBJECT, { how });
    await until(() => seen.length >= 3, 'three deliveries');
    await sleep(2500);
    t.same(seen.map((job) => job.payload.how).sort(), ['ack-then-throw', 'by-returning', 'explicit']);
    t.same(seen.map((job) => job.deliveryCount), [1, 1, 1]);
  });

  t.test('working() keeps a job that outlives ackWait from being redelivered', async (t) => {
    const { queue } = await setup(t);
    const seen: Job<{ kind: string }>[] = [];
    // Free slots beside the beating job and a silent control job, so a redelivery could happen.
    await queue.consume<{ kind: string }>(SUBJECT, async (job) => {
      seen.push(job);
      if (job.payload.kind === 'silent' && job.deliveryCount === 1) await sleep(2500);
      if (job.payload.kind === 'beating') {
        for (let i = 0; i < 10; i++) {
          await sleep(300);
          await job.working();
        }
      }
    }, { ackWaitMs: 1000, concurrency: 4 });
    await queue.enqueue(SUBJECT, { kind: 'beating' });
    await queue.enqueue(SUBJECT, { kind: 'silent' });
    await sleep(4500); // past the end of the beating job (3 s), plus one more ackWait
    const countsOf = (kind: string) => seen.filter((job) => job.payload.kind === kind).map((job) => job.deliveryCount);
    t.same(countsOf('beating'), [1], 'the beating job was delivered once');
    t.same(countsOf('silent'), [1, 2], 'control: the silent job was redelivered');
  });

  t.test('nak(delay) redelivers after the delay, nak() at once', async (t) => {
    const { queue } = await setup(t);
    const seen: Seen<{ name: string }>[] = [];
    await queue.consume<{ name: string }>(SUBJECT, async (job) => {
      seen.push({ job, at: Date.now() });
      if (job.deliveryCount > 1) return;
      await job.nak(job.payload.name === 'delayed' ? 1200 : undefined);
    }, { ackWaitMs: 6000, concurrency: 2 });
    await queue.enqueue(SUBJECT, { name: 'delayed' });
    await queue.enqueue(SUBJECT, { name: 'at-once' });
    await until(() => seen.length === 4, 'both jobs redelivered', 8000);
    const gap = (name: string) => {
      const [first, second] = seen.filter((s) => s.job.payload.name === name) as [Seen<unknown>, Seen<unknown>];
      t.equal(second.job.deliveryCount, 2, `${name}: second delivery`);
      return second.at - first.at;
    };
    const delayed = gap('delayed');
    t.ok(delayed >= 1050 && delayed < 4500, `delayed nak waits about 1200 ms, not ackWait (${delayed} ms)`);
    const atOnce = gap('at-once');
    t.ok(atOnce < 1000, `plain nak comes back at once (${atOnce} ms)`);
  });

  t.test('the same dedupeId twice is enqueued once', async (t) => {
    const { queue } = await setup(t);
    t.same(await queue.enqueue(SUBJECT, { n: 1 }, { dedupeId: 'sku-1' }), { duplicate: false });
    t.same(await queue.enqueue(SUBJECT, { n: 2 }, { dedupeId: 'sku-1' }), { duplicate: true });
    t.same(await queue.enqueue(SUBJECT, { n: 3 }, { dedupeId: 'sku-2' }), { duplicate: false });
    const seen: Job[] = [];
    await queue.consume(SUBJECT, async (job) => void seen.push(job));
    await until(() => seen.length === 2, 'two deliveries');
    await sleep(500);
    t.same(seen.map((job) => [job.id, job.payload]), [['sku-1', { n: 1 }], ['sku-2', { n: 3 }]]);
  });

  t.test('a dedupeId can be used again once the dedupe window has passed', async (t) => {
    const { queue } = await setup(t, { dedupeWindowMs: 1000 });
    t.same(await queue.enqueue(SUBJECT, { n: 1 }, { dedupeId: 'again' }), { duplicate: false });
    t.same(await queue.enqueue(SUBJECT, { n: 2 }, { dedupeId: 'again' }), { duplicate: true });
    await sleep(1600);
    t.same(await queue.enqueue(SUBJECT, { n: 3 }, { dedupeId: 'again' }), { duplicate: false });
  });

  t.test('a poison message is dead-lettered on its maxDeliver-th delivery with its payload', async (t) => {
    const { queue } = await setup(t);
    const deliveries: number[] = [];
    const dead: DeadLetter[] = [];
    await queue.consume(SUBJECT, async (job) => {
      deliveries.push(job.deliveryCount);
      throw new Error(`cannot label item (try ${job.deliveryCount})`);
    }, { maxDeliver: 3, retryDelayMs: 100, ackWaitMs: 5000, onDeadLetter: async (d) => void dead.push(d) });
    await queue.enqueue(SUBJECT, { sku: 'poison' }, { dedupeId: 'poison-1' });
    await until(() => dead.length === 1, 'dead letter', 8000);
    await sleep(800);
    t.same(deliveries, [1, 2, 3]);
    t.equal(dead.length, 1, 'dead-lettered once');
    t.match(dead[0], { id: 'poison-1', subject: SUBJECT, payload: { sku: 'poison' }, deliveryCount: 3, reason: /cannot label item \(try 3\)/ });
  });

  t.test('a subject that keeps only part of a payload: its dead letter holds that part, never the rest', async (t) => {
    const { queue } = await setup(t);
    const dead: DeadLetter[] = [];
    await queue.consume(SUBJECT, async () => {
      throw new Error('the turn failed');
    }, {
      maxDeliver: 1,
      ackWaitMs: 5000,
      onDeadLetter: async (d) => void dead.push(d),
      deadLetterPayload: (payload) => ({ turnId: (payload as { turnId: string }).turnId }),
    });
    await queue.enqueue(SUBJECT, { turnId: 't-1', words: 'a private phrase' }, { dedupeId: 'kept-part' });
    await until(() => dead.length === 1, 'dead letter', 8000);
    t.same(dead[0]!.payload, { turnId: 't-1' });
    t.notOk(JSON.stringify(dead[0]).includes('a private phrase'));
  });

  t.test('a worker that crashes on the last allowed delivery still gets its message dead-lettered', async (t) => {
    const { world, hang, queue: a } = await setup(t);
    const dead: DeadLetter[] = [];
    const options = { maxDeliver: 1, ackWaitMs: 1000, onDeadLetter: async (d: DeadLetter) => void dead.push(d) };
    let takenByA = 0;
    await a.consume(SUBJECT, async () => {
      takenByA++;
      await hang();
    }, options);
    await a.enqueue(SUBJECT, { sku: 'crasher' });
    await until(() => takenByA === 1, 'worker A takes the job');
    await world.crash(a);
    const b = await world.open();
    let takenByB = 0;
    await b.consume(SUBJECT, async () => void takenByB++, options);
    await until(() => dead.length === 1, 'dead letter after ackWait', 10_000);
    await sleep(500);
    t.equal(takenByB, 0, 'not delivered again');
    t.equal(dead.length, 1);
    t.match(dead[0], { subject: SUBJECT, payload: { sku: 'crasher' }, deliveryCount: 1, reason: /without an ack/ });
  });

  t.test('never more than `concurrency` jobs in flight, and all of them used', async (t) => {
    const { queue } = await setup(t);
    let inFlight = 0;
    let most = 0;
    const done: number[] = [];
    await queue.consume<{ n: number }>(SUBJECT, async (job) => {
      most = Math.max(most, ++inFlight);
      await sleep(250);
      inFlight--;
      done.push(job.payload.n);
    }, { concurrency: 3, ackWaitMs: 10_000 });
    for (let n = 0; n < 9; n++) await queue.enqueue(SUBJECT, { n });
    await until(() => done.length === 9, 'nine jobs done', 10_000);
    t.equal(most, 3);
    t.same([...done].sort((x, y) => x - y), [0, 1, 2, 3, 4, 5, 6, 7, 8], 'each job once');
  });

  t.test('with maxPerKey, keys take turns: a key that arrives behind another key\'s backlog is served at once, and no key has more than maxPerKey in flight across workers', async (t) => {
    const { world, queue } = await setup(t);
    const second = await world.open();
    const flying = new Map<string, number>();
    let mostA = 0;
    const done: string[] = [];
    const handler = async (job: Job<{ key: string }>) => {
      const { key } = job.payload;
      flying.set(key, (flying.get(key) ?? 0) + 1);
      if (key === 'a') mostA = Math.max(mostA, flying.get('a')!);
      await sleep(100);
      flying.set(key, flying.get(key)! - 1);
      done.push(key);
    };
    for (const worker of [queue, second]) await worker.consume<{ key: string }>(SUBJECT, handler, { concurrency: 2, maxPerKey: 2, ackWaitMs: 10_000 });
    for (let n = 0; n < 30; n++) await queue.enqueue(SUBJECT, { key: 'a' }, { key: 'a' });
    await until(() => done.length >= 2, 'the backlog under way', 10_000);
    for (let n = 0; n < 3; n++) await queue.enqueue(SUBJECT, { key: 'b' }, { key: 'b' });
    await until(() => done.length === 33, 'every job done', 30_000);
    const lastB = done.lastIndexOf('b');
    t.ok(lastB < 12, `the later key's 3 jobs were done among the first 12 of 33 (the last was #${lastB + 1})`);
    t.equal(mostA, 2, 'the backlog\'s key never had more than 2 in flight, though 4 slots were free');
  });

  t.test('a payload that fails validation goes straight to dead-letter', async (t) => {
    const { queue } = await setup(t);
    const handled: unknown[] = [];
    const dead: DeadLetter[] = [];
    const parse = (payload: unknown) => {
      const n = (payload as { n?: unknown } | null)?.n;
      if (typeof n !== 'number') throw new Error('n must be a number');
      return { n };
    };
    await queue.consume(SUBJECT, async (job) => void handled.push(job.payload), { parse, maxDeliver: 5, onDeadLetter: async (d) => void dead.push(d) });
    await queue.enqueue(SUBJECT, { n: 'seven' });
    await queue.enqueue(SUBJECT, { n: 7 });
    await until(() => dead.length === 1 && handled.length === 1, 'one dead letter, one job');
    await sleep(500);
    t.same(handled, [{ n: 7 }]);
    t.equal(dead.length, 1);
    t.match(dead[0], { subject: SUBJECT, payload: { n: 'seven' }, deliveryCount: 1, reason: /n must be a number/ });
  });

  t.test('messages enqueued before any consumer exists wait for one', async (t) => {
    const { queue } = await setup(t);
    for (let n = 0; n < 3; n++) await queue.enqueue(SUBJECT, { n });
    await sleep(300);
    const seen: unknown[] = [];
    await queue.consume(SUBJECT, async (job) => void seen.push(job.payload));
    await until(() => seen.length === 3, 'three deliveries');
    t.same(seen, [{ n: 0 }, { n: 1 }, { n: 2 }]);
  });

  t.test('two workers with one slot each work on two jobs at once', async (t) => {
    // The scale-out promise: a second worker process adds a second slot (the durable's
    // max_ack_pending is the cluster's QUEUE_MAX_IN_FLIGHT, not one process's concurrency).
    const { world, hang, queue: a } = await setup(t);
    const b = await world.open();
    const started: Array<{ worker: string; n: number }> = [];
    const options = { concurrency: 1, ackWaitMs: 10_000 };
    for (const [worker, queue] of [['a', a], ['b', b]] as const) {
      await queue.consume<{ n: number }>(SUBJECT, async (job) => {
        started.push({ worker, n: job.payload.n });
        await hang();
      }, options);
    }
    await a.enqueue(SUBJECT, { n: 1 });
    await a.enqueue(SUBJECT, { n: 2 });
    await until(() => started.length === 2, 'both jobs running at once', 8000);
    t.same(started.map((s) => s.worker).sort(), ['a', 'b'], 'one job on each worker');
    t.same(started.map((s) => s.n).sort(), [1, 2]);
  });

  t.test('maxInFlight bounds the jobs in flight across all workers', async (t) => {
    const { world, queue: a } = await setup(t, { maxInFlight: 3 });
    const b = await world.open();
    let inFlight = 0;
    let most = 0;
    const done: number[] = [];
    const handler = async (job: Job<{ n: number }>) => {
      most = Math.max(most, ++inFlight);
      await sleep(300);
      inFlight--;
      done.push(job.payload.n);
    };
    await a.consume<{ n: number }>(SUBJECT, handler, { concurrency: 2, ackWaitMs: 10_000 });
    await b.consume<{ n: number }>(SUBJECT, handler, { concurrency: 2, ackWaitMs: 10_000 });
    for (let n = 0; n < 12; n++) await a.enqueue(SUBJECT, { n });
    await until(() => done.length === 12, 'twelve jobs done', 15_000);
    t.equal(most, 3, 'four slots, three in flight at most, and all three used');
    t.same([...done].sort((x, y) => x - y), [...Array(12).keys()], 'each job once');
  });

  t.test('every message given up on reaches the queue\'s dead letters, with or without onDeadLetter', async (t) => {
    const recorded: DeadLetter[] = [];
    const { queue } = await setup(t, { deadLetters: async (d) => void recorded.push(d) });
    const reactions: DeadLetter[] = [];
    const parse = (payload: unknown) => {
      if (typeof (payload as { n?: unknown } | null)?.n !== 'number') throw new Error('n must be a number');
      return payload as { n: number };
    };
    await queue.consume<{ n: number }>(SUBJECT, async () => {
      throw new Error('store unreachable');
    }, { parse, maxDeliver: 2, retryDelayMs: 50, ackWaitMs: 5000 });
    await queue.consume<{ n: number }>('other.kind', async () => {
      throw new Error('cannot clean up');
    }, { maxDeliver: 1, ackWaitMs: 5000, onDeadLetter: async (d) => void reactions.push(d) });
    await queue.enqueue(SUBJECT, { n: 1 }, { dedupeId: 'failing' });
    await queue.enqueue(SUBJECT, { n: 'one' }, { dedupeId: 'invalid' });
    await queue.enqueue('other.kind', { n: 2 }, { dedupeId: 'other' });
    await until(() => recorded.length === 3, 'three dead letters', 8000);
    await sleep(300);
    const byId = Object.fromEntries(recorded.map((d) => [d.id, d]));
    t.match(byId.failing, { subject: SUBJECT, payload: { n: 1 }, deliveryCount: 2, reason: 'store unreachable' });
    t.match(byId.invalid, { subject: SUBJECT, payload: { n: 'one' }, deliveryCount: 1, reason: /invalid payload: n must be a number/ });
    t.match(byId.other, { subject: 'other.kind', payload: { n: 2 }, deliveryCount: 1, reason: 'cannot clean up' });
    t.equal(recorded.length, 3, 'each recorded once');
    t.equal(reactions.length, 1, 'and the worker\'s own onDeadLetter still runs');
  });

  t.test('stop(graceMs) lets quick jobs finish, naks the slow ones and takes nothing new', async (t) => {
    const { world, hang, queue: a } = await setup(t);
    const options = { concurrency: 2, ackWaitMs: 10_000 };
    const seenByA: string[] = [];
    const consumer = await a.consume<{ name: string }>(SUBJECT, async (job) => {
      seenByA.push(job.payload.name);
      if (job.payload.name === 'slow') await hang();
      await sleep(200);
    }, options);
    await a.enqueue(SUBJECT, { name: 'quick' });
    await a.enqueue(SUBJECT, { name: 'slow' });
    await until(() => seenByA.length === 2, 'both jobs taken');
    const stopping = Date.now();
    await consumer.stop(1000);
    const stopTook = Date.now() - stopping;
    t.ok(stopTook >= 900 && stopTook < 5000, `stop waited for the grace period (${stopTook} ms)`);

    const b = await world.open();
    const seenByB: Job<{ name: string }>[] = [];
    await a.enqueue(SUBJECT, { name: 'later' });
    await b.consume<{ name: string }>(SUBJECT, async (job) => void seenByB.push(job), options);
    await until(() => seenByB.length === 2, 'B gets the slow job and the later one', 5000);
    t.ok(Date.now() - stopping < 6000, 'the slow job came back long before ackWait');
    const slow = seenByB.find((job) => job.payload.name === 'slow');
    t.equal(slow?.deliveryCount, 2, 'the slow job was naked');
    t.ok(seenByB.some((job) => job.payload.name === 'later'), 'the later job went to B');
    await sleep(300);
    t.same(seenByA, ['quick', 'slow'], 'the stopped consumer took nothing new');
    t.notOk(seenByB.some((job) => job.payload.name === 'quick'), 'the quick job finished and was acked');
  });
}

async function until(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for: ${what}`);
    await sleep(20);
  }
}
