// Colour names as shops write them ("heather green", "burnt orange", "oatmeal", "bordeaux") mapped
// onto the colour families of document 1, with a representative RGB; which families sit next to
// each other (navy ~ blue); and the nearest family of an RGB value. Pure.
import { normalise, PhraseMatcher, withPlurals, words } from './taxonomy/index.js';
import type { ColorFamily } from './vocabulary.js';

export type Rgb = [number, number, number];

/** A representative colour of each family (multicolour and other have none of their own). */
export const FAMILY_RGB: Readonly<Record<ColorFamily, Rgb>> = {
  black: [20, 20, 20], charcoal: [54, 69, 79], grey: [128, 128, 128], silver: [192, 192, 192], white: [250, 250, 250],
  ivory: [255, 255, 240], cream: [255, 253, 208], beige: [225, 210, 180], tan: [210, 180, 140], camel: [193, 154, 107],
  brown: [120, 72, 40], chocolate: [75, 45, 30], khaki: [189, 183, 107], olive: [110, 110, 40], green: [40, 140, 60],
  mint: [170, 240, 200], teal: [0, 128, 128], turquoise: [64, 224, 208], blue: [40, 90, 200], navy: [20, 30, 80],
  purple: [110, 40, 140], lavender: [190, 170, 230], pink: [245, 150, 190], rose: [200, 110, 130], coral: [255, 127, 80],
  peach: [255, 200, 165], red: [200, 30, 40], burgundy: [120, 20, 40], rust: [183, 65, 14], orange: [250, 130, 20],
  mustard: [220, 170, 40], yellow: [250, 220, 50], gold: [212, 175, 55], multicolour: [128, 128, 128], other: [128, 128, 128],
};

// name: family, or name: family #rrggbb when the name's own colour differs from the family's.
// `name?` marks a word that is often not a colour in a title ("Stone", "Army", "Harvest"): it
// counts in a colour option, and in free text only when nothing plainer is named.
const NAMES = `
black:black, jet?:black, jet black:black, onyx?:black, ebony?:black, noir:black, schwarz:black, negro:black, nero:black, caviar?:black, raven?:black, ink?:navy, blk:black, blck:black, bk:black, pitch black:black, obsidian:black, coal?:black, licorice?:black, midnight black:black,
charcoal:charcoal, graphite:charcoal, anthracite:charcoal, gunmetal:charcoal, slate:charcoal #708090, slate grey:grey #708090, dark grey:charcoal, dark gray:charcoal, asphalt?:charcoal, iron?:charcoal, pewter:grey, smoke?:grey, ash?:grey, heather grey:grey, grey melange:grey, grey marl:grey, marl?:grey, heather?:grey, melange?:grey,
grey:grey, gray:grey, gry:grey, gy:grey, grau:grey, gris:grey, stone grey:grey, steel?:grey #7b8a97, steel grey:grey, cement?:grey, gravel?:grey, concrete?:grey, dove?:grey #b4b0ab, dove grey:grey, fog?:grey #c8c8c8, mist?:grey #cfd4d6, pebble?:grey, flint?:grey, nickel?:silver, titanium?:grey, rock?:grey, storm?:grey, cloud?:white, light grey:silver, light gray:silver, ghost?:white,
silver:silver, metallic:silver, platinum?:silver, chrome?:silver, argent:silver, silber:silver,
white:white, optic white:white, bright white:white, snow?:white, chalk?:white, pure white:white, blanc:white, weiss:white, bianco:white, blanco:white, porcelain?:white, pearl?:ivory, whisper white:white, wht:white, whi:white, wt:white,
ivory:ivory, off white:ivory, offwhite:ivory, eggshell:ivory, ecru:ivory #e8dfc8, bone?:ivory, natural?:ivory #e6dcc6, vanilla?:cream, milk?:ivory, coconut?:ivory, alabaster?:ivory, undyed:ivory, unbleached:ivory,
cream:cream, creme:cream, buttercream:cream, oatmeal:beige #d8cbb1, oat?:beige, parchment?:cream, champagne?:cream, shell?:cream, winter white:cream,
beige:beige, sand?:beige #d7c4a3, stone?:beige #cbbfae, taupe:beige #8b7d6b, nude:beige, skin?:beige, latte?:beige, putty?:beige, mushroom?:beige #a99a86, biscuit?:beige,  oyster?:beige, fawn:beige, wheat?:beige, dune?:beige, desert?:beige, sandstone:beige, greige:beige, ecru beige:beige, cashew?:beige, almond?:beige, sandrift:beige, driftwood:beige, bisque:beige, buff:beige, natural beige:beige, blush nude:peach,
tan:tan, toffee:tan, caramel:camel, camel:camel, cognac:camel #9a463d, honey?:camel, butterscotch:camel, saddle?:camel, tobacco?:brown, whiskey?:camel, whisky?:camel, amber?:camel, ginger?:rust, nutmeg?:brown #7f5539, cinnamon?:rust, light brown:tan, light_brown:tan, acorn?:brown,
brown:brown, coffee?:brown, coffee brown:chocolate, mocha?:brown, walnut?:brown, chestnut?:brown, hazel?:brown, umber:brown, bark?:brown, mahogany:chocolate, sepia:brown, mink?:brown #8a7b6c, cocoa?:chocolate, espresso?:chocolate, chocolate:chocolate, dark brown:chocolate, truffle?:chocolate, java?:chocolate, braun:brown, marron:brown, cafe?:brown, rawhide:tan, bronze?:gold #cd7f32, copper?:rust #b87333,
khaki:khaki, stone khaki:khaki, safari?:khaki, desert khaki:khaki, tan khaki:khaki, military?:olive, army?:olive, army green:olive, military green:olive, fatigue?:olive, utility green:olive,
olive:olive, olive green:olive, moss:olive #8a9a5b, moss green:olive, dark olive:olive, sage:green #9caf88, sage green:green #9caf88, pistachio:mint, lichen:olive, loden:olive, cypress?:green, spruce?:green, pine?:green, hunter green:green, hunter?:green, forest?:green, forest green:green, bottle green:green, emerald?:green, kelly green:green, jade?:green, lime?:green #32cd32, lime green:green, neon green:green, fluorescent green:green, grass?:green, leaf?:green, apple green:green, sea green:green #2e8b57, fern?:green, basil?:green, evergreen:green, racing green:green, grun:green, verde:green, vert:green, heather green:green, dark green:green, light green:mint, celadon:mint, seafoam:mint,
green:green, mint:mint, mint green:mint, menthe:mint, aqua:turquoise, teal:teal, petrol:teal, peacock?:teal, dark teal:teal, deep teal:teal, duck egg:mint, spearmint:mint,
turquoise:turquoise, turquoise blue:turquoise, cyan:turquoise, lagoon?:turquoise, tiffany?:turquoise, caribbean?:turquoise, pool?:turquoise,
blue:blue, royal blue:blue, cobalt:blue, sky?:blue #87ceeb, sky blue:blue #87ceeb, light blue:blue #9ec5e8, baby blue:blue #a9cfee, powder blue:blue, cornflower:blue, azure:blue, denim?:blue, chambray:blue #8aa8c8, blue chambray:blue, indigo?:navy #2e3a6e, dark indigo:navy, cerulean:blue, sapphire?:blue, electric blue:blue, ocean?:blue, lake?:blue, steel blue:blue, dusty blue:blue, bleu:blue, blau:blue, azul:blue, blu:blue, ice blue:blue, periwinkle:lavender, french blue:blue, deep water?:navy, marine?:navy, water?:blue, surf?:blue, glacier?:blue, horizon?:blue, capri?:blue, mid blue:blue, stonewash:blue, light wash:blue, mid wash:blue, dark wash:navy, raw denim:navy, washed blue:blue, admiral?:navy, nocturnal?:navy,
navy:navy, navy blue:navy, nvy:navy, dark navy:navy, midnight?:navy, midnight blue:navy, dark blue:navy, ink blue:navy, deep blue:navy, marine blue:navy, oxford blue?:navy, dress blue:navy, nautical?:navy, naval?:navy, blue night:navy, eclipse?:navy, marino:navy,
purple:purple, violet:purple, plum?:purple, aubergine:purple, eggplant:purple, grape?:purple, amethyst?:purple, magenta:pink #c71585, fuchsia:pink #d8339b, orchid?:lavender, mauve:lavender #b784a7, lilac:lavender, lavender:lavender, wisteria?:lavender, heather purple:purple, royal purple:purple, violett:purple, purple haze:purple, iris?:purple, thistle?:lavender, damson:purple, mulberry?:burgundy, berry?:burgundy, raspberry?:pink,
pink:pink, hot pink:pink, baby pink:pink, light pink:pink, pastel pink:pink, blush:pink #f4c2c2, bubblegum?:pink, candy?:pink, candy pink:pink, flamingo?:pink, rosa:pink, rose:rose, dusty rose:rose, dusty pink:rose, old rose:rose, rosewood:rose, dusky pink:rose, mauve pink:rose, antique rose:rose, ballet pink:pink, powder pink:pink, neon pink:pink, shocking pink:pink, cerise:pink, watermelon?:coral, salmon?:coral, rose pink:rose,
coral:coral, living coral:coral, melon?:coral, papaya?:coral, persimmon:coral, grapefruit:coral, tomato?:red,
peach?:peach, apricot?:peach, nectarine?:peach, blush peach:peach, pastel peach:peach, cantaloupe?:peach,
red:red, scarlet:red, crimson:red, cherry?:red, cherry red:red, ruby?:red, poppy?:red, fire?:red, chilli:red, chili:red, lipstick:red, tomato red:red, true red:red, rouge:red, rot:red, rojo:red, rosso:red, brick:rust, brick red:rust, vermilion:red, candy red:red, racing red:red, strawberry?:red,
burgundy:burgundy, burgandy:burgundy, maroon:burgundy, bordeaux:burgundy, wine?:burgundy, wine red:burgundy, oxblood:burgundy, merlot:burgundy, claret:burgundy, cabernet:burgundy, garnet?:burgundy, port?:burgundy, dark red:burgundy, deep red:burgundy, cranberry?:burgundy, beetroot:burgundy, sangria:burgundy,
rust:rust, terracotta:rust, terra cotta:rust, burnt orange:rust #cc5500, burnt sienna:rust, sienna:rust, paprika?:rust, henna?:rust, clay?:rust, auburn:rust, brick orange:rust, spice?:rust, harvest?:rust #d2691e,
orange:orange, tangerine?:orange, pumpkin?:orange, mandarin?:orange, neon orange:orange, fluorescent orange:orange, safety orange:orange, marigold?:orange, flame?:orange, blaze?:orange, sunset?:orange, orange crush:orange, clementine?:orange,
mustard:mustard, ochre:mustard, ocher:mustard, saffron?:mustard, turmeric?:mustard, curry?:mustard, dijon?:mustard, old gold:mustard, goldenrod:mustard, amber yellow:mustard,
yellow:yellow, lemon?:yellow, canary:yellow, sunflower:yellow, butter?:yellow, buttercup:yellow, banana?:yellow, daffodil:yellow, neon yellow:yellow, fluorescent yellow:yellow, lime yellow:yellow, sunshine?:yellow, pastel yellow:yellow, pale yellow:yellow, gelb:yellow, amarillo:yellow, jaune:yellow, volt?:yellow, citrus?:yellow,
gold:gold, golden:gold, gold tone:gold, yellow gold:gold, rose gold:gold #b76e79, brass?:gold, antique gold:gold, champagne gold:gold, metallic gold:gold,
multi:multicolour, multicolour:multicolour, multicolor:multicolour, multi colour:multicolour, multi color:multicolour, multicoloured:multicolour, multicolored:multicolour, rainbow:multicolour, assorted?:multicolour, mixed?:multicolour, print?:multicolour, tie dye?:multicolour, camo?:multicolour, camouflage?:multicolour, floral?:multicolour, patchwork?:multicolour, tortoise?:brown, tortoiseshell?:brown, leopard?:camel, mixed colours:multicolour
`;

interface ColourName {
  name: string;
  weak: boolean;
  family: ColorFamily;
  rgb: Rgb;
}

function hex(value: string): Rgb {
  const n = Number.parseInt(value.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

const COLOUR_NAMES: ColourName[] = NAMES.split(',')
  .map((entry) => entry.trim())
  .filter(Boolean)
  .map((entry) => {
    const [name = '', rest = ''] = entry.split(':');
    const [family, code] = rest.trim().split(/\s+/) as [ColorFamily, string | undefined];
    return { name: normalise(name), weak: name.endsWith('?'), family, rgb: code ? hex(code) : FAMILY_RGB[family] };
  });

const matcher = new PhraseMatcher<ColourName>();
for (const colour of COLOUR_NAMES) for (const form of withPlurals(colour.name)) if (!matcher.has(form) || form === colour.name) matcher.add(form, colour);

/** Words that shade a colour without changing its family ("light", "washed"). */
const SHADES = new Set(['light', 'dark', 'deep', 'pale', 'bright', 'soft', 'dusty', 'dusky', 'muted', 'washed', 'faded', 'vintage', 'pastel', 'neon', 'rich', 'true', 'classic', 'heather', 'heathered', 'marl', 'mid', 'medium', 'warm', 'cool', 'solid', 'acid', 'garment', 'dyed', 'tonal', 'melange']);

export interface ColourMention {
  /** The words as written, e.g. `heather green`. */
  name: string;
  family: ColorFamily;
  rgb: Rgb;
  /** Word index in the text. */
  start: number;
  /** A word that is often not a colour in free text (`stone`, `army`). */
  weak: boolean;
}

/** Every colour named in `text`, in order ("Navy/White Stripe" → navy, white). */
export function findColours(text: string | readonly string[]): ColourMention[] {
  const tokens = typeof text === 'string' ? words(text) : text;
  return matcher.scan(tokens).map((m) => ({ name: m.phrase, family: m.values[0]!.family, rgb: m.values[0]!.rgb, start: m.start, weak: m.values[0]!.weak }));
}

/**
 * The family of a colour name as a shop writes it: `Heather Green` → green, `Navy/White` →
 * navy (the first colour leads), `Black + Ivory Check` → black. null when no colour is named.
 */
export function colourFamilyOf(name: string): { family: ColorFamily; rgb: Rgb } | null {
  const found = findColours(name);
  if (!found.length) return null;
  const families = new Set(found.map((f) => f.family));
  if (families.size > 3) return { family: 'multicolour', rgb: FAMILY_RGB.multicolour };
  return { family: found[0]!.family, rgb: found[0]!.rgb };
}

export function isShadeWord(word: string): boolean {
  return SHADES.has(word);
}

const NEIGHBOURS: Array<[ColorFamily, ColorFamily]> = [
  ['black', 'charcoal'], ['charcoal', 'grey'], ['grey', 'silver'], ['silver', 'white'], ['white', 'ivory'], ['ivory', 'cream'],
  ['cream', 'beige'], ['beige', 'tan'], ['tan', 'camel'], ['camel', 'brown'], ['brown', 'chocolate'], ['tan', 'khaki'],
  ['khaki', 'olive'], ['olive', 'green'], ['green', 'mint'], ['green', 'teal'], ['teal', 'turquoise'], ['turquoise', 'blue'],
  ['mint', 'turquoise'], ['blue', 'navy'], ['navy', 'black'], ['navy', 'purple'], ['purple', 'lavender'], ['lavender', 'pink'],
  ['pink', 'rose'], ['rose', 'coral'], ['coral', 'peach'], ['peach', 'beige'], ['coral', 'orange'], ['red', 'burgundy'],
  ['red', 'coral'], ['red', 'rust'], ['burgundy', 'purple'], ['burgundy', 'chocolate'], ['rust', 'orange'], ['rust', 'brown'],
  ['orange', 'mustard'], ['mustard', 'yellow'], ['yellow', 'gold'], ['gold', 'mustard'], ['gold', 'camel'], ['beige', 'khaki'],
  ['pink', 'red'], ['rose', 'burgundy'], ['grey', 'beige'], ['charcoal', 'navy'], ['white', 'cream'], ['brown', 'khaki'],
];

/** Families next to `family` (navy → blue, black, purple, charcoal). */
export function neighbouringFamilies(family: ColorFamily): ColorFamily[] {
  return NEIGHBOURS.flatMap(([a, b]) => (a === family ? [b] : b === family ? [a] : []));
}

/** True when two different families are neighbours (the bench's half-credit rule). */
export function areNeighbours(a: ColorFamily, b: ColorFamily): boolean {
  return a !== b && neighbouringFamilies(a).includes(b);
}

// Nearest family in CIELAB: a perceptual distance, so dark navy is not called black.
const PROTOTYPES: Array<{ family: ColorFamily; lab: [number, number, number] }> = [
  ...(Object.entries(FAMILY_RGB) as Array<[ColorFamily, Rgb]>).filter(([family]) => family !== 'multicolour' && family !== 'other').map(([family, rgb]) => ({ family, lab: toLab(rgb) })),
  ...[
    ['blue', [70, 130, 180]], ['blue', [100, 149, 237]], ['blue', [30, 60, 150]], ['blue', [135, 180, 220]], ['green', [34, 100, 34]], ['green', [85, 170, 85]],
    ['grey', [160, 160, 160]], ['grey', [100, 100, 100]], ['red', [160, 20, 30]], ['pink', [255, 182, 193]], ['brown', [150, 100, 60]], ['navy', [30, 45, 100]],
    ['purple', [130, 70, 160]], ['beige', [200, 185, 160]], ['olive', [85, 90, 50]], ['charcoal', [70, 70, 70]], ['black', [40, 40, 45]],
  ].map(([family, rgb]) => ({ family: family as ColorFamily, lab: toLab(rgb as Rgb) })),
];

export function nearestFamily(rgb: Rgb): ColorFamily {
  const lab = toLab(rgb);
  let best: ColorFamily = 'other';
  let bestDistance = Infinity;
  for (const p of PROTOTYPES) {
    const d = (lab[0] - p.lab[0]) ** 2 + (lab[1] - p.lab[1]) ** 2 + (lab[2] - p.lab[2]) ** 2;
    if (d < bestDistance) [best, bestDistance] = [p.family, d];
  }
  return best;
}

export function toLab([r, g, b]: Rgb): [number, number, number] {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const [R, G, B] = [lin(r), lin(g), lin(b)];
  const x = (R * 0.4124 + G * 0.3576 + B * 0.1805) / 0.95047;
  const y = R * 0.2126 + G * 0.7152 + B * 0.0722;
  const z = (R * 0.0193 + G * 0.1192 + B * 0.9505) / 1.08883;
  const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}
