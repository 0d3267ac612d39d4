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
  khakis: 'trousers', undies: 'briefs', jocks: 'briefs', specs: 'glasses', mac: 'coat', 'rain coat': 'coat', puffy: 'puffer', 'puffy jacket': 'puffer',
  jammies: 'pyjamas', pj: 'pyjamas', nightwear: 'pyjamas', bathers: 'swimsuit', cossie: 'swimsuit', swimmers: 'swimsuit', 'bathing costume': 'swimsuit',
  sneaks: 'sneaker', lbd: 'dress',
};

/**
 * Words that name a whole slot rather than one family ("shoes", "tops", "bags"); the taxonomy
 * reads most of them as a generic family, a shopper means every family of the slot.
 */
export const SLOT_WORDS: Readonly<Record<string, Slot>> = {
  shoe: 'footwear', shoes: 'footwear', footwear: 'footwear', top: 'top', tops: 'top', bag: 'bag', bags: 'bag', accessory: 'accessory', accessories: 'accessory',
  jewellery: 'jewellery', jewelry: 'jewellery', bottoms: 'bottom', outerwear: 'outerwear', swimwear: 'swimwear', lingerie: 'underwear', underwear: 'underwear',
  sleepwear: 'sleepwear', eyewear: 'eyewear', hosiery: 'hosiery', headwear: 'headwear', swim: 'swimwear', baggage: 'bag',
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
  hike: ['hiking boot', 'boot', 'fleece', 'rain jacket', 'backpack', 'shorts', 'socks', 'waterproof', 'outdoor', 'wool'],
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
  streetwear: ['hoodie', 'sneaker', 't shirt', 'graphic', 'oversized', 'cargo', 'jacket', 'cap', 'joggers'],
  'street style': ['hoodie', 'sneaker', 't shirt', 'graphic', 'oversized', 'cargo', 'jacket', 'cap'],
  lounging: ['joggers', 'hoodie', 'sweatshirt', 'pyjamas', 'relaxed'],
  lounge: ['joggers', 'hoodie', 'sweatshirt', 'pyjamas', 'relaxed'],
  athleisure: ['leggings', 'joggers', 'sports bra', 'hoodie', 'sweatshirt', 'sneaker', 'tank top', 'shorts', 'track', 'tracksuit', 'stretch'],
  activewear: ['leggings', 'sports bra', 'joggers', 'shorts', 'tank top', 't shirt', 'sneaker', 'track', 'stretch', 'running', 'yoga'],
  sportswear: ['leggings', 'sports bra', 'joggers', 'shorts', 'tank top', 't shirt', 'sneaker', 'track', 'tracksuit', 'running'],
  layering: ['cardigan', 'vest', 'gilet', 'overshirt', 'shacket', 'kimono', 'shrug', 'knit', 'tank top', 'turtleneck', 'light jacket'],
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
  // Asking for help choosing ("help me pick" is not "pink").
  'pick', 'picks', 'picked', 'choose', 'choosing', 'chose', 'decide', 'deciding', 'select', 'prefer', 'opinion', 'advice',
];

// ---------------------------------------------------------------------------------------------
// The stylist agent's words (domain/agent/stylist reads them; search does not). They say what a
// chat message asks the stylist to do: refine the last answer, put a look together, change the
// cart, answer a store question. What the shopper wants (garment, colour, size, budget, gender,
// occasion) is still read by understandQuery above, after these phrases are taken out.
// ---------------------------------------------------------------------------------------------

/** What a phrase of a chat message asks of the stylist. */
export type AgentCue =
  | 'greeting' | 'thanks' | 'yes' | 'open' | 'gift' | 'look' | 'pair' | 'cheaper' | 'pricier' | 'other' | 'otherColour' | 'instead'
  | 'anySize' | 'this' | 'add' | 'remove' | 'swap' | 'resize' | 'sizeUp' | 'sizeDown' | 'quantity' | 'cart' | 'sizes' | 'price' | 'stock' | 'skip';

/** Phrases that carry their cue anywhere in a message; a phrase may carry several cues. */
export const AGENT_PHRASES: Readonly<Partial<Record<AgentCue, readonly string[]>>> = {
  greeting: [
    'hi', 'hello', 'hey', 'hiya', 'heya', 'howdy', 'hi there', 'hello there', 'hey there', 'good morning', 'good afternoon', 'good evening', 'greetings', 'hola', 'bonjour', 'ciao',
    'hallo', 'how are you', 'who are you', 'are you a bot', 'are you human', 'are you real', 'whats your name', 'what is your name', 'tell me a joke', 'tell me about yourself',
  ],
  thanks: ['thanks', 'thank you', 'thank u', 'thanks a lot', 'many thanks', 'thx', 'ty', 'cheers', 'thats all', 'thats it', 'bye', 'goodbye', 'see you', 'looks good', 'looks great', 'looks nice', 'looks lovely', 'looks perfect', 'looks amazing', 'love it', 'love them', 'love these'],
  open: [
    'help', 'help me', 'can you help', 'i need help', 'what do you have', 'what do you sell', 'what have you got', 'what do you recommend', 'any recommendations', 'recommendations',
    'recommend something', 'inspiration', 'inspire me', 'surprise me', 'not sure', 'i dont know', 'idk', 'show me something', 'whats new', 'new in', 'new arrivals', 'bestsellers',
    'best sellers', 'popular', 'trending', 'whats hot', 'help me choose', 'help me find', 'what do you think', 'what can you do',
  ],
  gift: ['gift', 'gifts', 'gift ideas', 'gift idea', 'present', 'presents', 'birthday present', 'christmas present', 'stocking stuffer', 'stocking filler'],
  look: [
    'outfit', 'outfits', 'look', 'looks', 'a look', 'full look', 'whole look', 'complete the look', 'complete my look', 'complete the outfit', 'complete my outfit', 'finish the look',
    'finish the outfit', 'finish my look', 'style it', 'style this', 'style them', 'style these', 'style me', 'dress me', 'how to style', 'how do i style', 'how would you style',
    'how should i style', 'how to wear', 'how do i wear', 'how should i wear', 'what should i wear', 'what do i wear', 'what to wear', 'what can i wear', 'what would you wear',
    'what would i wear', 'what shall i wear', 'what should he wear', 'what should she wear', 'put together',
    'put an outfit together', 'head to toe', 'ensemble', 'capsule', 'capsule wardrobe', 'another look', 'another outfit', 'different look', 'a different look', 'cheaper look',
  ],
  /** The garment after these is the one the look is built around ("what goes with these jeans"). */
  pair: [
    'what goes with', 'goes with', 'goes well with', 'go with', 'go well with', 'to go with', 'would go with', 'pair with', 'pair it with', 'pair them with', 'pairs with',
    'pairs well with', 'match with', 'to match', 'that matches', 'wear with', 'wear it with', 'wear them with', 'to wear with', 'style with', 'team with', 'works with',
  ],
  cheaper: [
    'cheaper', 'less expensive', 'lower price', 'lower priced', 'more affordable', 'too expensive', 'too pricey', 'too much', 'cheaper ones', 'cheaper options', 'something cheaper',
    'lower budget', 'less money', 'spend less', 'cost less', 'budget friendly', 'cheaper look', 'cheapest', 'show cheaper',
  ],
  pricier: ['more expensive', 'pricier', 'higher end', 'better quality', 'more premium', 'more upscale', 'nicer ones'],
  other: [
    'something else', 'anything else', 'other options', 'other ones', 'others', 'different ones', 'something different', 'more options', 'show more', 'show me more', 'see more',
    'more please', 'any others', 'not these', 'none of these', 'not those', 'dont like these', 'dont like them', 'dont like those', 'what else', 'else', 'another look', 'another outfit',
    'different look', 'a different look', 'other looks', 'more looks', 'next ones', 'more of these', 'more like these',
  ],
  otherColour: ['any colour', 'any color', 'any colours', 'any colors', 'all colours', 'all colors', 'other colours', 'other colors', 'different colour', 'different color', 'another colour', 'another color', 'what colours', 'what colors', 'which colours', 'which colors', 'more colours', 'more colors'],
  anySize: ['any size', 'any sizes', 'all sizes', 'every size'],
  instead: ['instead', 'rather', 'show all', 'how about', 'what about', 'and what about', 'or maybe', 'any in', 'same in', 'same but', 'same one in', 'but in', 'now in', 'now for'],
  this: [
    'this', 'it', 'that', 'these', 'those', 'them', 'this one', 'that one', 'these ones', 'those ones', 'the one', 'same one', 'this item', 'this product',
    'than this', 'than that', 'than these', 'than those', 'than it', 'than this one',
  ],
  add: ['add', 'add to cart', 'add to my cart', 'add to bag', 'add to my bag', 'add to basket', 'put in my cart', 'put it in my cart', 'put them in my cart', 'ill take', 'ill take it', 'i will take', 'buy it', 'buy this', 'buy that', 'ill buy', 'purchase'],
  remove: ['remove', 'delete', 'take out', 'take off', 'get rid of', 'dont want', 'no longer want', 'dont need'],
  swap: ['swap', 'switch', 'exchange', 'replace', 'trade', 'change', 'swap out', 'switch out', 'change out'],
  resize: ['change the size', 'change size', 'change its size', 'different size', 'another size', 'other size', 'wrong size', 'in a different size', 'exchange for size', 'swap size'],
  sizeUp: ['size up', 'a size up', 'one size up', 'a size bigger', 'one size bigger', 'bigger size', 'larger size', 'a bigger size', 'a larger size', 'bigger one', 'too small', 'too tight'],
  sizeDown: ['size down', 'a size down', 'one size down', 'a size smaller', 'one size smaller', 'smaller size', 'a smaller size', 'smaller one', 'too big', 'too large', 'too loose'],
  quantity: ['make', 'make it', 'make that', 'make them', 'make this', 'of the', 'pairs of', 'pieces of', 'quantity to', 'quantity of', 'quantity', 'change the quantity', 'change quantity', 'of those', 'of these', 'of them', 'of that', 'of this', 'of it', 'one more', 'another one', 'add another', 'add one more', 'double it'],
  cart: ['cart', 'my cart', 'the cart', 'in my cart', 'basket', 'my basket', 'trolley', 'checkout', 'my bag', 'in my bag', 'my order'],
  /** Questions about one product: which sizes, what it costs, whether it can be bought. */
  sizes: ['what sizes', 'which sizes', 'what size', 'sizes available', 'available sizes', 'sizes does', 'come in', 'comes in', 'size range', 'in my size'],
  price: ['how much', 'how much is', 'what does it cost', 'what is the price', 'whats the price', 'price of', 'cost of', 'how expensive'],
  stock: ['in stock', 'still available', 'available', 'sold out', 'out of stock', 'can i buy', 'can i get'],
  /** Said, but nothing to do: taken out so search does not read them as words ("look for", "can you"). */
  skip: [
    'can you look for', 'could you look for', 'please look for', 'help me look for', 'to look for', 'you look for', 'i look for', 'lets look for', 'look at', 'take a look',
    'have a look', 'looking at', 'can you', 'could you', 'would you', 'id like', 'i would like', 'im after', 'i am after', 'please', 'also', 'now', 'maybe', 'perhaps', 'options',
    'option', 'all', 'do you have', 'do you have any', 'have you got', 'got any', 'do you sell', 'do you carry', 'whats', 'what is', 'whats in', 'show', 'hmm', 'hm', 'um', 'umm',
    'uh', 'erm', 'new', 'a new', 'some new', 'i like', 'i love', 'i really like', 'i quite like', 'can i see', 'let me see', 'see', 'i see', 'tell me', 'tell', 'joke', 'thinking',
    'im thinking', 'i was thinking', 'if possible', 'nothing too', 'not too', 'i have', 'ive got', 'coming up', 'next week', 'next month', 'this weekend', 'next weekend', 'soon',
    'going to', 'im going to', 'i am going to', 'wondering', 'i was wondering', 'something like',
  ],
};

/** Verbs at the start of a message, not a request for a look ("look for a red dress"). */
export const AGENT_SKIP_AT_START: readonly string[] = ['look for', 'look up', 'look at', 'looking for', 'find'];

/** Phrases that carry their cue only as the whole message (after the skipped words): "more", "ok". */
export const AGENT_ALONE: Readonly<Partial<Record<AgentCue, readonly string[]>>> = {
  thanks: ['great', 'perfect', 'awesome', 'amazing', 'lovely', 'nice', 'cool', 'good', 'ok', 'okay', 'got it', 'great thanks', 'perfect thanks', 'done', 'all good', 'thats great'],
  yes: ['yes', 'yeah', 'yep', 'yup', 'sure', 'please do', 'go ahead', 'do it', 'sounds good', 'lets do it'],
  other: ['more', 'next', 'other', 'different', 'no', 'nope', 'not really', 'no thanks', 'nah', 'another', 'again'],
  open: ['anything', 'something', 'clothes', 'shopping', 'browse', 'ideas', 'suggestions', 'what', 'hmm', 'um'],
};

/** Questions about the store rather than its products: the stylist points to the store's own site. */
export const POLICY_PHRASES: Readonly<Record<'returns' | 'shipping' | 'payment' | 'orders' | 'discounts' | 'sizing' | 'contact', readonly string[]>> = {
  returns: ['return', 'returns', 'return policy', 'returning', 'refund', 'refunds', 'money back', 'exchange policy', 'exchanges', 'can i exchange', 'how do i exchange', 'warranty', 'guarantee'],
  shipping: ['shipping', 'ship', 'ships to', 'do you ship', 'delivery', 'deliver', 'delivered', 'dispatch', 'postage', 'courier', 'customs', 'duties', 'import tax', 'international', 'how long to arrive', 'when will it arrive', 'arrive by', 'pickup', 'click and collect'],
  payment: ['payment', 'payments', 'pay', 'paypal', 'klarna', 'afterpay', 'installments', 'instalments', 'credit card', 'apple pay', 'cash on delivery'],
  orders: ['my order', 'order status', 'track my order', 'tracking', 'tracking number', 'where is my order', 'cancel my order', 'change my order', 'my package', 'my parcel'],
  discounts: ['promo code', 'discount code', 'coupon', 'voucher code', 'gift card balance', 'loyalty', 'student discount', 'newsletter'],
  sizing: ['size guide', 'size chart', 'sizing guide', 'fit guide', 'true to size', 'run small', 'runs small', 'run large', 'runs large', 'what size should i', 'which size should i'],
  contact: ['contact', 'customer service', 'customer support', 'phone number', 'email you', 'talk to someone', 'talk to a human', 'store hours', 'opening hours', 'your address', 'physical store', 'privacy'],
};

/** How many, in words ("make it two", "a couple of those"). */
export const QUANTITY_WORDS: Readonly<Record<string, number>> = {
  one: 1, single: 1, two: 2, couple: 2, 'a couple': 2, double: 2, twice: 2, three: 3, triple: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
};

/** Words before a number that point at a product on screen ("number 2", "option 3"). */
export const ORDINAL_LEADS: readonly string[] = ['number', 'no', 'option', 'item'];

/** Words that split a cart swap into the line and what replaces it ("swap the shoes for the black ones"). */
export const SWAP_JOINERS: readonly string[] = ['for', 'with', 'to', 'into', 'by'];

/** Which of the products on screen ("the second one", "the last"); -1 is the last. */
export const ORDINAL_WORDS: Readonly<Record<string, number>> = {
  first: 1, '1st': 1, second: 2, '2nd': 2, third: 3, '3rd': 3, fourth: 4, '4th': 4, fifth: 5, '5th': 5, sixth: 6, '6th': 6, seventh: 7, '7th': 7, eighth: 8, '8th': 8, last: -1, 'the last': -1,
};

/** Occasions (keys of OCCASIONS) grouped by how dressed up a look should be; an occasion not listed is casual. */
export const LOOK_OCCASIONS: Readonly<Record<'tailored' | 'formal' | 'smart' | 'active' | 'beach' | 'hot' | 'cold', readonly string[]>> = {
  tailored: ['interview', 'business', 'office', 'work'],
  formal: ['wedding', 'wedding guest', 'black tie', 'formal', 'gala', 'prom', 'cocktail', 'graduation', 'interview', 'business', 'funeral'],
  smart: ['office', 'work', 'smart', 'smart casual', 'date night', 'party', 'night out', 'birthday', 'christmas', 'brunch', 'holiday'],
  active: ['gym', 'workout', 'running', 'yoga', 'hiking', 'hike', 'camping', 'outdoor', 'outdoors', 'ski', 'athleisure', 'activewear', 'sportswear'],
  beach: ['beach', 'beach holiday', 'vacation', 'resort'],
  hot: ['summer', 'sunny', 'beach', 'beach holiday', 'resort', 'festival'],
  cold: ['winter', 'autumn', 'fall', 'cold', 'warm', 'rain', 'rainy', 'ski', 'camping', 'hiking', 'hike'],
};

/** How replies name occasions: events take "a" ("for a summer wedding"), styles go before "look" ("casual looks"). */
export const OCCASION_WORDING: Readonly<Record<'events' | 'styles' | 'places', readonly string[]>> = {
  events: [
    'wedding', 'wedding guest', 'black tie', 'gala', 'prom', 'cocktail', 'graduation', 'interview', 'funeral', 'party', 'night out', 'date night', 'birthday', 'brunch',
    'beach holiday', 'festival', 'vacation', 'holiday', 'trip',
  ],
  styles: ['casual', 'smart', 'smart casual', 'formal', 'warm'],
  /** Places said with "the" ("for the gym"). */
  places: ['gym', 'beach', 'office', 'outdoors'],
};

/** Words that name whom a piece is for beyond search's gender words ("for my daughter"); "boyfriend" alone is a jeans fit. */
export const FAMILY_MEMBERS: Readonly<Record<string, { gender?: Gender; age?: 'kids' | 'baby' }>> = {
  daughter: { gender: 'womens', age: 'kids' }, daughters: { gender: 'womens', age: 'kids' }, son: { gender: 'mens', age: 'kids' }, sons: { gender: 'mens', age: 'kids' },
  niece: { gender: 'womens', age: 'kids' }, nephew: { gender: 'mens', age: 'kids' }, granddaughter: { gender: 'womens', age: 'kids' }, grandson: { gender: 'mens', age: 'kids' },
  kiddo: { age: 'kids' }, kiddos: { age: 'kids' }, 'little one': { age: 'kids' }, newborn: { age: 'baby' }, 'baby girl': { gender: 'womens', age: 'baby' }, 'baby boy': { gender: 'mens', age: 'baby' },
  girlfriend: { gender: 'womens' }, 'my boyfriend': { gender: 'mens' }, partner: {}, friend: {}, bestie: {}, colleague: {}, boss: {}, teacher: {},
};

/** Words that name a grown-up audience without a gender ("for adults"); search's gender words ("for women") name one too. */
export const ADULT_WORDS: readonly string[] = ['adult', 'adults', 'grown up', 'grown ups', 'grownup', 'grownups'];

/** How a shopper shifts the style of what is on screen, as the occasion (a key of OCCASIONS) it means. */
export const STYLE_SHIFTS: Readonly<Record<string, string>> = {
  smarter: 'smart', 'more smart': 'smart', dressier: 'formal', 'more dressy': 'formal', 'more formal': 'formal', fancier: 'formal', 'more elegant': 'formal',
  'more casual': 'casual', 'less formal': 'casual', 'less dressy': 'casual', 'more relaxed': 'casual', 'more laid back': 'casual', 'more chill': 'casual',
  sportier: 'gym', 'more sporty': 'gym', warmer: 'winter', 'something warmer': 'winter', cooler: 'summer', lighter: 'summer',
};

/** Occasions the stylist offers when a look request names none (keys of OCCASIONS, as chips). */
export const LOOK_OCCASION_CHOICES: readonly string[] = ['casual', 'work', 'date night', 'wedding guest', 'night out', 'vacation'];
