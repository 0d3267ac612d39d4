// The dataset decider: given past events, when a command, then the events it appends or the error.
import t from 'tap';
import { createDatasetBody, datasetChanges, datasetDecider, DatasetNotFound, newDatasetContent, updateDatasetBody, type DatasetEvent } from '../../domain/dataset/index.js';
import { specFor, testMeta } from '../support/decider.js';

const spec = specFor(datasetDecider);
const datasetId = '0b9d7c1e-2f3a-4b5c-8d6e-7f8091a2b3c4';
const organizationId = '6c8a2a56-7a43-4c55-9a8e-1b8c2f1f0a01';
const other = '5e2b7d44-6a0f-4d8b-9b1e-3c9f2a7e4b02';
const at = testMeta.now;
const ids = { datasetId, organizationId };

const content = newDatasetContent(createDatasetBody.parse({ name: '  Spring catalogue ', config: { storeUrl: 'shop.example.com', currency: 'eur' } }));
const created: DatasetEvent = { type: 'DatasetCreated', data: { ...ids, ...content, at } };
const activated: DatasetEvent = { type: 'DatasetActivated', data: { ...ids, at } };
const archived: DatasetEvent = { type: 'DatasetArchived', data: { ...ids, at } };
const deleted: DatasetEvent = { type: 'DatasetDeleted', data: { ...ids, at } };

t.test('create trims the name, keeps the store URL as sent, defaults autoPublish on and targetGender to null', async (t) => {
  t.same(content, { name: 'Spring catalogue', description: '', config: { storeUrl: 'shop.example.com', currency: 'eur', targetGender: null }, autoPublish: true });
  spec(t, []).when({ type: 'CreateDataset', data: { ...ids, content } }).then([created]);
  spec(t, [created]).when({ type: 'CreateDataset', data: { ...ids, content } }).then([]);
  spec(t, [created]).when({ type: 'CreateDataset', data: { datasetId, organizationId: other, content } }).thenThrows(DatasetNotFound);
});

t.test('activate: draft and archived become active; already active changes nothing', async (t) => {
  spec(t, [created]).when({ type: 'ActivateDataset', data: ids }).then([activated]);
  spec(t, [created, activated, archived]).when({ type: 'ActivateDataset', data: ids }).then([activated]);
  spec(t, [created, activated]).when({ type: 'ActivateDataset', data: ids }).then([]);
});

t.test('archive once; a second archive changes nothing', async (t) => {
  spec(t, [created, activated]).when({ type: 'ArchiveDataset', data: ids }).then([archived]);
  spec(t, [created, activated, archived]).when({ type: 'ArchiveDataset', data: ids }).then([]);
});

t.test("another organization's dataset, a deleted one and a missing one are not found", async (t) => {
  spec(t, [created]).when({ type: 'ActivateDataset', data: { datasetId, organizationId: other } }).thenThrows(DatasetNotFound);
  spec(t, [created, deleted]).when({ type: 'ActivateDataset', data: ids }).thenThrows(DatasetNotFound);
  spec(t, [created, deleted]).when({ type: 'DeleteDataset', data: ids }).thenThrows(DatasetNotFound);
  spec(t, []).when({ type: 'ArchiveDataset', data: ids }).thenThrows(DatasetNotFound);
});

t.test('update records only what changes; name and description are cut, config merged, metadata replaced', async (t) => {
  const body = updateDatasetBody.parse({ name: 'x'.repeat(250), description: 'd'.repeat(2500), config: { storeName: 'n'.repeat(300), targetGender: 'womens' }, metadata: { season: 'SS27' } });
  const changes = datasetChanges(body, content.config);
  t.equal(changes.name?.length, 200);
  t.equal(changes.description?.length, 2000);
  t.same(changes.config, { storeUrl: 'shop.example.com', currency: 'eur', targetGender: 'womens', storeName: 'n'.repeat(200) });
  spec(t, [created]).when({ type: 'UpdateDataset', data: { ...ids, changes } }).then([{ type: 'DatasetUpdated', data: { ...ids, changes, at } }]);
  spec(t, [created]).when({ type: 'UpdateDataset', data: { ...ids, changes: { name: 'Spring catalogue', autoPublish: true } } }).then([]);
});

t.test('field rules: create refuses, update requires a scheme on storeUrl', async (t) => {
  const problems = (schema: typeof createDatasetBody | typeof updateDatasetBody, body: unknown) => {
    const result = schema.safeParse(body);
    return result.success ? [] : result.error.issues.map((issue) => issue.message);
  };
  t.same(problems(createDatasetBody, {}), ['name is required.']);
  t.same(problems(createDatasetBody, { name: '   ' }), ['name must be between 1 and 200 characters.']);
  t.same(problems(createDatasetBody, { name: 'A', config: { currency: 'EURO' } }), ['config.currency must be a 3-letter ISO 4217 currency code.']);
  t.same(problems(createDatasetBody, { name: 'A', config: { currency: 'xyz' } }), ['config.currency must be a 3-letter ISO 4217 currency code.']);
  t.same(problems(createDatasetBody, { name: 'A', config: { storeDomain: 'https://shop.example.com/path' } }), ['config.storeDomain must be a bare domain, without scheme, path or query.']);
  t.same(problems(createDatasetBody, { name: 'A', config: { targetGender: 'kids' } }), ['config.targetGender must be mens, womens or null.']);
  t.same(problems(createDatasetBody, { name: 'A', metadata: [1] }), ['metadata must be an object.']);
  t.same(problems(createDatasetBody, { name: 'A', config: { storeUrl: 'https://shop.example.com' } }), []);
  t.same(problems(updateDatasetBody, { config: { storeUrl: 'shop.example.com' } }), ['config.storeUrl must start with http:// or https://.']);
  t.same(problems(updateDatasetBody, { name: ' ' }), ['name must not be empty.']);
});
