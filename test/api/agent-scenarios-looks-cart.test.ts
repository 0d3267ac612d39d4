// What a shopper sees, conversation by conversation (the shape of agent-scenarios.test.ts): looks
// (an occasion, the page's product, "what goes with it", cheaper and other looks), the cart (add
// from the page, quantities, sizes, removing and swapping lines named in the shopper's words), and
// an organization of two stores (each product's store named, policy questions sent to each store's
// site, a scope narrowed by dataset or by the storefront's origin). Products, cart lines and page
// products are chosen by their ground truth, never by id.
import t, { type Test } from 'tap';
import { DEMO_STORE, type DemoProduct } from '../../domain/demo-catalogue/generate.js';
import { demoStore, eventsNamed, type ChatAnswer, type DemoStore } from '../support/agent.js';
import {
  breaking,
  cards,
  checkTurn,
  converseWith,
  expectCards,
  inColourOrNear,
  isAdult,
  listPrice,
  looksOf,
  median,
  onScreen,
  option,
  otherStoreCatalogue,
  SAYS_NOTHING,
  scenarioSetUp,
  sizesInStock,
  type Piece,
  type Said,
  type ScenarioSetup,
  type Seen,
  type Truth,
} from '../support/agent-scenarios.js';

const HARBOUR = { storeUrl: 'https://harbour-and-pine.example', storeName: 'Harbour & Pine', currency: 'CAD' };

/** The scenarios' service and store (Northwind Atelier: the capsule), and a second store. */
interface Setup extends ScenarioSetup {
  /** Harbour & Pine: a few coats, dresses and sneakers, in the same organization. */
  other: DemoStore;
  /** Both stores' products. */
  truth: Truth;
}

const setUp = scenarioSetUp(t, async ({ service, store, capsule }): Promise<Pick<Setup, 'other' | 'truth'>> => {
  const other = await demoStore(service, otherStoreCatalogue(capsule, ['coats', 'dresses', 'sneakers'], 3), { org: store.org, name: 'Harbour', config: HARBOUR });
  t.comment(`the second store: ${other.products.size} demo products ingested in ${other.ingestMs} ms`);
  const truth = { facts: new Map([...store.facts, ...other.facts]), products: new Map([...store.products, ...other.products]) };
  return { other, truth };
});

/**
 * A conversation, every turn answered and passing what every turn must: scoped to Northwind's
 * dataset (nothing of Harbour & Pine's on screen) unless `extra` sends a scope of its own.
 */
async function talk(t: Test, messages: Said[], extra: object = {}): Promise<ChatAnswer[]> {
  const { service, store, truth } = await setUp();
  const own = 'datasetIds' in extra || 'store' in extra;
  const answers = await converseWith(service, store.org.publicKey, messages, own ? extra : { datasetIds: [store.datasetId], ...extra });
  t.equal(answers.length, messages.length, 'every turn answered');
  let sent = 0;
  for (const answer of answers) {
    checkTurn(t, answer, own ? truth : store, sent + 1);
    sent = answer.history.length;
  }
  return answers;
}

/** The first in-stock product of Northwind's that answers `rule`, with its itemId. */
async function productWhere(rule: (p: DemoProduct) => boolean): Promise<{ itemId: string; demo: DemoProduct }> {
  const { store } = await setUp();
  const found = [...store.products].find(([, p]) => !p.facts.soldOut && rule(p));
  if (!found) throw new Error('the store has no such product');
  return { itemId: found[0], demo: found[1] };
}

const pageOf = (demo: DemoProduct) => ({
  product: { title: demo.input.name, price: Math.round(listPrice(demo) * 100), currency: DEMO_STORE.currency, available: true, options: [{ name: 'Size', values: sizesInStock(demo) }] },
});

/** A cart line of `demo` in `size`, linked by sku (or, without, by its exact title). */
function line(key: string, demo: DemoProduct, size: string, bySku = true) {
  const variant = demo.input.variants!.find((v) => v.inStock && v.options?.some((o) => o.name === 'Size' && o.value === size))!;
  return { key, title: demo.input.name, variant: variant.label, quantity: 1, price: Number(variant.price), sku: bySku ? String(variant.sku) : null, image: null };
}

/** A cart of a hat, a cardigan in M (L in stock too) and a tote linked by its title only. */
async function cartSetUp() {
  const hat = await productWhere((p) => p.facts.family === 'hats' && sizesInStock(p).length > 0);
  const cardigan = await productWhere((p) => /cardigan/i.test(p.input.name) && ['M', 'L'].every((s) => sizesInStock(p).includes(s)));
  const tote = await productWhere((p) => p.facts.family === 'totes');
  const lines = [line('line-hat', hat.demo, sizesInStock(hat.demo)[0]!), line('line-cardigan', cardigan.demo, 'M'), line('line-tote', tote.demo, sizesInStock(tote.demo)[0]!, false)];
  const cart = { itemCount: 3, total: Math.round(lines.reduce((sum, l) => sum + l.price, 0) * 100) / 100, currency: DEMO_STORE.currency, items: lines };
  return { hat, cardigan, tote, cart };
}

const SESSION = '3f2a1b0c-9d8e-4f7a-8b6c-5d4e3f2a1b0c';
const LEAD = new Set(['top', 'bottom', 'full body', 'outerwear']);
const totalOf = (pieces: Seen[]) => pieces.reduce((sum, p) => sum + p.price, 0);
const sizeOfVariant = (variant: string) => variant.split('/').map((part) => part.trim()).at(-1);

/** One product per slot (a full-body piece is both top and bottom), at least two pieces, for adults. */
function expectWearable(t: Test, answer: ChatAnswer, truth: Truth): Array<{ label: string; pieces: Seen[] }> {
  const looks = looksOf(answer, truth);
  t.ok(looks.length >= 1, 'a look');
  for (const { label, pieces } of looks) {
    const slots = pieces.flatMap((p) => (p.facts.slot === 'full body' ? ['top', 'bottom', 'full body'] : [p.facts.slot]));
    t.ok(pieces.length >= 2, `${label}: pieces worn together`);
    t.equal(new Set(slots).size, slots.length, `${label}: one piece per slot`);
    t.same(breaking(pieces, isAdult), [], `${label}: nothing for kids`);
  }
  return looks;
}

t.test('an outfit for a summer wedding, a cheaper look, another look', async (t) => {
  const { truth } = await setUp();
  const [wedding, cheaper, another] = await talk(t, ['an outfit for a summer wedding', 'a cheaper look', 'another look']);
  const first = expectWearable(t, wedding!, truth);
  const bound = Math.min(...first.map((l) => totalOf(l.pieces)));
  const second = expectWearable(t, cheaper!, truth);
  t.same(second.filter((l) => totalOf(l.pieces) >= bound).map((l) => l.label), [], `cheaper: each under ${bound} in all`);
  const worn = new Set(second.flatMap((l) => l.pieces.filter((p) => LEAD.has(p.facts.slot)).map((p) => p.itemId)));
  const third = expectWearable(t, another!, truth);
  t.same(third.flatMap((l) => l.pieces.filter((p) => worn.has(p.itemId)).map((p) => p.name)), [], 'another look: none of the last look\'s main pieces');
});

t.test('the page\'s dress: what goes with it, then cheaper', async (t) => {
  const { truth } = await setUp();
  const dress = await productWhere((p) => p.facts.family === 'dresses' && isAdult(p));
  const [looks, cheaper] = await talk(t, ['what goes with it', 'cheaper'], { page: pageOf(dress.demo) });
  const first = expectWearable(t, looks!, truth);
  t.same(first.filter((l) => !l.pieces.some((p) => p.itemId === dress.itemId)).map((l) => l.label), [], 'every look is built on the page\'s dress');
  const second = expectWearable(t, cheaper!, truth);
  t.same(second.filter((l) => !l.pieces.some((p) => p.itemId === dress.itemId)).map((l) => l.label), [], 'still on the dress');
  const bound = Math.min(...first.map((l) => totalOf(l.pieces)));
  t.same(second.filter((l) => totalOf(l.pieces) >= bound).map((l) => l.label), [], `each under ${bound} in all`);
});

t.test('the page\'s jeans: complete the look, then what shoes go with it', async (t) => {
  const { truth } = await setUp();
  const jeans = await productWhere((p) => p.facts.family === 'jeans' && isAdult(p));
  const [looks, shoes] = await talk(t, ['complete the look', 'what shoes go with it'], { page: pageOf(jeans.demo) });
  const first = expectWearable(t, looks!, truth);
  t.same(first.filter((l) => !l.pieces.some((p) => p.itemId === jeans.itemId)).map((l) => l.label), [], 'every look is built on the jeans');
  const shown = cards(shoes!, truth);
  t.ok(shown.length > 0, 'shoes shown');
  const theirs = jeans.demo.facts.gender;
  t.same(breaking(shown, (c) => c.facts.slot === 'footwear' && isAdult(c) && (c.facts.gender === theirs || c.facts.gender === 'unisex')), [], "shoes, for the jeans' wearer");
  t.ok(looksOf(shoes!, truth).every((l) => l.pieces.some((p) => p.itemId === jeans.itemId) && l.pieces.some((p) => p.facts.slot === 'footwear')), 'and the pick styled with the jeans');
});

t.test('a page product the store does not sell: what goes with it, then thanks', async (t) => {
  const { truth } = await setUp();
  const [looks, thanks] = await talk(t, ['what goes with it', 'thanks'], { page: { product: { title: 'Vintage Band Tee', type: 'T-Shirts', price: 3000, currency: 'CAD' } } });
  const built = expectWearable(t, looks!, truth);
  t.same(built.flatMap((l) => l.pieces.filter((p) => p.facts.slot === 'top' || p.facts.slot === 'full body').map((p) => p.name)), [], 'the tee is the top: no other top in the looks');
  t.same(onScreen(thanks!), [], 'thanks: nothing shown');
  t.ok(thanks!.text.trim(), 'thanks: a reply');
});

t.test('a casual look for him, then another look', async (t) => {
  const { truth } = await setUp();
  const [casual, another] = await talk(t, ['a casual look for him', 'another look']);
  const first = expectWearable(t, casual!, truth);
  const second = expectWearable(t, another!, truth);
  t.same([...first, ...second].flatMap((l) => breaking(l.pieces, (p) => p.facts.gender !== 'womens')), [], "nothing only for women");
  const worn = new Set(first.flatMap((l) => l.pieces.filter((p) => LEAD.has(p.facts.slot)).map((p) => p.itemId)));
  t.same(second.flatMap((l) => l.pieces.filter((p) => worn.has(p.itemId)).map((p) => p.name)), [], "another look: none of the last looks' main pieces");
});

t.test('I need an outfit: the occasion asked, then date night', async (t) => {
  const { truth } = await setUp();
  const [asked, date] = await talk(t, ['I need an outfit', option(/date night/i)]);
  const [question] = eventsNamed(asked!, 'question');
  t.ok(question?.options.some((o: { label: string }) => /date night/i.test(o.label)), 'the occasion asked, date night among the options');
  t.same(onScreen(asked!), [], 'nothing shown before the answer');
  expectWearable(t, date!, truth);
});

t.test('a summer outfit for her, then cheaper', async (t) => {
  const { truth } = await setUp();
  const [summer, cheaper] = await talk(t, ['a summer outfit for her', 'cheaper']);
  const first = expectWearable(t, summer!, truth);
  const second = expectWearable(t, cheaper!, truth);
  t.same([...first, ...second].flatMap((l) => breaking(l.pieces, (p) => p.facts.gender !== 'mens')), [], 'nothing only for men');
  const warm = new Set(['coats', 'puffers', 'boots', 'scarves']);
  t.same([...first, ...second].flatMap((l) => breaking(l.pieces, (p) => !warm.has(p.facts.family))), [], 'nothing for the cold in a summer look');
  const bound = Math.min(...first.map((l) => totalOf(l.pieces)));
  t.same(second.filter((l) => totalOf(l.pieces) >= bound).map((l) => l.label), [], `each under ${bound} in all`);
});

t.test('an outfit for date night, then in black', async (t) => {
  const { truth } = await setUp();
  const [, black] = await talk(t, ['an outfit for date night', 'in black']);
  const looks = expectWearable(t, black!, truth);
  t.same(looks.filter((l) => !l.pieces.some((p) => inColourOrNear(p.facts, 'black'))).map((l) => l.label), [], 'each look has black in it');
});

t.test('a dress for a wedding, then what shoes go with it', async (t) => {
  const { truth } = await setUp();
  const [dresses, shoes] = await talk(t, ['a dress for a wedding', 'what shoes go with it']);
  const shown = expectCards(t, dresses!, truth, 'dresses', (p) => p.facts.family === 'dresses' && isAdult(p));
  const pairs = cards(shoes!, truth);
  t.ok(pairs.length > 0, 'shoes shown');
  t.same(breaking(pairs, (c) => c.facts.slot === 'footwear' && c.facts.gender !== 'mens'), [], 'every card is a shoe she can wear');
  t.ok(looksOf(shoes!, truth).some((l) => l.pieces.some((p) => p.itemId === shown[0]?.itemId)), 'styled with the first dress shown');
});

t.test('add this in M from the page, with a session, then make it two', async (t) => {
  const shirt = await productWhere((p) => p.facts.family === 'shirts' && isAdult(p) && sizesInStock(p).includes('M'));
  const { cart } = await cartSetUp();
  const [added, two] = await talk(t, ['add this in M', 'make it two'], { page: pageOf(shirt.demo), cart, sessionId: SESSION });
  const [add] = eventsNamed(added!, 'cart_action').filter((a) => a.action === 'add');
  t.match(add, { action: 'add', product: { itemId: shirt.itemId }, quantity: 1, currency: DEMO_STORE.currency, intent: String }, "the page's shirt added, with an intent");
  t.equal(sizeOfVariant(add?.product.variant ?? ''), 'M', 'in M');
  const variant = shirt.demo.input.variants!.find((v) => v.sku === add?.product.sku);
  t.equal(add?.price, variant?.price, "at the variant's price");
  // The snapshot sent with the second turn predates the add, as a cart that has not refreshed yet.
  const more = eventsNamed(two!, 'cart_action').filter((a) => a.action !== 'read');
  t.match(more, [{ action: 'add', product: { itemId: shirt.itemId, sku: add?.product.sku }, quantity: 1, intent: String }], 'one more of the shirt in M: two in all');
});

t.test('add this in M without a session, then remove the hat', async (t) => {
  const shirt = await productWhere((p) => p.facts.family === 'shirts' && isAdult(p) && sizesInStock(p).includes('M'));
  const { cart } = await cartSetUp();
  const [added, removed] = await talk(t, ['add this in M', 'remove the hat'], { page: pageOf(shirt.demo), cart });
  t.match(eventsNamed(added!, 'cart_action').find((a) => a.action === 'add'), { product: { itemId: shirt.itemId }, intent: null }, 'added, no intent without a session');
  t.match(eventsNamed(removed!, 'cart_action').filter((a) => a.action !== 'read'), [{ action: 'remove', lineKey: 'line-hat', quantity: 0 }], 'the hat line removed, and only it');
});

t.test("remove the hat, then what's in my cart", async (t) => {
  const { cart } = await cartSetUp();
  const [removed, read] = await talk(t, ['remove the hat', "what's in my cart?"], { cart });
  t.match(eventsNamed(removed!, 'cart_action').filter((a) => a.action !== 'read'), [{ action: 'remove', lineKey: 'line-hat' }], 'the hat line removed');
  t.match(eventsNamed(read!, 'cart_action'), [{ action: 'read', cart: { itemCount: cart.itemCount, total: cart.total, lines: cart.items.length } }], 'the cart read');
  t.ok(cart.items.every((l) => read!.text.includes(l.title)), 'and each line named');
});

t.test('make the cardigan two, then change the size to L', async (t) => {
  const { cart, cardigan } = await cartSetUp();
  const lineOrThanks = (previous: ChatAnswer) => (eventsNamed(previous, 'question').length ? option(/cardigan/i)(previous) : 'thanks');
  const [two, large, tapped] = await talk(t, ['make the cardigan two', 'change the size to L', lineOrThanks], { cart });
  t.match(eventsNamed(two!, 'cart_action').filter((a) => a.action !== 'read'), [{ action: 'quantity', lineKey: 'line-cardigan', quantity: 2 }], 'two cardigans');
  const swapped = (answer: ChatAnswer) => eventsNamed(answer, 'cart_action').filter((a) => a.action !== 'read');
  t.match(swapped(large!), [{ action: 'swap', lineKey: 'line-cardigan', product: { itemId: cardigan.itemId, variant: /\bL$/ } }], 'the cardigan just talked about, in L');
  t.match([...swapped(large!), ...swapped(tapped!)], [{ action: 'swap', lineKey: 'line-cardigan', product: { itemId: cardigan.itemId, variant: /\bL$/ } }], 'once the cardigan is tapped: in L');
});

t.test('change the size to L, then tap the cardigan', async (t) => {
  const { cart, cardigan } = await cartSetUp();
  const [asked, tapped] = await talk(t, ['change the size to L', option(/cardigan/i)], { cart });
  t.ok(eventsNamed(asked!, 'question')[0]?.options.some((o: { label: string }) => /cardigan/i.test(o.label)), 'no line named: asked which, the cardigan among the options');
  t.match(eventsNamed(tapped!, 'cart_action').filter((a) => a.action !== 'read'), [{ action: 'swap', lineKey: 'line-cardigan', product: { itemId: cardigan.itemId, variant: /\bL$/ } }], 'the cardigan tapped, in L');
});

t.test('a cart of one line: change the size to L', async (t) => {
  const { cart, cardigan } = await cartSetUp();
  const one = { ...cart, itemCount: 1, total: cart.items[1]!.price, items: [cart.items[1]!] };
  const [large, thanks] = await talk(t, ['change the size to L', 'thanks'], { cart: one });
  const [swap] = eventsNamed(large!, 'cart_action').filter((a) => a.action !== 'read');
  t.match(swap, { action: 'swap', lineKey: 'line-cardigan', product: { itemId: cardigan.itemId } }, 'its one line swapped for the same cardigan');
  t.equal(sizeOfVariant(swap?.product.variant ?? ''), 'L', 'in L');
  t.same(eventsNamed(thanks!, 'cart_action'), [], 'thanks: the cart left alone');
});

t.test('swap the tote (linked by title only) for a crossbody bag', async (t) => {
  const { truth } = await setUp();
  const { cart } = await cartSetUp();
  const [swapped, thanks] = await talk(t, ['swap the tote for a crossbody bag', 'thanks'], { cart });
  const [swap] = eventsNamed(swapped!, 'cart_action').filter((a) => a.action !== 'read');
  t.match(swap, { action: 'swap', lineKey: 'line-tote' }, 'the tote line swapped');
  const facts = truth.facts.get(swap?.product.itemId);
  t.equal(facts?.family, 'crossbody bags', 'for a crossbody bag');
  t.notOk(facts?.soldOut, 'one in stock');
  t.same(eventsNamed(thanks!, 'cart_action'), [], 'thanks: the cart left alone');
});

t.test('heels, then add the first one in size 8', async (t) => {
  const { truth } = await setUp();
  const { cart } = await cartSetUp();
  const sizeOrThanks = (previous: ChatAnswer) => (eventsNamed(previous, 'question').length ? option()(previous) : 'thanks');
  const [heels, add, chosen] = await talk(t, ['heels', 'add the first one in size 8', sizeOrThanks], { cart, sessionId: SESSION });
  const [first] = expectCards(t, heels!, truth, 'heels', (p) => p.facts.family === 'heels' && isAdult(p));
  const stocked = sizesInStock(first!.demo);
  const added = [...eventsNamed(add!, 'cart_action'), ...eventsNamed(chosen!, 'cart_action')].filter((a) => a.action === 'add');
  if (stocked.includes('8')) t.match(eventsNamed(add!, 'cart_action'), [{ action: 'add', product: { itemId: first!.itemId, variant: /\b8$/ } }], 'the first heels added in 8');
  else {
    const options = eventsNamed(add!, 'question')[0]?.options.map((o: { label: string }) => o.label.replace(/^Size /, '')) ?? [];
    t.same(options, stocked, '8 is sold out: asked which size, offering those in stock');
    t.match(added, [{ action: 'add', product: { itemId: first!.itemId, variant: new RegExp(`\\b${stocked[0]}$`) }, intent: String }], 'the size tapped is added');
  }
});

t.test("what's in my cart, then remove the first one", async (t) => {
  const { cart } = await cartSetUp();
  const [, removed] = await talk(t, ["what's in my cart?", 'remove the first one'], { cart });
  t.match(eventsNamed(removed!, 'cart_action').filter((a) => a.action !== 'read'), [{ action: 'remove', lineKey: cart.items[0]!.key }], 'the first line removed');
});

t.test('no cart shared: remove the hat, then hi', async (t) => {
  const [removed, hi] = await talk(t, ['remove the hat', 'hi']);
  t.same(eventsNamed(removed!, 'cart_action'), [], 'no cart action');
  t.match(removed!.text, /cart/i, 'told the cart cannot be changed from here');
  t.ok(eventsNamed(hi!, 'question')[0]?.options.length >= 2, 'hi: a question');
});

/** The store a card's product belongs to, by which store uploaded it. */
const storeOf = (setup: Setup, itemId: string) => (setup.store.facts.has(itemId) ? DEMO_STORE.name : setup.other.facts.has(itemId) ? HARBOUR.storeName : null);

t.test("two stores in scope: each product's store named, then a policy question sent to each store", async (t) => {
  const setup = await setUp();
  const [coats, policy] = await talk(t, ['a coat', "what's your return policy?"], { datasetIds: [] });
  const shown = expectCards(t, coats!, setup.truth, 'coats', (p) => p.facts.family === 'coats' && isAdult(p));
  t.same(breaking(shown, (c) => c.store === storeOf(setup, c.itemId)), [], 'every card carries its own store');
  t.match(coats!.text, /several stores/i, 'the reply says it speaks for several stores');
  const named = shown.filter((c) => coats!.text.includes(c.name));
  t.ok(named.length > 0, 'products named in the reply');
  const storeNear = (c: Seen) => coats!.text.slice(coats!.text.indexOf(c.name), coats!.text.indexOf(c.name) + c.name.length + 40).includes(c.store!);
  t.same(named.filter((c) => !storeNear(c)).map((c) => c.name), [], 'each named with its store');
  t.same(onScreen(policy!), [], 'a policy question shows nothing');
  t.ok(policy!.text.includes(DEMO_STORE.url) && policy!.text.includes(HARBOUR.storeUrl), "each store's own site given");
});

t.test('two stores in scope: dresses from either, then cheaper', async (t) => {
  const setup = await setUp();
  const [dresses, cheaper] = await talk(t, ['dresses', 'cheaper'], { datasetIds: [] });
  const dress = (p: Piece) => p.facts.family === 'dresses' && isAdult(p);
  const shown = expectCards(t, dresses!, setup.truth, 'dresses', dress);
  const bound = median(shown.map((c) => c.price));
  expectCards(t, cheaper!, setup.truth, `dresses under ${bound}`, (p) => dress(p) && p.price < bound);
  t.same(breaking([...shown, ...cards(cheaper!, setup.truth)], (c) => c.store === storeOf(setup, c.itemId)), [], 'every card carries its own store');
});

t.test('scoped to one dataset: only its products, and no talk of several stores', async (t) => {
  const setup = await setUp();
  const [coats, dresses] = await talk(t, ['a coat', 'dresses'], { datasetIds: [setup.other.datasetId] });
  const only = { facts: setup.other.facts, products: setup.other.products };
  expectCards(t, coats!, only, 'its coats', (p) => p.facts.family === 'coats');
  expectCards(t, dresses!, only, 'its dresses', (p) => p.facts.family === 'dresses');
  t.same([...cards(coats!, setup.truth), ...cards(dresses!, setup.truth)].filter((c) => !setup.other.facts.has(c.itemId)).map((c) => c.name), [], 'nothing of the other store');
  t.notMatch(`${coats!.text} ${dresses!.text}`, /several stores/i, 'one store: no talk of several');
});

t.test("a storefront's origin narrows the scope: its dresses, cheaper, its own policy", async (t) => {
  const setup = await setUp();
  const [dresses, cheaper, policy] = await talk(t, ['dresses', 'cheaper', "what's your return policy?"], { store: { origin: HARBOUR.storeUrl, shop: null } });
  const only = { facts: setup.other.facts, products: setup.other.products };
  expectCards(t, dresses!, only, "Harbour & Pine's dresses", (p) => p.facts.family === 'dresses');
  t.same([...cards(dresses!, setup.truth), ...cards(cheaper!, setup.truth)].filter((c) => !setup.other.facts.has(c.itemId)).map((c) => c.name), [], "nothing of Northwind's");
  t.ok(policy!.text.includes(HARBOUR.storeUrl), "pointed to Harbour & Pine's site");
  t.notOk(policy!.text.includes(DEMO_STORE.url), "not to Northwind's");
  t.notMatch(policy!.text, SAYS_NOTHING, 'a policy answer, not a failed search');
});

t.test('sneakers, then add the second one in size 9', async (t) => {
  const { truth } = await setUp();
  const { cart } = await cartSetUp();
  const [sneakers, added] = await talk(t, ['sneakers', 'add the second one in size 9'], { cart, sessionId: SESSION });
  const second = expectCards(t, sneakers!, truth, 'sneakers', (p) => p.facts.family === 'sneakers' && isAdult(p))[1];
  t.ok(second, 'a second card');
  const add = eventsNamed(added!, 'cart_action').find((a) => a.action === 'add');
  if (second && sizesInStock(second.demo).includes('9')) t.match(add, { product: { itemId: second.itemId, variant: /\b9$/ }, intent: String }, 'the second card added in 9');
  else t.ok(!add && eventsNamed(added!, 'question').length, '9 sold out: asked instead of adding');
});
