// Issue 14, bad input: the image route under random keys and transform chains (valid steps,
// unknown names, junk values, repeats, stray and empty segments, escapes, very long paths), with
// GET or HEAD and odd If-None-Match headers, from a few client addresses. Property: never a 5xx; a
// 4xx is `{ "error": "…" }`, a 429 also has Retry-After and names its bucket; a 200 is an image that
// decodes, no wider or taller than the step above what was asked, in the format asked for. Issue 23,
// the bounds: afterwards the store's variants are all on the documented steps, no more than one
// original can have, and within the (small) variant budget.
//
// FUZZ_RUNS (default 400) and FUZZ_SEED (printed) as in fuzz.test.ts.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import sharp from 'sharp';
import t from 'tap';
import { imagePath, parseImagePath, type TransformChain } from '../../domain/image/transforms.js';
import { QUALITY_LEVELS, settleChain, SIDE_STEPS, snapChain, snapSide, variantName, variantsPerOriginal } from '../../domain/image/variant-space.js';
import { storedCost } from '../../infra/images/variant-shelf.js';
import { problemWith, SEED } from '../support/fuzz-service.js';
import { demoJpeg } from '../support/images.js';
import { startTestService } from '../support/service.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 400);

t.test('random keys and transform chains: no 5xx, errors as JSON, every 200 a decodable image within the asked bounds', async (t) => {
  // A small budget for new variants and for the store, so that the run meets both.
  const budgetMb = 1;
  const burst = 40;
  const service = await startTestService(t, { env: { IMAGE_VARIANT_BURST: String(burst), IMAGE_VARIANTS_PER_MINUTE: '1', IMAGE_VARIANTS_MAX_MB: String(budgetMb) } });
  const addresses = ['192.0.2.1', '192.0.2.2', '198.51.100.3', '2001:db8::1', '2001:db8::2:3'];
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
    { weight: 2, arbitrary: fc.oneof(fc.constantFrom('on', 'off', 'fill', 'ON', ''), junk).map((mode) => `-/stretch/${mode}`) },
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
    from: fc.constantFrom(...addresses),
  });

  const statuses = new Map<number, number>();
  let failure = '';
  const rssBefore = process.memoryUsage().rss;
  try {
    await fc.assert(
      fc.asyncProperty(request, async ({ path, method, ifNoneMatch, from }) => {
        // Paths go out as a browser would send them: characters outside a URL path percent-encoded.
        const url = `/v1/image/${encodeURI(path).replace(/[?#]/g, encodeURIComponent)}`;
        const headers = ifNoneMatch === undefined ? {} : { 'if-none-match': ifNoneMatch };
        const response = await service.app.inject({ method: method as 'GET' | 'HEAD', url, headers, remoteAddress: from });
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
        const shown = `${method} ${url.slice(0, 300)} (If-None-Match ${JSON.stringify(ifNoneMatch)}) → ${response.statusCode} ${response.body.slice(0, 300)}`;
        const problem = problemWith(response.statusCode, String(response.headers['content-type'] ?? ''), method === 'HEAD' ? '{"error":"(HEAD)"}' : response.body);
        if (problem) {
          failure = `${problem}: ${shown}`;
          throw new Error(problem);
        }
        if (response.statusCode === 429) {
          const body = method === 'HEAD' ? null : (response.json() as { bucket?: string; retryAfter?: number });
          if (!/^[1-9][0-9]*$/.test(String(response.headers['retry-after'])) || (body && (!body.bucket?.startsWith('api.v1.image.variants') || !body.retryAfter))) {
            failure = `a 429 without Retry-After or its bucket: ${shown}`;
            throw new Error(failure);
          }
        }
        if (response.statusCode !== 200 || method === 'HEAD') return;
        const meta = await sharp(response.rawPayload).metadata();
        // As the request went: its dot segments resolved (a client and the router drop `/./`).
        const served = new URL(url, 'http://localhost').pathname;
        const { chain } = parseImagePath(decodeURI(served.slice('/v1/image/'.length)));
        const wrong =
          (chain?.width !== undefined && (meta.width ?? 0) > snapSide(chain.width)) ||
          (chain?.height !== undefined && (meta.height ?? 0) > snapSide(chain.height)) ||
          (chain?.format !== undefined && response.headers['content-type'] !== `image/${chain.format}`);
        if (wrong) {
          failure = `the image is not what was asked for (${meta.format} ${meta.width}×${meta.height}): ${shown}`;
          throw new Error(failure);
        }
      }),
      { numRuns: RUNS, seed: SEED, timeout: 20_000 },
    );
  } catch (error) {
    t.fail(`${failure}\n${String((error as Error).message).split('\n').slice(0, 12).join('\n')}`);
  }
  t.comment([...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`).join(' '), `seed ${SEED} (replay: FUZZ_SEED=${SEED})`);
  t.ok((statuses.get(200) ?? 0) > RUNS / 20, 'a fair share of the chains were valid and served');
  t.ok([...statuses.keys()].some((status) => status === 400), 'and malformed ones refused');
  t.ok(process.memoryUsage().rss - rssBefore < 512 * 1024 * 1024, `resident memory grew by ${Math.round((process.memoryUsage().rss - rssBefore) / 2 ** 20)} MB`);

  // What the run left in the store: documented variants only, few per original, within the budget.
  const kept = await service.platform.objects.list('variants/');
  let bytes = 0;
  const perOriginal = new Map<string, number>();
  for (const variant of kept) {
    bytes += storedCost((await service.platform.objects.head(variant))?.size ?? 0);
    const name = variant.slice(variant.lastIndexOf('/') + 1);
    const original = variant.slice('variants/'.length, variant.lastIndexOf('/'));
    perOriginal.set(original, (perOriginal.get(original) ?? 0) + 1);
    const match = /^(?:resize-(\d*)x(\d*)\.(?:fill\.)?)?format-(jpeg|png|webp|avif)(?:\.quality-(\d+))?$/.exec(name);
    const sides = match ? [match[1], match[2]].filter(Boolean).map(Number) : [];
    if (!match || sides.length > 1 || sides.some((side) => !SIDE_STEPS.includes(side)) || (match[4] !== undefined && !QUALITY_LEVELS.includes(Number(match[4])))) {
      t.fail(`not a documented variant: ${variant}`);
    }
  }
  t.ok(bytes <= budgetMb * 1024 * 1024, `${kept.length} variants kept, ${Math.round(bytes / 1024)} KiB counted of a ${budgetMb} MiB budget`);
  t.ok([...perOriginal.values()].every((count) => count <= variantsPerOriginal()), `variants per original: ${[...perOriginal.values()].join(', ')}`);
});

t.test('valid chains only, from three addresses, more than their share: every answer an image or a 429, and the bounds hold', async (t) => {
  const burst = 12;
  const budgetMb = 1;
  const service = await startTestService(t, { env: { IMAGE_VARIANT_BURST: String(burst), IMAGE_VARIANTS_PER_MINUTE: '1', IMAGE_VARIANTS_MAX_MB: String(budgetMb), IMAGE_AVIF_COST: '3' } });
  const addresses = ['192.0.2.10', '192.0.2.11', '2001:db8:1::5'];
  const photo = { key: `images/${randomUUID()}.jpeg`, width: 1200, height: 1500, format: 'jpeg' };
  await service.platform.objects.put(photo.key, await demoJpeg(photo.width), { contentType: 'image/jpeg' });
  const side = fc.option(fc.integer({ min: 1, max: 4096 }), { nil: undefined });
  const chain = fc.record({
    width: side,
    height: side,
    format: fc.option(fc.constantFrom('jpeg', 'png', 'webp', 'webp', 'avif'), { nil: undefined }),
    quality: fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined }),
    stretch: fc.option(fc.constantFrom('on' as const, 'off' as const, 'fill' as const), { nil: undefined }),
  });
  const statuses = new Map<number, number>();
  const served = new Set<string>();
  let failure = '';
  try {
    await fc.assert(
      fc.asyncProperty(chain, fc.constantFrom(...addresses), async (raw, from) => {
        const asked = Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== undefined)) as TransformChain;
        const url = `/v1/image/${imagePath(photo.key, asked)}`;
        const response = await service.app.inject({ url, remoteAddress: from });
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
        const shown = `${from} ${url} → ${response.statusCode} ${response.statusCode === 200 ? '' : response.body.slice(0, 200)}`;
        if (response.statusCode === 429) {
          if (!response.headers['retry-after'] || response.json().bucket !== 'api.v1.image.variants') throw new Error((failure = `a 429 without Retry-After or bucket: ${shown}`));
          return;
        }
        if (response.statusCode !== 200) throw new Error((failure = `neither an image nor a 429: ${shown}`));
        const settled = settleChain(snapChain(asked), photo);
        if (settled) served.add(variantName(settled));
        const meta = await sharp(response.rawPayload).metadata();
        const expected = settled?.width !== undefined ? { width: settled.width, height: Math.round((photo.height * settled.width) / photo.width) } : settled?.height !== undefined ? { width: Math.round((photo.width * settled.height) / photo.height), height: settled.height } : photo;
        // A padded variant (stretch/fill) is the size an enlarged one would be. The side computed
        // from the other one is rounded by libvips its own way: a pixel either side.
        if (Math.abs(meta.width! - expected.width) > 1 || Math.abs(meta.height! - expected.height) > 1) throw new Error((failure = `${meta.width}×${meta.height}, expected ${expected.width}×${expected.height}: ${shown}`));
      }),
      { numRuns: Math.min(RUNS, 250), seed: SEED, timeout: 30_000 },
    );
  } catch (error) {
    t.fail(`${failure}\n${String((error as Error).message).split('\n').slice(0, 12).join('\n')}`);
  }
  t.comment([...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`).join(' '), `seed ${SEED}`);
  // Each distinct variant was made once by someone; each address could have made `burst` (and one more a minute).
  t.ok(served.size <= addresses.length * (burst + 1), `${served.size} distinct variants served, at most ${addresses.length} addresses × ${burst} made`);
  t.ok((statuses.get(429) ?? 0) > 0, `${statuses.get(429) ?? 0} refused once the addresses had had their share`);
  const kept = await service.platform.objects.list('variants/');
  let bytes = 0;
  for (const variant of kept) bytes += storedCost((await service.platform.objects.head(variant))?.size ?? 0);
  t.ok(bytes <= budgetMb * 1024 * 1024, `${kept.length} kept, ${Math.round(bytes / 1024)} KiB counted of ${budgetMb} MiB`);
});
