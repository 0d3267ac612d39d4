import t, { type Test } from 'tap';
import { z } from 'zod';
import { buildApi } from '../../api/app.js';
import type { Caller } from '../../api/caller.js';
import { createLogger } from '../../api/logging.js';
import { IdempotencyStore, KEY_IN_PROGRESS, KEY_INVALID, KEY_REUSED } from '../../api/plugins/idempotency.js';
import { zodRoutes } from '../../api/plugins/validation.js';
import { handleCommand } from '../../commands/handle.js';
import type { Decider } from '../../domain/decider.js';
import { Invalid } from '../../domain/errors.js';
import { DEFAULT_PLAN } from '../../domain/plan.js';
import { openPostgresEventStore } from '../../infra/eventstore/postgres.js';
import type { Database } from '../../infra/db/database.js';
import type { EventStore } from '../../infra/eventstore/port.js';
import { migrate } from '../../projections/migrations.js';
import { openTestDatabase } from '../support/database.js';

// A counter aggregate: every increment is one event, so a handler that ran twice shows in the stream.
type Increment = { type: 'Increment'; data: { counterId: string; by: number } };
type Incremented = { type: 'Incremented'; data: { counterId: string; by: number } };
const counter: Decider<Increment, Incremented, number> = {
  initialState: 0,
  evolve: (value, event) => value + event.data.by,
  decide: (command) => [{ type: 'Incremented', data: command.data }],
  streamId: (command) => `counter-${command.data.counterId}`,
};

const ORG_A = '0f6d1c9a-1b9e-4c1e-8a51-7d0c7f0e9a01';
const ORG_B = '5e2b7d44-6a0f-4d8b-9b1e-3c9f2a7e4b02';
const HOUR = 60 * 60 * 1000;

const callerFor = (organizationId: string): Caller => ({
  organizationId,
  keyId: 'key-1',
  demo: false,
  plan: DEFAULT_PLAN,
  subscriptionStartedAt: '2026-01-01T00:00:00.000Z',
  rateSubject: organizationId,
  actor: { kind: 'key', id: 'key-1' },
});

// One database for the HTTP tests (opening one is most of a test's time); each test uses its own
// keys and counters, and its own app and clock.
let shared: Promise<{ database: Database; events: EventStore }> | undefined;
const sharedStores = () =>
  (shared ??= (async () => {
    const database = await openTestDatabase(t);
    await migrate(database.db);
    const events = await openPostgresEventStore(database);
    t.teardown(() => events.close());
    return { database, events };
  })());

let nextPrefix = 0;

const setup = async (t: Test) => {
  const { database, events } = await sharedStores();
  const prefix = `t${++nextPrefix}-`;
  const clock = { now: new Date('2026-03-01T10:00:00.000Z') };
  const state = { runs: 0, gate: undefined as Promise<void> | undefined, failNext: false };

  const app = await buildApi({
    logger: createLogger({ level: 'silent' }),
    readiness: {},
    database,
    now: () => clock.now,
    idempotency: { sweepIntervalMs: 0 },
    routes: [
      (app) => {
        // Stands in for authentication: the organization comes from a test header.
        app.addHook('onRequest', async (request) => {
          const organizationId = request.headers['x-test-organization'];
          if (typeof organizationId === 'string') request.caller = callerFor(organizationId);
        });
        const routes = zodRoutes(app);
        routes.post(
          '/v1/counters/:counterId/increments',
          {
            config: { auth: 'private', resource: 'api.v1.counters.increment' },
            schema: {
              params: z.object({ counterId: z.string() }),
              body: z.object({ by: z.number().int() }),
              response: { 201: z.object({ run: z.number(), events: z.number(), correlationId: z.uuid() }) },
            },
          },
          async (request, reply) => {
            const run = ++state.runs;
            if (state.gate) await state.gate;
            if (state.failNext) {
              state.failNext = false;
              throw new Error('the event store went away');
            }
            if (request.body.by === 0) throw new Invalid(`Nothing to add (run ${run}).`);
            const { counterId } = request.params;
            const caller = request.caller!;
            await handleCommand(
              events,
              counter,
              { type: 'Increment', data: { counterId, by: request.body.by } },
              { now: clock.now.toISOString(), actor: caller.actor, correlationId: request.correlationId },
              { organizationId: caller.organizationId },
            );
            const stored = await events.readStream(`counter-${counterId}`);
            return reply.code(201).send({ run, events: stored.length, correlationId: request.correlationId });
          },
        );
        routes.post('/v1/public-writes', { config: { auth: 'public' } }, async () => ({ run: ++state.runs }));
      },
    ],
  });
  t.teardown(() => app.close());

  const increment = (options: { key?: string; organizationId?: string; by?: number; counterId?: string } = {}) =>
    app.inject({
      method: 'POST',
      url: `/v1/counters/${prefix}${options.counterId ?? 'c1'}/increments`,
      payload: JSON.stringify({ by: options.by ?? 1 }),
      headers: {
        'content-type': 'application/json',
        'x-test-organization': options.organizationId ?? ORG_A,
        // Keys of earlier tests stay in the shared table: each test has its own.
        ...(options.key === undefined ? {} : { 'idempotency-key': options.key === '' ? '' : `${prefix}${options.key}` }),
      },
    });
  return { app, clock, state, increment, prefix };
};

t.test('a retry with the same key and body gets the stored response; the handler runs once', async (t) => {
  const { increment, state } = await setup(t);
  const first = await increment({ key: 'order-1' });
  t.equal(first.statusCode, 201);
  t.notOk(first.headers['idempotent-replayed'], 'the first answer is not a replay');
  t.match(first.json(), { run: 1, events: 1 });

  const retry = await increment({ key: 'order-1' });
  t.equal(retry.statusCode, 201);
  t.equal(retry.body, first.body, 'the same bytes');
  t.equal(retry.headers['idempotent-replayed'], 'true');
  t.match(retry.headers['content-type'], /application\/json/);
  t.equal(state.runs, 1, 'the handler did not run again');

  const other = await increment({ key: 'order-2' });
  t.match(other.json(), { run: 2, events: 2 }, 'another key is another request');
  const unkeyed = [await increment(), await increment()];
  t.match(unkeyed.map((r) => r.json().events), [3, 4], 'without a key every request runs');
  t.not(unkeyed[0]!.json().correlationId, unkeyed[1]!.json().correlationId, 'each with its own random correlation id');
});

t.test('the same key with a different request is refused, and so is reuse on another path', async (t) => {
  const { increment, state } = await setup(t);
  await increment({ key: 'k', by: 1 });
  const changed = await increment({ key: 'k', by: 2 });
  t.equal(changed.statusCode, 409);
  t.same(changed.json(), { error: KEY_REUSED });
  const elsewhere = await increment({ key: 'k', counterId: 'c2' });
  t.equal(elsewhere.statusCode, 409);
  t.same(elsewhere.json(), { error: KEY_REUSED });
  t.equal(state.runs, 1);
});

t.test('the same key while the first request still runs: one runs, the other gets 409', async (t) => {
  const { increment, state } = await setup(t);
  let open!: () => void;
  state.gate = new Promise((resolve) => (open = resolve));
  const first = increment({ key: 'slow' });
  while (state.runs === 0) await new Promise((resolve) => setTimeout(resolve, 5));

  const second = await increment({ key: 'slow' });
  t.equal(second.statusCode, 409);
  t.same(second.json(), { error: KEY_IN_PROGRESS });
  open();
  state.gate = undefined;
  t.equal((await first).statusCode, 201);
  const third = await increment({ key: 'slow' });
  t.equal(third.headers['idempotent-replayed'], 'true', 'once finished, retries replay it');
  t.equal(state.runs, 1);
});

t.test('keys are scoped per organization', async (t) => {
  const { increment, state } = await setup(t);
  const a = await increment({ key: 'shared', organizationId: ORG_A });
  const b = await increment({ key: 'shared', organizationId: ORG_B });
  t.equal(a.statusCode, 201);
  t.equal(b.statusCode, 201);
  t.notOk(b.headers['idempotent-replayed']);
  t.equal(state.runs, 2);
  t.not(a.json().correlationId, b.json().correlationId);
  t.equal(b.json().events, 2, "the other organization's events are its own");
});

t.test('a 5xx is not stored: the key is released and a retry runs again', async (t) => {
  const { increment, state } = await setup(t);
  state.failNext = true;
  const failed = await increment({ key: 'flaky' });
  t.equal(failed.statusCode, 500);
  const retry = await increment({ key: 'flaky' });
  t.equal(retry.statusCode, 201);
  t.notOk(retry.headers['idempotent-replayed']);
  t.equal(state.runs, 2);
  t.equal((await increment({ key: 'flaky' })).headers['idempotent-replayed'], 'true');
});

t.test("a handler's 4xx is kept and replayed; a request refused by validation never holds the key", async (t) => {
  const { app, increment, state, prefix } = await setup(t);
  const refused = await increment({ key: 'zero', by: 0 });
  t.equal(refused.statusCode, 422);
  t.same(refused.json(), { error: 'Nothing to add (run 1).' });
  const again = await increment({ key: 'zero', by: 0 });
  t.equal(again.headers['idempotent-replayed'], 'true');
  t.equal(again.body, refused.body);
  t.equal(state.runs, 1);

  const malformed = () =>
    app.inject({
      method: 'POST',
      url: `/v1/counters/${prefix}c1/increments`,
      payload: '{"by": 1.5}',
      headers: { 'content-type': 'application/json', 'x-test-organization': ORG_A, 'idempotency-key': `${prefix}malformed` },
    });
  for (let i = 0; i < 2; i++) {
    const response = await malformed();
    t.equal(response.statusCode, 422);
    t.notOk(response.headers['idempotent-replayed'], 'validated each time, not replayed');
  }
  t.equal(state.runs, 1);
  t.equal((await increment({ key: 'malformed' })).statusCode, 201, 'the corrected request uses the key');
});

t.test('after 24 hours the key is forgotten; the retry runs but its events are not appended twice', async (t) => {
  const { increment, state, clock } = await setup(t);
  const first = await increment({ key: 'daily' });
  clock.now = new Date(clock.now.getTime() + 24 * HOUR - 1);
  t.equal((await increment({ key: 'daily' })).headers['idempotent-replayed'], 'true', 'still kept just before 24 hours');

  clock.now = new Date(clock.now.getTime() + 2);
  const late = await increment({ key: 'daily' });
  t.equal(late.statusCode, 201);
  t.notOk(late.headers['idempotent-replayed']);
  t.equal(state.runs, 2, 'the handler ran again');
  t.equal(late.json().correlationId, first.json().correlationId, 'with the same correlation id');
  t.equal(late.json().events, 1, 'so the event store dropped the repeated event');

  const changed = await increment({ key: 'daily', by: 5 });
  t.equal(changed.statusCode, 409, 'the new run holds the key for another 24 hours');
});

t.test('Idempotency-Key must be 1 to 255 characters; other routes ignore it', async (t) => {
  const { app, increment, state, prefix } = await setup(t);
  for (const key of ['', 'x'.repeat(256 - prefix.length)]) {
    const response = await increment({ key });
    t.equal(response.statusCode, 422);
    t.same(response.json(), { error: KEY_INVALID });
  }
  t.equal((await increment({ key: 'x'.repeat(255 - prefix.length) })).statusCode, 201);
  t.equal(state.runs, 1);
  const publicWrite = () =>
    app.inject({ method: 'POST', url: '/v1/public-writes', payload: '{}', headers: { 'content-type': 'application/json', 'idempotency-key': 'p' } });
  t.same((await publicWrite()).json(), { run: 2 });
  t.same((await publicWrite()).json(), { run: 3 }, 'a public route runs every time');
});

t.test('the store: one atomic claim wins, stale claims are taken over, the sweep deletes expired rows', async (t) => {
  const database = await openTestDatabase(t, { maxConnections: 8 });
  await migrate(database.db);
  const clock = { now: new Date('2026-03-01T10:00:00.000Z') };
  const store = new IdempotencyStore(database.db, { now: () => clock.now, ttlMs: 24 * HOUR, staleClaimMs: 5 * 60 * 1000 });

  const outcomes = await Promise.all(Array.from({ length: 8 }, () => store.claim(ORG_A, 'race', 'hash')));
  t.equal(outcomes.filter((o) => o.kind === 'claimed').length, 1, 'exactly one claim wins');
  t.equal(outcomes.filter((o) => o.kind === 'in_progress').length, 7);

  clock.now = new Date(clock.now.getTime() + 5 * 60 * 1000 - 1);
  t.match(await store.claim(ORG_A, 'race', 'hash'), { kind: 'in_progress' });
  clock.now = new Date(clock.now.getTime() + 1);
  const takeover = await store.claim(ORG_A, 'race', 'hash');
  t.match(takeover, { kind: 'claimed' }, 'a claim whose process died is taken over');
  const abandoned = outcomes.find((o) => o.kind === 'claimed');
  if (abandoned?.kind === 'claimed') await store.complete(abandoned.claim, 201, '{"late":true}');
  if (takeover.kind === 'claimed') await store.complete(takeover.claim, 200, '{"ok":true}');
  t.same(await store.claim(ORG_A, 'race', 'hash'), { kind: 'replay', statusCode: 200, body: '{"ok":true}' }, 'the late first answer did not overwrite');

  await store.claim(ORG_B, 'young', 'hash');
  clock.now = new Date(clock.now.getTime() + 24 * HOUR);
  const count = async () => Number((await database.db.selectFrom('idempotency_keys').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  t.equal(await count(), 2);
  await store.claim(ORG_B, 'fresh', 'hash');
  t.equal(await store.sweep(), 2, 'both expired rows go');
  t.equal(await count(), 1, 'the fresh one stays');
});
