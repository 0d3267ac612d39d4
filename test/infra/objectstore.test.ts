// The ObjectStore contract against the file store, against the S3 store on an in-process s3rver
// (the S3 protocol peer available everywhere), and against a server of its own when S3_ENDPOINT is
// set: an operator's MinIO/S3, or in CI an s3rver in another process (.ci/s3-server.mjs).
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import t from 'tap';
import { openFileObjectStore } from '../../infra/objects/files.js';
import { openS3ObjectStore } from '../../infra/objects/s3.js';
import { createS3rver } from '../support/s3rver-peer.mjs';
import { objectStoreContract } from './objectstore.contract.js';
import { freePort } from '../support/free-port.js';

/** Every path under `dir` with its size, so any file created, removed or rewritten shows up. */
const tree = async (dir: string): Promise<string[]> => {
  const out: string[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const full = join(entry.parentPath, entry.name);
    out.push(`${relative(dir, full)}${entry.isDirectory() ? '/' : ` ${(await stat(full)).size}`}`);
  }
  return out.sort();
};


t.test('file store', async (t) => {
  const base = await mkdtemp(join(tmpdir(), 'stylist-objects-'));
  t.teardown(() => rm(base, { recursive: true, force: true }));
  const root = join(base, 'objects');
  const store = await openFileObjectStore(root);
  t.teardown(() => store.close());
  t.equal(store.kind, 'files');

  objectStoreContract(t, {
    store,
    // The whole temp dir, not just root: a key that escaped would land beside root.
    sideEffects: () => tree(base),
    extraBadKeys: [join(base, 'escaped'), `../../${basename(base)}/escaped`, 'x/../../objects-sibling/escaped'],
  });

  t.test('list shows objects only, never sidecars, temp files or foreign files', async (t) => {
    await store.put('side/photo.jpeg', Buffer.from('jpeg'), { contentType: 'image/jpeg' });
    const onDisk = await tree(join(root, 'side+'));
    t.ok(onDisk.some((entry) => entry.startsWith('photo.jpeg+meta.json')), 'the type is kept in a sidecar');
    // What a crash or another program could leave behind.
    await writeFile(join(root, 'side+', 'half.jpeg+tmp-0123'), 'partial');
    await writeFile(join(root, 'side+', 'orphan+meta.json'), '{"contentType":"text/plain"}');
    await writeFile(join(root, 'side+', 'has space.txt'), 'not a key');
    await mkdir(join(root, 'side+', 'unmarked'), { recursive: true });
    await writeFile(join(root, 'side+', 'unmarked', 'inner'), 'not reachable by a key');
    t.same(await store.list('side/'), ['side/photo.jpeg']);
    t.equal(await store.get('side/orphan'), null, 'a sidecar without data is not an object');
    t.equal(await store.get('side/half.jpeg'), null, 'an unfinished write is not an object');
  });

  t.test('puts leave no temp files, and readers see whole objects while a key is overwritten', async (t) => {
    const size = 3 * 1024 * 1024;
    const versions = [Buffer.alloc(size, 0xaa), Buffer.alloc(size + 1, 0xbb)];
    await store.put('atomic/big', versions[0] as Buffer);
    let writing = true;
    const writer = (async () => {
      try {
        for (let i = 1; i <= 8; i++) await store.put('atomic/big', versions[i % 2] as Buffer);
      } finally {
        writing = false;
      }
    })();
    let reads = 0;
    let torn = 0;
    while (writing) {
      const got = await store.get('atomic/big');
      reads++;
      if (!got || !versions.some((version) => version.equals(got.body))) torn++;
    }
    await writer;
    t.ok(reads > 0, `read ${reads} times during the overwrites`);
    t.equal(torn, 0, 'no read saw a missing, partial or mixed object');
    t.same((await tree(join(root, 'atomic+'))).filter((entry) => entry.includes('+tmp-')), [], 'no temp files left');
  });
});

t.test('S3 store on s3rver', async (t) => {
  const directory = await mkdtemp(join(tmpdir(), 'stylist-s3rver-'));
  t.teardown(() => rm(directory, { recursive: true, force: true }));
  const server = createS3rver({ port: 0, address: '127.0.0.1', directory, silent: true });
  const { port } = await server.run();
  t.teardown(() => server.close());
  let requests = 0;
  server.httpServer?.on('request', () => requests++);

  // s3rver's built-in account.
  const credentials = { accessKey: 'S3RVER', secretKey: 'S3RVER' };
  const endpoint = `http://127.0.0.1:${port}`;
  const store = await openS3ObjectStore({ endpoint, ...credentials, bucket: 'stylist-contract' });
  t.teardown(() => store.close());
  t.equal(store.kind, 's3');

  objectStoreContract(t, { store, sideEffects: async () => requests });

  t.test('open creates a missing bucket and reopens an existing one', async (t) => {
    const fresh = await openS3ObjectStore({ endpoint, ...credentials, bucket: 'made-at-open' });
    t.teardown(() => fresh.close());
    await fresh.put('k', Buffer.from('v'));
    t.ok((await fresh.get('k'))?.body.equals(Buffer.from('v')));
    const again = await openS3ObjectStore({ endpoint, ...credentials, bucket: 'made-at-open' });
    t.teardown(() => again.close());
    t.same(await again.list(''), ['k'], 'the second open found the bucket and its object');
  });

  t.test('an unreachable endpoint fails open with one clear line', async (t) => {
    const closed = await freePort();
    const error = await openS3ObjectStore({ endpoint: `http://127.0.0.1:${closed}`, ...credentials, bucket: 'no-server-here' }).then(
      () => null,
      (e: unknown) => e,
    );
    t.type(error, Error);
    const message = (error as Error).message;
    t.match(message, new RegExp(`^cannot reach S3 at http://127\\.0\\.0\\.1:${closed}: \\S`));
    t.match(message, /ECONNREFUSED/);
    t.notMatch(message, /\n/);
  });

  // s3rver does not check SigV4 signatures, so an unknown access key is the refusal it can give.
  t.test('refused credentials fail open naming the bucket, without leaking the secret', async (t) => {
    const error = await openS3ObjectStore({ endpoint, accessKey: 'NOT-A-KEY', secretKey: 'not-the-secret', bucket: 'stylist-contract' }).then(
      () => null,
      (e: unknown) => e,
    );
    t.type(error, Error);
    t.match((error as Error).message, `S3 at ${endpoint} refused bucket "stylist-contract": `);
    t.notMatch((error as Error).message, /not-the-secret|\n/);
  });

  t.test('endpoints that are not http(s)://host[:port] and bad bucket names are refused as such', async (t) => {
    for (const bad of ['127.0.0.1:9000', 'ftp://127.0.0.1:9000', `${endpoint}/bucket`, `http://user:pw@127.0.0.1:${port}`]) {
      await t.rejects(openS3ObjectStore({ endpoint: bad, ...credentials, bucket: 'stylist-contract' }), /^S3 endpoint /, bad);
    }
    for (const bucket of ['b', 'Upper_Case']) {
      await t.rejects(openS3ObjectStore({ endpoint, ...credentials, bucket }), { message: `invalid S3 bucket name ${JSON.stringify(bucket)}` }, bucket);
    }
  });
});

const realEndpoint = process.env.S3_ENDPOINT;
t.test(
  'S3 store on S3_ENDPOINT (MinIO/S3, s3rver in CI)',
  { skip: realEndpoint ? false : 'S3_ENDPOINT is not set; set it with S3_ACCESS_KEY, S3_SECRET_KEY and S3_BUCKET to run the contract against a real server' },
  async (t) => {
    const { S3_ACCESS_KEY: accessKey, S3_SECRET_KEY: secretKey, S3_BUCKET: bucket } = process.env;
    if (!realEndpoint || !accessKey || !secretKey || !bucket) {
      t.fail('S3_ENDPOINT is set, so S3_ACCESS_KEY, S3_SECRET_KEY and S3_BUCKET must be too');
      return;
    }
    const store = await openS3ObjectStore({ endpoint: realEndpoint, accessKey, secretKey, bucket });
    t.teardown(() => store.close());
    objectStoreContract(t, { store });
  },
);
