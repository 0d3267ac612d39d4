// What a look costs (POST /v2/agent/looks, offline: no image model): the service as `stylist
// serve` builds it, a dozen demo-catalogue products ingested with their drawn photos, then
//   p95     a 4-item look (top, bottom, footwear, bag), one request at a time (goal ≤ 300 ms)
//   burst   20 looks at once: every one answered 200 (the render slots queue them)
//   memory  resident memory after the burst, less before it (goal ≤ 64 MB once settled)
// and three looks of the demo catalogue written to docs/images/ for the documentation.
//   BENCH_LOOKS=60 (sequential requests)   npx tsx bench/looks.ts   (node --expose-gc for a settled memory figure)
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { startWorkers } from '../app/workers.js';
import { generateDemoCatalogue, type DemoProduct } from '../domain/demo-catalogue/generate.js';
import type { Slot } from '../domain/catalogue/vocabulary.js';
import { startBenchService } from './images.js';

const SEQUENTIAL = Number(process.env.BENCH_LOOKS ?? 60);
const BURST = 20;
const docsImages = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'images');

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const mb = (bytes: number) => Math.round(bytes / (1024 * 1024));

/** The first in-stock adult products of each slot wanted, womenswear first, from the default demo catalogue (its photos are drawn by ingest). */
function pick(catalogue: DemoProduct[], slots: Slot[], gender: string, skip: Set<string>): DemoProduct[] {
  return slots.map((slot) => {
    const found = catalogue.find((p) => p.facts.slot === slot && !p.facts.soldOut && p.facts.ageGroup === 'adult' && (p.facts.gender === gender || p.facts.gender === 'unisex') && !skip.has(String(p.input.sku)));
    if (!found) throw new Error(`no ${gender} ${slot} in the demo catalogue`);
    skip.add(String(found.input.sku));
    return found;
  });
}

async function main(): Promise<void> {
  const service = await startBenchService();
  const workers = await startWorkers(service.platform, ['ingest'], service.platform.logger);
  try {
    const catalogue = generateDemoCatalogue();
    const used = new Set<string>();
    const looks = [
      { label: 'Weekend in town', products: pick(catalogue, ['top', 'bottom', 'footwear', 'bag'], 'womens', used) },
      { label: 'Layered for autumn', products: pick(catalogue, ['outerwear', 'top', 'bottom', 'footwear'], 'mens', used) },
      { label: 'Evening out', products: pick(catalogue, ['full body', 'footwear', 'bag', 'jewellery'], 'womens', used) },
    ];
    const { privateKey, publicKey } = service.organization;
    const admin = (method: string, url: string, body?: object) =>
      fetch(`${service.url}${url}`, { method, headers: { authorization: `Bearer ${privateKey}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined }).then((r) => r.json() as Promise<any>);
    const { datasetId } = await admin('POST', '/v1/datasets', { name: 'Demo', config: { storeUrl: 'https://northwind-atelier.example', storeName: 'Northwind Atelier', currency: 'CAD' } });
    await admin('PATCH', `/v1/datasets/${datasetId}/activate`);
    const products = looks.flatMap((look) => look.products);
    const upload = await admin('POST', `/v1/datasets/${datasetId}/items/upload`, { items: products.map((p) => p.input) });
    const itemOf = new Map<string, string>(upload.queued.map((q: { sku: string; itemId: string }) => [q.sku, q.itemId]));
    for (const started = Date.now(); ; await sleep(200)) {
      const total = (await admin('GET', `/v1/datasets/${datasetId}/items?limit=1`)).pagination?.total ?? 0;
      const lag = (await service.platform.projections.status()).find((p) => p.name === 'search_index')?.lag;
      if (total === products.length && lag === 0) break;
      if (Date.now() - started > 180_000) throw new Error(`ingest did not finish: ${total}/${products.length}`);
    }
    const draw = async (body: object) => {
      const started = performance.now();
      const response = await fetch(`${service.url}/v2/agent/looks`, { method: 'POST', headers: { authorization: `Bearer ${publicKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const json = (await response.json()) as any;
      return { status: response.status, ms: performance.now() - started, json };
    };
    const bodyOf = (look: (typeof looks)[number], showPrices = false) => ({ label: look.label, itemIds: look.products.map((p) => itemOf.get(String(p.input.sku))!), preferences: { aspectRatio: '3:4', showPrices } });

    // The pictures for the docs.
    for (const [i, look] of looks.entries()) {
      const answer = await draw(bodyOf(look, i === 0));
      if (answer.status !== 200) throw new Error(`look ${look.label}: ${answer.status} ${JSON.stringify(answer.json)}`);
      const bytes = Buffer.from(String(answer.json.visualization.imageData).split(',')[1]!, 'base64');
      const file = path.join(docsImages, `look-${i + 1}.jpg`);
      await writeFile(file, bytes);
      console.log(`wrote ${path.relative(process.cwd(), file)} (${Math.round(bytes.length / 1024)} KB; photos drawn: ${answer.json.visualization.items.filter((it: any) => it.photo).length}/${look.products.length})`);
    }

    const four = bodyOf(looks[0]!);
    for (let i = 0; i < 5; i++) await draw(four); // warm-up
    const times: number[] = [];
    for (let i = 0; i < SEQUENTIAL; i++) {
      const answer = await draw(four);
      if (answer.status !== 200) throw new Error(`sequential look: ${answer.status}`);
      times.push(answer.ms);
    }
    (globalThis as { gc?: () => void }).gc?.();
    const before = process.memoryUsage().rss;
    const burstStarted = performance.now();
    const burst = await Promise.all(Array.from({ length: BURST }, (_, i) => draw(bodyOf(looks[i % looks.length]!))));
    const burstMs = performance.now() - burstStarted;
    const peak = process.memoryUsage().rss;
    await sleep(500);
    (globalThis as { gc?: () => void }).gc?.();
    const after = process.memoryUsage().rss;
    const failed = burst.filter((answer) => answer.status !== 200).length;
    console.table([
      { case: `4-item look, offline, ${SEQUENTIAL} sequential`, p50: Math.round(percentile(times, 50)), p95: Math.round(percentile(times, 95)), max: Math.round(Math.max(...times)), goal: 'p95 ≤ 300 ms', ok: percentile(times, 95) <= 300 },
      { case: `${BURST} at once`, p50: Math.round(percentile(burst.map((a) => a.ms), 50)), p95: Math.round(percentile(burst.map((a) => a.ms), 95)), max: Math.round(burstMs), goal: 'all 200', ok: failed === 0 },
      { case: 'memory (RSS MB) before / peak / after', p50: mb(before), p95: mb(peak), max: mb(after), goal: 'after − before ≤ 64 MB', ok: after - before <= 64 * 1024 * 1024 },
    ]);
  } finally {
    await workers.stop();
    await service.close();
  }
}

await main();
