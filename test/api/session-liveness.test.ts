// The two lookups behind POST /v1/events' checks, on a store that counts its reads and a clock the
// test moves: a session's key and organization (revocation within the TTL, never beyond 10 s; a
// deletion known for good; one read for a burst), and whose items and datasets events name (an
// owner kept for good; an id not found asked again after a few seconds; no read for what is not a uuid).
import t from 'tap';
import { SessionLiveness } from '../../api/auth/session-liveness.js';
import { CatalogueOwners } from '../../commands/catalogue-owners.js';
import type { EventStore } from '../../infra/eventstore/port.js';

const organizationId = '6c8a2a56-7a43-4c55-9a8e-1b8c2f1f0a01';
const keyId = 'key-1';
const at = '2026-01-01T00:00:00.000Z';

function countingStore() {
  const streams = new Map<string, Array<{ type: string; data: Record<string, unknown> }>>();
  const reads: string[] = [];
  const store = {
    readStream: async (streamId: string, options: { maxCount?: number } = {}) => {
      reads.push(streamId);
      await new Promise((resolve) => setImmediate(resolve));
      return (streams.get(streamId) ?? []).slice(0, options.maxCount ?? Infinity);
    },
  } as unknown as EventStore;
  const append = (streamId: string, type: string, data: Record<string, unknown>) => streams.set(streamId, [...(streams.get(streamId) ?? []), { type, data }]);
  return { store, reads, append };
}

t.test('a session is live while its key and organization are; a deletion shows within the TTL and is kept', async (t) => {
  const { store, reads, append } = countingStore();
  append(`organization-${organizationId}`, 'OrganizationCreated', { organizationId, name: 'Acme', reportingTimezone: 'UTC', at });
  append(`apikey-${keyId}`, 'ApiKeyCreated', { keyId, organizationId, name: 'Widget', primary: false, at });
  let clock = 0;
  const liveness = new SessionLiveness(store, { ttlMs: 5_000, now: () => clock });
  const session = { organizationId, keyId };

  t.same(await Promise.all(Array.from({ length: 20 }, () => liveness.isLive(session))), Array(20).fill(true), 'a burst');
  t.equal(reads.length, 2, 'reads the key and the organization once for the burst');
  append(`apikey-${keyId}`, 'ApiKeyDeleted', { keyId, organizationId, at });
  clock = 4_999;
  t.equal(await liveness.isLive(session), true, 'still trusted within the TTL');
  clock = 5_000;
  t.equal(await liveness.isLive(session), false, 'refused once the TTL is over');
  const readsAfterDeath = reads.length;
  clock = 1e9;
  t.equal(await liveness.isLive(session), false);
  t.equal(reads.filter((r) => r.startsWith('apikey-')).length, 2, 'a deleted key is not read again');
  t.ok(reads.length <= readsAfterDeath + 1, 'only the organization is read again');

  t.equal(await liveness.isLive({ organizationId, keyId: null }), true, 'the demo key and old tokens name no key: the organization alone');
  t.equal(await liveness.isLive({ organizationId, keyId: 'never-created' }), false, 'a key with no stream');
  append(`apikey-other-org`, 'ApiKeyCreated', { keyId: 'other-org', organizationId: '99999999-7a43-4c55-9a8e-1b8c2f1f0a01', at });
  t.equal(await liveness.isLive({ organizationId, keyId: 'other-org' }), false, "another organization's key");

  append(`organization-${organizationId}`, 'OrganizationDeleted', { organizationId, at });
  clock += 5_000;
  t.equal(await liveness.isLive({ organizationId, keyId: null }), false, 'the organization deleted');
});

t.test('the TTL is never longer than 10 s', async (t) => {
  const { store, reads, append } = countingStore();
  append(`organization-${organizationId}`, 'OrganizationCreated', { organizationId, name: 'Acme', reportingTimezone: 'UTC', at });
  let clock = 0;
  const liveness = new SessionLiveness(store, { ttlMs: 60_000, now: () => clock });
  await liveness.isLive({ organizationId, keyId: null });
  clock = 10_000;
  await liveness.isLive({ organizationId, keyId: null });
  t.equal(reads.length, 2, 'asked for 60 s, read again at 10 s');
});

t.test('owners of items and datasets: from the first event of their streams, kept; not found asked again later', async (t) => {
  const { store, reads, append } = countingStore();
  const item = '0b9d7c1e-2f3a-4b5c-8d6e-7f8091a2b3c4';
  const dataset = '1b9d7c1e-2f3a-4b5c-8d6e-7f8091a2b3c4';
  const later = '2b9d7c1e-2f3a-4b5c-8d6e-7f8091a2b3c4';
  append(`item-${item}`, 'ItemQueued', { itemId: item, datasetId: dataset, organizationId });
  append(`dataset-${dataset}`, 'DatasetCreated', { datasetId: dataset, organizationId });
  let clock = 0;
  const owners = new CatalogueOwners(store, { missTtlMs: 5_000, now: () => clock });
  const first = await owners.find([item, later, 'item-1', 'constructor', item], [dataset]);
  t.same([...first.items], [[item, { organizationId, datasetId: dataset }]]);
  t.same([...first.datasets], [[dataset, organizationId]]);
  t.same(reads.sort(), [`dataset-${dataset}`, `item-${item}`, `item-${later}`].sort(), 'one read each; nothing read for what is not a uuid');
  append(`item-${later}`, 'ItemQueued', { itemId: later, datasetId: dataset, organizationId });
  reads.length = 0;
  const again = await owners.find([item, later], [dataset]);
  t.same([...again.items.keys()], [item], 'an id not found is answered from memory for a while');
  t.same(reads, [], 'no reads: owners kept, the miss remembered');
  clock = 5_000;
  t.same([...(await owners.find([later], [])).items.keys()], [later], 'and read again after it');
});
