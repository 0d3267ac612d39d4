// lookup_products: the catalogue through the same search shoppers use (projections/queries/
// search.ts): the shopper's words read by query understanding, the structured arguments as hard
// filters over them, prices and stock in the shopper's market. Only products the shopper can buy
// come back; nothing is on screen until show_products.
//   family   as written ("pants"): its words join the query and its slot is a filter; products of
//            the family named come first and alone when there are any (preferNamedGarment).
//   color    a colour family or a shade name; kept are products whose main colour or a colour they
//            are sold in is of that family, else of a neighbouring one (navy for blue: said in
//            `understood.colourMatched`).
//   size     a size named (or in the words) must be in stock in the shopper's market.
//   gender   the audience's word joins the query, so unisex products stay in, as in search.
// With no words at all, only filters ("anything on sale?"), the scope is browsed instead (browse).
import { colourFamilyOf, neighbouringFamilies } from '../../../domain/catalogue/colours.js';
import type { ColorFamily } from '../../../domain/catalogue/vocabulary.js';
import { productBrief } from '../../../domain/agent/products.js';
import type { LookupOutput } from '../../../domain/agent/tools.js';
import { understandQuery } from '../../../domain/search/index.js';
import { variantHasSize } from '../../../domain/search/sizes.js';
import { pricedProducts, type PricedItem } from '../../../projections/queries/products.js';
import { searchCatalogue, type SearchFilters } from '../../../projections/queries/search/index.js';
import { toShown } from './catalogue.js';
import { requireCatalogue, ToolError, type ToolHandler } from './context.js';

const DEFAULT_LIMIT = 10;
/** Results asked of search beyond the limit: the excluded, and those not in stock in the size named, are dropped after (search leaves out the rest of what the shopper cannot buy). */
const SLACK = 12;
const GENDER_WORDS = { mens: 'mens', womens: 'womens', unisex: 'unisex' } as const;

/** The colour families a colour argument names ("navy", "blue", "sage green"). */
function colourFamilies(color: string | undefined): ColorFamily[] {
  if (!color) return [];
  const understood = understandQuery(color).colours;
  if (understood.length) return understood;
  const shade = colourFamilyOf(color);
  return shade ? [shade.family] : [];
}

/** Products of these colour families (main colour, or a colour they are sold in); else of their neighbours (navy for blue); else none. */
function byColour<T extends { metadata: { color_family: string; colors: string[] } }>(results: T[], families: readonly ColorFamily[]): { kept: T[]; colour: 'exact' | 'near' | null } {
  if (!families.length) return { kept: results, colour: null };
  const exact = results.filter((result) => hasColour(result.metadata, families));
  if (exact.length) return { kept: exact, colour: 'exact' };
  const near = [...new Set(families.flatMap((family) => neighbouringFamilies(family)))];
  return { kept: results.filter((result) => hasColour(result.metadata, near)), colour: 'near' };
}

const hasColour = (metadata: { color_family: string; colors: string[] }, families: readonly ColorFamily[]): boolean =>
  families.includes(metadata.color_family as ColorFamily) ||
  metadata.colors.some((name) => {
    const family = colourFamilyOf(name)?.family;
    return family !== undefined && families.includes(family);
  });

/** In stock in the shopper's market in that size (search only asks that the size be offered). */
const inStockIn = (size: string | undefined) => (result: { product: { variants: Array<{ inStock: boolean; label: string; options: Array<{ name: string; value: string }> }> } }) =>
  !size || result.product.variants.some((variant) => variant.inStock && variantHasSize(variant, size));

/**
 * Search ranks for recall: a text match on any word keeps a product in. A stylist shows few
 * products, so when the shopper named a garment, the products of that family come alone when
 * there are any; else those of its slot; else what search found. `matched` says which held.
 */
function preferNamedGarment<T extends { metadata: { family: string; slot: string } }>(results: T[], families: readonly string[], slot: string | undefined): { kept: T[]; matched: 'family' | 'slot' | null } {
  if (families.length) {
    const ofFamily = results.filter((result) => families.includes(result.metadata.family));
    if (ofFamily.length) return { kept: ofFamily, matched: 'family' };
  }
  if (slot) {
    const ofSlot = results.filter((result) => result.metadata.slot === slot);
    if (ofSlot.length) return { kept: ofSlot, matched: 'slot' };
  }
  return { kept: results, matched: null };
}

/** Products browsed rather than searched ("anything on sale?"): at most this many are priced to find them. */
const BROWSE_DEPTH = 400;

/**
 * No words to search by, only filters (on sale, a budget, a slot, an audience): the scope's items
 * are read from the search memory and priced in the shopper's market, a bounded number of them,
 * so every piece on sale is a candidate rather than the few nearest to a made-up query. The
 * deepest discounts come first, then the lowest prices.
 */
async function browse(deps: Parameters<ToolHandler<'lookup_products'>>[1], filters: SearchFilters, gender: string | undefined): Promise<{ results: PricedItem[]; currency: string }> {
  const memories = await deps.search.memory.ready(deps.scope.datasets.map((d) => d.datasetId), null);
  const ids: string[] = [];
  for (const memory of memories) {
    for (const doc of memory.docs.values()) {
      if (ids.length >= BROWSE_DEPTH) break;
      if (!memory.isCurrent(doc)) continue;
      if (filters.slot && doc.slotName !== filters.slot) continue;
      if (gender && doc.gender !== gender && doc.gender !== 'unisex') continue;
      if (doc.ageGroup === 'kids' || doc.ageGroup === 'baby') continue;
      ids.push(doc.itemId);
    }
  }
  const priced = [...(await pricedProducts(deps.db, { organizationId: deps.scope.organizationId, datasetIds: deps.scope.datasets.map((d) => d.datasetId) }, ids, deps.country)).values()];
  const results = priced
    .filter((item) => (filters.minPrice === undefined || item.product.price >= filters.minPrice) && (filters.maxPrice === undefined || item.product.price <= filters.maxPrice))
    .filter((item) => !filters.onSale || item.product.onSale)
    .sort((a, b) => b.product.discount - a.product.discount || a.product.price - b.product.price || (a.itemId < b.itemId ? -1 : 1));
  return { results, currency: results[0]?.product.currency ?? deps.currency };
}

export const lookupProducts: ToolHandler<'lookup_products'> = async (args, deps) => {
  requireCatalogue(deps);
  // Only what the shopper can buy: the agent never shows the rest, so it must not fill the list.
  const filters: SearchFilters = { inStock: true };
  const words: string[] = [];
  if (args.query) words.push(args.query);
  if (args.family) {
    // The slot is a filter; the family itself ranks (a store's "crossbody" may be labelled a shoulder bag).
    const read = understandQuery(args.family);
    if (read.slot) filters.slot = read.slot;
    words.push(args.family);
  }
  if (args.slot) filters.slot = args.slot;
  const colours = colourFamilies(args.color);
  if (args.color) words.push(args.color);
  const browsing = !words.join('').trim();
  if (args.gender) words.push(GENDER_WORDS[args.gender]);
  if (args.minPrice !== undefined) filters.minPrice = args.minPrice;
  if (args.maxPrice !== undefined) filters.maxPrice = args.maxPrice;
  if (args.minPrice !== undefined && args.maxPrice !== undefined && args.minPrice > args.maxPrice) throw new ToolError('minPrice is above maxPrice.');
  if (args.onSale !== undefined) filters.onSale = args.onSale;
  if (args.size) filters.size = args.size;
  const query = (words.join(' ').trim() || filters.slot || 'clothing').slice(0, 500);
  const limit = args.limit ?? DEFAULT_LIMIT;
  const excluded = new Set(args.excludeItemIds ?? []);
  const understood = understandQuery(query);
  const size = filters.size ?? understood.size;
  const found = browsing
    ? await browse(deps, filters, args.gender)
    : await searchCatalogue(
        { db: deps.db, memory: deps.search.memory, embedder: deps.search.embedder },
        {
          organizationId: deps.scope.organizationId,
          query,
          limit: Math.min(100, limit + excluded.size + SLACK),
          datasetIds: deps.scope.datasets.map((d) => d.datasetId),
          country: deps.country,
          filters,
        },
      ).then((answer) => ({ results: answer.results, currency: answer.market.currency }));
  const buyable = found.results.filter((result) => result.product.available && !excluded.has(result.itemId)).filter(inStockIn(size));
  // The garment first, then its colour: near-red dresses before red pieces of another kind.
  const { kept: ofGarment, matched } = browsing ? { kept: buyable, matched: null } : preferNamedGarment(buyable, understood.families, filters.slot ?? understood.slot);
  const { kept, colour } = byColour(ofGarment, colours);
  let products = kept.map((result) => toShown(result, deps));
  if (args.sort === 'price_low') products = products.sort((a, b) => a.product.price - b.product.price);
  if (args.sort === 'price_high') products = products.sort((a, b) => b.product.price - a.product.price);
  for (const product of products) deps.seen.set(product.itemId, product);
  const output: LookupOutput = {
    currency: found.currency,
    total: products.length,
    products: products.slice(0, limit).map((product) => productBrief(product, deps.scope.severalStores)),
    understood: {
      ...(understood.families.length && !browsing ? { families: understood.families.slice(0, 6) } : {}),
      ...(filters.slot ?? understood.slot ? { slot: filters.slot ?? understood.slot } : {}),
      ...(colours.length || understood.colours.length ? { colours: colours.length ? colours : understood.colours } : {}),
      ...(colour === 'near' ? { colourMatched: 'near' } : {}),
      ...((filters.minPrice ?? understood.minPrice) !== undefined ? { minPrice: filters.minPrice ?? understood.minPrice } : {}),
      ...((filters.maxPrice ?? understood.maxPrice) !== undefined ? { maxPrice: filters.maxPrice ?? understood.maxPrice } : {}),
      ...(size ? { size } : {}),
      ...(understood.gender ? { gender: understood.gender } : {}),
      ...(understood.occasions.length ? { occasions: understood.occasions } : {}),
      ...(matched ? { matched } : {}),
      ...(browsing ? { browsed: true } : {}),
    },
  };
  return output;
};
