// The item's colours: from its colour options first (what it is sold in), else the title, then
// product type and tags, then the first photo's pixels (studio background discounted), then the
// description. `colors` lists every colour option, lower-case, or `[color_family]`.
import { colourFamilyOf, FAMILY_RGB, findColours, nearestFamily, type Rgb } from '../../../domain/catalogue/colours.js';
import type { Listing } from '../../../domain/catalogue/product-input.js';
import type { ColorFamily } from '../../../domain/catalogue/vocabulary.js';
import type { ProductPhoto } from '../port.js';
import type { TextField } from './listing-text.js';

export interface Colours {
  color_family: ColorFamily;
  color_rgb: Rgb;
  colors: string[];
  /** Where the answer came from, for confidence and tests. */
  source: 'options' | 'title' | 'text' | 'photo' | 'description' | 'none';
}

const COLOUR_AXIS = /colou?r|couleur|farbe|colorway|colourway|shade|tint|wash/i;
const NOT_COLOUR_AXIS = /size|taille|gr(o|ö)(ss|ß)e|length|waist|inseam|cup|width|fit|age|pack|quantity|style|storage|capacity/i;

/** The option axes that hold colours: named so, or (unnamed) whose values mostly are colours. */
export function colourOptionValues(listing: Listing): string[] {
  const options = listing.options ?? [];
  const named = options.filter((o) => COLOUR_AXIS.test(o.name));
  const axes = named.length
    ? named
    : options.filter((o) => !NOT_COLOUR_AXIS.test(o.name) && o.values.length > 0 && o.values.filter((v) => colourFamilyOf(v)).length * 2 >= o.values.length);
  const values = axes.flatMap((o) => o.values).map((v) => v.trim().toLowerCase()).filter((v) => v && v.length <= 60 && !/@|https?:/.test(v) && v !== 'default title');
  return [...new Set(values)];
}

export function decideColours(listing: Listing, fields: TextField[], photos: readonly ProductPhoto[]): Colours {
  const options = colourOptionValues(listing);
  for (const value of options) {
    const found = colourFamilyOf(value);
    if (found) return { color_family: found.family, color_rgb: found.rgb, colors: options, source: 'options' };
  }
  const withColors = (family: ColorFamily, rgb: Rgb, source: Colours['source']): Colours => ({
    color_family: family,
    color_rgb: rgb,
    colors: options.length ? options : [family],
    source,
  });
  const title = fields.find((f) => f.kind === 'title');
  const fromTitle = title && fromText(title.segments);
  if (fromTitle) return withColors(fromTitle.family, fromTitle.rgb, 'title');
  const other = fromText(fields.filter((f) => f.kind === 'type' || f.kind === 'tags').flatMap((f) => f.segments), false);
  if (other) return withColors(other.family, other.rgb, 'text');
  const pixels = photos.length ? photoColour(photos[0]!) : null;
  if (pixels) return withColors(nearestFamily(pixels), pixels, 'photo');
  const description = fromText(fields.filter((f) => f.kind === 'description').flatMap((f) => f.segments), false);
  if (description) return withColors(description.family, description.rgb, 'description');
  return withColors('other', FAMILY_RGB.other, 'none');
}

/** Plain colour words win over words that are often not colours; three families or more are multicolour. */
function fromText(segments: string[][], allowWeak = true): { family: ColorFamily; rgb: Rgb } | null {
  const found = segments.flatMap((segment, index) => findColours(segment).map((mention) => ({ ...mention, opening: index === 0 && mention.start === 0 })));
  // A colour that opens a title is often the brand ("Red Wing", "Black Lamb"): another wins over it.
  const named = found[0]?.opening && found.slice(1).some((f) => !f.weak) ? found.slice(1) : found;
  const strong = named.filter((f) => !f.weak);
  const pick = strong.length ? strong : allowWeak ? named : [];
  if (!pick.length) return null;
  const families = new Set(pick.map((f) => f.family));
  if (families.size >= 4) return { family: 'multicolour', rgb: FAMILY_RGB.multicolour };
  return { family: pick[0]!.family, rgb: pick[0]!.rgb };
}

/**
 * The main colour of a photo raster. The background is what the border shows (a studio white, a
 * grey sweep): pixels close to it, and near-white pixels when it is light, are left out; the
 * rest are binned coarsely, centre pixels counting double, and the fullest bin is averaged.
 */
export function photoColour(photo: ProductPhoto): Rgb | null {
  const { data, width, height } = photo.pixels;
  if (!width || !height || data.length < width * height * 3) return null;
  const at = (x: number, y: number): Rgb => {
    const i = (y * width + x) * 3;
    return [data[i]!, data[i + 1]!, data[i + 2]!];
  };
  const border: Rgb[] = [];
  for (let x = 0; x < width; x++) border.push(at(x, 0), at(x, height - 1));
  for (let y = 1; y < height - 1; y++) border.push(at(0, y), at(width - 1, y));
  const background = dominant(border, () => 1);
  const lightBackground = background && background.rgb[0] + background.rgb[1] + background.rgb[2] > 600;
  const isBackground = (p: Rgb) =>
    (background !== null && background.share > 0.4 && distance(p, background.rgb) < 40) || (lightBackground && p[0] > 232 && p[1] > 232 && p[2] > 232);
  const inside: Rgb[] = [];
  const weights: number[] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = at(x, y);
      if (isBackground(p)) continue;
      inside.push(p);
      const central = Math.abs(x - width / 2) < width / 4 && Math.abs(y - height / 2) < height / 4;
      weights.push(central ? 2 : 1);
    }
  }
  if (inside.length < width * height * 0.02) return background ? background.rgb : null;
  return dominant(inside, (i) => weights[i]!)?.rgb ?? null;
}

function dominant(pixels: Rgb[], weight: (index: number) => number): { rgb: Rgb; share: number } | null {
  if (!pixels.length) return null;
  const bins = new Map<number, { n: number; r: number; g: number; b: number }>();
  let total = 0;
  pixels.forEach((p, i) => {
    const key = ((p[0] >> 5) << 6) | ((p[1] >> 5) << 3) | (p[2] >> 5);
    const w = weight(i);
    const bin = bins.get(key) ?? { n: 0, r: 0, g: 0, b: 0 };
    bin.n += w;
    bin.r += p[0] * w;
    bin.g += p[1] * w;
    bin.b += p[2] * w;
    bins.set(key, bin);
    total += w;
  });
  let best: { n: number; r: number; g: number; b: number } | undefined;
  for (const bin of bins.values()) if (!best || bin.n > best.n) best = bin;
  if (!best) return null;
  return { rgb: [Math.round(best.r / best.n), Math.round(best.g / best.n), Math.round(best.b / best.n)], share: best.n / total };
}

const distance = (a: Rgb, b: Rgb) => Math.sqrt((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2);
