// Near families (domain/catalogue/taxonomy/near.ts): every name is a family of the taxonomy, the
// relation is symmetric, and a slot's catch-all is near nothing; a family's traits are single words
// and only a family with near families has any.
import t from 'tap';
import { FAMILIES, familyTraits, GENERIC_FAMILIES, nearFamilies } from '../../domain/catalogue/taxonomy/index.js';
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

t.test("traits: single lower-case words, the family's own one-word names among them; none for a family nothing is near", async (t) => {
  for (const { family } of FAMILIES) {
    const traits = familyTraits(family);
    if (!nearFamilies(family).length) t.same(traits, [], `${family} has no near family to show them`);
    for (const trait of traits) t.match(trait, /^[a-z]+$/, `${family}: "${trait}" is one word`);
  }
  t.ok(familyTraits('joggers').includes('drawstring'), 'a trait written for the family');
  t.ok(familyTraits('joggers').includes('sweats'), "one of the family's own names");
  t.notOk(familyTraits('joggers').includes('track pant'), 'a name of two words is left out: its words alone name other things');
  t.same(rankingIntent(understandQuery('joggers')).traits, familyTraits('joggers'));
  t.same(rankingIntent(understandQuery('red')).traits, [], 'no garment named, no traits');
});
