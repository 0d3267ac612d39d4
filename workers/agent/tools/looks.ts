// compose_looks: outfits announced as `looks` events, each drawn later by POST /v2/agent/looks.
// A look is products worn together, one per slot (a full-body piece is both top and bottom), each
// in scope and available; a piece that breaks that is left out and the model told why, and a look
// left with fewer than two pieces is dropped. The store's styling settings shape the instructions
// each look carries: its own rules for pictures, the rules it keeps on (plain background, tops worn
// as the photos show), and house basics for a slot the look leaves empty.
import type { Look } from '../../../domain/agent/stream-events.js';
import type { ShownProduct } from '../../../domain/agent/products.js';
import type { LooksOutput } from '../../../domain/agent/tools.js';
import type { HouseBasic, StylingSettings } from '../../../domain/styling/settings.js';
import { defaultStyling } from '../../../domain/styling/settings.js';
import { noteShown, productsById, refusal } from './catalogue.js';
import { requireCatalogue, ToolError, type ToolHandler } from './context.js';

/** Slots a piece takes in a look. */
const slotsTaken = (product: ShownProduct): string[] => (product.metadata.slot === 'full body' ? ['top', 'bottom', 'full body'] : [product.metadata.slot]);

/** Slots a house basic can stand in for when the look has none (the essentials; extras are never invented). */
const FILLED_BY_BASICS = ['top', 'bottom', 'footwear'] as const;

function instructionsFor(look: { customInstructions?: string }, styling: StylingSettings, basics: HouseBasic[]): string {
  const lines: string[] = [];
  if (look.customInstructions) lines.push(look.customInstructions);
  if (!styling.off.includes('plainBackground')) lines.push('Plain studio background.');
  if (!styling.off.includes('tuckAsShown')) lines.push('Tops worn tucked or untucked as the store photos show them.');
  if (basics.length) lines.push(`Styled with house basics not sold here: ${basics.map((b) => b.text).join('; ')}.`);
  if (styling.picture) lines.push(styling.picture);
  return lines.join('\n').slice(0, 2000);
}

export const composeLooks: ToolHandler<'compose_looks'> = async (args, deps) => {
  requireCatalogue(deps);
  const found = await productsById(deps, [...new Set(args.looks.flatMap((look) => look.itemIds))]);
  const refused: LooksOutput['refused'] = [];
  const looks: Look[] = [];
  for (const requested of args.looks) {
    const taken = new Set<string>();
    const items: ShownProduct[] = [];
    for (const id of new Set(requested.itemIds)) {
      const product = found.get(id);
      const reason = refusal(product);
      if (reason) {
        refused.push({ itemId: id, reason });
        continue;
      }
      const slots = slotsTaken(product!);
      const clash = slots.find((slot) => taken.has(slot));
      if (clash) {
        refused.push({ itemId: id, reason: `the look "${requested.label}" already has a ${clash} piece (one product per slot)` });
        continue;
      }
      slots.forEach((slot) => taken.add(slot));
      items.push(product!);
    }
    if (items.length < 2) {
      refused.push(...items.map((item) => ({ itemId: item.itemId, reason: `the look "${requested.label}" was dropped: fewer than two pieces could be used` })));
      continue;
    }
    const dataset = deps.scope.datasets.find((d) => d.datasetId === items[0]!.datasetId);
    const styling = dataset?.styling ?? defaultStyling();
    const basics = styling.basics.filter((basic) => (FILLED_BY_BASICS as readonly string[]).includes(basic.slot) && !taken.has(basic.slot));
    const unique = basics.filter((basic, i) => basics.findIndex((b) => b.slot === basic.slot) === i);
    looks.push({
      label: requested.label,
      items,
      customInstructions: instructionsFor(requested, styling, unique),
      basics: unique.map((basic) => ({ text: basic.text, slot: basic.slot })),
    });
  }
  if (!looks.length) throw new ToolError(`No look could be composed: ${refused.map((r) => `${r.itemId}: ${r.reason}`).join('; ')}.`);
  deps.emit({ event: 'looks', data: { looks } });
  noteShown(deps, looks.flatMap((look) => look.items));
  const output: LooksOutput = { looks: looks.map((look) => ({ label: look.label, itemIds: look.items.map((item) => item.itemId) })), refused };
  return output;
};
