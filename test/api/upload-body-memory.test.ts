// Issue 28, point 4: an item upload costs memory in proportion to one entry, not to the body.
// Between two pieces of a body, what reading it holds alive is the listings made so far and the
// entry being read. Measured as live heap (after a full collection) while the reader waits for
// its next piece, so the figure is what is reachable, not garbage a busy machine has not
// collected yet: neither load nor timing can move it. The same measure of the same body read
// whole, as fastify reads a JSON body, shows what it would be otherwise.
import { Readable } from 'node:stream';
import v8 from 'node:v8';
import vm from 'node:vm';
import type { FastifyRequest } from 'fastify';
import t from 'tap';
import { UPLOAD_BODY_LIMIT, UPLOAD_LIMIT } from '../../api/routes/item-upload.js';
import { uploadBodyParser, type UploadBody } from '../../api/routes/upload-body.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const MB = 1024 * 1024;
const PIECE = 64 * 1024;

/** Live heap above `baseline`, after a full collection. */
const liveAbove = (baseline: number) => {
  gc();
  gc();
  return process.memoryUsage().heapUsed - baseline;
};

/** The body in pieces; the highest live heap while the reader waits for a piece (every `every`th, and after the last). */
function measuredPieces(body: Buffer, every: number) {
  gc();
  gc();
  const baseline = process.memoryUsage().heapUsed;
  const measure = { peak: 0, baseline };
  const stream = Readable.from(
    (function* () {
      for (let at = 0, n = 0; at < body.length; at += PIECE, n++) {
        if (n % every === 0) measure.peak = Math.max(measure.peak, liveAbove(baseline));
        yield body.subarray(at, at + PIECE);
      }
    })(),
  );
  return { stream, measure };
}

// Each entry carries 15 KB that no listing keeps: 1,000 of them make a body of about 15 MB.
const ENTRY_PADDING = 15_000;
/** Made in a function of its own: its text and tree are garbage once it returns. */
const makeBody = () =>
  Buffer.from(JSON.stringify({ items: Array.from({ length: UPLOAD_LIMIT }, (_, i) => ({ sku: `MEM-${i}`, name: `Linen Shirt ${i}`, price: 40, padding: 'x'.repeat(ENTRY_PADDING) })) }));
const body = makeBody();

const parse = uploadBodyParser({ limit: UPLOAD_BODY_LIMIT, maxEntries: UPLOAD_LIMIT, storeUrl: async () => '' });
const read = (payload: Buffer | Readable, length: number) =>
  parse({ headers: { 'content-length': String(length) }, params: {}, url: '/v1/datasets/x/items/upload', method: 'POST', query: {} } as unknown as FastifyRequest, Readable.from(payload)) as Promise<UploadBody>;

t.test('read entry by entry, a 15 MB body holds its listings and about one entry between pieces', async (t) => {
  // Compiled once before measuring: code made on first use is not what a request holds.
  const small = body.subarray(0, body.indexOf('{"sku":"MEM-20"')).toString().replace(/,$/, ']}');
  t.equal((await read(Buffer.from(small), Buffer.byteLength(small))).items?.length, 20);
  const { stream, measure } = measuredPieces(body, 8);
  const { items } = await read(stream, body.length);
  const held = Math.max(measure.peak, liveAbove(measure.baseline));
  t.equal(items?.length, UPLOAD_LIMIT, 'every entry became a listing');
  // 1,000 listings of about 1 KB each, the entry being read (15 KB), the parser's 64 KB string buffer.
  const bound = 3 * MB;
  t.ok(held < bound, `held at most ${(held / MB).toFixed(2)} MB (bound ${bound / MB} MB) of a ${(body.length / MB).toFixed(1)} MB body`);
});

// The yardstick that makes the bound above mean something: read whole, the same body holds many times it.
t.test('the same measure of the same body read whole (its text, then its parsed tree) is many times that', async (t) => {
  const { stream, measure } = measuredPieces(body, 8);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  const text = Buffer.concat(chunks).toString('utf8');
  const parsed = JSON.parse(text) as { items: unknown[] };
  const held = liveAbove(measure.baseline);
  t.equal(parsed.items.length, UPLOAD_LIMIT);
  t.ok(held > 10 * MB, `read whole, the body holds ${(held / MB).toFixed(1)} MB`);
});
