// Which datasets a turn may use and whom the agent speaks for (document 2, `datasetIds` and
// `store`). The scope comes from the key's organization and the request alone: nothing a shopper
// or a model writes widens it.
//   datasetIds sent   exactly those; any that is not an active dataset of the organization (unknown,
//                     draft, archived, another organization's) makes the scope unusable: the tools
//                     report it and the model answers without catalogue data (document 2);
//   else store sent   the active datasets of that store (origin or shop matched as detect does); when
//                     none matches, every active dataset;
//   else              every active dataset of the organization.
// Several stores in scope: the agent says it represents several stores and names each product's.
import type { Kysely } from 'kysely';
import type { StoreInfo, TurnContext } from '../../domain/agent/context.js';
import type { ChatRequest } from '../../domain/agent/request.js';
import { shopperCurrency } from '../../domain/pricing/index.js';
import { defaultStyling } from '../../domain/styling/settings.js';
import { detectDatasets, organizationDatasets, storeDomainOf, type ScopeDataset } from '../../projections/queries/datasets.js';
import { datasetPricingSources } from '../../projections/queries/market-pricing.js';

export interface TurnScope {
  organizationId: string;
  /** Usable datasets, oldest first; empty when `error` is set. */
  datasets: ScopeDataset[];
  /** Store of each dataset in scope. */
  storeOf: Map<string, StoreInfo>;
  severalStores: boolean;
  error: string | null;
}

export const scopeErrors = {
  inactive: (ids: string[]) =>
    `The requested datasets are not active datasets of this store's organization (${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', …' : ''}): the catalogue cannot be searched for this request.`,
  none: 'This organization has no active dataset: there is no catalogue to search yet.',
} as const;

const storeInfo = (dataset: ScopeDataset): StoreInfo => {
  const url = dataset.config.storeUrl ? (/^https?:\/\//i.test(dataset.config.storeUrl) ? dataset.config.storeUrl : `https://${dataset.config.storeUrl}`) : null;
  return { name: dataset.config.storeName?.trim() || dataset.name, domain: storeDomainOf(dataset.config), url };
};

export async function resolveScope(db: Kysely<any>, organizationId: string, request: Pick<ChatRequest, 'datasetIds' | 'store'>): Promise<TurnScope> {
  const all = await organizationDatasets(db, organizationId);
  const active = all.filter((dataset) => dataset.status === 'active');
  let chosen: ScopeDataset[];
  let error: string | null = null;
  if (request.datasetIds.length) {
    const byId = new Map(active.map((dataset) => [dataset.datasetId, dataset]));
    const wanted = [...new Set(request.datasetIds)];
    const unusable = wanted.filter((id) => !byId.has(id));
    chosen = unusable.length ? [] : active.filter((dataset) => wanted.includes(dataset.datasetId));
    if (unusable.length) error = scopeErrors.inactive(unusable);
  } else if (request.store && (request.store.origin || request.store.shop)) {
    const matched = new Set((await detectDatasets(db, organizationId, request.store.origin ?? undefined, request.store.shop ?? undefined)).map((d) => d.datasetId));
    const ofStore = active.filter((dataset) => matched.has(dataset.datasetId));
    chosen = ofStore.length ? ofStore : active;
  } else chosen = active;
  if (!error && !chosen.length) error = scopeErrors.none;
  const storeOf = new Map(chosen.map((dataset) => [dataset.datasetId, storeInfo(dataset)]));
  const stores = new Set([...storeOf.values()].map((store) => store.domain ?? store.name));
  return { organizationId, datasets: error ? [] : chosen, storeOf, severalStores: stores.size > 1, error };
}

/** Distinct stores of the scope, in dataset order. */
export function scopeStores(scope: TurnScope): StoreInfo[] {
  const seen = new Map<string, StoreInfo>();
  for (const store of scope.storeOf.values()) if (!seen.has(store.domain ?? store.name)) seen.set(store.domain ?? store.name, store);
  return [...seen.values()];
}

/** What the model is told besides the conversation. */
export async function turnContext(db: Kysely<any>, scope: TurnScope, request: ChatRequest): Promise<TurnContext> {
  const first = scope.datasets[0];
  const fallbackCurrency = first?.config.currency?.toUpperCase() || 'CAD';
  const currency = scope.datasets.length
    ? shopperCurrency(request.country, await datasetPricingSources(db, scope.datasets.map((d) => d.datasetId)), [], fallbackCurrency)
    : fallbackCurrency;
  const styling = first?.styling ?? defaultStyling();
  return {
    stores: scopeStores(scope),
    severalStores: scope.severalStores,
    scopeError: scope.error,
    country: request.country,
    currency,
    page: request.page?.product ?? null,
    hasCart: request.cart !== null,
    styling: { off: styling.off, basics: styling.basics, choosing: styling.choosing, picture: styling.picture },
    thinking: request.thinking,
  };
}
