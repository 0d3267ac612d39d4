// The data source decider: given past events, when a command, then events or the error.
import t from 'tap';
import { feedEndpoint, sourceDecider, SourceNotFound, type SourceEvent } from '../../domain/source/index.js';
import { specFor, testMeta } from '../support/decider.js';

const spec = specFor(sourceDecider);
const ids = { sourceId: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f', datasetId: '0b9d7c1e-2f3a-4b5c-8d6e-7f8091a2b3c4', organizationId: '6c8a2a56-7a43-4c55-9a8e-1b8c2f1f0a01' };
const settings = { endpoint: 'https://shop.example.com/products.json', syncPeriod: 1440, status: 'active' as const };
const at = testMeta.now;
const created: SourceEvent = { type: 'SourceCreated', data: { ...ids, sourceType: 'shopify-api', ...settings, at } };

t.test('the feed endpoint always ends in /products.json', async (t) => {
  t.equal(feedEndpoint('https://shop.example.com'), 'https://shop.example.com/products.json');
  t.equal(feedEndpoint('https://shop.example.com/'), 'https://shop.example.com/products.json');
  t.equal(feedEndpoint('https://shop.example.com/en/products.json'), 'https://shop.example.com/en/products.json');
});

t.test('create once; a retried create appends nothing', async (t) => {
  spec(t, []).when({ type: 'CreateSource', data: { ...ids, sourceType: 'shopify-api', ...settings } }).then([created]);
  spec(t, [created]).when({ type: 'CreateSource', data: { ...ids, sourceType: 'shopify-api', ...settings } }).then([]);
});

t.test('update records only what changes; another dataset or organization is not found', async (t) => {
  spec(t, [created]).when({ type: 'UpdateSource', data: { ...ids, changes: { syncPeriod: 60, status: 'active' } } }).then([{ type: 'SourceUpdated', data: { ...ids, changes: { syncPeriod: 60 }, at } }]);
  spec(t, [created]).when({ type: 'UpdateSource', data: { ...ids, changes: { status: 'active' } } }).then([]);
  spec(t, [created]).when({ type: 'UpdateSource', data: { ...ids, datasetId: ids.organizationId, changes: { syncPeriod: 60 } } }).thenThrows(SourceNotFound);
  spec(t, [created]).when({ type: 'DeleteSource', data: { ...ids, organizationId: ids.datasetId } }).thenThrows(SourceNotFound);
});

t.test('a deleted source is gone', async (t) => {
  const deleted: SourceEvent = { type: 'SourceDeleted', data: { ...ids, at } };
  spec(t, [created]).when({ type: 'DeleteSource', data: ids }).then([deleted]);
  spec(t, [created, deleted]).when({ type: 'UpdateSource', data: { ...ids, changes: { syncPeriod: 60 } } }).thenThrows(SourceNotFound);
});
