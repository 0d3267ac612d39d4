// The start-up probe of a server event store: it passes on a store that keeps the port's promises
// (the Postgres store, on PGlite or a Postgres server) and stops the start, naming the check, on
// a store that breaks one of them.
import { delegatingStore } from '../support/delegating-store.js';
import { randomUUID } from 'node:crypto';
import t from 'tap';
import type { EventStore } from '../../infra/eventstore/port.js';
import { openPostgresEventStore } from '../../infra/eventstore/postgres.js';
import { EventStoreProbeFailed, probeEventStore } from '../../infra/eventstore/probe.js';
import { integrationDatabaseUrl, openTestDatabase } from '../support/database.js';

const flavour = integrationDatabaseUrl ? 'Postgres server' : 'PGlite';

t.test(`the probe passes on the postgres event store (${flavour}) and leaves only its own stream`, async (t) => {
  const database = await openTestDatabase(t);
  const store = await openPostgresEventStore(database);
  t.teardown(() => store.close());
  await probeEventStore(store);
  const events = await store.readAll();
  t.equal(new Set(events.map((e) => e.streamId)).size, 1, 'one probe stream');
  t.same(events.map((e) => e.type), ['StylistProbe', 'StylistProbe'], 'two events: the conflict and the retry wrote nothing');
});

/** A store that breaks one promise of the port, as a misbehaving server or a wrong adapter would. */
const broken = (store: EventStore, change: Partial<EventStore>): EventStore => delegatingStore(store, change);

t.test('the probe refuses a store that breaks the port, naming the failed check', async (t) => {
  const database = await openTestDatabase(t);
  const store = await openPostgresEventStore(database);
  t.teardown(() => store.close());

  const cases: Array<[string, Partial<EventStore>, RegExp]> = [
    [
      'expected revisions ignored',
      { append: (stream, events) => store.append(stream, events, { expectedRevision: 'any' }) },
      /^event store probe failed at "revision conflict": a second append expecting no stream to stylist-probe-\S+ was accepted$/,
    ],
    [
      'conflicts not mapped to the port error',
      {
        append: async (stream, events, options) => {
          try {
            return await store.append(stream, events, options);
          } catch (error) {
            throw new Error('WrongExpectedVersion', { cause: error });
          }
        },
      },
      /^event store probe failed at "revision conflict": the conflict surfaced as Error: WrongExpectedVersion, not as WrongExpectedRevision$/,
    ],
    [
      'event ids not kept (a retry appends again)',
      {
        append: (stream, events, options) =>
          store.append(stream, events.map((e) => ({ ...e, id: randomUUID() })), options.expectedRevision === 'no_stream' ? { expectedRevision: 'any' } : options),
      },
      /^event store probe failed at "revision conflict"|^event store probe failed at "append of the same event id twice"/,
    ],
    [
      'data lost on read',
      { readStream: async (...args) => (await store.readStream(...args)).map((e) => ({ ...e, data: {} })) },
      /^event store probe failed at "read back": event 0 came back as StylistProbe /,
    ],
    [
      'a subscription that never delivers',
      {
        subscribeToAll: async function* ({ signal } = {}) {
          await new Promise((resolve) => signal?.addEventListener('abort', resolve, { once: true }));
          yield* [];
        },
      },
      /^event store probe failed at "subscribe from a position": no answer within 300 ms$/,
    ],
    [
      'a subscription that includes its start position',
      {
        subscribeToAll: (options = {}) => {
          const { after: _after, ...rest } = options;
          return store.subscribeToAll(rest);
        },
      },
      /^event store probe failed at "subscribe from a position": the subscription delivered the event at its start position/,
    ],
  ];
  for (const [name, change, message] of cases) {
    // A short timeout only where the store never answers: on a shared server a healthy answer can
    // be held back behind another session's open transaction for longer than that.
    const timeoutMs = name === 'a subscription that never delivers' ? 300 : 15_000;
    const error = await probeEventStore(broken(store, change), { timeoutMs }).then(
      () => undefined,
      (e: unknown) => e,
    );
    t.type(error, EventStoreProbeFailed, name);
    t.match((error as Error | undefined)?.message, message, name);
  }
});
