// The search memory within a budget, over the real service (ingest worker, projections, PGlite or
// Postgres): the least recently searched datasets leave past it and come back answering the same;
// archived and deleted datasets leave at once; a saved copy is used when it is good, caught up when
// it is stale, and not trusted when it is damaged or wrong, searches answering as from a rebuild.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t, { type Test } from 'tap';
import { openFileObjectStore } from '../../infra/objects/files.js';
import type { ObjectStore } from '../../infra/objects/port.js';
import { searchCatalogue, type SearchFilters } from '../../projections/queries/search/index.js';
import { SearchMemory, type SearchMemoryOptions } from '../../projections/search-memory.js';
import { earlierSnapshotKeys, encodeSnapshot, snapshotKey } from '../../projections/search-memory/snapshot.js';
import { product, variant } from '../support/items.js';
import { startTestService, type TestService } from '../support/service.js';
import { until } from '../support/until.js';

const DRESSES = [
  product('DRESS-RED', 'Red Satin Midi Dress', 'Dresses', 70, [variant('DR-S', 'S', 70)]),
  product('DRESS-BLUE', 'Blue Linen Maxi Dress', 'Dresses', 90, [variant('DB-S', 'S', 90)]),
  product('DRESS-GREEN', 'Green Wrap Dress', 'Dresses', 60, [variant('DG-S', 'S', 60)]),
];
const BOOTS = [
  product('BOOT-BLACK', "Men's Black Leather Chelsea Boots", 'Boots', 150, [variant('BB-42', '42', 150)]),
  product('BOOT-BROWN', "Men's Brown Suede Boots", 'Boots', 140, [variant('BR-42', '42', 140)]),
];
const SHIRTS = [
  product('SHIRT-LINEN', "Men's Navy Linen Shirt", 'Shirts', 60, [variant('SL-M', 'M', 60)]),
  product('SHIRT-WHITE', "Women's White Cotton Shirt", 'Shirts', 55, [variant('SW-M', 'M', 55)]),
  product('SHIRT-RED', 'Red Flannel Shirt', 'Shirts', 45, [variant('SR-M', 'M', 45)]),
];
const QUERIES = ['dress', 'red', 'linen', 'boots', 'shirt', 'blue maxi dress', 'something red for a wedding'];
const FILTERED: Array<[string, SearchFilters]> = [['red', { slot: 'top' }], ['dress', { color_family: 'blue' }], ['linen', { family: 'dress', gender: 'womens' }]];

interface World {
  service: TestService;
  organizationId: string;
  call: (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) => Promise<{ statusCode: number; json(): any }>;
  dataset: (name: string, items: object[]) => Promise<string>;
}

let world: Promise<World> | undefined;

/** One service for the file: an organization whose datasets the tests make. */
const setUp = (): Promise<World> =>
  (world ??= (async () => {
    const service = await startTestService(t, { workers: ['ingest'] });
    const org = await service.cli(['org', 'create', '--name', 'Memory Apparel', '--json']);
    const headers = { authorization: `Bearer ${org.privateKey}` };
    const call: World['call'] = (method, url, payload) => service.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    const dataset = async (name: string, items: object[]) => {
      const datasetId = (await call('POST', '/v1/datasets', { name, config: { storeUrl: `https://${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.example.com`, currency: 'EUR' } })).json().datasetId as string;
      await call('PATCH', `/v1/datasets/${datasetId}/activate`);
      await call('POST', `/v1/datasets/${datasetId}/items/upload`, { items });
      await searchable(service, datasetId, items.length);
      return datasetId;
    };
    return { service, organizationId: org.organizationId as string, call, dataset };
  })());

/** Until the search read model holds the dataset's items, active. */
async function searchable(service: TestService, datasetId: string, count: number): Promise<void> {
  const db = service.platform.database.db;
  await until(
    `${count} active items of ${datasetId} in search_documents`,
    async () => Number((await db.selectFrom('search_documents').select((eb) => eb.fn.countAll().as('n')).where('dataset_id', '=', datasetId).where('status', '=', 'active').executeTakeFirstOrThrow()).n),
    (n) => n === count,
  );
}

async function snapshotStore(t: Test): Promise<ObjectStore> {
  const root = await mkdtemp(path.join(tmpdir(), 'stylist-snapshots-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  return openFileObjectStore(root);
}

function memoryOf(t: Test, w: World, options: SearchMemoryOptions = {}): SearchMemory {
  const memory = new SearchMemory(w.service.platform.database.db, options);
  t.teardown(() => memory.close());
  return memory;
}

/** Every judged query over the dataset, as the shopper would get it: item ids and scores. */
async function answers(w: World, memory: SearchMemory, datasetId: string): Promise<Array<[string, string[]]>> {
  const deps = { db: w.service.platform.database.db, memory, embedder: w.service.platform.search().embedder };
  const out: Array<[string, string[]]> = [];
  for (const query of QUERIES) {
    const { results } = await searchCatalogue(deps, { organizationId: w.organizationId, query, limit: 20, datasetIds: [datasetId] });
    out.push([query, results.map((r) => `${r.itemId} ${r.score.toFixed(6)}`)]);
  }
  // Filters on labels, which the memory tests on columns it fills as it builds or restores.
  for (const [query, filters] of FILTERED) {
    const { results } = await searchCatalogue(deps, { organizationId: w.organizationId, query, limit: 20, datasetIds: [datasetId], filters });
    out.push([`${query} ${JSON.stringify(filters)}`, results.map((r) => `${r.itemId} ${r.score.toFixed(6)}`)]);
  }
  return out;
}

const held = (memory: SearchMemory) => memory.stats().map((d) => d.datasetId);

t.test('past the budget the least recently searched dataset leaves, and answers the same when searched again', async (t) => {
  const w = await setUp();
  const dresses = await w.dataset('Dresses', DRESSES);
  const boots = await w.dataset('Boots', BOOTS);
  const shirts = await w.dataset('Shirts', SHIRTS);
  // Each dataset's size as the memory counts it, from a memory without a budget.
  const unbounded = memoryOf(t, w);
  const before = new Map<string, Awaited<ReturnType<typeof answers>>>();
  for (const id of [dresses, boots, shirts]) before.set(id, await answers(w, unbounded, id));
  const bytes = new Map(unbounded.stats().map((d) => [d.datasetId, d.bytes]));
  t.equal(bytes.size, 3);

  const store = await snapshotStore(t);
  // Room for the two largest, not for all three.
  const sizes = [...bytes.values()].sort((a, b) => b - a);
  const memory = memoryOf(t, w, { budgetBytes: sizes[0]! + sizes[1]!, snapshots: store });
  t.same(await answers(w, memory, dresses), before.get(dresses), 'a bounded memory answers as an unbounded one');
  await until('the dresses’ saved copy', () => store.head(snapshotKey(dresses)), (info) => info !== null);
  await answers(w, memory, boots);
  t.same(held(memory).sort(), [dresses, boots].sort(), 'two fit');
  await answers(w, memory, shirts);
  t.same(held(memory), [boots, shirts], 'the least recently searched (dresses) left for the third');
  t.ok(memory.heldBytes() <= sizes[0]! + sizes[1]!, 'within the budget');
  await answers(w, memory, boots);
  t.same(await answers(w, memory, dresses), before.get(dresses), 'dresses, loaded again, answer as before');
  t.same(held(memory), [boots, dresses], 'shirts, now the least recently searched, left');
  t.same(await answers(w, memory, shirts), before.get(shirts), 'and shirts answer as before when they come back');
  const again = memory.loads.filter((load) => load.datasetId === dresses);
  t.same(
    again.map((load) => load.how),
    ['built', 'snapshot'],
    'the first load built the dataset and saved it; the second read the saved copy',
  );
  // What /readyz shows of it: five loads (shirts' second from its copy or built, as its save went),
  // three drops for the budget (dresses, shirts, boots).
  const report = memory.report();
  t.match(report, { datasets: 2, evicted: 3, budgetMb: Math.round((sizes[0]! + sizes[1]!) / 2 ** 20) });
  t.equal(report.restored + report.built, 5, `every load counted (${report.restored} restored, ${report.built} built)`);
  t.ok(report.restored >= 1, 'dresses came back from their copy');
  t.equal(memory.report().items, memory.stats().reduce((sum, d) => sum + d.items, 0), 'the items of the datasets held');
});

t.test('a budget the searched datasets do not fit in is said in the log, once however often they reload', async (t) => {
  const w = await setUp();
  const dresses = await w.dataset('Dresses', DRESSES);
  const boots = await w.dataset('Boots', BOOTS);
  const unbounded = memoryOf(t, w);
  await answers(w, unbounded, dresses);
  await answers(w, unbounded, boots);
  const largest = Math.max(...unbounded.stats().map((d) => d.bytes));
  const warned: Array<{ details: Record<string, unknown>; message: string }> = [];
  const log = { info: () => {}, warn: (details: object, message: string) => warned.push({ details: details as Record<string, unknown>, message }) };
  // Room for either, not for both: searching them in turn drops each soon after it was loaded.
  const memory = memoryOf(t, w, { budgetBytes: largest, log });
  for (let round = 0; round < 3; round++) {
    await answers(w, memory, dresses);
    await answers(w, memory, boots);
  }
  t.same(held(memory), [boots], 'one at a time');
  t.match(memory.report(), { datasets: 1, evicted: 5, evictedSoonAfterLoad: 5 }, '/readyz counts every drop soon after a load: the thrash the log says once');
  const said = warned.filter((w) => w.message.includes('do not fit'));
  t.equal(said.length, 1, 'said once, not at every reload');
  t.match(said[0]?.message, /raise SEARCH_MEMORY_MB/);
  t.match(said[0]?.details, { datasetId: dresses, droppedSoon: 1, budgetMb: Number });

  // Room for both: nothing dropped, nothing said.
  const roomy: string[] = [];
  const fits = memoryOf(t, w, { budgetBytes: largest * 3, log: { info: () => {}, warn: (_: object, message: string) => roomy.push(message) } });
  for (let round = 0; round < 3; round++) {
    await answers(w, fits, dresses);
    await answers(w, fits, boots);
  }
  t.same(roomy.filter((m) => m.includes('do not fit')), [], 'a budget that holds them says nothing');
  t.match(fits.report(), { datasets: 2, evicted: 0, evictedSoonAfterLoad: 0 });
});

t.test('a dataset larger than the whole budget still loads and answers, alone, said once', async (t) => {
  const w = await setUp();
  const dresses = await w.dataset('Big', DRESSES);
  const shirts = await w.dataset('Other', SHIRTS);
  const told: string[] = [];
  const log = { info: (_: object, message: string) => told.push(message), warn: () => {} };
  const memory = memoryOf(t, w, { budgetBytes: 1, log });
  const unbounded = memoryOf(t, w);
  t.same(await answers(w, memory, dresses), await answers(w, unbounded, dresses), 'it answers as an unbounded memory does');
  t.same(held(memory), [dresses]);
  await answers(w, memory, dresses);
  t.equal(told.filter((m) => m.includes('larger than SEARCH_MEMORY_MB')).length, 1, 'said once, however often it is searched');
  await answers(w, memory, shirts);
  t.same(held(memory), [shirts], 'the next dataset searched takes its place');

  // One search over both, together past the budget: neither is dropped under it.
  const deps = { db: w.service.platform.database.db, memory, embedder: w.service.platform.search().embedder };
  const { results } = await searchCatalogue(deps, { organizationId: w.organizationId, query: 'red', limit: 20, datasetIds: [dresses, shirts] });
  t.same([...new Set(results.map((r) => r.datasetId))].sort(), [dresses, shirts].sort(), 'the search has both datasets’ red items');
  t.equal(held(memory).length, 1, 'after it, one stays');
});

t.test('an archived or deleted dataset leaves the service’s search memory at once, and a deleted one’s saved copy goes', async (t) => {
  const w = await setUp();
  const archived = await w.dataset('Archived', BOOTS);
  const deleted = await w.dataset('Deleted', SHIRTS);
  const kept = await w.dataset('Kept', DRESSES);
  const memory = w.service.platform.search().memory;
  for (const id of [archived, deleted, kept]) await answers(w, memory, id);
  t.ok([archived, deleted, kept].every((id) => held(memory).includes(id)), 'all three held after a search');
  const objects = w.service.platform.objects;
  await until('the deleted dataset’s saved copy', () => objects.head(snapshotKey(deleted)), (info) => info !== null);
  // As an earlier release of the service left it, after this process cleared the earlier formats.
  for (const key of earlierSnapshotKeys(deleted)) await objects.put(key, Buffer.from('an earlier format'));

  t.equal((await w.call('PATCH', `/v1/datasets/${archived}/archive`)).statusCode, 200);
  t.equal((await w.call('DELETE', `/v1/datasets/${deleted}`)).statusCode, 200);
  // Nothing searched meanwhile: the memory learns it from the events.
  await until('the archived and deleted datasets dropped', async () => held(memory), (ids) => !ids.includes(archived) && !ids.includes(deleted));
  t.ok(held(memory).includes(kept), 'the others stay');
  await until('the deleted dataset’s saved copy deleted', () => objects.head(snapshotKey(deleted)), (info) => info === null);
  for (const key of earlierSnapshotKeys(deleted)) await until(`its copy of an earlier format (${key}) deleted`, () => objects.head(key), (info) => info === null);
  t.ok(await objects.head(snapshotKey(archived)), 'an archived dataset’s copy stays, for when it is activated again');

  // Activated again, it loads on its next search and answers as before.
  t.equal((await w.call('PATCH', `/v1/datasets/${archived}/activate`)).statusCode, 200);
  const fresh = memoryOf(t, w);
  t.same(await answers(w, memory, archived), await answers(w, fresh, archived));
  t.ok(held(memory).includes(archived));
});

t.test('a copy of an earlier format is never read, and is deleted once the dataset’s own copy is saved', async (t) => {
  const w = await setUp();
  const datasetId = await w.dataset('Formats', [...DRESSES, ...BOOTS]);
  const store = await snapshotStore(t);
  const earlier = earlierSnapshotKeys(datasetId);
  t.ok(earlier.length > 0, 'this format follows others');
  // A good copy of this very dataset but for its place: read, the dataset would load from it.
  const other = memoryOf(t, w);
  await answers(w, other, datasetId);
  const [held] = await other.ready([datasetId], null);
  const copy = await encodeSnapshot(datasetId, 0n, held!, other.lexicon);
  for (const key of earlier) await store.put(key, copy);

  const memory = memoryOf(t, w, { snapshots: store });
  t.same(await answers(w, memory, datasetId), await answers(w, other, datasetId), 'it answers as built');
  t.match(memory.loads[0], { how: 'built' }, 'built: no copy of its own format');
  t.notOk(memory.loads[0]!.distrusted, 'nor was anything distrusted: the earlier copies were not read');
  await until('its own copy saved', () => store.head(snapshotKey(datasetId)), (info) => info !== null);
  for (const key of earlier) await until(`the earlier copy ${key} deleted`, () => store.head(key), (info) => info === null);
});

t.test('a saved copy is used when good, caught up when stale, and not trusted when damaged or wrong', async (t) => {
  const w = await setUp();
  const datasetId = await w.dataset('Copies', [...DRESSES, ...SHIRTS]);
  const store = await snapshotStore(t);
  const first = memoryOf(t, w, { snapshots: store });
  const built = await answers(w, first, datasetId);
  t.equal(first.loads[0]?.how, 'built');
  for (const [request, found] of built.slice(-FILTERED.length)) t.ok(found.length > 0, `${request} finds products (so a copy's label columns are checked)`);
  await until('the saved copy', () => store.head(snapshotKey(datasetId)), (info) => info !== null);

  const fromCopy = memoryOf(t, w, { snapshots: store });
  t.same(await answers(w, fromCopy, datasetId), built, 'read from the copy, it answers as built');
  t.match(fromCopy.loads[0], { how: 'snapshot', changes: 0 });

  // Changed after the copy was saved: a product renamed, one archived, one added.
  const renamed = { ...DRESSES[0]!, name: 'Crimson Satin Midi Dress' };
  const added = product('SHIRT-OXFORD', 'Blue Oxford Shirt', 'Shirts', 65, [variant('SO-M', 'M', 65)]);
  t.equal((await w.call('POST', `/v1/datasets/${datasetId}/items/upload`, { items: [renamed, added] })).statusCode, 202);
  const listed = (await w.call('GET', `/v1/datasets/${datasetId}/items?limit=200`)).json().items as Array<{ itemId: string; product: { sku: string } }>;
  const withdrawn = listed.find((item) => item.product.sku === 'SHIRT-WHITE')!.itemId;
  t.equal((await w.call('PATCH', `/v1/datasets/${datasetId}/items/${withdrawn}`, { status: 'archived' })).statusCode, 200);
  await searchable(w.service, datasetId, DRESSES.length + SHIRTS.length);
  const db = w.service.platform.database.db;
  await until('the renamed dress in search_documents', () => db.selectFrom('search_documents').select('name').where('name', '=', renamed.name).execute(), (rows) => rows.length === 1);
  const rebuilt = await answers(w, memoryOf(t, w), datasetId);
  t.notSame(rebuilt, built, 'the answers changed');
  const stale = memoryOf(t, w, { snapshots: store });
  t.same(await answers(w, stale, datasetId), rebuilt, 'a stale copy, caught up, answers as a rebuild');
  t.match(stale.loads[0], { how: 'snapshot' });
  t.ok(stale.loads[0]!.changes >= 3, 'the changes after its cursor were applied');

  // Damaged: a byte flipped in the graph, or cut short.
  const good = (await store.get(snapshotKey(datasetId)))!.body;
  for (const [what, bytes] of [
    ['a flipped byte', Buffer.concat([good.subarray(0, good.length - 100), Buffer.from([good[good.length - 100]! ^ 0xff]), good.subarray(good.length - 99)])],
    ['cut short', good.subarray(0, good.length - 4096)],
    ['not a copy at all', Buffer.from('hello')],
  ] as const) {
    await store.put(snapshotKey(datasetId), bytes);
    const memory = memoryOf(t, w, { snapshots: store });
    t.same(await answers(w, memory, datasetId), rebuilt, `${what}: answers as a rebuild`);
    t.match(memory.loads[0], { how: 'built', distrusted: String }, `${what}: built instead`);
    await until(`${what}: replaced by the copy of the rebuild`, () => store.get(snapshotKey(datasetId)), (saved) => saved !== null && !saved.body.equals(bytes));
  }

  // Wrong though whole: a copy missing an item the read model has, checksum and all.
  const source = memoryOf(t, w);
  await answers(w, source, datasetId);
  const complete = (await source.ready([datasetId], null))[0]!;
  const cursor = (await db.selectFrom('search_documents').select((eb) => eb.fn.max('change_seq').as('head')).executeTakeFirstOrThrow()).head;
  complete.remove([...complete.docs.keys()][0]!);
  const lying = await encodeSnapshot(datasetId, BigInt(String(cursor)), complete, source.lexicon);
  await store.put(snapshotKey(datasetId), lying);
  const lied = memoryOf(t, w, { snapshots: store });
  t.same(await answers(w, lied, datasetId), rebuilt, 'a copy missing an item: answers as a rebuild');
  t.match(lied.loads[0], { how: 'built', distrusted: /unchanged items/ });
  await until('the lying copy replaced', () => store.get(snapshotKey(datasetId)), (saved) => saved !== null && !saved.body.equals(lying));

  // A copy of another dataset under this one's key.
  const other = await w.dataset('Other copies', BOOTS);
  const otherMemory = memoryOf(t, w);
  await answers(w, otherMemory, other);
  await store.put(snapshotKey(datasetId), await encodeSnapshot(other, BigInt(String(cursor)), (await otherMemory.ready([other], null))[0]!, otherMemory.lexicon));
  const mixed = memoryOf(t, w, { snapshots: store });
  t.same(await answers(w, mixed, datasetId), rebuilt, 'another dataset’s copy: answers as a rebuild');
  t.match(mixed.loads[0], { how: 'built', distrusted: String });
});

t.test('rows projected before the read model kept answer bodies answer the same, from catalogue_items', async (t) => {
  const w = await setUp();
  const datasetId = await w.dataset('Upgraded', [...DRESSES, ...SHIRTS]);
  const db = w.service.platform.database.db;
  const whole = async (memory: SearchMemory) => {
    const deps = { db, memory, embedder: w.service.platform.search().embedder };
    const answered = [];
    for (const query of QUERIES) answered.push((await searchCatalogue(deps, { organizationId: w.organizationId, query, limit: 20, datasetIds: [datasetId], country: 'CA' })).results);
    return answered;
  };
  const prepared = await whole(memoryOf(t, w));
  t.ok(prepared.flat().length >= DRESSES.length + SHIRTS.length, 'the queries find the items');
  // As a database migrated from before 0021 holds them, until a rebuild of search_index.
  await db.updateTable('search_documents').set({ body: null }).where('dataset_id', '=', datasetId).execute();
  t.same(await whole(memoryOf(t, w)), prepared, 'whole results, product and labels, as from the prepared bodies');
});

t.test('restored from its saved copy (which holds no variants or bodies), a dataset answers whole results as built, and keeps the variants and bodies it priced and showed', async (t) => {
  const w = await setUp();
  const datasetId = await w.dataset('Bodies', [...BOOTS, ...SHIRTS]);
  const db = w.service.platform.database.db;
  const store = await snapshotStore(t);
  const whole = async (memory: SearchMemory) => (await searchCatalogue({ db, memory, embedder: w.service.platform.search().embedder }, { organizationId: w.organizationId, query: 'shirt', limit: 20, datasetIds: [datasetId] })).results;
  const built = memoryOf(t, w, { snapshots: store });
  const fromBuilt = await whole(built);
  t.ok(fromBuilt.length >= SHIRTS.length, 'the shirts are found');
  await until('the saved copy', () => store.head(snapshotKey(datasetId)), (info) => info !== null);

  const restored = memoryOf(t, w, { snapshots: store });
  await restored.ready([datasetId], null);
  t.match(restored.loads[0], { how: 'snapshot' });
  const before = restored.stats()[0]!.bytes;
  t.same(await whole(restored), fromBuilt, 'the same products, labels and offers');
  t.ok(restored.stats()[0]!.bytes > before, `what it priced and showed is kept, and counted against the budget (${before} → ${restored.stats()[0]!.bytes} bytes)`);
  t.same(await whole(restored), fromBuilt, 'and answer again from memory');

  // Each doc is parsed once, then shared by the searches that read it: read-only, so none can spoil the next.
  const [memory] = await restored.ready([datasetId], null);
  const shown = [...memory!.docs.values()].filter((doc) => fromBuilt.some((result) => result.itemId === doc.itemId));
  const first = await restored.values('variants', shown);
  const again = await restored.values('variants', shown);
  t.ok(shown.every((doc) => typeof doc.variants === 'object' && first.get(doc.itemId) === again.get(doc.itemId)), 'the variants a search priced are held parsed, the same value for every search');
  t.throws(() => (first.get(shown[0]!.itemId) as unknown as Array<{ price: number }>)[0]!.price = 0, TypeError, 'and cannot be changed by one of them');
});
