// POST /v1/search writes its answer from bytes kept per stored body (api/routes/answer-text.ts).
// Whatever was kept, the shopper gets what JSON.stringify of the answer with its photos linked
// says: each search's own offer and score, the stored fields as they are now, every photo linked.
import t from 'tap';
import { searchAnswerBytes } from '../../api/routes/answer-text.js';
import { linkItem } from '../../domain/item/image-links.js';
import type { AnswerBody } from '../../domain/item/record.js';
import type { PricedProduct } from '../../domain/pricing/index.js';
import { marketProduct } from '../../projections/queries/products.js';
import type { SearchResponse, SearchResult } from '../../projections/queries/search/index.js';

const deepFreeze = <T>(value: T): T => {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
};

const body = (name: string): AnswerBody =>
  ({
    version: 3,
    metadata: { description: `${name} in organic cotton`, gender: 'womens', colors: ['rose'], family: 'hoodie', featureKeys: ['closure:pullover'] },
    product: {
      sku: `SKU-${name}`,
      url: `https://shop.example/products/${name}`,
      name,
      description: '<p>Organic Cotton/Lycra</p>',
      careInstructions: '',
      price: 153.75,
      currency: 'CAD',
      market: null,
      model: { height: '', size: '' },
      setItems: [],
      recommendedItems: [],
      assets: {
        images: [{ originalImageUrl: 'https://cdn.example/a.jpg', type: 'model full body', uploaded: { id: 'img-1', key: `org/${name}/a.webp` } }],
        generated: { thumbnail: { url: null }, segmented: [{ sourceImageId: 'img-1', uploaded: { id: 'seg-1', key: `org/${name}/a-seg.webp` } }] },
      },
    },
  }) as unknown as AnswerBody;

const offer = (price: number, currency: string, fallback: boolean): PricedProduct => ({
  market: fallback ? 'ca' : 'us',
  currency,
  price,
  variants: [{ sku: 'V1', label: 'S', price, inStock: price < 150, options: [{ name: 'Size', value: 'S' }], quantity: null, variantId: 'v1', compareAtPrice: null } as never],
  marketExact: !fallback,
  ...(fallback ? { marketFallback: 'no-country' as const } : {}),
  available: price < 150,
  onSale: false,
  discount: 0,
  referencePrice: price,
  referenceCurrency: currency,
});

const answerOf = (bodies: AnswerBody[], offers: PricedProduct[], scores: number[]): SearchResponse => ({
  results: bodies.map((b, i): SearchResult => ({ itemId: `item-${i}`, datasetId: 'dataset-1', score: scores[i]!, metadata: b.metadata, product: marketProduct(b, offers[i]!) })),
  market: { country: 'US', currency: 'USD', exact: true },
});

/** The answer's bytes as the shopper's client reads them. */
const searchAnswerText = (answer: SearchResponse, baseUrl: string): string => searchAnswerBytes(answer, baseUrl).toString('utf8');

/** What the route wrote before: the answer with its photos linked, through JSON.stringify. */
const asBefore = (answer: SearchResponse, baseUrl: string) => JSON.parse(JSON.stringify({ ...answer, results: answer.results.map((r) => linkItem(r, baseUrl)) }));

t.test('an answer reads as the linked answer would, however often its products were shown and in whatever market', async (t) => {
  const frozen = [deepFreeze(body('Razor Hoody')), deepFreeze(body('Sharp Tee'))];
  const base = 'https://stylist.example';
  const rounds: Array<[PricedProduct[], number[]]> = [
    [[offer(99, 'USD', false), offer(153.75, 'CAD', true)], [0.9, 0.5]],
    [[offer(153.75, 'CAD', true), offer(42.5, 'USD', false)], [0.7, 0.6]],
    [[offer(120, 'USD', false), offer(120, 'USD', false)], [0.3, 0.2]],
  ];
  for (const [round, [offers, scores]] of rounds.entries()) {
    const answer = answerOf(frozen, offers, scores);
    const written = JSON.parse(searchAnswerText(answer, base));
    t.same(written, asBefore(answer, base), `round ${round + 1}: the same fields and values`);
    t.equal(written.results[0].product.price, offers[0]!.price, `round ${round + 1}: the price is this search's offer`);
    t.equal(written.results[1].score, scores[1], `round ${round + 1}: the score is this search's`);
    t.equal('marketFallback' in written.results[0].product, offers[0]!.marketFallback !== undefined, `round ${round + 1}: a fallback is said only when there is one`);
  }
  const linked = JSON.parse(searchAnswerText(answerOf(frozen, rounds[0]![0], [1, 1]), 'http://127.0.0.1:8080'));
  t.equal(linked.results[0].product.assets.images[0].uploaded.url, 'http://127.0.0.1:8080/v1/image/org/Razor Hoody/a.webp', 'photos are linked to the base URL given');
  t.equal(linked.results[1].product.assets.generated.segmented[0].uploaded.url, 'http://127.0.0.1:8080/v1/image/org/Sharp Tee/a-seg.webp', 'and so are the generated cut-outs');
});

t.test('a product whose stored fields are not the frozen body’s own is written from what it holds', async (t) => {
  const frozen = deepFreeze(body('Wrap Dress'));
  const base = 'https://stylist.example';
  const first = answerOf([frozen], [offer(80, 'USD', false)], [1]);
  t.same(JSON.parse(searchAnswerText(first, base)), asBefore(first, base), 'first shown: as the linked answer');
  // A caller that changes a stored field of its copy (the agent's answers could): the change is what the shopper reads.
  const renamed = answerOf([frozen], [offer(80, 'USD', false)], [1]);
  (renamed.results[0]!.product as { name: string }).name = 'Wrap Dress (renamed)';
  t.equal(JSON.parse(searchAnswerText(renamed, base)).results[0].product.name, 'Wrap Dress (renamed)');
  // A body read from the read model is not frozen: written whole, every time, as it is then.
  const open = body('Slip Dress');
  const fromReadModel = answerOf([open], [offer(60, 'USD', false)], [1]);
  t.same(JSON.parse(searchAnswerText(fromReadModel, base)), asBefore(fromReadModel, base));
  (open.product as { name: string }).name = 'Slip Dress, linen';
  const again = answerOf([open], [offer(60, 'USD', false)], [1]);
  t.equal(JSON.parse(searchAnswerText(again, base)).results[0].product.name, 'Slip Dress, linen', 'nothing of an unfrozen body is kept');
});

t.test("variants kept from the stored market are written as they are; a market's own, and anything not frozen through, as they are now", async (t) => {
  const frozen = deepFreeze(body('Samba OG'));
  const base = 'https://stylist.example';
  const stored = deepFreeze(offer(120, 'USD', true).variants);
  const inStoredMarket = (): PricedProduct => ({ ...offer(120, 'USD', true), variants: stored });
  for (const round of [1, 2]) {
    const answer = answerOf([frozen], [inStoredMarket()], [1]);
    t.same(JSON.parse(searchAnswerText(answer, base)), asBefore(answer, base), `stored variants, shown ${round === 1 ? 'first' : 'again'}`);
  }
  const inMarket = answerOf([frozen], [offer(99, 'EUR', false)], [1]);
  t.same(JSON.parse(searchAnswerText(inMarket, base)).results[0].product.variants, [{ ...offer(99, 'EUR', false).variants[0] }], "a market's own variants");
  // Frozen on top only: what is inside may change, so nothing of it is kept.
  const shallow = Object.freeze([{ ...offer(50, 'USD', false).variants[0]! }]) as PricedProduct['variants'];
  const once = answerOf([frozen], [{ ...offer(50, 'USD', false), variants: shallow }], [1]);
  t.equal(JSON.parse(searchAnswerText(once, base)).results[0].product.variants[0].price, 50);
  (shallow[0] as { price: number }).price = 45;
  const twice = answerOf([frozen], [{ ...offer(50, 'USD', false), variants: shallow }], [1]);
  t.equal(JSON.parse(searchAnswerText(twice, base)).results[0].product.variants[0].price, 45, 'a variant changed inside a list frozen on top reads as it is now');
});

t.test('an empty answer', async (t) => {
  const empty: SearchResponse = { results: [], market: { country: null, currency: 'CAD', exact: false } };
  t.same(JSON.parse(searchAnswerText(empty, 'https://stylist.example')), empty);
});
