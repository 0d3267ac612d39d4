// The demo store's catalogue: a few hundred products of a fictional brand, made up from the
// templates by a seeded generator so every run (and every machine) seeds the same demo. Products
// are ItemInput objects and go through the normal upload and ingest path; their photos are
// drawings named by `stylist-demo:` URLs that the ingest fetcher hands to the demo renderer.
// Pure: no I/O, no clock, no Math.random.
import type { ItemInput } from '../catalogue/product-input.js';
import type { AgeGroup, ColorFamily, Fit, Gender, Material, Pattern, Slot } from '../catalogue/vocabulary.js';
import { COLOURS, PALETTES, TEMPLATES, type DemoColour, type Fabric, type GarmentKind, type ProductLine, type ProductTemplate, type SizeRun } from './templates.js';

export { GARMENT_KINDS, type GarmentKind } from './templates.js';

export const DEMO_STORE = { name: 'Northwind Atelier', url: 'https://northwind-atelier.example', currency: 'CAD' } as const;
export const DEMO_PHOTO_SCHEME = 'stylist-demo:';
export const DEFAULT_DEMO_SEED = 20_240_601;
export const DEFAULT_DEMO_COUNT = 300;

export type PhotoView = 'flat front' | 'flat back' | 'detail';

/** What a demo photo shows; the renderer draws it, nothing is stored. */
export interface DemoPhotoSpec {
  src: string;
  sku: string;
  /** Position in the product's images, as in the URL. */
  index: number;
  kind: GarmentKind;
  /** Main colour, `#rrggbb`. */
  colour: string;
  /** Print colour for patterns, trim colour (soles, hardware) otherwise. */
  secondary: string;
  pattern: Pattern;
  view: PhotoView;
}

/** Upper bounds in CAD, exclusive; luxury is everything from 300 up. */
export const PRICE_BANDS = [
  { band: 'budget', below: 40 },
  { band: 'mid', below: 120 },
  { band: 'premium', below: 300 },
  { band: 'luxury', below: Infinity },
] as const;
export type PriceBand = (typeof PRICE_BANDS)[number]['band'];

export const priceBand = (price: number): PriceBand => PRICE_BANDS.find((b) => price < b.below)?.band ?? 'luxury';

/** What the generator meant the product to be: the answer a labeller should find. */
export interface DemoFacts {
  slot: Slot;
  family: string;
  gender: Gender;
  ageGroup: AgeGroup;
  colourFamily: ColorFamily;
  /** Lower-case colour names it is sold in, main first. */
  colours: string[];
  pattern: Pattern;
  materials: Material[];
  fit: Fit | null;
  priceBand: PriceBand;
  line: ProductLine;
  onSale: boolean;
  soldOut: boolean;
}

export interface DemoProduct {
  input: ItemInput;
  photos: DemoPhotoSpec[];
  facts: DemoFacts;
}

export const demoPhotoUrl = (sku: string, index: number): string => `${DEMO_PHOTO_SCHEME}photos/${sku}/${index}.png`;

const PHOTO_URL = /^stylist-demo:photos\/([A-Za-z0-9._-]+)\/(\d{1,3})\.png$/;

export function parseDemoPhotoUrl(src: string): { sku: string; index: number } | null {
  const match = PHOTO_URL.exec(src);
  if (!match?.[1] || !match[2]) return null;
  return { sku: match[1], index: Number(match[2]) };
}

/** mulberry32: tiny, fast and the same on every platform, which is all a demo needs. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

type Random = () => number;
const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
const chance = (random: Random, p: number) => random() < p;

const COLOUR_BY_NAME = new Map(COLOURS.map((c) => [c.name, c]));
const paletteOf = (template: ProductTemplate): DemoColour[] => PALETTES[template.palette].map((name) => COLOUR_BY_NAME.get(name) as DemoColour);

const FIT_WORDS: Record<Fit, string> = { skinny: 'Skinny', slim: 'Slim', regular: '', relaxed: 'Relaxed', oversized: 'Oversized', other: '' };
const PATTERN_WORDS: Record<Pattern, string> = {
  solid: '', striped: 'Striped', checked: 'Check', plaid: 'Plaid', gingham: 'Gingham', floral: 'Floral', 'ditsy floral': 'Ditsy Floral', 'animal print': 'Leopard Print',
  geometric: 'Geometric', abstract: 'Abstract Print', 'polka dot': 'Polka Dot', paisley: 'Paisley', camouflage: 'Camo', chevron: 'Chevron', herringbone: 'Herringbone',
  'tie dye': 'Tie-Dye', 'colour block': 'Colour-Block', graphic: 'Graphic', other: 'Jacquard',
};
const LINE_MARKUP: Record<ProductLine, number> = { 'Northwind Essentials': 0.7, 'Northwind Atelier': 1, 'Atelier Noir': 1.9, 'Northwind Kids': 1, 'Northwind Home': 1 };

const SIZE_RUNS: Record<SizeRun, (gender: Gender) => string[]> = {
  apparel: (g) => (g === 'womens' ? ['XS', 'S', 'M', 'L', 'XL'] : g === 'mens' ? ['S', 'M', 'L', 'XL', 'XXL'] : ['XS', 'S', 'M', 'L', 'XL', 'XXL']),
  waist: (g) => (g === 'womens' ? ['24', '26', '28', '30', '32'] : ['28', '30', '32', '34', '36', '38']),
  shoes: (g) => (g === 'womens' ? ['5', '6', '7', '8', '9', '10'] : g === 'mens' ? ['7', '8', '9', '10', '11', '12'] : ['5', '6', '7', '8', '9', '10', '11', '12']),
  kids: () => ['2T', '3T', '4T', '5', '6', '7/8', '10/12'],
  baby: () => ['0–3M', '3–6M', '6–12M', '12–18M', '18–24M'],
  kidsShoes: () => ['Toddler 7', 'Toddler 9', 'Youth 11', 'Youth 13', 'Youth 2'],
  one: () => ['One Size'],
  ring: () => ['5', '6', '7', '8', '9'],
  bra: () => ['32B', '34B', '34C', '36C', '36D', '38D'],
  hat: () => ['S/M', 'L/XL'],
  socks: () => ['S/M', 'M/L', 'L/XL'],
  candle: () => ['Travel 80 g', 'Classic 220 g', 'Grand 600 g'],
  gift: () => ['$25', '$50', '$100', '$250'],
};
/** Price of a size relative to the product's price, where sizes are different goods. */
const SIZE_PRICE: Record<string, number> = { 'Travel 80 g': 0.45, 'Classic 220 g': 1, 'Grand 600 g': 2.1, $25: 1, $50: 2, $100: 4, $250: 10 };

const APPAREL_SLOTS: ReadonlySet<Slot> = new Set(['top', 'bottom', 'full body', 'outerwear', 'sleepwear', 'swimwear', 'underwear']);

/** Shop prices: 29.95 under a hundred, whole fives above. */
const retail = (price: number) => (price < 100 ? Math.max(5, Math.round(price)) - 0.05 : Math.round(price / 5) * 5);
const code = (text: string) => text.toUpperCase().replace(/\//g, '-').replace(/–/g, '-').replace(/[^A-Z0-9-]/g, '') || 'X';
const slug = (text: string) => text.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

function luminance(hex: string): number {
  const n = parseInt(hex.slice(1), 16);
  return (0.299 * ((n >> 16) & 255) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255)) / 255;
}

function shade(hex: string, factor: number): string {
  const n = parseInt(hex.slice(1), 16);
  const channel = (c: number) => Math.max(0, Math.min(255, Math.round(c * factor))).toString(16).padStart(2, '0');
  return `#${channel((n >> 16) & 255)}${channel((n >> 8) & 255)}${channel(n & 255)}`;
}

const DARK_PRINTS = ['#1f2a46', '#3b3e44', '#6d1a2d', '#2e5c3a', '#1c1c1e'];
const LIGHT_PRINTS = ['#f4efdc', '#fbfbf9', '#f2c3c8', '#f3db4a', '#b4e3cb'];

function secondaryFor(random: Random, colour: DemoColour, pattern: Pattern, kind: GarmentKind): string {
  if (colour.accent) return colour.accent;
  if (pattern !== 'solid') return pick(random, luminance(colour.hex) > 0.55 ? DARK_PRINTS : LIGHT_PRINTS);
  if (kind === 'sneaker') return pick(random, ['#f4f4f2', '#b07a45', '#1c1c1e']);
  return shade(colour.hex, 0.7);
}

/** Least-used colour family first, so a few hundred products wear every family of the vocabulary. */
function pickColour(random: Random, palette: DemoColour[], used: Map<ColorFamily, number>, allowPrints: boolean): DemoColour {
  const candidates = palette.filter((c) => allowPrints || c.family !== 'multicolour');
  if (chance(random, 0.5)) return pick(random, candidates);
  const fewest = Math.min(...candidates.map((c) => used.get(c.family) ?? 0));
  return pick(random, candidates.filter((c) => (used.get(c.family) ?? 0) === fewest));
}

function composition(fabric: Fabric): string {
  return fabric.parts.map(([label, , percent]) => `${percent}% ${label}`).join(', ');
}

const CARE: Partial<Record<Material, string>> = {
  wool: 'Dry clean or hand wash cold; dry flat.', cashmere: 'Hand wash cold with wool detergent; dry flat.', alpaca: 'Dry clean only.', mohair: 'Dry clean only.',
  silk: 'Dry clean or hand wash cold.', leather: 'Wipe clean; condition twice a year.', suede: 'Brush clean; protect with a suede spray.', down: 'Machine wash cold; tumble dry low with dryer balls.',
  metal: 'Keep away from perfume and water; polish with a soft cloth.', acetate: 'Clean with the microfibre cloth provided.', other: 'Trim the wick to 5 mm before each burn; never leave burning unattended.',
  paper: 'Never expires; no fees.', straw: 'Spot clean; keep dry.', shearling: 'Specialist clean only.',
};

interface Draft {
  template: ProductTemplate;
  noun: string;
  fabric: Fabric;
  fit: Fit | null;
  pattern: Pattern;
  colours: DemoColour[];
  gender: Gender;
  line: ProductLine;
  title: string;
}

function draft(random: Random, template: ProductTemplate, used: Map<ColorFamily, number>): Draft {
  const nounChoice = pick(random, template.nouns);
  const [noun, fixedFit] = typeof nounChoice === 'string' ? [nounChoice, null] : nounChoice;
  const fabric = pick(random, template.fabrics);
  const fit = fixedFit ?? (template.fits ? pick(random, template.fits) : null);
  // Leather and metal take no woven print; an animal print on leather is embossed, so it stays.
  const hard = (['leather', 'suede', 'faux leather', 'shearling', 'metal'] as Material[]).includes(fabric.parts[0]?.[1] ?? 'other');
  const patterns = (template.patterns ?? SOLID).filter((p) => !hard || p === 'solid' || p === 'animal print');
  const printable = patterns.filter((p) => p !== 'solid');
  let pattern = pick(random, patterns.length ? patterns : SOLID);
  const palette = paletteOf(template);
  // A metal named in the fabric decides the colour: a 14k gold ring is gold.
  const named = palette.find((c) => fabric.word.includes(c.name));
  const main = named ?? pickColour(random, palette, used, true);
  if (main.family === 'multicolour' && pattern === 'solid') pattern = printable.length ? pick(random, printable) : 'colour block';
  const colours = [main];
  if (template.colourways && pattern === 'solid' && chance(random, 0.5)) {
    const others = palette.filter((c) => c.family !== 'multicolour' && c.family !== main.family);
    for (let n = 1 + Math.floor(random() * 2); n > 0 && others.length; n--) colours.push(others.splice(Math.floor(random() * others.length), 1)[0] as DemoColour);
  }
  const gender = pick(random, template.genders);
  const line = template.line ?? (template.price[1] >= 80 && chance(random, 0.22) ? 'Atelier Noir' : chance(random, 0.35) ? 'Northwind Essentials' : 'Northwind Atelier');
  const [, prefix = '', rest = noun] = /^((?:Kids'|Baby) )?(.*)$/.exec(noun) ?? [];
  const fabricWord = noun.includes('Jeans') || noun.includes(fabric.word) ? '' : fabric.word;
  const modifiers = [fixedFit ? '' : fit ? FIT_WORDS[fit] : '', PATTERN_WORDS[pattern], fabricWord].filter(Boolean).join(' ');
  const named_ = `${prefix}${modifiers ? `${modifiers} ` : ''}${rest}`;
  const title = colours.length === 1 && hasColourOption(template) && !named ? `${named_} – ${main.name}` : named_;
  return { template, noun, fabric, fit, pattern, colours, gender, line, title };
}

const SOLID: Pattern[] = ['solid'];

const hasColourOption = (template: ProductTemplate) => template.slot !== 'non fashion' || template.kind === 'blanket';

/** Every template once (in shuffled order), then weighted draws: small counts still span every slot. */
function templateOrder(random: Random, count: number): ProductTemplate[] {
  const order = [...TEMPLATES];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j] as ProductTemplate, order[i] as ProductTemplate];
  }
  const weighted = TEMPLATES.flatMap((t) => Array.from({ length: t.weight ?? 1 }, () => t));
  while (order.length < count) order.push(pick(random, weighted));
  return order.slice(0, count);
}

export function generateDemoCatalogue(options: { count?: number; seed?: number } = {}): DemoProduct[] {
  const random = prng(options.seed ?? DEFAULT_DEMO_SEED);
  const used = new Map<ColorFamily, number>();
  const titles = new Set<string>();
  return templateOrder(random, options.count ?? DEFAULT_DEMO_COUNT).map((template, i) => {
    let chosen = draft(random, template, used);
    for (let attempt = 0; titles.has(chosen.title) && attempt < 20; attempt++) chosen = draft(random, template, used);
    if (titles.has(chosen.title)) chosen = { ...chosen, title: `${chosen.title} No. ${i + 1}` };
    titles.add(chosen.title);
    for (const c of chosen.colours) used.set(c.family, (used.get(c.family) ?? 0) + 1);
    return product(random, chosen, i);
  });
}

function product(random: Random, d: Draft, i: number): DemoProduct {
  const { template, colours, fabric, pattern } = d;
  const sku = `NW-${10_001 + i}`;
  const age = template.age ?? 'adult';
  const markup = LINE_MARKUP[d.line];
  const [lo, hi] = template.price;
  const listPrice = template.sizes === 'gift' ? lo : retail((lo + (hi - lo) * random() ** 1.3) * markup * (fabric.priceFactor ?? 1));
  const isGift = template.sizes === 'gift';
  // The modulo terms make sure any seed has a few sales and sell-outs, however the dice fall.
  const onSale = !isGift && (chance(random, 0.16) || i % 23 === 7);
  const soldOut = !isGift && (chance(random, 0.03) || i % 41 === 20);
  const saleFactor = 0.6 + 0.2 * random();
  const sizes = SIZE_RUNS[template.sizes](d.gender);
  const colourOption = hasColourOption(template);
  const sizeAxis = template.sizes === 'gift' ? 'Amount' : 'Size';

  const variants = colours.flatMap((colour, ci) =>
    sizes.map((size, si) => {
      const list = isGift ? listPrice * (SIZE_PRICE[size] ?? 1) : retail(listPrice * (SIZE_PRICE[size] ?? 1));
      const price = onSale ? retail(list * saleFactor) : list;
      const out = soldOut || chance(random, 0.12);
      const options = [...(colourOption ? [{ name: 'Color', value: colour.name }] : []), { name: sizeAxis, value: size }];
      return {
        sku: `${sku}-${colourOption ? `${code(colour.name)}-` : ''}${code(size === 'One Size' ? 'OS' : size)}`,
        label: options.map((o) => o.value).join(' / '),
        options,
        // A gift card is never out of stock and has no count.
        inStock: isGift ? true : !out,
        quantity: isGift ? null : out ? 0 : 1 + Math.floor(random() ** 1.5 * 40),
        price,
        compareAtPrice: onSale && price < list ? list : null,
        variantId: String(40_000_000 + i * 100 + ci * sizes.length + si),
      };
    }),
  );
  const price = Math.min(...variants.map((v) => v.price));
  const materials = [...new Set(fabric.parts.map(([, material]) => material))];
  const photos = photoSpecs(random, sku, d);
  const main = colours[0] as DemoColour;

  const facts: DemoFacts = {
    slot: template.slot,
    family: template.family,
    gender: d.gender,
    ageGroup: age,
    colourFamily: main.family,
    colours: colours.map((c) => c.name.toLowerCase()),
    pattern,
    materials,
    fit: d.fit,
    priceBand: priceBand(price),
    line: d.line,
    onSale: variants.some((v) => v.compareAtPrice !== null && v.inStock),
    soldOut: variants.every((v) => !v.inStock),
  };
  const input: ItemInput = {
    sku,
    name: d.title,
    url: `${DEMO_STORE.url}/products/${slug(d.title)}`,
    description: description(d, sizes),
    brand: d.line,
    productType: template.productType,
    tags: tags(random, d, facts),
    price,
    currency: DEMO_STORE.currency,
    images: photos.map((p) => ({ src: p.src })),
    variants,
    ...(APPAREL_SLOTS.has(template.slot) && age === 'adult' && template.sizes === 'apparel'
      ? { model: { height: d.gender === 'mens' ? '185 cm' : '175 cm', size: d.gender === 'mens' ? 'M' : 'S' } }
      : {}),
  };
  return { input, photos, facts };
}

function description(d: Draft, sizes: string[]): string {
  const { template, colours, pattern, fabric, fit, gender } = d;
  const who = template.age === 'baby' ? 'Baby' : template.age === 'kids' ? "Kids'" : gender === 'womens' ? "Women's" : gender === 'mens' ? "Men's" : 'Unisex';
  const names = colours.map((c) => c.name.toLowerCase());
  const colourLine = !hasColourOption(template)
    ? ''
    : colours.length > 1
      ? ` Available in ${names.slice(0, -1).join(', ')} and ${names.at(-1)}.`
      : ` Shown in ${names[0]}${pattern === 'solid' ? '' : ` with a ${PATTERN_WORDS[pattern].toLowerCase()} pattern`}.`;
  const items = [
    composition(fabric),
    ...(fit ? [`${FIT_WORDS[fit] || 'Regular'} fit${APPAREL_SLOTS.has(template.slot) && !template.age ? '; true to size' : ''}`] : []),
    ...(sizes.length > 1 && template.sizes !== 'gift' && template.sizes !== 'candle' ? [`${who} sizes ${sizes[0]}–${sizes.at(-1)}`] : [`${who}`]),
    CARE[fabric.parts[0]?.[1] ?? 'other'] ?? 'Machine wash cold; line dry.',
  ];
  return `<p>${template.blurb}${colourLine}</p><ul>${items.map((item) => `<li>${item}</li>`).join('')}</ul>`;
}

function tags(random: Random, d: Draft, facts: DemoFacts): string[] {
  const list = [
    facts.gender,
    facts.ageGroup === 'adult' ? '' : facts.ageGroup,
    facts.family,
    ...facts.materials.filter((m) => m !== 'other'),
    facts.pattern === 'solid' ? '' : facts.pattern,
    facts.fit && facts.fit !== 'regular' ? `${facts.fit} fit` : '',
    d.template.season ?? '',
    slug(d.line),
    facts.onSale ? 'sale' : '',
    chance(random, 0.15) ? 'new-arrival' : '',
    chance(random, 0.1) ? 'bestseller' : '',
  ];
  return [...new Set(list.filter(Boolean))];
}

function photoSpecs(random: Random, sku: string, d: Draft): DemoPhotoSpec[] {
  const { template, colours, pattern } = d;
  const secondaries = colours.map((c) => secondaryFor(random, c, pattern, template.kind));
  const shots: Array<{ colour: number; view: PhotoView }> = colours.map((_, colour) => ({ colour, view: 'flat front' }));
  if (template.kind !== 'gift-card') {
    if (APPAREL_SLOTS.has(template.slot) && chance(random, 0.8)) shots.push({ colour: 0, view: 'flat back' });
    if (chance(random, 0.6)) shots.push({ colour: 0, view: 'detail' });
  }
  return shots.slice(0, 4).map(({ colour, view }, index) => ({
    src: demoPhotoUrl(sku, index),
    sku,
    index,
    kind: template.kind,
    colour: (colours[colour] as DemoColour).hex,
    secondary: secondaries[colour] as string,
    pattern,
    view,
  }));
}
