// Families a shopper who asked for one would take as the next best thing: a hoodie or a sweater
// for "sweatshirt", trousers for "joggers", a loafer for "formal shoes". Search ranks them after
// the family asked for and before the rest of its slot (a blouse for "sweatshirt"); they are never
// the thing asked for (domain/search/rank.ts `isAsked`). Written from what the garments are, not
// from any judged query. Pairs are symmetric. A slot's catch-all (a "shoe" of no known kind) is
// not near anything: it may be the family asked for or any other, and ranks as the rest of its
// slot does. Pure data.
import { FAMILIES } from './families.js';

const PAIRS: ReadonlyArray<readonly [string, string]> = [
  // top
  ['t shirt', 'tank top'],
  ['t shirt', 'polo'],
  ['tank top', 'camisole'],
  ['shirt', 'blouse'],
  ['shirt', 'polo'],
  ['blouse', 'tunic'],
  ['tunic', 'kurta'],
  ['sweater', 'cardigan'],
  ['sweater', 'sweatshirt'],
  ['sweater', 'hoodie'],
  ['sweatshirt', 'hoodie'],
  ['cardigan', 'shrug'],
  ['bodysuit', 'camisole'],
  ['corset', 'bodysuit'],
  // bottom
  ['trousers', 'jeans'],
  ['trousers', 'joggers'],
  ['joggers', 'leggings'],
  ['trousers', 'salwar'],
  // outerwear
  ['jacket', 'coat'],
  ['jacket', 'puffer'],
  ['jacket', 'blazer'],
  ['jacket', 'fleece'],
  ['coat', 'puffer'],
  ['puffer', 'vest'],
  ['poncho', 'kimono'],
  // full body
  ['jumpsuit', 'playsuit'],
  ['jumpsuit', 'dungarees'],
  ['saree', 'lehenga'],
  ['lehenga', 'kurta set'],
  ['suit', 'blazer'],
  // footwear
  ['formal shoe', 'loafer'],
  ['loafer', 'flat'],
  ['flat', 'mule'],
  ['mule', 'sandal'],
  ['sandal', 'flip flop'],
  // headwear
  ['cap', 'hat'],
  ['hat', 'beret'],
  ['hat', 'beanie'],
  ['beanie', 'balaclava'],
  // bag
  ['handbag', 'shoulder bag'],
  ['handbag', 'tote'],
  ['handbag', 'clutch'],
  ['shoulder bag', 'crossbody'],
  ['shoulder bag', 'tote'],
  ['crossbody', 'belt bag'],
  ['clutch', 'pouch'],
  ['backpack', 'laptop bag'],
  ['backpack', 'duffel'],
  // the rest
  ['bikini', 'swimsuit'],
  ['pyjamas', 'nightdress'],
  ['robe', 'kimono'],
  ['briefs', 'boxers'],
  ['undershirt', 'tank top'],
  ['shapewear', 'bodysuit'],
  ['socks', 'tights'],
  ['necklace', 'jewellery set'],
  ['earrings', 'jewellery set'],
];

const near = new Map<string, Set<string>>();
const add = (from: string, to: string) => (near.get(from) ?? near.set(from, new Set()).get(from)!).add(to);
for (const [a, b] of PAIRS) {
  add(a, b);
  add(b, a);
}

/** The families near `family` (never itself), in no particular order; none for a family without neighbours. */
export function nearFamilies(family: string): readonly string[] {
  return [...(near.get(family) ?? [])];
}

/**
 * The words by which a listing of a near family shows it is nearly the garment asked for: a pair
 * of trousers with a drawstring and cuffed ankles is nearly joggers, a quilted jacket nearly a
 * puffer. Search ranks a near family's item that has them before one that has not (still after the
 * family asked for). Written from what the garments are, as the pairs are: each word a trait of
 * the family that a listing of its near families may carry. Beside them, the family's own names
 * of one word (`familyTraits`): a pant its listing calls "sweats" is nearly joggers, though its
 * title made it trousers. Single words, matched as whole words: "elastic" is not "elastane".
 */
const TRAITS: Readonly<Record<string, readonly string[]>> = {
  joggers: ['drawstring', 'drawcord', 'elastic', 'elasticated', 'cuffed', 'jogging', 'sweatpants', 'fleece'],
  hoodie: ['hood', 'hooded'],
  sweatshirt: ['fleece', 'terry', 'loopback', 'brushed'],
  blazer: ['tailored', 'lapel', 'lapels', 'breasted', 'suiting'],
  puffer: ['quilted', 'padded', 'insulated', 'puffy'],
  jeans: ['denim'],
  cardigan: ['buttoned', 'button'],
};

const traitsOf = new Map<string, readonly string[]>();

/** The traits of `family` that a near family's listing may show, and its names of one word; none for a family without near families. */
export function familyTraits(family: string): readonly string[] {
  let traits = traitsOf.get(family);
  if (!traits) {
    const names = near.has(family) ? FAMILIES.filter((f) => f.family === family).flatMap((f) => f.cues.filter((cue) => !cue.includes(' '))) : [];
    traits = [...new Set([...(TRAITS[family] ?? []), ...names])];
    traitsOf.set(family, traits);
  }
  return traits;
}
