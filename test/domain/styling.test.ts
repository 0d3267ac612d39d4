import fc from 'fast-check';
import t, { type Test } from 'tap';
import { Invalid } from '../../domain/errors.js';
import { BUNDLED_BRANDS, brandDirectory, brandSlug } from '../../domain/styling/brands.js';
import {
  BASIC_SLOTS,
  RULE_IDS,
  STYLING_LIMITS,
  defaultSizing,
  defaultStyling,
  readStylingPut,
  stylingMessages,
  type HouseBasic,
  type StylingPutContext,
} from '../../domain/styling/settings.js';

// The store sells its own label, "Acme House"; its catalogue also carries Nordic Thread.
const directory = brandDirectory(['Acme House', 'Nordic  Thread ', 'nike'], ['Acme House']);

const saved: HouseBasic[] = [
  { basicId: 'basic-white-tee', text: 'White tee', slot: 'top' },
  { basicId: 'basic-jeans', text: 'Straight jeans', slot: 'bottom' },
];

const contextWith = (previousBasics: HouseBasic[] = saved): StylingPutContext => {
  let next = 0;
  return { knownBrandSlugs: directory.knownSlugs, ownBrandSlugs: directory.ownSlugs, previousBasics, newBasicId: () => `new-${++next}` };
};

/** given the store's saved basics, when a PUT body arrives, then these settings are saved or this 422. */
const given = (t: Test, previousBasics: HouseBasic[] = saved) => ({
  when: (body: unknown) => {
    const run = () => readStylingPut(body, contextWith(previousBasics));
    return {
      then: (expected: ReturnType<typeof readStylingPut>) => t.same(run(), expected),
      thenRefuses: (message: string) => t.throws(run, new Invalid(message)),
    };
  },
});

const styled = (styling: Record<string, unknown>) => ({ styling });
const sized = (brandSizes: unknown) => ({ sizing: { brandSizes } });
const knownSlugs = [...directory.knownSlugs];
const basic = (text: string, slot = 'top', basicId?: string) => (basicId === undefined ? { text, slot } : { text, slot, basicId });

t.test('defaults: every rule on, try-on and brand sizes on, nothing else', async (t) => {
  t.same(defaultStyling(), { off: [], basics: [], choosing: '', picture: '', tryOn: true });
  t.same(defaultSizing(), { brandSizes: { enabled: true, logos: true, excludedBrands: [] } });
});

t.test('a body with neither styling nor sizing is refused', async (t) => {
  for (const body of [{}, { other: 1 }, null, [], 'styling', { styling: undefined }]) given(t).when(body).thenRefuses('styling must be an object.');
});

t.test('styling and sizing that are not objects are refused', async (t) => {
  for (const styling of [null, [], 'warm', 3, true]) given(t).when({ styling }).thenRefuses('styling must be an object.');
  for (const sizing of [null, [], 'warm', 3, true]) given(t).when({ sizing }).thenRefuses('sizing must be an object.');
  given(t).when({ styling: {}, sizing: 'no' }).thenRefuses('sizing must be an object.');
  given(t).when({ styling: 'no', sizing: 'no' }).thenRefuses('styling must be an object.');
});

t.test('each part sent is replaced whole; left-out fields are saved empty, the three switches on', async (t) => {
  given(t).when({ styling: {} }).then({ styling: defaultStyling() });
  given(t).when({ sizing: {} }).then({ sizing: defaultSizing() });
  given(t).when(sized({})).then({ sizing: defaultSizing() });
  given(t).when({ styling: {}, sizing: {} }).then({ styling: defaultStyling(), sizing: defaultSizing() });
  given(t)
    .when({ styling: { off: null, basics: null, choosing: null, picture: null, tryOn: null }, sizing: { brandSizes: null } })
    .then({ styling: defaultStyling(), sizing: defaultSizing() });
});

t.test('the switches are off only when sent as false', async (t) => {
  given(t).when(styled({ tryOn: false })).then({ styling: { ...defaultStyling(), tryOn: false } });
  given(t).when(styled({ tryOn: true })).then({ styling: defaultStyling() });
  given(t)
    .when(sized({ enabled: false, logos: false }))
    .then({ sizing: { brandSizes: { enabled: false, logos: false, excludedBrands: [] } } });
  given(t).when(sized({ logos: false })).then({ sizing: { brandSizes: { enabled: true, logos: false, excludedBrands: [] } } });
});

t.test('a full body is saved as sent', async (t) => {
  given(t)
    .when({
      styling: { off: ['palette', 'sets'], basics: [basic('White tee', 'top', 'basic-white-tee'), basic('Black loafers', 'footwear')], choosing: 'No denim on denim', picture: 'Daylight', tryOn: true },
      sizing: { brandSizes: { enabled: true, logos: false, excludedBrands: ['nike', 'zara'] } },
    })
    .then({
      styling: {
        off: ['palette', 'sets'],
        basics: [
          { basicId: 'basic-white-tee', text: 'White tee', slot: 'top' },
          { basicId: 'new-1', text: 'Black loafers', slot: 'footwear' },
        ],
        choosing: 'No denim on denim',
        picture: 'Daylight',
        tryOn: true,
      },
      sizing: { brandSizes: { enabled: true, logos: false, excludedBrands: ['nike', 'zara'] } },
    });
});

t.test('unknown rule ids and repeats are dropped; ids match whatever their case and keep the spec order', async (t) => {
  given(t)
    .when(styled({ off: ['sets', 'glitter', 'palette', 'sets', 7, null, ' PrintLeads ', 'PALETTE'] }))
    .then({ styling: { ...defaultStyling(), off: ['printLeads', 'palette', 'sets'] } });
  given(t)
    .when(styled({ off: [...RULE_IDS].reverse() }))
    .then({ styling: { ...defaultStyling(), off: [...RULE_IDS] } });
});

t.test('wrong types inside styling get a message naming the field', async (t) => {
  for (const off of ['palette', { palette: true }, 1]) given(t).when(styled({ off })).thenRefuses(stylingMessages.off);
  given(t).when(styled({ off: 'palette' })).thenRefuses('styling.off must be an array of rule ids.');
  for (const basics of ['White tee', {}, ['White tee'], [basic('ok'), 3]]) given(t).when(styled({ basics })).thenRefuses(stylingMessages.basics);
  given(t).when(styled({ basics: [basic('ok'), { text: 5, slot: 'top' }] })).thenRefuses('styling.basics[1].text must be a string.');
  given(t).when(styled({ choosing: 3 })).thenRefuses('styling.choosing must be a string.');
  given(t).when(styled({ picture: ['a'] })).thenRefuses('styling.picture must be a string.');
  for (const tryOn of ['false', 0, 'no', {}]) given(t).when(styled({ tryOn })).thenRefuses('styling.tryOn must be true or false.');
});

t.test('wrong types inside sizing get a message naming the field', async (t) => {
  for (const brandSizes of ['on', [], 1, true]) given(t).when(sized(brandSizes)).thenRefuses('sizing.brandSizes must be an object.');
  given(t).when(sized({ enabled: 'false' })).thenRefuses('sizing.brandSizes.enabled must be true or false.');
  given(t).when(sized({ logos: 0 })).thenRefuses('sizing.brandSizes.logos must be true or false.');
  for (const excludedBrands of ['nike', { nike: true }, ['nike', 3], [null], 1]) {
    given(t).when(sized({ excludedBrands })).thenRefuses('sizing.brandSizes.excludedBrands must be an array of brand slugs.');
  }
});

t.test('text is shortened rather than refused', async (t) => {
  const long = 'x'.repeat(2000);
  const { styling } = readStylingPut(
    styled({ choosing: long, picture: `${'y'.repeat(1199)}😀`, basics: [basic(`  Crisp\nwhite\r\n\tshirt ${'z'.repeat(100)}  `)] }),
    contextWith(),
  );
  t.equal(styling?.choosing, 'x'.repeat(1200));
  t.equal(styling?.picture, 'y'.repeat(1199), 'a character is never split in half');
  t.equal(styling?.basics[0]?.text, `Crisp white shirt ${'z'.repeat(62)}`);
  t.equal(styling?.basics[0]?.text.length, 80);
});

t.test('own rules are kept one per line, each trimmed, blank lines dropped', async (t) => {
  given(t)
    .when(styled({ choosing: '  No denim on denim  \r\n\r\n  Prefer linen in summer\n', picture: '\n\nDaylight\rSoft shadows  ' }))
    .then({ styling: { ...defaultStyling(), choosing: 'No denim on denim\nPrefer linen in summer', picture: 'Daylight\nSoft shadows' } });
});

t.test('empty basics and repeats are dropped; slots are read without regard to case', async (t) => {
  given(t)
    .when(styled({ basics: [basic('White tee'), basic('  '), { slot: 'top' }, { text: null }, basic(' white  TEE ', 'TOP'), basic('White tee', 'bottom'), basic(' \n ', 'nowhere')] }))
    .then({
      styling: {
        ...defaultStyling(),
        basics: [
          { basicId: 'new-1', text: 'White tee', slot: 'top' },
          { basicId: 'new-2', text: 'White tee', slot: 'bottom' },
        ],
      },
    });
});

t.test('a basic without a known slot is refused, naming its text', async (t) => {
  given(t).when(styled({ basics: [basic('White tee', 'hat')] })).thenRefuses('"White tee" needs a slot: one of top, bottom, footwear, outerwear, headwear, accessory.');
  given(t).when(styled({ basics: [{ text: 'Grey\nbeanie' }] })).thenRefuses(stylingMessages.needsSlot('Grey beanie'));
  given(t).when(styled({ basics: [{ text: 'Belt', slot: 3 }] })).thenRefuses(stylingMessages.needsSlot('Belt'));
});

t.test('at most 8 basics, counted after empty ones and repeats are dropped', async (t) => {
  const eight = Array.from({ length: 8 }, (_, i) => basic(`Piece ${i}`, BASIC_SLOTS[i % BASIC_SLOTS.length]));
  const { styling } = readStylingPut(styled({ basics: [...eight, basic('piece 0', 'TOP'), basic(''), basic('PIECE 3', 'outerwear')] }), contextWith());
  t.equal(styling?.basics.length, 8);
  given(t).when(styled({ basics: [...eight, basic('Piece 8')] })).thenRefuses('At most 8 house basics.');
});

t.test('basic ids: kept when they name a saved basic, assigned when left out or not ours', async (t) => {
  given(t)
    .when(styled({ basics: [basic('Crisp white tee', 'top', 'basic-white-tee'), basic('Loafers', 'footwear', 'made-up'), basic('Cap', 'headwear', 42 as never), basic('Jeans', 'bottom')] }))
    .then({
      styling: {
        ...defaultStyling(),
        basics: [
          { basicId: 'basic-white-tee', text: 'Crisp white tee', slot: 'top' },
          { basicId: 'new-1', text: 'Loafers', slot: 'footwear' },
          { basicId: 'new-2', text: 'Cap', slot: 'headwear' },
          { basicId: 'new-3', text: 'Jeans', slot: 'bottom' },
        ],
      },
    });
  // Two basics claiming one id: the first keeps it.
  given(t)
    .when(styled({ basics: [basic('Tee', 'top', 'basic-jeans'), basic('Jeans', 'bottom', 'basic-jeans')] }))
    .then({
      styling: {
        ...defaultStyling(),
        basics: [
          { basicId: 'basic-jeans', text: 'Tee', slot: 'top' },
          { basicId: 'new-1', text: 'Jeans', slot: 'bottom' },
        ],
      },
    });
  // A store that never saved basics keeps no id it sends.
  given(t, [])
    .when(styled({ basics: [basic('Tee', 'top', 'basic-white-tee')] }))
    .then({ styling: { ...defaultStyling(), basics: [{ basicId: 'new-1', text: 'Tee', slot: 'top' }] } });
});

t.test('excluded brands: read as slugs, own and unknown ones dropped, repeats dropped, order kept', async (t) => {
  given(t)
    .when(sized({ excludedBrands: ['zara', 'acme-house', 'Acme House', 'no-such-brand', '', 'NIKE', "Levi's", 'zara', 'nordic-thread'] }))
    .then({ sizing: { brandSizes: { enabled: true, logos: true, excludedBrands: ['zara', 'nike', 'levis', 'nordic-thread'] } } });
});

t.test('at most 40 known brands can be left out; unknown ones do not count', async (t) => {
  const forty = knownSlugs.slice(0, 40);
  const unknown = Array.from({ length: 30 }, (_, i) => `unknown-${i}`);
  const { sizing } = readStylingPut(sized({ excludedBrands: [...forty, ...unknown, 'acme-house', ...forty] }), contextWith());
  t.same(sizing?.brandSizes.excludedBrands, forty);
  given(t).when(sized({ excludedBrands: knownSlugs.slice(0, 41) })).thenRefuses('At most 40 brands can be left out.');
});

t.test('the first problem speaks: styling before sizing', async (t) => {
  given(t).when({ styling: { choosing: 1 }, sizing: { brandSizes: 'x' } }).thenRefuses('styling.choosing must be a string.');
});

t.test('brand slugs', async (t) => {
  const examples: [string, string][] = [
    ["Levi's", 'levis'],
    ["Arc'teryx", 'arcteryx'],
    ['Dr. Martens', 'dr-martens'],
    ['A.P.C.', 'a-p-c'],
    ['H&M', 'h-and-m'],
    ['Marks & Spencer', 'marks-and-spencer'],
    ['Hermès', 'hermes'],
    ['Fjällräven', 'fjallraven'],
    ['Samsøe Samsøe', 'samsoe-samsoe'],
    ['  --Off-White--  ', 'off-white'],
    ['Lands’ End', 'lands-end'],
    ['ユニクロ', 'ユニクロ'],
    ['***', ''],
  ];
  for (const [name, slug] of examples) t.equal(brandSlug(name), slug, name);
  t.equal(brandSlug(brandSlug('Tiffany & Co.')), brandSlug('Tiffany & Co.'), 'a slug is its own slug');
});

t.test('the bundled brands: many, well-known, each slug its name’s and unique', async (t) => {
  t.ok(BUNDLED_BRANDS.length >= 150);
  t.equal(new Set(BUNDLED_BRANDS.map((b) => b.slug)).size, BUNDLED_BRANDS.length);
  for (const { slug, name } of BUNDLED_BRANDS) if (brandSlug(name) !== slug) t.fail(`${name} → ${slug}`);
  for (const slug of ['nike', 'adidas', 'levis', 'zara', 'h-and-m', 'uniqlo', 'cos', 'arket', 'everlane', 'patagonia', 'arcteryx', 'dr-martens', 'birkenstock', 'veja', 'allbirds', 'ralph-lauren', 'tommy-hilfiger', 'calvin-klein', 'gap', 'j-crew', 'madewell', 'reformation', 'ganni', 'acne-studios', 'a-p-c']) {
    t.ok(directory.knownSlugs.has(slug), slug);
  }
});

t.test('the directory: bundled brands plus the vendors, without the store’s own, sorted by name', async (t) => {
  t.notOk(directory.knownSlugs.has('acme-house'));
  t.same([...directory.ownSlugs], ['acme-house']);
  t.same(
    directory.brands.find((b) => b.slug === 'nordic-thread'),
    { slug: 'nordic-thread', name: 'Nordic Thread' },
  );
  t.equal(directory.brands.find((b) => b.slug === 'nike')?.name, 'Nike', 'the bundled spelling wins');
  t.equal(directory.brands.length, BUNDLED_BRANDS.length + 1);
  const names = directory.brands.map((b) => b.name);
  t.same(names, [...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
  const zaraStore = brandDirectory(['', '  '], ['Zara']);
  t.notOk(zaraStore.knownSlugs.has('zara'), 'a bundled brand that is the store’s own is left out');
  t.equal(zaraStore.brands.length, BUNDLED_BRANDS.length - 1);
});

t.test('any JSON body is refused with a 422 or saved within every limit', async (t) => {
  // Mostly well-formed, so most runs are saved and reach the limits; now and then anything at all.
  const mostly = <T,>(usual: fc.Arbitrary<T>, weight = 8) => fc.oneof({ arbitrary: usual, weight }, { arbitrary: fc.jsonValue(), weight: 1 });
  const slot = mostly(fc.constantFrom(...BASIC_SLOTS, 'TOP', ' Footwear '), 40);
  const text = mostly(fc.oneof(fc.string({ maxLength: 120 }), fc.string({ unit: 'grapheme', maxLength: 1400 }), fc.constantFrom('White tee', ' white TEE ', 'Jeans')), 40);
  const basicEntry = mostly(fc.record({ text, slot, basicId: mostly(fc.constantFrom('basic-white-tee', 'basic-jeans')) }, { requiredKeys: ['text', 'slot'] }), 40);
  const styling = mostly(
    fc.record(
      {
        off: mostly(fc.array(mostly(fc.constantFrom(...RULE_IDS)))),
        basics: mostly(fc.array(basicEntry, { maxLength: 12 })),
        choosing: text,
        picture: text,
        tryOn: mostly(fc.boolean()),
      },
      { requiredKeys: [] },
    ),
  );
  const slug = fc.oneof(fc.constantFrom(...knownSlugs, 'acme-house', 'Acme House', 'NIKE'), fc.string());
  const brandSizes = mostly(
    fc.record({ enabled: mostly(fc.boolean()), logos: mostly(fc.boolean()), excludedBrands: mostly(fc.array(slug, { maxLength: 60 })) }, { requiredKeys: [] }),
  );
  const sizing = mostly(fc.record({ brandSizes }, { requiredKeys: [] }));
  const body = mostly(fc.oneof(fc.record({ styling }), fc.record({ sizing }), fc.record({ styling, sizing })));

  fc.assert(
    fc.property(body, (sent) => {
      let result: ReturnType<typeof readStylingPut>;
      try {
        result = readStylingPut(sent, contextWith());
      } catch (error) {
        return error instanceof Invalid && error.message.length > 0;
      }
      const { styling: s, sizing: z } = result;
      if (!s && !z) return false;
      if (s) {
        if (new Set(s.off).size !== s.off.length || !s.off.every((id) => (RULE_IDS as readonly string[]).includes(id))) return false;
        if (s.basics.length > STYLING_LIMITS.basics) return false;
        if (new Set(s.basics.map((b) => b.basicId)).size !== s.basics.length) return false;
        if (new Set(s.basics.map((b) => `${b.slot}|${b.text.toLowerCase()}`)).size !== s.basics.length) return false;
        for (const b of s.basics) {
          if (!b.basicId || !b.text || b.text.length > STYLING_LIMITS.basicText || /[\r\n]/.test(b.text) || b.text !== b.text.trim()) return false;
          if (!(BASIC_SLOTS as readonly string[]).includes(b.slot)) return false;
        }
        if (s.choosing.length > STYLING_LIMITS.choosing || s.picture.length > STYLING_LIMITS.picture) return false;
        if (typeof s.tryOn !== 'boolean') return false;
      }
      if (z) {
        const { enabled, logos, excludedBrands } = z.brandSizes;
        if (typeof enabled !== 'boolean' || typeof logos !== 'boolean') return false;
        if (excludedBrands.length > STYLING_LIMITS.excludedBrands || new Set(excludedBrands).size !== excludedBrands.length) return false;
        if (!excludedBrands.every((b) => directory.knownSlugs.has(b) && !directory.ownSlugs.has(b) && b === b.toLowerCase())) return false;
      }
      return true;
    }),
    { numRuns: 1500 },
  );
  t.pass();
});
