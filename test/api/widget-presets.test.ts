import type { LightMyRequestResponse } from 'fastify';
import t, { type Test } from 'tap';
import { createWidgetPreset } from '../../commands/widget-presets.js';
import { widgetPresetStream } from '../../domain/widget-preset/events.js';
import { sharedTestService, type TestService } from '../support/service.js';

const PRESETS = '/v1/widget/presets';

const body = {
  name: 'Summer',
  buttonLabel: 'Ask a stylist',
  buttonColor: '#111',
  buttonHoverColor: '#2228',
  buttonTextColor: '#FFFFFF',
  typingDotColor: '#aabbccdd',
  accentColor: '#a1b2c3',
  accentHoverColor: '#b2c3d4',
  mutedTextColor: '#777',
  primaryTextColor: '#000',
  pageColor: '#fff',
  surfaceColor: '#fafafa',
  borderColor: '#e0e0e0',
  inputColor: '#f5f5f5',
  footerColor: '#eee',
};

const options = {
  button: { label: 'Ask a stylist', color: '#111', hoverColor: '#2228', textColor: '#FFFFFF' },
  widget: {
    typingDotColor: '#aabbccdd',
    accentColor: '#a1b2c3',
    accentHoverColor: '#b2c3d4',
    mutedTextColor: '#777',
    primaryTextColor: '#000',
    pageColor: '#fff',
    surfaceColor: '#fafafa',
    borderColor: '#e0e0e0',
    inputColor: '#f5f5f5',
    footerColor: '#eee',
    roundness: 100,
  },
};

const HEX_MESSAGE = (field: string) => `${field} must be a hex colour: #rgb, #rgba, #rrggbb or #rrggbbaa.`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface Shop {
  service: TestService;
  organizationId: string;
  privateKey: string;
  publicKey: string;
  create(payload?: unknown, headers?: Record<string, string>, key?: string): Promise<LightMyRequestResponse>;
  get(url: string, key?: string): Promise<LightMyRequestResponse>;
}

/** Sends the request with no body at all. */
const NO_BODY = Symbol('no body');

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

const shopOf = async (service: TestService, name: string): Promise<Shop> => {
  const { organizationId, privateKey, publicKey } = await service.cli(['org', 'create', '--name', name, '--json']);
  return {
    service,
    organizationId,
    privateKey,
    publicKey,
    create: (payload = body, headers = {}, key = privateKey) =>
      service.app.inject({
        method: 'POST',
        url: PRESETS,
        headers: { ...bearer(key), 'content-type': 'application/json', ...headers },
        ...(payload === NO_BODY ? {} : { payload: JSON.stringify(payload) }),
      }),
    get: (url, key = privateKey) => service.app.inject({ method: 'GET', url, headers: bearer(key) }),
  };
};

const open = async (t: Test, name = 'Acme Apparel'): Promise<Shop> => shopOf(await sharedTestService(), name);

t.test('create answers 201 with the preset as document 1 shows it, fully round by default', async (t) => {
  const shop = await open(t);
  const response = await shop.create();
  t.equal(response.statusCode, 201);
  const { preset } = response.json();
  t.match(preset.id, UUID);
  t.match(preset.created, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  t.same(preset, { id: preset.id, name: 'Summer', options, created: preset.created, modified: preset.created });
  t.same(Object.keys(preset), ['id', 'name', 'options', 'created', 'modified'], 'nothing else, in document order');

  const square = await shop.create({ ...body, name: '  Square  ', roundness: 0 });
  t.equal(square.statusCode, 201);
  t.equal(square.json().preset.name, 'Square', 'names are stored trimmed');
  t.equal(square.json().preset.options.widget.roundness, 0);
});

t.test('success carries the rate-limit headers of document 1', async (t) => {
  const shop = await open(t);
  for (const [response, resource] of [
    [await shop.create(), 'api.v1.widget.presets.create'],
    [await shop.get(PRESETS), 'api.v1.widget.presets.list'],
  ] as const) {
    t.equal(response.headers['x-ratelimit-resource'], resource);
    t.equal(response.headers['x-ratelimit-quota-limit'], '100000');
    t.equal(response.headers['x-ratelimit-quota-remaining'], '99999');
    t.match(response.headers['x-ratelimit-quota-reset'], /^\d+$/);
    t.equal(response.headers['x-ratelimit-rpm-limit'], '600');
    t.equal(response.headers['x-ratelimit-rpm-remaining'], '599');
    t.match(response.headers['x-ratelimit-rpm-reset'], /^\d+$/);
  }
});

t.test('list: the organization’s own presets, oldest first; retrieve: one of them', async (t) => {
  const shop = await open(t);
  const other = await shopOf(shop.service, 'Other Shop');
  const empty = await shop.get(PRESETS);
  t.equal(empty.statusCode, 200);
  t.same(empty.json(), { presets: [] });

  const made = [];
  for (const name of ['First', 'Second', 'Third']) made.push((await shop.create({ ...body, name })).json().preset);
  await other.create({ ...body, name: 'Not yours' });

  const list = await shop.get(PRESETS);
  t.equal(list.statusCode, 200);
  t.same(list.json(), { presets: made });

  const one = await shop.get(`${PRESETS}/${made[1].id}`);
  t.equal(one.statusCode, 200);
  t.same(one.json(), { preset: made[1] });
  t.equal(one.headers['x-ratelimit-resource'], 'api.v1.widget.presets.retrieve');
});

t.test('a rebuilt read model lists the same presets in the same order', async (t) => {
  const shop = await open(t);
  for (const name of ['First', 'Second', 'Third']) await shop.create({ ...body, name });
  const before = (await shop.get(PRESETS)).json();
  await shop.service.cli(['projections', 'rebuild', 'widget_presets', '--json']);
  t.same((await shop.get(PRESETS)).json(), before);
});

t.test('retrieve: 404 for an unknown id, a malformed one, and another organization’s preset', async (t) => {
  const shop = await open(t);
  const other = await shopOf(shop.service, 'Other Shop');
  const theirs = (await other.create()).json().preset.id;
  for (const presetId of ['0d4c9b8a-7f6e-4d5c-8b4a-3f2e1d0c9b8a', 'not-a-uuid', theirs]) {
    const response = await shop.get(`${PRESETS}/${presetId}`);
    t.equal(response.statusCode, 404, presetId);
    t.same(response.json(), { error: `Widget preset not found: ${presetId}` });
  }
  t.equal((await other.get(`${PRESETS}/${theirs}`)).statusCode, 200, 'its owner still sees it');
});

t.test('a list stops at 200 presets, the oldest ones', async (t) => {
  const shop = await open(t);
  const { eventStore, projections } = shop.service.platform;
  const meta = (index: number) => ({
    now: new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString(),
    actor: { kind: 'system' as const, id: 'test' },
    correlationId: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
  });
  let last;
  // Created out of order: the list follows `created`, not the order the events were appended in.
  for (let index = 201; index >= 1; index--) {
    last = await createWidgetPreset(eventStore, { organizationId: shop.organizationId, fields: { ...body, name: `Preset ${index}` } }, meta(index));
  }
  await projections.waitFor(last!.position, ['widget_presets']);
  const { presets } = (await shop.get(PRESETS)).json();
  t.equal(presets.length, 200);
  t.equal(presets[0].name, 'Preset 1');
  t.equal(presets[199].name, 'Preset 200');
});

t.test('one wrong field: 422 with its own message', async (t) => {
  const shop = await open(t);
  const { name: _name, ...nameless } = body;
  const cases: Array<[unknown, string, string]> = [
    [nameless, 'name', 'name is required.'],
    [{ ...body, name: 'x'.repeat(101) }, 'name', 'name must be at most 100 characters.'],
    [{ ...body, name: '   ' }, 'name', 'name must not be empty.'],
    [{ ...body, buttonLabel: 'x'.repeat(41) }, 'buttonLabel', 'buttonLabel must be at most 40 characters.'],
    [{ ...body, buttonLabel: 42 }, 'buttonLabel', 'buttonLabel must be a string.'],
    [{ ...body, pageColor: 'white' }, 'pageColor', HEX_MESSAGE('pageColor')],
    [{ ...body, pageColor: '#abcde' }, 'pageColor', HEX_MESSAGE('pageColor')],
    [{ ...body, footerColor: null }, 'footerColor', 'footerColor is required.'],
    [{ ...body, roundness: 101 }, 'roundness', 'roundness must be an integer from 0 to 100.'],
    [{ ...body, roundness: -1 }, 'roundness', 'roundness must be an integer from 0 to 100.'],
    [{ ...body, roundness: 12.5 }, 'roundness', 'roundness must be an integer from 0 to 100.'],
    [{ ...body, roundness: '50' }, 'roundness', 'roundness must be an integer from 0 to 100.'],
  ];
  for (const [payload, path, message] of cases) {
    const response = await shop.create(payload);
    t.equal(response.statusCode, 422, message);
    t.same(response.json(), { error: message, details: [{ path, message }] });
  }
  t.same((await shop.get(PRESETS)).json(), { presets: [] }, 'nothing was created');
});

t.test('several wrong fields: 422 Validation failed. with details, in body order', async (t) => {
  const shop = await open(t);
  const { name: _name, ...nameless } = body;
  const response = await shop.create({ ...nameless, buttonLabel: 'x'.repeat(41), accentColor: 'blue', roundness: 500 });
  t.equal(response.statusCode, 422);
  t.same(response.json(), {
    error: 'Validation failed.',
    details: [
      { path: 'name', message: 'name is required.' },
      { path: 'buttonLabel', message: 'buttonLabel must be at most 40 characters.' },
      { path: 'accentColor', message: HEX_MESSAGE('accentColor') },
      { path: 'roundness', message: 'roundness must be an integer from 0 to 100.' },
    ],
  });
  const empty = await shop.create({});
  t.equal(empty.json().error, 'Validation failed.');
  t.equal(empty.json().details.length, 15, 'every required field named');
});

t.test('a missing body is 400 Request body must be a JSON object.', async (t) => {
  const shop = await open(t);
  for (const payload of [NO_BODY, [], 'text', null]) {
    const response = await shop.create(payload);
    t.equal(response.statusCode, 400, String(payload));
    t.same(response.json(), { error: 'Request body must be a JSON object.' });
  }
});

t.test('a key scoped without "widget" gets 403 and is not counted', async (t) => {
  const shop = await open(t);
  const scoped = await shop.service.cli(['key', 'create', '--org', shop.organizationId, '--name', 'styling only', '--scopes', 'styling', '--json']);
  const widget = await shop.service.cli(['key', 'create', '--org', shop.organizationId, '--name', 'widget', '--scopes', 'widget', '--json']);

  for (const refused of [await shop.create(body, {}, scoped.privateKey), await shop.get(PRESETS, scoped.privateKey)]) {
    t.equal(refused.statusCode, 403);
    t.same(refused.json(), { error: 'This key does not have the "widget" scope.' });
    t.match(refused.headers['x-ratelimit-resource'], /^api\.v1\.widget\.presets\.(create|list)$/);
    t.notOk(refused.headers['x-ratelimit-quota-remaining'], 'no counters shown for a refused key');
  }

  const allowed = await shop.create(body, {}, widget.privateKey);
  t.equal(allowed.statusCode, 201, 'a key with the widget scope gets through');
  t.equal(allowed.headers['x-ratelimit-quota-remaining'], '99999', 'the refused request used no quota');
  t.equal(allowed.headers['x-ratelimit-rpm-remaining'], '599', 'nor a place in the minute');
});

t.test('a public key is refused with 401', async (t) => {
  const shop = await open(t);
  for (const response of [await shop.create(body, {}, shop.publicKey), await shop.get(PRESETS, shop.publicKey)]) {
    t.equal(response.statusCode, 401);
    t.same(response.json(), { error: 'Authentication failed: public key provided instead of a private key.' });
  }
});

t.test('Idempotency-Key: a replay answers the same preset and creates no second one', async (t) => {
  const shop = await open(t);
  const first = await shop.create(body, { 'idempotency-key': 'create-summer' });
  t.equal(first.statusCode, 201);
  const again = await shop.create(body, { 'idempotency-key': 'create-summer' });
  t.equal(again.statusCode, 201);
  t.equal(again.headers['idempotent-replayed'], 'true');
  t.same(again.json(), first.json());
  t.same((await shop.get(PRESETS)).json(), { presets: [first.json().preset] });
});

t.test('a retry that slips past the key table appends nothing and names the same preset', async (t) => {
  const shop = await open(t);
  const { eventStore } = shop.service.platform;
  const meta = { now: new Date().toISOString(), actor: { kind: 'system' as const, id: 'test' }, correlationId: '7e0c8a9b-1d2f-4e3a-9b8c-7d6e5f4a3b2c' };
  const input = { organizationId: shop.organizationId, fields: body };
  const first = await createWidgetPreset(eventStore, input, meta);
  const retry = await createWidgetPreset(eventStore, input, { ...meta, now: new Date(Date.now() + 1000).toISOString() });
  t.equal(retry.presetId, first.presetId);
  t.same(retry.position, first.position, 'the read model is awaited at the first attempt’s event');
  t.equal((await eventStore.readStream(widgetPresetStream(first.presetId))).length, 1);
});
