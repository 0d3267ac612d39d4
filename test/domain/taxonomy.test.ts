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

t.test('given the athleisure, streetwear and layering words of issue 28, when a listing names one, then the labeller finds its family', async (t) => {
  const cases: Record<string, string[]> = {
    Sweatpants: ['bottom/joggers'], 'Trackie Bottoms': ['bottom/joggers'], Sweats: ['bottom/joggers'], 'Quarter-Zip': ['top/sweatshirt'], '1/4 Zip Pullover': ['top/sweatshirt'],
    'Racerback Tank': ['top/tank top'], 'Bandeau Top': ['top/tank top'], Longsleeve: ['top/t shirt'], Jorts: ['bottom/shorts'], 'Dad Shoes': ['footwear/sneaker'],
    Onesie: ['full body/jumpsuit'], Boilersuit: ['full body/jumpsuit'], Windcheater: ['outerwear/jacket'], Overshirt: ['top/shirt'], Shacket: ['outerwear/jacket'],
    Gilet: ['outerwear/vest'], 'Arm Warmers': ['accessory/gloves'], Earmuffs: ['headwear/headband'],
  };
  for (const [text, families] of Object.entries(cases)) t.same(familyOf(text), families, text);
});

t.test("given the garment words of the fixture feeds' titles and tags, when a listing names one, then it is read as the store means it", async (t) => {
  t.same(familyOf('Metropolitan Compact jkt'), ['outerwear/jacket'], 'jkt is a jacket');
  t.same(familyOf('Booty Warmer'), ['bottom/skirt'], 'a quilted wrap skirt, no longer a boot');
  t.same(familyOf('A Toaster neck cozy'), ['accessory/scarf']);
  t.same(familyOf('Neck Bandeau'), ['accessory/scarf'], 'a neck bandeau is a neck warmer, a bandeau alone a top');
  t.same(familyOf('MADDIE OPERA SLEEVES'), ['accessory/gloves'], 'arm warmers');
  t.same(familyOf('Hot Head ear cozy hat'), ['headwear/headband', 'headwear/hat'], 'the hat is the head noun');
  t.same(familyOf('New Free World Hoody Jacket'), ['top/hoodie'], 'a hoody jacket is a zip hoodie, not a jacket');
  t.same(familyOf('Lv sneakerina'), ['footwear/sneaker']);
  t.same(familyOf('Personal Baggage'), ['bag/bag']);
  t.same([...new Set(familyOf('5 Panel Camp Cap'))], ['headwear/cap']);
  t.same(familyOf('Apparel & Accessories'), [], "a store's umbrella department names no family");
  t.same(familyOf('Jordan 11 Retro Cap and Gown'), ['footwear/sneaker'], 'a colourway nickname is not a cap or a gown');
});

t.test('given sneaker model names of the fixture feeds, when a listing names only the model, then it is a sneaker hint', async (t) => {
  for (const model of ['CAMPUS 00S', 'Speedcat OG', 'Onitsuka Tiger MEXICO 66', 'Cloudtilt 2', 'Cloudnova 2', 'Knu Skool', 'Zoom Vomero 5', 'Forum 84 Low', 'tenis']) {
    const cues = familyCues()
      .scan(words(model))
      .flatMap((m) => m.values.flatMap((v) => (v ? [v] : [])));
    t.ok(cues.length && cues.every((c) => c.family === 'sneaker'), `${model} → sneaker`);
  }
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
