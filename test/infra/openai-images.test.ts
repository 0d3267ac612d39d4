// The ImageModel adapter over an OpenAI-compatible images endpoint (a local fake): what it sends
// (the references as `image[]`, the prompt, `response_format` only to dall-e models), what it
// accepts back (base64 bytes, not a URL), and failures that never carry the API key.
import t from 'tap';
import sharp from 'sharp';
import { ImageModelFailed } from '../../infra/models/image-model.js';
import { createOpenAiImageModel } from '../../infra/models/openai-images.js';
import { startFakeOpenAiImages, type FakeImageReply } from '../support/fake-openai-images.js';

const reference = async () => ({ bytes: await sharp({ create: { width: 30, height: 40, channels: 3, background: '#c0392b' } }).jpeg().toBuffer(), contentType: 'image/jpeg' as const, name: 'look.jpg' });

t.test('sends the references and the prompt; reads the base64 picture', async (t) => {
  let reply: FakeImageReply = { colour: '#00ff00', width: 64, height: 96 };
  const fake = await startFakeOpenAiImages(t, () => reply);
  const apiKey = 'sk-secret-images-key';
  const gpt = createOpenAiImageModel({ model: 'gpt-image-1', apiKey, baseURL: fake.baseURL, timeoutMs: 5000 });
  const picture = await gpt.draw({ prompt: 'Two pieces', images: [await reference(), { ...(await reference()), name: 'shopper.jpg' }], signal: new AbortController().signal });
  t.same([(await sharp(picture).metadata()).width, (await sharp(picture).metadata()).height], [64, 96]);
  t.match(fake.requests[0], { path: '/v1/images/edits', model: 'gpt-image-1', prompt: 'Two pieces', files: ['image[]', 'image[]'] });
  t.notOk('response_format' in fake.requests[0]!.fields, 'gpt-image models are not sent response_format');

  const dalle = createOpenAiImageModel({ model: 'dall-e-2', apiKey, baseURL: fake.baseURL, timeoutMs: 5000 });
  await dalle.draw({ prompt: 'One piece', images: [await reference()], signal: new AbortController().signal });
  t.equal(fake.requests[1]!.fields.response_format, 'b64_json');
  t.same(fake.requests[1]!.files, ['image'], 'one reference: a single `image` part');

  reply = { url: 'https://example.com/picture.png' };
  await t.rejects(gpt.draw({ prompt: 'x', images: [await reference()], signal: new AbortController().signal }), new ImageModelFailed('gpt-image-1: the answer has no b64_json picture'));
  reply = { status: 401 };
  const failure = await gpt.draw({ prompt: 'x', images: [await reference()], signal: new AbortController().signal }).catch((error: unknown) => error);
  t.ok(failure instanceof ImageModelFailed);
  t.notMatch(String((failure as Error).message), apiKey);
});

t.test('the caller\'s signal stops a call at once', async (t) => {
  const fake = await startFakeOpenAiImages(t, () => ({ delayMs: 5000, then: { colour: '#000000' } }));
  const model = createOpenAiImageModel({ model: 'gpt-image-1', baseURL: fake.baseURL, timeoutMs: 10_000 });
  const stop = new AbortController();
  const started = Date.now();
  setTimeout(() => stop.abort(new Error('the look\'s deadline passed')), 200);
  await t.rejects(model.draw({ prompt: 'x', images: [await reference()], signal: stop.signal }), ImageModelFailed);
  t.ok(Date.now() - started < 2000);
});
