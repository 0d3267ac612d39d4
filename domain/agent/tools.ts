// The agent's tools, defined once: a name, what the model is told it does, and a zod schema for its
// arguments that becomes the model's JSON Schema (`toolSpecs`) and checks what a model sends back.
// The handlers are in workers/agent/tools/; the same definitions can be served over MCP to a
// shopper's own agent later (Shopify's Storefront MCP has the same shapes: search, lookup, cart).
//
// Arguments come from a model, so they are untrusted: every bound is here, and no argument names
// an organization, a dataset or a price the shopper pays: the scope and the market come from the
// request alone. Prices in arguments (`minPrice`, `maxPrice`) are in the shopper's currency. Pure.
import { z } from 'zod';
import { COLOR_FAMILIES, GENDERS, SLOTS } from '../catalogue/vocabulary.js';

const itemId = z.string().min(1).max(100).describe('An itemId from lookup_products or an earlier result.');
const itemIds = (min: number, max: number) => z.array(itemId).min(min).max(max);
const shortText = (max: number) => z.string().trim().min(1).max(max);

export const toolArguments = {
  get_articles: z
    .object({
      gender: z.enum(GENDERS).optional().describe('Only articles for this audience (unisex items count for both).'),
    })
    .strict(),
  lookup_products: z
    .object({
      query: z.string().trim().max(200).optional().describe("The shopper's own words for what they want (style, occasion, details)."),
      family: z.string().trim().max(60).optional().describe('The kind of garment as written: "dress", "pants", "sneakers", "t shirt".'),
      slot: z.enum(SLOTS).optional(),
      color: z.string().trim().max(40).optional().describe(`A colour: one of ${COLOR_FAMILIES.slice(0, -2).join(', ')}, or a shade name.`),
      size: z.string().trim().max(20).optional().describe('A size the shopper wears: only products with it in stock.'),
      gender: z.enum(GENDERS).optional(),
      minPrice: z.number().min(0).max(1e9).optional().describe("In the shopper's currency."),
      maxPrice: z.number().min(0).max(1e9).optional().describe("In the shopper's currency."),
      onSale: z.boolean().optional(),
      excludeItemIds: itemIds(0, 60).optional().describe('Products not to list again ("something else").'),
      sort: z.enum(['relevance', 'price_low', 'price_high']).optional(),
      limit: z.number().int().min(1).max(20).optional().describe('Default 10.'),
    })
    .strict(),
  show_products: z
    .object({
      label: shortText(120).describe('A short heading for the cards, in the shopper\'s language.'),
      kind: z.enum(['list', 'outfit']).describe('`list` for alternatives, `outfit` for pieces worn together.'),
      itemIds: itemIds(1, 12),
      suggestions: z.array(shortText(80)).max(6).optional().describe('Follow-up chips to offer with the cards.'),
    })
    .strict(),
  compose_looks: z
    .object({
      looks: z
        .array(
          z
            .object({
              label: shortText(120),
              itemIds: itemIds(2, 6).describe('One product per slot, worn together.'),
              customInstructions: z.string().trim().max(600).optional().describe('How the look should be drawn or worn.'),
            })
            .strict(),
        )
        .min(1)
        .max(3),
    })
    .strict(),
  ask_question: z
    .object({
      question: shortText(200),
      options: z.array(shortText(60)).min(2).max(6).describe('Short labels; the shopper\'s choice comes back as their next message.'),
    })
    .strict(),
  suggest_replies: z
    .object({
      suggestions: z.array(shortText(80)).min(1).max(6),
    })
    .strict(),
  read_cart: z.object({}).strict(),
  add_to_cart: z
    .object({
      itemId,
      size: z.string().trim().max(40).optional().describe('The size (variant label or option value) to add; needed when the product has several.'),
      variantId: z.string().trim().max(100).optional(),
      quantity: z.number().int().min(1).max(10).optional().describe('Default 1.'),
    })
    .strict(),
  swap_cart_item: z
    .object({
      lineKey: shortText(200).describe('The `key` of the cart line to replace.'),
      itemId: itemId.optional().describe('The product to put in its place; the same product when only the size changes.'),
      size: z.string().trim().max(40).optional(),
      variantId: z.string().trim().max(100).optional(),
    })
    .strict(),
  update_cart_quantity: z
    .object({
      lineKey: shortText(200),
      quantity: z.number().int().min(1).max(99),
    })
    .strict(),
  remove_from_cart: z
    .object({
      lineKey: shortText(200),
    })
    .strict(),
} as const;

export type ToolName = keyof typeof toolArguments;
export type ToolArguments<N extends ToolName> = z.output<(typeof toolArguments)[N]>;

export const CART_TOOLS: readonly ToolName[] = ['read_cart', 'add_to_cart', 'swap_cart_item', 'update_cart_quantity', 'remove_from_cart'];

export const TOOL_DESCRIPTIONS: Readonly<Record<ToolName, string>> = {
  get_articles: 'What the store sells: each slot with its product count, price range and garment families. Use it before answering "what do you have" or to plan a look.',
  lookup_products:
    'Find products in the catalogue. Returns briefs (itemId, name, price in the shopper\'s currency, sizes in stock); only products the shopper can buy. Nothing is shown to the shopper until show_products.',
  show_products: 'Put products on the shopper\'s screen as cards (only itemIds from lookup_products or earlier results).',
  compose_looks: 'Announce one to three outfit looks, each one product per slot, worn together; each look is drawn as a picture.',
  ask_question: 'Ask the shopper one multiple-choice question when the request is too open to search.',
  suggest_replies: 'Offer follow-up chips the shopper can tap as their next message.',
  read_cart: 'Read the shopper\'s cart: its lines with key, title, variant, quantity and price.',
  add_to_cart: 'Add a product in a size to the cart.',
  swap_cart_item: 'Replace a cart line with another product or another size of the same product.',
  update_cart_quantity: 'Change how many of a cart line the shopper wants.',
  remove_from_cart: 'Remove a line from the cart.',
};

export interface ToolSpec {
  name: ToolName;
  description: string;
  /** JSON Schema of the arguments (draft 2020-12, as OpenAI's function calling reads it). */
  parameters: Record<string, unknown>;
}

const specCache = new Map<ToolName, ToolSpec>();

/** The tools a turn offers: the cart tools only when a cart was sent. */
export function toolSpecs(withCart: boolean): ToolSpec[] {
  return (Object.keys(toolArguments) as ToolName[])
    .filter((name) => withCart || !CART_TOOLS.includes(name))
    .map((name) => {
      let spec = specCache.get(name);
      if (!spec) {
        const { $schema: _ignored, ...parameters } = z.toJSONSchema(toolArguments[name], { target: 'draft-2020-12', io: 'input' }) as Record<string, unknown>;
        spec = { name, description: TOOL_DESCRIPTIONS[name], parameters };
        specCache.set(name, spec);
      }
      return spec;
    });
}

export const isToolName = (name: string): name is ToolName => Object.hasOwn(toolArguments, name);

/** A model's arguments for a tool: parsed and checked, or why not (told to the model so it can try again). */
export function parseToolArguments<N extends ToolName>(name: N, text: string): { ok: true; value: ToolArguments<N> } | { ok: false; error: string } {
  let json: unknown;
  try {
    json = text.trim() === '' ? {} : JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `The arguments are not valid JSON (${error instanceof Error ? error.message : String(error)}). Send a JSON object matching the tool's parameters.` };
  }
  const parsed = toolArguments[name].safeParse(json);
  if (parsed.success) return { ok: true, value: parsed.data as ToolArguments<N> };
  const problems = parsed.error.issues.slice(0, 5).map((issue) => `${issue.path.join('.') || '(arguments)'}: ${issue.message}`);
  return { ok: false, error: `Invalid arguments for ${name}: ${problems.join('; ')}.` };
}

// --- What each tool tells the model (its FunctionCallResult text is the JSON of these) ---

export interface ArticlesOutput {
  currency: string;
  slots: Array<{ slot: string; count: number; minPrice: number; maxPrice: number; families: Array<{ family: string; count: number }> }>;
}

export interface LookupOutput {
  currency: string;
  /** Products that matched before `limit` (at most the search's depth). */
  total: number;
  products: import('./products.js').ProductBrief[];
  /** How the request was read (family, colours, bounds), so the model can say what it searched for. */
  understood?: Record<string, unknown>;
}

export interface ShowOutput {
  shown: Array<import('./products.js').ProductBrief>;
  /** Products asked for that cannot be shown, and why (sold out in the market, not in scope, unknown). */
  refused: Array<{ itemId: string; reason: string }>;
}

export interface LooksOutput {
  looks: Array<{ label: string; itemIds: string[] }>;
  refused: Array<{ itemId: string; reason: string }>;
}

/** Every tool's failure, as the model and `tool_output` see it. */
export interface ToolFailure {
  error: string;
}
