// Fair ingest across organizations (issue 12): an organization that uploads ten items behind
// another's backlog of hundreds has them processed before all but a few of it, not after the backlog.
// Ingest messages are keyed by organization and organizations take turns (infra/queue: in-process
// here, JetStream on the integration run). "Ingested" is read on the items' own streams (the
// event store), so the measure is the worker's order, not how far the projections have got.
import t from 'tap';
import { itemStream } from '../../domain/item/events.js';
import { readStreams } from '../../infra/eventstore/port.js';
import { startTestService, type TestService } from '../support/service.js';

type Json = Record<string, any>;

const item = (prefix: string, n: number) => ({
  sku: `${prefix}-${n}`,
  name: `Organic cotton crew neck t-shirt ${n}`,
  productType: 'T-Shirts',
  description: '<p>Soft jersey.</p>',
  brand: 'Acme',
  price: 30,
  variants: [{ sku: `${prefix}-${n}-M`, label: 'Black / M', options: [{ name: 'Color', value: 'Black' }, { name: 'Size', value: 'M' }], inStock: true, quantity: 4, price: 30 }],
});

async function organization(service: TestService, name: string) {
  const org = await service.cli(['org', 'create', '--name', name, '--plan', 'unlimited', '--json']);
  const headers = { authorization: `Bearer ${org.privateKey}` };
  const call = async (method: 'POST' | 'PATCH', url: string, payload?: object): Promise<Json> => {
    const response = await service.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body.slice(0, 300)}`);
    return response.json();
  };
  const datasetId = (await call('POST', '/v1/datasets', { name })).datasetId as string;
  const itemIds: string[] = [];
  const upload = async (prefix: string, from: number, count: number) => {
    const { queued } = await call('POST', `/v1/datasets/${datasetId}/items/upload`, { items: Array.from({ length: count }, (_, i) => item(prefix, from + i)) });
    if (queued.length !== count) throw new Error(`queued ${queued.length} of ${count}`);
    itemIds.push(...queued.map((entry: Json) => entry.itemId as string));
  };
  /** When each item was queued (first ItemQueued) and ingested (ItemProcessed or ItemFailed), from its stream; ms since epoch. */
  const times = async () => {
    const streams = await readStreams(service.platform.eventStore, itemIds.map(itemStream));
    return [...streams.values()].map((events) => {
      const at = (types: string[]) => {
        const found = events.find((event) => types.includes(event.type));
        return found ? Date.parse(found.recordedAt) : null;
      };
      return { queued: at(['ItemQueued'])!, ingested: at(['ItemProcessed', 'ItemFailed']) };
    });
  };
  return { upload, times };
}

t.test("ten items of one organization queued behind another's backlog of hundreds are ingested before all but a few of it", async (t) => {
  // Hundreds are enough: the ten wait behind all of them, and arrival order would take them all first.
  const BACKLOG = 400;
  // The workers start once both uploads are queued, so the ten wait behind the whole backlog
  // however fast or slow the machine is; what is measured is the order ingest takes them in.
  const service = await startTestService(t, { workers: ['ingest'], deferWorkers: true });
  const [big, small] = [await organization(service, 'Big Catalogue'), await organization(service, 'Small Boutique')];
  await big.upload('BIG', 0, BACKLOG);
  await small.upload('SMALL', 0, 10);
  const started = Date.now();
  await service.startWorkers();
  // Waits as long as ingest makes progress: a saturated machine is slower, not wrong.
  const all = async (who: typeof big) => {
    let done = -1;
    let progressAt = Date.now();
    for (;;) {
      const list = await who.times();
      const ingested = list.filter((entry) => entry.ingested !== null).length;
      if (ingested === list.length) return list as Array<{ queued: number; ingested: number }>;
      if (ingested > done) [done, progressAt] = [ingested, Date.now()];
      if (Date.now() - progressAt > 60_000) throw new Error(`ingest stalled for 60 s at ${ingested} of ${list.length} items`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };
  const [smallTimes, bigTimes] = [await all(small), await all(big)];
  const smallDone = Math.max(...smallTimes.map((entry) => entry.ingested));
  const bigDone = Math.max(...bigTimes.map((entry) => entry.ingested));
  const bigBefore = bigTimes.filter((entry) => entry.ingested <= smallDone).length;
  const tookS = (smallDone - started) / 1000;
  const backlogS = (bigDone - started) / 1000;
  t.comment(`${bigBefore} of the backlog's ${BACKLOG} items were ingested before the ten were all done (${tookS.toFixed(2)} s); the backlog took ${backlogS.toFixed(1)} s`);
  // In turn, the ten wait about one of the backlog's items each per slot; in arrival order, for all
  // of them. Counted in items, not seconds: the times include the workers' start and whatever else
  // the machine runs, the order does not.
  t.ok(bigBefore <= Math.max(50, BACKLOG / 10), `the ten were ingested while ${bigBefore} of the ${BACKLOG} waiting items were (bound: a tenth, at least 50)`);
});
