// Fusing the legs into one ranking: agreement with what the shopper named leads, text and vector
// signals follow, and an unavailable product never ranks above an available one.
import t from 'tap';
import { agreement, isRelevant, rank, type CandidateSignals, type RankingIntent } from '../../domain/search/rank.js';

const intent = (asked: Partial<RankingIntent> = {}): RankingIntent => ({ families: [], colours: [], materials: [], patterns: [], featureKeys: [], hasBoosts: false, ...asked });
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

t.test('given an unavailable best match, then every available product ranks above it, in both fusions', async (t) => {
  const asked = intent({ families: ['sneaker'] });
  const candidates = [
    candidate('sold-out', { family: 'sneaker', textRank: 1, similarity: 0.9, available: false, legs: { text: 0, vector: 0 } }),
    candidate('weak', { family: 'boot', textRank: 0.01, similarity: 0.1, legs: { vector: 5 } }),
    candidate('good', { family: 'sneaker', textRank: 0.5, similarity: 0.6, legs: { text: 1 } }),
  ];
  for (const fusion of ['blend', 'rrf'] as const) {
    const ranked = rank(asked, candidates, fusion);
    t.same(ranked.map((r) => r.itemId), ['good', 'weak', 'sold-out'], fusion);
  }
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
