// Products as tools hand them to the shopper: priced in the shopper's market (projections/queries/
// products.ts, scope-checked there), photos linked, the store named. A product priced once in a
// turn is not priced again when the model then shows it.
import type { ShownProduct } from '../../../domain/agent/products.js';
import { withImageUrls } from '../../../domain/item/image-links.js';
import { pricedProducts, type PricedItem } from '../../../projections/queries/products.js';
import type { ToolDeps } from './context.js';

export function toShown(item: Pick<PricedItem, 'itemId' | 'datasetId' | 'metadata' | 'product'>, deps: Pick<ToolDeps, 'scope' | 'baseUrl'>): ShownProduct {
  const store = deps.scope.storeOf.get(item.datasetId);
  return {
    itemId: item.itemId,
    datasetId: item.datasetId,
    store: store ? { name: store.name, domain: store.domain } : null,
    metadata: item.metadata,
    product: withImageUrls(item.product, deps.baseUrl),
  };
}

/** The products among `itemIds` that are in scope, in the order asked, priced for the shopper; unknown ids are absent. */
export async function productsById(deps: ToolDeps, itemIds: readonly string[]): Promise<Map<string, ShownProduct>> {
  const found = new Map<string, ShownProduct>();
  const missing: string[] = [];
  for (const id of itemIds) {
    const seen = deps.seen.get(id);
    if (seen) found.set(id, seen);
    else missing.push(id);
  }
  if (missing.length) {
    const priced = await pricedProducts(deps.db, { organizationId: deps.scope.organizationId, datasetIds: deps.scope.datasets.map((d) => d.datasetId) }, missing, deps.country);
    for (const [id, item] of priced) {
      const shown = toShown(item, deps);
      deps.seen.set(id, shown);
      found.set(id, shown);
    }
  }
  return found;
}

/** Why a product cannot be put on screen, or null when it can. */
export function refusal(product: ShownProduct | undefined): string | null {
  if (!product) return 'not a product of this store\'s catalogue (use an itemId from lookup_products)';
  if (!product.product.available) return 'not available in the shopper\'s market (sold out or not sold there)';
  return null;
}

/** Puts products on the turn's record of what was shown (each once). */
export function noteShown(deps: ToolDeps, products: readonly ShownProduct[]): void {
  for (const product of products) if (!deps.shown.some((p) => p.itemId === product.itemId)) deps.shown.push(product);
}
