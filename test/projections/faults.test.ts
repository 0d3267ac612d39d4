// Faults inside projectors: a transient error is retried from the checkpoint and leaves the read
// model as a rebuild would; one that repeats on an event poisons exactly that event, shows in
// status and /readyz, and an operator's skip (from any process) or retry resumes the projector;
// through the service, one organization's unappliable event stops only that organization.
import { sql } from 'kysely';
import t from 'tap';
import { buildApi } from '../../api/app.js';
import { createLogger } from '../../api/logging.js';
import { positionToString } from '../../infra/eventstore/position.js';
import { ProjectionRunner } from '../../projections/runner.js';
import { executeCommand } from '../../app/cli/execute.js';
import { projectionCommands } from '../../app/cli/projection-commands.js';
import { startTestService } from '../support/service.js';
import { count, createNotesTable, editNote, ids, notesProjector, openFixture, writeNotes } from './support.js';

const { db, store, database } = await openFixture(t);
/** n/a on PGlite; on a Postgres server, seconds. */
const oldestShape = database.kind === 'pglite' ? null : Number;
/** Rows without `seq`: a rolled-back insert still uses up a serial value, and no read model has one. */
const dumpNotes = async (table: string): Promise<string> =>
  JSON.stringify(await db.selectFrom(table).select(['note_id', 'body', 'edits', 'position', 'recorded_at']).orderBy('position').execute());

const quick = { firstDelayMs: 5, maxDelayMs: 40, attempts: 3, statementAttempts: 6 };

/** An error as pg reports it: SQLSTATE in `code`. */
const pgError = (code: string, message: string): Error => Object.assign(new Error(message), { code });

t.test('transient errors inside a handler are retried from the checkpoint: rows equal a rebuild, nothing applied twice', async (t) => {
  await createNotesTable(db, 'memos');
  const transient = [
    pgError('40001', 'could not serialize access due to concurrent update'),
    pgError('40P01', 'deadlock detected'),
    pgError('57014', 'canceling statement due to statement timeout'),
    pgError('57P01', 'terminating connection due to administrator command'),
    pgError('08006', 'connection failure'),
    pgError('53300', 'sorry, too many clients already'),
    new Error('Connection terminated unexpectedly'),
    Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
  ];
  let thrown = 0;
  const plain = notesProjector({ name: 'memos', table: 'memos', kind: 'Memo' });
  const flaky = notesProjector({
    name: 'memos',
    table: 'memos',
    kind: 'Memo',
    extra: {
      // Every eleventh write fails once, after the row went in: the rollback must take it out again.
      MemoWritten: async (trx, event) => {
        await plain.handlers.MemoWritten!(trx, event);
        const n = Number(String(event.data.noteId).slice(1));
        if (n % 11 === 0 && thrown < transient.length * 2 && !seen.has(n)) {
          seen.add(n);
          throw transient[thrown++ % transient.length]!;
        }
      },
    },
  });
  const seen = new Set<number>();
  const runner = new ProjectionRunner({ store, db, projectors: [flaky], batchSize: 20, retry: quick });
  t.teardown(() => runner.stop());
  await runner.start();
  const last = await writeNotes(store, 'Memo', ids('n', 200));
  await runner.waitFor(last, ['memos'], 20_000);
  t.ok(thrown >= 10, `${thrown} transient errors thrown`);

  const status = (await runner.status())[0]!;
  t.match(status, { state: 'running', eventsApplied: 200, lag: 0, lagSeconds: 0 }, 'each event counted once');
  t.notOk(status.fault, 'no transient error poisons');
  t.equal(await count(db, 'memos'), 200);
  const live = await dumpNotes('memos');
  await runner.stop();

  const fresh = new ProjectionRunner({ store, db, projectors: [plain] });
  await fresh.rebuild(['memos']);
  t.equal(await dumpNotes('memos'), live, 'row by row what a fresh rebuild gives');
});

t.test('an event that keeps failing poisons exactly itself; a skip from another process resumes past it, a retry re-runs it', async (t) => {
  await createNotesTable(db, 'drafts');
  await createNotesTable(db, 'fragile_drafts');
  const broken = new Set<string>();
  const drafts = notesProjector({ name: 'drafts', table: 'drafts', kind: 'Draft' });
  const plainFragile = notesProjector({ name: 'fragile', table: 'fragile_drafts', kind: 'Draft' });
  const fragile = notesProjector({
    name: 'fragile',
    table: 'fragile_drafts',
    kind: 'Draft',
    extra: {
      DraftEdited: async (trx, event) => {
        if (broken.has(String(event.data.body))) throw new Error(`cannot apply ${String(event.data.body)}`);
        await plainFragile.handlers.DraftEdited!(trx, event);
      },
    },
  });
  const runner = new ProjectionRunner({ store, db, projectors: [drafts, fragile], batchSize: 4, retry: quick, faultPollMs: 50 });
  t.teardown(() => runner.stop());
  await runner.start();

  broken.add('bad one');
  await writeNotes(store, 'Draft', ids('d', 5));
  const poison = await editNote(store, 'Draft', 'd0001', 'bad one');
  const good = await editNote(store, 'Draft', 'd0002', 'good one');
  await runner.waitFor(good, ['drafts']);
  await t.rejects(runner.waitFor(good, ['fragile'], 5000), { name: 'ProjectionTimeout', behind: [{ name: 'fragile', stopped: true }] });

  const status = (await runner.status()).find((s) => s.name === 'fragile')!;
  t.match(status, { state: 'poisoned', lag: 2, fault: { position: positionToString(poison), eventType: 'DraftEdited', streamId: 'draft-d0001', attempts: 3, error: /cannot apply bad one/ } });
  t.equal((await runner.status()).find((s) => s.name === 'drafts')!.state, 'running', 'the other projector goes on');
  const readiness = await runner.readiness(30);
  t.equal(readiness.ok, false);
  t.match(readiness.problems, [{ name: 'fragile', reason: new RegExp(`^poisoned: stopped at ${positionToString(poison)} \\(DraftEdited\\) after 3 attempts`) }]);
  t.match({ oldest: readiness.oldestTransactionSeconds }, { oldest: oldestShape }, 'the oldest transaction: n/a on PGlite');

  // The operator's CLI is another process with a runner of its own that never runs the loop.
  const cli = new ProjectionRunner({ store, db, projectors: [drafts, fragile] });
  await t.rejects(cli.skip('fragile', good, { actor: 'cli', reason: 'wrong event' }), { name: 'FaultMismatch', message: /is stopped at .*, not / });
  await cli.skip('fragile', poison, { actor: 'cli', reason: 'a bad edit from the old importer' });
  await runner.waitFor(good, ['fragile'], 5000);
  const rows = await db.selectFrom('fragile_drafts').select(['note_id', 'body']).where('note_id', 'in', ['d0001', 'd0002']).orderBy('note_id').execute();
  t.same(rows, [{ note_id: 'd0001', body: 'Draft d0001' }, { note_id: 'd0002', body: 'good one' }], 'the poisoned edit skipped, the next one applied');
  t.match((await runner.status()).find((s) => s.name === 'fragile'), { state: 'running', lag: 0, eventsApplied: 6 }, 'the skipped event is not counted as applied');
  const audit = await db.selectFrom('projection_faults').selectAll().where('projector', '=', 'fragile').executeTakeFirstOrThrow();
  t.match(audit, { status: 'skipped', position: positionToString(poison), resolved_by: /^cli \(os user .+\)$/, resolution_reason: 'a bad edit from the old importer' });
  t.ok(audit.resolved_at, 'when');
  t.equal((await runner.readiness(30)).ok, true);

  // A second poisoned event, fixed at its cause, then retried: applied, not skipped.
  broken.add('second bad one');
  const second = await editNote(store, 'Draft', 'd0003', 'second bad one');
  await t.rejects(runner.waitFor(second, ['fragile'], 5000), { name: 'ProjectionTimeout' });
  t.equal((await runner.status()).find((s) => s.name === 'fragile')!.state, 'poisoned');
  await t.rejects(cli.retry('drafts', { actor: 'cli', reason: 'x' }), { name: 'FaultMismatch', message: 'drafts is not stopped on a poisoned event' });
  broken.delete('second bad one');
  await cli.retry('fragile', { actor: 'cli', reason: 'importer fixed' });
  await runner.waitFor(second, ['fragile'], 5000);
  t.equal((await db.selectFrom('fragile_drafts').select('body').where('note_id', '=', 'd0003').executeTakeFirstOrThrow()).body, 'second bad one');
  t.equal(await count(db, 'fragile_drafts'), 5);
});

t.test('a statement cancelled on every try poisons its event after the statement budget; a lost connection never does', async (t) => {
  await createNotesTable(db, 'slow_notes');
  let connectionFailures = 0;
  let timeouts = 0;
  const plainSlow = notesProjector({ name: 'slow', table: 'slow_notes', kind: 'Slow' });
  const slow = notesProjector({
    name: 'slow',
    table: 'slow_notes',
    kind: 'Slow',
    extra: {
      SlowWritten: async (trx, event) => {
        // The first note's connection drops 20 times; the third note always outlasts the timeout.
        if (event.data.noteId === 's0000' && connectionFailures < 20) throw Object.assign(new Error('server closed the connection unexpectedly'), { code: '08006', n: ++connectionFailures });
        if (event.data.noteId === 's0002') throw Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014', n: ++timeouts });
        await plainSlow.handlers.SlowWritten!(trx, event);
      },
    },
  });
  const runner = new ProjectionRunner({ store, db, projectors: [slow], retry: quick, batchSize: 1 });
  t.teardown(() => runner.stop());
  await runner.start();
  const last = await writeNotes(store, 'Slow', ids('s', 4));
  await t.rejects(runner.waitFor(last, ['slow'], 15_000), { name: 'ProjectionTimeout', behind: [{ name: 'slow', stopped: true, error: /Slow.*statement timeout/ }] });
  t.equal(connectionFailures, 20, 'twenty lost connections, retried through');
  t.equal(timeouts, 6, 'the statement budget, then stopped');
  t.match((await runner.status())[0], { state: 'poisoned', fault: { streamId: 'slow-s0002', attempts: 6 } });
  t.equal(await count(db, 'slow_notes'), 2, 'the notes before it are applied');
});

t.test('a projection behind the head of $all by more than the limit makes /readyz answer 503 with its name', async (t) => {
  await createNotesTable(db, 'letters');
  const letters = notesProjector({ name: 'letters', table: 'letters', kind: 'Letter' });
  // Like an API process: the projections run elsewhere (here: nowhere), only the lag tells.
  const runner = new ProjectionRunner({ store, db, projectors: [letters] });
  const app = await buildApi({ logger: createLogger({ level: 'silent' }), readiness: { projections: () => runner.readiness(1) } });
  t.teardown(() => app.close());
  const worker = new ProjectionRunner({ store, db, projectors: [letters] });
  t.teardown(() => worker.stop());
  await worker.start();
  await worker.waitFor(await writeNotes(store, 'Letter', ['warm-up']), ['letters']);
  t.equal((await app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200, 'caught up');
  await worker.stop();

  await writeNotes(store, 'Letter', ids('l', 3));
  await new Promise((resolve) => setTimeout(resolve, 1300));
  const response = await app.inject({ method: 'GET', url: '/readyz' });
  t.equal(response.statusCode, 503);
  t.match(response.json(), {
    status: 'unavailable',
    checks: { projections: 'unavailable' },
    projections: { lagLimitSeconds: 1, problems: [{ name: 'letters', reason: /^\d+(\.\d)? s behind the head of \$all \(limit 1 s\)$/ }], oldestTransactionSeconds: oldestShape },
  });

  await worker.start();
  await worker.waitFor((await store.headPosition())!, ['letters']);
  t.equal((await app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200, 'ready again once caught up');
});

t.test("through the service: one organization's unappliable event answers its writes with 503 and the reason, the others go on, and replay-parked resumes it", async (t) => {
  const service = await startTestService(t);
  const acme = await service.cli(['org', 'create', '--name', 'Acme Apparel', '--json']);
  const bolt = await service.cli(['org', 'create', '--name', 'Bolt Boutique', '--json']);
  const as = (org: Record<string, any>) => (method: 'GET' | 'POST', url: string, payload?: object) =>
    service.app.inject({ method, url, headers: { authorization: `Bearer ${org.privateKey}` }, ...(payload ? { payload } : {}) });
  const asAcme = as(acme);
  const asBolt = as(bolt);
  const database = service.platform.database.db;
  // A read model the projector cannot write to: a constraint the event does not satisfy.
  await sql`alter table datasets add constraint no_poison check (name <> 'Poison')`.execute(database);

  const refused = await asAcme('POST', '/v1/datasets', { name: 'Poison' });
  t.equal(refused.statusCode, 503);
  t.match(refused.json(), {
    error: 'Service unavailable.',
    reason: new RegExp(`^The change was saved but is not readable yet: read model 'datasets' of organization ${acme.organizationId} has stopped at DatasetCreated \\(\\d+/\\d+\\) since .*no_poison.*other organizations are not affected\\.$`),
  });
  const queued = await asAcme('POST', '/v1/datasets', { name: 'Fine' });
  t.equal(queued.statusCode, 503, "the organization's next write waits behind the parked one");

  const other = await asBolt('POST', '/v1/datasets', { name: 'Bolt shirts' });
  t.equal(other.statusCode, 201, 'another organization writes');
  t.equal((await asBolt('GET', `/v1/datasets/${other.json().datasetId}`)).json().dataset?.name, 'Bolt shirts', 'and reads its write');

  const ready = await service.app.inject({ method: 'GET', url: '/readyz' });
  t.equal(ready.statusCode, 200, 'still in rotation: the other organizations are served');
  t.match(ready.json(), { status: 'degraded', checks: { projections: 'degraded' }, projections: { problems: [], degraded: [{ organizationId: acme.organizationId, projections: ['datasets'], reason: /^datasets: 2 events parked since / }] } });
  t.equal(ready.json().projections.degraded.length, 1, 'only that organization');

  const { projections } = await service.cli(['projections', 'status', '--json']);
  t.match(projections.find((p: { name: string }) => p.name === 'datasets'), {
    state: 'running',
    degraded: [{ organizationId: acme.organizationId, parkedEvents: 2, eventType: 'DatasetCreated', attempts: 5, error: /no_poison/ }],
  });
  t.notOk(projections.find((p: { name: string }) => p.name === 'datasets').fault, 'the read model as a whole is not stopped');
  const statusText = (await executeCommand(service.platform, ['projections', 'status'])) as { ok: true; result: Record<string, unknown> };
  t.match(projectionCommands.find((c) => c.words[1] === 'status')!.text(statusText.result), new RegExp(`degraded for organization ${acme.organizationId}: 2 events parked`));
  // Of each lane, the status text says what /readyz says: whether this process runs it.
  const readyLanes = ready.json().projections.lanes as Array<{ name: string; here: boolean }>;
  t.ok(readyLanes.length >= 1 && readyLanes.every((lane) => lane.here), 'this service runs every lane');
  for (const lane of readyLanes) t.match(projectionCommands.find((c) => c.words[1] === 'status')!.text(statusText.result), new RegExp(`^${lane.name} lane: runs in this process;`, 'm'), `${lane.name}: as /readyz says`);

  await t.rejects(service.cli(['projections', 'replay-parked', 'datasets', '--json']), new RegExp(`datasets for organization ${acme.organizationId}: still parked, .*no_poison`));
  await t.rejects(service.cli(['projections', 'replay-parked', 'nonsense']), /unknown projection nonsense/);
  await sql`alter table datasets drop constraint no_poison`.execute(database);
  const replayed = await service.cli(['projections', 'replay-parked', '--org', acme.organizationId, '--reason', 'constraint dropped', '--json']);
  t.same(replayed, { replayed: [{ projector: 'datasets', organizationId: acme.organizationId, events: 2 }] });

  const { dataset_id: datasetId } = await database.selectFrom('datasets').select('dataset_id').where('name', '=', 'Poison').executeTakeFirstOrThrow();
  t.equal((await asAcme('GET', `/v1/datasets/${datasetId}`)).json().dataset?.name, 'Poison', 'the parked event is applied');
  const again = await asAcme('POST', '/v1/datasets', { name: 'Acme again' });
  t.equal(again.statusCode, 201, "the organization's writes work again");
  t.match((await service.app.inject({ method: 'GET', url: '/readyz' })).json(), { status: 'ready', checks: { projections: 'ok' } });

  // `sequence` is a serial: its values differ (a rolled-back attempt uses one up, and the replayed
  // lane came after the other organization's rows), but within an organization the order is the same.
  const rows = async () =>
    JSON.stringify(
      (await database.selectFrom('datasets').selectAll().orderBy('organization_id').orderBy('sequence').execute()).map(({ sequence: _sequence, ...row }) => row),
    );
  const live = await rows();
  await service.cli(['projections', 'rebuild', 'datasets', '--json']);
  t.equal(await rows(), live, 'the read model equals a rebuild');
});
