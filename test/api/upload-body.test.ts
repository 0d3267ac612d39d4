// Issue 28, point 4: the item upload reads its body entry by entry, as a store's feed is read, and
// answers exactly as a body read whole would: every body refused before the route's own checks
// gets the answer any other JSON route gives it; a body split anywhere reads the same; a keyed
// request hashes as its whole body would. (What reading holds: upload-body-memory.test.ts.)
import { Readable } from 'node:stream';
import t from 'tap';
import { requestHash } from '../../api/plugins/idempotency.js';
import { UPLOAD_LIMIT } from '../../api/routes/item-upload.js';
import { sharedTestService } from '../support/service.js';

const service = await sharedTestService();
const org = await service.cli(['org', 'create', '--name', 'Body Boutique', '--json']);
const headers = { authorization: `Bearer ${org.privateKey}`, 'content-type': 'application/json' };
const created = await service.app.inject({ method: 'POST', url: '/v1/datasets', headers, payload: { name: 'Main', config: { storeUrl: 'https://body.example.com' } } });
const datasetId = created.json().datasetId as string;
await service.app.inject({ method: 'PATCH', url: `/v1/datasets/${datasetId}/activate`, headers });
const uploadUrl = `/v1/datasets/${datasetId}/items/upload`;
const post = (url: string, payload: string | Readable, extra: Record<string, string> = {}) => service.app.inject({ method: 'POST', url, headers: { ...headers, ...extra }, payload });

const item = (sku: string, extra: object = {}) => ({ sku, name: `Linen Shirt ${sku}`, price: 40, ...extra });
const nested = (levels: number): unknown => (levels === 0 ? 'x' : [nested(levels - 1)]);
const json = JSON.stringify;

t.test('a body refused before the route looks at it gets the answer any JSON route gives it', async (t) => {
  const bodies: Record<string, string> = {
    empty: '',
    blank: ' \n\t\u00a0',
    'a byte-order mark alone': '\uFEFF',
    'a byte-order mark first': `\uFEFF${json({ items: [item('A')] })}`,
    'a byte-order mark after the first bracket': `{\uFEFF"items":[]}`,
    'a byte-order mark last': `${json({ items: [item('A')] })}\uFEFF`,
    'cut short': '{"items":[{"sku":"A","name":"x"}',
    'a trailing comma': `{"items":[${json(item('A'))},]}`,
    'two documents': `${json({ items: [item('A')] })} {}`,
    'a leading zero': '{"items":[{"sku":"A","name":"x","price":01}]}',
    'an array': json([item('A')]),
    'a string': '"items"',
    null: 'null',
    'a NUL in a root string': '"\\u0000"',
    'an array too deep': json(nested(40)),
    'an entry too deep': json({ items: [item('A'), { ...item('B'), x: nested(31) }] }),
    'a NUL in an entry': json({ items: [item('A', { description: 'a\u0000b' })] }),
    'a lone surrogate in an entry': `{"items":[{"sku":"A","name":"x","description":"\\udc00"}]}`,
    'a NUL in a key of an entry': '{"items":[{"sku":"A","name":"x","k\\u0000":1}]}',
    // Two problems: the answer names the one JSON.parse's tree shows bodyProblem first (the root's keys, then its values from the last).
    'a NUL, then too deep': json({ items: [item('A', { description: '\u0000' }), { ...item('B'), x: nested(40) }] }),
    'too deep, then a NUL': json({ items: [{ ...item('B'), x: nested(40) }, item('A', { description: '\u0000' })] }),
    'a NUL in a root key, after a deep entry': json({ items: [{ ...item('B'), x: nested(40) }], 'a\u0000': 1 }),
    'too deep elsewhere, then a NUL in an entry': json({ other: nested(40), items: [item('A', { description: '\u0000' })] }),
    'a NUL in an entry, then too deep elsewhere': json({ items: [item('A', { description: '\u0000' })], other: nested(40) }),
    'integer keys come first': `{"b":"\\u0000","1":${json(nested(40))},"items":[]}`,
  };
  for (const [name, body] of Object.entries(bodies)) {
    const upload = await post(uploadUrl, body);
    const elsewhere = await post('/v1/datasets', body);
    t.equal(elsewhere.statusCode, 400, `${name}: refused by any JSON route`);
    t.same({ status: upload.statusCode, body: upload.json() }, { status: elsewhere.statusCode, body: elsewhere.json() }, name);
  }
});

t.test("the route's own checks see the body as it was sent", async (t) => {
  const shape = `Send items (ItemInput objects) or products (objects of a store's products.json): an array of 1 to ${UPLOAD_LIMIT} entries.`;
  const answer = async (body: string) => {
    const response = await post(uploadUrl, body);
    return { status: response.statusCode, error: response.json().error as string | undefined, skus: (response.json().queued ?? []).map((q: { sku: string }) => q.sku) };
  };
  t.same(await answer('{}'), { status: 422, error: shape, skus: [] });
  t.same(await answer(json({ items: 'x' })), { status: 422, error: shape, skus: [] });
  t.same(await answer(json({ items: [item('A')], products: 'x' })), { status: 422, error: shape, skus: [] });
  t.same(await answer(json({ items: [item('A')], products: [] })), { status: 422, error: 'Send items or products, not both.', skus: [] });
  t.same(await answer(json({ items: Array.from({ length: UPLOAD_LIMIT + 1 }, (_, i) => item(`N${i}`)) })), { status: 422, error: shape, skus: [] });
  // A key sent twice counts as its last value, as JSON.parse reads it.
  t.same(await answer(`{"items":[${json(item('A', { description: '\u0000' }))}],"items":[${json(item('TWICE'))}]}`), { status: 202, error: undefined, skus: ['TWICE'] });
  t.same(await answer(`{"items":[${json(item('A'))}],"items":[]}`), { status: 422, error: shape, skus: [] });
  // After an escape the tokenizer decodes a new run of bytes, whose decoder would drop a leading byte-order mark.
  t.same(await answer(`{"note":"\uFEFFkept","items":[{"sku":"A-\\u0041\uFEFF-B","name":"x"}]}`), { status: 202, error: undefined, skus: ['A-A\uFEFF-B'] }, 'a byte-order mark inside a string is text');
  const products = await post(uploadUrl, json({ products: [{ id: 7, title: 'Shirt', handle: 'shirt' }, { id: 8 }] }));
  t.equal(products.statusCode, 202);
  t.same(products.json().failures, [{ index: 1, sku: '8', error: 'title: Invalid input: expected string, received undefined' }]);
});

t.test('a body split anywhere reads the same: its bytes one at a time, multi-byte characters cut in two', async (t) => {
  const body = json({ items: [item('Ä€😀-1', { description: 'Größe M — 😀'.repeat(50) }), item('Ä€😀-2')] });
  const whole = await post(uploadUrl, body);
  t.equal(whole.statusCode, 202);
  const bytes = Buffer.from(body);
  const split = await post(uploadUrl, Readable.from((function* () {
    for (let i = 0; i < bytes.length; i++) yield bytes.subarray(i, i + 1);
  })()), { 'content-length': String(bytes.length) });
  t.equal(split.statusCode, 202);
  t.same(split.json().queued.map((q: { sku: string }) => q.sku), ['Ä€😀-1', 'Ä€😀-2']);
  t.same(split.json().summary, { total: 2, queued: 0, failed: 0, unchanged: 2 }, 'the same listings as the whole body made');
});

t.test("an Idempotency-Key request hashes as its whole body would: retried in any key order it replays, changed it is refused", async (t) => {
  const entries = [item('KEY-1', { tags: ['a', 'b'], variants: [{ sku: 'KEY-1-M', price: 40 }] }), item('KEY-2')];
  const body = json({ items: entries });
  const first = await post(uploadUrl, body, { 'idempotency-key': 'upload-1' });
  t.equal(first.statusCode, 202);
  const row = await service.platform.database.db.selectFrom('idempotency_keys').select('request_hash').where('organization_id', '=', org.organizationId).where('idempotency_key', '=', 'upload-1').executeTakeFirstOrThrow();
  t.equal(row.request_hash, requestHash({ method: 'POST', url: uploadUrl, query: {}, body: { items: JSON.parse(body).items } }), 'the hash of the body read whole');
  const reordered = `{ "items": [${entries.map((entry) => json(Object.fromEntries(Object.entries(entry).reverse()))).join(' , ')}] }`;
  const retry = await post(uploadUrl, reordered, { 'idempotency-key': 'upload-1' });
  t.equal(retry.headers['idempotent-replayed'], 'true');
  t.same(retry.json(), first.json());
  const changed = await post(uploadUrl, json({ items: [entries[0]] }), { 'idempotency-key': 'upload-1' });
  t.equal(changed.statusCode, 409);
});
