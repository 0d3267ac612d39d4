// The embedders: the offline hashed one (synonyms land near each other, unit length, same text
// same vector) and the OpenAI one against a fake OpenAI-compatible server on a local port.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { createHashedEmbedder, embedText, HASHED_DIMENSIONS } from '../../infra/models/hashed-embedder.js';
import { createOpenAiEmbedder } from '../../infra/models/openai-embedder.js';

const cosine = (a: number[], b: number[]) => a.reduce((sum, v, i) => sum + v * b[i]!, 0);
const norm = (v: number[]) => Math.sqrt(cosine(v, v));

t.test('given the hashed embedder, every vector has unit length and the same text gives the same vector', async (t) => {
  const embedder = createHashedEmbedder();
  t.equal(embedder.dimensions, HASHED_DIMENSIONS);
  const [a, b, empty] = await embedder.embed(['Black leather boots', 'Black leather boots', '']);
  t.equal(a!.length, HASHED_DIMENSIONS);
  t.ok(Math.abs(norm(a!) - 1) < 1e-9 && Math.abs(norm(empty!) - 1) < 1e-9, 'unit length, the empty text too');
  t.same(a, b);
});

t.test('when shops use different words for one thing, their vectors are close', async (t) => {
  const trainers = embedText('white trainers');
  const sneakers = embedText('white sneakers');
  const dress = embedText('white dress');
  t.ok(cosine(trainers, sneakers) > cosine(trainers, dress), 'trainers ≈ sneakers, more than a dress');
  t.ok(cosine(trainers, sneakers) > 0.6, `trainers · sneakers = ${cosine(trainers, sneakers).toFixed(2)}`);
  t.ok(cosine(embedText('bordeaux jumper'), embedText('burgundy sweater')) > cosine(embedText('bordeaux jumper'), embedText('navy sweater')), 'bordeaux ≈ burgundy');
  t.ok(cosine(embedText('summer dresses'), embedText('summer dress')) > 0.9, 'plural ≈ singular');
});

async function fakeServer(handler: (path: string, body: any) => unknown): Promise<{ url: string; requests: Array<{ path: string; body: any; auth: string }>; server: Server }> {
  const requests: Array<{ path: string; body: any; auth: string }> = [];
  const server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    requests.push({ path: req.url ?? '', body, auth: req.headers.authorization ?? '' });
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(handler(req.url ?? '', body)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests, server };
}

t.test('given an OpenAI-compatible server, texts are embedded in batches and come back in order, unit length', async (t) => {
  // The fake answers each batch in reverse order, as a server may: the index puts them back.
  const { url, requests, server } = await fakeServer((_path, body) => ({
    object: 'list',
    model: body.model,
    data: (body.input as string[]).map((text, index) => ({ object: 'embedding', index, embedding: [text.length, 1, 0, 0] })).reverse(),
    usage: { prompt_tokens: 1, total_tokens: 1 },
  }));
  t.teardown(() => server.close());
  const embedder = createOpenAiEmbedder({ model: 'text-embedding-3-small', dimensions: 4, apiKey: 'sk-test', baseURL: url, batchSize: 2 });
  const vectors = await embedder.embed(['a', 'bbb', 'cc', 'dddd', 'e']);
  t.equal(requests.length, 3, 'five texts in batches of two');
  t.same(requests.map((r) => r.body.input), [['a', 'bbb'], ['cc', 'dddd'], ['e']]);
  t.equal(requests[0]!.path, '/v1/embeddings');
  t.equal(requests[0]!.auth, 'Bearer sk-test');
  t.match(requests[0]!.body, { model: 'text-embedding-3-small', dimensions: 4, encoding_format: 'float' });
  t.equal(vectors.length, 5);
  const expected = (n: number) => [n / Math.sqrt(n * n + 1), 1 / Math.sqrt(n * n + 1), 0, 0];
  vectors.forEach((v, i) => t.ok(v.every((x, j) => Math.abs(x - expected([1, 3, 2, 4, 1][i]!)[j]!) < 1e-9), `vector ${i} in input order`));
  t.equal(embedder.name, 'openai:text-embedding-3-small');
});

t.test('when the server answers with the wrong length, the embedder says so', async (t) => {
  const { url, server } = await fakeServer((_path, body) => ({
    object: 'list', model: body.model, data: [{ object: 'embedding', index: 0, embedding: [1, 0] }], usage: { prompt_tokens: 1, total_tokens: 1 },
  }));
  t.teardown(() => server.close());
  const embedder = createOpenAiEmbedder({ model: 'm', dimensions: 4, apiKey: 'k', baseURL: url });
  await t.rejects(embedder.embed(['x']), /2 dimensions, expected 4/);
});
