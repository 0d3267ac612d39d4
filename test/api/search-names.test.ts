// A product's own name finds it (issue 27 point 3), through POST /v1/search: typed in full, the
// name puts the product first even when its words are ones query understanding reads as filters or
// boosts (a sale word, a colour, an age); the request's own `filters` still apply, and the same
// words that are not a product's whole name keep acting as filters.
import t, { type Test } from 'tap';
import { sharedTestService } from '../support/service.js';
import { product, variant } from '../support/items.js';
import { until } from '../support/until.js';

const withColour = (sku: string, colour: string, price: number) => ({ ...variant(sku, 'M', price), label: `M / ${colour}`, options: [{ name: 'Size', value: 'M' }, { name: 'Color', value: colour }] });

const CATALOGUE = [
  // Not on sale, though its name says "Reduced"; the other skirt is on sale.
  product('SKIRT-REDUCED', 'Reduced Skirt', 'Skirts', 40, [variant('SR-M', 'M', 40)]),
  product('SKIRT-PLEATED', 'Pleated Midi Skirt', 'Skirts', 30, [variant('SP-M', 'M', 30, true, 50)]),
  // A white shirt whose name opens with "Black"; next to two black shirts of similar words.
  product('SHIRT-LABEL', 'Black Label Oxford Shirt', 'Shirts', 80, [withColour('SLB-M', 'White', 80)], { description: 'A crisp white cotton oxford shirt.', tags: ['white'] }),
  product('SHIRT-BLACK', 'Black Oxford Shirt', 'Shirts', 60, [withColour('SBK-M', 'Black', 60)], { description: 'A black cotton oxford shirt.' }),
  product('SHIRT-POPLIN', 'Black Poplin Shirt', 'Shirts', 55, [withColour('SPO-M', 'Black', 55)]),
  // An adult's boot by a brand with "Kids" in its name, and a child's boot.
  product('BOOT-KLG', "Men's Leather Chelsea Boot", 'Boots', 220, [variant('KLG-42', '42', 220)], { brand: 'Kids Love Gaite' }),
  product('BOOT-KIDS', 'Kids Chelsea Boot', 'Boots', 45, [variant('KB-30', '30', 45)]),
];

const setUp = async (t: Test) => {
  const service = await sharedTestService({ workers: ['ingest'] });
  const org = await service.cli(['org', 'create', '--name', 'Name House', '--json']);
  const admin = { authorization: `Bearer ${org.privateKey}` };
  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) => service.app.inject({ method, url, headers: admin, ...(payload ? { payload } : {}) });
  const datasetId = (await call('POST', '/v1/datasets', { name: 'Names', config: { storeUrl: 'https://names.example.com', currency: 'EUR' } })).json().datasetId as string;
  await call('PATCH', `/v1/datasets/${datasetId}/activate`);
  t.equal((await call('POST', `/v1/datasets/${datasetId}/items/upload`, { items: CATALOGUE })).statusCode, 202);
  const search = (body: object) => service.app.inject({ method: 'POST', url: '/v1/search', headers: { authorization: `Bearer ${org.publicKey}` }, payload: { datasetIds: [datasetId], ...body } });
  await until('every product processed', () => call('GET', `/v1/datasets/${datasetId}/items?limit=50`).then((r) => r.json().items?.length ?? 0), (n) => n === CATALOGUE.length);
  await until('every product searchable', () => search({ query: 'skirt shirt boot', limit: 50 }).then((r) => r.json().results?.length ?? 0), (n) => n === CATALOGUE.length);
  return { search };
};

const skus = (response: { json(): any }): string[] => response.json().results.map((r: any) => r.product.sku);

t.test("typing a product's full name puts it first, whatever its words mean to query understanding", async (t) => {
  const { search } = await setUp(t);

  await t.test('"Reduced Skirt" is found though it is not on sale; "reduced" still asks for a sale otherwise', async (t) => {
    const named = await search({ query: 'Reduced Skirt' });
    t.equal(named.statusCode, 200);
    t.equal(skus(named)[0], 'SKIRT-REDUCED');
    t.match(named.json().results[0].product, { name: 'Reduced Skirt', onSale: false });
    t.same(skus(await search({ query: 'reduced skirts' })), ['SKIRT-PLEATED'], 'not the whole name: "reduced" is the sale filter');
    t.notOk(skus(await search({ query: 'Reduced Skirt', filters: { onSale: true } })).includes('SKIRT-REDUCED'), "the request's own filters still apply");
  });

  await t.test('"Black Label Oxford Shirt" is the white shirt of that name, before the black ones', async (t) => {
    const named = await search({ query: 'black label oxford shirt' });
    t.equal(skus(named)[0], 'SHIRT-LABEL', 'case does not matter');
    t.not(named.json().results[0].metadata.color_family, 'black', 'it is not a black shirt');
    t.equal(skus(await search({ query: 'black oxford shirt' }))[0], 'SHIRT-BLACK', 'another name, another first');
  });

  await t.test('a brand with "Kids" in it: the adult boot by its brand and name, or its name alone', async (t) => {
    const byBrand = await search({ query: "Kids Love Gaite Men's Leather Chelsea Boot" });
    t.equal(skus(byBrand)[0], 'BOOT-KLG');
    t.match(byBrand.json().results[0].metadata, { age_group: 'adult' });
    t.equal(skus(await search({ query: 'mens leather chelsea boot' }))[0], 'BOOT-KLG', 'the apostrophe is not needed');
    t.same(skus(await search({ query: 'kids chelsea boots' })), ['BOOT-KIDS'], 'not a whole name: "kids" is the age filter');
  });
});
