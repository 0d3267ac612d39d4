// Whether a variant is in the size a shopper named: its size option (or, without one, a part of its
// label) read in the same normal form as the shopper's words ("XLarge" and "XL", "EU 42" and "42").
// Letter sizes come from shopper-words.ts. Pure.
import type { ListingVariant } from '../catalogue/product-input.js';
import { SIZE_PHRASES } from './shopper-words.js';

const SIZE_OPTION = /size|taille|größe|grösse|talla|taglia|^eu$|^us$|^uk$/i;
const SYSTEM_WORDS = new RegExp(`\\b(${[...Object.keys(SIZE_PHRASES.systems), 'size', 'sz'].join('|')})\\b`, 'g');

/** One size as a comparable string: letter sizes in their normal form, numbers as written ("42", "10.5"). */
export function normalSize(value: string): string {
  // Remembered: a search asking for a size reads every priced candidate's variants (1.4% of its
  // CPU), and a catalogue's size values are few. Pure all the same; the memory is bounded.
  let normal = normalSizes.get(value);
  if (normal === undefined) {
    normal = normalise(value);
    if (value.length <= MEMO_CHARS) {
      if (normalSizes.size >= MEMO_SIZES) normalSizes.clear();
      normalSizes.set(value, normal);
    }
  }
  return normal;
}

const normalSizes = new Map<string, string>();
const MEMO_SIZES = 5000;
const MEMO_CHARS = 40;

function normalise(value: string): string {
  const spaced = value.toLowerCase().replace(/[-_/]+/g, ' ');
  // A letter size whose words hold a system word ("one size", "free size") is read whole first.
  const whole = SIZE_PHRASES.letters[tidy(spaced)];
  if (whole) return whole.toLowerCase();
  const words = tidy(spaced.replace(SYSTEM_WORDS, ' '));
  return (SIZE_PHRASES.letters[words] ?? words).toLowerCase();
}

const tidy = (text: string): string =>
  text
    .replace(/[^a-z0-9.½ ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

export function variantHasSize(variant: Pick<ListingVariant, 'label' | 'options'>, size: string): boolean {
  const wanted = normalSize(size);
  if (!wanted) return false;
  const sized = (variant.options ?? []).filter((option) => SIZE_OPTION.test(option.name));
  const values = sized.length ? sized.map((option) => option.value) : (variant.label ?? '').split('/');
  return values.some((value) => {
    const normal = normalSize(value);
    // "42 / 8.5 US" or "W32 L30": any part may be the size.
    return normal === wanted || normal.split(' ').includes(wanted);
  });
}
