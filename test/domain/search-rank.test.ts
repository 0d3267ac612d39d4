// Fusing the legs into one ranking: agreement with what the shopper named leads, text and vector
// signals follow; among the products that are what the shopper asked for, and among the looser
// matches, an unavailable product never ranks above an available one.
import t from 'tap';
import { agreement, isAsked, isRelevant, rank, withAvailability, type CandidateSignals, type RankingIntent } from '../../domain/search/rank.js';

const intent = (asked: Partial<RankingIntent> = {}): RankingIntent => ({ families: [], nearFamilies: [], traits: [], colours: [], materials: [], patterns: [], featureKeys: [], hasBoosts: false, hasTerms: true, ...asked });
const candidate = (itemId: string, fields: Partial<CandidateSignals> = {}): CandidateSignals => ({
  itemId,
  legs: { text: 0 },
  textRank: 0.1,
  textCoverage: 0.5,
  boostRank: 0,
  similarity: 0.5,
  slot: 'full body',
  family: 'dress',
  colorFamily: 'red',
  colors: ['red'],
  materials: [],
  pattern: 'solid',
  fit: null,
  gender: 'womens',
  featureKeys: [],
  available: true,
  ...fields,
});

t.test('given a red midi dress asked for, when candidates differ in colour and length, then the one with both leads', async (t) => {
  const asked = intent({ families: ['dress'], colours: ['red'], featureKeys: ['dress length:midi'] });
  const ranked = rank(asked, [
    candidate('maxi', { featureKeys: ['dress length:maxi'], textRank: 0.25 }),
    candidate('midi', { featureKeys: ['dress length:midi'], textRank: 0.2 }),
    candidate('blue-midi', { colorFamily: 'blue', colors: ['blue'], featureKeys: ['dress length:midi'], textRank: 0.3 }),
  ]);
  t.same(ranked.map((r) => r.itemId), ['midi', 'maxi', 'blue-midi']);
});

t.test('given a neighbouring colour, then it counts half', async (t) => {
  t.equal(agreement(intent({ colours: ['red'] }), candidate('x', { colorFamily: 'burgundy', colors: ['burgundy'] })), 0.5);
  t.equal(agreement(intent({ colours: ['red'] }), candidate('x', { colorFamily: 'blue', colors: ['blue', 'red'] })), 0.8, 'sold in red too');
  t.equal(agreement(intent({ colours: ['red'] }), candidate('x', { colorFamily: 'green', colors: ['green'] })), 0);
  t.equal(agreement(intent(), candidate('x')), null, 'nothing checkable asked');
});

t.test('given a sold-out sneaker asked for, then it ranks after the sneakers the shopper can buy and before a boot they can buy, in both fusions', async (t) => {
  const asked = intent({ families: ['sneaker'] });
  const candidates = [
    candidate('sold-out', { family: 'sneaker', textRank: 1, similarity: 0.9, available: false, legs: { text: 0, vector: 0 } }),
    candidate('weak', { family: 'boot', textRank: 0.01, similarity: 0.1, legs: { vector: 5 } }),
    candidate('good', { family: 'sneaker', textRank: 0.5, similarity: 0.6, legs: { text: 1 } }),
    candidate('sold-out-boot', { family: 'boot', textRank: 0.9, similarity: 0.9, available: false, legs: { text: 2 } }),
  ];
  for (const fusion of ['blend', 'rrf'] as const) {
    const ranked = rank(asked, candidates, fusion);
    t.same(ranked.map((r) => r.itemId), ['good', 'sold-out', 'weak', 'sold-out-boot'], fusion);
  }
});

t.test('given what makes a product the thing asked for', async (t) => {
  const mens = intent({ families: ['trousers'], gender: 'mens' });
  t.ok(isAsked(mens, candidate('x', { family: 'trousers', gender: 'unisex' }), 0.8), 'unisex trousers are men\'s trousers');
  t.notOk(isAsked(mens, candidate('x', { family: 'trousers', gender: 'womens' }), 0.67), 'women\'s are not');
  t.notOk(isAsked(mens, candidate('x', { family: 'shorts', gender: 'mens' }), 0.5), 'nor men\'s shorts');
  const blackHoodie = intent({ families: ['hoodie'], colours: ['black'], slot: 'top' });
  t.ok(isAsked(blackHoodie, candidate('x', { family: 'hoodie', colorFamily: 'pink', colors: ['pink'] }), 0.6), 'the colour orders the hoodies, it does not make one');
  t.notOk(isAsked(blackHoodie, candidate('x', { family: 'tee', slot: 'top', colorFamily: 'black', colors: ['black'] }), 0.58), 'a black tee is a looser match');
  t.ok(isAsked(intent({ slot: 'footwear' }), candidate('x', { slot: 'footwear', family: 'boot' }), 1), 'the slot alone named');
  t.notOk(isAsked(intent({ colours: ['red'] }), candidate('x'), 0.5), 'with no garment named, every attribute in full');
  t.ok(isAsked(intent({ colours: ['red'] }), candidate('x'), 1));
  t.ok(isAsked(intent(), candidate('x', { textCoverage: 1 }), null), 'with nothing checkable, every word');
  t.notOk(isAsked(intent(), candidate('x', { textCoverage: 0.5 }), null));
  t.ok(isAsked(intent({ families: ['skirt'] }), candidate('x', { named: true }), 0), 'found by its own name');
  // A gender with no garment ("women's red"): every other attribute still counts, unisex is the gender's.
  const womensRed = intent({ gender: 'womens', colours: ['red'] });
  t.ok(isAsked(womensRed, candidate('x', { gender: 'womens' }), 1), "women's red");
  t.ok(isAsked(womensRed, candidate('x', { gender: 'unisex' }), 0.87), 'unisex red');
  t.notOk(isAsked(womensRed, candidate('x', { colorFamily: 'blue', colors: ['blue'] }), 0.43), "women's blue is a looser match");
  t.notOk(isAsked(womensRed, candidate('x', { gender: 'mens' }), 0.57), "men's red is not");
  t.ok(isAsked(intent({ gender: 'womens', hasTerms: false }), candidate('x', { textCoverage: 0 }), 1), "only \"women's\": every women's product");
  t.notOk(isAsked(intent({ gender: 'womens' }), candidate('x', { textCoverage: 0.5 }), 1), "\"women's nike\": the words still count");
});

t.test("given women's red asked for, then a sold-out red piece ranks before a blue one the shopper can buy", async (t) => {
  const asked = intent({ gender: 'womens', colours: ['red'] });
  const ranked = rank(asked, [
    candidate('blue', { colorFamily: 'blue', colors: ['blue'], textRank: 0.9, similarity: 0.9 }),
    candidate('red-sold-out', { available: false }),
    candidate('red', { textRank: 0.05, similarity: 0.1 }),
  ]);
  t.same(ranked.map((r) => r.itemId), ['red', 'red-sold-out', 'blue']);
});

t.test('given pricing said which are available, then the first ranking keeps its scores and tiers and only availability moves', async (t) => {
  const asked = intent({ families: ['sneaker'] });
  const first = rank(asked, [
    candidate('a', { family: 'sneaker', textRank: 0.9, similarity: 0.9 }),
    candidate('b', { family: 'sneaker', textRank: 0.5, similarity: 0.5 }),
    candidate('boot', { family: 'boot', textRank: 0.9, similarity: 0.9 }),
    candidate('dropped', { family: 'sneaker', textRank: 0.7, similarity: 0.7 }),
  ]);
  const after = withAvailability(first, new Map([['a', false], ['b', true], ['boot', true]]));
  t.same(after.map((r) => r.itemId), ['b', 'a', 'boot'], 'the sold-out sneaker after the buyable one, before the boot; one the offer filters dropped is gone');
  t.same(after.map((r) => r.score), ['b', 'a', 'boot'].map((id) => first.find((r) => r.itemId === id)!.score), 'the first ranking\'s scores');
});

t.test('given only occasion words ("athleisure"), then what suits the occasion leads over what the vector leg finds near the word', async (t) => {
  const asked = intent({ hasTerms: false, hasBoosts: true });
  const ranked = rank(asked, [
    candidate('near-the-word', { textCoverage: 0, textRank: 0, boostRank: 0, similarity: 0.8, legs: { vector: 0 } }),
    candidate('leggings', { textCoverage: 0, textRank: 0, boostRank: 0.4, similarity: 0.1, legs: { boost: 0, vector: 40 } }),
    candidate('tank', { textCoverage: 0, textRank: 0, boostRank: 0.2, similarity: 0.1, legs: { boost: 1, vector: 41 } }),
  ]);
  t.same(ranked.map((r) => r.itemId), ['leggings', 'tank', 'near-the-word']);
  const withWords = rank({ ...asked, hasTerms: true }, [
    candidate('near-the-word', { textCoverage: 0, textRank: 0, boostRank: 0, similarity: 0.8, legs: { vector: 0 } }),
    candidate('leggings', { textCoverage: 0, textRank: 0, boostRank: 0.4, similarity: 0.1, legs: { boost: 0, vector: 40 } }),
  ]);
  t.equal(withWords[0]!.itemId, 'near-the-word', 'with words of its own to search, the boost stays a nudge');
});

t.test('given nothing checkable asked, then text and vector decide', async (t) => {
  const ranked = rank(intent(), [candidate('a', { textRank: 0.1, similarity: 0.2 }), candidate('b', { textRank: 0.4, similarity: 0.3 })]);
  t.same(ranked.map((r) => r.itemId), ['b', 'a']);
  t.ok(ranked[0]!.score > ranked[1]!.score);
});

t.test('given two words asked, when one product has both once and another one of them often, then the one with both leads', async (t) => {
  // "bomber jacket": ts_rank favours a jacket that says "jacket" many times over a bomber.
  const ranked = rank(intent(), [
    candidate('jacket-jacket-jacket', { textCoverage: 0.5, textRank: 0.9, similarity: 0.4 }),
    candidate('bomber-jacket', { textCoverage: 1, textRank: 0.3, similarity: 0.4 }),
  ]);
  t.same(ranked.map((r) => r.itemId), ['bomber-jacket', 'jacket-jacket-jacket']);
});

t.test('given a product whose name the shopper typed in full, then it leads those they can buy, in both fusions, and is always relevant', async (t) => {
  const asked = intent({ families: ['shirt'], colours: ['black'] });
  const candidates = [
    candidate('black-shirt', { family: 'shirt', colorFamily: 'black', colors: ['black'], textRank: 0.8, similarity: 0.9, legs: { text: 0, attributes: 0, vector: 0 } }),
    candidate('named-white-shirt', { family: 'shirt', colorFamily: 'white', colors: ['white'], textRank: 0.7, similarity: 0.4, legs: { text: 1, vector: 3 }, named: true }),
    candidate('named-sold-out', { family: 'shirt', colorFamily: 'black', colors: ['black'], textRank: 0.9, available: false, named: true }),
  ];
  for (const fusion of ['blend', 'rrf'] as const) {
    t.same(rank(asked, candidates, fusion).map((r) => r.itemId), ['named-white-shirt', 'black-shirt', 'named-sold-out'], fusion);
  }
  t.ok(isRelevant(asked, candidate('named', { family: 'skirt', colorFamily: 'white', colors: ['white'], legs: {}, similarity: 0, named: true }), 0.9), 'found by its name alone');
  t.notOk(isRelevant(asked, candidate('other', { family: 'skirt', colorFamily: 'white', colors: ['white'], legs: { vector: 9 }, similarity: 0 }), 0.9));
});

t.test('given joggers asked for, then trousers whose listing shows a trait of joggers rank after the joggers and before the plain trousers', async (t) => {
  const asked = intent({ slot: 'bottom', families: ['joggers'], nearFamilies: ['trousers', 'leggings'], traits: ['drawstring'] });
  const bottoms = { slot: 'bottom', textRank: 0, textCoverage: 0, similarity: 0.3 };
  const ranked = rank(asked, [
    candidate('plain', { ...bottoms, family: 'trousers', hasTraits: false, similarity: 0.6 }),
    candidate('drawstring', { ...bottoms, family: 'trousers', hasTraits: true }),
    candidate('joggers', { ...bottoms, family: 'joggers' }),
  ]);
  t.same(ranked.map((r) => r.itemId), ['joggers', 'drawstring', 'plain']);
  t.notOk(ranked.find((r) => r.itemId === 'drawstring')!.answers, 'still not the thing asked for');
  const withTraits = agreement(asked, candidate('d', { ...bottoms, family: 'trousers', hasTraits: true }))!;
  t.ok(withTraits > 0.5 && withTraits < 1, `a near family with the traits earns more than one without (0.5), less than the family (${withTraits})`);
});

t.test('given a sweatshirt asked for, then a near family (a hoodie) ranks after every sweatshirt, the sold-out one included, and before the rest of the slot', async (t) => {
  const asked = intent({ slot: 'top', families: ['sweatshirt'], nearFamilies: ['hoodie', 'sweater'] });
  const ranked = rank(asked, [
    candidate('blouse', { slot: 'top', family: 'blouse', textRank: 0, textCoverage: 0, similarity: 0.6 }),
    candidate('hoodie', { slot: 'top', family: 'hoodie', textRank: 0, textCoverage: 0, similarity: 0.2 }),
    candidate('sold-out', { slot: 'top', family: 'sweatshirt', available: false }),
    candidate('sweatshirt', { slot: 'top', family: 'sweatshirt' }),
  ]);
  t.same(ranked.map((r) => r.itemId), ['sweatshirt', 'sold-out', 'hoodie', 'blouse']);
  t.notOk(ranked.find((r) => r.itemId === 'hoodie')!.answers, 'a near family is not the thing asked for');
  t.equal(agreement(asked, candidate('h', { slot: 'top', family: 'hoodie' })), 0.5);
  t.equal(agreement(asked, candidate('b', { slot: 'top', family: 'blouse' })), 0.3);
});
