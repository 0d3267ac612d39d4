// The raw material of the demo catalogue: the store's colour card and its product templates.
// Invented for this project (no public catalogue is copied); `generate.ts` combines them.
import type { AgeGroup, ColorFamily, Fit, Gender, Material, Pattern, Slot } from '../catalogue/vocabulary.js';

/** The drawing a photo shows; the renderer has one silhouette per kind. */
export const GARMENT_KINDS = [
  'tshirt', 'polo', 'shirt', 'blouse', 'knit', 'hoodie', 'tank', 'jeans', 'trousers', 'skirt', 'shorts', 'dress', 'jumpsuit', 'romper',
  'coat', 'jacket', 'puffer', 'sneaker', 'boot', 'heel', 'sandal', 'loafer', 'tote', 'crossbody', 'backpack', 'clutch', 'belt', 'scarf',
  'gloves', 'wallet', 'tie', 'watch', 'necklace', 'ring', 'earrings', 'bracelet', 'cap', 'beanie', 'hat', 'sunglasses', 'glasses',
  'socks', 'tights', 'pyjamas', 'robe', 'swimsuit', 'bikini', 'briefs', 'bra', 'boxers', 'candle', 'gift-card', 'blanket',
] as const;
export type GarmentKind = (typeof GARMENT_KINDS)[number];

export interface DemoColour {
  name: string;
  family: ColorFamily;
  hex: string;
  /** Second colour of a multicolour print. */
  accent?: string;
}

// Every colour family of the vocabulary appears at least once, so the demo can answer any colour.
export const COLOURS: DemoColour[] = [
  { name: 'Black', family: 'black', hex: '#1c1c1e' },
  { name: 'Charcoal', family: 'charcoal', hex: '#3b3e44' },
  { name: 'Heather Grey', family: 'grey', hex: '#9b9da1' },
  { name: 'Stone', family: 'grey', hex: '#8d8b85' },
  { name: 'Silver', family: 'silver', hex: '#c3c6cc' },
  { name: 'White', family: 'white', hex: '#fbfbf9' },
  { name: 'Ivory', family: 'ivory', hex: '#f4efdc' },
  { name: 'Ecru', family: 'cream', hex: '#ebdfc4' },
  { name: 'Cream', family: 'cream', hex: '#f1e5c9' },
  { name: 'Oat', family: 'beige', hex: '#d9c9ae' },
  { name: 'Sand', family: 'beige', hex: '#d5c29f' },
  { name: 'Tan', family: 'tan', hex: '#c29a6a' },
  { name: 'Camel', family: 'camel', hex: '#b98a4f' },
  { name: 'Walnut', family: 'brown', hex: '#6f4b30' },
  { name: 'Chocolate', family: 'chocolate', hex: '#46291b' },
  { name: 'Khaki', family: 'khaki', hex: '#a99d6b' },
  { name: 'Olive', family: 'olive', hex: '#6b6b38' },
  { name: 'Sage', family: 'green', hex: '#93a982' },
  { name: 'Forest Green', family: 'green', hex: '#2e5c3a' },
  { name: 'Mint', family: 'mint', hex: '#b4e3cb' },
  { name: 'Teal', family: 'teal', hex: '#1e7a7a' },
  { name: 'Turquoise', family: 'turquoise', hex: '#36c3bf' },
  { name: 'Cobalt', family: 'blue', hex: '#2c55b8' },
  { name: 'Sky Blue', family: 'blue', hex: '#8fbce6' },
  { name: 'Mid Wash', family: 'blue', hex: '#4b6b93' },
  { name: 'Light Wash', family: 'blue', hex: '#8ba8c5' },
  { name: 'Navy', family: 'navy', hex: '#1f2a46' },
  { name: 'Plum', family: 'purple', hex: '#5f2f58' },
  { name: 'Lavender', family: 'lavender', hex: '#c3b4e1' },
  { name: 'Blush', family: 'pink', hex: '#f2c3c8' },
  { name: 'Bubblegum', family: 'pink', hex: '#f39ac0' },
  { name: 'Dusty Rose', family: 'rose', hex: '#c98b94' },
  { name: 'Coral', family: 'coral', hex: '#f27c69' },
  { name: 'Peach', family: 'peach', hex: '#f6bf9f' },
  { name: 'Red', family: 'red', hex: '#c8202f' },
  { name: 'Cherry', family: 'red', hex: '#b0182a' },
  { name: 'Burgundy', family: 'burgundy', hex: '#6d1a2d' },
  { name: 'Rust', family: 'rust', hex: '#a9502a' },
  { name: 'Tangerine', family: 'orange', hex: '#f07f2a' },
  { name: 'Mustard', family: 'mustard', hex: '#d2a526' },
  { name: 'Lemon', family: 'yellow', hex: '#f3db4a' },
  { name: 'Gold', family: 'gold', hex: '#c9a544' },
  { name: 'Rainbow', family: 'multicolour', hex: '#e4573c', accent: '#2f9bd8' },
  { name: 'Sunset Multi', family: 'multicolour', hex: '#f08a3c', accent: '#8e3f9e' },
  { name: 'Iridescent', family: 'other', hex: '#b7c4d9' },
];

const names = (...list: string[]): string[] => list;

/** Which colours suit which goods: leather is not sold in lemon, nor a gold ring in navy. */
export const PALETTES = {
  apparel: names('Black', 'Charcoal', 'Heather Grey', 'White', 'Ivory', 'Ecru', 'Oat', 'Camel', 'Khaki', 'Olive', 'Sage', 'Forest Green', 'Mint', 'Teal',
    'Cobalt', 'Sky Blue', 'Navy', 'Plum', 'Lavender', 'Blush', 'Dusty Rose', 'Coral', 'Peach', 'Red', 'Burgundy', 'Rust', 'Tangerine', 'Mustard', 'Lemon',
    'Turquoise', 'Rainbow', 'Sunset Multi'),
  tailoring: names('Black', 'Charcoal', 'Stone', 'Navy', 'Camel', 'Oat', 'Chocolate', 'Olive', 'Burgundy', 'Ivory', 'Khaki', 'Tan', 'Forest Green'),
  denim: names('Mid Wash', 'Light Wash', 'Navy', 'Black', 'White', 'Ecru', 'Charcoal'),
  leather: names('Black', 'Walnut', 'Chocolate', 'Tan', 'Camel', 'Burgundy', 'Navy', 'Oat', 'Silver', 'Gold', 'Red', 'Olive'),
  sneaker: names('White', 'Black', 'Ivory', 'Heather Grey', 'Navy', 'Sage', 'Cobalt', 'Red', 'Tan', 'Silver', 'Iridescent'),
  metal: names('Gold', 'Silver', 'Iridescent'),
  eyewear: names('Black', 'Walnut', 'Tan', 'Gold', 'Silver', 'Iridescent', 'Navy', 'Burgundy', 'Ivory'),
  kids: names('Red', 'Lemon', 'Cobalt', 'Mint', 'Bubblegum', 'Tangerine', 'Turquoise', 'Lavender', 'Navy', 'Rainbow', 'Heather Grey', 'Cream'),
  swim: names('Black', 'Navy', 'Red', 'Coral', 'Turquoise', 'Teal', 'Lemon', 'Cobalt', 'Rust', 'Sunset Multi', 'Rainbow', 'White', 'Iridescent'),
  lingerie: names('Black', 'White', 'Ivory', 'Blush', 'Peach', 'Burgundy', 'Navy', 'Heather Grey', 'Lavender', 'Dusty Rose'),
  home: names('Ivory', 'Cream', 'Oat', 'Sage', 'Dusty Rose', 'Charcoal', 'Mustard', 'Rust', 'Burgundy', 'Forest Green'),
  giftcard: names('Iridescent', 'Gold', 'Black', 'Sunset Multi'),
} as const;
export type PaletteName = keyof typeof PALETTES;

/** A composition: the word it lends a title ('' for none) and its parts, main fabric first. */
export interface Fabric {
  word: string;
  parts: Array<[label: string, material: Material, percent: number]>;
  /** How much dearer than the template's usual price: cashmere costs more than acrylic. */
  priceFactor?: number;
}
const fabric = (word: string, ...parts: Fabric['parts']): Fabric => ({ word, parts });
const priced = (factor: number, f: Fabric): Fabric => ({ ...f, priceFactor: factor });

const cotton = fabric('Cotton', ['cotton', 'cotton', 100]);
const organic = fabric('Organic Cotton', ['organic cotton', 'cotton', 100]);
const stretchCotton = fabric('', ['cotton', 'cotton', 95], ['elastane', 'elastane', 5]);
const linen = fabric('Linen', ['European linen', 'linen', 100]);
const linenBlend = fabric('Linen-Blend', ['linen', 'linen', 55], ['cotton', 'cotton', 45]);
const wool = fabric('Wool', ['wool', 'wool', 100]);
const merino = fabric('Merino', ['extra-fine merino wool', 'wool', 100]);
const cashmere = priced(1.7, fabric('Cashmere', ['cashmere', 'cashmere', 100]));
const woolCashmere = priced(1.4, fabric('Wool-Cashmere', ['wool', 'wool', 70], ['cashmere', 'cashmere', 30]));
const alpaca = priced(1.3, fabric('Alpaca', ['baby alpaca', 'alpaca', 60], ['wool', 'wool', 40]));
const mohair = priced(1.3, fabric('Mohair', ['mohair', 'mohair', 70], ['nylon', 'nylon', 30]));
const silk = priced(1.5, fabric('Silk', ['mulberry silk', 'silk', 100]));
const satin = fabric('Satin', ['viscose', 'viscose', 100]);
const viscose = fabric('', ['viscose', 'viscose', 100]);
const jersey = fabric('Jersey', ['cotton', 'cotton', 60], ['modal', 'modal', 40]);
const fleece = fabric('Fleece', ['cotton', 'cotton', 80], ['recycled polyester', 'polyester', 20]);
const denim = fabric('', ['cotton', 'cotton', 98], ['elastane', 'elastane', 2]);
const rigidDenim = fabric('Rigid', ['cotton', 'cotton', 100]);
const leather = priced(1.5, fabric('Leather', ['full-grain leather', 'leather', 100]));
const suede = priced(1.4, fabric('Suede', ['suede', 'suede', 100]));
const fauxLeather = priced(0.8, fabric('Vegan Leather', ['faux leather', 'faux leather', 100]));
const shearling = priced(2.4, fabric('Shearling', ['shearling', 'shearling', 100]));
const down = fabric('Down', ['recycled nylon shell', 'nylon', 100], ['responsibly sourced down fill', 'down', 100]);
const technical = fabric('', ['recycled polyester', 'polyester', 88], ['elastane', 'elastane', 12]);
const nylonStretch = fabric('', ['recycled nylon', 'nylon', 80], ['elastane', 'elastane', 20]);
const canvas = priced(0.7, fabric('Canvas', ['heavy cotton canvas', 'cotton', 100]));
const straw = priced(0.8, fabric('Straw', ['paper straw', 'straw', 100]));
const brass = priced(0.6, fabric('', ['gold-plated brass', 'metal', 100]));
const sterling = priced(1.4, fabric('Sterling Silver', ['sterling silver', 'metal', 100]));
const solidGold = priced(3, fabric('14k Gold', ['14k solid gold', 'metal', 100]));
const acetate = fabric('Acetate', ['bio-acetate', 'acetate', 100]);
const metalFrame = fabric('Metal', ['titanium', 'metal', 100]);
const lace = fabric('Lace', ['recycled nylon lace', 'nylon', 85], ['elastane', 'elastane', 15]);
const modal = fabric('Modal', ['modal', 'modal', 92], ['elastane', 'elastane', 8]);
const lyocell = fabric('Tencel', ['Tencel lyocell', 'lyocell', 100]);
const hemp = fabric('Hemp', ['hemp', 'hemp', 55], ['organic cotton', 'cotton', 45]);
const acrylic = priced(0.6, fabric('', ['acrylic', 'acrylic', 70], ['wool', 'wool', 30]));
const soyWax = fabric('', ['soy wax', 'other', 100], ['glass vessel', 'glass', 100]);
const ceramicWax = fabric('', ['coconut-soy wax', 'other', 100], ['ceramic vessel', 'ceramic', 100]);
const paperCard = fabric('', ['recycled paper', 'paper', 100]);
const rubberSole = fabric('', ['leather upper', 'leather', 100], ['rubber sole', 'rubber', 100]);
const canvasShoe = fabric('Canvas', ['cotton canvas upper', 'cotton', 100], ['rubber sole', 'rubber', 100]);
const knitShoe = fabric('Knit', ['recycled polyester knit upper', 'polyester', 100], ['rubber sole', 'rubber', 100]);

export type SizeRun = 'apparel' | 'waist' | 'shoes' | 'kids' | 'baby' | 'kidsShoes' | 'one' | 'ring' | 'bra' | 'hat' | 'socks' | 'candle' | 'gift';

export type ProductLine = 'Northwind Essentials' | 'Northwind Atelier' | 'Atelier Noir' | 'Northwind Kids' | 'Northwind Home';

export interface ProductTemplate {
  slot: Slot;
  family: string;
  kind: GarmentKind;
  productType: string;
  /** Material-free nouns; a tuple fixes the fit and keeps the fit word out of the title. */
  nouns: Array<string | [string, Fit]>;
  genders: Gender[];
  age?: AgeGroup;
  fabrics: Fabric[];
  patterns?: Pattern[];
  /** Base price range in CAD, before the product line's markup. */
  price: [number, number];
  sizes: SizeRun;
  /** Absent for goods that have no fit (shoes, bags, jewellery…). */
  fits?: Fit[];
  palette: PaletteName;
  /** How often it is drawn after every template has had its turn. */
  weight?: number;
  /** Sold in two or three colours as variants of one product. */
  colourways?: boolean;
  /** Fixed line; otherwise Essentials, Atelier or Noir by chance. */
  line?: ProductLine;
  blurb: string;
  season?: string;
}

const adults: Gender[] = ['womens', 'mens'];
const everyone: Gender[] = ['womens', 'mens', 'unisex'];
const women: Gender[] = ['womens'];
const men: Gender[] = ['mens'];
const unisex: Gender[] = ['unisex'];
const easyFits: Fit[] = ['slim', 'regular', 'relaxed', 'oversized'];
const prints: Pattern[] = ['solid', 'solid', 'floral', 'ditsy floral', 'polka dot', 'paisley', 'animal print', 'geometric', 'abstract', 'gingham'];

export const TEMPLATES: ProductTemplate[] = [
  // Tops
  { slot: 'top', family: 't-shirts', kind: 'tshirt', productType: 'T-Shirts', nouns: ['Crew Tee', 'Pocket Tee', 'Boxy Tee', 'V-Neck Tee', 'Long-Sleeve Tee'], genders: everyone, fabrics: [organic, cotton, jersey, hemp, stretchCotton], patterns: ['solid', 'solid', 'striped', 'graphic', 'tie dye'], price: [18, 45], sizes: 'apparel', fits: easyFits, palette: 'apparel', weight: 4, colourways: true, blurb: 'An everyday tee cut from a soft, mid-weight knit that holds its shape wash after wash.' },
  { slot: 'top', family: 'polos', kind: 'polo', productType: 'Polos', nouns: ['Piqué Polo', 'Knitted Polo', 'Tipped Polo'], genders: men, fabrics: [cotton, merino], patterns: ['solid', 'striped'], price: [39, 95], sizes: 'apparel', fits: ['slim', 'regular'], palette: 'apparel', colourways: true, blurb: 'A polo with a soft, structured collar and a two-button placket.' },
  { slot: 'top', family: 'shirts', kind: 'shirt', productType: 'Shirts', nouns: ['Shirt', 'Camp-Collar Shirt', 'Button-Down Shirt', 'Overshirt', 'Utility Shirt'], genders: adults, fabrics: [linen, linenBlend, cotton, fabric('Oxford', ['cotton oxford', 'cotton', 100]), fabric('Flannel', ['brushed cotton flannel', 'cotton', 100])], patterns: ['solid', 'solid', 'striped', 'checked', 'gingham', 'plaid'], price: [45, 140], sizes: 'apparel', fits: easyFits, palette: 'apparel', weight: 3, blurb: 'A shirt with a softly rolled collar, a curved hem and horn-effect buttons.' },
  { slot: 'top', family: 'blouses', kind: 'blouse', productType: 'Blouses', nouns: ['Blouse', 'Tie-Neck Blouse', 'Puff-Sleeve Blouse', 'Wrap Top'], genders: women, fabrics: [silk, satin, viscose, lyocell], patterns: prints, price: [55, 260], sizes: 'apparel', fits: ['regular', 'relaxed'], palette: 'apparel', weight: 2, blurb: 'A fluid blouse that drapes lightly and tucks neatly into tailoring.' },
  { slot: 'top', family: 'sweaters', kind: 'knit', productType: 'Knitwear', nouns: ['Crewneck Sweater', 'V-Neck Sweater', 'Cable-Knit Jumper', 'Roll-Neck Sweater', 'Cardigan'], genders: everyone, fabrics: [merino, cashmere, woolCashmere, alpaca, mohair, acrylic], patterns: ['solid', 'solid', 'striped', 'colour block', 'herringbone'], price: [65, 280], sizes: 'apparel', fits: ['slim', 'regular', 'relaxed', 'oversized'], palette: 'apparel', weight: 3, colourways: true, blurb: 'A warm knit with ribbed cuffs and hem, finished by hand-linked seams.', season: 'winter' },
  { slot: 'top', family: 'sweatshirts', kind: 'hoodie', productType: 'Sweatshirts & Hoodies', nouns: ['Hoodie', 'Zip Hoodie', 'Pullover Hoodie'], genders: everyone, fabrics: [fleece, organic], patterns: ['solid', 'solid', 'graphic', 'colour block', 'tie dye', 'camouflage'], price: [45, 110], sizes: 'apparel', fits: ['regular', 'relaxed', 'oversized'], palette: 'apparel', weight: 2, colourways: true, blurb: 'A brushed-back hoodie with a lined hood and a roomy kangaroo pocket.' },
  { slot: 'top', family: 'tanks', kind: 'tank', productType: 'Tanks & Camis', nouns: ['Ribbed Tank', 'Cami', 'Racer Tank', 'Muscle Tank'], genders: adults, fabrics: [cotton, modal, silk, jersey], patterns: ['solid', 'solid', 'striped', 'ditsy floral'], price: [15, 90], sizes: 'apparel', fits: ['slim', 'regular', 'relaxed'], palette: 'apparel', colourways: true, blurb: 'A close-fitting layer with narrow straps and a clean, bound neckline.', season: 'summer' },
  { slot: 'top', family: 't-shirts', kind: 'tshirt', productType: 'Kids Tops', nouns: ["Kids' Tee", "Kids' Long-Sleeve Tee", "Kids' Rash Guard"], genders: unisex, age: 'kids', fabrics: [organic], patterns: ['striped', 'graphic', 'solid'], price: [14, 28], sizes: 'kids', fits: ['regular'], palette: 'kids', line: 'Northwind Kids', blurb: 'A tough little tee made for climbing, painting and everything in between.' },
  // Bottoms
  { slot: 'bottom', family: 'jeans', kind: 'jeans', productType: 'Jeans', nouns: [['High-Rise Wide-Leg Jeans', 'relaxed'], ['Straight-Leg Jeans', 'regular'], ['Slim Tapered Jeans', 'slim'], ['Skinny Jeans', 'skinny'], ['Barrel-Leg Jeans', 'oversized'], ['Bootcut Jeans', 'regular']], genders: adults, fabrics: [denim, rigidDenim], patterns: ['solid'], price: [69, 180], sizes: 'waist', palette: 'denim', weight: 3, blurb: 'Five-pocket jeans in a denim that softens and fades with wear.' },
  { slot: 'bottom', family: 'trousers', kind: 'trousers', productType: 'Trousers', nouns: ['Pleated Trousers', 'Chinos', 'Drawstring Trousers', 'Tailored Trousers', 'Cargo Trousers', 'Wide-Leg Trousers'], genders: adults, fabrics: [wool, linen, cotton, lyocell, hemp], patterns: ['solid', 'solid', 'herringbone', 'checked', 'striped'], price: [55, 240], sizes: 'apparel', fits: ['slim', 'regular', 'relaxed'], palette: 'tailoring', weight: 3, blurb: 'Trousers with a flat front, slanted pockets and a clean pressed crease.' },
  { slot: 'bottom', family: 'skirts', kind: 'skirt', productType: 'Skirts', nouns: ['Midi Skirt', 'Pleated Mini Skirt', 'A-Line Skirt', 'Slip Skirt', 'Wrap Skirt'], genders: women, fabrics: [satin, wool, cotton, linen, fauxLeather], patterns: ['solid', 'solid', 'floral', 'plaid', 'polka dot', 'animal print', 'chevron'], price: [39, 190], sizes: 'apparel', fits: ['slim', 'regular', 'relaxed'], palette: 'apparel', weight: 2, blurb: 'A skirt that sits at the natural waist and moves beautifully when you walk.' },
  { slot: 'bottom', family: 'shorts', kind: 'shorts', productType: 'Shorts', nouns: ['Chino Shorts', 'Running Shorts', 'Pull-On Shorts', 'Bermuda Shorts'], genders: everyone, fabrics: [cotton, linen, technical], patterns: ['solid', 'solid', 'striped', 'camouflage', 'gingham'], price: [25, 85], sizes: 'apparel', fits: ['slim', 'regular', 'relaxed'], palette: 'apparel', blurb: 'Easy shorts with a comfortable waistband and a just-above-the-knee length.', season: 'summer' },
  { slot: 'bottom', family: 'leggings', kind: 'tights', productType: 'Leggings', nouns: [['High-Waist Leggings', 'skinny'], ['Flared Leggings', 'slim']], genders: women, fabrics: [nylonStretch, technical], patterns: ['solid', 'solid', 'abstract', 'animal print'], price: [35, 98], sizes: 'apparel', palette: 'apparel', colourways: true, blurb: 'Sculpting leggings with a high, no-dig waistband and a hidden key pocket.' },
  { slot: 'bottom', family: 'trousers', kind: 'trousers', productType: 'Kids Bottoms', nouns: [["Kids' Joggers", 'relaxed'], ["Kids' Cord Trousers", 'regular']], genders: unisex, age: 'kids', fabrics: [organic, fleece], patterns: ['solid', 'solid', 'striped'], price: [18, 36], sizes: 'kids', palette: 'kids', line: 'Northwind Kids', blurb: 'Knee-friendly trousers with an elasticated waist and room to grow.' },
  // Full body
  { slot: 'full body', family: 'dresses', kind: 'dress', productType: 'Dresses', nouns: ['Wrap Midi Dress', 'Slip Dress', 'Shirt Dress', 'Tiered Maxi Dress', 'Knit Dress', 'Mini Dress', 'Sundress'], genders: women, fabrics: [silk, satin, viscose, linen, cotton, merino], patterns: prints, price: [59, 340], sizes: 'apparel', fits: ['slim', 'regular', 'relaxed'], palette: 'apparel', weight: 4, blurb: 'A dress that skims the body and swings from the hip, easy to dress up or down.' },
  { slot: 'full body', family: 'jumpsuits', kind: 'jumpsuit', productType: 'Jumpsuits', nouns: ['Utility Jumpsuit', 'Boiler Suit', 'Wide-Leg Jumpsuit'], genders: women, fabrics: [linen, cotton, lyocell], patterns: ['solid', 'solid', 'striped'], price: [79, 220], sizes: 'apparel', fits: ['regular', 'relaxed'], palette: 'apparel', blurb: 'A one-and-done jumpsuit with a tie waist and deep patch pockets.' },
  { slot: 'full body', family: 'rompers', kind: 'romper', productType: 'Baby', nouns: ['Baby Romper', 'Baby Sleepsuit', 'Baby Dungarees'], genders: unisex, age: 'baby', fabrics: [organic], patterns: ['solid', 'striped', 'polka dot', 'ditsy floral'], price: [16, 34], sizes: 'baby', palette: 'kids', line: 'Northwind Kids', blurb: 'A snap-front romper in the softest organic cotton, kind to new skin.' },
  { slot: 'full body', family: 'dresses', kind: 'dress', productType: 'Kids Dresses', nouns: ["Kids' Twirl Dress", "Kids' Pinafore Dress"], genders: women, age: 'kids', fabrics: [cotton, organic], patterns: ['floral', 'gingham', 'polka dot', 'solid'], price: [24, 42], sizes: 'kids', palette: 'kids', line: 'Northwind Kids', blurb: 'A full-skirted dress built for twirling, with pockets for treasures.' },
  // Outerwear
  { slot: 'outerwear', family: 'coats', kind: 'coat', productType: 'Coats', nouns: ['Double-Breasted Coat', 'Overcoat', 'Trench Coat', 'Car Coat', 'Wrap Coat'], genders: adults, fabrics: [wool, woolCashmere, cashmere, fabric('Gabardine', ['cotton gabardine', 'cotton', 100])], patterns: ['solid', 'solid', 'herringbone', 'checked', 'plaid'], price: [180, 520], sizes: 'apparel', fits: ['regular', 'relaxed', 'oversized'], palette: 'tailoring', weight: 3, blurb: 'A tailored coat with a notch lapel, deep pockets and a fully lined body.', season: 'winter' },
  { slot: 'outerwear', family: 'jackets', kind: 'jacket', productType: 'Jackets', nouns: ['Biker Jacket', 'Trucker Jacket', 'Chore Jacket', 'Bomber Jacket', 'Blazer', 'Field Jacket'], genders: everyone, fabrics: [leather, suede, fauxLeather, rigidDenim, canvas, wool, shearling], patterns: ['solid', 'solid', 'solid', 'camouflage', 'herringbone'], price: [89, 460], sizes: 'apparel', fits: ['slim', 'regular', 'relaxed'], palette: 'leather', weight: 3, blurb: 'A jacket with sharp lines and hard-wearing hardware, made to be lived in.' },
  { slot: 'outerwear', family: 'puffers', kind: 'puffer', productType: 'Puffers', nouns: ['Puffer Jacket', 'Quilted Vest', 'Longline Puffer'], genders: everyone, fabrics: [down], patterns: ['solid', 'solid', 'colour block'], price: [129, 420], sizes: 'apparel', fits: ['regular', 'oversized'], palette: 'apparel', weight: 2, blurb: 'A featherlight puffer packed with warmth, with a two-way zip and stowaway hood.', season: 'winter' },
  { slot: 'outerwear', family: 'puffers', kind: 'puffer', productType: 'Kids Outerwear', nouns: [["Kids' Puffer Jacket", 'regular'], ["Kids' Rain Jacket", 'regular']], genders: unisex, age: 'kids', fabrics: [down, technical], patterns: ['solid', 'polka dot', 'colour block'], price: [49, 95], sizes: 'kids', palette: 'kids', line: 'Northwind Kids', blurb: 'Warm, wipe-clean and bright enough to spot across the playground.', season: 'winter' },
  // Footwear
  { slot: 'footwear', family: 'sneakers', kind: 'sneaker', productType: 'Sneakers', nouns: ['Court Sneakers', 'Low-Top Sneakers', 'Running Sneakers', 'High-Top Sneakers'], genders: everyone, fabrics: [rubberSole, canvasShoe, knitShoe], patterns: ['solid', 'solid', 'colour block'], price: [59, 210], sizes: 'shoes', palette: 'sneaker', weight: 3, colourways: true, blurb: 'Sneakers on a cushioned, stitched cupsole with a padded collar.' },
  { slot: 'footwear', family: 'boots', kind: 'boot', productType: 'Boots', nouns: ['Chelsea Boots', 'Lace-Up Boots', 'Knee-High Boots', 'Hiking Boots', 'Ankle Boots'], genders: adults, fabrics: [leather, suede], patterns: ['solid'], price: [129, 420], sizes: 'shoes', palette: 'leather', weight: 2, blurb: 'Boots on a Goodyear-welted lug sole that will take years of resoling.', season: 'winter' },
  { slot: 'footwear', family: 'heels', kind: 'heel', productType: 'Heels', nouns: ['Pointed Pumps', 'Slingback Heels', 'Block-Heel Mules', 'Kitten Heels'], genders: women, fabrics: [leather, suede, satin], patterns: ['solid', 'solid', 'animal print'], price: [89, 380], sizes: 'shoes', palette: 'leather', weight: 2, blurb: 'A heel balanced for all-evening comfort, with a cushioned footbed.' },
  { slot: 'footwear', family: 'sandals', kind: 'sandal', productType: 'Sandals', nouns: ['Slide Sandals', 'Strappy Sandals', 'Fisherman Sandals'], genders: everyone, fabrics: [leather, fauxLeather], patterns: ['solid'], price: [39, 180], sizes: 'shoes', palette: 'leather', blurb: 'Sandals with a moulded footbed and soft straps that need no breaking in.', season: 'summer' },
  { slot: 'footwear', family: 'loafers', kind: 'loafer', productType: 'Loafers', nouns: ['Penny Loafers', 'Horsebit Loafers', 'Boat Shoes'], genders: adults, fabrics: [leather, suede], patterns: ['solid'], price: [110, 360], sizes: 'shoes', palette: 'leather', blurb: 'Hand-stitched loafers with a leather sole and a rubber heel tip.' },
  { slot: 'footwear', family: 'sneakers', kind: 'sneaker', productType: 'Kids Shoes', nouns: ["Kids' Touch-Strap Sneakers", "Kids' Light-Up Sneakers"], genders: unisex, age: 'kids', fabrics: [canvasShoe], patterns: ['solid', 'colour block'], price: [29, 55], sizes: 'kidsShoes', palette: 'kids', line: 'Northwind Kids', blurb: 'Easy on, easy off: touch straps and a grippy sole for small feet.' },
  // Bags
  { slot: 'bag', family: 'totes', kind: 'tote', productType: 'Bags', nouns: ['Tote Bag', 'Shopper', 'Market Tote'], genders: ['womens', 'unisex'], fabrics: [canvas, leather, straw], patterns: ['solid', 'solid', 'striped', 'checked'], price: [29, 380], sizes: 'one', palette: 'leather', weight: 2, blurb: 'A roomy tote with an inner zip pocket and handles long enough for the shoulder.' },
  { slot: 'bag', family: 'crossbody bags', kind: 'crossbody', productType: 'Bags', nouns: ['Crossbody Bag', 'Saddle Bag', 'Camera Bag'], genders: ['womens', 'unisex'], fabrics: [leather, suede, fauxLeather], patterns: ['solid', 'solid', 'animal print'], price: [59, 420], sizes: 'one', palette: 'leather', weight: 2, blurb: 'A compact crossbody with an adjustable strap and a magnetic flap.' },
  { slot: 'bag', family: 'backpacks', kind: 'backpack', productType: 'Bags', nouns: ['Roll-Top Backpack', 'Daypack', 'Laptop Backpack'], genders: unisex, fabrics: [canvas, fabric('', ['recycled nylon', 'nylon', 100])], patterns: ['solid', 'solid', 'camouflage'], price: [69, 220], sizes: 'one', palette: 'tailoring', blurb: 'A weatherproof backpack with a padded 15-inch laptop sleeve.' },
  { slot: 'bag', family: 'clutches', kind: 'clutch', productType: 'Bags', nouns: ['Clutch', 'Pouch Clutch', 'Evening Bag'], genders: women, fabrics: [satin, leather, straw], patterns: ['solid', 'solid', 'animal print', 'geometric'], price: [45, 290], sizes: 'one', palette: 'leather', blurb: 'A slim clutch with a detachable chain for hands-free evenings.' },
  // Accessories
  { slot: 'accessory', family: 'belts', kind: 'belt', productType: 'Belts', nouns: ['Belt', 'Reversible Belt', 'Skinny Belt'], genders: adults, fabrics: [leather, suede], patterns: ['solid'], price: [29, 140], sizes: 'hat', palette: 'leather', blurb: 'A belt cut from a single strip of leather with a solid brass buckle.' },
  { slot: 'accessory', family: 'scarves', kind: 'scarf', productType: 'Scarves', nouns: ['Scarf', 'Square Scarf', 'Blanket Scarf'], genders: everyone, fabrics: [cashmere, silk, wool, woolCashmere], patterns: ['solid', 'plaid', 'paisley', 'geometric', 'striped', 'herringbone'], price: [25, 260], sizes: 'one', palette: 'apparel', weight: 2, blurb: 'A generous scarf with hand-rolled edges and a soft drape.', season: 'winter' },
  { slot: 'accessory', family: 'gloves', kind: 'gloves', productType: 'Gloves', nouns: ['Gloves', 'Touchscreen Gloves', 'Driving Gloves'], genders: adults, fabrics: [leather, suede, merino], patterns: ['solid'], price: [35, 120], sizes: 'hat', palette: 'leather', blurb: 'Gloves with a cashmere-lined hand and a snug knitted cuff.', season: 'winter' },
  { slot: 'accessory', family: 'wallets', kind: 'wallet', productType: 'Small Leather Goods', nouns: ['Card Holder', 'Bifold Wallet', 'Zip Wallet'], genders: everyone, fabrics: [leather, fauxLeather], patterns: ['solid'], price: [25, 180], sizes: 'one', palette: 'leather', blurb: 'A slim wallet with six card slots and a note compartment.' },
  { slot: 'accessory', family: 'ties', kind: 'tie', productType: 'Ties', nouns: ['Tie', 'Knitted Tie', 'Skinny Tie'], genders: men, fabrics: [silk, wool], patterns: ['solid', 'striped', 'polka dot', 'paisley', 'geometric'], price: [45, 120], sizes: 'one', palette: 'tailoring', blurb: 'A hand-finished tie with a full lining that knots neatly every time.' },
  { slot: 'accessory', family: 'watches', kind: 'watch', productType: 'Watches', nouns: ['Field Watch', 'Minimal Watch', 'Chronograph Watch'], genders: everyone, fabrics: [fabric('', ['stainless steel case', 'metal', 100], ['leather strap', 'leather', 100])], patterns: ['solid'], price: [120, 480], sizes: 'one', palette: 'leather', blurb: 'A water-resistant watch with a sapphire crystal and a quick-release strap.' },
  // Jewellery
  { slot: 'jewellery', family: 'necklaces', kind: 'necklace', productType: 'Jewellery', nouns: ['Pendant Necklace', 'Chain Necklace', 'Pearl Necklace', 'Locket Necklace'], genders: ['womens', 'unisex'], fabrics: [brass, sterling, solidGold], patterns: ['solid'], price: [35, 420], sizes: 'one', palette: 'metal', weight: 2, blurb: 'A fine necklace with an adjustable chain and a lobster clasp.' },
  { slot: 'jewellery', family: 'rings', kind: 'ring', productType: 'Jewellery', nouns: ['Signet Ring', 'Stacking Ring', 'Dome Ring', 'Band Ring'], genders: everyone, fabrics: [brass, sterling, solidGold], patterns: ['solid'], price: [29, 380], sizes: 'ring', palette: 'metal', blurb: 'A ring polished to a soft shine, comfortable enough never to take off.' },
  { slot: 'jewellery', family: 'earrings', kind: 'earrings', productType: 'Jewellery', nouns: ['Hoop Earrings', 'Drop Earrings', 'Stud Earrings'], genders: women, fabrics: [brass, sterling, solidGold], patterns: ['solid'], price: [25, 340], sizes: 'one', palette: 'metal', blurb: 'Lightweight earrings on hypoallergenic posts, made for all-day wear.' },
  { slot: 'jewellery', family: 'bracelets', kind: 'bracelet', productType: 'Jewellery', nouns: ['Cuff Bracelet', 'Chain Bracelet', 'Bangle'], genders: everyone, fabrics: [brass, sterling, solidGold], patterns: ['solid'], price: [29, 360], sizes: 'one', palette: 'metal', blurb: 'A bracelet with a gentle give that slips on and stays put.' },
  // Headwear
  { slot: 'headwear', family: 'caps', kind: 'cap', productType: 'Hats', nouns: ['Baseball Cap', 'Dad Cap', '5-Panel Cap'], genders: unisex, fabrics: [canvas, cotton, wool], patterns: ['solid', 'solid', 'camouflage'], price: [24, 55], sizes: 'one', palette: 'apparel', colourways: true, blurb: 'A cap with a curved brim and an adjustable strap at the back.' },
  { slot: 'headwear', family: 'beanies', kind: 'beanie', productType: 'Hats', nouns: ['Ribbed Beanie', 'Fisherman Beanie', 'Slouch Beanie'], genders: unisex, fabrics: [merino, cashmere, acrylic], patterns: ['solid', 'solid', 'striped'], price: [19, 120], sizes: 'one', palette: 'apparel', colourways: true, blurb: 'A beanie with a deep turn-up cuff that keeps ears warm.', season: 'winter' },
  { slot: 'headwear', family: 'hats', kind: 'hat', productType: 'Hats', nouns: ['Fedora', 'Sun Hat', 'Bucket Hat', 'Wide-Brim Hat'], genders: everyone, fabrics: [straw, wool, canvas], patterns: ['solid', 'solid', 'checked'], price: [29, 180], sizes: 'hat', palette: 'tailoring', blurb: 'A hat shaped by hand with a grosgrain band and a packable crown.', season: 'summer' },
  { slot: 'headwear', family: 'caps', kind: 'cap', productType: 'Kids Accessories', nouns: ["Kids' Sun Cap"], genders: unisex, age: 'kids', fabrics: [organic], patterns: ['solid', 'polka dot'], price: [12, 22], sizes: 'one', palette: 'kids', line: 'Northwind Kids', blurb: 'A sun cap with a neck flap and UPF 50+ fabric.', season: 'summer' },
  // Eyewear
  { slot: 'eyewear', family: 'sunglasses', kind: 'sunglasses', productType: 'Sunglasses', nouns: ['Round Sunglasses', 'Aviator Sunglasses', 'Cat-Eye Sunglasses', 'Square Sunglasses'], genders: everyone, fabrics: [acetate, metalFrame], patterns: ['solid'], price: [35, 320], sizes: 'one', palette: 'eyewear', weight: 2, blurb: 'Sunglasses with polarised UV400 lenses and five-barrel hinges.', season: 'summer' },
  { slot: 'eyewear', family: 'optical frames', kind: 'glasses', productType: 'Eyewear', nouns: ['Reading Glasses', 'Blue-Light Glasses'], genders: unisex, fabrics: [acetate, metalFrame], patterns: ['solid'], price: [29, 140], sizes: 'one', palette: 'eyewear', blurb: 'Everyday frames with anti-glare lenses and a slim case.' },
  // Hosiery
  { slot: 'hosiery', family: 'socks', kind: 'socks', productType: 'Socks', nouns: ['Crew Socks', 'Ankle Socks', 'Hiking Socks', 'Sport Socks (3-Pack)'], genders: everyone, fabrics: [merino, fabric('', ['combed cotton', 'cotton', 80], ['nylon', 'nylon', 18], ['elastane', 'elastane', 2])], patterns: ['solid', 'striped', 'polka dot', 'geometric'], price: [9, 32], sizes: 'socks', palette: 'apparel', weight: 2, colourways: true, blurb: 'Socks with a cushioned sole and a seamless toe.' },
  { slot: 'hosiery', family: 'tights', kind: 'tights', productType: 'Tights', nouns: ['Sheer Tights 20 Denier', 'Opaque Tights 60 Denier', 'Fishnet Tights'], genders: women, fabrics: [fabric('', ['nylon', 'nylon', 88], ['elastane', 'elastane', 12])], patterns: ['solid'], price: [12, 35], sizes: 'apparel', palette: 'lingerie', blurb: 'Ladder-resistant tights with a comfort waistband and a reinforced toe.' },
  // Sleepwear
  { slot: 'sleepwear', family: 'pyjamas', kind: 'pyjamas', productType: 'Sleepwear', nouns: ['Pyjama Set', 'Short Pyjama Set', 'Lounge Set'], genders: everyone, fabrics: [silk, cotton, modal, fabric('Flannel', ['brushed cotton flannel', 'cotton', 100])], patterns: ['solid', 'striped', 'gingham', 'plaid', 'polka dot'], price: [49, 280], sizes: 'apparel', fits: ['regular', 'relaxed'], palette: 'apparel', weight: 2, blurb: 'A pyjama set with piped edges and a soft elasticated waist.' },
  { slot: 'sleepwear', family: 'robes', kind: 'robe', productType: 'Sleepwear', nouns: ['Robe', 'Waffle Robe', 'Kimono Robe'], genders: everyone, fabrics: [cotton, silk, linen], patterns: ['solid', 'solid', 'floral'], price: [59, 240], sizes: 'apparel', fits: ['relaxed'], palette: 'home', blurb: 'A robe with a shawl collar, deep pockets and a tie belt.' },
  { slot: 'sleepwear', family: 'pyjamas', kind: 'pyjamas', productType: 'Kids Sleepwear', nouns: [["Kids' Pyjama Set", 'regular']], genders: unisex, age: 'kids', fabrics: [organic], patterns: ['striped', 'polka dot', 'geometric'], price: [22, 38], sizes: 'kids', palette: 'kids', line: 'Northwind Kids', blurb: 'Snug-fitting pyjamas for sweet dreams and slow mornings.' },
  // Swimwear
  { slot: 'swimwear', family: 'swimsuits', kind: 'swimsuit', productType: 'Swimwear', nouns: ['Scoop-Back Swimsuit', 'One-Piece Swimsuit', 'Belted Swimsuit'], genders: women, fabrics: [nylonStretch], patterns: ['solid', 'solid', 'floral', 'animal print', 'abstract', 'striped'], price: [49, 180], sizes: 'apparel', fits: ['slim', 'regular'], palette: 'swim', weight: 2, blurb: 'A fully lined swimsuit in chlorine-resistant fabric with a supportive shelf bra.', season: 'summer' },
  { slot: 'swimwear', family: 'bikinis', kind: 'bikini', productType: 'Swimwear', nouns: ['Triangle Bikini', 'Bandeau Bikini', 'High-Leg Bikini'], genders: women, fabrics: [nylonStretch], patterns: ['solid', 'floral', 'tie dye', 'polka dot'], price: [39, 140], sizes: 'apparel', palette: 'swim', blurb: 'A bikini with adjustable ties and a sculpting double-layer front.', season: 'summer' },
  { slot: 'swimwear', family: 'swim shorts', kind: 'shorts', productType: 'Swimwear', nouns: ['Swim Shorts', 'Board Shorts'], genders: men, fabrics: [fabric('', ['recycled polyester', 'polyester', 100])], patterns: ['solid', 'striped', 'geometric', 'floral'], price: [35, 120], sizes: 'apparel', fits: ['slim', 'regular'], palette: 'swim', blurb: 'Quick-dry swim shorts with a mesh lining and a zip back pocket.', season: 'summer' },
  { slot: 'swimwear', family: 'swimsuits', kind: 'swimsuit', productType: 'Kids Swimwear', nouns: [["Kids' Swimsuit", 'regular']], genders: unisex, age: 'kids', fabrics: [nylonStretch], patterns: ['solid', 'polka dot', 'striped'], price: [18, 34], sizes: 'kids', palette: 'kids', line: 'Northwind Kids', blurb: 'A UPF 50+ swimsuit that dries fast between splashes.', season: 'summer' },
  // Underwear
  { slot: 'underwear', family: 'briefs', kind: 'briefs', productType: 'Underwear', nouns: ['Briefs (3-Pack)', 'Boxer Briefs', 'High-Waist Briefs', 'Bikini Briefs'], genders: adults, fabrics: [organic, modal], patterns: ['solid', 'solid', 'striped'], price: [15, 48], sizes: 'apparel', palette: 'lingerie', weight: 2, colourways: true, blurb: 'Underwear with a soft, no-roll waistband and a breathable gusset.' },
  { slot: 'underwear', family: 'bras', kind: 'bra', productType: 'Lingerie', nouns: ['Bralette', 'Wireless T-Shirt Bra', 'Balconette Bra'], genders: women, fabrics: [lace, modal], patterns: ['solid'], price: [29, 95], sizes: 'bra', palette: 'lingerie', weight: 2, blurb: 'A bra with adjustable straps and smooth, lightly lined cups.' },
  { slot: 'underwear', family: 'boxers', kind: 'boxers', productType: 'Underwear', nouns: ['Woven Boxers', 'Boxer Shorts'], genders: men, fabrics: [cotton, silk], patterns: ['solid', 'striped', 'gingham', 'polka dot'], price: [19, 70], sizes: 'apparel', palette: 'apparel', blurb: 'Classic boxers with a covered waistband and a button fly.' },
  // Non fashion
  { slot: 'non fashion', family: 'candles', kind: 'candle', productType: 'Home Fragrance', nouns: ['Scented Candle – Fig & Cedar', 'Scented Candle – Sea Salt & Sage', 'Scented Candle – Amber & Smoke', 'Scented Candle – Neroli', 'Scented Candle – Tomato Leaf', 'Scented Candle – Cashmere Musk'], genders: unisex, fabrics: [soyWax, ceramicWax], patterns: ['solid'], price: [24, 68], sizes: 'candle', palette: 'home', line: 'Northwind Home', blurb: 'A hand-poured candle with a cotton wick and around 50 hours of burn time.' },
  { slot: 'non fashion', family: 'gift cards', kind: 'gift-card', productType: 'Gift Cards', nouns: ['Gift Card', 'Digital Gift Card'], genders: unisex, fabrics: [paperCard], patterns: ['solid'], price: [25, 25], sizes: 'gift', palette: 'giftcard', line: 'Northwind Home', blurb: 'Let them choose: a gift card for anything in the store, delivered by email.' },
  { slot: 'non fashion', family: 'blankets', kind: 'blanket', productType: 'Home', nouns: ['Throw Blanket', 'Picnic Blanket'], genders: unisex, fabrics: [wool, alpaca, cotton], patterns: ['solid', 'plaid', 'herringbone', 'striped'], price: [69, 260], sizes: 'one', palette: 'home', line: 'Northwind Home', blurb: 'A generous throw with fringed ends for the sofa, the car or the park.' },
];
