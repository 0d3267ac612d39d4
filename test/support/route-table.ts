// Every route a running fastify app answers, read from its own router (`printRoutes`), so a test
// that walks them cannot drift from the code: a route added tomorrow is in the table tomorrow.
import type { FastifyInstance, HTTPMethods } from 'fastify';

export interface TableRoute {
  method: HTTPMethods;
  /** As registered: `/v1/datasets/:datasetId`. */
  url: string;
}

// `│   ├── /:presetId (GET, HEAD)`: the tree's indentation is four characters a level.
const LINE = /^((?:│ {3}| {4})*)(?:├── |└── )(.+?)(?: \(([A-Z, ]+)\))?$/u;

/** The routes, HEAD left out where fastify adds it beside a GET. Checked against `hasRoute`. */
export function routeTable(app: FastifyInstance): TableRoute[] {
  const parents: string[] = [];
  const routes: TableRoute[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = LINE.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? '').length / 4;
    const url = (parents[depth - 1] ?? '') + match[2];
    parents[depth] = url;
    parents.length = depth + 1;
    const methods = match[3]?.split(', ') ?? [];
    for (const method of methods) {
      if (method === 'HEAD' && methods.includes('GET')) continue;
      routes.push({ method: method as HTTPMethods, url });
    }
  }
  // A wildcard (`/docs/*`, from @fastify/static) is stored with constraints hasRoute does not take.
  for (const route of routes.filter(({ url }) => !url.endsWith('*'))) {
    if (!app.hasRoute({ method: route.method, url: route.url })) throw new Error(`route table: misread ${route.method} ${route.url}`);
  }
  return routes;
}

/** `/v1/datasets/:datasetId` → `/v1/datasets/{datasetId}` (and a wildcard `*` → `{*}`), as the OpenAPI document names it. */
export const openApiPath = (url: string): string => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, '{*}');

/** The path parameters of a route, in order. */
export const pathParams = (url: string): string[] => [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1] ?? '');
