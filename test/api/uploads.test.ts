// POST /v1/file/upload and POST /v1/file/upload/session through HTTP on the real service (PGlite,
// files object store): every status and message of document 2's table, the per-file checks, the
// FileUploaded events, and after everything, that only accepted files are in the object store.
import { createHash } from 'node:crypto';
import t from 'tap';
import { ACCOUNT_SESSION_COOKIE } from '../../api/auth/account-session.js';
import { UPLOAD_MESSAGES } from '../../domain/file/index.js';
import { startTestService } from '../support/service.js';
import { BOUNDARY, makeAvif, makeBombPng, makeJpeg, makePng, makeWebp, multipart, multipartType, type FilePart } from '../support/uploads.js';

const service = await startTestService(t);
const { app, platform } = service;
const acme = await service.cli(['org', 'create', '--name', 'Acme Apparel']);
const other = await service.cli(['org', 'create', '--name', 'Other Outfitters']);
const session = await service.cli(['session', 'issue', '--org', acme.organizationId, '--json']);
const noOrgSession = await service.cli(['session', 'issue', '--no-org']);

const [jpeg, png, webp, avif] = await Promise.all([makeJpeg(), makePng(), makeWebp(), makeAvif()]);
const accepted = new Set<string>();

interface Send {
  route?: 'upload' | 'session';
  parts?: FilePart[];
  body?: Buffer | string;
  contentType?: string | null;
  key?: string | null;
  cookie?: string;
  query?: string;
  ip?: string;
}

async function send({ route = 'upload', parts, body, contentType, key = acme.privateKey, cookie, query = '', ip = '127.0.0.1' }: Send) {
  const headers: Record<string, string> = {};
  if (key) headers.authorization = `Bearer ${key}`;
  if (cookie) headers.cookie = cookie;
  const payload = body ?? (parts ? multipart(parts) : undefined);
  const type = contentType === undefined ? (parts ? multipartType() : undefined) : contentType;
  if (type !== null && type !== undefined) headers['content-type'] = type;
  const url = route === 'upload' ? `/v1/file/upload${query}` : `/v1/file/upload/session${query}`;
  const response = await app.inject({ method: 'POST', url, headers, payload, remoteAddress: ip });
  const json = response.json();
  for (const file of json.files ?? []) accepted.add(file.key);
  return { status: response.statusCode, json, headers: response.headers };
}

const file = (body: Buffer, filename = 'photo.jpg', contentType = 'image/jpeg'): FilePart => ({ filename, contentType, body });
const cookieOf = (issued: Record<string, any>) => `${ACCOUNT_SESSION_COOKIE}=${issued.value}`;

t.test('200: every accepted type stored under uploads/<fileId>.<ext>, its bytes hashed and measured, its upload an event', async (t) => {
  const { status, json, headers } = await send({
    parts: [file(jpeg, 'look.jpg'), file(png, 'swatch.png', 'image/png'), file(webp, 'detail.webp', 'image/webp'), file(avif, 'back.avif', 'image/avif')],
  });
  t.equal(status, 200);
  t.equal(headers['x-ratelimit-resource'], 'api.v1.file.upload', 'the private route is metered');
  t.ok(headers['x-ratelimit-quota-remaining']);
  t.same(json.summary, { total: 4, succeeded: 4, failed: 0 });
  t.same(json.failures, []);
  const expected = [
    [jpeg, 'look.jpg', 'image/jpeg', 'jpg', 64, 48],
    [png, 'swatch.png', 'image/png', 'png', 40, 30],
    [webp, 'detail.webp', 'image/webp', 'webp', 48, 40],
    [avif, 'back.avif', 'image/avif', 'avif', 48, 40],
  ] as const;
  for (const [index, [bytes, filename, contentType, ext, width, height]] of expected.entries()) {
    const stored = json.files[index];
    t.match(stored, { filename, contentType, size: bytes.length, width, height });
    t.match(stored.fileId, /^[0-9a-f-]{36}$/);
    t.equal(stored.key, `uploads/${stored.fileId}.${ext}`);
    t.equal(stored.sha256, createHash('sha256').update(bytes).digest('hex'));
    const object = await platform.objects.get(stored.key);
    t.ok(object?.body.equals(bytes), `${filename}: the stored bytes are the uploaded ones`);
    t.equal(object?.contentType, contentType);
    const events = await platform.eventStore.readStream(`file-${stored.fileId}`);
    t.equal(events.length, 1);
    t.equal(events[0]!.type, 'FileUploaded');
    t.match(events[0]!.data, { ...stored, organizationId: acme.organizationId, uploadedBy: { kind: 'key', id: acme.keyId } });
    t.match(events[0]!.metadata, { organizationId: acme.organizationId, actor: { kind: 'key', id: acme.keyId } });
  }
});

t.test('filenames are sanitised: path stripped, unsafe characters removed, at most 255, unnamed when none', async (t) => {
  const long = `${'a'.repeat(300)}.jpg`;
  const { status, json } = await send({
    parts: [file(jpeg, '../../etc/pa?ss*wd<>.jpg'), file(jpeg, 'C:\\Users\\me\\sum>mer|.jpg'), file(jpeg, ''), file(jpeg, long), file(jpeg, '..')],
  });
  t.equal(status, 200);
  t.same(
    json.files.map((f: { filename: string }) => f.filename),
    ['passwd.jpg', 'summer.jpg', 'unnamed', long.slice(0, 255), 'unnamed'],
  );
});

t.test('207: some stored, some rejected, each rejection named', async (t) => {
  const text = Buffer.from('not an image at all\n'.repeat(100));
  const { status, json } = await send({ parts: [file(jpeg, 'good.jpg'), file(text, 'notes.png', 'image/png'), file(png, 'really-a-png.jpg', 'image/jpeg')] });
  t.equal(status, 207);
  t.same(json.summary, { total: 3, succeeded: 1, failed: 2 });
  t.same(json.failures, [
    { filename: 'notes.png', error: UPLOAD_MESSAGES.mismatch('image/png', null) },
    { filename: 'really-a-png.jpg', error: UPLOAD_MESSAGES.mismatch('image/jpeg', 'image/png') },
  ]);
  t.notOk('error' in json, 'a partial success is not an error');
});

t.test('all failed: 413 over 10 MB, 415 refused or mismatched types, 422 too small, undecodable or mixed reasons', async (t) => {
  const big = Buffer.concat([jpeg, Buffer.alloc(10 * 1024 * 1024 + 1 - jpeg.length)]);
  let answer = await send({ parts: [file(big, 'huge.jpg')] });
  t.equal(answer.status, 413);
  t.same(answer.json, { error: 'No files were stored.', files: [], failures: [{ filename: 'huge.jpg', error: 'File exceeds maximum size of 10 MB' }], summary: { total: 1, succeeded: 0, failed: 1 } });

  answer = await send({ parts: [file(Buffer.from('x'.repeat(2000)), 'a.txt', 'text/plain'), file(png, 'b.jpg', 'image/jpeg'), file(jpeg, 'c.gif', 'image/gif')] });
  t.equal(answer.status, 415);
  t.equal(answer.json.error, 'No files were stored.');
  t.same(answer.json.failures.map((f: { error: string }) => f.error), [
    'Unsupported file type: text/plain. Allowed: image/jpeg, image/png, image/webp, image/avif',
    UPLOAD_MESSAGES.mismatch('image/jpeg', 'image/png'),
    'Unsupported file type: image/gif. Allowed: image/jpeg, image/png, image/webp, image/avif',
  ]);
  t.same(answer.json.files, []);

  answer = await send({ parts: [file(jpeg.subarray(0, 1000), 'tiny.jpg')] });
  t.equal(answer.status, 422);
  t.same(answer.json.failures, [{ filename: 'tiny.jpg', error: UPLOAD_MESSAGES.tooSmall }]);

  const truncated = (await makeJpeg(200, 200)).subarray(0, 6000);
  answer = await send({ parts: [file(truncated, 'cut.jpg')] });
  t.equal(answer.status, 422, 'a truncated JPEG does not decode whole');
  t.match(answer.json.failures[0].error, /could not be read as image\/jpeg/);

  answer = await send({ parts: [file(makeBombPng(), 'bomb.png', 'image/png')] });
  t.equal(answer.status, 422, 'a decompression bomb is refused from its header');
  t.match(answer.json.failures[0].error, /too many pixels \(20000×20000\)/);

  answer = await send({ parts: [file(big, 'huge.jpg'), file(jpeg.subarray(0, 500), 'tiny.jpg'), file(truncated, 'cut.jpg')] });
  t.equal(answer.status, 422, 'differing reasons');
  t.same(answer.json.summary, { total: 3, succeeded: 0, failed: 3 });
});

t.test('400 Failed to parse upload: a body without a boundary, garbled, or truncated is refused whole, not as a file', async (t) => {
  let answer = await send({ body: multipart([file(jpeg)]), contentType: 'multipart/form-data' });
  t.same([answer.status, answer.json], [400, { error: 'Failed to parse upload' }], 'no boundary parameter');
  answer = await send({ body: 'this is not multipart at all', contentType: multipartType() });
  t.same([answer.status, answer.json], [400, { error: 'Failed to parse upload' }], 'text with a multipart type');
  const garbage = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256));
  answer = await send({ body: garbage, contentType: multipartType() });
  t.same([answer.status, answer.json], [400, { error: 'Failed to parse upload' }], 'garbage bytes with a multipart type');
  answer = await send({ body: Buffer.concat([Buffer.from(`--${BOUNDARY}\r\n`), garbage]), contentType: multipartType() });
  t.same([answer.status, answer.json], [400, { error: 'Failed to parse upload' }], 'a boundary, then garbage');

  const cut = multipart([file(jpeg, 'cut.jpg')], BOUNDARY, false).subarray(0, 400);
  answer = await send({ body: cut, contentType: multipartType() });
  t.same([answer.status, answer.json], [400, { error: 'Failed to parse upload' }], 'the body ends in the middle of its only part');
  t.equal(answer.headers.connection, 'close');

  // The first file was whole, checked and stored before the body broke: it stands, and is listed.
  const second = await makeJpeg(64, 48, 77);
  const whole = multipart([file(second, 'whole.jpg'), file(jpeg, 'cut.jpg')], BOUNDARY, false);
  answer = await send({ body: whole.subarray(0, whole.length - 300), contentType: multipartType() });
  t.equal(answer.status, 400, 'the body ends in the middle of its second part');
  t.equal(answer.json.error, 'Failed to parse upload');
  t.same(answer.json.failures, [], 'the broken part is not a file that failed');
  t.same(answer.json.files.map((f: { filename: string; sha256: string }) => [f.filename, f.sha256]), [['whole.jpg', createHash('sha256').update(second).digest('hex')]]);
  t.same(answer.json.summary, { total: 1, succeeded: 1, failed: 0 });
  const stored = await app.inject({ method: 'GET', url: `/v1/image/${answer.json.files[0].key}` });
  t.same([stored.statusCode, stored.rawPayload.equals(second)], [200, true], 'the whole file is served');
});

t.test('415 and 422 before any file: wrong Content-Type, no body, no file parts', async (t) => {
  let answer = await send({ body: '{"file":"x"}', contentType: 'application/json' });
  t.same([answer.status, answer.json], [415, { error: 'Content-Type must be multipart/form-data' }]);
  answer = await send({ body: 'plain', contentType: 'text/plain' });
  t.same([answer.status, answer.json], [415, { error: 'Content-Type must be multipart/form-data' }]);
  answer = await send({ contentType: null });
  t.same([answer.status, answer.json], [422, { error: 'No files provided' }], 'no body');
  answer = await send({ body: Buffer.alloc(0), contentType: multipartType() });
  t.same([answer.status, answer.json], [422, { error: 'No files provided' }], 'an empty multipart body');
  answer = await send({ parts: [{ field: 'note', body: Buffer.from('hello') }, { field: 'other', body: jpeg, contentType: 'image/jpeg' }] });
  t.same([answer.status, answer.json], [422, { error: 'No files provided' }], 'fields only: a part without a filename is not a file');
});

t.test('only the first 10 file parts are read', async (t) => {
  const parts = Array.from({ length: 12 }, (_, i) => file(jpeg, `p${i}.jpg`));
  const { status, json } = await send({ parts: [{ field: 'note', body: Buffer.from('x') }, ...parts] });
  t.equal(status, 200);
  t.same(json.summary, { total: 10, succeeded: 10, failed: 0 });
  t.equal(json.files.at(-1).filename, 'p9.jpg');
});

t.test('403: folder is for staff; 401 and 403 of the keyed route', async (t) => {
  let answer = await send({ parts: [file(jpeg)], query: '?folder=secret' });
  t.same([answer.status, answer.json], [403, { error: 'Only superusers can choose an upload folder.' }]);
  answer = await send({ parts: [file(jpeg)], key: acme.publicKey });
  t.same([answer.status, answer.json], [401, { error: 'Authentication failed: public key provided instead of a private key.' }]);
  answer = await send({ parts: [file(jpeg)], key: null, cookie: cookieOf(session) });
  t.same([answer.status, answer.json], [401, { error: 'API key missing.' }], 'the keyed route takes no session');
});

t.test('session route: key first, then the cookie; public key 403; no session 401; no organization 403', async (t) => {
  let answer = await send({ route: 'session', parts: [file(jpeg, 'by-key.jpg')], key: other.privateKey });
  t.equal(answer.status, 200, 'a private key');
  t.equal(answer.headers['x-ratelimit-resource'], undefined, 'not metered against the plan');
  let [event] = await platform.eventStore.readStream(`file-${answer.json.files[0].fileId}`);
  t.match(event!.data, { organizationId: other.organizationId, uploadedBy: { kind: 'key', id: other.keyId } });

  answer = await send({ route: 'session', parts: [file(jpeg, 'by-cookie.jpg')], key: null, cookie: `theme=dark; ${cookieOf(session)}` });
  t.equal(answer.status, 200, 'a session');
  [event] = await platform.eventStore.readStream(`file-${answer.json.files[0].fileId}`);
  t.match(event!.data, { organizationId: acme.organizationId, uploadedBy: { kind: 'account', id: session.accountId } });
  t.match(event!.metadata, { organizationId: acme.organizationId, actor: { kind: 'account', id: session.accountId } });

  for (const bad of ['sgpt-sk-unknownbody::secret', `${acme.privateKey}x`, acme.privateKey.split('::')[0]!, 'garbage']) {
    answer = await send({ route: 'session', parts: [file(jpeg)], key: bad, cookie: cookieOf(session) });
    t.equal(answer.status, 200, `a bad private key (${bad.slice(0, 12)}…) falls through to the session`);
    answer = await send({ route: 'session', parts: [file(jpeg)], key: bad });
    t.same([answer.status, answer.json], [401, { error: 'Authentication required. Provide a Bearer token or sign in.' }]);
  }
  const deleted = await service.cli(['key', 'create', '--org', acme.organizationId, '--name', 'revoked']);
  await service.cli(['key', 'delete', '--key', deleted.keyId]);
  answer = await send({ route: 'session', parts: [file(jpeg)], key: deleted.privateKey, cookie: cookieOf(session) });
  t.equal(answer.status, 200, 'a revoked key falls through too');

  answer = await send({ route: 'session', parts: [file(jpeg)], key: 'sgpt-pk-demo', cookie: cookieOf(session) });
  t.same([answer.status, answer.json], [403, { error: 'Demo mode is not available for private-key routes. Demos are only supported with public API keys.' }], 'the demo key is a public key');
  const lapsed = await service.cli(['org', 'create', '--name', 'Lapsed Labels']);
  await service.cli(['subscription', 'set', '--org', lapsed.organizationId, '--active', 'false']);
  answer = await send({ route: 'session', parts: [file(jpeg)], key: lapsed.privateKey, cookie: cookieOf(session) });
  t.same([answer.status, answer.json], [403, { error: 'No active subscription for this organization.' }], 'a recognised key refused where it stands keeps its 403');

  answer = await send({ route: 'session', parts: [file(jpeg)], key: acme.publicKey, cookie: cookieOf(session) });
  t.same([answer.status, answer.json], [403, { error: 'Public keys cannot be used here. Use a private key or sign in.' }], 'checked before the session');
  answer = await send({ route: 'session', parts: [file(jpeg)], key: null });
  t.same([answer.status, answer.json], [401, { error: 'Authentication required. Provide a Bearer token or sign in.' }]);
  const forged = `${session.value.split('.')[0]}.${Buffer.alloc(32).toString('base64url')}`;
  answer = await send({ route: 'session', parts: [file(jpeg)], key: null, cookie: `${ACCOUNT_SESSION_COOKIE}=${forged}` });
  t.equal(answer.status, 401, 'a forged cookie is no session');
  answer = await send({ route: 'session', parts: [file(jpeg)], key: null, cookie: cookieOf(noOrgSession) });
  t.same([answer.status, answer.json], [403, { error: 'No organization is associated with this account.' }]);
  answer = await send({ route: 'session', parts: [file(jpeg)], key: null, cookie: cookieOf(session), query: '?folder=x' });
  t.same([answer.status, answer.json], [403, { error: 'Only superusers can choose an upload folder.' }]);

  const twoOrgs = await service.cli(['session', 'issue', '--inactive-org', other.organizationId, '--org', acme.organizationId, '--org', other.organizationId]);
  answer = await send({ route: 'session', parts: [file(jpeg)], key: null, cookie: cookieOf(twoOrgs) });
  [event] = await platform.eventStore.readStream(`file-${answer.json.files[0].fileId}`);
  t.equal(event!.data.organizationId, acme.organizationId, 'the first organization the account is an active member of');
});

t.test('429 past 30 session requests a minute from one address, counted after authentication', async (t) => {
  const ip = '10.20.30.40';
  for (let i = 0; i < 3; i++) t.equal((await send({ route: 'session', parts: [file(jpeg)], key: null, ip })).status, 401, 'unauthenticated: not counted');
  for (let i = 0; i < 30; i++) {
    const answer = await send({ route: 'session', body: '{}', contentType: 'application/json', key: null, cookie: cookieOf(noOrgSession), ip });
    if (answer.status !== 403) t.fail(`request ${i + 1}: ${answer.status}`);
  }
  const limited = await send({ route: 'session', parts: [file(jpeg)], key: null, cookie: cookieOf(session), ip });
  t.equal(limited.status, 429);
  t.match(limited.json, { error: 'Rate limit exceeded.', bucket: 'api.v1.file.upload.session', resource: 'api.v1.file.upload.session', used: 30, limit: 30, windowSeconds: 60 });
  t.ok(limited.json.retryAfter >= 1 && limited.json.retryAfter <= 60);
  t.equal(limited.headers['retry-after'], undefined, 'no Retry-After header');
  t.equal((await send({ route: 'session', parts: [file(jpeg)], key: null, cookie: cookieOf(session), ip: '10.20.30.41' })).status, 200, 'another address has its own window');
});

t.test('500: every file failing to store, and an append that fails takes its bytes back', async (t) => {
  const before = await platform.objects.list('uploads/');
  const put = platform.objects.put;
  platform.objects.put = async () => {
    throw new Error('disk full');
  };
  let answer = await send({ parts: [file(jpeg, 'a.jpg'), file(png, 'b.png', 'image/png')] });
  platform.objects.put = put;
  t.equal(answer.status, 500);
  t.same(answer.json, {
    error: 'Internal server error.',
    files: [],
    failures: [{ filename: 'a.jpg', error: UPLOAD_MESSAGES.storage }, { filename: 'b.png', error: UPLOAD_MESSAGES.storage }],
    summary: { total: 2, succeeded: 0, failed: 2 },
  });

  const append = platform.eventStore.append;
  platform.eventStore.append = async () => {
    throw new Error('event store down');
  };
  answer = await send({ parts: [file(jpeg, 'a.jpg')] });
  platform.eventStore.append = append;
  t.equal(answer.status, 500);
  t.same(await platform.objects.list('uploads/'), before, 'nothing left behind');
});

t.test('the CLI mints session cookies', async (t) => {
  t.equal(session.cookie, 'stylist_session');
  t.equal(session.header, `stylist_session=${session.value}`);
  t.equal(session.organizationId, acme.organizationId);
  t.ok(Date.parse(session.expiresAt) > Date.now());
  t.equal(noOrgSession.organizationId, null);
  await t.rejects(service.cli(['session', 'issue']), /--org ID/);
  await t.rejects(service.cli(['session', 'issue', '--org', '00000000-0000-4000-8000-000000000000']), /not found/);
});

t.test('every rejected file left nothing behind: the store holds exactly the accepted files', async (t) => {
  t.same(await platform.objects.list('uploads/'), [...accepted].sort());
});
