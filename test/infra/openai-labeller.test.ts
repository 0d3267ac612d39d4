// The vision labeller against a fake OpenAI-compatible server on a local port: what it sends
// (listing text, up to three photos as data URLs, a strict JSON schema) and how it treats the
// answer (kept when valid, repaired or filled from the offline labeller when not).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import type { Listing } from '../../domain/catalogue/product-input.js';
import { TAXONOMY_VERSION } from '../../domain/catalogue/taxonomy/index.js';
import { labelsSchema } from '../../domain/catalogue/vocabulary.js';
import { createOpenAiLabeller } from '../../infra/models/openai-labeller.js';
import type { ProductPhoto } from '../../infra/models/port.js';

const listing = (name: string, over: Partial<Listing> = {}): Listing => ({
  sku: 'sku-1', name, url: '', description: '<p>Soft <b>cotton</b> shirt</p>', brand: 'Acme', productType: 'Shirts', tags: ['mens'], price: 10, currency: '',
  images: [], variants: [], model: { height: '', size: '' }, options: [], ...over,
});
const photo = (byte: number): ProductPhoto => ({ jpeg: Buffer.from([0xff, 0xd8, byte]), pixels: { data: new Uint8Array(3).fill(byte), width: 1, height: 1 } });

async function fakeOpenAi(answer: () => unknown, status = 200) {
  const requests: any[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    requests.push({ path: req.url, body });
    res.statusCode = status;
    res.setHeader('content-type', 'application/json');
    const content = answer();
    res.end(
      JSON.stringify(
        status === 200
          ? {
              id: 'chatcmpl-1', object: 'chat.completion', created: 0, model: body.model,
              choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: typeof content === 'string' ? content : JSON.stringify(content) } }],
            }
          : { error: { message: 'overloaded', type: 'server_error' } },
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return { requests, server, labeller: createOpenAiLabeller({ model: 'gpt-test', apiKey: 'sk-test', baseURL }) };
}

const goodAnswer = {
  slot: 'top', family: 'shirt', gender: 'mens', age_group: 'adult', color_family: 'navy', color_rgb: [20, 30, 80], colors: ['navy'], pattern: 'striped',
  material: ['cotton'], fit: 'slim', features: [{ axis: 'sleeve length', value: 'long', confidence: 0.8 }, { axis: 'collar', value: 'button down', confidence: 0.7 }],
};

const withoutFeatures = ({ features: _features, ...rest }: typeof goodAnswer) => rest;

t.test('given a listing with four photos, it sends the text, three photos as data URLs and a strict schema', async (t) => {
  const { requests, server, labeller } = await fakeOpenAi(() => goodAnswer);
  t.teardown(() => server.close());
  const labels = await labeller.label({ listing: listing("Men's Striped Oxford Shirt"), photos: [photo(1), photo(2), photo(3), photo(4)], targetGender: null });
  t.equal(requests.length, 1);
  const { path, body } = requests[0];
  t.equal(path, '/v1/chat/completions');
  t.match(body, { model: 'gpt-test', response_format: { type: 'json_schema', json_schema: { strict: true } } });
  const content = body.messages[1].content as any[];
  t.match(content[0].text, /Title: Men's Striped Oxford Shirt/);
  t.match(content[0].text, /Description: Soft cotton shirt/, 'HTML stripped');
  const images = content.filter((part) => part.type === 'image_url');
  t.equal(images.length, 3, 'at most three photos');
  t.equal(images[0].image_url.url, `data:image/jpeg;base64,${Buffer.from([0xff, 0xd8, 1]).toString('base64')}`);
  const { features, featureKeys, ...rest } = labels;
  t.same(rest, { ...withoutFeatures(goodAnswer), taxonomyVersion: TAXONOMY_VERSION });
  t.same(features.slice(0, 2), goodAnswer.features, "the model's feature answers are kept");
  t.same(featureKeys, ['collar:button down', 'length:regular', 'sleeve length:long'], 'an axis the model left out is answered offline');
  t.equal(labeller.name, 'openai:gpt-test');
});

t.test('when the answer strays outside the vocabulary, fields are repaired or taken from the offline labeller', async (t) => {
  const { server, labeller } = await fakeOpenAi(() => ({
    ...goodAnswer,
    slot: 'shirts',
    family: 'Oxford-shirts',
    gender: 'male',
    color_family: 'Bordeaux',
    color_rgb: [300, -4, 12.6],
    pattern: 'pinstripes!',
    material: ['cotton', 'unobtainium'],
    fit: 'snug',
    features: [{ axis: 'sleeve length', value: 'very long', confidence: 3 }, { axis: 'mood', value: 'happy', confidence: 1 }],
  }));
  t.teardown(() => server.close());
  const labels = await labeller.label({ listing: listing("Men's Slim Fit Oxford Shirt - Navy"), photos: [], targetGender: null });
  labelsSchema.parse(labels);
  t.match(labels, { slot: 'top', family: 'shirt', gender: 'mens', color_family: 'burgundy', color_rgb: [255, 0, 13], material: ['cotton'], fit: 'slim' });
  t.equal(labels.pattern, 'solid', 'offline answer for a pattern outside the vocabulary');
  t.notOk(labels.features.some((f) => f.axis === 'mood'), 'unknown axes dropped');
  t.ok(labels.features.every((f) => f.value !== 'very long'), 'unknown values replaced');
});

t.test('when the dataset has a target gender, it wins over the model; colour options win over its colours', async (t) => {
  const { server, labeller } = await fakeOpenAi(() => ({ ...goodAnswer, slot: 'full body', family: 'dress', gender: 'womens', colors: ['dark'], fit: 'regular' }));
  t.teardown(() => server.close());
  const labels = await labeller.label({
    listing: listing('Shirt Dress', { options: [{ name: 'Colour', values: ['Black', 'Ivory'] }] }),
    photos: [],
    targetGender: 'mens',
  });
  t.match(labels, { slot: 'full body', family: 'dress', gender: 'mens', colors: ['black', 'ivory'] });
});

t.test('when the answer is not JSON, the offline labeller answers', async (t) => {
  const { server, labeller } = await fakeOpenAi(() => 'Sorry, I cannot help with that.');
  t.teardown(() => server.close());
  const labels = await labeller.label({ listing: listing("Men's Slim Fit Oxford Shirt - Navy"), photos: [], targetGender: null });
  t.match(labels, { slot: 'top', family: 'shirt', gender: 'mens', color_family: 'navy', fit: 'slim' });
});

t.test('when the server fails, the error reaches the caller so the queue can retry', async (t) => {
  const { server } = await fakeOpenAi(() => null, 400);
  t.teardown(() => server.close());
  const port = (server.address() as AddressInfo).port;
  const labeller = createOpenAiLabeller({ model: 'gpt-test', apiKey: 'sk-test', baseURL: `http://127.0.0.1:${port}/v1` });
  await t.rejects(labeller.label({ listing: listing('Shirt'), photos: [], targetGender: null }), /overloaded/);
});
