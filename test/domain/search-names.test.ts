// A product's own name as the shopper types it (domain/search/names.ts): compared without case,
// accents, apostrophes or punctuation; a product answers to its name and to its brand and name.
import t from 'tap';
import { nameKey, productNameKeys } from '../../domain/search/names.js';

t.test('given the same name typed differently, then it is the same key', async (t) => {
  const key = nameKey("Men's Leather Chelsea Boot");
  for (const typed of ['mens leather chelsea boot', "  MEN'S   Leather-Chelsea Boot ", 'Men’s leather chelsea boot.']) t.equal(nameKey(typed), key, typed);
  t.equal(nameKey('Café Crème Blouse'), 'cafe creme blouse', 'accents dropped');
  t.not(nameKey('Leather Chelsea Boots'), key, 'another word is another name');
  t.equal(nameKey(' !? '), '');
  t.equal(nameKey(null), '');
});

t.test('given a product, then it answers to its name and to its brand before its name', async (t) => {
  t.same(productNameKeys("Men's Leather Chelsea Boot", 'Kids Love Gaite'), ['mens leather chelsea boot', 'kids love gaite mens leather chelsea boot']);
  t.same(productNameKeys('Acme Linen Shirt', 'Acme'), ['acme linen shirt'], 'a name that opens with the brand is not doubled');
  t.same(productNameKeys('Reduced Skirt', ''), ['reduced skirt'], 'no brand');
  t.same(productNameKeys('Dress', 'Acme'), ['acme dress'], 'a one-word name is a kind of product: only with its brand');
  t.same(productNameKeys('', ''), []);
});
