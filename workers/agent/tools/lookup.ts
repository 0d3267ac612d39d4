// lookup_products: the catalogue through the same search shoppers use (projections/queries/
// search.ts): the shopper's words read by query understanding, the structured arguments as hard
// filters over them, prices and stock in the shopper's market. Only products the shopper can buy
// come back; nothing is on screen until show_products.
//   family   as written ("pants"): its words join the query and its slot is a filter; products of
//            the family named come first and alone when there are any (preferNamedGarment).
//   color    a colour family or a shade name; kept are products whose main colour or a colour they
//            are sold in is of that family.
//   gender   the audience's word joins the query, so unisex products stay in, as in search.
import { colourFamilyOf } from '../../../domain/catalogue/colours.js';
import type { ColorFamily } from '../../../domain/catalogue/vocabulary.js';
import { productBrief } from '../../../domain/agent/products.js';
import type { LookupOutput } from '../../../domain/agent/tools.js';
import { understandQuery } from '../../../domain/search/index.js';
import { searchCatalogue, type SearchFilters } from '../../../projections/queries/search.js';
import { toShown } from './catalogue.js';
import { requireCatalogue, ToolError, type ToolHandler } from './context.js';

const DEFAULT_LIMIT = 10;
/** Results asked of search beyond the limit: the excluded and the unavailable are dropped after. */
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

const hasColour = (metadata: { color_family: string; colors: string[] }, families: readonly ColorFamily[]): boolean =>
  families.includes(metadata.color_family as ColorFamily) || metadata.colors.some((name) => {
    const family = colourFamilyOf(name)?.family;
    return family !== undefined && families.includes(family);
  });

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

export const lookupProducts: ToolHandler<'lookup_products'> = async (args, deps) => {
  requireCatalogue(deps);
  const filters: SearchFilters = {};
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
  if (args.gender) words.push(GENDER_WORDS[args.gender]);
  if (args.minPrice !== undefined) filters.minPrice = args.minPrice;
  if (args.maxPrice !== undefined) filters.maxPrice = args.maxPrice;
  if (args.minPrice !== undefined && args.maxPrice !== undefined && args.minPrice > args.maxPrice) throw new ToolError('minPrice is above maxPrice.');
  if (args.onSale !== undefined) filters.onSale = args.onSale;
  if (args.size) filters.size = args.size;
  const query = (words.join(' ').trim() || filters.slot || filters.family || 'clothing').slice(0, 500);
  const limit = args.limit ?? DEFAULT_LIMIT;
  const excluded = new Set(args.excludeItemIds ?? []);
  const found = await searchCatalogue(
    { db: deps.db, memory: deps.search.memory, embedder: deps.search.embedder },
    {
      organizationId: deps.scope.organizationId,
      query,
      limit: Math.min(100, limit + excluded.size + SLACK),
      datasetIds: deps.scope.datasets.map((d) => d.datasetId),
      country: deps.country,
      filters,
    },
  );
  const understood = understandQuery(query);
  const buyable = found.results
    .filter((result) => result.product.available && !excluded.has(result.itemId))
    .filter((result) => !colours.length || hasColour(result.metadata, colours));
  const { kept, matched } = preferNamedGarment(buyable, understood.families, filters.slot ?? understood.slot);
  let products = kept.map((result) => toShown(result, deps));
  if (args.sort === 'price_low') products = products.sort((a, b) => a.product.price - b.product.price);
  if (args.sort === 'price_high') products = products.sort((a, b) => b.product.price - a.product.price);
  for (const product of products) deps.seen.set(product.itemId, product);
  const output: LookupOutput = {
    currency: found.market.currency,
    total: products.length,
    products: products.slice(0, limit).map((product) => productBrief(product, deps.scope.severalStores)),
    understood: {
      ...(understood.families.length ? { families: understood.families.slice(0, 6) } : {}),
      ...(filters.slot ?? understood.slot ? { slot: filters.slot ?? understood.slot } : {}),
      ...(colours.length || understood.colours.length ? { colours: colours.length ? colours : understood.colours } : {}),
      ...(filters.minPrice ?? understood.minPrice) !== undefined ? { minPrice: filters.minPrice ?? understood.minPrice } : {},
      ...(filters.maxPrice ?? understood.maxPrice) !== undefined ? { maxPrice: filters.maxPrice ?? understood.maxPrice } : {},
      ...(filters.size ?? understood.size ? { size: filters.size ?? understood.size } : {}),
      ...(understood.gender ? { gender: understood.gender } : {}),
      ...(understood.occasions.length ? { occasions: understood.occasions } : {}),
      ...(matched ? { matched } : {}),
    },
  };
  return output;
};
