// The performance benchmark's catalogue: copies of products that are new products with another
// colour and price, never the same ids twice, and the originals themselves first.
import t from 'tap';
import { catalogueProduct, PALETTE, priceFactor } from '../../bench/search/catalogue.js';
import { listingFromShopifyProduct, shopifyProductSchema } from '../../domain/catalogue/product-input.js';

const dress = {
  id: 9001,
  title: 'Black Linen Midi Dress',
  handle: 'linen-midi',
  body_html: '<p>Linen.</p>',
  product_type: 'Dress',
  options: [
    { name: 'Color', position: 1, values: ['Black', 'Sand'] },
    { name: 'Size', position: 2, values: ['S', 'M'] },
  ],
  variants: [
    { id: 1, title: 'Black / S', option1: 'Black', option2: 'S', option3: null, price: '100.00', compare_at_price: '120.00', sku: 'LMD-B-S', available: true, featured_image: { src: 'x' } },
    { id: 2, title: 'Sand / M', option1: 'Sand', option2: 'M', option3: null, price: '100.00', compare_at_price: null, sku: '', available: false, featured_image: null },
  ],
  images: [{ src: 'https://cdn.example/x.jpg' }],
};
const tee = { id: 9002, title: 'Logo Tee', handle: 'tee', options: [{ name: 'Size', values: ['M'] }], variants: [{ id: 3, title: 'M', option1: 'M', price: '30.00', sku: 'TEE-M', available: true }], images: [] };
const pool = [dress, tee];

t.test('given the first round, when built, then the products are the originals without photos', async (t) => {
  const first = catalogueProduct(pool, 0);
  t.same([first.id, first.title, first.variants[0].price, first.variants[0].sku], [9001, 'Black Linen Midi Dress', '100.00', 'LMD-B-S']);
  t.same([first.images, first.variants[0].featured_image], [[], null], 'no photo to fetch');
  t.equal(dress.images.length, 1, 'the pool is left as it was');
});

t.test('given a later round, when built, then each copy is a new product in another colour at another price', async (t) => {
  const copy = catalogueProduct(pool, 2 * 3); // copy 3 of the dress
  t.equal(copy.id, '9001-3');
  t.equal(copy.handle, 'linen-midi-3');
  t.same(copy.variants.map((v: any) => [v.id, v.sku]), [['1-3', 'LMD-B-S-3'], ['2-3', '']], 'new variant ids; an empty sku stays empty');
  const colours = copy.options[0].values.map((v: string) => v.toLowerCase());
  t.ok(colours.every((c: string) => (PALETTE as readonly string[]).includes(c)), `option colours from the palette: ${colours}`);
  t.not(colours[0], colours[1], 'two colours stay two colours');
  t.equal(copy.variants[0].option1, copy.options[0].values[0], 'the variant follows its option value');
  t.match(copy.variants[0].title, / \/ S$/);
  t.match(copy.title, /^[A-Z][a-z]+ Linen Midi Dress$/, 'the title names a colour in the same place');
  t.same([copy.variants[0].price, copy.variants[0].compare_at_price, copy.variants[1].compare_at_price], [(100 * priceFactor(3)).toFixed(2), (120 * priceFactor(3)).toFixed(2), null]);
  t.same(catalogueProduct(pool, 6), copy, 'deterministic');
});

t.test('given a product without colours, when copied, then only ids and prices change', async (t) => {
  const copy = catalogueProduct(pool, 3);
  t.same([copy.id, copy.title, copy.options, copy.variants[0].sku], ['9002-1', 'Logo Tee', tee.options, 'TEE-M-1']);
});

t.test('given a thousand products, when read as the service reads them, then every one is valid with an sku of its own', async (t) => {
  const skus = new Set<string>();
  for (let i = 0; i < 1000; i++) {
    const listing = listingFromShopifyProduct(shopifyProductSchema.parse(catalogueProduct(pool, i)), 'https://bench.example');
    skus.add(listing.sku);
  }
  t.equal(skus.size, 1000);
});
