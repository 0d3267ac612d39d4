// show_products: cards on the shopper's screen (`search_results`), and the chips offered with
// them. Only products of the scope that the shopper can buy in their market are shown: the agent
// never shows a product whose `available` is false, whatever the model asks.
import { productBrief } from '../../../domain/agent/products.js';
import type { ShowOutput } from '../../../domain/agent/tools.js';
import { noteShown, productsById, refusal } from './catalogue.js';
import { requireCatalogue, ToolError, type ToolHandler } from './context.js';

export const showProducts: ToolHandler<'show_products'> = async (args, deps) => {
  requireCatalogue(deps);
  const ids = [...new Set(args.itemIds)];
  const found = await productsById(deps, ids);
  const refused: ShowOutput['refused'] = [];
  const shown = ids.flatMap((id) => {
    const product = found.get(id);
    const reason = refusal(product);
    if (reason) {
      refused.push({ itemId: id, reason });
      return [];
    }
    return [product!];
  });
  if (!shown.length) throw new ToolError(`Nothing was shown: ${refused.map((r) => `${r.itemId}: ${r.reason}`).join('; ')}.`);
  deps.emit({ event: 'search_results', data: { kind: args.kind, label: args.label, results: shown } });
  noteShown(deps, shown);
  if (args.suggestions?.length) deps.emit({ event: 'suggestions', data: { suggestions: [...new Set(args.suggestions)] } });
  const output: ShowOutput = { shown: shown.map((product) => productBrief(product, deps.scope.severalStores)), refused };
  return output;
};
