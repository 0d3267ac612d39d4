// The words shoppers type into a search box that the catalogue taxonomy does not already list:
// filler, budget and size phrasing, currencies, "similar to", stock and sale, occasions and what
// they suggest, brands, and a few garment synonyms. Search (understand.ts) and the agent both read
// this file; garment, colour, material, pattern, fit, gender and age words live in
// domain/catalogue/taxonomy and colours.ts and are not repeated here. Phrases are lower case,
// words as `words()` yields them ("men's" → "mens", "t-shirt" → "t shirt"). Pure data.
import type { Gender, Pattern, Slot } from '../catalogue/vocabulary.js';

/** Words that carry no product meaning in a query; dropped from the text search. */
export const FILLER_WORDS: readonly string[] = [
  'a', 'an', 'the', 'for', 'to', 'of', 'in', 'on', 'at', 'with', 'and', 'or', 'but', 'by', 'from', 'as', 'into', 'that', 'this', 'these', 'those', 'it', 'its',
  'i', 'im', 'me', 'my', 'mine', 'we', 'our', 'you', 'your', 'is', 'are', 'be', 'can', 'could', 'would', 'should', 'will', 'do', 'does', 'have', 'has', 'get', 'got',
  'want', 'wanna', 'need', 'needs', 'looking', 'looking for', 'search', 'searching', 'show', 'show me', 'find', 'find me', 'buy', 'shop', 'browse', 'give me',
  'recommend', 'suggest', 'suggestion', 'suggestions', 'ideas', 'idea', 'help', 'please', 'pls', 'plz', 'thanks',
  'some', 'any', 'something', 'anything', 'stuff', 'things', 'thing', 'item', 'items', 'product', 'products', 'piece', 'pieces', 'pair', 'pairs', 'a pair of',
  'outfit', 'outfits', 'look', 'looks', 'clothes', 'clothing', 'apparel', 'garment', 'garments', 'wear', 'wearing', 'to wear', 'what to wear',
  'what', 'what to pack', 'to pack', 'pack', 'packing', 'which', 'where', 'when', 'how', 'good', 'nice', 'best', 'great', 'cool', 'really', 'very', 'also',
  'too', 'just', 'more', 'other', 'another', 'one', 'ones', 'event', 'events', 'trip', 'occasion', 'occasions', 'size', 'sizes', 'sized',
];

/** Phrases asking for products like one the shopper is looking at. */
export const SIMILAR_PHRASES: readonly string[] = [
  'similar', 'similar to', 'similar to this', 'similar to these', 'similar to this one', 'similar to that', 'similar ones', 'similar items',
  'like this', 'like these', 'like that', 'like those', 'like this one', 'like these ones', 'like that one', 'like mine', 'like it',
  'more like this', 'more like these', 'more like', 'something like', 'anything like', 'same as', 'same as this', 'the same as', 'same style as',
  'alternative to', 'alternatives to', 'alternative', 'alternatives', 'dupe', 'dupes', 'dupe for', 'lookalike', 'look alike', 'looks like',
];

export const IN_STOCK_PHRASES: readonly string[] = ['in stock', 'instock', 'available', 'available now', 'in store', 'ready to ship', 'ships now', 'not sold out'];

export const ON_SALE_PHRASES: readonly string[] = [
  'on sale', 'sale', 'discount', 'discounted', 'discounts', 'reduced', 'markdown', 'marked down', 'clearance', 'deal', 'deals', 'offer', 'offers', 'off', 'percent off',
];

/** Budget phrasing around a number ("under $120", "80 or less", "between 50 and 100", "over 200"). */
export const PRICE_PHRASES = {
  atMostBefore: [
    'under', 'below', 'less than', 'less then', 'lower than', 'cheaper than', 'up to', 'upto', 'max', 'maximum', 'max of', 'within', 'no more than',
    'not more than', 'at most', 'not over', 'not above', 'beneath', 'budget', 'budget of', 'my budget is', 'for under', 'for less than', 'under a', '<',
  ],
  atMostAfter: ['or less', 'or under', 'or below', 'or cheaper', 'and under', 'and below', 'and less', 'max', 'maximum', 'at most'],
  atLeastBefore: ['over', 'above', 'more than', 'greater than', 'higher than', 'at least', 'from', 'min', 'minimum', 'starting at', 'starting from', '>'],
  atLeastAfter: ['or more', 'and up', 'and above', 'and over', 'or over', 'or above', 'plus', 'minimum'],
  around: ['around', 'about', 'approx', 'approximately', 'roughly', 'near', 'circa', 'for about', 'for around'],
  between: ['between', 'from'],
  rangeJoin: ['and', 'to', 'till', 'until'],
  /** The word that follows a number when it means thousands ("2k"). */
  thousands: ['k'],
  /** Around X means X less or more this share. */
  aroundShare: 0.2,
} as const;

/**
 * Currency words and symbols: the ISO code when the word names one currency, null when it does
 * not ("$", "dollars" are the shopper's own market's dollars).
 */
export const CURRENCY_WORDS: Readonly<Record<string, string | null>> = {
  $: null, dollar: null, dollars: null, bucks: null, usd: 'USD', cad: 'CAD', aud: 'AUD', nzd: 'NZD',
  '₹': 'INR', rs: 'INR', inr: 'INR', rupee: 'INR', rupees: 'INR',
  '€': 'EUR', eur: 'EUR', euro: 'EUR', euros: 'EUR',
  '£': 'GBP', gbp: 'GBP', pound: 'GBP', pounds: 'GBP', quid: 'GBP',
  egp: 'EGP', le: 'EGP', aed: 'AED', dhs: 'AED', sar: 'SAR', chf: 'CHF', sek: 'SEK', nok: 'NOK', dkk: 'DKK', jpy: 'JPY', yen: 'JPY', '¥': 'JPY',
};

/** Words that ask for a price level rather than a number. */
export const PRICE_HINTS: Readonly<Record<'low' | 'high', readonly string[]>> = {
  low: ['cheap', 'cheaper', 'cheapest', 'affordable', 'inexpensive', 'budget', 'low cost', 'low price', 'lowest price', 'bargain', 'value', 'economical'],
  high: ['luxury', 'luxurious', 'premium', 'expensive', 'high end', 'upscale', 'splurge'],
};

/** Sizes as shoppers write them ("size 42", "in XL", "EU 42", "uk8", "size medium"). */
export const SIZE_PHRASES = {
  /** Words before a size value. */
  lead: ['size', 'sz', 'sized', 'size is', 'in size', 'in a size', 'in a', 'in', 'my size', 'my size is', 'wear a', 'i wear', 'i wear a', 'fits'],
  /** Size systems written next to the number, and how to print them. */
  systems: { eu: 'EU', uk: 'UK', us: 'US', fr: 'FR', it: 'IT', au: 'AU', jp: 'JP', waist: 'W' } as Readonly<Record<string, string>>,
  /** Systems that may follow the number ("42 eu"); "us" and "it" after a number are too often words. */
  systemsAfterNumber: ['eu', 'uk', 'fr', 'au', 'jp'],
  /** Letter sizes and their normal form. */
  letters: {
    xxs: 'XXS', xs: 'XS', s: 'S', m: 'M', l: 'L', xl: 'XL', xxl: 'XXL', xxxl: 'XXXL', '2xl': 'XXL', '3xl': 'XXXL', '4xl': '4XL', '5xl': '5XL', xxxxl: '4XL',
    small: 'S', medium: 'M', med: 'M', large: 'L', 'x small': 'XS', 'extra small': 'XS', 'x large': 'XL', 'extra large': 'XL', 'xx large': 'XXL',
    'extra extra large': 'XXL', '2x': 'XXL', '3x': 'XXXL', os: 'One Size', 'one size': 'One Size', 'free size': 'One Size',
    // As stores write them on variants.
    xsmall: 'XS', xlarge: 'XL', xxlarge: 'XXL', xxsmall: 'XXS', 'xx small': 'XXS', 'o s': 'One Size', 'one size fits all': 'One Size',
  } as Readonly<Record<string, string>>,
  /** Letter sizes that mean a size even with no "size" or "in" before them. */
  standalone: ['xxs', 'xs', 'xl', 'xxl', 'xxxl', '2xl', '3xl', '4xl', '5xl', 'xxxxl'],
  /** Only "size" (not "in") may lead a number: "in 10" is too often something else. */
  numberLead: ['size', 'sz', 'sized', 'size is', 'in size', 'in a size', 'my size', 'my size is', 'wear a', 'i wear', 'i wear a'],
} as const;

/**
 * Words for a gender in a query beyond the taxonomy's gender cues. The taxonomy counts pronouns
 * as weak listing cues; in a query ("gift for him") they are as good as "mens".
 */
export const GENDER_WORDS: Readonly<Record<Gender, readonly string[]>> = {
  mens: ['him', 'his', 'guy', 'guys', 'dude', 'dad', 'father', 'husband', 'brother', 'grandpa', 'mans'],
  womens: ['her', 'hers', 'lady', 'mum', 'mom', 'mother', 'wife', 'sister', 'girlfriend', 'grandma', 'womans', 'ladys'],
  unisex: ['gender free', 'genderfree', 'non binary', 'nonbinary', 'for everyone', 'mens and womens', 'men and women', 'both genders'],
};

/** Shopper words for a taxonomy family that the taxonomy's cues (and their plurals) do not list. */
export const FAMILY_SYNONYMS: Readonly<Record<string, string>> = {
  trackies: 'joggers', trackie: 'joggers', sweats: 'joggers', khakis: 'trousers', undies: 'briefs', jocks: 'briefs', specs: 'glasses', mac: 'coat',
  'rain coat': 'coat', puffy: 'puffer', 'puffy jacket': 'puffer', windcheater: 'jacket', jammies: 'pyjamas', pj: 'pyjamas', nightwear: 'pyjamas',
  onesie: 'jumpsuit', boilersuit: 'jumpsuit', bathers: 'swimsuit', cossie: 'swimsuit', swimmers: 'swimsuit', 'bathing costume': 'swimsuit',
  longsleeve: 't shirt', sneaks: 'sneaker', lbd: 'dress',
};

/**
 * Words that name a whole slot rather than one family ("shoes", "tops", "bags"); the taxonomy
 * reads most of them as a generic family, a shopper means every family of the slot.
 */
export const SLOT_WORDS: Readonly<Record<string, Slot>> = {
  shoe: 'footwear', shoes: 'footwear', footwear: 'footwear', top: 'top', tops: 'top', bag: 'bag', bags: 'bag', accessory: 'accessory', accessories: 'accessory',
  jewellery: 'jewellery', jewelry: 'jewellery', bottoms: 'bottom', outerwear: 'outerwear', swimwear: 'swimwear', lingerie: 'underwear', underwear: 'underwear',
  sleepwear: 'sleepwear', eyewear: 'eyewear', hosiery: 'hosiery', headwear: 'headwear',
};

/** Pattern words the taxonomy's pattern cues leave out (it never cues `solid`). */
export const PATTERN_SYNONYMS: Readonly<Record<string, Pattern>> = { plain: 'solid', solid: 'solid', 'solid colour': 'solid', 'solid color': 'solid' };

/**
 * Occasions, seasons and styles: they raise products that suit them without filtering. Each
 * phrase's list is terms to boost (garment, fabric and style words the text search knows).
 */
export const OCCASIONS: Readonly<Record<string, readonly string[]>> = {
  wedding: ['dress', 'suit', 'blazer', 'midi', 'maxi', 'silk', 'satin', 'heels', 'formal shoe', 'clutch', 'tie', 'floral', 'formal'],
  'wedding guest': ['dress', 'suit', 'blazer', 'midi', 'maxi', 'silk', 'satin', 'heels', 'formal shoe', 'clutch', 'tie', 'floral'],
  summer: ['linen', 'cotton', 'dress', 'shorts', 'sandal', 't shirt', 'tank top', 'short sleeve', 'sun hat', 'sunglasses', 'floral', 'light', 'straw'],
  spring: ['floral', 'cotton', 'linen', 'light jacket', 'trench', 'dress', 'cardigan', 'pastel'],
  autumn: ['sweater', 'cardigan', 'jacket', 'boot', 'wool', 'knit', 'flannel', 'corduroy', 'coat'],
  fall: ['sweater', 'cardigan', 'jacket', 'boot', 'wool', 'knit', 'flannel', 'corduroy', 'coat'],
  winter: ['coat', 'puffer', 'parka', 'wool', 'cashmere', 'down', 'fleece', 'sweater', 'boot', 'beanie', 'scarf', 'gloves', 'shearling', 'knit', 'warm'],
  warm: ['wool', 'cashmere', 'down', 'fleece', 'puffer', 'shearling', 'knit', 'insulated', 'lined', 'thermal'],
  cold: ['coat', 'puffer', 'wool', 'down', 'fleece', 'sweater', 'beanie', 'scarf', 'gloves', 'thermal'],
  'black tie': ['tuxedo', 'suit', 'dinner jacket', 'bow tie', 'gown', 'maxi', 'dress', 'silk', 'satin', 'formal shoe', 'heels', 'clutch', 'formal', 'evening'],
  formal: ['suit', 'blazer', 'dress shirt', 'formal shoe', 'tie', 'gown', 'dress', 'heels', 'tailored', 'silk'],
  gala: ['gown', 'maxi', 'dress', 'tuxedo', 'suit', 'satin', 'silk', 'heels', 'clutch', 'evening'],
  prom: ['gown', 'maxi', 'dress', 'tuxedo', 'suit', 'satin', 'heels', 'clutch'],
  cocktail: ['dress', 'midi', 'mini', 'blazer', 'heels', 'clutch', 'satin', 'silk'],
  party: ['dress', 'mini', 'top', 'heels', 'clutch', 'satin', 'sequin', 'velvet'],
  'night out': ['dress', 'mini', 'top', 'heels', 'clutch', 'satin', 'sequin', 'jeans'],
  'date night': ['dress', 'blouse', 'top', 'heels', 'jeans', 'silk', 'satin'],
  office: ['blazer', 'trousers', 'shirt', 'blouse', 'formal shoe', 'loafer', 'suit', 'tailored', 'midi', 'pencil', 'knit', 'smart'],
  work: ['blazer', 'trousers', 'shirt', 'blouse', 'formal shoe', 'loafer', 'suit', 'tailored', 'midi', 'knit'],
  interview: ['suit', 'blazer', 'shirt', 'blouse', 'trousers', 'formal shoe', 'tie', 'tailored'],
  business: ['suit', 'blazer', 'shirt', 'trousers', 'formal shoe', 'tie', 'tailored'],
  smart: ['blazer', 'tailored', 'trousers', 'shirt', 'loafer', 'formal shoe', 'pleated', 'wool'],
  'smart casual': ['blazer', 'chino', 'shirt', 'polo', 'loafer', 'knit', 'trousers'],
  casual: ['t shirt', 'jeans', 'sneaker', 'hoodie', 'sweatshirt', 'cotton', 'relaxed'],
  beach: ['swimsuit', 'bikini', 'swim shorts', 'cover up', 'sandal', 'flip flop', 'sun hat', 'sunglasses', 'linen', 'shorts', 'kaftan', 'tote', 'straw'],
  'beach holiday': ['swimsuit', 'bikini', 'swim shorts', 'cover up', 'sandal', 'flip flop', 'sun hat', 'sunglasses', 'linen', 'shorts', 'kaftan', 'tote', 'straw', 'dress'],
  vacation: ['linen', 'dress', 'shorts', 'sandal', 'sun hat', 'sunglasses', 'swimsuit', 'tote', 'cotton'],
  holiday: ['linen', 'dress', 'shorts', 'sandal', 'sun hat', 'sunglasses', 'swimsuit', 'tote', 'party', 'festive'],
  resort: ['linen', 'dress', 'kaftan', 'sandal', 'sun hat', 'swimsuit', 'silk'],
  sunny: ['sun hat', 'straw', 'sunglasses', 'linen', 'cap', 'wide brim', 'light'],
  camping: ['fleece', 'jacket', 'rain jacket', 'boot', 'hiking', 'backpack', 'beanie', 'flannel', 'socks', 'shorts', 'wool', 'waterproof', 'outdoor'],
  hiking: ['hiking boot', 'boot', 'fleece', 'rain jacket', 'backpack', 'shorts', 'socks', 'waterproof', 'outdoor', 'wool'],
  outdoor: ['fleece', 'jacket', 'boot', 'backpack', 'waterproof', 'wool', 'hiking'],
  outdoors: ['fleece', 'jacket', 'boot', 'backpack', 'waterproof', 'wool', 'hiking'],
  rain: ['rain jacket', 'raincoat', 'waterproof', 'boot', 'umbrella', 'trench'],
  rainy: ['rain jacket', 'raincoat', 'waterproof', 'boot', 'umbrella', 'trench'],
  ski: ['puffer', 'fleece', 'beanie', 'gloves', 'goggles', 'thermal', 'waterproof', 'base layer'],
  gym: ['leggings', 'sports bra', 'joggers', 'sneaker', 'tank top', 'shorts', 't shirt', 'running'],
  workout: ['leggings', 'sports bra', 'joggers', 'sneaker', 'tank top', 'shorts', 't shirt'],
  running: ['running shoe', 'sneaker', 'shorts', 'leggings', 'tank top', 't shirt', 'running'],
  yoga: ['leggings', 'sports bra', 'tank top', 'yoga'],
  festival: ['shorts', 'boot', 'sunglasses', 'crop top', 'denim', 'bucket hat', 'fringe'],
  funeral: ['black', 'suit', 'dress', 'formal shoe', 'tie', 'navy'],
  graduation: ['dress', 'suit', 'blazer', 'heels', 'formal shoe', 'midi'],
  christmas: ['sweater', 'velvet', 'dress', 'party', 'festive', 'red', 'knit'],
  birthday: ['dress', 'top', 'party', 'heels'],
  brunch: ['dress', 'midi', 'blouse', 'sandal', 'linen', 'floral'],
  school: ['backpack', 'sneaker', 'hoodie', 'jeans', 't shirt'],
  travel: ['backpack', 'duffel', 'sneaker', 'joggers', 'jacket', 'relaxed'],
  lounging: ['joggers', 'hoodie', 'sweatshirt', 'pyjamas', 'relaxed'],
  lounge: ['joggers', 'hoodie', 'sweatshirt', 'pyjamas', 'relaxed'],
};

/**
 * Brands shoppers name. `footwear` brands keep the taxonomy's hint that they are sneakers;
 * `apparel` brands sell much more than shoes, so naming one sets no family.
 */
export const BRANDS: Readonly<Record<'footwear' | 'apparel', readonly string[]>> = {
  footwear: ['jordan', 'converse', 'vans', 'new balance', 'hoka', 'saucony', 'salomon', 'on cloud', 'yeezy', 'birkenstock', 'dr martens', 'timberland', 'ugg', 'crocs', 'clarks'],
  apparel: [
    'nike', 'adidas', 'puma', 'reebok', 'asics', 'kith', 'armani', 'levis', 'carhartt', 'patagonia', 'north face', 'the north face', 'champion', 'under armour',
    'ralph lauren', 'tommy hilfiger', 'calvin klein', 'gucci', 'prada', 'zara', 'uniqlo', 'supreme', 'stussy',
  ],
};

/** Weak colour names (colours.ts) that in a query are not a colour ("floral print dress"). */
export const NOT_COLOURS_IN_QUERIES: readonly string[] = ['print', 'mixed', 'assorted', 'natural', 'shell', 'water', 'pool', 'rock', 'fire', 'storm', 'cloud', 'ghost', 'skin'];

/**
 * Everyday words a shopper may type that must never be "corrected" to a near garment word
 * ("plain" is not "plaid", "well" is not "welly", "cost" is not "coat"). Words listed elsewhere
 * in this file or in the taxonomy are known already.
 */
export const KNOWN_WORDS: readonly string[] = [
  'well', 'cost', 'costs', 'costing', 'price', 'priced', 'prices', 'pricing', 'sell', 'sells', 'selling', 'cute', 'comfy', 'cosy', 'cozy', 'basic', 'basics',
  'classic', 'vintage', 'retro', 'modern', 'trendy', 'stylish', 'simple', 'elegant', 'sexy', 'pretty', 'fancy', 'dressy', 'sporty', 'chic', 'boho', 'preppy', 'edgy',
  'waterproof', 'breathable', 'lightweight', 'heavy', 'thick', 'thin', 'stretch', 'stretchy', 'pocket', 'pockets', 'button', 'buttons', 'zipper', 'sleeve',
  'sleeves', 'long', 'short', 'tall', 'big', 'little', 'plus', 'wide', 'narrow', 'new', 'old', 'latest', 'arrival', 'arrivals', 'gift', 'gifts', 'present',
  'color', 'colour', 'colors', 'colours', 'shade', 'match', 'matching', 'set', 'sets', 'style', 'styles', 'brand', 'store', 'online', 'order', 'ship', 'shipping',
  'return', 'returns', 'week', 'weekend', 'everyday', 'morning', 'night', 'day', 'hot', 'heat', 'dry', 'wet', 'than', 'then', 'them', 'they', 'their', 'there',
  'here', 'wants', 'love', 'like', 'likes', 'loved', 'wore', 'worn', 'wash', 'care', 'made', 'make', 'handmade', 'local', 'recycled', 'sustainable', 'ethical',
  'vegan', 'eco', 'fair', 'trade', 'quality', 'designer', 'custom', 'personalised', 'personalized', 'team', 'club', 'golf', 'soccer', 'surf', 'snow', 'dance',
  'bridal', 'bride', 'groom', 'mama', 'papa', 'fitting', 'true', 'matte', 'shiny', 'glitter', 'sequin', 'sequins', 'sheer', 'lined', 'padded', 'quilted', 'ribbed',
  'distressed', 'ripped', 'royal', 'sunny', 'sunday', 'size',
];
