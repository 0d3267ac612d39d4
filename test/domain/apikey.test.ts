import { randomBytes, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import t from 'tap';
import {
  apiKeyDecider,
  checkPrivateAccess,
  checkPublicAccess,
  ipRange,
  website,
  type ApiKeyEvent,
  type KeyCredentials,
} from '../../domain/apikey/index.js';
import { bodyOf, keyBody, lookupOf, organizationOf, readAuthorization, LOOKUP_LENGTH } from '../../domain/apikey/key-format.js';
import { Conflict, Invalid, NotFound } from '../../domain/errors.js';
import { issueKeyPair, verifySecret } from '../../commands/credentials.js';
import { specFor, testMeta } from '../support/decider.js';

const spec = specFor(apiKeyDecider);
const keyId = '1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d';
const organizationId = '6c8a2a56-7a43-4c55-9a8e-1b8c2f1f0a01';
const credentials: KeyCredentials = { publicKey: 'sgpt-pk-x', publicLookup: 'a', privateLookup: 'b', secretHash: 'c' };
const rotatedCredentials: KeyCredentials = { publicKey: 'sgpt-pk-y', publicLookup: 'd', privateLookup: 'e', secretHash: 'f' };
const created = (primary = false): ApiKeyEvent => ({
  type: 'ApiKeyCreated',
  data: { keyId, organizationId, name: 'Storefront', primary, credentials, publicAccess: { mode: 'everyone' }, privateAccess: { mode: 'everyone' }, scopes: null, at: testMeta.now },
});
const create = (over: Partial<Extract<Parameters<typeof apiKeyDecider.decide>[0], { type: 'CreateApiKey' }>['data']> = {}) =>
  ({
    type: 'CreateApiKey',
    data: { keyId, organizationId, name: ' Storefront ', credentials, publicAccess: { mode: 'everyone' }, privateAccess: { mode: 'everyone' }, scopes: null, ...over },
  }) as const;

t.test('creating a key records its credentials, access rules and scopes, normalised', async (t) => {
  spec(t, []).when(create()).then([created()]);
  spec(t, [])
    .when(
      create({
        publicAccess: { mode: 'websites', websites: ['Store.COM', '*.store.com', 'store.com'], allowLocalhost: true, allowApps: false },
        privateAccess: { mode: 'ips', ips: [{ cidr: '10.0.0.0/8', note: ' office ' }, { cidr: '2001:DB8::1', note: '' }] },
        scopes: ['widget', 'organization', 'widget'],
      }),
    )
    .then([
      {
        type: 'ApiKeyCreated',
        data: {
          keyId,
          organizationId,
          name: 'Storefront',
          primary: false,
          credentials,
          publicAccess: { mode: 'websites', websites: ['store.com', '*.store.com'], allowLocalhost: true, allowApps: false },
          privateAccess: { mode: 'ips', ips: [{ cidr: '10.0.0.0/8', note: 'office' }, { cidr: '2001:db8::1/128', note: '' }] },
          scopes: ['organization', 'widget'],
          at: testMeta.now,
        },
      },
    ]);
});

t.test('bad names, websites, ranges and scopes are refused', async (t) => {
  spec(t, []).when(create({ name: '  ' })).thenThrows(Invalid, 'Key name is required.');
  spec(t, []).when(create({ publicAccess: { mode: 'websites', websites: ['https://store.com/x'], allowLocalhost: false, allowApps: false } })).thenThrows(Invalid);
  spec(t, []).when(create({ privateAccess: { mode: 'ips', ips: [{ cidr: '10.0.0.0/33', note: '' }] } })).thenThrows(Invalid);
  spec(t, []).when(create({ scopes: ['datasets'] })).thenThrows(Invalid, 'Unknown scope: datasets. Scopes: widget, styling, organization, analytics, chat.');
  spec(t, [created()]).when(create()).thenThrows(Conflict);
});

t.test('rotation needs the key name typed; it replaces the credentials and keeps the rest', async (t) => {
  spec(t, [created()])
    .when({ type: 'RotateApiKey', data: { keyId, confirmName: 'Storefront', credentials: rotatedCredentials } })
    .then([{ type: 'ApiKeyRotated', data: { keyId, organizationId, credentials: rotatedCredentials, at: testMeta.now } }]);
  spec(t, [created()]).when({ type: 'RotateApiKey', data: { keyId, confirmName: 'storefront', credentials: rotatedCredentials } }).thenThrows(Invalid);
  spec(t, []).when({ type: 'RotateApiKey', data: { keyId, confirmName: 'Storefront', credentials: rotatedCredentials } }).thenThrows(NotFound);
  const state = [created(), { type: 'ApiKeyRotated', data: { keyId, organizationId, credentials: rotatedCredentials, at: 'later' } } as ApiKeyEvent].reduce(
    apiKeyDecider.evolve,
    apiKeyDecider.initialState,
  );
  t.same([state?.name, state?.credentials, state?.publicAccess], ['Storefront', rotatedCredentials, { mode: 'everyone' }]);
});

t.test('a key is deleted once; the primary key cannot be deleted', async (t) => {
  const deleted: ApiKeyEvent = { type: 'ApiKeyDeleted', data: { keyId, organizationId, at: testMeta.now } };
  spec(t, [created()]).when({ type: 'DeleteApiKey', data: { keyId } }).then([deleted]);
  spec(t, [created(), deleted]).when({ type: 'DeleteApiKey', data: { keyId } }).thenThrows(NotFound);
  spec(t, [created(true)]).when({ type: 'DeleteApiKey', data: { keyId } }).thenThrows(Conflict, 'The primary key cannot be deleted; rotate it instead.');
});

t.test('issued keys have three segments, carry their organization and verify only their own secret', async (t) => {
  const serverSecret = 'x'.repeat(32);
  const pair = issueKeyPair(keyId, organizationId, serverSecret);
  t.match(pair.publicKey, /^sgpt-pk-[0-9A-Za-z]{60}$/);
  t.match(pair.privateKey, /^sgpt-sk-[0-9A-Za-z]{60}::[0-9A-Za-z]{33}$/);
  t.equal(pair.privateKey.split('-').length, 3);
  const presented = readAuthorization(`Bearer ${pair.privateKey}`, 'sgpt-pk-demo');
  if (presented.kind !== 'private') throw new Error('not read as a private key');
  t.equal(lookupOf(presented.body), pair.credentials.privateLookup);
  t.equal(organizationOf(presented.body), organizationId);
  t.ok(verifySecret(serverSecret, presented.secret!, pair.credentials.secretHash));
  t.notOk(verifySecret('y'.repeat(32), presented.secret!, pair.credentials.secretHash), 'another server secret');
  t.notOk(verifySecret(serverSecret, presented.secret!.slice(1), pair.credentials.secretHash));
  t.not(pair.credentials.secretHash.includes(presented.secret!), 'the secret itself is not stored');
  const again = issueKeyPair(keyId, organizationId, serverSecret);
  t.not(again.credentials.publicLookup, pair.credentials.publicLookup, 'a rotation gives new lookups');
});

t.test('property: the organization part of a body reads back, and any change to it is detected', async () => {
  fc.assert(
    fc.property(fc.uuid(), fc.uuid(), fc.uint8Array({ minLength: 8, maxLength: 8 }), fc.nat(26), fc.constantFrom(...'0123456789abcXYZ'), (key, org, nonce, at, char) => {
      const { body, lookup } = keyBody(key, org, nonce);
      if (organizationOf(body) !== org || lookupOf(body) !== lookup) return false;
      const index = LOOKUP_LENGTH + at;
      if (body[index] === char) return true;
      const damaged = body.slice(0, index) + char + body.slice(index + 1);
      return organizationOf(damaged) !== org;
    }),
  );
});

t.test('property: comparing with bodyOf accepts exactly the bodies organizationOf reads as the organization', async () => {
  fc.assert(
    fc.property(fc.uuid(), fc.uuid(), fc.uint8Array({ minLength: 8, maxLength: 8 }), fc.nat(26), fc.constantFrom(...'0123456789abcXYZ'), (key, org, nonce, at, char) => {
      const { body, lookup } = keyBody(key, org, nonce);
      const index = LOOKUP_LENGTH + at;
      const damaged = body.slice(0, index) + char + body.slice(index + 1);
      return [body, damaged].every((candidate) => (organizationOf(candidate) === org) === (candidate === bodyOf(lookup, org)));
    }),
  );
});

t.test('property: random Authorization headers never throw and never read as a key of ours', async () => {
  const { body } = keyBody(randomUUID(), randomUUID(), randomBytes(8));
  fc.assert(
    fc.property(fc.oneof(fc.string(), fc.string().map((s) => `Bearer ${s}`), fc.string().map((s) => `Bearer sgpt-sk-${s}`), fc.string().map((s) => `Bearer sgpt-pk-${s}`)), (header) => {
      const presented = readAuthorization(header, 'sgpt-pk-demo');
      if (presented.kind === 'public' || presented.kind === 'private') {
        const part = lookupOf(presented.body);
        return part === null || organizationOf(presented.body) === null || presented.body === body;
      }
      return true;
    }),
    { numRuns: 2000 },
  );
});

t.test('reading the header: the three-segment rule and the demo key', async (t) => {
  const read = (h: string | undefined) => readAuthorization(h, 'sgpt-pk-demo').kind;
  t.equal(read(undefined), 'missing');
  t.equal(read(''), 'missing');
  t.equal(read('Bearer '), 'missing');
  t.equal(read('Basic abc'), 'missing');
  t.equal(read('Bearer sgpt-pk'), 'missing');
  t.equal(read('Bearer sgpt-pk-a-b'), 'missing');
  t.equal(read('Bearer sgpt-pk-demo'), 'demo');
  t.equal(read('Bearer sgpt-pk-abc'), 'public');
  t.equal(read('Bearer sgpt-sk-abc'), 'private');
  t.equal(read('Bearer foo-bar-baz'), 'other');
});

t.test('websites: exact domains, wildcard subdomains, localhost and apps', async (t) => {
  const access = { mode: 'websites' as const, websites: ['store.com', '*.shop.com'].map(website), allowLocalhost: false, allowApps: false };
  t.equal(checkPublicAccess(access, 'https://store.com'), null);
  t.equal(checkPublicAccess(access, 'https://eu.shop.com'), null);
  t.equal(checkPublicAccess(access, 'https://shop.com'), null);
  t.same(checkPublicAccess(access, 'https://www.store.com'), { kind: 'website', origin: 'https://www.store.com' });
  t.same(checkPublicAccess(access, 'https://evilshop.com'), { kind: 'website', origin: 'https://evilshop.com' });
  t.same(checkPublicAccess(access, 'http://localhost:5173'), { kind: 'website', origin: 'http://localhost:5173' });
  t.equal(checkPublicAccess({ ...access, allowLocalhost: true }, 'http://localhost:5173'), null);
  t.same(checkPublicAccess(access, undefined), { kind: 'no-website' });
  t.equal(checkPublicAccess({ ...access, allowApps: true }, undefined), null);
  t.same(checkPublicAccess({ mode: 'service-only' }, 'https://store.com'), { kind: 'service-only' });
});

t.test('IP ranges: v4, v6, single addresses and v4-mapped clients', async (t) => {
  const access = { mode: 'ips' as const, ips: ['10.1.0.0/16', '2001:db8::/32', '192.0.2.7'].map((cidr) => ({ cidr: ipRange(cidr), note: '' })) };
  t.equal(checkPrivateAccess(access, '10.1.2.3'), null);
  t.equal(checkPrivateAccess(access, '::ffff:10.1.2.3'), null);
  t.equal(checkPrivateAccess(access, '2001:db8::5'), null);
  t.equal(checkPrivateAccess(access, '192.0.2.7'), null);
  t.same(checkPrivateAccess(access, '192.0.2.8'), { kind: 'address', address: '192.0.2.8' });
  t.same(checkPrivateAccess(access, '::ffff:10.2.0.1'), { kind: 'address', address: '10.2.0.1' });
  for (const bad of ['10.0.0.0/8/1', '300.1.1.1', '10.0.0.0/-1', 'localhost', '10.0.0.0/ 8']) t.throws(() => ipRange(bad), Invalid, bad);
});
