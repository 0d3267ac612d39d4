// get_articles: what the store sells, per slot (count, price range, families), for a gender,
// read from the search memory the lookups also use. Prices are the stored (default-market) ones,
// each in its own currency: a range only says what the shelf looks like.
import type { ArticlesOutput } from '../../../domain/agent/tools.js';
import { requireCatalogue, type ToolHandler } from './context.js';

export const getArticles: ToolHandler<'get_articles'> = async (args, deps) => {
  requireCatalogue(deps);
  const memories = await deps.search.memory.ready(deps.scope.datasets.map((d) => d.datasetId), null);
  const slots = new Map<string, { count: number; min: number; max: number; families: Map<string, number> }>();
  const currencies = new Map<string, number>();
  for (const memory of memories) {
    for (const doc of memory.docs.values()) {
      if (!memory.isCurrent(doc)) continue;
      if (args.gender && doc.gender !== args.gender && doc.gender !== 'unisex') continue;
      let slot = slots.get(doc.slotName);
      if (!slot) slots.set(doc.slotName, (slot = { count: 0, min: Infinity, max: 0, families: new Map() }));
      slot.count++;
      if (doc.price > 0) {
        slot.min = Math.min(slot.min, doc.price);
        slot.max = Math.max(slot.max, doc.price);
      }
      slot.families.set(doc.family, (slot.families.get(doc.family) ?? 0) + 1);
      currencies.set(doc.currency, (currencies.get(doc.currency) ?? 0) + 1);
    }
  }
  const currency = [...currencies].sort((a, b) => b[1] - a[1])[0]?.[0] ?? deps.currency;
  const output: ArticlesOutput = {
    currency,
    slots: [...slots]
      .sort((a, b) => b[1].count - a[1].count)
      .map(([slot, s]) => ({
        slot,
        count: s.count,
        minPrice: Number.isFinite(s.min) ? s.min : 0,
        maxPrice: s.max,
        families: [...s.families].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([family, count]) => ({ family, count })),
      })),
  };
  return output;
};
