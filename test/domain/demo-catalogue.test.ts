// The demo store's catalogue: wide enough for a stylist to answer any question on it, valid as an
// upload, and the same on every run.
import t from 'tap';
import { itemInputSchema } from '../../domain/catalogue/product-input.js';
import { COLOR_FAMILIES, SLOTS } from '../../domain/catalogue/vocabulary.js';
import {
  DEMO_PHOTO_SCHEME,
  demoPhotoUrl,
  generateDemoCatalogue,
  parseDemoPhotoUrl,
  PRICE_BANDS,
  priceBand,
  type DemoProduct,
} from '../../domain/demo-catalogue/generate.js';

const catalogue = generateDemoCatalogue();
const variantsOf = (p: DemoProduct) => p.input.variants ?? [];
const count = <T>(items: T[]) => items.reduce((m, item) => m.set(item, (m.get(item) ?? 0) + 1), new Map<T, number>());

t.test('three hundred products by default, all of the demo brand', async (t) => {
  t.equal(catalogue.length, 300);
  t.ok(catalogue.every((p) => /Northwind|Atelier Noir/.test(p.input.brand ?? '')), 'every product carries a sub-line of the brand');
  t.ok(new Set(catalogue.map((p) => p.input.brand)).size >= 4, 'several sub-lines');
  t.equal(generateDemoCatalogue({ count: 12 }).length, 12);
});

t.test('every product is a valid upload item', async (t) => {
  const failures = catalogue.flatMap((p) => {
    const parsed = itemInputSchema.safeParse(p.input);
    return parsed.success ? [] : [`${p.input.sku}: ${parsed.error.message}`];
  });
  t.same(failures, []);
  t.ok(catalogue.every((p) => p.input.currency === 'CAD' && (p.input.price as number) > 0));
});

t.test('every slot and every colour family of the vocabulary is in stock somewhere', async (t) => {
  t.same([...new Set(catalogue.map((p) => p.facts.slot))].sort(), [...SLOTS].sort());
  t.same([...new Set(catalogue.map((p) => p.facts.colourFamily))].sort(), [...COLOR_FAMILIES].sort());
  // Even a small demo spans every slot: each template has its turn before any repeats.
  t.same([...new Set(generateDemoCatalogue({ count: 80, seed: 7 }).map((p) => p.facts.slot))].sort(), [...SLOTS].sort());
  t.ok(new Set(catalogue.map((p) => p.facts.pattern)).size >= 12, 'many patterns');
  t.ok(new Set(catalogue.flatMap((p) => p.facts.materials)).size >= 15, 'many materials');
  t.ok(new Set(catalogue.map((p) => p.facts.fit)).size >= 5, 'fits from skinny to oversized, and none');
});

t.test('womens, mens and unisex, with some kids and baby items', async (t) => {
  const genders = count(catalogue.map((p) => p.facts.gender));
  for (const gender of ['womens', 'mens', 'unisex'] as const) t.ok((genders.get(gender) ?? 0) >= 30, `${gender}: ${genders.get(gender)}`);
  const ages = count(catalogue.map((p) => p.facts.ageGroup));
  t.ok((ages.get('kids') ?? 0) >= 5, `kids: ${ages.get('kids')}`);
  t.ok((ages.get('baby') ?? 0) >= 1, `baby: ${ages.get('baby')}`);
  t.ok((ages.get('adult') ?? 0) > catalogue.length * 0.8, 'mostly adult');
  t.ok(catalogue.filter((p) => p.facts.ageGroup !== 'adult').every((p) => p.input.brand === 'Northwind Kids'));
});

t.test('prices spread from budget to luxury', async (t) => {
  const bands = count(catalogue.map((p) => priceBand(p.input.price as number)));
  for (const { band } of PRICE_BANDS) t.ok((bands.get(band) ?? 0) >= 10, `${band}: ${bands.get(band)}`);
  t.equal(priceBand(39.95), 'budget');
  t.equal(priceBand(300), 'luxury');
  t.ok(catalogue.every((p) => p.input.price === Math.min(...variantsOf(p).map((v) => v.price as number))), 'the product price is its cheapest variant');
});

t.test('some products are on sale, some sizes are out of stock and a few products are sold out', async (t) => {
  const onSale = catalogue.filter((p) => variantsOf(p).some((v) => v.compareAtPrice != null && (v.compareAtPrice as number) > (v.price as number)));
  t.ok(onSale.length >= 15 && onSale.length <= 100, `on sale: ${onSale.length}`);
  t.ok(
    catalogue.every((p) => variantsOf(p).every((v) => v.compareAtPrice == null || (v.compareAtPrice as number) > (v.price as number))),
    'a compare-at price is always above the price',
  );
  const soldOut = catalogue.filter((p) => variantsOf(p).every((v) => v.inStock === false));
  t.ok(soldOut.length >= 3 && soldOut.length <= 30, `sold out: ${soldOut.length}`);
  t.ok(soldOut.every((p) => variantsOf(p).every((v) => v.quantity === 0)));
  const partly = catalogue.filter((p) => variantsOf(p).some((v) => !v.inStock) && variantsOf(p).some((v) => v.inStock));
  t.ok(partly.length >= 30, `some sizes gone: ${partly.length}`);
  t.ok(catalogue.every((p) => variantsOf(p).every((v) => v.inStock === false || v.quantity === null || (v.quantity as number) > 0)), 'in-stock variants count at least one');
});

t.test('size and colour variants with their own skus', async (t) => {
  const skus = catalogue.map((p) => String(p.input.sku));
  t.equal(new Set(skus).size, skus.length, 'product skus are unique');
  const variantSkus = catalogue.flatMap((p) => variantsOf(p).map((v) => String(v.sku)));
  t.equal(new Set(variantSkus).size, variantSkus.length, 'variant skus are unique');
  t.equal(new Set([...skus, ...variantSkus]).size, skus.length + variantSkus.length, 'no variant reuses a product sku');
  const ids = catalogue.flatMap((p) => variantsOf(p).map((v) => String(v.variantId)));
  t.equal(new Set(ids).size, ids.length, 'variant ids are unique');
  t.ok(catalogue.every((p) => variantsOf(p).length >= 1 && variantsOf(p).every((v) => (v.options ?? []).some((o) => o.name === 'Size' || o.name === 'Amount'))));
  t.ok(catalogue.filter((p) => new Set(variantsOf(p).flatMap((v) => (v.options ?? []).filter((o) => o.name === 'Color').map((o) => o.value))).size > 1).length >= 5, 'some products come in several colours');
});

t.test('titles read like a shop and are unique', async (t) => {
  const names = catalogue.map((p) => p.input.name);
  t.equal(new Set(names).size, names.length);
  t.ok(names.every((n) => n.length >= 4 && n.length <= 80 && !/undefined|null|\s{2}/.test(n)));
  t.ok(names.some((n) => / – [A-Z]/.test(n)), 'single-colour products name their colour');
});

t.test('descriptions are HTML naming the fabric composition', async (t) => {
  for (const p of catalogue) {
    const html = p.input.description ?? '';
    if (!/^<p>.+<\/p><ul>(<li>[^<]+<\/li>)+<\/ul>$/.test(html) || !/\d+% \w/.test(html)) {
      t.fail(`${p.input.sku}: ${html}`);
      return;
    }
  }
  t.ok(catalogue.some((p) => (p.input.description ?? '').includes('70% wool, 30% cashmere')));
});

t.test('one to four photos per product, named by the demo scheme', async (t) => {
  t.ok(catalogue.every((p) => p.photos.length >= 1 && p.photos.length <= 4));
  t.ok(catalogue.every((p) => p.photos.every((ph, i) => ph.index === i && ph.sku === p.input.sku && p.input.images?.[i]?.src === ph.src)));
  t.ok(catalogue.every((p) => /^#[0-9a-f]{6}$/.test(p.photos[0]?.colour ?? '')));
  t.ok(catalogue.some((p) => p.photos.some((ph) => ph.view === 'flat back')) && catalogue.some((p) => p.photos.some((ph) => ph.view === 'detail')));
  const first = catalogue[0] as DemoProduct;
  t.equal(first.photos[0]?.src, `${DEMO_PHOTO_SCHEME}photos/${first.input.sku}/0.png`);
});

t.test('demo photo URLs parse back to sku and index; anything else does not', async (t) => {
  t.same(parseDemoPhotoUrl(demoPhotoUrl('NW-10001', 2)), { sku: 'NW-10001', index: 2 });
  t.same(parseDemoPhotoUrl('stylist-demo:photos/NW-10001/0.png'), { sku: 'NW-10001', index: 0 });
  for (const src of ['https://example.com/photos/NW-10001/0.png', 'stylist-demo:photos/NW-10001/x.png', 'stylist-demo:photos/../0.png/1.png', 'stylist-demo:photos/NW-1/0.jpg', ''])
    t.equal(parseDemoPhotoUrl(src), null, src);
});

t.test('the same seed gives the same catalogue; another seed another', async (t) => {
  t.same(generateDemoCatalogue({ seed: 42, count: 50 }), generateDemoCatalogue({ seed: 42, count: 50 }));
  t.same(generateDemoCatalogue(), catalogue, 'the default seed is fixed');
  t.notSame(
    generateDemoCatalogue({ seed: 43, count: 50 }).map((p) => p.input.name),
    generateDemoCatalogue({ seed: 42, count: 50 }).map((p) => p.input.name),
  );
});

t.test('other seeds keep the guarantees', async (t) => {
  for (const seed of [1, 2, 3]) {
    const other = generateDemoCatalogue({ seed });
    t.same([...new Set(other.map((p) => p.facts.slot))].sort(), [...SLOTS].sort(), `seed ${seed}: every slot`);
    t.same([...new Set(other.map((p) => p.facts.colourFamily))].sort(), [...COLOR_FAMILIES].sort(), `seed ${seed}: every colour family`);
    t.ok(other.some((p) => p.facts.soldOut) && other.some((p) => p.facts.onSale), `seed ${seed}: sales and sell-outs`);
    t.equal(new Set(other.map((p) => p.input.name)).size, other.length, `seed ${seed}: unique titles`);
  }
});
