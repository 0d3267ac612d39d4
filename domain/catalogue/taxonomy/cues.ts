// Words that signal gender, age group, pattern, material and fit, in the few languages shops
// most often mix into English listings. Pure data.
import type { AgeGroup, Fit, Gender, Material, Pattern } from '../vocabulary.js';

const list = (text: string): string[] => text.split(',').map((s) => s.trim()).filter(Boolean);

export const GENDER_CUES: Readonly<Record<Gender, string[]>> = {
  mens: list('men, mens, man, male, gents, gent, gentlemen, boy, boys, guy, guys, menswear, homme, hommes, herren, hombre, uomo, masculino, his, him, he'),
  womens: list('women, womens, woman, female, ladies, lady, girl, girls, womenswear, femme, femmes, damen, mujer, donna, feminino, her, hers, she, maternity, puff sleeve, peplum, boyfriend, petite, babydoll, empire waist, bralette'),
  unisex: list('unisex, gender neutral, genderless, androgynous, androgenous, all gender, everyone'),
};

/** Pronouns count less than words that name a gender. */
export const WEAK_GENDER_CUES = new Set(['his', 'him', 'he', 'her', 'hers', 'she', 'guy', 'guys', 'lady', 'everyone', 'puff sleeve', 'peplum', 'boyfriend', 'petite', 'babydoll', 'empire waist', 'bralette']);

export const AGE_CUES: Readonly<Record<Exclude<AgeGroup, 'adult'>, string[]>> = {
  kids: list('kid, kids, kidswear, child, children, childrens, junior, juniors, boys, girls, boy, girl, toddler, youth, teen, enfant, kinder, ninos, little kids, big kids'),
  baby: list('baby, babies, infant, newborn, bebe, babygrow, baby grow, sleepsuit, romper suit, 0 3 months, 3 6 months, 6 12 months, 12 18 months'),
};

export const PATTERN_CUES: Readonly<Record<Exclude<Pattern, 'solid' | 'other'>, string[]>> = {
  striped: list('stripe, striped, stripes, stripey, stripy, pinstripe, pin stripe, pinstriped, breton, pencil stripe, candy stripe, ticking, rugby stripe'),
  checked: list('check, checked, checks, checkered, chequered, houndstooth, dogtooth, windowpane'),
  plaid: list('plaid, tartan, buffalo check, flannel check'),
  gingham: list('gingham, vichy'),
  floral: list('floral, flower, flowers, flowered, botanical, rose print, blossom, bloom, hibiscus, tropical print, daisy'),
  'ditsy floral': list('ditsy, ditsy floral, ditsy print, liberty print, micro floral'),
  'animal print': list('leopard, cheetah, zebra, snake print, snakeskin, python, tiger print, animal print, animal, cow print, croc effect, croc print, leopard print'),
  geometric: list('geometric, geo print, geo, diamond print, argyle, grid, aztec, ikat, tile print'),
  abstract: list('abstract, marble, brushstroke, painterly, swirl, marbled'),
  'polka dot': list('polka dot, polka dots, polka, dot, dots, dotted, spot, spots, spotty, spotted, polkadot'),
  paisley: list('paisley, bandana print'),
  camouflage: list('camo, camouflage, woodland camo'),
  chevron: list('chevron, zigzag, zig zag'),
  herringbone: list('herringbone'),
  'tie dye': list('tie dye, tie dyed, tiedye, bleach dye, dip dye, shibori'),
  'colour block': list('colour block, color block, colourblock, colorblock, colour blocked, color blocked, two tone, panelled, colour blocking'),
  graphic: list('graphic, logo, slogan, print tee, printed tee, graphic print, typography, artwork, embroidered logo, text print, monogram'),
};

export const MATERIAL_CUES: Readonly<Record<Material, string[]>> = {
  cotton: list('cotton, organic cotton, pima, supima, denim, chambray, jersey cotton, canvas, poplin, twill cotton, oxford cloth, seersucker, corduroy, terry, french terry, cotton blend, baumwolle, coton, algodon, khadi, muslin'),
  linen: list('linen, flax, leinen, lin'),
  hemp: list('hemp'),
  wool: list('wool, merino, lambswool, lambs wool, virgin wool, boiled wool, tweed, laine, wolle, felted wool, worsted'),
  cashmere: list('cashmere, kaschmir'),
  alpaca: list('alpaca'),
  mohair: list('mohair'),
  silk: list('silk, mulberry silk, seide, soie, charmeuse'),
  down: list('down, duck down, goose down, down fill, down filled'),
  leather: list('leather, genuine leather, full grain, nappa, calfskin, cowhide, lambskin, patent leather, bovine leather, calf leather, leder, cuir'),
  suede: list('suede, nubuck'),
  'faux leather': list('faux leather, vegan leather, pu, pu leather, leatherette, pleather, synthetic leather, naugahyde, imitation leather'),
  shearling: list('shearling, sheepskin, sherpa, teddy fleece'),
  polyester: list('polyester, poly, recycled polyester, fleece, microfibre, microfiber, polar fleece, repreve'),
  nylon: list('nylon, polyamide, ripstop, cordura'),
  elastane: list('elastane, spandex, lycra, stretch fabric'),
  acrylic: list('acrylic'),
  viscose: list('viscose, rayon, bamboo'),
  modal: list('modal, micromodal'),
  lyocell: list('lyocell, tencel'),
  acetate: list('acetate, triacetate'),
  metal: list('metal, brass, sterling silver, stainless steel, steel, titanium, alloy, copper, aluminium, aluminum, zinc, 925 silver, gold plated, silver plated, solid gold'),
  wood: list('wood, wooden, bamboo wood, cork'),
  glass: list('glass, crystal'),
  ceramic: list('ceramic, porcelain, stoneware'),
  rubber: list('rubber, silicone, eva, vulcanised, vulcanized'),
  straw: list('straw, raffia, rattan, wicker, jute, seagrass'),
  paper: list('paper, cardboard'),
  other: list('cupro, ramie, spandex blend, elastomultiester, polyurethane, mesh, neoprene, satin, velvet, velour, tulle, chiffon, organza, lace'),
};

export const FIT_CUES: Readonly<Record<Exclude<Fit, 'other'>, string[]>> = {
  skinny: list('skinny, skinny fit, super skinny, extra slim, spray on, muscle fit'),
  slim: list('slim, slim fit, slimfit, tailored, tailored fit, fitted, tapered fit, athletic fit, body fit, extra slim fit'),
  regular: list('regular fit, regular, classic fit, standard fit, straight fit, comfort fit'),
  relaxed: list('relaxed, relaxed fit, loose, loose fit, loose fitting, baggy, easy fit, boyfriend, roomy, boxy, wide fit, generous fit'),
  oversized: list('oversized, oversize, oversized fit, drop shoulder, dropped shoulder, slouchy'),
};
