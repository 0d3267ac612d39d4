// Which shop words of the seven fixture feeds the shopper vocabulary misses (issue 28, point 6).
// The vocabulary is one module family: the taxonomy's family cues (domain/catalogue/taxonomy),
// which the offline labeller reads product_type, titles and tags with, and the shopper words
// (domain/search/shopper-words.ts) that query understanding adds on top. A garment word is covered
// when BOTH resolve it to a family: the labeller's phrase matcher (familyCues) finds a family cue
// in it, and understandQuery reads a family (or a whole slot) out of it.
//
// What it checks, over product_type, title and tags of every product (never the body):
// 1. every product_type value names a family, except the store departments listed in
//    NOT_GARMENT_TYPES (with the reason);
// 2. every family cue the labeller finds in the feeds is read as the same family by a shopper who
//    types it (the two sides agree);
// 3. every garment word of FEED_GARMENT_WORDS (found by reading the words of titles and tags that
//    no vocabulary knew) and of SHOPPER_GARMENT_WORDS (issue 28's athleisure, streetwear and
//    layering words) is covered, except those in LEFT_UNMAPPED (with the reason).
// It prints what fails, then, for review, the products whose type, title and tags name no garment
// at all (the labeller reads their body) and with --words every word of titles and tags that no
// vocabulary knows (brand, model and product names mostly: read them when a feed is added, and put
// the garment words among them into FEED_GARMENT_WORDS). Exits 1 when a check fails.
//   node --import tsx bench/search-quality/vocabulary-coverage.ts [--words]
import { pathToFileURL } from 'node:url';
import { familyCues, words } from '../../domain/catalogue/taxonomy/index.js';
import { understandQuery } from '../../domain/search/index.js';
import { apparelBrands, isKnown } from '../../domain/search/lexicons.js';
import { missingFeeds, readFeed, type ShopifyProduct } from './feeds.js';
import { FEEDS } from './queries.js';

/** Store departments and placeholders used as product_type: they name no garment. */
export const NOT_GARMENT_TYPES: Readonly<Record<string, string>> = {
  placeholder: "Kith's feed puts this stand-in on every product",
  mens: "United By Blue's department for the audience, not the garment",
  womens: "United By Blue's department for the audience, not the garment",
  outdoor: "United By Blue's department for camp gear (stool, mug, headlamp)",
  clothing: 'a whole catalogue, no family',
  'apparel and accessories': "Annie Thompson's umbrella for hats, pants, vests and dresses alike; blocked so it no longer reads as an accessory",
};

/**
 * Garment words of the feeds' titles and tags that no vocabulary knew before issue 28 point 6 (or
 * read as the wrong family), found by reading the --words list and the labels, with the family
 * each should reach. Sneaker model names are hints (weak cues), like the taxonomy's other model names.
 */
export const FEED_GARMENT_WORDS: Readonly<Record<string, string>> = {
  jkt: 'jacket', // Annie Thompson "Metropolitan Compact jkt"
  'hoody jacket': 'hoodie', // Annie Thompson hooded sweatshirts (was read as a jacket, then a sweatshirt by their type)
  'waffle knit': 't shirt', // Annie Thompson "Black Waffle Knit", Hades waffle tops (a hint: "waffle knit top" was read as a knit sweater)
  'booty warmer': 'skirt', // Annie Thompson quilted wrap skirt, type Skirts (was read as a boot: "booty")
  'neck cozy': 'scarf', // Annie Thompson neck warmer
  'ear cozy': 'headband', // Annie Thompson "ear cozy hat" (the hat is the head noun)
  'opera sleeves': 'gloves', // Annie Thompson arm warmers
  onesie: 'jumpsuit', // Annie Thompson type "jumpsuit onesie" and tags
  baggage: 'bag', // Annie Thompson type "Personal Baggage"
  wrap: 'scarf', // Annie Thompson "Shaman Wrap", "Equinox Wrap Scarf" (a hint: a wrap dress stays a dress)
  swim: 'swimwear', // Kith tag on the bikini: a whole slot
  '5 panel': 'cap', // United By Blue "5 Panel Camp Cap"
  sneakerina: 'sneaker', // laced-store
  tenis: 'sneaker', // laced-store ("tenis" is a sneaker in Spanish and Portuguese)
  campus: 'sneaker', // adidas Campus 00s
  speedcat: 'sneaker', // Puma Speedcat
  'onitsuka tiger': 'sneaker',
  'mexico 66': 'sneaker', // Onitsuka Tiger Mexico 66
  cloudtilt: 'sneaker', // On x Loewe
  cloudnova: 'sneaker', // On
  'knu skool': 'sneaker', // Vans
  'knu stack': 'sneaker', // Vans
  vomero: 'sneaker', // Nike Zoom Vomero
  cortez: 'sneaker', // Nike
  forum: 'sneaker', // adidas Forum
  ultraboost: 'sneaker', // adidas
  adiracer: 'sneaker', // adidas
  'court legacy': 'sneaker', // Nike
  'air jordan': 'sneaker',
};

/** Issue 28's shopper words: athleisure, streetwear and layering garments, with their family. */
export const SHOPPER_GARMENT_WORDS: Readonly<Record<string, string>> = {
  // athleisure
  joggers: 'joggers', sweatpants: 'joggers', sweats: 'joggers', trackies: 'joggers', 'track pants': 'joggers', leggings: 'leggings', 'yoga pants': 'leggings',
  'bike shorts': 'shorts', 'biker shorts': 'shorts', 'running shorts': 'shorts', 'sports bra': 'bra', 'track jacket': 'jacket', 'track top': 'sweatshirt',
  tracksuit: 'tracksuit', sweatsuit: 'tracksuit', unitard: 'jumpsuit', 'tennis skirt': 'skirt', skort: 'skirt', 'quarter zip': 'sweatshirt', 'half zip': 'sweatshirt',
  racerback: 'tank top', 'muscle tank': 'tank top',
  // streetwear
  hoodie: 'hoodie', 'zip hoodie': 'hoodie', 'graphic tee': 't shirt', 'oversized tee': 't shirt', longsleeve: 't shirt', cargo: 'trousers', 'cargo pants': 'trousers',
  'cargo shorts': 'shorts', 'parachute pants': 'trousers', jorts: 'shorts', bomber: 'jacket', 'varsity jacket': 'jacket', 'coach jacket': 'jacket', windbreaker: 'jacket',
  windcheater: 'jacket', snapback: 'cap', 'bucket hat': 'hat', beanie: 'beanie', 'dad shoes': 'sneaker', 'skate shoes': 'sneaker', crewneck: 'sweater',
  // layering
  overshirt: 'shirt', shacket: 'jacket', 'shirt jacket': 'jacket', gilet: 'vest', bodywarmer: 'vest', vest: 'vest', 'puffer vest': 'vest', 'sweater vest': 'sweater',
  cardigan: 'cardigan', shrug: 'shrug', kimono: 'kimono', duster: 'kimono', poncho: 'poncho', 'fleece jacket': 'fleece', bandeau: 'tank top', 'neck warmer': 'scarf',
  'arm warmers': 'gloves', 'ear warmers': 'headband', boilersuit: 'jumpsuit',
};

/** Words deliberately left without a family, and why. They are not checked. */
export const LEFT_UNMAPPED: Readonly<Record<string, string>> = {
  t: 'Annie Thompson "Odessa T", "Slither T": a lone letter is too ambiguous to read as a t shirt (initials, "T-Frock" is a dress); their type says Tops',
  thermal: 'an attribute ("thermal leggings"); "thermal top" already names the undershirt family',
  'co ord': 'a matching set spans two slots; no family fits and no feed sells one',
  mac: 'a coat to a shopper (a query-only synonym) but a computer or a cosmetics brand in listings',
  layering: 'a style, not a garment: read as an occasion that boosts layering pieces',
  athleisure: 'a style, not a garment: read as an occasion that boosts athleisure pieces',
};

export interface Coverage {
  products: number;
  productTypes: Array<{ type: string; count: number; labeller: string[]; query: string[] }>;
  unmappedTypes: string[];
  /** Family cues the labeller finds in the feeds that a shopper typing them would not get. */
  disagreements: Array<{ phrase: string; labeller: string[]; query: string[] }>;
  /** Family cues a shopper's words read otherwise by design: apparel brands set no family, occasions boost. */
  byDesign: Array<{ phrase: string; labeller: string[]; why: string }>;
  garmentWords: Array<{ word: string; expected: string; labeller: string[]; query: string[]; ok: boolean }>;
  /** Products whose type, title and tags name no garment (the labeller reads their body). */
  unnamed: Array<{ feed: string; id: string; title: string }>;
  /** Words of titles and tags no vocabulary knows, with how often they occur. */
  unknownWords: Array<[string, number]>;
}

/** The families the labeller's phrase matcher finds in `text` (plain cues; hints only when no plain cue). */
export function labellerFamilies(text: string): string[] {
  const cues = familyCues()
    .scan(words(text))
    .flatMap((m) => m.values.flatMap((v) => (v ? [v] : [])));
  const plain = cues.filter((c) => c.strength >= 1);
  return [...new Set((plain.length ? plain : cues).map((c) => c.family))];
}

/** The families a shopper typing `text` gets; a slot word reads as its slot's name. */
export function queryFamilies(text: string): string[] {
  const q = understandQuery(text);
  return q.families.length ? q.families : q.slot ? [q.slot] : [];
}

function tagsOf(product: ShopifyProduct): string[] {
  const tags = product.tags as unknown;
  if (Array.isArray(tags)) return tags.map(String);
  return typeof tags === 'string' ? tags.split(',').map((s) => s.trim()).filter(Boolean) : [];
}

const normalised = (text: string) => words(text).join(' ');

/** The coverage of the seven feeds (read from ../shared/fixtures/shopify). */
export function vocabularyCoverage(feeds: readonly string[] = FEEDS): Coverage {
  const types = new Map<string, number>();
  const cuePhrases = new Set<string>();
  const unknown = new Map<string, number>();
  const unnamed: Coverage['unnamed'] = [];
  let products = 0;
  const matcher = familyCues();
  for (const feed of feeds) {
    for (const product of readFeed(feed)) {
      products++;
      const type = normalised(String(product.product_type ?? ''));
      if (type) types.set(type, (types.get(type) ?? 0) + 1);
      const texts = [String(product.product_type ?? ''), String(product.title ?? ''), ...tagsOf(product)];
      let named = false;
      for (const text of texts) {
        for (const match of matcher.scan(words(text))) {
          if (!match.values.some((v) => v !== null)) continue;
          named = true;
          cuePhrases.add(match.phrase);
        }
        for (const word of words(text)) if (!isKnown(word) && !/^\d+$/.test(word)) unknown.set(word, (unknown.get(word) ?? 0) + 1);
      }
      if (!named) unnamed.push({ feed, id: String(product.id), title: String(product.title ?? '').replace(/\s+/g, ' ').trim() });
    }
  }
  const productTypes = [...types].sort((a, b) => b[1] - a[1]).map(([type, count]) => ({ type, count, labeller: labellerFamilies(type), query: queryFamilies(type) }));
  const unmappedTypes = productTypes.filter((t) => !(t.type in NOT_GARMENT_TYPES) && (!t.labeller.length || !t.query.length)).map((t) => t.type);
  const disagreements: Coverage['disagreements'] = [];
  const byDesign: Coverage['byDesign'] = [];
  for (const phrase of [...cuePhrases].sort()) {
    const labeller = labellerFamilies(phrase);
    const query = queryFamilies(phrase);
    if (!query.length && apparelBrands.has(phrase)) {
      byDesign.push({ phrase, labeller, why: 'an apparel brand: a shopper naming it sets no family' });
      continue;
    }
    if (!query.length && understandQuery(phrase).occasions.length) {
      byDesign.push({ phrase, labeller, why: 'an occasion to a shopper: it boosts what suits it' });
      continue;
    }
    // A slot word ("shoes", "bags") reads as the whole slot to a shopper: that is agreement.
    const slotWord = query.length === 1 && !labeller.includes(query[0]!) && understandQuery(phrase).slot === query[0];
    if (!slotWord && !labeller.some((f) => query.includes(f))) disagreements.push({ phrase, labeller, query });
  }
  const garmentWords = Object.entries({ ...FEED_GARMENT_WORDS, ...SHOPPER_GARMENT_WORDS })
    .filter(([word]) => !(word in LEFT_UNMAPPED))
    .map(([word, expected]) => {
      const labeller = labellerFamilies(word);
      const query = queryFamilies(word);
      const slotWide = understandQuery(word).slot === expected;
      return { word, expected, labeller, query, ok: (labeller.includes(expected) || slotWide) && (query.includes(expected) || slotWide) };
    });
  return {
    products,
    productTypes,
    unmappedTypes,
    disagreements,
    byDesign,
    garmentWords,
    unnamed,
    unknownWords: [...unknown].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])),
  };
}

function main(): void {
  const missing = missingFeeds();
  if (missing.length) {
    console.log(`vocabulary-coverage: SKIPPED, the fixture feeds are absent (missing: ${missing.join(', ')})`);
    return;
  }
  const c = vocabularyCoverage();
  const list = (values: string[]) => (values.length ? values.join(', ') : '—');
  console.log(`${c.products} products of ${FEEDS.length} feeds; ${c.productTypes.length} product_type values\n`);
  console.log('| product_type | products | labeller | shopper |');
  console.log('| --- | --- | --- | --- |');
  for (const t of c.productTypes) console.log(`| ${t.type} | ${t.count} | ${list(t.labeller)} | ${list(t.query)}${t.type in NOT_GARMENT_TYPES ? ' (not a garment)' : ''} |`);
  const failedWords = c.garmentWords.filter((w) => !w.ok);
  console.log(`\nproduct_type values that map to no family: ${list(c.unmappedTypes)}`);
  console.log(`family cues of the feeds a shopper reads otherwise: ${c.disagreements.length ? '' : '—'}`);
  for (const d of c.disagreements) console.log(`- ${d.phrase}: labeller ${list(d.labeller)}, shopper ${list(d.query)}`);
  for (const d of c.byDesign) console.log(`  (by design: ${d.phrase}, labeller ${list(d.labeller)}: ${d.why})`);
  console.log(`garment words (${c.garmentWords.length} checked) that map to no family or the wrong one: ${failedWords.length ? '' : '—'}`);
  for (const w of failedWords) console.log(`- ${w.word} (want ${w.expected}): labeller ${list(w.labeller)}, shopper ${list(w.query)}`);
  console.log(`\nleft unmapped on purpose:`);
  for (const [word, why] of Object.entries(LEFT_UNMAPPED)) console.log(`- ${word}: ${why}`);
  console.log(`\n${c.unnamed.length} products name no garment in type, title or tags (the labeller reads their body):`);
  for (const p of c.unnamed) console.log(`- ${p.feed.slice(0, 24)}#${p.id} ${p.title.slice(0, 60)}`);
  console.log(`\n${c.unknownWords.length} words of titles and tags no vocabulary knows${process.argv.includes('--words') ? ':' : ' (--words lists them)'}`);
  if (process.argv.includes('--words')) console.log(c.unknownWords.map(([w, n]) => `${w} ${n}`).join(', '));
  if (c.unmappedTypes.length || c.disagreements.length || failedWords.length) process.exitCode = 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
