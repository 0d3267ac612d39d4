// Issue 12, the state half: a run of mostly well-formed requests on a fresh dataset, with the ingest
// worker labelling what is uploaded (archive it, upload to it, delete its source, cancel the job,
// list the logs, delete it, then activate it…), must never reach a state in which a route answers
// 5xx. Each request is one of fuzz.test.ts's routes with the right key, a JSON body that its schema
// mostly accepts, and this dataset's ids (now and then another organization's, or none's).
//
// FUZZ_RUNS and FUZZ_SEED as in fuzz.test.ts (runs here: a fortieth of FUZZ_RUNS, at least 15).
import fc from 'fast-check';
import t from 'tap';
import { encodeQueryPart, guided, queryValue, writeJson } from '../support/fuzz-arbitraries.js';
import {
  fuzzedRoutes,
  fuzzService,
  makeIds,
  problemWith,
  resolverOf,
  routeInfo,
  SEED,
  show,
  TOTAL_RUNS,
  type FuzzRequest,
  type Ids,
  type OpenApiDocument,
  type RouteInfo,
} from '../support/fuzz-service.js';
import { pathParams } from '../support/route-table.js';

interface Keys {
  privateKey: string;
  publicKey: string;
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
        const headers = { authorization: `Bearer ${info.keyType === 'public' ? keys.publicKey : keys.privateKey}`, 'content-type': 'application/json' };
        return { method: route.method, url: url + search, headers, copies: 1, ...(takesBody ? { payload: body } : {}) };
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
    const trail: string[] = [];
    // Consecutive steps marked withPrevious go out at once.
    const batches: Step[][] = [];
    for (const one of steps) {
      const last = batches.at(-1);
      if (one.withPrevious && last) last.push(one);
      else batches.push([one]);
    }
    for (const batch of batches) {
      const requests = batch.map(({ build }) => build(ids, otherIds, own));
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
