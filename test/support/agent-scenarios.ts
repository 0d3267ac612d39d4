// What the agent scenario tests share: the service and the store they talk to (a capsule of the
// demo catalogue, chosen by its ground truth so every scenario has something to find and something
// to refuse), readings of that ground truth (a product's colours as families, near colours, sizes
// in stock), and the checks every turn of every conversation must pass whatever was asked.
import type { Test } from 'tap';
import { areNeighbours, colourFamilyOf } from '../../domain/catalogue/colours.js';
import type { ColorFamily } from '../../domain/catalogue/vocabulary.js';
import { generateDemoCatalogue, type DemoFacts, type DemoProduct } from '../../domain/demo-catalogue/generate.js';
import { chat, demoStore, eventsNamed, shownProducts, user, type ChatAnswer, type DemoStore } from './agent.js';
import { startTestService, type TestService } from './service.js';

/** The products shown this turn: cards and the pieces of looks. */
export const onScreen = (answer: ChatAnswer): any[] => [...shownProducts(answer), ...eventsNamed(answer, 'looks').flatMap((e) => e.looks.flatMap((l: any) => l.items))];

/** A card as the shopper sees it, beside what the product really is. */
export interface Seen {
  itemId: string;
  name: string;
  price: number;
  store: string | null;
  product: any;
  facts: DemoFacts;
  demo: DemoProduct;
}

export type Truth = Pick<DemoStore, 'facts' | 'products'>;

/** The cards of a turn (search_results), each with its ground truth. */
export const cards = (answer: ChatAnswer, truth: Truth): Seen[] => shownProducts(answer).map((card: any) => seen(card, truth));

/** The looks of a turn, each as its pieces with their ground truth. */
export const looksOf = (answer: ChatAnswer, truth: Truth): Array<{ label: string; pieces: Seen[] }> =>
  eventsNamed(answer, 'looks').flatMap((e) => e.looks.map((look: any) => ({ label: look.label, pieces: look.items.map((item: any) => seen(item, truth)) })));

function seen(card: any, truth: Truth): Seen {
  return { itemId: card.itemId, name: card.product.name, price: card.product.price, store: card.store?.name ?? null, product: card.product, facts: truth.facts.get(card.itemId)!, demo: truth.products.get(card.itemId)! };
}

/** The products the shopper could be shown that answer `rule`: in stock, of this truth. */
export const inStock = (truth: Truth, rule: (p: Piece) => boolean): Piece[] =>
  [...truth.products].map(([itemId, demo]) => ({ itemId, facts: demo.facts, demo, price: listPrice(demo) })).filter((p) => !p.facts.soldOut && rule(p));

/** Names of the cards that break a rule: what `t.same(…, [])` reports. */
export const breaking = (list: Seen[], rule: (card: Seen) => boolean): string[] => list.filter((card) => !rule(card)).map((card) => `${card.name} (${card.price})`);

/** What a rule over products reads: the product's truth and the price the shopper pays. */
export type Piece = Pick<Seen, 'itemId' | 'facts' | 'demo' | 'price'>;

/**
 * The cards of a turn against what the store has: when it sells products that answer `rule`,
 * something is shown and every card answers it; when it sells none, the reply says so and shows
 * nothing, or only what `otherwise` allows (the alternatives it says it offers instead).
 */
export function expectCards(t: Test, answer: ChatAnswer, truth: Truth, what: string, rule: (p: Piece) => boolean, options: { otherwise?: (p: Piece) => boolean; todo?: string } = {}): Seen[] {
  const shown = cards(answer, truth);
  const todo = options.todo ? { todo: options.todo } : {};
  const exists = inStock(truth, rule).length > 0;
  if (exists) {
    t.ok(shown.length > 0, `${what}: some shown (the store has them)`, todo);
    t.same(breaking(shown, rule), [], `${what}: every card is one`, todo);
  } else {
    t.match(answer.text, SAYS_NOTHING, `${what}: the store has none, and the reply says so`, todo);
    t.same(breaking(shown, options.otherwise ?? (() => false)), [], `${what}: nothing else shown ${options.otherwise ? 'but the alternatives offered' : 'instead'}`, todo);
  }
  return shown;
}

export const isAdult = (p: { facts: DemoFacts }) => p.facts.ageGroup === 'adult';

/** What a reply says when nothing (more) matched. */
export const SAYS_NOTHING = /(couldn't|could not|can't|cannot) find|were all the|none of|no .* (here|in stock|left)/i;

/** Families of the colours a product is sold in, main first. */
export const colourFamilies = (facts: DemoFacts): ColorFamily[] => [
  facts.colourFamily,
  ...facts.colours.flatMap((name) => {
    const family = colourFamilyOf(name)?.family;
    return family ? [family] : [];
  }),
];

/** Sold in this colour family or one next to it (navy for blue, coral for red). */
export const inColourOrNear = (facts: DemoFacts, wanted: ColorFamily): boolean => colourFamilies(facts).some((c) => c === wanted || areNeighbours(c, wanted));
export const inColour = (facts: DemoFacts, wanted: ColorFamily): boolean => colourFamilies(facts).includes(wanted);

/** Sizes with stock, as the size axis names them ("M", "9"). */
export const sizesInStock = (product: DemoProduct): string[] =>
  (product.input.variants ?? []).filter((v) => v.inStock).map((v) => String(v.options?.find((o) => o.name === 'Size')?.value ?? v.label));

/** The product's price as uploaded (its lowest variant's), in the store's currency. */
export const listPrice = (product: DemoProduct): number => Number(product.input.price);

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/**
 * The store: a capsule wardrobe taken from a large demo pool by family, in the pool's order, with
 * what the scenarios ask for (red and blue dresses, black jeans and boots, white sneakers, men's
 * jackets) taken first where the pool has it, and one sold-out piece of each family, so "never
 * shown when sold out" has something to refuse.
 */
const CAPSULE: Array<[family: string, count: number, prefer?: (f: DemoFacts) => boolean]> = [
  ['dresses', 16, (f) => ['red', 'blue', 'navy'].includes(f.colourFamily) && f.ageGroup === 'adult'],
  ['jumpsuits', 2],
  ['t-shirts', 8],
  ['shirts', 6],
  ['blouses', 4],
  ['sweaters', 6],
  ['polos', 2],
  ['sweatshirts', 3],
  ['jeans', 8, (f) => f.colourFamily === 'black'],
  ['trousers', 6],
  ['skirts', 4],
  ['shorts', 3],
  ['jackets', 9, (f) => f.gender === 'mens'],
  ['coats', 6],
  ['puffers', 4],
  ['boots', 8, (f) => f.colourFamily === 'black'],
  ['sneakers', 8, (f) => f.colourFamily === 'white'],
  ['heels', 5],
  ['sandals', 4],
  ['loafers', 3],
  ['totes', 3],
  ['crossbody bags', 3],
  ['clutches', 2],
  ['hats', 3],
  ['caps', 2],
  ['belts', 2],
  ['scarves', 2],
];

const POOL_SIZE = 1200;

export function capsuleCatalogue(): DemoProduct[] {
  const pool = generateDemoCatalogue({ count: POOL_SIZE });
  return CAPSULE.flatMap(([family, count, prefer]) => {
    const ofFamily = pool.filter((p) => p.facts.family === family);
    const chosen = [...ofFamily.filter((p) => p.facts.soldOut).slice(0, 1), ...(prefer ? ofFamily.filter((p) => prefer(p.facts)) : []), ...ofFamily];
    return [...new Set(chosen)].slice(0, count);
  });
}

/** A second store's few pieces: demo products the capsule left out. */
export function otherStoreCatalogue(taken: readonly DemoProduct[], families: string[], perFamily: number): DemoProduct[] {
  const skus = new Set(taken.map((p) => p.input.sku));
  const pool = generateDemoCatalogue({ count: POOL_SIZE }).filter((p) => !skus.has(p.input.sku) && !p.facts.soldOut && p.facts.ageGroup === 'adult');
  return families.flatMap((family) => pool.filter((p) => p.facts.family === family).slice(0, perFamily));
}

/** What a scenario file talks to: the service and Northwind, the capsule's store. */
export interface ScenarioSetup {
  service: TestService;
  store: DemoStore;
  /** The capsule as uploaded to `store`, for a second store to leave out. */
  capsule: DemoProduct[];
}

/**
 * One service and store for a scenario file, set up by the first test that asks and shared by
 * the rest: a service with workers, and its ingest, cost seconds. `more` adds to it (a second
 * store) before any test sees it.
 */
export function scenarioSetUp<More extends object = object>(t: Test, more?: (setup: ScenarioSetup) => Promise<More>): () => Promise<ScenarioSetup & More> {
  let shared: Promise<ScenarioSetup & More> | undefined;
  return () =>
    (shared ??= (async () => {
      const service = await startTestService(t, { workers: ['ingest', 'agent'] });
      const capsule = capsuleCatalogue();
      const store = await demoStore(service, capsule);
      t.comment(`the store: ${store.products.size} demo products ingested in ${store.ingestMs} ms`);
      const setup = { service, store, capsule };
      return { ...setup, ...(more ? await more(setup) : ({} as More)) };
    })());
}

/** A shopper's message, or how they answer what the turn before showed (tapping an option, a chip). */
export type Said = string | ((previous: ChatAnswer) => string);

/** The shopper's conversation: each message sent with the history the turn before returned. */
export async function converseWith(service: TestService, key: string, messages: Said[], extra: object = {}): Promise<ChatAnswer[]> {
  const answers: ChatAnswer[] = [];
  let history: any[] = [];
  for (const message of messages) {
    const text = typeof message === 'function' ? message(answers.at(-1)!) : message;
    const answer = await chat(service, key, { ...extra, messages: [...history, user(text)] });
    answers.push(answer);
    if (!answer.done) break;
    history = answer.history;
  }
  return answers;
}

/** The label of the first option of the turn's question that matches (any, without a pattern). */
export const option =
  (pattern = /./) =>
  (previous: ChatAnswer): string =>
    eventsNamed(previous, 'question')[0]?.options.find((o: { label: string }) => pattern.test(o.label))?.label ?? '(no such option)';

/** The first chip offered. */
export const chip = (previous: ChatAnswer): string => eventsNamed(previous, 'suggestions').at(-1)?.suggestions[0] ?? '(no chip)';

/** What each tool may put on screen; each event comes between its tool's tool_called and tool_output. */
const CARDS_OF: Readonly<Record<string, readonly string[]>> = {
  search_results: ['show_products'],
  looks: ['compose_looks'],
  question: ['ask_question'],
  suggestions: ['show_products', 'suggest_replies'],
  cart_action: ['read_cart', 'add_to_cart', 'swap_cart_item', 'update_cart_quantity', 'remove_from_cart'],
};

/**
 * What holds of every turn, whatever was asked: a stream that ends with `done`; each tool's cards
 * between its `tool_called` and its `tool_output`; a history that replays this turn; and nothing on
 * screen the shopper cannot buy or that is not this store's.
 */
export function checkTurn(t: Test, answer: ChatAnswer, store: Pick<DemoStore, 'facts'>, sent: number): void {
  t.equal(answer.statusCode, 200, 'the turn answered');
  const names = answer.events.map((e) => e.event);
  t.equal(names.at(-1), 'done', 'done ends the stream');
  t.equal(names.filter((n) => n === 'done' || n === 'error').length, 1, 'one done, no error');
  let open: { callId: string; name: string } | null = null;
  const problems: string[] = [];
  for (const { event, data } of answer.events) {
    if (event === 'tool_called') {
      if (open) problems.push(`${data.name} called while ${open.name} was running`);
      open = { callId: data.callId, name: data.name };
    } else if (event === 'tool_output') {
      if (open?.callId !== data.callId) problems.push(`tool_output ${data.callId} without its tool_called`);
      open = null;
    } else if (CARDS_OF[event] && !CARDS_OF[event].includes(open?.name ?? '')) problems.push(`${event} outside ${CARDS_OF[event].join(' or ')} (during ${open?.name ?? 'no tool'})`);
  }
  t.same(problems, [], 'each tool: tool_called, its cards, then its tool_output');
  t.ok(answer.history.length > sent, 'the history holds the turn');
  t.match(answer.history.at(-1), { type: 'message', role: 'assistant' }, 'the history ends with the reply');
  const unknown = onScreen(answer).filter((p) => !store.facts.has(p.itemId)).map((p) => p.product?.name ?? p.itemId);
  t.same(unknown, [], "only this store's products on screen");
  const unbuyable = onScreen(answer).filter((p) => p.product.available !== true || store.facts.get(p.itemId)?.soldOut).map((p) => p.product.name);
  t.same(unbuyable, [], 'nothing sold out on screen');
}
