// Talking to POST /v2/agent/chat as a client does: the SSE frames read back into events (through
// fastify's inject, or a real socket for tests that disconnect), the history replayed, and a
// catalogue to talk about, processed by the ingest worker: a small one of the test's own, or demo
// catalogue products with the ground truth they were generated from.
import { request as httpRequest } from 'node:http';
import { DEMO_STORE, type DemoFacts, type DemoProduct } from '../../domain/demo-catalogue/generate.js';
import type { TestService } from './service.js';
import { until } from './until.js';
import { product, variant } from './items.js';

export { product, variant };

export interface SseEvent {
  event: string;
  data: any;
}

/** Frames of an event stream's text, in order. */
export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const frame of text.split('\n\n')) {
    const lines = frame.split('\n').filter((line) => line && !line.startsWith(':'));
    if (!lines.length) continue;
    const event = lines.find((line) => line.startsWith('event: '))?.slice(7);
    const data = lines.filter((line) => line.startsWith('data: ')).map((line) => line.slice(6)).join('\n');
    if (event) events.push({ event, data: JSON.parse(data) });
  }
  return events;
}

export interface ChatAnswer {
  statusCode: number;
  headers: Record<string, unknown>;
  /** Streamed: the events; JSON: empty. */
  events: SseEvent[];
  json: any;
  /** Streamed and ended with `done`. */
  done: any;
  text: string;
  history: any[];
}

export async function chat(service: TestService, key: string, body: object, headers: Record<string, string> = {}): Promise<ChatAnswer> {
  const response = await service.app.inject({ method: 'POST', url: '/v2/agent/chat', headers: { authorization: `Bearer ${key}`, ...headers }, payload: body });
  const streamed = String(response.headers['content-type'] ?? '').startsWith('text/event-stream');
  const events = streamed ? parseSse(response.body) : [];
  const json = streamed ? null : response.json();
  const done = events.find((e) => e.event === 'done')?.data ?? null;
  return {
    statusCode: response.statusCode,
    headers: response.headers,
    events,
    json,
    done,
    text: done?.text ?? json?.text ?? '',
    history: done?.history ?? json?.history ?? [],
  };
}

export const user = (content: string) => ({ role: 'user', content });

/** A conversation of several turns, each replaying the last turn's history with the next message. */
export async function converse(service: TestService, key: string, messages: string[], extra: object = {}): Promise<ChatAnswer[]> {
  const answers: ChatAnswer[] = [];
  let history: any[] = [];
  for (const message of messages) {
    const answer = await chat(service, key, { ...extra, messages: [...history, user(message)] });
    answers.push(answer);
    if (!answer.done) break;
    history = answer.history;
  }
  return answers;
}

export const eventsNamed = (answer: { events: SseEvent[] }, name: string) => answer.events.filter((e) => e.event === name).map((e) => e.data);
export const shownProducts = (answer: { events: SseEvent[] }) => eventsNamed(answer, 'search_results').flatMap((e) => e.results);

/** A streamed chat over a real socket: events as they arrive; `abort()` drops the connection. */
export function streamChat(url: string, key: string, body: object, onEvent: (event: SseEvent) => void): { ended: Promise<{ statusCode: number; headers: Record<string, unknown> }>; abort(): void } {
  let abort = () => {};
  const ended = new Promise<{ statusCode: number; headers: Record<string, unknown> }>((resolve, reject) => {
    const target = new URL('/v2/agent/chat', url);
    const payload = JSON.stringify(body);
    const req = httpRequest(target, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } }, (res) => {
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let at: number;
        while ((at = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, at + 2);
          buffer = buffer.slice(at + 2);
          for (const event of parseSse(frame)) onEvent(event);
        }
      });
      res.on('end', () => resolve({ statusCode: res.statusCode ?? 0, headers: res.headers }));
      res.on('error', () => resolve({ statusCode: res.statusCode ?? 0, headers: res.headers }));
      res.on('aborted', () => resolve({ statusCode: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on('error', (error) => (req.destroyed ? resolve({ statusCode: 0, headers: {} }) : reject(error)));
    abort = () => req.destroy();
    req.end(payload);
  });
  return { ended, abort: () => abort() };
}

/** A small store of the test's own: dresses, tops, trousers, shoes, a sold-out piece. */
export const SMALL_STORE = [
  product('DRESS-RED', 'Red Satin Midi Dress', 'Dresses', 70, [variant('DR-S', 'S', 70), variant('DR-M', 'M', 70)]),
  product('DRESS-BLUE', 'Blue Linen Midi Dress', 'Dresses', 60, [variant('DB-S', 'S', 60, true, 75), variant('DB-M', 'M', 60, false)]),
  product('DRESS-BLACK', 'Black Jersey Maxi Dress', 'Dresses', 110, [variant('DK-M', 'M', 110)]),
  product('DRESS-SOLD', 'Red Velvet Mini Dress', 'Dresses', 50, [variant('DV-S', 'S', 50, false)]),
  product('TEE-WHITE', "Women's White Cotton T-Shirt", 'T-Shirts', 25, [variant('TW-S', 'S', 25), variant('TW-M', 'M', 25), variant('TW-L', 'L', 25)]),
  product('JEANS-BLUE', "Women's Blue Straight Jeans", 'Jeans', 80, [variant('JB-28', '28', 80), variant('JB-30', '30', 80)]),
  product('SNEAKER-WHITE', 'White Leather Sneakers', 'Sneakers', 95, [variant('SW-38', '38', 95), variant('SW-39', '39', 95)]),
  product('SANDAL-TAN', 'Tan Leather Sandals', 'Sandals', 65, [variant('ST-38', '38', 65)]),
  product('BOOT-BLACK', "Men's Black Leather Chelsea Boots", 'Boots', 150, [variant('BB-42', '42', 150), variant('BB-43', '43', 150, false)]),
  product('SHIRT-NAVY', "Men's Navy Linen Shirt", 'Shirts', 60, [variant('SN-M', 'M', 60), variant('SN-L', 'L', 60)]),
];

export interface StoreSetup {
  org: { organizationId: string; publicKey: string; privateKey: string };
  datasetId: string;
  /** itemId by sku. */
  items: Map<string, string>;
  admin: (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: object) => Promise<{ statusCode: number; json(): any }>;
}

/** An organization with one active dataset of `products`, every item processed and searchable. */
export async function storeWith(service: TestService, products: object[], config: object = { storeUrl: 'https://acme.example.com', storeName: 'Acme', currency: 'EUR' }): Promise<StoreSetup> {
  const org = (await service.cli(['org', 'create', '--name', 'Acme Apparel', '--json'])) as StoreSetup['org'];
  const admin = { authorization: `Bearer ${org.privateKey}` };
  const call: StoreSetup['admin'] = (method, url, payload) => service.app.inject({ method, url, headers: admin, ...(payload ? { payload } : {}) });
  const datasetId = (await call('POST', '/v1/datasets', { name: 'Main', config })).json().datasetId as string;
  await call('PATCH', `/v1/datasets/${datasetId}/activate`);
  const upload = await call('POST', `/v1/datasets/${datasetId}/items/upload`, { items: products });
  if (upload.statusCode !== 202) throw new Error(`upload failed: ${JSON.stringify(upload.json())}`);
  const items = new Map<string, string>(upload.json().queued.map((q: { sku: string; itemId: string }) => [q.sku, q.itemId]));
  await until(
    'the store\'s items processed',
    async () => (await call('GET', `/v1/datasets/${datasetId}/items?limit=200`)).json().items?.length ?? 0,
    (count) => count === products.length,
  );
  // Search reads its own read model: settled once a search finds what the item list shows.
  await until(
    'the store searchable',
    async () => (await service.app.inject({ method: 'POST', url: '/v1/search', headers: { authorization: `Bearer ${org.publicKey}` }, payload: { query: 'dress', limit: 100 } })).json().results?.length ?? 0,
    (count) => count >= 1,
    { timeoutMs: 20_000 },
  );
  return { org, datasetId, items, admin: call };
}

export interface DemoStore extends StoreSetup {
  /** What each uploaded product was generated to be (the ground truth a shopper's screen is checked against), by itemId. */
  facts: Map<string, DemoFacts>;
  /** The uploaded products, by itemId. */
  products: Map<string, DemoProduct>;
  /** How long ingest took, upload to searchable. */
  ingestMs: number;
}

/**
 * A dataset of demo-catalogue products (domain/demo-catalogue), processed by the ingest worker and
 * searchable, in a new organization or, with `org`, beside that organization's other datasets. The
 * photos are drawn by the demo renderer, so nothing leaves the machine.
 */
export async function demoStore(
  service: TestService,
  products: DemoProduct[],
  options: { org?: StoreSetup['org']; name?: string; config?: object } = {},
): Promise<DemoStore> {
  const started = Date.now();
  const org = options.org ?? ((await service.cli(['org', 'create', '--name', 'Northwind', '--json'])) as StoreSetup['org']);
  const admin = { authorization: `Bearer ${org.privateKey}` };
  const call: StoreSetup['admin'] = (method, url, payload) => service.app.inject({ method, url, headers: admin, ...(payload ? { payload } : {}) });
  const config = options.config ?? { storeUrl: DEMO_STORE.url, storeName: DEMO_STORE.name, currency: DEMO_STORE.currency };
  const datasetId = (await call('POST', '/v1/datasets', { name: options.name ?? 'Demo', config })).json().datasetId as string;
  await call('PATCH', `/v1/datasets/${datasetId}/activate`);
  // Without their drawn photos: the labels come from the words (the facts say what they should be), and drawing 130 photos is most of the ingest's time.
  const upload = await call('POST', `/v1/datasets/${datasetId}/items/upload`, { items: products.map((p) => ({ ...p.input, images: [] })) });
  if (upload.statusCode !== 202 || upload.json().failures.length) throw new Error(`upload failed: ${JSON.stringify(upload.json()).slice(0, 600)}`);
  const bySku = new Map(products.map((p) => [String(p.input.sku), p]));
  const items = new Map<string, string>(upload.json().queued.map((q: { sku: string; itemId: string }) => [q.sku, q.itemId]));
  const byItem = new Map([...items].map(([sku, itemId]) => [itemId, bySku.get(sku)!]));
  await until(
    "the demo store's items processed",
    async () => (await call('GET', `/v1/datasets/${datasetId}/items?limit=1`)).json().pagination?.total ?? 0,
    (count) => count === products.length,
    { timeoutMs: 120_000, everyMs: 250 },
  );
  // Search reads its own read model: settled once the search index has applied every event so far.
  await until(
    'the search index caught up',
    async () => (await service.platform.projections.status()).find((p) => p.name === 'search_index'),
    (status) => status?.lag === 0,
    { timeoutMs: 30_000 },
  );
  return {
    org,
    datasetId,
    items,
    admin: call,
    facts: new Map([...byItem].map(([itemId, product]) => [itemId, product.facts])),
    products: byItem,
    ingestMs: Date.now() - started,
  };
}
