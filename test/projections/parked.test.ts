// One organization's poisoned event stops only that organization's lane of a read model: its event
// is parked with its error, the organization's later events queue behind it (never applied out of
// order), every other organization goes on, and a replay after the fix leaves what a rebuild gives.
import t from 'tap';
import type { EventStore, Position } from '../../infra/eventstore/port.js';
import { positionToString } from '../../infra/eventstore/position.js';
import { ProjectionRunner } from '../../projections/runner.js';
import { createNotesTable, notesProjector, openFixture } from './support.js';

const { db, store } = await openFixture(t);
const quick = { firstDelayMs: 5, maxDelayMs: 40, attempts: 3, statementAttempts: 6 };
const ACME = '0b9f1c52-6c1e-4c8e-9a55-3c1c2c9f0a01';
const BOLT = '7d3e2a10-1f4b-4d8a-8e0c-5b6a7c8d9e02';

const write = async (store: EventStore, organizationId: string, noteId: string, body: string): Promise<Position> =>
  (await store.append(`parcel-${noteId}`, [{ type: 'ParcelWritten', data: { noteId, body }, metadata: { organizationId } }], { expectedRevision: 'no_stream' })).position;
const edit = async (store: EventStore, organizationId: string, noteId: string, body: string, revision: bigint): Promise<Position> =>
  (await store.append(`parcel-${noteId}`, [{ type: 'ParcelEdited', data: { noteId, body }, metadata: { organizationId } }], { expectedRevision: revision })).position;
const dump = async (): Promise<string> =>
  JSON.stringify(await db.selectFrom('parcels').select(['note_id', 'body', 'edits', 'position', 'recorded_at']).orderBy('note_id').execute());
const bodyOf = async (noteId: string): Promise<string> => (await db.selectFrom('parcels').select('body').where('note_id', '=', noteId).executeTakeFirstOrThrow()).body;

t.test("an event one organization's handler cannot apply parks that organization's lane only; a replay after the fix equals a rebuild", async (t) => {
  await createNotesTable(db, 'parcels');
  const broken = new Set<string>();
  const plain = notesProjector({ name: 'parcels', table: 'parcels', kind: 'Parcel' });
  const fragile = notesProjector({
    name: 'parcels',
    table: 'parcels',
    kind: 'Parcel',
    extra: {
      ParcelEdited: async (trx, event) => {
        if (broken.has(String(event.data.body))) throw new Error(`check constraint "no_${String(event.data.body)}" violated`);
        await plain.handlers.ParcelEdited!(trx, event);
      },
    },
  });
  const runner = new ProjectionRunner({ store, db, projectors: [fragile], batchSize: 4, retry: quick, faultPollMs: 50 });
  t.teardown(() => runner.stop());
  await runner.start();

  broken.add('poison');
  await write(store, ACME, 'a1', 'first');
  await write(store, ACME, 'a2', 'second');
  await write(store, BOLT, 'b1', 'other');
  const poison = await edit(store, ACME, 'a1', 'poison', 0n);
  const behind = await edit(store, ACME, 'a2', 'after the poison', 0n);
  const later = await edit(store, BOLT, 'b1', 'goes on', 0n);

  await runner.waitFor(later, ['parcels'], 10_000);
  t.equal(await bodyOf('b1'), 'goes on', "the other organization's write is applied");
  const degraded = { name: 'ProjectionDegraded', lanes: [{ projection: 'parcels', organizationId: ACME, eventType: 'ParcelEdited', position: positionToString(poison) }] };
  await t.rejects(runner.waitFor(poison, ['parcels']), degraded, 'the failed write is refused with its lane');
  await t.rejects(runner.waitFor(behind, ['parcels']), degraded, 'so is a later write of the same organization');
  t.equal(await bodyOf('a2'), 'second', 'the later event is not applied ahead of the parked one');
  // A write the read model has no handler for (the last event of a command that also changed it)
  // is refused for the organization whose lane is parked, and not for the others.
  const note = async (organizationId: string, noteId: string) =>
    (await store.append(`parcel-note-${noteId}`, [{ type: 'ParcelNoted', data: { noteId }, metadata: { organizationId } }], { expectedRevision: 'no_stream' })).position;
  await t.rejects(runner.waitFor(await note(ACME, 'n1'), ['parcels']), degraded, "an unhandled event of the parked organization");
  await runner.waitFor(await note(BOLT, 'n2'), ['parcels']);

  const bolt = await write(store, BOLT, 'b2', 'still served');
  await runner.waitFor(bolt, ['parcels']);
  t.equal(await bodyOf('b2'), 'still served');

  const status = (await runner.status())[0]!;
  t.match(status, {
    state: 'running',
    lag: 0,
    degraded: [{ organizationId: ACME, parkedEvents: 2, position: positionToString(poison), eventType: 'ParcelEdited', streamId: 'parcel-a1', attempts: 3, error: /no_poison/ }],
  });
  t.notOk(status.fault, 'the projector as a whole is not stopped');
  const readiness = await runner.readiness(30);
  t.equal(readiness.ok, true, 'one tenant does not take the service out of rotation');
  t.match(readiness.degraded, [{ organizationId: ACME, projections: ['parcels'], reason: /^parcels: 2 events parked since .*, first ParcelEdited at / }]);
  t.equal(readiness.degraded!.length, 1, 'only that organization');

  // The operator's CLI: another runner that never runs the loop.
  const cli = new ProjectionRunner({ store, db, projectors: [fragile] });
  const failedAgain = await cli.replayParked({ projector: 'parcels' }, { actor: 'cli', reason: 'too early' });
  t.match(failedAgain, { replayed: [], failed: [{ organizationId: ACME, eventType: 'ParcelEdited', position: positionToString(poison), error: /no_poison/ }] });
  t.equal(await bodyOf('a1'), 'first', 'a failed replay changes nothing');
  t.match((await runner.status())[0], { degraded: [{ parkedEvents: 2, attempts: 4 }] });

  broken.delete('poison');
  await t.rejects(cli.replayParked({ organizationId: BOLT }, { actor: 'cli', reason: 'x' }), { name: 'FaultMismatch', message: `nothing is parked for organization ${BOLT}` });
  t.same(await cli.replayParked({}, { actor: 'cli', reason: 'constraint fixed' }), { replayed: [{ projector: 'parcels', organizationId: ACME, events: 2 }], failed: [] });
  t.equal(await bodyOf('a1'), 'poison');
  t.equal(await bodyOf('a2'), 'after the poison');
  await runner.waitFor(behind, ['parcels']);
  const again = await edit(store, ACME, 'a1', 'live again', 1n);
  await runner.waitFor(again, ['parcels']);
  t.equal(await bodyOf('a1'), 'live again', "the organization's next write is applied live");
  t.notOk((await runner.status())[0]!.degraded, 'no longer degraded');
  t.notOk((await runner.readiness(30)).degraded);
  const audit = await db.selectFrom('projection_parked').selectAll().where('projector', '=', 'parcels').orderBy('parked_id').execute();
  t.match(audit, [
    { cause: 'failed', status: 'replayed', organization_id: ACME, resolved_by: /^cli \(os user .+\)$/, resolution_reason: 'constraint fixed' },
    { cause: 'behind', status: 'replayed', organization_id: ACME },
  ]);

  const live = await dump();
  const applied = (await runner.status())[0]!.eventsApplied;
  await runner.stop();
  const fresh = new ProjectionRunner({ store, db, projectors: [plain] });
  await fresh.rebuild(['parcels']);
  t.equal(await dump(), live, 'row by row what a rebuild gives');
  t.equal((await fresh.status())[0]!.eventsApplied, applied, 'each event counted once');
});

t.test('a rebuild meets a still-failing event again and parks it again; one that now applies closes the lane', async (t) => {
  await createNotesTable(db, 'crates');
  const broken = new Set<string>(['bad crate']);
  const crates = notesProjector({
    name: 'crates',
    table: 'crates',
    kind: 'Crate',
    extra: {
      CrateWritten: async (trx, event) => {
        if (broken.has(String(event.data.body))) throw new Error('cannot apply');
        await trx.insertInto('crates').values({ note_id: event.data.noteId, body: event.data.body, position: positionToString(event.position), recorded_at: event.recordedAt }).execute();
      },
    },
  });
  const runner = new ProjectionRunner({ store, db, projectors: [crates], retry: quick });
  t.teardown(() => runner.stop());
  await runner.start();
  await store.append('crate-c1', [{ type: 'CrateWritten', data: { noteId: 'c1', body: 'bad crate' }, metadata: { organizationId: ACME } }], { expectedRevision: 'no_stream' });
  const ok = (await store.append('crate-c2', [{ type: 'CrateWritten', data: { noteId: 'c2', body: 'fine' }, metadata: { organizationId: BOLT } }], { expectedRevision: 'no_stream' })).position;
  await runner.waitFor(ok, ['crates'], 10_000);
  t.match((await runner.status())[0], { degraded: [{ organizationId: ACME, parkedEvents: 1 }] });

  await runner.rebuild(['crates']);
  t.match((await runner.status())[0], { degraded: [{ organizationId: ACME, parkedEvents: 1 }] }, 'parked again, once');
  broken.clear();
  await runner.rebuild(['crates']);
  t.notOk((await runner.status())[0]!.degraded, 'applied by the rebuild');
  t.same((await db.selectFrom('crates').select('note_id').orderBy('note_id').execute()).map((r) => r.note_id), ['c1', 'c2']);
  t.same((await db.selectFrom('projection_parked').select('status').where('projector', '=', 'crates').execute()).map((r) => r.status), ['dropped', 'dropped']);
});
