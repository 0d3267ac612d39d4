import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { openFileObjectStore } from '../../infra/objects/files.js';
import { InvalidObjectKey, MAX_SEGMENT_BYTES, validateObjectKey } from '../../infra/objects/port.js';

t.test('object keys that stay inside the store are accepted', async (t) => {
  for (const key of ['images/4f1c.jpeg', 'uploads/org-1/file_2.png', 'a']) t.equal(validateObjectKey(key), key);
});

t.test('keys that could escape the store or are malformed are refused', async (t) => {
  for (const key of ['', '/etc/passwd', '../secret', 'images/../../x', 'images//x', 'a/./b', 'a\\b', 'ü.jpeg', 'x'.repeat(1025)]) {
    t.throws(() => validateObjectKey(key), InvalidObjectKey, JSON.stringify(key).slice(0, 40));
  }
});

t.test('a segment is at most 200 bytes: what a file system names, with room for the file store\'s own suffixes', async (t) => {
  t.equal(validateObjectKey(`uploads/${'a'.repeat(MAX_SEGMENT_BYTES)}`), `uploads/${'a'.repeat(MAX_SEGMENT_BYTES)}`);
  t.throws(() => validateObjectKey(`uploads/${'a'.repeat(MAX_SEGMENT_BYTES + 1)}`), /a path segment is longer than 200 bytes/);
  t.throws(() => validateObjectKey(`${'b'.repeat(256)}/x.png`), InvalidObjectKey);
});

t.test('a path the file system cannot name is an absent object on the file store, not an error', async (t) => {
  // A store root deep enough that a valid 1 KB key makes a path over the system's limit (4,096 bytes).
  const base = await mkdtemp(path.join(tmpdir(), 'stylist-deep-'));
  t.teardown(() => rm(base, { recursive: true, force: true }));
  const root = path.join(base, ...Array.from({ length: 17 }, (_, i) => `${i}`.padStart(200, 'd')));
  const store = await openFileObjectStore(root);
  const key = Array.from({ length: 5 }, (_, i) => `${i}`.padStart(200, 'k')).join('/');
  await t.rejects(store.put(key, Buffer.from('x')), 'writing it fails');
  t.equal(await store.get(key), null);
  t.equal(await store.head(key), null);
});
