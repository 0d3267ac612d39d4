// Store products read into listings: sizes that come from a merchant's feed must not break the reader.
import t from 'tap';
import { listingFromShopifyProduct, shopifyProductSchema } from '../../domain/catalogue/product-input.js';

t.test('a product with 200,000 variants is read, its price the lowest (no spread of the variants onto the stack)', async (t) => {
  const variants = Array.from({ length: 200_000 }, (_, i) => ({ id: i + 1, title: `Size ${i}`, price: (100 + (i % 997)).toFixed(2), available: true }));
  variants[123_456]!.price = '12.50';
  const product = shopifyProductSchema.parse({ id: 42, title: 'Linen shirt', handle: 'linen-shirt', variants });
  const listing = listingFromShopifyProduct(product, 'https://store.example');
  t.equal(listing.price, 12.5);
  t.equal(listing.variants.length, 200_000);
});
