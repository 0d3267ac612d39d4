// Catalogues of any size for the search performance benchmark: the fixture products replicated,
// each copy a product of its own as a store would list it: new product, variant and sku ids, a
// colour swapped in (the title's colour word and the colour option's values), prices scaled.
// Copy 0 of each product is the product itself (without photos), so the judged queries still find
// what they were written for. Pure and deterministic: product `i` is the same on every run.

export type ShopifyProduct = Record<string, any> & { id: number | string };

export const PALETTE = ['black', 'white', 'navy', 'red', 'green', 'beige', 'grey', 'blue', 'pink', 'brown', 'olive', 'cream', 'burgundy', 'yellow', 'purple', 'orange'] as const;

/** Colour words a title may carry and a copy swaps out (whole words, any case). */
const TITLE_COLOURS = new RegExp(`\\b(${[...PALETTE, 'gray', 'ivory', 'tan', 'khaki', 'camel', 'charcoal', 'maroon', 'teal', 'silver', 'gold', 'sage', 'lavender', 'rust'].join('|')})\\b`, 'gi');

const capitalised = (word: string, like: string): string => (like[0] === like[0]?.toUpperCase() ? word[0]!.toUpperCase() + word.slice(1) : word);

/** A stable small number from an id, so neighbouring products do not all get the same colour. */
const spread = (id: string): number => [...id].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);

/** 0.6 to 1.49: copy k's price factor. */
export const priceFactor = (k: number): number => (k === 0 ? 1 : 0.6 + ((k * 37) % 90) / 100);

const scaled = (price: unknown, factor: number): unknown => {
  if (price === null || price === undefined || price === '') return price;
  const n = Number(price);
  return Number.isFinite(n) ? (n * factor).toFixed(2) : price;
};

/** Product i of a catalogue cycling over `pool`: copy k = floor(i / pool.length) of pool[i % pool.length]. */
export function catalogueProduct(pool: readonly ShopifyProduct[], i: number): ShopifyProduct {
  const source = pool[i % pool.length]!;
  const k = Math.floor(i / pool.length);
  const variants: Array<Record<string, any>> = Array.isArray(source.variants) ? source.variants : [];
  const product: ShopifyProduct = { ...source, images: [], image: null, variants: variants.map((v) => ({ ...v, featured_image: null, image_id: null })) };
  if (k === 0) return product;

  const factor = priceFactor(k);
  const colourAt = (j: number) => PALETTE[(k + j + spread(String(source.id))) % PALETTE.length]!;
  const options: Array<{ name?: string; values?: string[] }> = Array.isArray(source.options) ? source.options : [];
  const colourAxis = options.findIndex((o) => /^colou?rs?$/i.test(String(o.name ?? '').trim()));
  const recolour = new Map<string, string>();
  if (colourAxis >= 0) for (const [j, value] of (options[colourAxis]!.values ?? []).entries()) recolour.set(String(value), capitalised(colourAt(j), String(value)));

  product.id = `${String(source.id)}-${k}`;
  if (typeof source.handle === 'string') product.handle = `${source.handle}-${k}`;
  if (typeof source.title === 'string') product.title = source.title.replace(TITLE_COLOURS, (word) => capitalised(colourAt(0), word));
  if (colourAxis >= 0) product.options = options.map((o, a) => (a === colourAxis ? { ...o, values: (o.values ?? []).map((v) => recolour.get(String(v)) ?? v) } : o));
  product.variants = product.variants.map((v: Record<string, any>) => {
    const copy: Record<string, any> = { ...v, id: `${String(v.id)}-${k}`, product_id: product.id, price: scaled(v.price, factor), compare_at_price: scaled(v.compare_at_price, factor) };
    if (typeof v.sku === 'string' && v.sku.trim()) copy.sku = `${v.sku}-${k}`;
    if (colourAxis >= 0) {
      const field = `option${colourAxis + 1}`;
      copy[field] = recolour.get(String(v[field])) ?? v[field];
      copy.title = [copy.option1, copy.option2, copy.option3].filter((o) => o !== null && o !== undefined).join(' / ');
    }
    return copy;
  });
  return product;
}
