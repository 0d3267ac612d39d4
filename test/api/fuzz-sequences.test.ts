// Issue 12, the state half: a run of mostly well-formed requests on a fresh dataset, with the ingest
// worker labelling what is uploaded (archive it, upload to it, delete its source, cancel the job,
// list the logs, delete it, then activate it…), must never reach a state in which a route answers
// 5xx. Each request is one of fuzz.test.ts's routes with the right key, a JSON body that its schema
// mostly accepts, and this dataset's ids (now and then another organization's, or none's).
//
// Then runs of shopper event batches on widget sessions, around every bound of POST /v1/events:
// whatever a session sends, what it records as counting is its own organization's items and
// datasets, ISO 4217 currencies, values within the bound of one event and, per currency, within
// the session's revenue bound.
//
// FUZZ_RUNS and FUZZ_SEED as in fuzz.test.ts (runs here: a fortieth of FUZZ_RUNS, at least 15).
import fc from 'fast-check';
import t from 'tap';
import { encodeQueryPart, guided, queryValue, writeJson } from '../support/fuzz-arbitraries.js';
import {
  fixtureIdsIn,
  fuzzedRoutes,
  fuzzService,
  makeIds,
  problemWith,
  resolverOf,
  routeInfo,
  SEED,
  sessionToken,
  show,
  TOTAL_RUNS,
  type FuzzRequest,
  type Ids,
  type OpenApiDocument,
  type RouteInfo,
} from '../support/fuzz-service.js';
import { pathParams } from '../support/route-table.js';
import { DEFAULT_SHOPPER_EVENT_LIMITS, isIsoCurrency, sessionStream, toTenThousandths, type RecordedShopperEvent } from '../../domain/session/index.js';

interface Keys {
  privateKey: string;
  publicKey: string;
  /** A live widget session of the organization, for POST /v1/events. */
  session: string;
}
interface Step {
  name: string;
  /** Sent together with the step before it, not after it: commands on different streams racing. */
  withPrevious: boolean;
  /** The request, once the run's fixture exists. */
  build: (own: Ids, other: Ids, keys: Keys) => FuzzRequest;
}

function step(info: RouteInfo, document: OpenApiDocument): fc.Arbitrary<Step> {
  const { route } = info;
  const params = pathParams(route.url);
  const whose = fc.oneof({ weight: 14, arbitrary: fc.constant('own' as const) }, { weight: 1, arbitrary: fc.constant('other' as const) }, { weight: 1, arbitrary: fc.constant('nobody' as const) });
  const takesBody = ['POST', 'PUT', 'PATCH'].includes(route.method);
  const query = fc.array(fc.tuple(fc.constantFrom(...info.queryNames, 'page', 'limit'), queryValue), { maxLength: 2 });
  return fc
    .record({
      owners: fc.array(whose, { minLength: params.length, maxLength: params.length }),
      nobody: fc.uuid(),
      body: guided(info.body ?? { type: 'object' }, resolverOf(document), 40).map(writeJson),
      query,
      withPrevious: fc.boolean(),
    })
    .map(({ owners, nobody, body, query, withPrevious }) => ({
      name: `${route.method} ${route.url}`,
      withPrevious,
      build: (own, other, keys) => {
        let index = 0;
        const url = route.url.replace(/:([A-Za-z0-9_]+)/g, (_, param: string) => {
          const owner = owners[index++];
          return owner === 'nobody' ? nobody : (owner === 'other' ? other : own)[param as keyof Ids];
        });
        const search = query.length ? `?${query.map(([key, value]) => `${encodeQueryPart(key)}=${encodeQueryPart(value)}`).join('&')}` : '';
        const headers = {
          authorization: `Bearer ${info.keyType === 'public' ? keys.publicKey : keys.privateKey}`,
          'content-type': 'application/json',
          ...(route.url === '/v1/events' ? { 'x-service-session': keys.session } : {}),
        };
        return { method: route.method, url: url + search, headers, copies: 1, ...(takesBody ? { payload: fixtureIdsIn(body, own, other) } : {}) };
      },
    }));
}

t.test('no run of well-formed requests leaves a dataset in a state a route answers with a 5xx', async (t) => {
  const { service, own, other, document } = await fuzzService(t, { workers: ['ingest', 'agent'] });
  const routes = fuzzedRoutes(service.app).map((route) => routeInfo(route, document));
  const otherIds = await makeIds(other);
  const runs = Math.max(15, Math.ceil(TOTAL_RUNS / 40));
  t.comment(`${runs} runs of 3 to 12 requests, seed ${SEED} (replay: FUZZ_SEED=${SEED})`);
  let failure = '';
  const statuses = new Map<number, number>();
  const property = fc.asyncProperty(fc.array(fc.constantFrom(...routes).chain((info) => step(info, document)), { minLength: 3, maxLength: 12 }), async (steps) => {
    const ids = await makeIds(own);
    const keys = { ...own, session: await sessionToken(service, own.publicKey) };
    const trail: string[] = [];
    // Consecutive steps marked withPrevious go out at once.
    const batches: Step[][] = [];
    for (const one of steps) {
      const last = batches.at(-1);
      if (one.withPrevious && last) last.push(one);
      else batches.push([one]);
    }
    for (const batch of batches) {
      const requests = batch.map(({ build }) => build(ids, otherIds, keys));
      const responses = await Promise.all(requests.map(({ copies: _copies, ...sent }) => service.app.inject(sent)));
      for (const [i, response] of responses.entries()) {
        const request = requests[i]!;
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
        const problem = problemWith(response.statusCode, String(response.headers['content-type'] ?? ''), response.body);
        if (problem) {
          const together = requests.length > 1 ? ` (sent together with ${requests.filter((r) => r !== request).map((r) => `${r.method} ${r.url}`).join(', ')})` : '';
          failure = `${problem}${together} after\n    ${trail.join('\n    ') || '(nothing)'}\n  ${show(request, response.statusCode, response.body)}`;
          throw new Error(problem);
        }
      }
      trail.push(requests.map((request, i) => `${request.method} ${request.url.slice(0, 200)} → ${responses[i]!.statusCode}`).join('  ‖  '));
    }
  });
  try {
    await fc.assert(property, { numRuns: runs, seed: SEED, timeout: 60_000 });
  } catch (error) {
    t.fail(`${failure}\n${String((error as Error).message).split('\n').slice(0, 2).join('\n')}`);
  }
  t.comment([...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`).join(' '));
  t.ok([...statuses.keys()].some((status) => status < 300), 'some requests succeeded: the runs reach the commands');
});

t.test('runs of shopper event batches around every bound: what counts is always within them', async (t) => {
  const { service, own, other } = await fuzzService(t);
  const [ownIds, otherIds] = [await makeIds(own), await makeIds(other)];
  const limits = DEFAULT_SHOPPER_EVENT_LIMITS;
  // A batch with a currency that is not ISO 4217 or a value past the bound is refused whole: most batches have none.
  const event = (refusable: boolean) =>
    fc.record(
      {
        type: fc.constantFrom('widget_open', 'product_click', 'add_to_cart', 'cart_outcome', 'purchase', 'purchase', 'purchase'),
        itemId: fc.constantFrom(ownIds.itemId, ownIds.itemId, otherIds.itemId, 'item-1', '00000000-0000-4000-8000-000000000000'),
        datasetId: fc.option(fc.constantFrom(ownIds.datasetId, otherIds.datasetId, 'dataset-1'), { nil: undefined }),
        value: fc.oneof(
          fc.constantFrom(0, 0.01, limits.maxValue, limits.maxValue / 2, ...(refusable ? [limits.maxValue + 0.01, 1e9] : [])),
          fc.double({ min: 0, max: limits.maxValue, noNaN: true }),
        ),
        currency: fc.constantFrom('CAD', 'cad', 'USD', 'VND', ...(refusable ? ['XYZ', 'XTS'] : [])),
        intent: fc.option(fc.constantFrom('not-an-intent'), { nil: undefined, freq: 5 }),
      },
      { requiredKeys: ['type', 'itemId', 'value', 'currency'] },
    );
  const batch = fc.oneof({ weight: 4, arbitrary: fc.array(event(false), { minLength: 1, maxLength: 20 }) }, { weight: 1, arbitrary: fc.array(event(true), { minLength: 1, maxLength: 20 }) });
  const runs = Math.max(15, Math.ceil(TOTAL_RUNS / 40));
  const statuses = new Map<number, number>();
  let failure = '';
  const property = fc.asyncProperty(fc.array(batch, { minLength: 1, maxLength: 8 }), async (batches) => {
    const { sessionId, token } = (await service.app.inject({ url: '/v1/widget/preflight', headers: { authorization: `Bearer ${own.publicKey}` } })).json().session;
    for (const events of batches) {
      const response = await service.app.inject({ method: 'POST', url: '/v1/events', headers: { 'x-service-session': token }, payload: { events } });
      statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
      const refusable = events.some((e) => !isIsoCurrency(e.currency.toUpperCase()) || e.value > limits.maxValue);
      if (response.statusCode !== (refusable ? 422 : 202)) {
        failure = `${JSON.stringify(events).slice(0, 600)} → ${response.statusCode} ${response.body.slice(0, 300)}`;
        return false;
      }
    }
    const recorded = (await service.platform.eventStore.readStream(sessionStream(sessionId))).flatMap((e) => e.data.events as RecordedShopperEvent[]);
    const revenue = new Map<string, number>();
    for (const e of recorded.filter((r) => r.unverified === null)) {
      const problem =
        e.itemId !== ownIds.itemId ? 'another item' : e.datasetId !== null && e.datasetId !== ownIds.datasetId ? 'another dataset' : e.intent !== null ? 'an intent that never verified' : null;
      if (problem) {
        failure = `counted with ${problem}: ${JSON.stringify(e)}`;
        return false;
      }
      if (e.type === 'purchase') revenue.set(e.currency!, (revenue.get(e.currency!) ?? 0) + toTenThousandths(e.value!));
    }
    const over = [...revenue].find(([, sum]) => sum > toTenThousandths(limits.maxSessionRevenue));
    if (over) {
      failure = `the session counted ${over[1] / 10_000} ${over[0]}`;
      return false;
    }
    return true;
  });
  try {
    await fc.assert(property, { numRuns: runs, seed: SEED, timeout: 60_000 });
  } catch (error) {
    t.fail(`${failure}\n${String((error as Error).message).split('\n').slice(0, 2).join('\n')}`);
  }
  t.comment([...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`).join(' '));
  t.ok((statuses.get(202) ?? 0) > 0 && (statuses.get(422) ?? 0) > 0, 'batches recorded and batches refused');
});
