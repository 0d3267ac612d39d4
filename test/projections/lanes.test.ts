// Projection lanes (projections/index.ts): the catalogue's read models and the shoppers' each have
// a live loop of their own, so shopper traffic never sits in front of a catalogue write, and a
// process can run one lane alone (`stylist serve --role projections-catalogue|projections-shopper`).
import t from 'tap';
import type { NewEvent } from '../../infra/eventstore/port.js';
import { comparePositions, parsePosition, type Position } from '../../infra/eventstore/position.js';
import { lanesOfRoles } from '../../app/projection-roles.js';
import { parseRoles } from '../../app/serve.js';
import { catalogueLane, projectionLanes, shopperLane } from '../../projections/index.js';
import { projector } from '../../projections/projector.js';
import { ProjectionRunner } from '../../projections/runner.js';
import { count, createNotesTable, ids, notesProjector, openFixture, writeNotes } from './support.js';

const { db, store } = await openFixture(t);

/** `total` notes of `kind`, 100 to a stream, one append per stream: a backlog quickly made. */
async function appendMany(kind: string, prefix: string, total: number): Promise<Position> {
  let last: Position | undefined;
  for (let start = 0; start < total; start += 100) {
    const events: NewEvent[] = ids(`${prefix}${start}-`, Math.min(100, total - start)).map((noteId) => ({ type: `${kind}Written`, data: { noteId, body: `${kind} ${noteId}` } }));
    last = (await store.append(`${kind.toLowerCase()}-batch-${prefix}${start}`, events, { expectedRevision: 'no_stream' })).position;
  }
  return last!;
}

t.test('a catalogue write is answered while the shopper lane is stalled behind thousands of its events', async (t) => {
  await createNotesTable(db, 'shelves');
  await createNotesTable(db, 'visits');
  const shelves = notesProjector({ name: 'shelves', table: 'shelves', kind: 'Shelf' });
  // The shopper read model is down (its handler throws) until the test lets it recover: its lane
  // retries from its checkpoint, holding no transaction open meanwhile.
  let down = true;
  let failures = 0;
  let retrying!: () => void;
  // Its second failure: by then the lane has recorded the first and is retrying.
  const stalled = new Promise<void>((resolve) => (retrying = resolve));
  const healthy = notesProjector({ name: 'visits', table: 'visits', kind: 'Visit' });
  const visits = projector('visits', ['visits'], {
    VisitWritten: async (trx, event) => {
      if (down) {
        if (++failures === 2) retrying();
        throw new Error('the shopper read model is down');
      }
      await healthy.handlers.VisitWritten!(trx, event);
    },
  });
  const runner = new ProjectionRunner({
    store,
    db,
    lanes: [
      { name: 'catalogue', projectors: [shelves] },
      { name: 'shopper', projectors: [visits] },
    ],
    batchSize: 100,
    retry: { attempts: 1_000_000, firstDelayMs: 2, maxDelayMs: 20 },
  });
  t.teardown(() => runner.stop());

  const backlog = await appendMany('Visit', 'v', 3000);
  await runner.start();
  await stalled;
  const shelf = await writeNotes(store, 'Shelf', ['s1']);
  t.ok(comparePositions(shelf, backlog) > 0, 'the catalogue write comes after the whole shopper backlog in $all');

  // The write's wait: on the event it needs, with the shopper lane unable to move.
  await runner.waitFor(shelf, ['shelves'], 30_000);
  t.equal(await count(db, 'shelves'), 1, 'the catalogue write is readable');
  const status = await runner.status();
  const visitsStatus = status.find((s) => s.name === 'visits')!;
  t.equal(visitsStatus.lane, 'shopper');
  t.equal(visitsStatus.state, 'retrying', 'the shopper lane is stalled, and says so');
  t.ok(visitsStatus.position === null || comparePositions(parsePosition(visitsStatus.position), shelf) < 0, 'the shopper lane is still behind the catalogue write');
  t.ok((visitsStatus.lag ?? 0) >= 3000, `its lag counts the backlog (${visitsStatus.lag})`);
  t.match(status.find((s) => s.name === 'shelves'), { lane: 'catalogue', state: 'running', lag: 0 });
  t.equal(await count(db, 'visits'), 0);

  const readiness = await runner.readiness(3600);
  t.same(readiness.lanes.map((l) => l.name), ['catalogue', 'shopper'], '/readyz names each lane');
  t.ok(readiness.lanes.every((l) => l.here), 'both lanes run in this process');

  down = false;
  await runner.waitFor(shelf, ['visits'], 60_000);
  t.equal(await count(db, 'visits'), 3000, 'once recovered the shopper lane applies its whole backlog');
  t.equal(await count(db, 'shelves'), 1);
});

t.test('one runner per lane (two processes): each applies its own lane, a third waits on both through the database', async (t) => {
  await createNotesTable(db, 'racks');
  await createNotesTable(db, 'footfall');
  const lanes = () => [
    { name: 'catalogue', projectors: [notesProjector({ name: 'racks', table: 'racks', kind: 'Rack' })] },
    { name: 'shopper', projectors: [notesProjector({ name: 'footfall', table: 'footfall', kind: 'Footstep' })] },
  ];
  const catalogueProcess = new ProjectionRunner({ store, db, lanes: lanes() });
  const shopperProcess = new ProjectionRunner({ store, db, lanes: lanes() });
  const apiProcess = new ProjectionRunner({ store, db, lanes: lanes() });
  t.teardown(() => Promise.all([catalogueProcess.stop(), shopperProcess.stop()]));
  await catalogueProcess.start(['catalogue']);
  await shopperProcess.start(['shopper']);

  await writeNotes(store, 'Rack', ids('r', 10));
  const steps = await appendMany('Footstep', 'f', 500);
  const lastRack = await writeNotes(store, 'Rack', ['r-last']);

  await apiProcess.waitFor(lastRack, ['racks', 'footfall'], 30_000);
  t.equal(await count(db, 'racks'), 11, 'the catalogue process built the catalogue read model');
  t.equal(await count(db, 'footfall'), 500, 'the shopper process built the shopper read model');

  // Each process runs only its own lane: the other lane's projector is stopped here, not a problem.
  const seen = await catalogueProcess.status();
  t.match(seen.find((s) => s.name === 'racks'), { lane: 'catalogue', state: 'running' });
  t.match(seen.find((s) => s.name === 'footfall'), { lane: 'shopper', state: 'stopped', lag: 0 });
  const ready = await catalogueProcess.readiness(3600);
  t.equal(ready.ok, true, 'the lane this process does not run is not its problem');
  t.same(ready.lanes.map((l) => ({ name: l.name, here: l.here })), [
    { name: 'catalogue', here: true },
    { name: 'shopper', here: false },
  ]);
  t.same((await shopperProcess.readiness(3600)).lanes.map((l) => l.here), [false, true]);
  // The catalogue process's own wait on the shopper read model looks at the stored checkpoint.
  await catalogueProcess.waitFor(steps, ['footfall'], 30_000);

  // A lane stopped in the process that ran it is a problem there.
  await shopperProcess.stop();
  const stopped = await shopperProcess.readiness(3600);
  t.equal(stopped.ok, false);
  t.match(stopped.problems, [{ name: 'footfall', reason: 'stopped' }]);
  await t.rejects(shopperProcess.start(['shoppers']), /unknown projection lane "shoppers"; known: catalogue, shopper/);
});

t.test('the service: which read models each lane holds, and which roles run which lane', async (t) => {
  t.same(projectionLanes.map((l) => l.name), ['catalogue', 'shopper']);
  t.same(shopperLane.projectors.map((p) => p.name), ['analytics', 'chats'], 'what shoppers cause: widget events, agent turns, chats');
  t.ok(catalogueLane.projectors.some((p) => p.name === 'store_audience'), 'store audience reads queued catalogue items: the catalogue lane');
  for (const name of ['datasets', 'catalogue_items', 'organizations', 'api_keys', 'widget_presets', 'data_sources', 'search_index']) {
    t.ok(catalogueLane.projectors.some((p) => p.name === name), `${name} in the catalogue lane`);
  }
  t.same(lanesOfRoles(parseRoles(undefined)), ['catalogue', 'shopper'], 'the default runs both lanes');
  t.same(lanesOfRoles(parseRoles('api,projections')), ['catalogue', 'shopper']);
  t.same(lanesOfRoles(parseRoles('api,projections-catalogue')), ['catalogue']);
  t.same(lanesOfRoles(parseRoles('projections-shopper,scheduler')), ['shopper']);
  t.same(lanesOfRoles(parseRoles('api')), []);
  t.throws(() => parseRoles('projections-analytics'), /--role takes a comma-separated list of .*projections-catalogue, projections-shopper/);
});
