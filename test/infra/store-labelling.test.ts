// The offline labeller with a store's evidence: a listing that names no gender takes the store's;
// the dataset's targetGender still wins; without evidence it answers as before.
import t from 'tap';
import type { Listing } from '../../domain/catalogue/product-input.js';
import { storeAudience } from '../../domain/catalogue/store-audience.js';
import { labelListing, listingAudienceSignal } from '../../infra/models/offline-labeller.js';

const listing = (name: string, extra: Partial<Listing> = {}): Listing => ({
  sku: name, name, url: '', description: '', brand: 'Woven', productType: '', tags: [], price: 10, currency: '', images: [], variants: [], model: { height: '', size: '' }, options: [], ...extra,
});
const catalogue = ['Puff Sleeve Dress', 'Maxi Dress', 'Linen Blouse', 'Denim Maxi Skirt', 'Harper Sweater', 'Regina Pant', 'Romane Jacket'].map((name) => listing(name));
const store = storeAudience(catalogue.map(listingAudienceSignal));

t.test('given a womenswear store, when a sweater names no gender, then the labeller answers womens', async (t) => {
  const sweater = listing('Harper Sweater', { options: [{ name: 'Size', values: ['Small', 'Medium', 'Large'] }] });
  t.equal(labelListing({ listing: sweater, photos: [], targetGender: null }).gender, 'unisex', 'the listing alone names none');
  const labels = labelListing({ listing: sweater, photos: [], targetGender: null, store });
  t.match(labels, { gender: 'womens', slot: 'top', family: 'sweater' });
});

t.test('the dataset targetGender wins over the store; a listing that says unisex stays unisex', async (t) => {
  t.equal(labelListing({ listing: listing('Regina Pant'), photos: [], targetGender: 'mens', store }).gender, 'mens');
  t.equal(labelListing({ listing: listing('Regina Pant', { tags: ['unisex'] }), photos: [], targetGender: null, store }).gender, 'unisex');
});

t.test('a sneaker title marked WMNS, (W) or a handle ending -womens reads as womens on its own', async (t) => {
  for (const item of [listing('Nike WMNS Court Legacy Lift'), listing('(W) Adidas Sambarose'), listing('Campus 00s W Black Sneakers'), listing('V2K Run', { url: 'https://shop.example/products/nike-v2k-run-womens-shoes' })]) {
    t.equal(labelListing({ listing: item, photos: [], targetGender: null }).gender, 'womens', item.name);
  }
});
