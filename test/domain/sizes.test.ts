// Sizes as shoppers and stores write them: one comparable form, so "XLarge" on a variant answers
// a shopper's "XL" and "EU 42" answers "42". The normal form is remembered per value: it must be
// the same however often and in whatever order values come, past the memory's bound too.
import t from 'tap';
import { normalSize, variantHasSize } from '../../domain/search/sizes.js';

t.test('a size reads the same however a store or a shopper writes it, every time', async (t) => {
  const same: Array<[string, string]> = [
    ['XLarge', 'XL'],
    ['x-large', 'XL'],
    ['Extra Large', 'XL'],
    ['2XL', 'XXL'],
    ['EU 42', '42'],
    ['Size 10.5', '10.5'],
    ['Small', 's'],
    ['One Size', 'OS'],
    ['one-size-fits-all', 'o/s'],
    ['Free Size', 'one size'],
  ];
  for (let round = 0; round < 2; round++) for (const [written, said] of same) t.equal(normalSize(written), normalSize(said), `round ${round + 1}: "${written}" is "${said}"`);
  t.not(normalSize('XS'), normalSize('XXS'));
  t.not(normalSize('42'), normalSize('43'));
});

t.test('past the bound of what is remembered, every value still reads as it did first', async (t) => {
  const first = new Map<string, string>();
  const values = Array.from({ length: 6_000 }, (_, i) => (i % 3 === 0 ? `EU ${i}` : i % 3 === 1 ? `W${i} L30` : `${i}.5 US`));
  for (const value of values) first.set(value, normalSize(value));
  let differ = 0;
  for (const value of [...values].reverse()) if (normalSize(value) !== first.get(value)) differ++;
  t.equal(differ, 0);
  t.equal(normalSize(`${'x'.repeat(60)} large`), normalSize(`${'x'.repeat(60)} large`), 'a value too long to remember reads the same too');
});

t.test('a variant is in the size its size option or its label says', async (t) => {
  t.ok(variantHasSize({ label: 'Black / XLarge', options: [{ name: 'Colour', value: 'Black' }, { name: 'Size', value: 'XLarge' }] }, 'xl'));
  t.notOk(variantHasSize({ label: 'Black / L', options: [{ name: 'Colour', value: 'Black' }, { name: 'Size', value: 'L' }] }, 'xl'));
  t.ok(variantHasSize({ label: '42 / 8.5 US', options: [] }, 'EU 42'), 'any part of a label may be the size');
  t.ok(variantHasSize({ label: 'One Size', options: [{ name: 'Size', value: 'One Size' }] }, 'OS'), 'a shopper who says OS finds a variant written One Size');
  t.ok(variantHasSize({ label: 'OS', options: [{ name: 'Size', value: 'OS' }] }, 'one size'), 'and the other way round');
});
