// What the vector leg looks for: the shopper's words, and when they are only occasion words, what
// suits the occasion too (a hashed or learned embedding of "athleisure" alone lands anywhere).
import t from 'tap';
import { understandQuery } from '../../domain/search/index.js';
import type { Embedder } from '../../infra/models/port.js';
import { searchCatalogue } from '../../projections/queries/search/index.js';
import { vectorText } from '../../projections/queries/search/retrieve.js';
import { product, variant } from '../support/items.js';
import { sharedTestService } from '../support/service.js';

t.test('given only occasion words, then the vector looks for what suits the occasion too', async (t) => {
  const text = vectorText('athleisure', understandQuery('athleisure'));
  t.match(text, /^athleisure /);
  t.match(text, /leggings/);
  t.match(text, /joggers/);
});

t.test('given words of their own to search, then the vector looks for the words as typed', async (t) => {
  t.equal(vectorText('linen dress for a beach holiday', understandQuery('linen dress for a beach holiday')), 'linen dress for a beach holiday');
  t.equal(vectorText('red dress', understandQuery('red dress')), 'red dress');
  t.equal(vectorText('Bronze Ace', understandQuery('Bronze Ace')), 'Bronze Ace', 'no occasion, nothing added');
});

t.test('a search embeds what vectorText says: with occasion words only, what suits the occasion', async (t) => {
  const service = await sharedTestService({ workers: ['ingest'] });
  const org = await service.cli(['org', 'create', '--name', 'Vector Leg', '--json']);
  const headers = { authorization: `Bearer ${org.privateKey}` };
  const call = (method: 'POST' | 'PATCH', url: string, payload?: object) => service.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const datasetId = (await call('POST', '/v1/datasets', { name: 'Main', config: { storeUrl: 'https://vector.example.com', currency: 'EUR' } })).json().datasetId as string;
  await call('PATCH', `/v1/datasets/${datasetId}/activate`);
  t.equal((await call('POST', `/v1/datasets/${datasetId}/items/upload`, { items: [product('LEG-1', 'Black Stretch Leggings', 'Leggings', 40, [variant('L1-M', 'M', 40)])] })).statusCode, 202);
  await service.platform.projections.waitFor((await service.platform.eventStore.committedHead())!, ['search_index'], 60_000);

  // The process's own embedder, its inputs recorded: what the vector leg was asked to find.
  const { memory, embedder } = service.platform.search();
  const asked: string[] = [];
  const recording: Embedder = { name: `${embedder.name}+recorded`, dimensions: embedder.dimensions, embed: (texts) => (asked.push(...texts), embedder.embed(texts)) };
  const deps = { db: service.platform.database.db, memory, embedder: recording };
  for (const query of ['athleisure', 'red dress']) {
    await searchCatalogue(deps, { organizationId: org.organizationId, query, limit: 5 });
    t.equal(asked.at(-1), vectorText(query, understandQuery(query)), query);
  }
  t.match(asked[0], /leggings/, 'the occasion-only query looked for what suits it');
});
