// Colour names as shops write them, their families, neighbours and the nearest family of a pixel.
import t from 'tap';
import { areNeighbours, colourFamilyOf, FAMILY_RGB, findColours, nearestFamily, neighbouringFamilies } from '../../domain/catalogue/colours.js';
import { COLOR_FAMILIES } from '../../domain/catalogue/vocabulary.js';

t.test('given fancy retail colour names, each maps to its family', async (t) => {
  const cases: Record<string, string> = {
    'Heather Green': 'green', 'Burnt Orange': 'rust', 'Slate Grey': 'grey', Oatmeal: 'beige', Ecru: 'ivory', Bordeaux: 'burgundy', Sand: 'beige',
    Stone: 'beige', Indigo: 'navy', 'Navy Blue': 'navy', Charcoal: 'charcoal', 'Off White': 'ivory', 'Grey Melange': 'grey', Maroon: 'burgundy',
    'light_brown': 'tan', 'Dark Olive': 'olive', Fuchsia: 'pink', Teal: 'teal', 'Multi': 'multicolour', Mustard: 'mustard', Camel: 'camel',
  };
  for (const [name, family] of Object.entries(cases)) t.equal(colourFamilyOf(name)?.family, family, name);
  t.equal(colourFamilyOf('Organic Ramie'), null, 'no colour named');
});

t.test('when a value names two colours, the first leads; plural colour words count', async (t) => {
  t.equal(colourFamilyOf('Navy/White Stripe')?.family, 'navy');
  t.equal(colourFamilyOf('Blacks + Greys upcycled textiles')?.family, 'black');
  t.same(
    findColours('Heather Green and Burnt Orange').map((c) => c.family),
    ['green', 'rust'],
  );
});

t.test('neighbouring families are symmetric and known pairs hold', async (t) => {
  t.ok(areNeighbours('navy', 'blue'));
  t.ok(areNeighbours('charcoal', 'grey'));
  t.ok(areNeighbours('blue', 'navy'));
  t.notOk(areNeighbours('red', 'green'));
  t.notOk(areNeighbours('red', 'red'), 'a family is not its own neighbour');
  for (const family of COLOR_FAMILIES) for (const n of neighbouringFamilies(family)) t.ok(neighbouringFamilies(n).includes(family), `${family} ~ ${n}`);
});

t.test('the nearest family of an RGB value is the one it looks like', async (t) => {
  t.equal(nearestFamily([200, 20, 30]), 'red');
  t.equal(nearestFamily([15, 25, 70]), 'navy');
  t.equal(nearestFamily([10, 10, 10]), 'black');
  t.equal(nearestFamily([250, 250, 250]), 'white');
  t.equal(nearestFamily([40, 120, 220]), 'blue');
  for (const family of COLOR_FAMILIES) {
    if (family === 'multicolour' || family === 'other') continue;
    t.equal(nearestFamily(FAMILY_RGB[family]), family, `${family}'s own colour`);
  }
});
