import t from 'tap';
import { ProjectionRunner, RebuildFailed } from '../../projections/runner.js';
import { comparePositions } from '../../infra/eventstore/position.js';
import { until } from '../support/until.js';
import { count, createNotesTable, dumpTable, editNote, ids, notesProjector, openFixture, writeNotes } from './support.js';

// One database for the file (subtests run in turn, each with its own kind of note and tables).
const { db, store } = await openFixture(t);

t.test('a rebuild gives byte-identical rows, reports the events it replayed and hands over to the live loop', async (t) => {
  await createNotesTable(db, 'memos');
  await createNotesTable(db, 'memo_copies');
  const memos = notesProjector({ name: 'memos', table: 'memos', kind: 'Memo' });
  const copies = notesProjector({ name: 'memo_copies', table: 'memo_copies', kind: 'Memo' });
  const runner = new ProjectionRunner({ store, db, projectors: [memos, copies], batchSize: 50 });
  t.teardown(() => runner.stop());

  await writeNotes(store, 'Memo', ids('n', 150));
  let last = await editNote(store, 'Memo', 'n0000', 'edit of n0000');
  for (const id of ids('n', 30).slice(1)) last = await editNote(store, 'Memo', id, `edit of ${id}`);
  await runner.start();
  await runner.waitFor(last, ['memos', 'memo_copies']);
  const before = await dumpTable(db, 'memos', 'seq');
  const copiesBefore = await dumpTable(db, 'memo_copies', 'seq');
  const statusBefore = await runner.status();

  // This subtest runs first: the store holds its 180 events only.
  t.same(await runner.rebuild(['memos']), { rebuilt: ['memos'], events: 180 });
  t.equal(await dumpTable(db, 'memos', 'seq'), before, 'identical rows, serial keys included');
  t.equal(await dumpTable(db, 'memo_copies', 'seq'), copiesBefore, 'other read models untouched');
  t.same(await runner.status(), statusBefore, 'same checkpoints and counts as before');

  // Live processing takes the rebuilt projector over again.
  await runner.waitFor(await writeNotes(store, 'Memo', ids('z', 3)), ['memos', 'memo_copies']);
  t.equal(await count(db, 'memos'), 153);

  // A rebuild while appends keep arriving hands over without gaps or repeats.
  let writing = true;
  const writer = (async () => {
    let i = 0;
    let lastWritten = last;
    while (writing && i < 300) lastWritten = await writeNotes(store, 'Memo', [`w${i++}`]);
    return { written: i, lastWritten };
  })();
  const { events } = await runner.rebuild(['memos']);
  writing = false;
  const { written, lastWritten } = await writer;
  // Not headPosition(): on a shared server another session's open transaction can hide the newest events from it.
  await runner.waitFor(lastWritten, ['memos', 'memo_copies']);
  t.ok(events >= 183, `replayed ${events} events while ${written} notes were written`);
  const rows = await db.selectFrom('memos').select('note_id').execute();
  t.equal(rows.length, 153 + written, 'every note once');
  t.equal(new Set(rows.map((r) => r.note_id)).size, rows.length);
  t.equal(await count(db, 'memo_copies'), 153 + written);
});

t.test('a rebuild works without starting the runner and reports a failing projector', async (t) => {
  await createNotesTable(db, 'drafts');
  await createNotesTable(db, 'fragile_drafts');
  const drafts = notesProjector({ name: 'drafts', table: 'drafts', kind: 'Draft' });
  const fragile = notesProjector({
    name: 'fragile',
    table: 'fragile_drafts',
    kind: 'Draft',
    extra: {
      DraftEdited: async () => {
        throw new Error('cannot edit');
      },
    },
  });
  const runner = new ProjectionRunner({ store, db, projectors: [drafts, fragile] });
  await writeNotes(store, 'Draft', ids('b', 10));
  await editNote(store, 'Draft', 'b0002', 'x');
  const last = await writeNotes(store, 'Draft', ids('c', 10));
  // A replay reads what the store shows: on a shared server another session's open transaction
  // hides the newest events for a while. Wait until the last one is readable, then rebuild.
  await until('the drafts readable', () => store.readAll({ maxCount: 100_000 }), (events) => events.some((e) => comparePositions(e.position, last) === 0), { everyMs: 50 });

  const failure = await runner.rebuild().catch((error: unknown) => error);
  t.type(failure, RebuildFailed);
  t.match((failure as RebuildFailed).failures, [{ name: 'fragile', error: /cannot edit/ }]);
  t.equal(await count(db, 'drafts'), 20, 'the healthy projector was rebuilt in full');
  t.equal(await count(db, 'fragile_drafts'), 10, 'the failing one stopped at the bad event');
  const fragileStatus = (await runner.status()).find((s) => s.name === 'fragile')!;
  t.match(fragileStatus, { eventsApplied: 10, lag: 11, error: /cannot edit/ });
});
