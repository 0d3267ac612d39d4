// What every ObjectStore adapter must do, run against each of them by objectstore.test.ts.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Test } from 'tap';
import { InvalidObjectKey, type ObjectStore } from '../../infra/objects/port.js';

export interface ContractSubject {
  store: ObjectStore;
  /**
   * A snapshot of everything the store could have touched (files on disk, requests sent). It must
   * be the same before and after calls with refused keys, which shows they were stopped before any I/O.
   */
  sideEffects?: () => Promise<unknown>;
  /** Bad keys aimed at somewhere real, e.g. a sibling of the store's root; they join the generic ones. */
  extraBadKeys?: string[];
}

const allByteValues = (): Buffer => Buffer.from(Array.from({ length: 256 }, (_, i) => i));

export function objectStoreContract(t: Test, subject: ContractSubject): void {
  const { store } = subject;
  // Every key lives under a fresh prefix so a shared real bucket neither disturbs nor is disturbed.
  const run = `contract-${randomUUID().slice(0, 8)}`;
  const k = (key: string) => `${run}/${key}`;

  t.test('ping answers', async (t) => {
    await t.resolves(store.ping());
  });

  t.test('binary bytes round-trip exactly, every byte value and a 5 MB object', async (t) => {
    const bytes = Buffer.concat([allByteValues(), allByteValues().reverse()]);
    const info = await store.put(k('bin/all-bytes'), bytes, { contentType: 'application/octet-stream' });
    t.same(info, { key: k('bin/all-bytes'), contentType: 'application/octet-stream', size: 512, version: info.version });
    t.ok(info.version, 'a put says which version it wrote');
    const got = await store.get(k('bin/all-bytes'));
    t.ok(got && got.body.equals(bytes), 'all 256 byte values come back in order');
    t.equal(got?.size, 512);
    t.equal(got?.key, k('bin/all-bytes'));

    // Odd length, so nothing aligned to a block or part size hides a truncation.
    const big = randomBytes(5 * 1024 * 1024 + 13);
    await store.put(k('bin/big.dat'), big);
    const bigBack = await store.get(k('bin/big.dat'));
    t.equal(bigBack?.size, big.length);
    t.ok(bigBack && bigBack.body.equals(big), '5 MB object comes back byte for byte');
  });

  t.test('content type is kept, and defaults to application/octet-stream', async (t) => {
    await store.put(k('types/photo.jpeg'), Buffer.from([0xff, 0xd8, 0xff]), { contentType: 'image/jpeg' });
    await store.put(k('types/untyped'), Buffer.from('x'));
    t.equal((await store.get(k('types/photo.jpeg')))?.contentType, 'image/jpeg');
    t.equal((await store.get(k('types/untyped')))?.contentType, 'application/octet-stream');
  });

  t.test('head reports size and type without the body', async (t) => {
    const body = Buffer.from('{"hello":"world"}');
    const { version } = await store.put(k('head/doc.json'), body, { contentType: 'application/json' });
    t.strictSame(await store.head(k('head/doc.json')), { key: k('head/doc.json'), contentType: 'application/json', size: body.length, version });
  });

  t.test('get and head of an absent key are null', async (t) => {
    t.equal(await store.get(k('absent/nothing-here')), null);
    t.equal(await store.head(k('absent/nothing-here')), null);
    t.equal(await store.getStream(k('absent/nothing-here')), null);
    // A key whose "directory" does not exist either.
    t.equal(await store.get(k('absent/deeper/still/nothing')), null);
  });

  t.test('overwrite replaces bytes, size and type', async (t) => {
    const first = await store.put(k('over/item'), Buffer.from('first version, longer'), { contentType: 'text/plain' });
    const second = await store.put(k('over/item'), Buffer.from([1, 2, 3]), { contentType: 'image/png' });
    t.not(second.version, first.version, 'a rewrite is a new version');
    const got = await store.get(k('over/item'));
    t.ok(got?.body.equals(Buffer.from([1, 2, 3])), 'new bytes');
    t.equal(got?.contentType, 'image/png');
    t.same(await store.head(k('over/item')), { key: k('over/item'), contentType: 'image/png', size: 3, version: second.version });
    t.same(await store.list(k('over/')), [k('over/item')], 'still one object');
  });

  t.test('getStream reads the bytes as they come, with the type, size and version of what it reads', async (t) => {
    const big = randomBytes(3 * 1024 * 1024 + 7);
    const { version } = await store.put(k('stream/big.dat'), big, { contentType: 'image/jpeg' });
    const streamed = await store.getStream(k('stream/big.dat'));
    if (!streamed) return t.fail('no stream');
    const chunks: Buffer[] = [];
    for await (const chunk of streamed.body) chunks.push(chunk as Buffer);
    t.ok(Buffer.concat(chunks).equals(big), 'every byte, in order');
    t.same([streamed.contentType, streamed.size, streamed.version], ['image/jpeg', big.length, version]);
    // A stream given up half way leaves nothing open that would keep the store from closing.
    const dropped = await store.getStream(k('stream/big.dat'));
    dropped?.body.destroy();
  });

  t.test('delete removes the object; deleting an absent key is fine', async (t) => {
    await store.put(k('del/gone'), Buffer.from('bye'));
    await store.put(k('del/kept'), Buffer.from('stay'));
    await store.delete(k('del/gone'));
    t.equal(await store.get(k('del/gone')), null);
    t.equal(await store.head(k('del/gone')), null);
    t.same(await store.list(k('del/')), [k('del/kept')]);
    await t.resolves(store.delete(k('del/gone')), 'deleting twice');
    await t.resolves(store.delete(k('del/never/existed')), 'deleting a key that never existed');
    t.ok((await store.get(k('del/kept')))?.body.equals(Buffer.from('stay')), 'the neighbour is untouched');
  });

  t.test('list returns only keys under the prefix, in lexical order', async (t) => {
    // Written out of order; `a` and `a/…` coexist as in S3; `-` < `/` < `b` in byte order.
    const keys = ['list/b/1', 'list/a/2', 'list/ab', 'list/a', 'list/a/1', 'list/a-x', 'list/a/deep/er/z'];
    for (const key of keys) await store.put(k(key), Buffer.from(key));
    await store.put(k('elsewhere/list/a/1'), Buffer.from('not under the prefix'));

    t.same(await store.list(k('list/a/')), [k('list/a/1'), k('list/a/2'), k('list/a/deep/er/z')]);
    t.same(await store.list(k('list/a')), [k('list/a'), k('list/a-x'), k('list/a/1'), k('list/a/2'), k('list/a/deep/er/z'), k('list/ab')]);
    t.same(await store.list(k('list/')), keys.map(k).sort());
    t.same(await store.list(k('list/a/deep/er/')), [k('list/a/deep/er/z')]);
    t.same(await store.list(k('list/nothing/')), []);
    t.same(await store.list(k('lis')), keys.map(k).sort(), 'a prefix may end mid-segment');
    t.same(await store.list(`${run}-not-this-run/`), []);
    // Prefixes no valid key can start with match nothing and must not reach outside the store.
    t.same(await store.list('../'), []);
    t.same(await store.list(`${run}/../${run}/list/`), []);
  });

  t.test('keys that are unsafe or malformed are refused with InvalidObjectKey before any I/O', async (t) => {
    const storedBefore = await store.list(`${run}/`);
    const before = await subject.sideEffects?.();
    const bad = ['../escaped', `${run}/../../escaped`, `${run}/list/../../../escaped`, '/abs/escaped', '/', `${run}//double`, `${run}/`, `${run}/./here`, '', 'back\\slash', ...(subject.extraBadKeys ?? [])];
    for (const key of bad) {
      const label = JSON.stringify(key);
      await t.rejects(store.put(key, Buffer.from('should not land')), InvalidObjectKey, `put ${label}`);
      await t.rejects(store.get(key), InvalidObjectKey, `get ${label}`);
      await t.rejects(store.head(key), InvalidObjectKey, `head ${label}`);
      await t.rejects(store.getStream(key), InvalidObjectKey, `getStream ${label}`);
      await t.rejects(store.delete(key), InvalidObjectKey, `delete ${label}`);
    }
    if (subject.sideEffects) t.same(await subject.sideEffects(), before, 'the backend saw nothing');
    t.same(await store.list(`${run}/`), storedBefore, 'nothing new under this run');
  });

  t.test('concurrent puts of different keys all land', async (t) => {
    const bodies = Array.from({ length: 24 }, (_, i) => randomBytes(1 + i * 997));
    const infos = await Promise.all(bodies.map((body, i) => store.put(k(`many/${String(i).padStart(2, '0')}`), body, { contentType: `application/x-n${i}` })));
    t.same(infos.map((info) => info.size), bodies.map((body) => body.length));
    t.same(await store.list(k('many/')), bodies.map((_, i) => k(`many/${String(i).padStart(2, '0')}`)));
    const back = await Promise.all(bodies.map((_, i) => store.get(k(`many/${String(i).padStart(2, '0')}`))));
    back.forEach((got, i) => {
      t.ok(got?.body.equals(bodies[i] as Buffer), `object ${i} has its own bytes`);
      t.equal(got?.contentType, `application/x-n${i}`);
    });
  });

  // Last, as a test rather than a teardown, so a shared real bucket is left as it was found and the
  // deletes are checked too.
  t.test('everything written by this run can be deleted again', async (t) => {
    for (const key of await store.list(`${run}/`)) await store.delete(key);
    t.same(await store.list(`${run}/`), []);
  });
}
