// Each projector on its own, given/when/then: given past events, when one more, then these rows.
import t from 'tap';
import { apiKeyStream, type ApiKeyEvent } from '../../domain/apikey/events.js';
import { listingFromItemInput, itemInputSchema } from '../../domain/catalogue/product-input.js';
import type { Labels } from '../../domain/catalogue/vocabulary.js';
import { chatStream, type ChatEvent } from '../../domain/chat/events.js';
import { assistantTurn, generatingTurn, userMessage, type ChatMessage } from '../../domain/chat/messages.js';
import { datasetStream, type DatasetEvent } from '../../domain/dataset/events.js';
import { itemIdFor, itemStream, listingHashes, type ItemEvent } from '../../domain/item/index.js';
import { organizationStream, type OrganizationEvent } from '../../domain/organization/events.js';
import { DEFAULT_PLAN } from '../../domain/plan.js';
import { sourceStream, type SourceEvent } from '../../domain/source/events.js';
import { widgetPresetStream, type WidgetPresetEvent } from '../../domain/widget-preset/events.js';
import { createChatKey, destroyChatKey, seal } from '../../infra/crypto/chat-keys.js';
import { apiKeys } from '../../projections/apikeys.js';
import { catalogueItems } from '../../projections/catalogue-items.js';
import { chats } from '../../projections/chats.js';
import { dataSources } from '../../projections/data-sources.js';
import { datasets } from '../../projections/datasets.js';
import { organizations } from '../../projections/organizations.js';
import { searchIndex } from '../../projections/search-index.js';
import { widgetPresets } from '../../projections/widget-presets.js';
import { projectorSpecFor } from '../support/projector-spec.js';

const organizationId = '6c8a2a56-7a43-4c55-9a8e-1b8c2f1f0a01';
const at = '2026-01-02T03:04:05.000Z';
const later = '2026-01-03T00:00:00.000Z';

t.test('organizations', async (t) => {
  const spec = await projectorSpecFor<OrganizationEvent>(t, organizations, { stream: (e) => organizationStream(e.data.organizationId) });
  const created: OrganizationEvent = { type: 'OrganizationCreated', data: { organizationId, name: 'Acme', reportingTimezone: 'UTC', at } };
  await spec.given([]).when(created).then({
    organizations: [{ organization_id: organizationId, name: 'Acme', reporting_timezone: 'UTC', creator_id: String, created_at: new Date(at), deleted_at: null, revision: '0' }],
  });
  await spec.given([created]).when(created).then({ organizations: [{ name: 'Acme' }] }, 'a created organization seen twice stays one row');
  const renamed: OrganizationEvent = { type: 'OrganizationRenamed', data: { organizationId, name: 'Acme Apparel', at: later } };
  await spec.given([created]).when(renamed).then({ organizations: [{ name: 'Acme Apparel', updated_at: new Date(later), revision: '1' }] });
  await spec
    .given([created, renamed, { type: 'OrganizationTimezoneChanged', data: { organizationId, reportingTimezone: 'Europe/Paris', at: later } }])
    .when({ type: 'OrganizationDeleted', data: { organizationId, at: later } })
    .then({ organizations: [{ name: 'Acme Apparel', reporting_timezone: 'Europe/Paris', deleted_at: new Date(later), revision: '3' }] });
  const started: OrganizationEvent = { type: 'SubscriptionStarted', data: { organizationId, plan: DEFAULT_PLAN, at } };
  await spec
    .given([created, started])
    .when({ type: 'PlanEntrySet', data: { organizationId, resource: 'search', entry: { kind: 'off' }, at } })
    .then({ organizations: [{ subscription_active: true, plan: { ...DEFAULT_PLAN, entries: { search: { kind: 'off' } } } }] });
  await spec
    .given([created, started, { type: 'PlanEntrySet', data: { organizationId, resource: 'search', entry: { kind: 'off' }, at } }])
    .when({ type: 'PlanEntrySet', data: { organizationId, resource: 'search', entry: null, at } })
    .then({ organizations: [{ plan: DEFAULT_PLAN }] }, 'a null entry goes back to the defaults');
  await spec.given([created, started]).when({ type: 'SubscriptionDeactivated', data: { organizationId, at } }).then({ organizations: [{ subscription_active: false }] });
});

t.test('api keys', async (t) => {
  const spec = await projectorSpecFor<ApiKeyEvent>(t, apiKeys, { stream: (e) => apiKeyStream(e.data.keyId) });
  const keyId = '3f0b7e52-1c4d-4a8e-9b2f-6d7c8e9f0a1b';
  const credentials = (n: number) => ({ publicKey: `sgpt-pk-${n}`, publicLookup: `pub-${n}`, privateLookup: `priv-${n}`, secretHash: `hash-${n}` });
  const created: ApiKeyEvent = {
    type: 'ApiKeyCreated',
    data: { keyId, organizationId, name: 'Shop', primary: true, credentials: credentials(1), publicAccess: { mode: 'everyone' }, privateAccess: { mode: 'service-only' }, scopes: null, at },
  };
  await spec.given([]).when(created).then({
    api_keys: [{ key_id: keyId, organization_id: organizationId, is_primary: true, public_lookup: 'pub-1', private_lookup: 'priv-1', secret_hash: 'hash-1', public_access: { mode: 'everyone' }, scopes: null, revision: '0' }],
  });
  const rotated: ApiKeyEvent = { type: 'ApiKeyRotated', data: { keyId, organizationId, credentials: credentials(2), at: later } };
  await spec.given([created]).when(rotated).then({ api_keys: [{ public_key: 'sgpt-pk-2', public_lookup: 'pub-2', secret_hash: 'hash-2', updated_at: new Date(later), revision: '1' }] });
  await spec.given([created, rotated]).when({ type: 'ApiKeyDeleted', data: { keyId, organizationId, at: later } }).then({ api_keys: [] }, 'a deleted key is gone');
});

t.test('widget presets', async (t) => {
  const spec = await projectorSpecFor<WidgetPresetEvent>(t, widgetPresets, { stream: (e) => widgetPresetStream(e.data.presetId) });
  const presetId = '2b1e4f0c-9d3a-5c7e-8f6a-1d2c3b4a5e60';
  const options = {
    button: { label: 'Ask', color: '#111', hoverColor: '#222', textColor: '#fff' },
    widget: {
      typingDotColor: '#000', accentColor: '#a1b2c3', accentHoverColor: '#b2c3d4', mutedTextColor: '#777', primaryTextColor: '#000',
      pageColor: '#fff', surfaceColor: '#fafafa', borderColor: '#e0e0e0', inputColor: '#f5f5f5', footerColor: '#eee', roundness: 8,
    },
  };
  const created: WidgetPresetEvent = { type: 'WidgetPresetCreated', data: { presetId, organizationId, name: 'Summer', options, at } };
  await spec.given([]).when(created).then({ widget_presets: [{ preset_id: presetId, organization_id: organizationId, name: 'Summer', options, created_at: new Date(at), modified_at: new Date(at), revision: '0' }] });
  await spec.given([created]).when(created).then({ widget_presets: [{ name: 'Summer' }] }, 'seen twice, one row');
});

t.test('datasets', async (t) => {
  const spec = await projectorSpecFor<DatasetEvent>(t, datasets, { stream: (e) => datasetStream(e.data.datasetId) });
  const datasetId = '0b9d7c1e-2f3a-4b5c-8d6e-7f8091a2b3c4';
  const ids = { datasetId, organizationId };
  const created: DatasetEvent = { type: 'DatasetCreated', data: { ...ids, name: 'Summer', description: '', config: { targetGender: null }, autoPublish: false, at } };
  await spec.given([]).when(created).then({
    datasets: [{ dataset_id: datasetId, status: 'draft', name: 'Summer', metadata: null, config: { targetGender: null }, auto_publish: false, version: 1, styling: null }],
  });
  await spec
    .given([created])
    .when({ type: 'DatasetUpdated', data: { ...ids, changes: { name: 'Winter', metadata: { season: 'w' }, config: { targetGender: 'womens' } }, at: later } })
    .then({ datasets: [{ name: 'Winter', description: '', metadata: { season: 'w' }, config: { targetGender: 'womens' }, updated_at: new Date(later), version: 2 }] });
  await spec.given([created]).when({ type: 'DatasetActivated', data: { ...ids, at: later } }).then({ datasets: [{ status: 'active', version: 2 }] });
  await spec
    .given([created, { type: 'DatasetActivated', data: { ...ids, at } }])
    .when({ type: 'DatasetArchived', data: { ...ids, at: later } })
    .then({ datasets: [{ status: 'archived', version: 3 }] });
  const sizing = { brandSizes: { enabled: true, logos: false, excludedBrands: ['acme'] } };
  await spec
    .given([created])
    .when({ type: 'DatasetStylingReplaced', data: { ...ids, sizing, at: later } })
    .then({ datasets: [{ sizing, styling: null, updated_at: new Date(at), version: 2 }] }, 'styling is no edit of the record: updatedAt stays');
  await spec.given([created]).when({ type: 'DatasetDeleted', data: { ...ids, at: later } }).then({ datasets: [] });
});

t.test('catalogue items', async (t) => {
  type Handled = ItemEvent | Extract<DatasetEvent, { type: 'DatasetDeleted' }>;
  const spec = await projectorSpecFor<Handled>(t, catalogueItems, { stream: (e) => ('itemId' in e.data ? itemStream(e.data.itemId) : datasetStream(e.data.datasetId)) });
  const datasetId = '0b9d7c1e-2f3a-4b5c-8d6e-7f8091a2b3c4';
  const itemId = itemIdFor(datasetId, 'TEE-1');
  const ids = { itemId, datasetId, organizationId };
  const listing = listingFromItemInput(itemInputSchema.parse({ sku: 'TEE-1', name: 'Organic Cotton Tee', brand: 'Acme', price: 30 }));
  const hashes = listingHashes(listing);
  const labels: Labels = {
    slot: 'top', family: 't shirt', gender: 'unisex', age_group: 'adult', color_rgb: [255, 255, 255], color_family: 'white', colors: ['white'],
    pattern: 'solid', material: ['cotton'], fit: 'regular', features: [], featureKeys: [], taxonomyVersion: 1,
  };
  const queued = (queuedAt = at): ItemEvent => ({ type: 'ItemQueued', data: { ...ids, sku: 'TEE-1', kind: 'pending', listing, ...hashes, at: queuedAt } });
  const started: ItemEvent = { type: 'ItemProcessingStarted', data: { ...ids, queueVersion: 1, attempt: 1, at } };
  const processed = (queueVersion: number): ItemEvent => ({
    type: 'ItemProcessed',
    data: { ...ids, queueVersion, listing, currency: 'CAD', labels, searchText: 'tee', searchTextVersion: 2, images: [], photoProblems: [], labeller: 'offline', pipelineVersion: 1, status: 'active', at: later },
  });

  await spec.given([]).when(queued()).then({
    catalogue_items: [{ item_id: itemId, dataset_id: datasetId, sku: 'TEE-1', status: null, item: null, queue_status: 'pending', queue_version: 1, attempts: 0, content_hash: hashes.contentHash, source_id: null }],
  });
  await spec.given([queued()]).when(queued(later)).then({ catalogue_items: [{ queue_status: 'pending', queue_version: 2, queued_at: new Date(later) }] }, 'a re-queued item counts one more queue version');
  await spec.given([queued()]).when(started).then({ catalogue_items: [{ queue_status: 'processing', attempts: 1 }] });
  await spec.given([queued(), started]).when(processed(1)).then({
    catalogue_items: [{ status: 'active', queue_status: null, gender: 'unisex', vendor: 'Acme', processed_at: new Date(later), item: { product: { sku: 'TEE-1', name: 'Organic Cotton Tee', price: 30 } } }],
  });
  await spec.given([queued(), started, queued()]).when(processed(1)).then({ catalogue_items: [{ status: 'active', queue_status: 'pending', queue_version: 2 }] }, 'a newer upload keeps its queue row');
  await spec
    .given([queued(), started, processed(1)])
    .when({ type: 'ItemCommerceUpdated', data: { ...ids, queueVersion: 1, price: 20, currency: 'CAD', variants: [], at: later } })
    .then({ catalogue_items: [{ item: { product: { price: 20, name: 'Organic Cotton Tee' } } }] });
  await spec
    .given([queued(), started])
    .when({ type: 'ItemFailed', data: { ...ids, queueVersion: 1, reason: 'labeller down', attempts: 3, at } })
    .then({ catalogue_items: [{ queue_status: 'failed', queue_reason: 'labeller down', attempts: 3 }] });
  const sourceId = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
  await spec
    .given([queued(), started, processed(1)])
    .when({ type: 'ItemStatusChanged', data: { ...ids, status: 'archived', sourceId, at } })
    .then({ catalogue_items: [{ status: 'archived', archived_by_source: sourceId }] });
  await spec.given([queued(), started, processed(1)]).when({ type: 'DatasetDeleted', data: { datasetId, organizationId, at } }).then({ catalogue_items: [] }, "a deleted dataset's items go");
});

t.test('search index', async (t) => {
  type Handled = ItemEvent | Extract<DatasetEvent, { type: 'DatasetDeleted' }>;
  const spec = await projectorSpecFor<Handled>(t, searchIndex, { stream: (e) => ('itemId' in e.data ? itemStream(e.data.itemId) : datasetStream(e.data.datasetId)) });
  const datasetId = '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
  const itemId = itemIdFor(datasetId, 'JKT-1');
  const ids = { itemId, datasetId, organizationId };
  const sourceId = '4d5e6f70-8192-4a3b-9c4d-5e6f708192a3';
  const listing = listingFromItemInput(
    itemInputSchema.parse({ sku: 'JKT-1', name: 'Waxed Field Jacket', brand: 'Northway', price: 180, productType: 'Jacket', tags: ['outdoor'], description: '<p>Waxed <b>cotton</b> &amp; corduroy collar</p>' }),
  );
  const hashes = listingHashes(listing);
  const labels: Labels = {
    slot: 'outerwear', family: 'jacket', gender: 'mens', age_group: 'adult', color_rgb: [60, 80, 50], color_family: 'green', colors: ['olive'],
    pattern: 'solid', material: ['cotton'], fit: 'regular', features: [], featureKeys: [], taxonomyVersion: 1,
  };
  const queued = (queuedAt = at, from?: string): ItemEvent => ({ type: 'ItemQueued', data: { ...ids, sku: 'JKT-1', kind: 'pending', listing, ...hashes, ...(from ? { sourceId: from } : {}), at: queuedAt } });
  const processed: ItemEvent = {
    type: 'ItemProcessed',
    data: { ...ids, queueVersion: 1, listing, currency: 'EUR', labels, searchText: 'jacket', searchTextVersion: 2, images: [], photoProblems: [], labeller: 'offline', pipelineVersion: 1, status: 'active', at: later },
  };
  const unprocessed = { name: null, brand: null, family: null, price: null, variants: null, body: null, document: '' };

  await spec.given([]).when(queued(at, sourceId)).then({
    search_documents: [{ item_id: itemId, dataset_id: datasetId, organization_id: organizationId, source_id: sourceId, status: 'queued', queued_at: new Date(at), ...unprocessed }],
  });
  await spec.given([queued(at, sourceId)]).when(queued(later)).then({ search_documents: [{ source_id: null, queued_at: new Date(later), status: 'queued' }] }, "a merchant's upload takes the item from the sync that brought it");
  await spec.given([queued()]).when(processed).then({
    search_documents: [{
      status: 'active', name: 'Waxed Field Jacket', brand: 'Northway', slot: 'outerwear', family: 'jacket', gender: 'mens', color_family: 'green', colors: ['olive'],
      material: ['cotton'], fit: 'regular', price: 180, currency: 'EUR', queued_at: new Date(at),
      // Weighted: name, type and family (A), labelled attributes (B), brand and tags (C), description without its markup (D).
      // (tsvector prints lexemes in order, D without a letter; no tag or entity becomes a word.)
      document: /^(?=.*'field':2A )(?=.*'jacket':[\dA,]*A )(?=.*'oliv':\d+B )(?=.*'northway':\d+C )(?=.*'outdoor':\d+C )(?=.*'corduroy':\d+ )(?!.*'(b|p|amp)':)/,
      // The answer body a search result shows: labels and stored product, without the variants the row keeps beside it.
      body: /^(?=.*"metadata":\{[^}]*"slot":"outerwear")(?=.*"product":\{"sku":"JKT-1","url":[^}]*"name":"Waxed Field Jacket")(?!.*"variants")/,
    }],
  });
  await spec.given([]).when(processed).then({ search_documents: [{ status: 'active', name: 'Waxed Field Jacket', queued_at: new Date(later) }] }, 'processed without a queued row: one is made');
  const commerce: ItemEvent = { type: 'ItemCommerceUpdated', data: { ...ids, queueVersion: 1, price: 150, currency: 'EUR', variants: [], at: later } };
  await spec.given([queued(), processed]).when(commerce).then({ search_documents: [{ price: 150, variants: [], name: 'Waxed Field Jacket', body: /"name":"Waxed Field Jacket"/ }] }, 'a new price keeps the body: the offer carries prices and variants');
  await spec.given([queued()]).when(commerce).then({ search_documents: [{ price: null, status: 'queued' }] }, 'prices wait for the item to be processed');
  const archived: ItemEvent = { type: 'ItemStatusChanged', data: { ...ids, status: 'archived', at: later } };
  await spec.given([queued(), processed]).when(archived).then({ search_documents: [{ status: 'archived' }] });
  await spec.given([queued()]).when(archived).then({ search_documents: [{ status: 'queued' }] }, 'a status change before processing stays invisible');
  await spec.given([queued(), processed]).when({ type: 'DatasetDeleted', data: { datasetId, organizationId, at: later } }).then({ search_documents: [] }, "a deleted dataset's items go");
});

t.test('data sources', async (t) => {
  type Handled = SourceEvent | Extract<DatasetEvent, { type: 'DatasetDeleted' }>;
  const spec = await projectorSpecFor<Handled>(t, dataSources, { stream: (e) => ('sourceId' in e.data ? sourceStream(e.data.sourceId) : datasetStream(e.data.datasetId)) });
  const ids = { sourceId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', datasetId: '0b9d7c1e-2f3a-4b5c-8d6e-7f8091a2b3c4', organizationId };
  const jobId = '1d2e3f4a-5b6c-4d7e-8f9a-0b1c2d3e4f5a';
  const logId = '7f6e5d4c-3b2a-4190-8f7e-6d5c4b3a2910';
  const workerId = 'worker-1';
  const stats = { retrieved: 3, added: 2, updated: 1, archived: 0, failed: 0 };
  const created: SourceEvent = {
    type: 'SourceCreated',
    data: { ...ids, sourceType: 'shopify-api', endpoint: 'https://shop.example/products.json', syncPeriod: 60, status: 'active', markets: [], defaultMarket: null, at },
  };
  const requested: SourceEvent = { type: 'SyncJobRequested', data: { ...ids, jobId, priority: 1, trigger: 'manual', at } };
  const claimed: SourceEvent = { type: 'SyncJobClaimed', data: { ...ids, jobId, workerId, logId, at } };

  await spec.given([]).when(created).then({ data_sources: [{ source_id: ids.sourceId, status: 'active', endpoint: 'https://shop.example/products.json', sync_period: 60, markets: null, default_market: null }] });
  await spec
    .given([created])
    .when({ type: 'SourceUpdated', data: { ...ids, changes: { syncPeriod: 0, status: 'inactive' }, at: later } })
    .then({ data_sources: [{ sync_period: 0, status: 'inactive', updated_at: new Date(later) }] });
  await spec.given([created]).when(requested).then({ sync_jobs: [{ job_id: jobId, status: 'pending', priority: 1, trigger: 'manual' }] });
  await spec.given([created, requested]).when(claimed).then({ sync_jobs: [{ status: 'processing', worker_id: workerId, log_id: logId }], sync_logs: [{ log_id: logId, status: 'running' }] });
  await spec
    .given([created, requested, claimed])
    .when({ type: 'SyncJobCompleted', data: { ...ids, jobId, workerId, logId, stats, at: later } })
    .then({ sync_jobs: [{ status: 'completed', stats }], sync_logs: [{ status: 'completed', stats }], data_sources: [{ last_stats: stats, sync_previous: new Date(later) }] });
  await spec
    .given([created, requested, claimed])
    .when({ type: 'SyncJobReleased', data: { ...ids, jobId, workerId, reason: 'retry', at: later } })
    .then({ sync_jobs: [{ status: 'pending', worker_id: null, retries: 1 }], sync_logs: [{ status: 'failed' }] }, 'a released job goes back to pending, its run log ends');
  await spec
    .given([created, requested, claimed])
    .when({ type: 'SyncJobFailed', data: { ...ids, jobId, workerId, logId, error: 'feed down', stats, at: later } })
    .then({ sync_jobs: [{ status: 'failed', error: 'feed down' }], sync_logs: [{ status: 'failed' }], data_sources: [{ last_stats: stats }] });
  await spec.given([created, requested]).when({ type: 'SyncJobCancelled', data: { ...ids, jobId, error: 'cancelled', at } }).then({ sync_jobs: [{ status: 'failed', error: 'cancelled' }] });
  await spec
    .given([created, requested, claimed])
    .when({ type: 'SourceDeleted', data: { ...ids, deletedJobs: 1, deletedLogs: 1, at } })
    .then({ data_sources: [], sync_jobs: [], sync_logs: [] }, 'a deleted source takes its jobs and logs');
  await spec
    .given([created, requested, claimed])
    .when({ type: 'DatasetDeleted', data: { datasetId: ids.datasetId, organizationId, at } })
    .then({ data_sources: [], sync_jobs: [], sync_logs: [] }, "a deleted dataset takes its sources' jobs and logs");
});

t.test('chats', async (t) => {
  const spec = await projectorSpecFor<ChatEvent>(t, chats, { stream: (e) => chatStream(e.data.chatId) });
  const chatId = '3c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
  const ids = { chatId, organizationId };
  const turnId = '11111111-1111-4111-8111-111111111111';
  const key = await createChatKey(spec.db, organizationId, chatId, new Date(at));
  /** The chat's messages as the row holds them (after a `then`, the database holds its events' rows). */
  const messagesOf = async (id = chatId) =>
    (await spec.db.selectFrom('chats').select('messages').where('chat_id', '=', id).executeTakeFirst())?.messages as ChatMessage[] | undefined;

  const question = userMessage('A red dress under 80');
  const placeholder = generatingTurn();
  const answer = assistantTurn('Here are two.', [], 'resolved');
  const created: ChatEvent = { type: 'ChatCreated', data: { ...ids, via: 'message', at } };
  const appended = (messages: ChatMessage[], turn: string | null = turnId, when = at): ChatEvent => ({
    type: 'ChatMessagesAppended',
    data: { ...ids, messages: seal(key, chatId, messages), count: messages.length, characters: 0, turnId: turn, at: when },
  });
  const finished = (index: number, outcome: 'resolved' | 'failed'): ChatEvent => ({
    type: 'ChatReplyFinished',
    data: outcome === 'failed'
      ? { ...ids, turnId, index, outcome, message: null, trail: null, characters: 0, at: later }
      : { ...ids, turnId, index, outcome, message: seal(key, chatId, answer), trail: seal(key, chatId, []), characters: answer.content.length, at: later },
  });

  await spec.given([]).when(created).then({
    chats: [{ chat_id: chatId, organization_id: organizationId, messages: [], created_at: new Date(at), updated_at: new Date(at), revision: '0' }],
  });
  t.same(await messagesOf(), [], 'a new chat holds no messages');

  await spec.given([created]).when(appended([question, placeholder], turnId, later)).then({ chats: [{ chat_id: chatId, updated_at: new Date(later), revision: '1' }] });
  t.same(await messagesOf(), [question, placeholder], 'appended messages are opened into the row');

  await spec.given([created, appended([question, placeholder])]).when(finished(1, 'resolved')).then({ chats: [{ updated_at: new Date(later), revision: '2' }] });
  t.same(await messagesOf(), [question, answer], "the reply takes its placeholder's place");

  await spec.given([created, appended([question, placeholder]), appended([userMessage('And shoes?'), placeholder], null)]).when(finished(1, 'failed')).then({ chats: [{ revision: '3' }] });
  t.same(await messagesOf(), [question, userMessage('And shoes?'), placeholder], 'a failed reply takes its placeholder out');

  const merchant = [{ role: 'system', content: 'Be brief.' }, userMessage('Hello'), assistantTurn('Hi!', [], 'resolved')] satisfies ChatMessage[];
  await spec
    .given([created, appended([question, placeholder])])
    .when({ type: 'ChatMessagesReplaced', data: { ...ids, messages: seal(key, chatId, merchant), count: 3, characters: 12, at: later } })
    .then({ chats: [{ revision: '2' }] });
  t.same(await messagesOf(), merchant, 'replaced messages are the only ones left');

  await spec.given([created, appended([question, placeholder]), finished(1, 'resolved')]).when({ type: 'ChatDeleted', data: { ...ids, at: later } }).then({ chats: [] }, 'a deleted chat has no row');
  t.equal(await messagesOf(), undefined);

  // A chat whose key was destroyed: what its events sealed can no longer be read.
  const shredded = '4d2e3f5a-6b7c-4d8e-9f0a-1b2c3d4e5f60';
  const shreddedKey = await createChatKey(spec.db, organizationId, shredded, new Date(at));
  const sealedBefore: ChatEvent = {
    type: 'ChatMessagesAppended',
    data: { chatId: shredded, organizationId, messages: seal(shreddedKey, shredded, [question]), count: 1, characters: question.content.length, turnId: null, at: later },
  };
  await destroyChatKey(spec.db, shredded);
  await spec
    .given([{ type: 'ChatCreated', data: { chatId: shredded, organizationId, via: 'create', at } }])
    .when(sealedBefore)
    .then({ chats: [{ chat_id: shredded, revision: '1' }] });
  t.same(await messagesOf(shredded), [], 'no text is read without its key');
  const wrongKey: ChatEvent = { ...sealedBefore, data: { ...sealedBefore.data, chatId, messages: seal(key, shredded, [question]) } };
  await spec.given([created]).when(wrongKey).then({ chats: [{ revision: '1' }] });
  t.same(await messagesOf(), [], "a value sealed for another chat does not open under this chat's key");
});
