// The item decider and the upload classification: given past events, when a command, then events.
import t from 'tap';
import { listingFromItemInput, itemInputSchema } from '../../domain/catalogue/product-input.js';
import type { Labels } from '../../domain/catalogue/vocabulary.js';
import { classifyUpload, itemDecider, itemIdFor, ItemNotFound, listingHashes, type ItemEvent } from '../../domain/item/index.js';
import { specFor, testMeta } from '../support/decider.js';

const spec = specFor(itemDecider);
const datasetId = '0b9d7c1e-2f3a-4b5c-8d6e-7f8091a2b3c4';
const organizationId = '6c8a2a56-7a43-4c55-9a8e-1b8c2f1f0a01';
const itemId = itemIdFor(datasetId, 'TEE-1');
const ids = { itemId, datasetId, organizationId };
const at = testMeta.now;

const listing = listingFromItemInput(
  itemInputSchema.parse({ sku: 'TEE-1', name: 'Organic Cotton Tee', price: 30, variants: [{ sku: 'TEE-1-S', label: 'S', options: [{ name: 'Size', value: 'S' }], inStock: true, price: 30 }] }),
);
const hashes = listingHashes(listing);
const labels: Labels = {
  slot: 'top',
  family: 't shirt',
  gender: 'unisex',
  age_group: 'adult',
  color_rgb: [255, 255, 255],
  color_family: 'white',
  colors: ['white'],
  pattern: 'solid',
  material: ['cotton'],
  fit: 'regular',
  features: [],
  featureKeys: [],
  taxonomyVersion: 1,
};
const queued: ItemEvent = { type: 'ItemQueued', data: { ...ids, sku: 'TEE-1', kind: 'pending', listing, ...hashes, at } };
const started: ItemEvent = { type: 'ItemProcessingStarted', data: { ...ids, queueVersion: 1, attempt: 1, at } };
const result = { ...ids, queueVersion: 1, listing, currency: 'CAD', labels, searchText: 'Organic Cotton Tee', searchTextVersion: 2, images: [], photoProblems: [], labeller: 'offline', pipelineVersion: 1 };
const processed = (status: 'active' | 'archived'): ItemEvent => ({ type: 'ItemProcessed', data: { ...result, status, at } });

t.test('the same sku always maps to the same item; another dataset gives another', async (t) => {
  t.equal(itemIdFor(datasetId, 'TEE-1'), itemId);
  t.not(itemIdFor(organizationId, 'TEE-1'), itemId);
});

t.test('upload classification: new, unchanged, partial update, full update', async (t) => {
  const stored = { ...hashes, processed: true };
  t.equal(classifyUpload(null, hashes), 'pending', 'never seen: pending');
  t.equal(classifyUpload(stored, hashes), 'unchanged', 'identical: unchanged');
  const cheaper = listingHashes({ ...listing, price: 20, variants: listing.variants.map((v) => ({ ...v, price: 20, inStock: false })) });
  t.equal(classifyUpload(stored, cheaper), 'partial_update', 'only price and stock: partial update');
  t.equal(classifyUpload({ ...stored, processed: false }, cheaper), 'pending', 'not processed yet: the full pipeline runs anyway');
  t.equal(classifyUpload(stored, listingHashes({ ...listing, name: 'Organic Cotton T-Shirt' })), 'pending', 'a new title: relabel');
});

t.test('processing starts only for the latest queued work', async (t) => {
  spec(t, [queued]).when({ type: 'StartProcessing', data: { ...ids, queueVersion: 1, attempt: 1 } }).then([started]);
  spec(t, [queued, queued]).when({ type: 'StartProcessing', data: { ...ids, queueVersion: 1, attempt: 1 } }).then([]);
  spec(t, [queued, started, processed('active')]).when({ type: 'StartProcessing', data: { ...ids, queueVersion: 1, attempt: 2 } }).then([]);
});

t.test('a new item goes live only with autoPublish; a reprocessed one keeps its status', async (t) => {
  spec(t, [queued, started]).when({ type: 'RecordProcessed', data: { ...result, autoPublish: true } }).then([processed('active')]);
  spec(t, [queued, started]).when({ type: 'RecordProcessed', data: { ...result, autoPublish: false } }).then([processed('archived')]);
  const withdrawn: ItemEvent = { type: 'ItemStatusChanged', data: { ...ids, status: 'archived', at } };
  spec(t, [queued, started, processed('active'), withdrawn, queued]).when({ type: 'RecordProcessed', data: { ...result, queueVersion: 2, autoPublish: true } }).then([{ type: 'ItemProcessed', data: { ...result, queueVersion: 2, status: 'archived', at } }]);
});

t.test('publishing: only processed items of that dataset; the same status changes nothing', async (t) => {
  spec(t, [queued]).when({ type: 'SetItemStatus', data: { ...ids, status: 'active' } }).thenThrows(ItemNotFound);
  spec(t, [queued, started, processed('archived')]).when({ type: 'SetItemStatus', data: { ...ids, status: 'active' } }).then([{ type: 'ItemStatusChanged', data: { ...ids, status: 'active', at } }]);
  spec(t, [queued, started, processed('active')]).when({ type: 'SetItemStatus', data: { ...ids, status: 'active' } }).then([]);
  spec(t, [queued, started, processed('active')]).when({ type: 'SetItemStatus', data: { ...ids, datasetId: organizationId, status: 'archived' } }).thenThrows(ItemNotFound);
});

t.test('a failure is recorded for the current work only', async (t) => {
  spec(t, [queued, started]).when({ type: 'RecordFailure', data: { ...ids, queueVersion: 1, reason: 'labeller down', attempts: 3 } }).then([
    { type: 'ItemFailed', data: { ...ids, queueVersion: 1, reason: 'labeller down', attempts: 3, at } },
  ]);
  spec(t, [queued, started, queued]).when({ type: 'RecordFailure', data: { ...ids, queueVersion: 1, reason: 'x', attempts: 3 } }).then([]);
});

t.test('queuing is decided on the stream: new work, a partial update once processed, nothing when unchanged', async (t) => {
  const queue = (next = listing) => ({ type: 'QueueItem' as const, data: { ...ids, sku: 'TEE-1', listing: next, ...listingHashes(next) } });
  spec(t, []).when(queue()).then([queued]);
  spec(t, [queued]).when(queue()).then([]);
  spec(t, [queued, started, processed('active')]).when(queue()).then([]);
  const cheaper = { ...listing, price: 20, variants: listing.variants.map((v) => ({ ...v, price: 20 })) };
  spec(t, [queued]).when(queue(cheaper)).then([{ type: 'ItemQueued', data: { ...ids, sku: 'TEE-1', listing: cheaper, ...listingHashes(cheaper), kind: 'pending', at } }]);
  spec(t, [queued, started, processed('active')]).when(queue(cheaper)).then([{ type: 'ItemQueued', data: { ...ids, sku: 'TEE-1', listing: cheaper, ...listingHashes(cheaper), kind: 'partial_update', at } }]);
});
