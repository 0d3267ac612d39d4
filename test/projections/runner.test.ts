import t from 'tap';
import pino from 'pino';
import { SelectQueryNode, TableNode, type KyselyPlugin } from 'kysely';
import { comparePositions, parsePosition, positionToString } from '../../infra/eventstore/position.js';
import { projector } from '../../projections/projector.js';
import { ProjectionRunner, ProjectionTimeout, type RunnerLogger } from '../../projections/runner.js';
import { countingProjector, createCountingTables, TICKED } from './fixtures/counting.js';
import { count, createNotesTable, editNote, ids, notesProjector, openFixture, writeNotes } from './support.js';

// The service passes its pino logger.
const _pinoFits: RunnerLogger = pino({ enabled: false });

const recordingLogger = () => {
  const lines: Array<{ level: string; obj: Record<string, unknown>; msg?: string }> = [];
  const at =
    (level: string) =>
    (obj: object, msg?: string): void =>
      void lines.push({ level, obj: obj as Record<string, unknown>, ...(msg ? { msg } : {}) });
  const logger: RunnerLogger = { info: at('info'), warn: at('warn'), error: at('error') };
  return { logger, lines };
};

// One database for the file (subtests run in turn, each with its own kind of note and tables).
const { db, store } = await openFixture(t);

t.test('events appended before and after start are projected in order, and waitFor sees fresh appends', async (t) => {
  await createNotesTable(db, 'memos');
  const memos = notesProjector({ name: 'memos', table: 'memos', kind: 'Memo' });
  /** Handles nothing, so it only ever moves its checkpoint. */
  const bystander = projector('bystander', [], {});
  const runner = new ProjectionRunner({ store, db, projectors: [memos, bystander], batchSize: 7 });
  t.teardown(() => runner.stop());

  await writeNotes(store, 'Memo', ids('a', 20));
  await runner.start();
  const edited = await editNote(store, 'Memo', 'a0003', 'edited');
  const last = await writeNotes(store, 'Memo', ids('b', 20));
  await runner.waitFor(last, ['memos', 'bystander']);

  const rows = await db.selectFrom('memos').select(['note_id', 'position', 'body', 'edits']).orderBy('seq').execute();
  t.same(
    rows.map((r) => r.note_id),
    [...ids('a', 20), ...ids('b', 20)],
    'one row per note, inserted in append order',
  );
  const positions = rows.map((r) => r.position as string);
  t.same(positions, [...positions].sort((x, y) => comparePositions(parsePosition(x), parsePosition(y))), 'rows follow $all order');
  t.match(rows[3], { body: 'edited', edits: 1 });

  // A fresh append is visible as soon as waitFor resolves.
  const fresh = await writeNotes(store, 'Memo', ['c']);
  await runner.waitFor(fresh, ['memos']);
  t.ok(await db.selectFrom('memos').select('note_id').where('note_id', '=', 'c').executeTakeFirst(), 'read-your-writes');
  t.ok(comparePositions(fresh, edited) > 0);

  const status = await runner.status();
  t.same(
    status.map((s) => ({ name: s.name, position: s.position, lag: s.lag })),
    [
      { name: 'memos', position: positionToString(fresh), lag: 0 },
      { name: 'bystander', position: positionToString(fresh), lag: 0 },
    ],
  );
  t.equal(status[0]!.eventsApplied, 42, '41 MemoWritten and 1 MemoEdited');
  t.equal(status[1]!.eventsApplied, 0, 'the bystander handles nothing, yet its checkpoint moves');

  // stop ends the subscription; a restart resumes from the checkpoint without re-applying.
  await runner.stop();
  const whileStopped = await writeNotes(store, 'Memo', ids('d', 10));
  await new Promise((resolve) => setTimeout(resolve, 100));
  t.equal(await count(db, 'memos'), 41, 'nothing applied while stopped');
  await runner.start();
  await runner.waitFor(whileStopped, ['memos', 'bystander']);
  t.equal(await count(db, 'memos'), 51);
  t.equal((await runner.status())[0]!.eventsApplied, 52);
});

t.test('a handler failing on one event poisons its projector there, the others carry on, and waits on it fail', async (t) => {
  await createNotesTable(db, 'drafts');
  await createNotesTable(db, 'fragile_drafts');
  let poisoned = true;
  let calls = 0;
  const drafts = notesProjector({ name: 'drafts', table: 'drafts', kind: 'Draft' });
  const fragile = notesProjector({
    name: 'fragile',
    table: 'fragile_drafts',
    kind: 'Draft',
    extra: {
      DraftEdited: async () => {
        calls++;
        if (poisoned) throw new Error('cannot edit');
      },
    },
  });
  const { logger, lines } = recordingLogger();
  const retry = { firstDelayMs: 5, maxDelayMs: 20, attempts: 3 };
  const runner = new ProjectionRunner({ store, db, projectors: [drafts, fragile], logger, batchSize: 5, retry, faultPollMs: 50 });
  t.teardown(() => runner.stop());
  await runner.start();

  const before = await writeNotes(store, 'Draft', ids('n', 3));
  const poison = await editNote(store, 'Draft', 'n0001', 'x');
  const after = await writeNotes(store, 'Draft', ids('m', 3));
  await runner.waitFor(after, ['drafts']);

  const started = Date.now();
  const failure = await runner.waitFor(after, ['drafts', 'fragile'], 4000).catch((error: unknown) => error);
  t.type(failure, ProjectionTimeout);
  t.match((failure as ProjectionTimeout).behind, [{ name: 'fragile', stopped: true, error: /poisoned at .*DraftEdited.*cannot edit/ }]);
  t.match((failure as ProjectionTimeout).reason, /^The change was saved but projection 'fragile' stopped before applying it: fragile is at /);
  t.ok(Date.now() - started < 3000, 'a poisoned projector fails the wait without sitting out the timeout');
  t.equal(calls, 3, 'tried as often as the policy says, then stopped');

  const status = await runner.status();
  const fragileStatus = status.find((s) => s.name === 'fragile')!;
  t.equal(fragileStatus.state, 'poisoned');
  t.equal(fragileStatus.position, positionToString(before), 'stopped just before the failing event, not past it');
  t.match(fragileStatus.error, /DraftEdited.*cannot edit/);
  t.match(fragileStatus.fault, { position: positionToString(poison), eventType: 'DraftEdited', streamId: 'draft-n0001', attempts: 3 });
  t.equal(fragileStatus.lag, 4, 'the poison event and the three after it');
  t.match(status.find((s) => s.name === 'drafts'), { state: 'running', lag: 0 });
  t.notOk(status.find((s) => s.name === 'drafts')!.error);
  t.match(
    lines.find((l) => l.level === 'error'),
    { obj: { projection: 'fragile', eventType: 'DraftEdited', position: positionToString(poison) } },
    'logged with projector, event type and position',
  );

  // A restart does not forget the poison: it is in the database.
  await runner.stop();
  await runner.start();
  t.equal((await runner.status()).find((s) => s.name === 'fragile')!.state, 'poisoned');

  // Once the cause is fixed, a retry applies the same event instead of having skipped it.
  poisoned = false;
  await runner.retry('fragile', { actor: 'cli', reason: 'fixed the handler' });
  await runner.waitFor(after, ['fragile']);
  t.equal(await count(db, 'fragile_drafts'), 6);
  t.match((await runner.status()).find((s) => s.name === 'fragile'), { state: 'running', lag: 0 });
  t.notOk((await runner.status()).find((s) => s.name === 'fragile')!.error);
});

t.test('a fault poll that read the faults before the poison was recorded does not release the projector', async (t) => {
  // The poll reads the open faults on its own clock: under load such a read can run before this
  // process records a poison and be applied after, when "no fault" only means "not yet".
  await createNotesTable(db, 'touchy_sketches');
  let calls = 0;
  const touchy = notesProjector({
    name: 'touchy',
    table: 'touchy_sketches',
    kind: 'Sketch',
    extra: {
      SketchEdited: async () => {
        calls++;
        throw new Error('cannot edit');
      },
    },
  });
  let holding = false;
  let poisoned = false;
  let held = 0;
  let readsAfterPoison = 0;
  let releaseHeld!: () => void;
  const heldReads = new Promise<void>((resolve) => (releaseHeld = resolve));
  let heldOne!: () => void;
  const oneHeld = new Promise<void>((resolve) => (heldOne = resolve));
  let freshReads!: () => void;
  const twoFreshReads = new Promise<void>((resolve) => (freshReads = resolve));
  const faultReads = new Set<string>();
  const isFaultRead = (node: unknown): boolean =>
    SelectQueryNode.is(node as never) &&
    !!(node as SelectQueryNode).from?.froms.some((from) => TableNode.is(from) && from.table.identifier.name === 'projection_faults');
  const plugin: KyselyPlugin = {
    transformQuery: ({ node, queryId }) => {
      if (isFaultRead(node)) faultReads.add(queryId.queryId);
      return node;
    },
    transformResult: async ({ queryId, result }) => {
      if (!faultReads.delete(queryId.queryId) || !holding) return result;
      const sawTouchy = result.rows.some((row) => (row as { projector?: string }).projector === 'touchy');
      if (!poisoned && !sawTouchy) {
        held++;
        heldOne();
        await heldReads;
      } else if (poisoned && ++readsAfterPoison === 2) freshReads();
      return result;
    },
  };
  const { logger } = recordingLogger();
  const onPoison: RunnerLogger = {
    ...logger,
    error: (obj, msg) => {
      logger.error(obj, msg);
      if (!poisoned) {
        poisoned = true;
        releaseHeld();
      }
    },
  };
  const retry = { firstDelayMs: 5, maxDelayMs: 20, attempts: 3 };
  const runner = new ProjectionRunner({ store, db: db.withPlugin(plugin), projectors: [touchy], logger: onPoison, batchSize: 5, retry, faultPollMs: 5 });
  t.teardown(() => runner.stop());
  await runner.start();
  holding = true;
  // The poison only once a poll has read "no fault" and is held: that read is then stale for sure.
  await oneHeld;
  await writeNotes(store, 'Sketch', ids('s', 2));
  await editNote(store, 'Sketch', 's0001', 'x');
  await twoFreshReads;

  t.equal(held, 1, 'one poll read the faults before the poison was recorded and was applied after it (the polls wait for it)');
  t.equal(calls, 3, 'tried as often as the policy says, and not again after the stale read');
  t.equal((await runner.status()).find((s) => s.name === 'touchy')!.state, 'poisoned');
});

t.test('waitFor times out when nothing applies the position, and sees a runner elsewhere through the database', async (t) => {
  await createNotesTable(db, 'letters');
  const letters = notesProjector({ name: 'letters', table: 'letters', kind: 'Letter' });
  // `api` never starts: like the API process when the projections run in another one.
  const api = new ProjectionRunner({ store, db, projectors: [letters] });
  const worker = new ProjectionRunner({ store, db, projectors: [letters] });
  t.teardown(() => worker.stop());
  const last = await writeNotes(store, 'Letter', ids('x', 5));

  const started = Date.now();
  await t.rejects(api.waitFor(last, ['letters'], 300), ProjectionTimeout);
  // Not to the millisecond: Node starts a timer from the event loop's cached time, which lags under load.
  t.ok(Date.now() - started >= 250, 'waited the whole timeout');
  await t.rejects(api.waitFor(last, ['nope'], 300), /unknown projection "nope"/);

  await worker.start();
  await api.waitFor(last, ['letters'], 5000);
  t.equal(await count(db, 'letters'), 5);
});

t.test('two runners on one read model (a second process by mistake) still apply each event once', async (t) => {
  await createCountingTables(db);
  const { logger, lines } = recordingLogger();
  const first = new ProjectionRunner({ store, db, projectors: [countingProjector()], batchSize: 10, logger });
  const second = new ProjectionRunner({ store, db, projectors: [countingProjector()], batchSize: 10, logger });
  t.teardown(() => Promise.all([first.stop(), second.stop()]));
  await Promise.all([first.start(), second.start()]);
  let last = await store.append('tick-a', [{ type: TICKED, data: { tick: 0 } }], { expectedRevision: 'no_stream' });
  for (let tick = 1; tick < 60; tick++) {
    last = await store.append('tick-a', [{ type: TICKED, data: { tick } }], { expectedRevision: BigInt(tick - 1) });
  }
  await Promise.all([first.waitFor(last.position, ['ticks']), second.waitFor(last.position, ['ticks'])]);
  const { applied } = await db.selectFrom('tick_counter').select('applied').executeTakeFirstOrThrow();
  t.equal(Number(applied), 60, 'the counter saw each event once');
  const rows = await db.selectFrom('tick_rows').select('tick').orderBy('tick').execute();
  t.same(
    rows.map((r) => r.tick),
    Array.from({ length: 60 }, (_, i) => i),
  );
  t.comment(`${lines.filter((l) => l.level === 'warn').length} checkpoint conflicts resolved`);
});
