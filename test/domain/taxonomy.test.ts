// The taxonomy: every slot has families, every family's words find it (plurals included), every
// axis a family names exists, and the matcher prefers the longest phrase.
import t from 'tap';
import {
  AXES,
  axesOf,
  FAMILIES,
  FAMILY_DEFAULTS,
  familiesOf,
  familyCues,
  isAxisValue,
  isFamilyOf,
  SLOTS_WITH_FIT,
  TAXONOMY_VERSION,
  withPlurals,
  words,
} from '../../domain/catalogue/taxonomy/index.js';
import { SLOTS } from '../../domain/catalogue/vocabulary.js';

const familyOf = (text: string) =>
  familyCues()
    .scan(words(text))
    .flatMap((m) => m.values.flatMap((v) => (v ? [`${v.slot}/${v.family}`] : [])));

t.test('given the vocabulary, every slot has named families and the version is an integer', async (t) => {
  for (const slot of SLOTS) t.ok(familiesOf(slot).length >= 2, `${slot} has families`);
  t.ok(Number.isInteger(TAXONOMY_VERSION) && TAXONOMY_VERSION >= 1);
  t.ok(isFamilyOf('top', 'other'), '`other` is a family of every slot');
  t.notOk(isFamilyOf('top', 'dress'), 'a family belongs to its own slot only');
});

t.test('given the families, every axis they name has values and every default is one of them', async (t) => {
  for (const family of FAMILIES) {
    for (const axis of family.axes) t.ok(AXES[axis]?.length, `${family.family}: axis ${axis} exists`);
    for (const [axis, value] of Object.entries(FAMILY_DEFAULTS[family.family] ?? {})) {
      t.ok(family.axes.includes(axis) && isAxisValue(axis, value), `${family.family}: default ${axis}:${value}`);
    }
  }
  t.same(
    axesOf('bottom', 'jeans').map((a) => a.axis),
    ['rise', 'leg shape', 'length'],
  );
});

t.test('when shop words are read, synonyms and plurals find their family', async (t) => {
  t.same(familyOf('Trainers'), ['footwear/sneaker']);
  t.same(familyOf('sneakers'), ['footwear/sneaker']);
  t.same(familyOf('T-Shirts'), ['top/t shirt']);
  t.same(familyOf('tees'), ['top/t shirt']);
  t.same(familyOf('Dresses'), ['full body/dress']);
  t.same(familyOf('hoodies'), ['top/hoodie']);
  t.same(familyOf('Jumpers'), ['top/sweater']);
  t.same(familyOf('Flip-Flops'), ['footwear/flip flop']);
  t.same(familyOf('sunglasses'), ['eyewear/sunglasses']);
  t.same(familyOf('Swim Shorts'), ['swimwear/swim shorts']);
});

t.test('when phrases overlap, the longest wins and "short sleeve" is not shorts', async (t) => {
  t.same(familyOf('t shirt dress'), ['top/t shirt', 'full body/dress']);
  t.same(familyOf('short sleeve'), []);
  t.same(familyOf('boot cut'), []);
  t.same(familyOf('ankle boots'), ['footwear/boot']);
});

t.test('plural forms follow English spelling', async (t) => {
  t.same(withPlurals('dress'), ['dress', 'dresses']);
  t.same(withPlurals('hoody'), ['hoody', 'hoodies']);
  t.same(withPlurals('tank top'), ['tank top', 'tank tops']);
});

t.test('fit applies to garments, not to footwear, bags or jewellery', async (t) => {
  t.ok(SLOTS_WITH_FIT.has('top') && SLOTS_WITH_FIT.has('bottom'));
  for (const slot of ['footwear', 'bag', 'jewellery', 'eyewear', 'accessory', 'headwear'] as const) t.notOk(SLOTS_WITH_FIT.has(slot), slot);
});
