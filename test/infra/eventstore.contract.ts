// What every EventStore adapter must do, run against each of them by eventstore.test.ts.
// Every stream lives under a fresh prefix and $all is read from the head at the start of each
// test, so a shared server (EventStoreDB) with other events in it passes the same tests.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Test } from 'tap';
import {
  readStreams,
  WrongExpectedRevision,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
} from '../../infra/eventstore/port.js';
import { comparePositions, type Position } from '../../infra/eventstore/position.js';

export type OpenStore = (t: Test) => Promise<EventStore>;
/**
 * Prepares storage that outlives a store and returns how to open a store on it. Each call after
 * closing the previous store is a restart; closing the store must release the storage.
 */
export type Reopen = (t: Test) => Promise<() => Promise<EventStore>>;

export interface ContractOptions {
  /** Size of the large event; EventStoreDB refuses appends over 1 MiB unless configured otherwise. */
  largeEventBytes?: number;
  writers?: number;
  eventsPerWriter?: number;
}

export const event = (type: string, data: Record<string, unknown> = {}, id?: string): NewEvent => ({
  ...(id ? { id } : {}),
  type,
  data,
  metadata: { organizationId: 'org-1', actor: { kind: 'system', id: 'contract' }, correlationId: 'c-1', at: '2025-01-01T00:00:00.000Z' },
});

export async function expectConflict(t: Test, append: Promise<unknown>, actual: bigint | 'no_stream', message: string) {
  try {
    await append;
    t.fail(`${message}: the append went through`);
  } catch (error) {
    t.type(error, WrongExpectedRevision, message);
    t.equal((error as WrongExpectedRevision).actual, actual, `${message}: actual revision`);
  }
}

const isIncreasing = (events: RecordedEvent[]): boolean =>
  events.every((e, i) => i === 0 || comparePositions(events[i - 1]!.position, e.position) < 0);

/** A live subscriber that keeps every event matching `keep` until stopped. */
export function startCollector(store: EventStore, after: Position | null, keep: (e: RecordedEvent) => boolean) {
  const controller = new AbortController();
  const events: RecordedEvent[] = [];
  const waiters = new Set<() => void>();
  const running = (async () => {
    for await (const e of store.subscribeToAll({ ...(after ? { after } : {}), signal: controller.signal })) {
      if (!keep(e)) continue;
      events.push(e);
      for (const wake of waiters) wake();
    }
  })();
  return {
    events,
    /** Resolves once `count` events arrived; false on timeout. */
    async until(count: number, timeoutMs: number): Promise<boolean> {
      const deadline = Date.now() + timeoutMs;
      while (events.length < count && Date.now() < deadline) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, Math.max(0, deadline - Date.now()));
          function done() {
            clearTimeout(timer);
            waiters.delete(done);
            resolve();
          }
          waiters.add(done);
        });
      }
      return events.length >= count;
    },
    async stop(): Promise<RecordedEvent[]> {
      controller.abort();
      await running;
      return events;
    },
  };
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function eventStoreContract(t: Test, name: string, open: OpenStore, reopen?: Reopen, options: ContractOptions = {}) {
  const { largeEventBytes = 4 * 1024 * 1024, writers = 20, eventsPerWriter = 500 } = options;

  return t.test(name, async (t) => {
    const store = await open(t);
    const run = `contract-${randomUUID().slice(0, 8)}`;
    let counter = 0;
    const newPrefix = () => `${run}-${++counter}`;
    const from = async () => store.headPosition();
    const readAllOf = async (after: Position | null, prefix: string) =>
      (await store.readAll(after ? { after } : {})).filter((e) => e.streamId.startsWith(prefix));
    // On a Postgres server $all shows an append only once every transaction that began before it
    // has ended, on the whole server (other tests', other databases'): wait for that, don't read once.
    const readAllOnceVisible = async (after: Position | null, prefix: string, count: number) => {
      const deadline = Date.now() + 15_000;
      let events = await readAllOf(after, prefix);
      while (events.length < count && Date.now() < deadline) {
        await tick(50);
        events = await readAllOf(after, prefix);
      }
      return events;
    };

    t.test('ping answers', async (t) => {
      await t.resolves(store.ping());
    });

    t.test('a stream reads back in revision order, with everything that was appended', async (t) => {
      const stream = `${newPrefix()}-item`;
      t.same(await store.readStream(stream), [], 'a missing stream reads as empty');
      const first = await store.append(stream, [event('ItemQueued', { n: 0 }), event('ItemLabelled', { n: 1 }), event('ItemProcessed', { n: 2 })], {
        expectedRevision: 'no_stream',
      });
      t.equal(first.nextExpectedRevision, 2n);
      const second = await store.append(stream, [event('ItemQueued', { n: 3 }), event('ItemLabelled', { n: 4, nested: { list: [1, 'two', null, true] } })], {
        expectedRevision: 2n,
      });
      t.equal(second.nextExpectedRevision, 4n);
      t.ok(comparePositions(first.position, second.position) < 0, 'a later append has a later position');

      const events = await store.readStream(stream);
      t.same(events.map((e) => e.revision), [0n, 1n, 2n, 3n, 4n]);
      t.same(events.map((e) => e.data.n), [0, 1, 2, 3, 4]);
      t.same(events.map((e) => e.type), ['ItemQueued', 'ItemLabelled', 'ItemProcessed', 'ItemQueued', 'ItemLabelled']);
      t.same(events[4]!.data, { n: 4, nested: { list: [1, 'two', null, true] } });
      t.same(events[0]!.metadata, event('x').metadata);
      t.ok(events.every((e) => e.streamId === stream));
      t.ok(isIncreasing(events), 'positions increase along the stream');
      t.same(events[2]!.position, first.position, 'the append returns the position of its last event');
      t.same(events[4]!.position, second.position);
      t.equal(new Set(events.map((e) => e.id)).size, 5, 'each event got its own id');
      t.ok(events.every((e) => !Number.isNaN(Date.parse(e.recordedAt)) && new Date(e.recordedAt).toISOString() === e.recordedAt));

      t.same((await store.readStream(stream, { fromRevision: 3n })).map((e) => e.revision), [3n, 4n]);
      t.same((await store.readStream(stream, { fromRevision: 1n, maxCount: 2 })).map((e) => e.revision), [1n, 2n]);
    });

    t.test('many streams read at once: each in revision order, a missing one empty (the batch read where the store has one)', async (t) => {
      const prefix = newPrefix();
      const [a, b, missing] = [`${prefix}-a`, `${prefix}-b`, `${prefix}-none`];
      await store.append(a, [event('ItemQueued', { n: 0 }), event('ItemQueued', { n: 1 })], { expectedRevision: 'no_stream' });
      await store.append(b, [event('ItemQueued', { n: 0 })], { expectedRevision: 'no_stream' });
      await store.append(a, [event('ItemQueued', { n: 2 })], { expectedRevision: 1n });
      const read = await readStreams(store, [b, missing, a, b]);
      t.same([...read.keys()].sort(), [a, b, missing].sort());
      t.same(read.get(a)!.map((e) => [e.revision, e.data.n]), [[0n, 0], [1n, 1], [2n, 2]]);
      t.same(read.get(b)!, await store.readStream(b));
      t.same(read.get(missing), []);
    });

    t.test('a long stream reads in revision order, not in the order of its digits', async (t) => {
      const stream = `order-${randomUUID()}`;
      await store.append(stream, Array.from({ length: 12 }, (_, i) => event('Counted', { i })), { expectedRevision: 'no_stream' });
      const revisions = (await store.readStream(stream)).map((e) => e.revision);
      t.same(revisions, Array.from({ length: 12 }, (_, i) => BigInt(i)));
      t.same((await store.readStream(stream, { fromRevision: 9n, maxCount: 2 })).map((e) => e.revision), [9n, 10n]);
      const appended = await store.append(stream, [event('Counted', { i: 12 })], { expectedRevision: 11n });
      t.equal(appended.nextExpectedRevision, 12n, 'appending after revision 11 expects 11');
    });

    t.test('conflicting expected revisions are refused and write nothing', async (t) => {
      const stream = `${newPrefix()}-dataset`;
      await expectConflict(t, store.append(stream, [event('A')], { expectedRevision: 0n }), 'no_stream', 'exact revision on a missing stream');
      await store.append(stream, [event('A'), event('B')], { expectedRevision: 'no_stream' });
      await expectConflict(t, store.append(stream, [event('C')], { expectedRevision: 'no_stream' }), 1n, 'no_stream on an existing stream');
      await expectConflict(t, store.append(stream, [event('C')], { expectedRevision: 0n }), 1n, 'a stale revision');
      await expectConflict(t, store.append(stream, [event('C')], { expectedRevision: 2n }), 1n, 'a revision from the future');
      t.equal((await store.readStream(stream)).length, 2, 'refused appends wrote nothing');

      const any = await store.append(stream, [event('D')], { expectedRevision: 'any' });
      t.equal(any.nextExpectedRevision, 2n, "'any' appends after the last event");
      const fresh = await store.append(`${stream}-fresh`, [event('E')], { expectedRevision: 'any' });
      t.equal(fresh.nextExpectedRevision, 0n, "'any' creates a missing stream");
      await t.rejects(store.append(stream, [], { expectedRevision: 'any' }), TypeError, 'an append without events is a caller bug');
    });

    t.test('of concurrent appends expecting the same revision exactly one wins', async (t) => {
      const prefix = newPrefix();
      const racers = 8;
      for (let round = 0; round < 5; round++) {
        const stream = `${prefix}-race-${round}`;
        const expectations: ExpectedRevision[] = ['no_stream', 0n, 1n];
        for (const expectedRevision of expectations) {
          const results = await Promise.allSettled(
            Array.from({ length: racers }, (_, i) => store.append(stream, [event('Raced', { i })], { expectedRevision })),
          );
          const won = results.filter((r) => r.status === 'fulfilled');
          const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
          t.equal(won.length, 1, `round ${round}, expecting ${String(expectedRevision)}: one winner`);
          t.ok(lost.every((r) => r.reason instanceof WrongExpectedRevision), 'every loser got WrongExpectedRevision');
        }
        t.same((await store.readStream(stream)).map((e) => e.revision), [0n, 1n, 2n], 'one event per round');
      }
      const anyStream = `${prefix}-any`;
      const all = await Promise.all(
        Array.from({ length: racers }, (_, i) => store.append(anyStream, [event('Any', { i })], { expectedRevision: 'any' })),
      );
      t.same(all.map((r) => r.nextExpectedRevision).sort(), Array.from({ length: racers }, (_, i) => BigInt(i)), "concurrent 'any' appends all land");
    });

    t.test('a retried append with the same event ids writes nothing and returns the stored result', async (t) => {
      const stream = `${newPrefix()}-chat`;
      const batch = [event('ChatOpened', { a: 1 }, randomUUID()), event('ChatMessage', { b: 2 }, randomUUID())];
      const first = await store.append(stream, batch, { expectedRevision: 'no_stream' });
      const retry = await store.append(stream, batch, { expectedRevision: 'no_stream' });
      t.same(retry, first, 'same result');
      t.equal((await store.readStream(stream)).length, 2, 'stored once');

      const third = await store.append(stream, [event('ChatMessage', { c: 3 }, randomUUID())], { expectedRevision: first.nextExpectedRevision });
      t.same(await store.append(stream, batch, { expectedRevision: 'no_stream' }), first, 'still recognised after the stream moved on');
      t.same(
        await store.append(stream, [event('ChatMessage', { c: 3 }, (await store.readStream(stream))[2]!.id)], { expectedRevision: 1n }),
        third,
        'a retry with its original expected revision',
      );
      t.equal((await store.readStream(stream)).length, 3);

      const other = await store.append(`${stream}-other`, [batch[0]!], { expectedRevision: 'no_stream' });
      t.equal(other.nextExpectedRevision, 0n, 'the same id in another stream is another event');
      t.equal((await store.readStream(stream)).length, 3);
    });

    t.test('$all holds every stream in append order, readable in pages', async (t) => {
      const prefix = newPrefix();
      const start = await from();
      const appended: string[] = [];
      for (let i = 0; i < 12; i++) {
        const id = randomUUID();
        await store.append(`${prefix}-s${i % 3}`, [event('Ordered', { i }, id)], { expectedRevision: 'any' });
        appended.push(id);
      }
      const all = await readAllOnceVisible(start, prefix, appended.length);
      t.same(all.map((e) => e.id), appended, 'sequential appends read back in order');
      t.ok(isIncreasing(all), 'positions strictly increase');

      const paged: RecordedEvent[] = [];
      let after = start;
      for (;;) {
        const page = await store.readAll({ ...(after ? { after } : {}), maxCount: 5 });
        if (!page.length) break;
        t.ok(page.length <= 5, 'a page holds at most maxCount events');
        paged.push(...page.filter((e) => e.streamId.startsWith(prefix)));
        after = page[page.length - 1]!.position;
      }
      t.same(paged.map((e) => e.id), appended, 'paging with the last position as checkpoint skips and repeats nothing');

      const head = await store.headPosition();
      t.ok(head && comparePositions(head, all[all.length - 1]!.position) >= 0, 'the head is at or after the last append');
      t.same(await store.readAll({ after: head!, maxCount: 10 }).then((page) => page.filter((e) => e.streamId.startsWith(prefix))), []);
      const own = await store.append(`${prefix}-last`, [event('Last')], { expectedRevision: 'no_stream' });
      const committed = await store.committedHead();
      t.ok(committed && comparePositions(committed, own.position) >= 0, 'the committed head is at or after an append that returned, at once (no wait)');
    });

    t.test(`a live subscriber sees ${writers} concurrent writers' ${writers * eventsPerWriter} events once each, in order`, async (t) => {
      const prefix = newPrefix();
      const start = await from();
      const total = writers * eventsPerWriter;
      const collector = startCollector(store, start, (e) => e.streamId.startsWith(prefix));
      const streamsPerWriter = 25;

      await Promise.all(
        Array.from({ length: writers }, async (_, w) => {
          const revisions = new Map<string, bigint>();
          for (let i = 0; i < eventsPerWriter; i++) {
            const stream = `${prefix}-w${w}-s${i % streamsPerWriter}`;
            const expected = revisions.get(stream);
            const result = await store.append(stream, [event('Written', { w, i })], { expectedRevision: expected ?? 'no_stream' });
            revisions.set(stream, result.nextExpectedRevision);
          }
        }),
      );

      t.ok(await collector.until(total, 60_000), `all ${total} events arrived (got ${collector.events.length})`);
      await tick(300); // long enough for a duplicate to show up
      const seen = await collector.stop();
      t.equal(seen.length, total, 'no event twice');
      t.equal(new Set(seen.map((e) => e.id)).size, total, 'every id once');
      t.ok(isIncreasing(seen), 'positions strictly increase');

      const lastRevision = new Map<string, bigint>();
      let inStreamOrder = true;
      for (const e of seen) {
        if (e.revision !== (lastRevision.get(e.streamId) ?? -1n) + 1n) inStreamOrder = false;
        lastRevision.set(e.streamId, e.revision);
      }
      t.ok(inStreamOrder, 'each stream arrives gap-free in revision order');
      t.equal(lastRevision.size, writers * streamsPerWriter);

      const all = await readAllOf(start, prefix);
      t.equal(all.length, total);
      t.ok(
        all.every((e, i) => e.id === seen[i]!.id),
        'the subscriber saw exactly what readAll returns afterwards, in the same order',
      );
    });

    t.test('a subscription ends when its signal aborts, also while idle', async (t) => {
      const aborted = new AbortController();
      aborted.abort();
      const none: RecordedEvent[] = [];
      for await (const e of store.subscribeToAll({ signal: aborted.signal })) none.push(e);
      t.same(none, [], 'an aborted signal yields nothing');

      const head = await from();
      const controller = new AbortController();
      const iterating = (async () => {
        for await (const _ of store.subscribeToAll({ ...(head ? { after: head } : {}), signal: controller.signal }));
      })();
      await tick(100);
      const stoppedAt = Date.now();
      controller.abort();
      await iterating;
      t.ok(Date.now() - stoppedAt < 2000, 'an idle subscription returns promptly');
    });

    t.test(`a ${(largeEventBytes / 1024 / 1024).toFixed(1)} MB event round-trips`, async (t) => {
      const stream = `${newPrefix()}-file`;
      const blob = randomBytes(Math.floor((largeEventBytes * 3) / 4)).toString('base64');
      const rows = Array.from({ length: 200 }, (_, i) => ({ i, label: `row ${i} – ✓` }));
      const start = await from();
      await store.append(stream, [event('FileUploaded', { blob, rows }), event('FileScanned', { ok: true })], { expectedRevision: 'no_stream' });
      const [stored] = await store.readStream(stream, { maxCount: 1 });
      t.equal(stored?.data.blob, blob, 'the payload is intact');
      t.same(stored?.data.rows, rows);
      const [viaAll] = await readAllOnceVisible(start, stream, 1);
      t.ok(viaAll?.data.blob === blob, 'and reads back through $all');
    });

    t.test('unicode stream ids and payloads round-trip (CJK, emoji, RTL, combining marks)', async (t) => {
      const prefix = newPrefix();
      const stream = `${prefix}-注文-🧥👗-שמלה-فستان`;
      const data = {
        name: '羊毛のコート 🧥',
        rtl: 'שמלה אדומה במידה M',
        arabic: 'فستان أحمر',
        family: '👩‍👩‍👧‍👦',
        combining: 'e\u0301',
        precomposed: 'é',
        'clé-ключ-键': 'value',
        escapes: 'quote " backslash \\ text \\u0000 tab \t',
      };
      const start = await from();
      await store.append(stream, [{ ...event('ItemLabelled', data), metadata: { correlationId: '関連-🔗' } }], { expectedRevision: 'no_stream' });
      const [stored] = await store.readStream(stream);
      t.equal(stored?.streamId, stream);
      t.same(stored?.data, data);
      t.equal(stored?.data.combining, 'e\u0301', 'no unicode normalisation');
      t.equal(stored?.metadata.correlationId, '関連-🔗');
      const viaAll = await readAllOnceVisible(start, prefix, 1);
      t.same(viaAll.map((e) => e.streamId), [stream]);
      t.same(viaAll[0]?.data, data);
    });

    const restart = 'after a restart a subscription resumes after its checkpoint with exactly the rest';
    t.test(restart, { skip: reopen ? false : 'the backend gave no durable storage to reopen' }, async (t) => {
      const openAgain = await reopen!(t);
      const prefix = newPrefix();
      const before = await openAgain();
      const start = await before.headPosition();
      const ids: string[] = [];
      for (let i = 0; i < 10; i++) {
        const id = randomUUID();
        ids.push(id);
        await before.append(`${prefix}-s${i % 2}`, [event('BeforeRestart', { i }, id)], { expectedRevision: 'any' });
      }
      const controller = new AbortController();
      let checkpoint: Position | undefined;
      let consumed = 0;
      for await (const e of before.subscribeToAll({ ...(start ? { after: start } : {}), signal: controller.signal })) {
        if (!e.streamId.startsWith(prefix)) continue;
        checkpoint = e.position;
        if (++consumed === 4) break;
      }
      await before.close();

      const after = await openAgain();
      t.teardown(() => after.close());
      for (let i = 10; i < 15; i++) {
        const id = randomUUID();
        ids.push(id);
        await after.append(`${prefix}-s${i % 2}`, [event('AfterRestart', { i }, id)], { expectedRevision: 'any' });
      }
      const collector = startCollector(after, checkpoint!, (e) => e.streamId.startsWith(prefix));
      t.ok(await collector.until(11, 10_000), 'the rest arrived');
      await tick(200);
      t.same((await collector.stop()).map((e) => e.id), ids.slice(4), 'exactly the events after the checkpoint, in order');
      t.same((await after.readStream(`${prefix}-s0`)).map((e) => e.revision), [0n, 1n, 2n, 3n, 4n, 5n, 6n, 7n]);
      const next = await after.append(`${prefix}-s0`, [event('Continued')], { expectedRevision: 7n });
      t.equal(next.nextExpectedRevision, 8n, 'revisions continue across the restart');
    });
  });
}
