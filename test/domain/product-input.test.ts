// Store products read into listings: sizes that come from a merchant's feed must not break the reader.
import t from 'tap';
import { parseEntries } from '../../commands/items.js';
import { ENTRY_LIMITS, listingFromShopifyProduct, shopifyProductSchema } from '../../domain/catalogue/product-input.js';

t.test('a product with 200,000 variants is read, its price the lowest (no spread of the variants onto the stack)', async (t) => {
  const variants = Array.from({ length: 200_000 }, (_, i) => ({ id: i + 1, title: `Size ${i}`, price: (100 + (i % 997)).toFixed(2), available: true }));
  variants[123_456]!.price = '12.50';
  // The schema refuses so many (ENTRY_LIMITS.variants); the reader must still not overflow on what it is given.
  t.equal(shopifyProductSchema.safeParse({ id: 42, title: 'Linen shirt', variants }).error?.issues[0]?.message, 'must have at most 2,048 entries.');
  const product = { ...shopifyProductSchema.parse({ id: 42, title: 'Linen shirt', handle: 'linen-shirt' }), variants: variants.map((v) => ({ ...v, id: String(v.id), sku: null, available: true })) } as unknown as Parameters<typeof listingFromShopifyProduct>[0];
  const listing = listingFromShopifyProduct(product, 'https://store.example');
  t.equal(listing.price, 12.5);
  t.equal(listing.variants.length, 200_000);
});

t.test('every field is bounded: at the limit accepted, past it refused with the path and the bound', async (t) => {
  const L = ENTRY_LIMITS;
  const item = { sku: 'S-1', name: 'Shirt' };
  const refusal = (entry: object) => parseEntries('items', [entry], '').failures[0]?.error;
  const product = { id: 1, title: 'Shirt' };
  const productRefusal = (entry: object) => parseEntries('products', [entry], '').failures[0]?.error;
  const cases: Array<[string, (n: number) => object, number, string]> = [
    ['tags', (n) => ({ ...item, tags: Array.from({ length: n }, (_, i) => `t${i}`) }), L.tags, 'tags must have at most 250 entries.'],
    ['a tag', (n) => ({ ...item, tags: ['x'.repeat(n)] }), L.tag, 'tags[0] must be at most 255 characters.'],
    ['images', (n) => ({ ...item, images: Array.from({ length: n }, (_, i) => ({ src: `https://cdn.example/${i}.jpg` })) }), L.images, 'images must have at most 250 entries.'],
    ['an image src', (n) => ({ ...item, images: [{ src: 'x'.repeat(n) }] }), L.imageSrc, 'images[0].src must be at most 4,000 characters.'],
    ['variants', (n) => ({ ...item, variants: Array.from({ length: n }, (_, i) => ({ sku: `S-1-${i}` })) }), L.variants, 'variants must have at most 2,048 entries.'],
    ['variant options', (n) => ({ ...item, variants: [{ sku: 'v', options: Array.from({ length: n }, (_, i) => ({ name: `o${i}`, value: 'x' })) }] }), L.options, 'variants[0].options must have at most 3 entries.'],
    ['an option value', (n) => ({ ...item, variants: [{ sku: 'v', options: [{ name: 'Size', value: 'x'.repeat(n) }] }] }), L.optionText, 'variants[0].options[0].value must be at most 500 characters.'],
    ['a variant sku', (n) => ({ ...item, variants: [{ sku: 'x'.repeat(n) }] }), L.sku, 'variants[0].sku must be at most 200 characters.'],
    ['the description', (n) => ({ ...item, description: 'x'.repeat(n) }), L.description, 'description must be at most 100,000 characters.'],
    ['the brand', (n) => ({ ...item, brand: 'x'.repeat(n) }), L.label, 'brand must be at most 255 characters.'],
    ['the name', (n) => ({ ...item, name: 'x'.repeat(n) }), L.name, 'name must be at most 500 characters.'],
    ['the model size', (n) => ({ ...item, model: { size: 'x'.repeat(n) } }), L.modelText, 'model.size must be at most 100 characters.'],
  ];
  for (const [what, entry, limit, message] of cases) {
    t.equal(refusal(entry(limit)), undefined, `${what}: ${limit} accepted`);
    t.equal(refusal(entry(limit + 1)), message, `${what}: ${limit + 1} refused`);
  }
  const productCases: Array<[string, (n: number) => object, number, string]> = [
    ['tags as a list', (n) => ({ ...product, tags: Array.from({ length: n }, (_, i) => `t${i}`) }), L.tags, 'tags must have at most 250 entries.'],
    ['tags as Shopify\'s string', (n) => ({ ...product, tags: Array.from({ length: n }, (_, i) => `t${i}`).join(', ') }), L.tags, 'tags must have at most 250 entries.'],
    ['images', (n) => ({ ...product, images: Array.from({ length: n }, (_, i) => ({ src: `https://cdn.example/${i}.jpg` })) }), L.images, 'images must have at most 250 entries.'],
    ['variants', (n) => ({ ...product, variants: Array.from({ length: n }, (_, i) => ({ id: i + 1 })) }), L.variants, 'variants must have at most 2,048 entries.'],
    ['options', (n) => ({ ...product, options: Array.from({ length: n }, (_, i) => ({ name: `o${i}` })) }), L.options, 'options must have at most 3 entries.'],
    ['option values', (n) => ({ ...product, options: [{ name: 'Size', values: Array.from({ length: n }, (_, i) => i) }] }), L.optionValues, 'options[0].values must have at most 500 entries.'],
    ['body_html', (n) => ({ ...product, body_html: 'x'.repeat(n) }), L.description, 'body_html must be at most 100,000 characters.'],
    ['the vendor', (n) => ({ ...product, vendor: 'x'.repeat(n) }), L.label, 'vendor must be at most 255 characters.'],
    ['a variant title', (n) => ({ ...product, variants: [{ id: 1, title: 'x'.repeat(n) }] }), L.optionText, 'variants[0].title must be at most 500 characters.'],
  ];
  for (const [what, entry, limit, message] of productCases) {
    t.equal(productRefusal(entry(limit)), undefined, `product ${what}: ${limit} accepted`);
    t.equal(productRefusal(entry(limit + 1)), message, `product ${what}: ${limit + 1} refused`);
  }
});
