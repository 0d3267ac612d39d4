// Accuracy and speed of the offline labeller on a labelled product set: the Kaggle "Fashion
// Product Images" styles.csv (see ../shared/fixtures/labelled/SOURCES.md), read from the product
// name alone. Myntra's labels are mapped onto our vocabularies by the tables below; rows whose
// label has no counterpart are skipped for that field and counted. A neighbouring colour family
// (navy for blue) counts half.
//   node --import tsx bench/labelling.ts   (BENCH_LIMIT caps the rows read)
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { areNeighbours } from '../domain/catalogue/colours.js';
import type { Listing } from '../domain/catalogue/product-input.js';
import type { ColorFamily, Gender, Labels, Slot } from '../domain/catalogue/vocabulary.js';
import { labelListing } from '../infra/models/offline-labeller.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STYLES = path.resolve(repoRoot, '../shared/fixtures/labelled/styles.csv');
const LIMIT = Number(process.env.BENCH_LIMIT) || Infinity;

const GENDER: Record<string, Gender> = { Men: 'mens', Women: 'womens', Unisex: 'unisex' };

/** articleType → [slot, family]; a null family checks the slot only. */
const ARTICLE: Record<string, [Slot, string | null]> = {
  Tshirts: ['top', 't shirt'], Shirts: ['top', 'shirt'], Tops: ['top', 'top'], Kurtas: ['top', 'kurta'], Kurtis: ['top', 'kurta'], Tunics: ['top', 'tunic'],
  Sweaters: ['top', 'sweater'], Sweatshirts: ['top', 'sweatshirt'], Shrug: ['top', 'shrug'], Camisoles: ['top', 'camisole'],
  Jackets: ['outerwear', 'jacket'], 'Rain Jacket': ['outerwear', 'jacket'], Blazers: ['outerwear', 'blazer'], Waistcoat: ['outerwear', 'vest'], 'Nehru Jackets': ['outerwear', 'vest'],
  Jeans: ['bottom', 'jeans'], Trousers: ['bottom', 'trousers'], Capris: ['bottom', 'trousers'], 'Track Pants': ['bottom', 'joggers'], Shorts: ['bottom', 'shorts'],
  Skirts: ['bottom', 'skirt'], Leggings: ['bottom', 'leggings'], Jeggings: ['bottom', 'leggings'], Churidar: ['bottom', 'salwar'], Salwar: ['bottom', 'salwar'],
  Patiala: ['bottom', 'salwar'], 'Salwar and Dupatta': ['bottom', 'salwar'],
  Dresses: ['full body', 'dress'], Jumpsuit: ['full body', 'jumpsuit'], Sarees: ['full body', 'saree'], 'Lehenga Choli': ['full body', 'lehenga'],
  'Kurta Sets': ['full body', 'kurta set'], Tracksuits: ['full body', 'tracksuit'],
  Stockings: ['hosiery', 'tights'], Tights: ['hosiery', 'tights'], Socks: ['hosiery', 'socks'],
  Bra: ['underwear', 'bra'], Briefs: ['underwear', 'briefs'], Boxers: ['underwear', 'boxers'], Shapewear: ['underwear', 'shapewear'],
  'Lounge Pants': ['sleepwear', 'pyjamas'], 'Night suits': ['sleepwear', 'pyjamas'], Nightdress: ['sleepwear', 'nightdress'], Swimwear: ['swimwear', null],
  'Casual Shoes': ['footwear', 'sneaker'], 'Sports Shoes': ['footwear', 'sneaker'], 'Formal Shoes': ['footwear', 'formal shoe'], Heels: ['footwear', 'heels'],
  Flats: ['footwear', 'flat'], Sandals: ['footwear', 'sandal'], 'Sports Sandals': ['footwear', 'sandal'], 'Flip Flops': ['footwear', 'flip flop'],
  Handbags: ['bag', 'handbag'], Clutches: ['bag', 'clutch'], Backpacks: ['bag', 'backpack'], 'Duffel Bag': ['bag', 'duffel'], 'Laptop Bag': ['bag', 'laptop bag'],
  'Messenger Bag': ['bag', 'crossbody'], 'Waist Pouch': ['bag', 'belt bag'], 'Mobile Pouch': ['bag', 'pouch'], 'Tablet Sleeve': ['bag', 'laptop bag'],
  Belts: ['accessory', 'belt'], Ties: ['accessory', 'tie'], Wallets: ['accessory', 'wallet'], Scarves: ['accessory', 'scarf'], Stoles: ['accessory', 'scarf'],
  Mufflers: ['accessory', 'scarf'], Dupatta: ['accessory', 'scarf'], Gloves: ['accessory', 'gloves'], Umbrellas: ['accessory', 'umbrella'], Watches: ['accessory', 'watch'],
  Suspenders: ['accessory', 'suspenders'], Caps: ['headwear', 'cap'],
  Earrings: ['jewellery', 'earrings'], 'Necklace and Chains': ['jewellery', 'necklace'], Pendant: ['jewellery', 'necklace'], Ring: ['jewellery', 'ring'],
  Bangle: ['jewellery', 'bracelet'], Bracelet: ['jewellery', 'bracelet'], 'Jewellery Set': ['jewellery', 'jewellery set'], Cufflinks: ['jewellery', 'cufflinks'],
};

const COLOUR: Record<string, ColorFamily> = {
  Black: 'black', White: 'white', Blue: 'blue', Brown: 'brown', Grey: 'grey', Red: 'red', Green: 'green', 'Navy Blue': 'navy', Purple: 'purple', Pink: 'pink',
  Yellow: 'yellow', Beige: 'beige', Maroon: 'burgundy', Silver: 'silver', Orange: 'orange', Multi: 'multicolour', Olive: 'olive', Cream: 'cream', Gold: 'gold',
  'Off White': 'ivory', Charcoal: 'charcoal', Peach: 'peach', Steel: 'grey', Teal: 'teal', Magenta: 'pink', Lavender: 'lavender', Khaki: 'khaki', Tan: 'tan',
  Mustard: 'mustard', Rust: 'rust', 'Turquoise Blue': 'turquoise', 'Grey Melange': 'grey', Bronze: 'gold', Burgundy: 'burgundy', 'Coffee Brown': 'chocolate',
  'Sea Green': 'green', Copper: 'rust', Mauve: 'lavender', Taupe: 'beige', Metallic: 'silver', Skin: 'beige', Nude: 'beige', 'Fluorescent Green': 'green',
  'Mushroom Brown': 'beige', 'Lime Green': 'green', 'Rose': 'rose', 'Coral': 'coral',
};

type Field = 'slot' | 'family' | 'gender' | 'color_family';
const FIELDS: Field[] = ['slot', 'family', 'gender', 'color_family'];

interface Tally {
  checked: number;
  score: number;
  skipped: number;
}

/** RFC 4180 rows; a row with extra fields (unquoted commas in the name, as in the original Kaggle file) joins them back. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') endField();
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endField();
      rows.push(row);
      row = [];
    } else field += c;
  }
  if (field || row.length) {
    endField();
    rows.push(row);
  }
  return rows.filter((r) => r.length > 1);
}

const listingOf = (sku: string, name: string): Listing => ({
  sku, name, url: '', description: '', brand: '', productType: '', tags: [], price: 0, currency: '', images: [], variants: [], model: { height: '', size: '' }, options: [],
});

async function main(): Promise<void> {
  if (!existsSync(STYLES)) {
    console.log(`labelling bench skipped: ${STYLES} not found`);
    return;
  }
  const [header, ...rows] = parseCsv(await readFile(STYLES, 'utf8'));
  const column = (name: string) => header!.indexOf(name);
  const [id, gender, article, colour, name] = ['id', 'gender', 'articleType', 'baseColour', 'productDisplayName'].map(column) as [number, number, number, number, number];
  const width = header!.length;
  const tallies = Object.fromEntries(FIELDS.map((f) => [f, { checked: 0, score: 0, skipped: 0 }])) as Record<Field, Tally>;
  const confusions = new Map<string, number>();
  const sample = rows.slice(0, LIMIT);
  const started = performance.now();
  const answers: Labels[] = sample.map((cells) => {
    const fullName = cells.slice(name, name + 1 + cells.length - width).join(',');
    return labelListing({ listing: listingOf(cells[id]!, fullName), photos: [], targetGender: null });
  });
  const seconds = (performance.now() - started) / 1000;
  sample.forEach((cells, i) => {
    const labels = answers[i]!;
    const mapped = ARTICLE[cells[article]!];
    const expected: Record<Field, string | null | undefined> = {
      slot: mapped?.[0],
      family: mapped?.[1],
      gender: GENDER[cells[gender]!],
      color_family: COLOUR[cells[colour]!],
    };
    for (const field of FIELDS) {
      const want = expected[field];
      const tally = tallies[field];
      if (!want) {
        tally.skipped++;
        continue;
      }
      tally.checked++;
      const got = labels[field] as string;
      if (got === want) tally.score += 1;
      else if (field === 'color_family' && areNeighbours(got as ColorFamily, want as ColorFamily)) tally.score += 0.5;
      if (got !== want) {
        const key = `${field}: ${want} → ${got}`;
        confusions.set(key, (confusions.get(key) ?? 0) + 1);
      }
    }
  });
  const table = FIELDS.map((field) => ({
    field,
    checked: tallies[field].checked,
    skipped: tallies[field].skipped,
    accuracy: `${((tallies[field].score / Math.max(1, tallies[field].checked)) * 100).toFixed(1)}%`,
  }));
  console.table(table);
  const perSecond = Math.round(sample.length / seconds);
  console.log(`${sample.length} products in ${seconds.toFixed(2)} s: ${perSecond} products/s on one core`);
  const top = [...confusions].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.BENCH_CONFUSIONS) || 25);
  console.log('most frequent misses:');
  for (const [key, n] of top) console.log(`  ${n}\t${key}`);
  await mkdir(path.join(repoRoot, 'bench/results'), { recursive: true });
  const result = {
    bench: 'labelling',
    at: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    source: path.relative(repoRoot, STYLES),
    rows: sample.length,
    productsPerSecond: perSecond,
    fields: table.map((row) => ({ ...row, accuracy: tallies[row.field].score / Math.max(1, tallies[row.field].checked) })),
    topMisses: top.map(([key, count]) => ({ key, count })),
  };
  await writeFile(path.join(repoRoot, 'bench/results/labelling.json'), `${JSON.stringify(result, null, 2)}\n`);
}

await main();
