// Events are data from the past: read through the upcaster they come out at the latest version of
// their type, checked, or the read stops naming the event. SourceCreated was changed in place once;
// events written in its first shape still fold and project.
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { sourceDecider, sourceStream, type SourceEvent } from '../../domain/source/index.js';
import { openPostgresEventStore } from '../../infra/eventstore/postgres.js';
import type { EventStore, NewEvent, Position, RecordedEvent } from '../../infra/eventstore/port.js';
import { InvalidStoredEvent, upcasting } from '../../infra/eventstore/upcasting.js';
import { applyToProjector } from '../../projections/apply.js';
import { ensureCheckpoints } from '../../projections/checkpoints.js';
import { dataSources } from '../../projections/data-sources.js';
import { migrate } from '../../projections/migrations.js';
import { openTestDatabase } from '../support/database.js';
import { startTestService } from '../support/service.js';

const at = '2025-03-01T10:00:00.000Z';
const metadata = { actor: { kind: 'system' as const, id: 'test' }, at };

/** On a Postgres server `$all` shows an event once every older transaction of the server ended. */
async function visibleInAll(store: EventStore, after: Position | null, count: number): Promise<RecordedEvent[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const events = await store.readAll(after ? { after } : {});
    if (events.length >= count || Date.now() > deadline) return events;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

t.test('upcasting event store', async (t) => {
  const database = await openTestDatabase(t);
  const raw = await openPostgresEventStore(database);
  t.teardown(() => raw.close());
  await migrate(database.db);
  const store = upcasting(raw);

  t.test('a SourceCreated of the old shape (no markets, no version) folds and projects as version 2', async (t) => {
    const ids = { sourceId: randomUUID(), datasetId: randomUUID(), organizationId: randomUUID() };
    const stream = sourceStream(ids.sourceId);
    const old: NewEvent[] = [
      { type: 'SourceCreated', data: { ...ids, sourceType: 'shopify-api', endpoint: 'https://shop.example/products.json', syncPeriod: 60, status: 'active', at }, metadata },
      { type: 'SyncJobRequested', data: { ...ids, jobId: randomUUID(), priority: 1, trigger: 'source-created', at }, metadata },
    ];
    const from = await raw.headPosition();
    await raw.append(stream, old, { expectedRevision: 'no_stream' });

    const events = await store.readStream(stream);
    t.same(events[0]!.data, { ...old[0]!.data, markets: [], defaultMarket: null }, 'upcast to version 2');
    t.equal(events[0]!.metadata.schemaVersion, 2);
    t.same((await raw.readStream(stream))[0]!.data, old[0]!.data, 'the stored event is untouched');

    const state = events.map((e) => e as unknown as SourceEvent).reduce(sourceDecider.evolve, sourceDecider.initialState);
    t.match(state, { sourceId: ids.sourceId, markets: [], defaultMarket: null, endpoint: 'https://shop.example/products.json', openJobId: String });

    const batch = await visibleInAll(store, from, 2);
    t.same(batch.filter((e) => e.streamId === stream).map((e) => e.type), ['SourceCreated', 'SyncJobRequested'], 'readAll upcasts too');
    await ensureCheckpoints(database.db, [dataSources.name]);
    await applyToProjector(database.db, dataSources, null, batch);
    const row = await database.db.selectFrom('data_sources').selectAll().where('source_id', '=', ids.sourceId).executeTakeFirstOrThrow();
    t.match(row, { status: 'active', sync_period: 60, markets: null, default_market: null });
    const job = await database.db.selectFrom('sync_jobs').selectAll().where('source_id', '=', ids.sourceId).executeTakeFirst();
    t.ok(job, 'the job projects too');

    const live: RecordedEvent[] = [];
    for await (const event of store.subscribeToAll({ ...(from ? { after: from } : {}) })) {
      if (event.streamId !== stream) continue;
      live.push(event);
      if (live.length === 2) break;
    }
    t.same(live[0]!.data, events[0]!.data, 'a subscription upcasts too');
  });

  t.test('appends are stamped with the version this build writes', async (t) => {
    const ids = { sourceId: randomUUID(), datasetId: randomUUID(), organizationId: randomUUID() };
    const stream = sourceStream(ids.sourceId);
    await store.append(
      stream,
      [
        { type: 'SourceCreated', data: { ...ids, sourceType: 'shopify-api', endpoint: 'https://x.example/products.json', syncPeriod: 0, status: 'inactive', markets: [], defaultMarket: null, at }, metadata },
        { type: 'SourceDeleted', data: { ...ids, deletedJobs: 0, deletedLogs: 0, at }, metadata },
      ],
      { expectedRevision: 'no_stream' },
    );
    t.same((await raw.readStream(stream)).map((e) => e.metadata.schemaVersion), [2, 1]);
  });

  t.test('an invalid event stops every read with an error naming stream, revision, position and type', async (t) => {
    const ids = { sourceId: randomUUID(), datasetId: randomUUID(), organizationId: randomUUID() };
    const stream = sourceStream(ids.sourceId);
    const from = await raw.headPosition();
    await raw.append(
      stream,
      [{ type: 'SourceCreated', data: { ...ids, sourceType: 'shopify-api', endpoint: 'https://x.example/products.json', syncPeriod: 'daily', status: 'active', at }, metadata }],
      { expectedRevision: 'no_stream' },
    );
    const message = new RegExp(
      `^invalid event in the store: SourceCreated at revision 0 of stream ${stream} \\(position \\d+/\\d+, id [0-9a-f-]+\\): ` +
        'data does not match version 1: syncPeriod: ',
    );
    await t.rejects(store.readStream(stream), message);
    await t.rejects(store.readStream(stream), InvalidStoredEvent);
    await visibleInAll(raw, from, 1);
    await t.rejects(store.readAll(from ? { after: from } : {}), message);
    await t.rejects(
      (async () => {
        for await (const event of store.subscribeToAll({ ...(from ? { after: from } : {}) })) if (event.streamId === stream) break;
      })(),
      message,
    );

    const future = `${stream}-future`;
    await raw.append(future, [{ type: 'SourceDeleted', data: { ...ids, deletedJobs: 0, deletedLogs: 0, at }, metadata: { ...metadata, schemaVersion: 3 } }], {
      expectedRevision: 'no_stream',
    });
    await t.rejects(store.readStream(future), /SourceDeleted at revision 0 .*: version 3 is not one of this build's \(1 to 1\)/);
  });

  t.test('an event type this build does not know passes unchanged (a newer build wrote it)', async (t) => {
    const stream = `later-${randomUUID()}`;
    await raw.append(stream, [{ type: 'FromANewerBuild', data: { anything: [1, 2] }, metadata: { ...metadata, schemaVersion: 7 } }], { expectedRevision: 'no_stream' });
    t.same((await store.readStream(stream)).map((e) => [e.type, e.data, e.metadata.schemaVersion]), [['FromANewerBuild', { anything: [1, 2] }, 7]]);
  });

  t.test('a batch read the port gains later comes out upcast as well', async (t) => {
    const ids = { sourceId: randomUUID(), datasetId: randomUUID(), organizationId: randomUUID() };
    const stream = sourceStream(ids.sourceId);
    await raw.append(
      stream,
      [{ type: 'SourceCreated', data: { ...ids, sourceType: 'shopify-api', endpoint: 'https://y.example/products.json', syncPeriod: 5, status: 'active', at }, metadata }],
      { expectedRevision: 'no_stream' },
    );
    const withBatch = Object.assign(Object.create(null) as object, raw, {
      readStreams: async (streamIds: string[]) => new Map(await Promise.all(streamIds.map(async (id) => [id, await raw.readStream(id)] as const))),
    }) as EventStore & { readStreams(ids: string[]): Promise<Map<string, RecordedEvent[]>> };
    const decorated = upcasting(withBatch) as typeof withBatch;
    const read = await decorated.readStreams([stream]);
    t.same(read.get(stream)![0]!.data.markets, []);
  });
});

t.test('the service reads through the upcaster: a source written in the old shape is served and projected', async (t) => {
  const service = await startTestService(t);
  const raw = await openPostgresEventStore(service.platform.database);
  t.teardown(() => raw.close());
  const ids = { sourceId: randomUUID(), datasetId: randomUUID(), organizationId: randomUUID() };
  const stream = sourceStream(ids.sourceId);
  const { position } = await raw.append(
    stream,
    [{ type: 'SourceCreated', data: { ...ids, sourceType: 'shopify-api', endpoint: 'https://old.example/products.json', syncPeriod: 60, status: 'inactive', at }, metadata }],
    { expectedRevision: 'no_stream' },
  );
  t.same((await service.platform.eventStore.readStream(stream))[0]!.data, { ...ids, sourceType: 'shopify-api', endpoint: 'https://old.example/products.json', syncPeriod: 60, status: 'inactive', markets: [], defaultMarket: null, at });
  await service.platform.projections.waitFor(position, [dataSources.name]);
  const row = await service.platform.database.db.selectFrom('data_sources').selectAll().where('source_id', '=', ids.sourceId).executeTakeFirst();
  t.match(row, { endpoint: 'https://old.example/products.json', markets: null, default_market: null });
});
