// Uploads on every object store the service runs on (the file store, an in-process s3rver, and
// S3_ENDPOINT when set, as CI sets it): the same answers, the stored bytes served back by the image
// route (with a transform), and nothing left behind by the files that were refused.
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import t from 'tap';
import { storeSetups } from '../support/images.js';
import { startTestService } from '../support/service.js';
import { makeJpeg, makePng, multipart, multipartType, type FilePart } from '../support/uploads.js';

for (const setup of storeSetups()) {
  t.test(`${setup.name}: accepted files are stored and served, refused ones leave nothing`, async (t) => {
    const service = await startTestService(t, { env: await setup.env(t) });
    const org = await service.cli(['org', 'create', '--name', 'Acme Apparel', '--json']);
    const png = await makePng(64, 48);
    const jpeg = await makeJpeg(64, 48);
    const parts: FilePart[] = [
      { filename: 'look.jpg', contentType: 'image/jpeg', body: jpeg },
      { filename: 'swatch.png', contentType: 'image/png', body: png },
      { filename: 'notes.png', contentType: 'image/png', body: Buffer.from('not an image at all, '.repeat(80)) },
      { filename: 'tiny.png', contentType: 'image/png', body: png.subarray(0, 500) },
    ];
    const before = new Set(await service.platform.objects.list('uploads/'));
    const response = await service.app.inject({
      method: 'POST',
      url: '/v1/file/upload',
      headers: { authorization: `Bearer ${org.privateKey}`, 'content-type': multipartType() },
      payload: multipart(parts),
    });
    t.equal(response.statusCode, 207);
    const { files, failures, summary } = response.json();
    t.same(summary, { total: 4, succeeded: 2, failed: 2 });
    t.same(failures.map((f: { filename: string }) => f.filename), ['notes.png', 'tiny.png']);
    const added = (await service.platform.objects.list('uploads/')).filter((key) => !before.has(key));
    t.same(added.sort(), files.map((f: { key: string }) => f.key).sort(), 'the store holds exactly the accepted files');

    for (const [file, bytes] of [[files[0], jpeg], [files[1], png]] as const) {
      t.equal(file.sha256, createHash('sha256').update(bytes).digest('hex'));
      const served = await service.app.inject({ url: `/v1/image/${file.key}` });
      t.equal(served.statusCode, 200, `${file.key} is served`);
      t.same(served.rawPayload, bytes, 'byte for byte');
      const resized = await service.app.inject({ url: `/v1/image/${file.key}/-/resize/32x/-/format/webp` });
      t.match(await sharp(resized.rawPayload).metadata(), { format: 'webp', width: 32, height: 24 });
    }
  });
}
