// Issue 14, bad input: the image route under random keys and transform chains (valid steps,
// unknown names, junk values, repeats, stray and empty segments, escapes, very long paths), with
// GET or HEAD and odd If-None-Match headers. Property: never a 5xx; a 4xx is `{ "error": "…" }`;
// a 200 is an image that decodes, no wider or taller than asked, in the format asked for.
//
// FUZZ_RUNS (default 400) and FUZZ_SEED (printed) as in fuzz.test.ts.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import sharp from 'sharp';
import t from 'tap';
import { parseImagePath } from '../../domain/image/transforms.js';
import { problemWith, SEED } from '../support/fuzz-service.js';
import { demoJpeg } from '../support/images.js';
import { startTestService } from '../support/service.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 400);

t.test('random keys and transform chains: no 5xx, errors as JSON, every 200 a decodable image within the asked bounds', async (t) => {
  const service = await startTestService(t);
  const key = `images/${randomUUID()}.jpeg`;
  await service.platform.objects.put(key, await demoJpeg(480), { contentType: 'image/jpeg' });
  const png = `uploads/${randomUUID()}.png`;
  await service.platform.objects.put(png, await sharp(await demoJpeg(200)).png().toBuffer(), { contentType: 'image/png' });

  const junk = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.constantFrom('', '-', '..', '.', '%2F', '%00', '%2e%2e', 'x', '0', '-1', '1e3', '0x10', '9'.repeat(30), '\u00e9', '💥', ' ', '?', '#', ';', 'a'.repeat(2000)),
  );
  const size = fc.oneof(fc.integer({ min: 1, max: 5000 }).map(String), junk);
  const step = fc.oneof(
    { weight: 4, arbitrary: fc.tuple(fc.option(size, { nil: '' }), fc.option(size, { nil: '' })).map(([w, h]) => `-/resize/${w}x${h}`) },
    { weight: 3, arbitrary: fc.constantFrom('jpeg', 'png', 'webp', 'avif', 'gif', 'JPEG', 'jpg', '').map((f) => `-/format/${f}`) },
    { weight: 3, arbitrary: fc.oneof(fc.integer({ min: -5, max: 120 }).map(String), junk).map((q) => `-/quality/${q}`) },
    { weight: 1, arbitrary: fc.tuple(junk, junk).map(([name, value]) => `-/${name}/${value}`) },
    { weight: 1, arbitrary: junk },
  );
  const keyPart = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(key, png) },
    { weight: 1, arbitrary: fc.constant(`images/${randomUUID()}.jpeg`) },
    { weight: 1, arbitrary: fc.constantFrom(`variants/${key}/resize/10x`, 'images', 'images/', '', `${key}/`, `/${key}`) },
    { weight: 1, arbitrary: fc.array(junk, { maxLength: 4 }).map((parts) => parts.join('/')) },
  );
  const request = fc.record({
    path: fc.tuple(keyPart, fc.array(step, { maxLength: 5 })).map(([k, steps]) => [k, ...steps].join('/')),
    method: fc.constantFrom('GET', 'GET', 'GET', 'HEAD'),
    ifNoneMatch: fc.option(fc.oneof(fc.constantFrom('*', '""', 'W/"x"', ','), fc.string({ maxLength: 40 }).filter((s) => !/[\r\n]/.test(s))), { nil: undefined }),
  });

  const statuses = new Map<number, number>();
  let failure = '';
  const rssBefore = process.memoryUsage().rss;
  try {
    await fc.assert(
      fc.asyncProperty(request, async ({ path, method, ifNoneMatch }) => {
        // Paths go out as a browser would send them: characters outside a URL path percent-encoded.
        const url = `/v1/image/${encodeURI(path).replace(/[?#]/g, encodeURIComponent)}`;
        const response = await service.app.inject({ method: method as 'GET' | 'HEAD', url, headers: ifNoneMatch === undefined ? {} : { 'if-none-match': ifNoneMatch } });
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
        const shown = `${method} ${url.slice(0, 300)} (If-None-Match ${JSON.stringify(ifNoneMatch)}) → ${response.statusCode} ${response.body.slice(0, 300)}`;
        const problem = problemWith(response.statusCode, String(response.headers['content-type'] ?? ''), method === 'HEAD' ? '{"error":"(HEAD)"}' : response.body);
        if (problem) {
          failure = `${problem}: ${shown}`;
          throw new Error(problem);
        }
        if (response.statusCode !== 200 || method === 'HEAD') return;
        const meta = await sharp(response.rawPayload).metadata();
        const { chain } = parseImagePath(decodeURI(url.slice('/v1/image/'.length)));
        const wrong =
          (chain?.width !== undefined && (meta.width ?? 0) > chain.width) ||
          (chain?.height !== undefined && (meta.height ?? 0) > chain.height) ||
          (chain?.format !== undefined && response.headers['content-type'] !== `image/${chain.format}`);
        if (wrong) {
          failure = `the image is not what was asked for (${meta.format} ${meta.width}×${meta.height}): ${shown}`;
          throw new Error(failure);
        }
      }),
      { numRuns: RUNS, seed: SEED, timeout: 20_000 },
    );
  } catch (error) {
    t.fail(`${failure}\n${String((error as Error).message).split('\n').slice(0, 2).join('\n')}`);
  }
  t.comment([...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`).join(' '), `seed ${SEED} (replay: FUZZ_SEED=${SEED})`);
  t.ok((statuses.get(200) ?? 0) > RUNS / 20, 'a fair share of the chains were valid and served');
  t.ok([...statuses.keys()].some((status) => status === 400), 'and malformed ones refused');
  t.ok(process.memoryUsage().rss - rssBefore < 512 * 1024 * 1024, `resident memory grew by ${Math.round((process.memoryUsage().rss - rssBefore) / 2 ** 20)} MB`);
});
