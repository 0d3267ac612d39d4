// Near families (domain/catalogue/taxonomy/near.ts): every name is a family of the taxonomy, the
// relation is symmetric, and a slot's catch-all is near nothing.
import t from 'tap';
import { FAMILIES, GENERIC_FAMILIES, nearFamilies } from '../../domain/catalogue/taxonomy/index.js';
import { rankingIntent } from '../../domain/search/rank.js';
import { understandQuery } from '../../domain/search/index.js';

const names = new Set(FAMILIES.map((f) => f.family));

t.test('every near family is a family of the taxonomy, never the family itself', async (t) => {
  for (const { family } of FAMILIES) {
    for (const near of nearFamilies(family)) {
      t.ok(names.has(near), `${family} → ${near} is a family`);
      t.not(near, family);
    }
  }
});

t.test('near is symmetric; a catch-all family is near nothing', async (t) => {
  for (const { family } of FAMILIES) {
    for (const near of nearFamilies(family)) t.ok(nearFamilies(near).includes(family), `${near} → ${family}`);
    if (GENERIC_FAMILIES.has(family)) t.same(nearFamilies(family), [], `${family} is a catch-all`);
  }
  t.same([...nearFamilies('sweatshirt')].sort(), ['hoodie', 'sweater']);
  t.same([...nearFamilies('joggers')].sort(), ['leggings', 'trousers']);
});

t.test("given the shopper's words, then the ranking intent carries the families near those named, not those named", async (t) => {
  const intent = rankingIntent(understandQuery('grey sweatshirt'));
  t.same(intent.families, ['sweatshirt']);
  t.same([...intent.nearFamilies].sort(), ['hoodie', 'sweater']);
  t.same(rankingIntent(understandQuery('red')).nearFamilies, [], 'no garment named, none near');
});
