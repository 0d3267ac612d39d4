// Given a store's listings, when one names no gender, then it takes the store's audience; it stays
// unisex when it says so or when the store is genuinely mixed.
import t from 'tap';
import type { Listing } from '../../domain/catalogue/product-input.js';
import { audienceFromCounts, genderFromStore, storeAudience, type AudienceSignal } from '../../domain/catalogue/store-audience.js';
import { listingAudienceSignal } from '../../infra/models/offline-labeller.js';

const listing = (name: string, extra: Partial<Listing> = {}): Listing => ({
  sku: name, name, url: '', description: '', brand: 'Acme', productType: '', tags: [], price: 10, currency: '', images: [], variants: [], model: { height: '', size: '' }, options: [], ...extra,
});
const given = (listings: Listing[]) => storeAudience(listings.map(listingAudienceSignal));
const genderOf = (store: ReturnType<typeof given>, item: Listing) => genderFromStore(listingAudienceSignal(item), store);

const boutique = [listing('Linen Maxi Dress'), listing('Denim Midi Skirt'), listing('Silk Blouse'), listing('Wrap Dress'), listing('Wide Leg Pant'), listing('Crewneck Sweater'), listing('Linen Jacket'), listing('Ribbed Top')];

t.test('given a boutique whose dresses, skirts and blouses mark it womenswear, an uncued pant is womens', async (t) => {
  const store = given(boutique);
  t.equal(store.gender, 'womens');
  t.equal(genderOf(store, listing('Wide Leg Pant')), 'womens');
  t.equal(genderOf(store, listing('Crewneck Sweater')), 'womens');
});

t.test('given the same boutique, a product tagged genderless stays unisex and one that says men stays mens', async (t) => {
  const store = given(boutique);
  t.equal(genderOf(store, listing('Rocky Cap', { tags: ['genderless'] })), 'unisex');
  t.equal(genderOf(store, listing('Rocky Cap', { tags: ['co-ed'] })), 'unisex');
  t.equal(genderOf(store, listing("Men's Wool Scarf")), 'mens');
});

t.test('given a menswear store (ties, suits, men-tagged shirts), an uncued chino is mens', async (t) => {
  const store = given([listing('Silk Tie'), listing('Two Piece Suit'), listing('Oxford Shirt', { tags: ['men'] }), listing('Slim Chino'), listing('Wool Overcoat'), listing('Leather Belt')]);
  t.equal(store.gender, 'mens');
  t.equal(genderOf(store, listing('Slim Chino')), 'mens');
});

t.test('given a sneaker shop that marks only a few models WMNS, its unmarked models stay unisex', async (t) => {
  const models = Array.from({ length: 40 }, (_, i) => listing(`Runner ${i} Black White`, { productType: 'Sneakers' }));
  const store = given([...models, listing('Nike WMNS Court Legacy'), listing('Samba OG (W)'), listing("Dunk Low Women's Shoes")]);
  t.equal(store.marked.womens, 3);
  t.equal(store.gender, null, 'three marked of forty-three is the exception, not the store');
  t.equal(genderOf(store, listing('Runner 7 Black White', { productType: 'Sneakers' })), 'unisex');
  t.equal(genderOf(store, listing('Nike WMNS Court Legacy')), 'womens');
});

t.test('given a store whose vendor splits the lines ("Kith Women" beside "Kith"), an uncued product takes its line', async (t) => {
  const store = given([
    listing('Kith Women Bikini', { brand: 'Kith Women' }),
    listing('Kith Women Vintage Tee', { brand: 'Kith Women' }),
    listing('Camp Collar Shirt', { brand: 'Kith' }),
    listing('Pleated Trouser', { brand: 'Kith' }),
  ]);
  t.same(store.splits, { 'vendor:kith women': 'womens', 'vendor:kith': 'mens' });
  t.equal(genderOf(store, listing('Pleated Trouser', { brand: 'Kith' })), 'mens');
});

t.test('given a mixed store (product types Mens and Womens), an uncued backpack stays unisex', async (t) => {
  const store = given([
    listing('Chambray Shirt', { productType: 'Mens' }),
    listing('Woolfill Jacket', { productType: 'Mens' }),
    listing('Plaid Shirt', { productType: 'Womens' }),
    listing('Cardigan', { productType: 'Womens' }),
    listing('Scout Backpack', { productType: 'Bags' }),
  ]);
  t.equal(store.gender, null);
  t.equal(genderOf(store, listing('Scout Backpack', { productType: 'Bags' })), 'unisex');
});

t.test("given no store, or a non-apparel item, nothing is guessed; a listing's women's dress sizes place it", async (t) => {
  t.equal(genderFromStore(listingAudienceSignal(listing('Wide Leg Pant')), null), 'unisex');
  t.equal(genderOf(given(boutique), listing('Gift Card')), 'unisex');
  const sized = listing('Wide Leg Pant', { options: [{ name: 'Size', values: ['4', '6', '8', '10'] }] });
  t.equal(genderOf(given([listing('Plain Tee'), listing('Hoodie')]), sized), 'womens');
});

t.test('counts from a read model decide as the signals do', async (t) => {
  const signals: AudienceSignal[] = boutique.map(listingAudienceSignal);
  const direct = storeAudience(signals);
  const counted = audienceFromCounts({ listings: direct.listings, fashion: direct.fashion, marked: direct.marked, vendors: ['acme'], productTypes: [] });
  t.same(counted, direct);
});
