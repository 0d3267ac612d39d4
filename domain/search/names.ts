// A product's own name as the shopper may type it in full (issue 27 point 3): "Reduced Skirt",
// "Black Label Oxford Shirt", "Kids Love Gaite Chelsea Boot". Typed whole, the name is the
// product, whatever query understanding reads in its words (a sale, a colour, an age). Pure.

/** A name of fewer words is a word a shopper types for anything ("Dress"): never matched as a name. */
const SHORTEST_NAME = 2;

/**
 * The name as compared: lower case, accents and apostrophes dropped, words of letters and digits
 * joined by one space ("Men’s  Café-Shirt" → "mens cafe shirt"). Empty when no word is left.
 */
export function nameKey(text: string | null | undefined): string {
  const words = (text ?? '')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’`]/g, '')
    .match(/[\p{L}\p{N}]+/gu);
  return words ? words.join(' ') : '';
}

/**
 * The keys a product answers to by name: its name, and its brand followed by its name when the
 * name does not already begin with the brand. A one-word name is left out: it is a kind of product
 * ("Dress") more often than a product's own name.
 */
export function productNameKeys(name: string | null | undefined, brand: string | null | undefined): string[] {
  const own = nameKey(name);
  const maker = nameKey(brand);
  const keys = new Set<string>();
  if (own.split(' ').length >= SHORTEST_NAME) keys.add(own);
  if (own && maker && !own.startsWith(`${maker} `) && own !== maker) keys.add(`${maker} ${own}`);
  return [...keys];
}
