// The shopper vocabulary against the seven fixture feeds (issue 28, point 6): every product_type
// and every garment word of their titles and tags maps to a family, for the labeller and for a
// shopper typing it alike. Skipped when the feeds (../shared/fixtures/shopify) are absent.
import t from 'tap';
import { missingFeeds } from '../../bench/search-quality/feeds.js';
import { FEED_GARMENT_WORDS, LEFT_UNMAPPED, SHOPPER_GARMENT_WORDS, vocabularyCoverage } from '../../bench/search-quality/vocabulary-coverage.js';

t.test('given the seven feeds, when their words are read, then none that names a garment is left without a family', { skip: missingFeeds().length ? 'the fixture feeds are absent' : false }, async (t) => {
  const coverage = vocabularyCoverage();
  t.ok(coverage.products > 500, `${coverage.products} products read`);
  t.same(coverage.unmappedTypes, [], 'every product_type names a family or is a listed store department');
  t.same(coverage.disagreements, [], 'every family cue of the feeds reads the same for a shopper');
  t.same(
    coverage.garmentWords.filter((w) => !w.ok).map((w) => w.word),
    [],
    'every garment word read off the feeds and every athleisure, streetwear and layering word maps',
  );
  t.equal(coverage.garmentWords.length, Object.keys({ ...FEED_GARMENT_WORDS, ...SHOPPER_GARMENT_WORDS }).filter((w) => !(w in LEFT_UNMAPPED)).length);
});

t.test('given the words left unmapped on purpose, each says why', async (t) => {
  for (const [word, why] of Object.entries(LEFT_UNMAPPED)) t.ok(why.length > 20, word);
});
