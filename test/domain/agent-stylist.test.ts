// The offline stylist's planner, given/when/then: given a conversation (the shopper's words and
// tool results written by hand in the shapes of tools.ts, or played against a small hand-written
// store), when the next step is planned, then these tool calls with these arguments, or this reply.
import fc from 'fast-check';
import t from 'tap';
import type { TurnContext } from '../../domain/agent/context.js';
import { functionCall, functionCallResult, type HistoryEntry } from '../../domain/agent/messages.js';
import { nextStep, type StylistStep } from '../../domain/agent/stylist/index.js';
import { readPhrases } from '../../domain/agent/stylist/phrases.js';
import { composeLooks, nameStem, slotNeeds, type SlotNeed } from '../../domain/agent/stylist/looks.js';
import { parseToolArguments, toolSpecs, type ToolName } from '../../domain/agent/tools.js';
import { byId, CATALOGUE, context, playConversation, playTurn, type Store } from '../support/stylist-catalogue.js';

const store: Store = { products: CATALOGUE };
const user = (content: string): HistoryEntry => ({ role: 'user', content });
let callNumber = 0;
/** A call this turn already made, and what the tool answered. */
const answered = (name: string, args: object, output: unknown): HistoryEntry[] => {
  const id = `c${++callNumber}`;
  return [functionCall(id, name, JSON.stringify(args)), functionCallResult(id, name, JSON.stringify(output))];
};
const found = (...ids: string[]) => ({ currency: 'CAD', total: ids.length, products: ids.map(byId) });
const when = (messages: HistoryEntry[], over: Partial<TurnContext> = {}, imageColours?: string[]): StylistStep =>
  nextStep({ context: context(over), messages, tools: toolSpecs(over.hasCart ?? false).map((s) => s.name), ...(imageColours ? { imageColours: imageColours as never } : {}) });
const names = (step: StylistStep) => step.toolCalls.map((c) => c.name);
const args = (step: StylistStep, name: ToolName, i = 0) => step.toolCalls.filter((c) => c.name === name)[i]?.arguments as Record<string, any>;
const page = (title: string, type: string | null = null): TurnContext['page'] => ({
  title, vendor: null, type, url: null, currency: 'CAD', price: null, priceMin: null, priceMax: null, compareAtPrice: null, available: true, description: null, options: [], variants: [], selectedVariantId: null,
});

t.test('given "red dresses under 80", then a lookup with the garment, colour and budget as filters', async (t) => {
  const step = when([user('red dresses under 80')]);
  t.same(names(step), ['lookup_products']);
  t.match(args(step, 'lookup_products'), { family: 'dress', color: 'red', maxPrice: 80 });
  t.match(step.thinking, /Reading: .*dress · red · under 80 CAD/);
});

t.test('given a budget named in another currency than the shopper\'s, then the lookup takes it converted, not at face value', async (t) => {
  const rupees = when([user('red dresses under 1300 rs')]);
  const { maxPrice } = args(rupees, 'lookup_products');
  t.ok(maxPrice > 15 && maxPrice < 30, `1300 rupees are about 21 CAD (${maxPrice})`);
  t.match(rupees.thinking, new RegExp(`under ${Math.ceil(maxPrice)} CAD`));
  t.match(args(when([user('red dresses under 60 euros')], { currency: 'EUR' }), 'lookup_products'), { maxPrice: 60 }, 'named in the shopper\'s own currency: as written');
  t.match(args(when([user('red dresses under 80')]), 'lookup_products'), { maxPrice: 80 }, 'no currency named: the shopper\'s own');
  const turns = playConversation(store, context(), ['red dresses under 50 pounds', 'show me boots instead']);
  const boots = turns[1]!.calls.find((c) => c.name === 'lookup_products')!.args;
  t.match(boots, { family: 'boot' });
  t.ok(boots.maxPrice > 80 && boots.maxPrice < 100, `a budget said a turn before is converted too: 50 GBP is about 90 CAD (${boots.maxPrice})`);
});

t.test('given the lookup found red dresses, then the best of them go on screen with a label and chips', async (t) => {
  const lookup = when([user('red dresses under 80')]).toolCalls[0]!;
  const step = when([user('red dresses under 80'), ...answered('lookup_products', lookup.arguments, found('d1', 'd2', 'd8'))]);
  t.same(names(step), ['show_products']);
  const show = args(step, 'show_products');
  t.equal(show.label, 'Red dresses under $80');
  t.equal(show.kind, 'list');
  t.same(show.itemIds, ['d1', 'd2'], 'the burgundy dress over budget is not shown');
  t.ok(show.suggestions.includes('Show cheaper') && show.suggestions.includes('Complete the look'));
});

t.test('given the cards are shown, then the reply names them (and each store when several are in scope)', async (t) => {
  const [turn] = playConversation(store, context(), ['red dresses under 80']);
  t.match(turn!.text, /2 red dresses under \$80: Aria Wrap Dress \(\$64\) and Lila Midi Dress \(\$72\)/);
  const several = { products: CATALOGUE.map((p) => ({ ...p, store: p.itemId === 'd1' ? 'Alpha' : 'Beta' })) };
  const [other] = playConversation(several, context({ severalStores: true }), ['red dresses under 80']);
  t.match(other!.text, /several stores/);
  t.match(other!.text, /Aria Wrap Dress \(\$64, Alpha\)/);
});

t.test('given nothing matches, then the colour is relaxed once and said so; budget, size and audience are kept', async (t) => {
  const [turn] = playConversation(store, context(), ['green dresses for women under 100 in size M']);
  const lookups = turn!.calls.filter((c) => c.name === 'lookup_products');
  t.equal(lookups.length, 2);
  t.match(lookups[1]!.args, { family: 'dress', maxPrice: 100, size: 'M' });
  t.notOk('color' in lookups[1]!.args, 'the colour is the one thing let go');
  t.match(lookups[1]!.args.query, /womens/);
  t.match(turn!.text, /couldn't find green dresses .* so here are dresses .* in other colours/);
});

t.test('given nothing matches even relaxed, then nothing is shown: the reply says so and chips are offered', async (t) => {
  const [turn] = playConversation(store, context(), ['purple boots under 30']);
  t.notOk(turn!.calls.some((c) => c.name === 'show_products'), 'no unrelated products to fill the screen');
  t.ok(turn!.calls.some((c) => c.name === 'suggest_replies'));
  t.match(turn!.text, /couldn't find any purple boots under \$30/);
  const [colourOnly] = playConversation(store, context(), ['anything in green?']);
  t.equal(colourOnly!.calls.filter((c) => c.name === 'lookup_products').length, 1, 'a colour alone is never dropped: nothing would be left');
});

t.test('given a garment the store has none of, then its look-alikes are not shown in its place', async (t) => {
  const noBoots = { products: CATALOGUE.filter((p) => p.family !== 'boot') };
  const [turn] = playConversation(noBoots, context(), ['black boots']);
  t.notOk(turn!.calls.some((c) => c.name === 'show_products'), 'sneakers are not boots');
  t.ok(turn!.calls.find((c) => c.name === 'suggest_replies')!.args.suggestions.includes('Show all shoes'), 'the slot is offered as a choice');
});

t.test('given a list on screen, then refinements in later turns build on its search', async (t) => {
  const turns = playConversation(store, context(), ['red dresses under 100', 'cheaper', 'in blue', 'something else', 'show me boots instead', 'for women']);
  const lookup = (i: number) => turns[i]!.calls.find((c) => c.name === 'lookup_products')!.args;
  t.match(lookup(1), { family: 'dress', color: 'red', sort: 'price_low' }, 'cheaper: same dresses, lowest first');
  t.ok(lookup(1).maxPrice < 72 && lookup(1).maxPrice > 71, 'below the median of what was shown ($64, $72, $95)');
  t.match(lookup(2), { family: 'dress', color: 'blue' }, 'in blue: same garment, new colour');
  t.same(lookup(3).excludeItemIds, turns[2]!.calls.find((c) => c.name === 'show_products')!.args.itemIds, 'something else: what was shown is left out');
  t.match(lookup(4), { family: 'boot', maxPrice: 100 }, 'boots instead: the budget the shopper named is kept');
  t.match(lookup(5), { family: 'boot' });
  t.match(lookup(5).query, /womens/, 'for women: the audience joins the words');
});

t.test("given the shopper's own words, then what search reads stays theirs and chat is not searched", async (t) => {
  t.match(args(when([user('a leather jacket cheaper than 150')]), 'lookup_products'), { family: 'jacket', maxPrice: 150, query: 'leather jacket' });
  t.same(names(when([user('tell me a joke')])), ['get_articles'], 'not a search for "teal"');
  t.match(args(when([user('I have a wedding next month, thinking something floral, maybe midi, under 150 if possible')]), 'lookup_products'), { family: 'dress', maxPrice: 150, query: 'floral midi wedding dress' });
});

t.test('given a list on screen, then "under 50", "in size M" and "for men" narrow it', async (t) => {
  const turns = playConversation(store, context(), ['shirts', 'under 60', 'in size M', 'for men']);
  const lookup = (i: number) => turns[i]!.calls.find((c) => c.name === 'lookup_products')!.args;
  t.match(lookup(1), { family: 'shirt', maxPrice: 60 });
  t.match(lookup(2), { family: 'shirt', maxPrice: 60, size: 'M' });
  t.match(lookup(3), { family: 'shirt', maxPrice: 60, size: 'M' });
  t.match(lookup(3).query, /mens/);
});

t.test('given a page product, then "this in blue" and "something similar" search from it', async (t) => {
  const over = { page: page('Aria Wrap Dress', 'Dress') };
  const blue = when([user('do you have this in blue?')], over);
  t.match(args(blue, 'lookup_products'), { family: 'dress', color: 'blue' });
  t.match(args(blue, 'lookup_products').query, /aria/, 'its name ranks the same dress in blue first');
  const [shown] = playConversation(store, context(over), ['do you have this in blue?']);
  t.notMatch(shown!.calls.find((c) => c.name === 'show_products')!.args.label, /aria/i, 'a name is not a describing word');
  const [similar] = playConversation(store, context(over), ['show me something similar']);
  t.notOk(similar!.calls.find((c) => c.name === 'show_products')!.args.itemIds.includes('d1'), 'not the page product itself');
});

t.test('given a card picked with nothing asked of it, then the shopper is offered what to do with it', async (t) => {
  const turns = playConversation(store, context(), ['red dresses', 'I like the second one', 'Show similar pieces']);
  t.same(turns[1]!.calls.find((c) => c.name === 'ask_question')!.args.options, ['Show similar pieces', 'Complete the look']);
  const similar = turns[2]!.calls.find((c) => c.name === 'lookup_products')!.args;
  t.match(similar, { family: 'dress', excludeItemIds: ['d2'] }, 'like the Lila Midi Dress, without it');
  t.match(turns[2]!.text, /like the Lila Midi Dress/);
});

t.test('given a question about one product, then its sizes, price or stock from its brief', async (t) => {
  const [sizes] = playConversation(store, context({ page: page('Aria Wrap Dress') }), ['what sizes does this come in?']);
  t.same(sizes!.calls.map((c) => c.name), ['lookup_products', 'suggest_replies']);
  t.equal(sizes!.text, 'The Aria Wrap Dress is in stock in XS, S, M and L.');
  const turns = playConversation(store, context(), ['boots', 'how much is the second one?', 'is the first one in stock in 44?']);
  t.match(turns[1]!.text, /Suede Ankle Boots are \$120/);
  t.match(turns[2]!.text, /not in stock in size 44 .* in stock in 38, 39, 40, 41 and 42/);
});

t.test("given an adult's request, children's pieces are left out; given a child's, they are what is shown", async (t) => {
  const kids = { products: [...CATALOGUE, { ...byId('d2'), itemId: 'k1', name: "Kids' Gingham Twirl Dress", ageGroup: 'kids' }] };
  const [adult] = playConversation(kids, context(), ['dresses']);
  t.notOk(adult!.calls.find((c) => c.name === 'show_products')!.args.itemIds.includes('k1'));
  const [child] = playConversation(kids, context(), ['a dress for my daughter']);
  t.match(child!.calls[0]!.args.query, /kids/, '"my daughter" reads as a girl');
  t.same(child!.calls.find((c) => c.name === 'show_products')!.args.itemIds, ['k1']);
});

t.test("given a child's search, then an adult named next drops the child's age, and a child named next the adult's gender", async (t) => {
  const kids = { products: [...CATALOGUE, { ...byId('d2'), itemId: 'k1', name: "Kids' Gingham Twirl Dress", ageGroup: 'kids' }] };
  const turns = playConversation(kids, context(), ['kids dresses', 'a dress for women', 'for kids']);
  const lookup = (i: number) => turns[i]!.calls.find((c) => c.name === 'lookup_products')!.args;
  const shown = (i: number) => turns[i]!.calls.find((c) => c.name === 'show_products')!.args.itemIds;
  t.equal(lookup(1).query, 'womens dress', 'for women: not "womens kids dress"');
  t.notOk(shown(1).includes('k1'), "the kids' dress is not shown again");
  t.equal(lookup(2).query, 'kids dress', 'for kids: not "womens kids dress"');
  t.same(shown(2), ['k1']);
  const [, adults] = playConversation(kids, context(), ['kids dresses', 'for adults']);
  t.notOk(adults!.calls.find((c) => c.name === 'show_products')!.args.itemIds.includes('k1'), 'for adults: no kids\' dress');
  t.notMatch(adults!.calls[0]!.args.query, /kids|adult/);
});

t.test('given a style shift or an occasion after a list, then the same garment for it', async (t) => {
  const turns = playConversation(store, context(), ['dresses', 'something dressier', 'for a wedding']);
  t.match(turns[1]!.calls[0]!.args, { family: 'dress', query: 'formal dress' });
  t.match(turns[2]!.calls[0]!.args, { family: 'dress', query: 'wedding dress' });
});

t.test('given a black-tie look for him, then nothing casual is put in it', async (t) => {
  const casual = new Set(['shorts', 'jeans', 't shirt', 'sneaker', 'polo']);
  const [turn] = playConversation(store, context(), ['black tie outfit for him']);
  for (const look of turn!.calls.find((c) => c.name === 'compose_looks')?.args.looks ?? []) for (const id of look.itemIds) t.notOk(casual.has(byId(id).family), byId(id).name);
});

t.test('given a request too open to search, then the store is read and one question asked from what it sells', async (t) => {
  const first = when([user('I need an outfit')]);
  t.same(names(first), ['get_articles']);
  const [turn] = playConversation(store, context(), ['I need an outfit']);
  const question = turn!.calls.find((c) => c.name === 'ask_question')!.args;
  t.match(question.question, /occasion/);
  t.ok(question.options.length >= 3 && question.options.length <= 6);
  const [hi] = playConversation(store, context(), ['hi']);
  const options: string[] = hi!.calls.find((c) => c.name === 'ask_question')!.args.options;
  t.ok(options.includes('Dresses'), 'options are the families the store has most of');
  const [gift] = playConversation(store, context(), ['gift ideas']);
  t.same(gift!.calls.find((c) => c.name === 'ask_question')!.args.options, ['For her', 'For him', 'For anyone']);
  const twice = playConversation(store, context(), ['help me', 'not sure']);
  t.ok(twice[1]!.calls.some((c) => c.name === 'show_products'), 'asked once already: a few pieces rather than the same question');
});

t.test('given the shopper taps an option, then it works as the request it answers', async (t) => {
  const turns = playConversation(store, context(), ['I need an outfit', 'Date night']);
  t.ok(turns[1]!.calls.some((c) => c.name === 'compose_looks'), 'the occasion completes the look request');
  const browse = playConversation(store, context(), ['hi', 'Dresses']);
  t.match(browse[1]!.calls.find((c) => c.name === 'lookup_products')!.args, { family: 'dress' });
  const gift = playConversation(store, context(), ['gift ideas', 'For him']);
  t.equal(gift[1]!.calls.find((c) => c.name === 'show_products')!.args.label, 'Gift ideas for him');
});

t.test('given "outfit for a summer wedding", then slot lookups in parallel and one to two looks composed', async (t) => {
  const [turn] = playConversation(store, context(), ['outfit for a summer wedding']);
  t.equal(turn!.steps[0]!.toolCalls[0]!.name, 'get_articles');
  const parallel = turn!.steps[1]!.toolCalls;
  t.ok(parallel.length >= 2 && parallel.every((c) => c.name === 'lookup_products'), 'one lookup per slot, in one step');
  t.same(parallel.map((c) => c.arguments.slot), ['full body', 'footwear', 'bag']);
  const looks = turn!.calls.find((c) => c.name === 'compose_looks')!.args.looks;
  t.ok(looks.length >= 1 && looks.length <= 2);
  for (const look of looks) {
    const slots = look.itemIds.map((id: string) => byId(id).slot);
    t.equal(new Set(slots).size, slots.length, 'one piece per slot');
    t.notOk(slots.includes('top') || slots.includes('bottom'), 'a dress stands for top and bottom');
  }
  t.match(turn!.text, /two looks for a summer wedding: 1\. .*— \$\d+ in all/);
});

t.test('given the page product, then "what goes with it" builds looks around it', async (t) => {
  const [turn] = playConversation(store, context({ page: page('Straight Leg Jeans') }), ['what goes with it?']);
  t.same(turn!.steps[0]!.toolCalls.map((c) => c.arguments), [{}, { query: 'Straight Leg Jeans', limit: 5 }], 'the page product is looked up for its itemId');
  const looks = turn!.calls.find((c) => c.name === 'compose_looks')!.args.looks;
  for (const look of looks) t.equal(look.itemIds[0], 'b1', 'every look is built on the jeans');
  t.match(turn!.text, /how I'd wear the Straight Leg Jeans/);
});

t.test('given "what shoes go with it" after a list, then shoes are shown and paired with the first card', async (t) => {
  const turns = playConversation(store, context(), ['red dresses', 'what shoes go with it?']);
  const calls = turns[1]!.calls;
  t.same(calls.filter((c) => c.name === 'lookup_products').map((c) => c.args.slot), ['footwear']);
  t.same(calls.find((c) => c.name === 'compose_looks')!.args.looks[0].itemIds[0], 'd1');
  t.match(calls.find((c) => c.name === 'show_products')!.args.label, /^Shoes to wear with the Aria Wrap Dress/);
});

t.test('given looks on screen, then "another look" and "cheaper look" change them', async (t) => {
  const turns = playConversation(store, context(), ['a casual look for him', 'another look', 'cheaper look']);
  const first = turns[0]!.calls.find((c) => c.name === 'compose_looks')!.args.looks;
  const again = turns[1]!.calls.filter((c) => c.name === 'lookup_products');
  for (const lookup of again) for (const look of first) t.ok(look.itemIds.filter((id: string) => ['top', 'bottom'].includes(byId(id).slot)).every((id: string) => lookup.args.excludeItemIds?.includes(id)));
  const cheaper = turns[2]!.calls.find((c) => c.name === 'compose_looks')!.args.looks;
  const total = (ids: string[]) => ids.reduce((sum, id) => sum + byId(id).price, 0);
  const before = Math.min(...turns[1]!.calls.find((c) => c.name === 'compose_looks')!.args.looks.map((l: any) => total(l.itemIds)));
  for (const look of cheaper) t.ok(total(look.itemIds) < before, 'every cheaper look costs less than the cheapest before');
});

const piece = (id: string, over: Partial<ReturnType<typeof byId>> = {}) => ({ ...byId(id), ...over });
const need = (slot: SlotNeed['slot'], optional = false): SlotNeed => ({ slot, families: [], optional });

t.test('composing: one strong colour besides neutrals, one print, the budget, one audience', async (t) => {
  const base = { anchor: null, needs: [need('top'), need('bottom'), need('footwear')], off: [], severalStores: false, exclude: [], basics: [], count: 1 };
  const red = piece('t6', { itemId: 'red-top', colour: 'red', pattern: 'solid' });
  const green = piece('b5', { itemId: 'green-trousers', colour: 'green' });
  const [look] = composeLooks({ ...base, candidates: [[red], [green, piece('b5')], [piece('f3')]] });
  t.same(look!.items.map((p) => p.itemId), ['red-top', 'b5', 'f3'], 'green trousers would clash with a red top: black ones are chosen');
  const [prints] = composeLooks({ ...base, candidates: [[piece('t6')], [piece('b3', { pattern: 'floral' }), piece('b5')], [piece('f3')]] });
  t.same(prints!.items.map((p) => p.itemId), ['t6', 'b5', 'f3'], 'the striped top leads; no second print');
  const [printsOff] = composeLooks({ ...base, off: ['printLeads'], candidates: [[piece('t6')], [piece('b3', { pattern: 'floral' }), piece('b5')], [piece('f3')]] });
  t.equal(printsOff!.items[1]!.itemId, 'b3', 'with printLeads off, the better-ranked print stays');
  const [budget] = composeLooks({ ...base, budget: 130, candidates: [[piece('t1')], [piece('b5'), piece('b2')], [piece('f1'), piece('f3')]] });
  t.ok(budget!.total <= 130);
  const [audience] = composeLooks({ ...base, candidates: [[piece('t2')], [piece('b3'), piece('b2')], [piece('f3')]] });
  t.equal(audience!.items[1]!.itemId, 'b2', "a men's shirt is not worn with a women's skirt");
});

t.test('composing: a matching set stays together; a slot the store lacks takes its house basic', async (t) => {
  const [set] = composeLooks({ anchor: byId('x1'), needs: [need('top'), need('bottom'), need('footwear')], candidates: [[piece('t4')], [piece('b5'), piece('x2')], [piece('f4')]], off: [], severalStores: false, exclude: [], basics: [], count: 1 });
  t.ok(set!.items.some((p) => p.itemId === 'x2'), 'Aria Linen Jacket goes with Aria Linen Trousers');
  t.equal(nameStem('Aria Linen Jacket'), nameStem('Aria Linen Trousers'));
  const basics = [{ basicId: 'b', text: 'plain white tee', slot: 'top' as const }];
  const needs = slotNeeds({ anchor: { slot: 'bottom', family: 'jeans' }, occasions: [], sellsSlot: (slot) => slot !== 'top', sellsFamily: () => true, basics });
  t.same(needs.map((n) => [n.slot, n.basic?.text]), [['top', 'plain white tee'], ['footwear', undefined]]);
  const [look] = composeLooks({ anchor: byId('b1'), needs, candidates: [[], [piece('f3')]], off: [], severalStores: false, exclude: [], basics, count: 1 });
  t.same(look!.basics.map((b) => b.text), ['plain white tee']);
});

const cart = {
  itemCount: 3, total: 255, currency: 'CAD',
  lines: [
    { key: 'L1', title: 'Wool Crew Sweater', variant: 'M', quantity: 1, price: 85, sku: 't5' },
    { key: 'L2', title: 'Leather Chelsea Boots', variant: '40 / Black', quantity: 1, price: 140, sku: 'f1' },
    { key: 'L3', title: 'Silk Tie', variant: null, quantity: 1, price: 30, sku: 'a3' },
  ],
};
const withCart: Store = { products: CATALOGUE, cart };
const cartTurn = (said: string[], over: Partial<TurnContext> = {}) => playConversation(withCart, context({ hasCart: true, ...over }), said);
const change = (turn: { calls: Array<{ name: string; args: any }> }) => turn.calls.filter((c) => c.name !== 'read_cart' && c.name !== 'lookup_products');

t.test('given a cart, then "add this in M" adds the page product in M', async (t) => {
  const [turn] = cartTurn(['add this in M'], { page: page('Aria Wrap Dress') });
  t.same(turn!.calls.map((c) => c.name), ['lookup_products', 'add_to_cart']);
  t.same(turn!.calls[1]!.args, { itemId: 'd1', size: 'M' });
  t.match(turn!.text, /added the Aria Wrap Dress in size M/);
  const [noSize] = cartTurn(['add it to my cart'], { page: page('Aria Wrap Dress') });
  t.same(noSize!.calls.at(-1)!.args.options, ['Size XS', 'Size S', 'Size M', 'Size L'], 'several sizes: ask which');
});

t.test('given a size label with a number ("Toddler 7", "12 months"), then the number is the size, never how many', async (t) => {
  t.equal(readPhrases('add this in Toddler 7').quantity, undefined, 'not seven jackets');
  t.equal(readPhrases('Size Toddler 7').quantity, undefined, 'the answer to "which size" either');
  t.equal(readPhrases('add this in youth 12 to my cart').quantity, undefined);
  t.equal(readPhrases('add this for 18 months').quantity, undefined, 'a number followed by its unit');
  t.equal(readPhrases('add 2 in Toddler 7').quantity, 2, 'a number of its own still counts');
  t.equal(readPhrases('add 3 to my cart').quantity, 3);
});

t.test('given a cart, then line edits read it first and find the line by its words', async (t) => {
  t.same(change(cartTurn(['change the size of my sweater to L'])[0]!), [{ name: 'swap_cart_item', args: { lineKey: 'L1', size: 'L' } }]);
  t.same(change(cartTurn(['remove the tie'])[0]!), [{ name: 'remove_from_cart', args: { lineKey: 'L3' } }]);
  t.same(change(cartTurn(['make the boots two'])[0]!), [{ name: 'update_cart_quantity', args: { lineKey: 'L2', quantity: 2 } }]);
  t.same(change(cartTurn(['size up my jumper'])[0]!), [{ name: 'swap_cart_item', args: { lineKey: 'L1', size: 'L' } }], 'one size up from the variant M');
  const [swap] = cartTurn(['swap the boots for the tan ones in 38']);
  t.match(swap!.calls.find((c) => c.name === 'lookup_products' && c.args.family)!.args, { family: 'boot', color: 'tan' });
  t.same(change(swap!), [{ name: 'swap_cart_item', args: { lineKey: 'L2', itemId: 'f2', size: '38' } }]);
});

t.test('given "make it two" right after an add the cart sent does not show yet, then one more is added', async (t) => {
  const turns = playConversation({ products: CATALOGUE, cart: { ...cart, lines: [] } }, context({ hasCart: true, page: page('Aria Wrap Dress') }), ['add this in M', 'make it two']);
  t.same(change(turns[1]!), [{ name: 'add_to_cart', args: { itemId: 'd1', size: 'M' } }]);
  t.match(turns[1]!.text, /2 × Aria Wrap Dress in size M/);
});

t.test('given a cart edit that names no line, then the shopper is asked which', async (t) => {
  const [turn] = cartTurn(['make it two']);
  t.same(turn!.calls.map((c) => c.name), ['read_cart', 'ask_question']);
  t.same(turn!.calls[1]!.args.options, ['Wool Crew Sweater (M)', 'Leather Chelsea Boots (40 / Black)', 'Silk Tie']);
  const turns = cartTurn(['make it two', 'Silk Tie']);
  t.same(change(turns[1]!), [{ name: 'update_cart_quantity', args: { lineKey: 'L3', quantity: 2 } }], 'the answer completes the request');
});

t.test('given the size asked for is sold out, then the size tapped from those offered is added', async (t) => {
  const turns = cartTurn(['heels', 'add the first one in size 41', 'Size 38']);
  t.same(turns[1]!.calls.at(-1)!.args.options, ['Size 37', 'Size 38', 'Size 39'], '41 is sold out: asked which size');
  t.same(change(turns[2]!), [{ name: 'add_to_cart', args: { itemId: 'f5', size: '38' } }], 'the answer wins over the size it answers');
});

t.test('given a line just changed, then the next edit that names no line means it', async (t) => {
  const resized = cartTurn(['make the sweater two', 'change the size to L']);
  t.same(change(resized[1]!), [{ name: 'swap_cart_item', args: { lineKey: 'L1', size: 'L' } }], 'after a quantity change');
  const doubled = cartTurn(['change the size of my boots to 41', 'make it two']);
  t.same(change(doubled[1]!), [{ name: 'update_cart_quantity', args: { lineKey: 'L2', quantity: 2 } }], 'after a size change');
});

t.test('given "which item do you mean?", then the line tapped is the one changed', async (t) => {
  const turns = cartTurn(['change the size to L', 'Wool Crew Sweater (M)']);
  t.same(turns[0]!.calls.at(-1)!.args.options, ['Wool Crew Sweater (M)', 'Leather Chelsea Boots (40 / Black)', 'Silk Tie']);
  t.same(change(turns[1]!), [{ name: 'swap_cart_item', args: { lineKey: 'L1', size: 'L' } }], 'its words name the line, not the new size');
});

t.test('given "which one should I add?", then the product tapped is the one added, in the size tapped next', async (t) => {
  const turns = cartTurn(['shirts', 'add a shirt', 'Oxford Shirt', 'Size M']);
  t.same(turns[1]!.calls.at(-1)!.args.options, ['Oxford Shirt', 'Linen Camp Shirt']);
  t.match(turns[2]!.calls.at(-1)!.args.question, /Which size of the Oxford Shirt/);
  t.same(change(turns[3]!), [{ name: 'add_to_cart', args: { itemId: 't2', size: 'M' } }]);
});

t.test('given no cart was shared, then a cart edit is answered without tools', async (t) => {
  const step = when([user('add this to my cart in M')], { page: page('Aria Wrap Dress') });
  t.same(step.toolCalls, []);
  t.match(step.text, /can't see or change your cart/);
});

t.test('given a store question, then no tools: the store\'s own site, or each store\'s', async (t) => {
  const one = when([user("what's your return policy?")]);
  t.same(one.toolCalls, []);
  t.match(one.text, /returns.*https:\/\/northwind-atelier\.example/);
  const several = when([user('do you ship to Canada?')], { severalStores: true, stores: [{ name: 'Alpha', domain: 'alpha.example', url: null }, { name: 'Beta', domain: null, url: 'https://beta.example' }] });
  t.match(several.text, /several stores.*Alpha \(https:\/\/alpha\.example\).*Beta \(https:\/\/beta\.example\)/);
});

t.test('given the catalogue cannot be used, then no lookup and the reply says so', async (t) => {
  const step = when([user('red dresses')], { scopeError: 'Dataset d is archived.' });
  t.same(step.toolCalls, []);
  t.match(step.text, /catalogue isn't available/);
});

t.test("given a photo's colour, then it is used with the garment the words name", async (t) => {
  const step = when([user('find shoes like this')], {}, ['navy']);
  t.match(args(step, 'lookup_products'), { slot: 'footwear', color: 'navy' });
  const [turn] = playConversation(store, context(), []);
  t.notOk(turn);
  const photoOnly = playTurn(store, context(), [user('')], ['red']);
  t.match(photoOnly.calls.at(-1)!.args.question, /in red/);
});

t.test('given a thanks, then a short reply with no tools', async (t) => {
  const [, thanks] = playConversation(store, context(), ['red dresses', 'thanks!']);
  t.same(thanks!.calls, []);
  t.match(thanks!.text, /welcome/);
});

const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(tie('value'), { maxLength: 4 }), fc.dictionary(fc.string(), tie('value'), { maxKeys: 4 })),
})).value;
const entry = fc.oneof(
  fc.record({ role: fc.constant('user'), content: fc.oneof(fc.string(), fc.constantFrom('red dresses under 80', 'cheaper', 'swap the shoes for black ones', 'outfit for a wedding', 'hi', 'make it two')) }),
  fc.record({ type: fc.constant('function_call'), callId: fc.constantFrom('a', 'b', 'c'), name: fc.constantFrom('lookup_products', 'show_products', 'compose_looks', 'ask_question', 'read_cart', 'x'), arguments: fc.oneof(fc.string(), json.map((v) => JSON.stringify(v))), status: fc.constant('completed') }),
  fc.record({ type: fc.constant('function_call_result'), callId: fc.constantFrom('a', 'b', 'c'), name: fc.string(), status: fc.constant('completed'), output: fc.record({ type: fc.constant('text'), text: fc.oneof(fc.string(), json.map((v) => JSON.stringify(v)), fc.constant(JSON.stringify(found('d1', 't1')))) }) }),
  json,
);

t.test('whatever it is given, it never throws and only makes valid calls to tools offered', async (t) => {
  fc.assert(
    fc.property(fc.array(entry, { maxLength: 8 }), fc.boolean(), fc.option(fc.string()), fc.array(fc.constantFrom('navy', 'red', 'other', 'nonsense'), { maxLength: 2 }), (messages, hasCart, pageTitle, colours) => {
      const over: Partial<TurnContext> = { hasCart, ...(pageTitle ? { page: page(pageTitle) } : {}) };
      const step = when(messages as HistoryEntry[], over, colours);
      const offered = toolSpecs(hasCart).map((s) => s.name);
      if (!step.toolCalls.length && !step.text) return false;
      return step.toolCalls.every((c) => offered.includes(c.name) && parseToolArguments(c.name, JSON.stringify(c.arguments)).ok);
    }),
    { numRuns: 400 },
  );
  t.doesNotThrow(() => nextStep({ context: null as never, messages: 'nope' as never, tools: undefined as never }));
  t.doesNotThrow(() => nextStep({ context: { ...context(), styling: undefined } as never, messages: [user('outfit for a wedding')], tools: ['get_articles'] }));
});

t.test('the same conversation always gives the same step, quickly', async (t) => {
  const conversation = playConversation(store, context(), ['red dresses under 100', 'cheaper'])[1]!.history.slice(0, -1);
  const a = when(conversation);
  const b = when(structuredClone(conversation));
  t.same(a, b);
  const started = performance.now();
  for (let i = 0; i < 50; i++) when(conversation);
  t.ok((performance.now() - started) / 50 < 5, 'a step takes a few milliseconds at most');
});
