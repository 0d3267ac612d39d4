// What a shopper sees, conversation by conversation: POST /v2/agent/chat through HTTP with the
// agent and ingest workers running and the built-in offline stylist as the model, over a store of
// demo-catalogue products whose ground truth (family, colour, audience, sizes, sale, sold out) the
// test knows. Each conversation replays the history of the turn before; every turn is checked for
// what always holds (a stream that ends with done, each tool's cards between its calls, nothing
// sold out or foreign on screen), then for what this conversation asked, from the facts of what
// the store sells. This file: searching and refining, budgets, sizes, audiences, questions, store
// questions, markets and thinking. Looks, the cart and several stores:
// agent-scenarios-looks-cart.test.ts.
import t, { type Test } from 'tap';
import { DEMO_STORE } from '../../domain/demo-catalogue/generate.js';
import { eventsNamed, type ChatAnswer } from '../support/agent.js';
import {
  breaking,
  cards,
  checkTurn,
  chip,
  converseWith,
  expectCards,
  inColour,
  inColourOrNear,
  isAdult,
  listPrice,
  looksOf,
  median,
  onScreen,
  option,
  inStock,
  SAYS_NOTHING,
  scenarioSetUp,
  sizesInStock,
  type Piece,
  type Said,
} from '../support/agent-scenarios.js';

const setUp = scenarioSetUp(t);

/** A conversation, every turn answered and passing what every turn must. */
async function talk(t: Test, messages: Said[], extra: object = {}): Promise<ChatAnswer[]> {
  const { service, store } = await setUp();
  const answers = await converseWith(service, store.org.publicKey, messages, extra);
  t.equal(answers.length, messages.length, 'every turn answered');
  let sent = 0;
  for (const answer of answers) {
    checkTurn(t, answer, store, sent + 1);
    sent = answer.history.length;
  }
  return answers;
}

const of = (family: string) => (p: Piece) => p.facts.family === family && isAdult(p);
const sized = (size: string) => (p: Piece) => sizesInStock(p.demo).includes(size);
const under = (bound: number) => (p: Piece) => p.price < bound;
const notFor = (gender: string) => (p: Piece) => p.facts.gender !== gender;
const all =
  (...rules: Array<(p: Piece) => boolean>) =>
  (p: Piece) =>
    rules.every((rule) => rule(p));

t.test('a red dress, cheaper, in blue, something else', async (t) => {
  const { store } = await setUp();
  const [red, cheaper, blue, other] = await talk(t, ['a red dress', 'cheaper', 'in blue', 'something else']);
  const dress = of('dresses');
  const first = expectCards(t, red!, store, 'red dresses', all(dress, (p) => inColourOrNear(p.facts, 'red')));
  t.ok(first.some((c) => inColour(c.facts, 'red')), 'the red ones among them');
  const bound = median(first.map((c) => c.price));
  expectCards(t, cheaper!, store, `dresses under ${bound}`, all(dress, under(bound)));
  expectCards(t, cheaper!, store, 'still red', all(dress, under(bound), (p) => inColourOrNear(p.facts, 'red')));
  const blues = expectCards(t, blue!, store, 'blue dresses', all(dress, (p) => inColourOrNear(p.facts, 'blue')));
  const shown = new Set(blues.map((c) => c.itemId));
  expectCards(t, other!, store, 'something else: other dresses', (p) => dress(p) && !shown.has(p.itemId));
});

t.test('boots under 300, then in black: the budget holds', async (t) => {
  const { store } = await setUp();
  const [boots, black] = await talk(t, ['boots under 300', 'in black']);
  const budget = all(of('boots'), (p) => p.price <= 300);
  expectCards(t, boots!, store, 'boots under 300', budget);
  expectCards(t, black!, store, 'black boots under 300', all(budget, (p) => inColourOrNear(p.facts, 'black')), { otherwise: budget });
});

t.test('a jacket for him, then cheaper: never a women\'s jacket', async (t) => {
  const { store } = await setUp();
  const [jackets, cheaper] = await talk(t, ['a jacket for him', 'cheaper']);
  const first = expectCards(t, jackets!, store, "men's jackets", all(of('jackets'), notFor('womens')));
  expectCards(t, cheaper!, store, "cheaper men's jackets", all(of('jackets'), notFor('womens'), under(median(first.map((c) => c.price)))));
});

t.test('a dress in size M, then in navy: the size holds', async (t) => {
  const { store } = await setUp();
  const [dresses, navy] = await talk(t, ['a dress in size M', 'in navy']);
  expectCards(t, dresses!, store, 'dresses with M in stock', all(of('dresses'), sized('M')));
  expectCards(t, navy!, store, 'navy dresses with M in stock', all(of('dresses'), sized('M'), (p) => inColourOrNear(p.facts, 'navy')));
});

t.test('sneakers, then size 9', async (t) => {
  const { store } = await setUp();
  const [sneakers, nine] = await talk(t, ['sneakers', 'size 9']);
  expectCards(t, sneakers!, store, 'sneakers', of('sneakers'));
  expectCards(t, nine!, store, 'sneakers with 9 in stock', all(of('sneakers'), sized('9')));
});

t.test('jeans, then size 28', async (t) => {
  const { store } = await setUp();
  const [jeans, waist] = await talk(t, ['jeans', 'size 28']);
  expectCards(t, jeans!, store, 'jeans', of('jeans'));
  expectCards(t, waist!, store, 'jeans with 28 in stock', all(of('jeans'), sized('28')));
});

t.test('a sweater under 100, then in size L', async (t) => {
  const { store } = await setUp();
  const [sweaters, large] = await talk(t, ['a sweater under 100', 'in size L']);
  const budget = all(of('sweaters'), (p) => p.price <= 100);
  expectCards(t, sweaters!, store, 'sweaters under 100', budget);
  expectCards(t, large!, store, 'sweaters under 100 with L in stock', all(budget, sized('L')));
});

t.test('coats under 300, then more premium', async (t) => {
  const { store } = await setUp();
  const [coats, premium] = await talk(t, ['coats under 300', 'more premium']);
  const first = expectCards(t, coats!, store, 'coats under 300', all(of('coats'), (p) => p.price <= 300));
  const mid = median(first.map((c) => c.price));
  expectCards(t, premium!, store, `coats over ${mid}`, all(of('coats'), (p) => p.price > mid));
});

t.test('jeans for women, then more premium', async (t) => {
  const { store } = await setUp();
  const [jeans, premium] = await talk(t, ['jeans for women', 'more premium']);
  const first = expectCards(t, jeans!, store, "women's jeans", all(of('jeans'), notFor('mens')));
  const mid = median(first.map((c) => c.price));
  expectCards(t, premium!, store, `women's jeans over ${mid}`, all(of('jeans'), notFor('mens'), (p) => p.price > mid));
});

t.test('a dress under 100, then something else', async (t) => {
  const { store } = await setUp();
  const [dresses, other] = await talk(t, ['a dress under 100', 'something else']);
  const budget = all(of('dresses'), (p) => p.price <= 100);
  const first = expectCards(t, dresses!, store, 'dresses under 100', budget);
  const ids = new Set(first.map((c) => c.itemId));
  expectCards(t, other!, store, 'other dresses under 100', all(budget, (p) => !ids.has(p.itemId)));
});

t.test('a bag, then something else: none of the same', async (t) => {
  const { store } = await setUp();
  const [bags, other] = await talk(t, ['a bag', 'something else']);
  const bag = (p: Piece) => p.facts.slot === 'bag' && isAdult(p);
  const first = expectCards(t, bags!, store, 'bags', bag);
  const ids = new Set(first.map((c) => c.itemId));
  expectCards(t, other!, store, 'other bags', (p) => bag(p) && !ids.has(p.itemId));
});

t.test('a hat, then cheaper', async (t) => {
  const { store } = await setUp();
  const [hats, cheaper] = await talk(t, ['a hat', 'cheaper']);
  const first = expectCards(t, hats!, store, 'hats', of('hats'));
  expectCards(t, cheaper!, store, 'cheaper hats', all(of('hats'), under(median(first.map((c) => c.price)))));
  if (!cards(cheaper!, store).length) t.ok(eventsNamed(cheaper!, 'suggestions').at(-1)?.suggestions.length, 'other ways in offered as chips');
});

t.test('shoes, then in red', async (t) => {
  const { store } = await setUp();
  const [shoes, red] = await talk(t, ['shoes', 'in red']);
  const shoe = (p: Piece) => p.facts.slot === 'footwear' && isAdult(p);
  expectCards(t, shoes!, store, 'shoes', shoe);
  expectCards(t, red!, store, 'red shoes', all(shoe, (p) => inColourOrNear(p.facts, 'red')));
});

t.test('black jeans, then for men', async (t) => {
  const { store } = await setUp();
  const [black, men] = await talk(t, ['black jeans', 'for men']);
  expectCards(t, black!, store, 'black jeans', all(of('jeans'), (p) => inColourOrNear(p.facts, 'black')));
  expectCards(t, men!, store, "men's black jeans", all(of('jeans'), notFor('womens'), (p) => inColourOrNear(p.facts, 'black')), { otherwise: all(of('jeans'), notFor('womens')) });
});

t.test('a black coat, then for women', async (t) => {
  const { store } = await setUp();
  const [black, women] = await talk(t, ['a black coat', 'for women']);
  expectCards(t, black!, store, 'black coats', all(of('coats'), (p) => inColourOrNear(p.facts, 'black')));
  expectCards(t, women!, store, "women's black coats", all(of('coats'), notFor('mens'), (p) => inColourOrNear(p.facts, 'black')), { otherwise: all(of('coats'), notFor('mens')) });
});

t.test('white sneakers, then boots instead', async (t) => {
  const { store } = await setUp();
  const [white, boots] = await talk(t, ['white sneakers', 'boots instead']);
  expectCards(t, white!, store, 'white sneakers', all(of('sneakers'), (p) => inColourOrNear(p.facts, 'white')));
  expectCards(t, boots!, store, 'white boots', all(of('boots'), (p) => inColourOrNear(p.facts, 'white')), { otherwise: of('boots') });
});

t.test('a t-shirt, then in white', async (t) => {
  const { store } = await setUp();
  const [tees, white] = await talk(t, ['a t-shirt', 'in white']);
  expectCards(t, tees!, store, 't-shirts', of('t-shirts'));
  expectCards(t, white!, store, 'white t-shirts', all(of('t-shirts'), (p) => inColourOrNear(p.facts, 'white')), { otherwise: of('t-shirts') });
});

t.test('tops on sale, then cheaper', async (t) => {
  const { store } = await setUp();
  const [sale, cheaper] = await talk(t, ['tops on sale', 'cheaper']);
  const onSale = (p: Piece) => p.facts.slot === 'top' && isAdult(p) && p.facts.onSale;
  const first = expectCards(t, sale!, store, 'tops on sale', onSale);
  t.same(breaking(first, (c) => c.product.onSale === true), [], 'each card says it is on sale');
  expectCards(t, cheaper!, store, 'cheaper tops on sale', all(onSale, under(median(first.map((c) => c.price)))));
});

t.test('anything on sale, then dresses', async (t) => {
  const { store } = await setUp();
  const [sale, dresses] = await talk(t, ['anything on sale?', 'dresses']);
  const onSale = inStock(store, (p) => p.facts.onSale && isAdult(p)).length;
  expectCards(t, sale!, store, 'pieces on sale', (p) => p.facts.onSale);
  t.ok(cards(sale!, store).length >= Math.min(3, onSale), `a few of the ${onSale} pieces on sale shown`);
  expectCards(t, dresses!, store, 'dresses', of('dresses'));
});

t.test('kids dresses, then a dress for women', async (t) => {
  const { store } = await setUp();
  const [kids, women] = await talk(t, ['kids dresses', 'a dress for women']);
  expectCards(t, kids!, store, "kids' dresses", (p) => p.facts.family === 'dresses' && p.facts.ageGroup === 'kids');
  expectCards(t, women!, store, "women's dresses", all(of('dresses'), notFor('mens')));
});

t.test('a wetsuit: nothing unrelated, chips instead; then dresses', async (t) => {
  const { store } = await setUp();
  const [wetsuit, dresses] = await talk(t, ['a wetsuit', 'show me dresses']);
  t.equal(inStock(store, (p) => p.facts.slot === 'swimwear').length, 0, 'the store sells no swimwear');
  t.same(onScreen(wetsuit!).map((p) => p.product.name), [], 'nothing shown');
  t.match(wetsuit!.text, SAYS_NOTHING, 'the reply says so');
  t.ok(eventsNamed(wetsuit!, 'suggestions').at(-1)?.suggestions.length, 'chips offered');
  expectCards(t, dresses!, store, 'dresses', of('dresses'));
});

t.test('a wetsuit, then the chip offered', async (t) => {
  const [wetsuit, tapped] = await talk(t, ['a wetsuit', chip]);
  const offered = eventsNamed(wetsuit!, 'suggestions').at(-1)?.suggestions[0];
  t.ok(offered, 'a chip offered');
  t.ok(onScreen(tapped!).length > 0, `the chip "${offered}" leads to products`, {
    todo: 'nothingChips offers the whole slot ("Show all swimwear") without knowing it holds anything for this shopper: the only piece labelled swimwear is a kids\' rash guard, which an adult search leaves out, so the chip finds nothing again',
  });
});

t.test('hi: a question, then its first option', async (t) => {
  const { store } = await setUp();
  const [hi, answer] = await talk(t, ['hi', option()]);
  const [question] = eventsNamed(hi!, 'question');
  t.ok(question?.options.length >= 2, 'a question with options');
  t.same(onScreen(hi!), [], 'nothing shown yet');
  const family = String(question?.options[0]?.label).toLowerCase();
  t.ok([...store.facts.values()].some((f) => f.family === family), `"${family}" is a family the store sells`);
  expectCards(t, answer!, store, family, of(family));
});

t.test('hi, a complete outfit, then a cheaper look', async (t) => {
  const { store } = await setUp();
  const [hi, outfit, cheaper] = await talk(t, ['hi', option(/outfit/i), 'a cheaper look']);
  t.ok(eventsNamed(hi!, 'question')[0]?.options.some((o: { label: string }) => /outfit/i.test(o.label)), 'an outfit among the options');
  const looks = looksOf(outfit!, store);
  t.ok(looks.length >= 1, 'a look');
  for (const look of looks) t.ok(look.pieces.length >= 2, `${look.label}: pieces worn together`);
  const total = Math.min(...looks.map((look) => look.pieces.reduce((sum, p) => sum + p.price, 0)));
  const cheaperLooks = looksOf(cheaper!, store);
  t.ok(cheaperLooks.length >= 1, 'a cheaper look');
  t.same(cheaperLooks.filter((look) => look.pieces.reduce((sum, p) => sum + p.price, 0) >= total).map((look) => look.label), [], `each under ${total} in all`);
});

t.test('a gift, then for her', async (t) => {
  const { store } = await setUp();
  const [gift, her] = await talk(t, ['a gift', option(/\bher\b/i)]);
  t.ok(eventsNamed(gift!, 'question')[0]?.options.some((o: { label: string }) => /\bher\b/i.test(o.label)), 'asked who it is for');
  const shown = cards(her!, store);
  t.ok(shown.length > 0, 'gift ideas shown');
  t.same(breaking(shown, (c) => c.facts.gender !== 'mens' && isAdult(c)), [], "nothing only for men, nothing for kids");
});

t.test('sandals, then the second one', async (t) => {
  const { store } = await setUp();
  const [sandals, second] = await talk(t, ['sandals', 'the second one']);
  const shown = expectCards(t, sandals!, store, 'sandals', (p) => p.facts.family === 'sandals');
  t.ok(shown.length >= 2, 'at least two to pick from');
  const [question] = eventsNamed(second!, 'question');
  t.ok(question?.question.includes(shown[1]!.name), 'the question is about the second card');
  t.ok(question?.options.length >= 2, 'with what to do next');
});

t.test("what's your return policy, then coats", async (t) => {
  const { store } = await setUp();
  const [policy, coats] = await talk(t, ["what's your return policy?", 'ok, show me coats']);
  t.same(onScreen(policy!), [], 'no products for a store question');
  t.ok(policy!.text.includes(DEMO_STORE.url), "pointed to the store's own site");
  expectCards(t, coats!, store, 'coats', of('coats'));
});

t.test('how can I contact you, then a scarf', async (t) => {
  const { store } = await setUp();
  const [contact, scarf] = await talk(t, ['how can I contact you?', 'a scarf']);
  t.same(onScreen(contact!), [], 'no products for a store question');
  t.ok(contact!.text.includes(DEMO_STORE.url), "pointed to the store's own site");
  expectCards(t, scarf!, store, 'scarves', of('scarves'));
});

t.test('a country the store does not sell into: default prices, flagged', async (t) => {
  const { store } = await setUp();
  const [coats, cheaper] = await talk(t, ['a coat under 300', 'cheaper'], { country: 'us' });
  const first = expectCards(t, coats!, store, 'coats under 300', all(of('coats'), (p) => p.price <= 300));
  expectCards(t, cheaper!, store, 'cheaper coats', all(of('coats'), under(median(first.map((c) => c.price)))));
  const priced = [...cards(coats!, store), ...cards(cheaper!, store)];
  t.same(breaking(priced, (c) => c.product.marketExact === false && c.product.currency === DEMO_STORE.currency && c.price === listPrice(c.demo)), [], "each in the store's own prices, flagged inexact");
});

t.test('thinking high: reasoning summaries each turn; the default: none', async (t) => {
  const { store } = await setUp();
  const high = await talk(t, ['a dress', 'cheaper'], { thinking: 'high' });
  for (const [i, answer] of high.entries()) {
    const names = answer.events.map((e) => e.event);
    t.ok(eventsNamed(answer, 'thinking').every((e) => e.text.trim()) && names.includes('thinking'), `turn ${i + 1}: a reasoning summary`);
    t.ok(names.includes('thinking_delta') && names.indexOf('thinking_delta') < names.indexOf('thinking'), `turn ${i + 1}: its deltas first`);
  }
  expectCards(t, high[0]!, store, 'dresses', of('dresses'));
  const low = await talk(t, ['a dress', 'in black']);
  t.same(low.flatMap((a) => a.events.filter((e) => e.event.startsWith('thinking'))), [], 'none at the default');
});
