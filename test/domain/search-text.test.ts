// Search text recipe 2: name and type first, then labelled attributes, at most 400 characters.
import t from 'tap';
import { SEARCH_TEXT_MAX, searchText } from '../../domain/catalogue/search-text.js';
import type { Labels } from '../../domain/catalogue/vocabulary.js';

const labels: Labels = {
  slot: 'top', family: 'shirt', gender: 'mens', age_group: 'adult', color_rgb: [20, 30, 80], color_family: 'navy', colors: ['navy', 'white'],
  pattern: 'striped', material: ['cotton', 'elastane'], fit: 'slim', features: [{ axis: 'sleeve length', value: 'long', confidence: 0.9 }],
  featureKeys: ['sleeve length:long'], taxonomyVersion: 1,
};

t.test('given a labelled shirt, the text leads with its name and type, then the attributes', async (t) => {
  const text = searchText({ name: "Men's Slim Fit Oxford Shirt - Navy", productType: 'Shirts' }, labels);
  // The whole recipe, part by part: a change here changes every embedding, so SEARCH_TEXT_VERSION must move with it.
  t.equal(text, "Men's Slim Fit Oxford Shirt - Navy | Shirts; mens top shirt; colour navy, white; striped pattern; cotton, elastane; slim fit; sleeve length long");
  t.ok(text.startsWith("Men's Slim Fit Oxford Shirt - Navy | Shirts"), text);
  for (const term of ['mens', 'shirt', 'navy', 'white', 'striped', 'cotton', 'slim fit', 'sleeve length long']) t.match(text, term);
  t.ok(text.indexOf('navy', 40) > text.indexOf('Shirts'), 'attributes come after the name');
});

t.test('when the type repeats the name it is not written twice; an empty type is left out', async (t) => {
  t.ok(searchText({ name: 'Linen Shirt', productType: 'shirt' }, labels).startsWith('Linen Shirt; '));
  t.ok(searchText({ name: 'Linen Shirt', productType: '' }, labels).startsWith('Linen Shirt; '));
});

t.test('when everything is long, the text stops at 400 characters on a word boundary', async (t) => {
  const text = searchText({ name: 'Very long name '.repeat(40), productType: 'Shirts' }, labels);
  t.ok(text.length <= SEARCH_TEXT_MAX, `${text.length} characters`);
  t.notMatch(text, /\s$/);
});

t.test('a child\'s solid item says its age and "solid"; an unknown colour, family or fit says nothing', async (t) => {
  const plain: Labels = { ...labels, gender: 'unisex', age_group: 'kids', color_family: 'other', colors: [], pattern: 'solid', material: [], fit: null, family: 'other', features: [], featureKeys: [] };
  t.equal(searchText({ name: 'Play Hoodie', productType: 'Hoodies' }, plain), 'Play Hoodie | Hoodies; unisex kids top; solid');
});
