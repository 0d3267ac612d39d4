// The shopper's side of `POST /v1/search` (document 3 §3 Search) as the benchmarks call it: a
// public key, a JSON body, the results. A route that is not there (404) stops the benchmark with
// a message saying so, instead of scoring empty answers.
import type { SearchFilters as EngineFilters } from '../../projections/queries/search/index.js';

/** The body's `filters` as document 3 §3 takes them (the engine's own, less the agent-only `size`; gender as any string, so a bad one can be sent). */
export type SearchFilters = Omit<EngineFilters, 'size' | 'gender'> & { gender?: string };

export interface SearchBody {
  query: string;
  limit?: number;
  datasetIds?: string[];
  store?: { origin?: string; shop?: string };
  country?: string;
  filters?: SearchFilters;
}

export interface SearchResult {
  itemId: string;
  datasetId: string;
  score: number;
  metadata: Record<string, unknown>;
  product: Record<string, unknown> & { name?: string };
}

export interface SearchAnswer {
  results: SearchResult[];
  market: { country: string | null; currency: string; exact: boolean };
}

export class SearchRouteMissing extends Error {
  constructor(baseUrl: string) {
    super(
      `POST ${baseUrl}/v1/search answered 404: this build has no search route yet (issue 13, document 3 §3 Search). ` +
        'The benchmark needs it; run it on a branch where the route exists.',
    );
    this.name = 'SearchRouteMissing';
  }
}

export class SearchFailed extends Error {
  readonly status: number;
  constructor(
    status: number,
    body: string,
    request: SearchBody,
  ) {
    super(`POST /v1/search ${JSON.stringify(request).slice(0, 200)}: ${status} ${body.slice(0, 300)}`);
    this.status = status;
    this.name = 'SearchFailed';
  }
}

/** The header every public endpoint reads: `Bearer sgpt-pk-…` (a public key, or the demo key). */
export const publicAuthorization = (publicKey: string): Record<string, string> => ({ authorization: `Bearer ${publicKey}` });

/** One search; throws SearchRouteMissing on 404 and SearchFailed on any other status but 200. */
export async function search(baseUrl: string, publicKey: string, body: SearchBody): Promise<SearchAnswer> {
  const response = await fetch(`${baseUrl}/v1/search`, {
    method: 'POST',
    headers: { ...publicAuthorization(publicKey), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status === 404 && isRouteNotFound(text)) throw new SearchRouteMissing(baseUrl);
  if (response.status !== 200) throw new SearchFailed(response.status, text, body);
  return JSON.parse(text) as SearchAnswer;
}

/**
 * The service's answer for a route it does not have (`Route not found: POST /v1/search`, or
 * fastify's own `Route POST:/v1/search not found`), as opposed to a 404 the route gives itself
 * (a dataset that is not there).
 */
export function isRouteNotFound(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as { message?: unknown; error?: unknown };
    return /\broute\b.*not found/i.test(`${String(parsed.error ?? '')} ${String(parsed.message ?? '')}`);
  } catch {
    return true;
  }
}
