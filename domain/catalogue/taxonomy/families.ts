// The families of each slot and the words that name them. `cues` name the family outright;
// `weak` cues hint at it (a generic word, a style or model name) and lose to any plain cue.
// Plurals are added by the matcher; list singular forms and irregular spellings. Pure data.
import type { Gender, Slot } from '../vocabulary.js';

export interface FamilyDefinition {
  slot: Slot;
  family: string;
  cues: string[];
  weak: string[];
  /** Feature axes that apply to this family, see features.ts. */
  axes: string[];
  /** The gender the family implies when the listing names none (a dress is womenswear). */
  gender?: Exclude<Gender, 'unisex'>;
}

const list = (text: string): string[] => (text ? text.split(',').map((s) => s.trim()).filter(Boolean) : []);

function f(slot: Slot, family: string, cues: string, weak = '', axes = '', gender?: FamilyDefinition['gender']): FamilyDefinition {
  return { slot, family, cues: list(cues), weak: list(weak), axes: list(axes), ...(gender ? { gender } : {}) };
}

const TOP_AXES = 'sleeve length, neckline, length';
const DRESS_AXES = 'sleeve length, neckline, dress length, silhouette';
const TROUSER_AXES = 'rise, leg shape, length';
const SHOE_AXES = 'closure, heel height, profile';

export const FAMILIES: readonly FamilyDefinition[] = [
  // top
  f('top', 't shirt', 't shirt, tshirt, tee, tee shirt, ringer tee, muscle tee, baby tee, henley, graphic tee, longsleeve, long sleeve tee', 'jersey, waffle, waffle knit', TOP_AXES),
  f('top', 'shirt', 'shirt, button down shirt, button up shirt, button down, button up, overshirt, oxford shirt, dress shirt, flannel shirt, camp shirt, chambray shirt', 'oxford, flannel, chambray', 'sleeve length, collar, length'),
  f('top', 'blouse', 'blouse, peasant top, chemise', '', TOP_AXES, 'womens'),
  f('top', 'polo', 'polo, polo shirt, polo tee, rugby shirt', '', 'sleeve length, length'),
  f('top', 'tank top', 'tank top, tank, singlet, vest top, muscle top, tube top, halter top, racerback, racerback tank, bandeau, bandeau top', '', 'neckline, length'),
  f('top', 'camisole', 'camisole, cami, cami top, strappy top', '', 'neckline, length', 'womens'),
  f('top', 'sweater', 'sweater, jumper, pullover, knit sweater, turtleneck, roll neck, knitwear, knit top, sweater vest', 'knit, crewneck, mock neck', TOP_AXES),
  f('top', 'cardigan', 'cardigan, cardi, knit jacket', '', 'closure, length'),
  f('top', 'hoodie', 'hoodie, hoody, hooded sweatshirt, hooded top, zip hoodie, hooded pullover, hoody jacket, hoodie jacket', '', 'closure, length'),
  f('top', 'sweatshirt', 'sweatshirt, sweat shirt, sweatershirt, crewneck sweatshirt, crew sweat, fleece top, track top, quarter zip, half zip, 1 4 zip, quarter zip pullover, half zip pullover, 1 4 zip pullover', '', 'closure, length'),
  f('top', 'bodysuit', 'bodysuit, body suit, leotard', '', TOP_AXES, 'womens'),
  f('top', 'tunic', 'tunic, kaftan top', '', TOP_AXES),
  f('top', 'kurta', 'kurta, kurti, kurtis, kameez', '', 'sleeve length, neckline, length'),
  f('top', 'shrug', 'shrug, bolero', '', 'sleeve length', 'womens'),
  f('top', 'corset', 'corset, bustier, corset top', '', 'neckline', 'womens'),
  f('top', 'top', 'top, crop top, blouson top, wrap top', 'crop', TOP_AXES),
  // bottom
  f('bottom', 'jeans', 'jeans, jean, denim jeans, denim pant, denims', 'jegging', TROUSER_AXES),
  f('bottom', 'trousers', 'trousers, trouser, pant, chino, slacks, cargo pant, cargo, palazzo, culotte, capri, dress pant, wide leg pant, cigarette pant, pantalon', 'cropper', TROUSER_AXES),
  f('bottom', 'joggers', 'jogger, track pant, trackpant, sweatpant, sweat pant, jogging bottom, track bottom, tracksuit bottom, jogging pant, trackie, trackie bottom, sweats', '', 'rise, leg shape'),
  f('bottom', 'shorts', 'shorts, short, bermuda, hot pant, bike short, cycling short, running short, jort', '', 'rise, length'),
  f('bottom', 'skirt', 'skirt, skort, mini skirt, midi skirt, maxi skirt, jupe, booty warmer, skirt warmer', '', 'rise, skirt length, silhouette', 'womens'),
  f('bottom', 'leggings', 'leggings, legging, jeggings, jegging, yoga pant, running tight, gym tight', '', 'rise, length', 'womens'),
  f('bottom', 'salwar', 'salwar, churidar, patiala, dhoti pant', '', '', 'womens'),
  // full body
  f('full body', 'dress', 'dress, gown, frock, sundress, coatdress, shirtdress, slip dress, maxi dress, midi dress, mini dress, shirt dress, sweater dress, jumper dress, jumperdress, pinafore, robe dress, kleid', 'maxi, midi', DRESS_AXES, 'womens'),
  f('full body', 'jumpsuit', 'jumpsuit, boiler suit, boilersuit, catsuit, unitard, onesie', '', 'sleeve length, leg shape', 'womens'),
  f('full body', 'playsuit', 'playsuit, romper', '', 'sleeve length', 'womens'),
  f('full body', 'dungarees', 'dungarees, overalls, dungaree, overall, coverall', '', 'leg shape'),
  f('full body', 'saree', 'saree, sari', '', '', 'womens'),
  f('full body', 'lehenga', 'lehenga, lehenga choli, ghagra', '', '', 'womens'),
  f('full body', 'kurta set', 'kurta set, salwar suit, kurta pyjama, kurta with pyjama, kurta with churidar, kurta with salwar, anarkali', '', ''),
  f('full body', 'suit', 'suit, two piece suit, three piece suit, tuxedo, tux, suit set', '', 'closure', 'mens'),
  f('full body', 'tracksuit', 'tracksuit, track suit, jogging suit, sweatsuit', '', ''),
  // outerwear
  f('outerwear', 'jacket', 'jacket, bomber, windbreaker, anorak, shacket, denim jacket, leather jacket, biker jacket, trucker jacket, harrington, rain jacket, softshell, shell jacket, field jacket, chore jacket, varsity jacket, jacke, veste, jkt, windcheater', 'bomberesque', 'closure, length, hood'),
  f('outerwear', 'coat', 'coat, overcoat, trench, trench coat, parka, peacoat, pea coat, topcoat, raincoat, duffle coat, car coat, manteau, mantel', '', 'closure, length, hood'),
  f('outerwear', 'blazer', 'blazer, sport coat, sports coat, suit jacket, tuxedo jacket, dinner jacket', '', 'closure'),
  f('outerwear', 'vest', 'vest, gilet, waistcoat, bodywarmer, body warmer, nehru jacket, puffer vest, down vest', '', 'closure'),
  f('outerwear', 'puffer', 'puffer, puffer jacket, down jacket, quilted jacket, padded jacket, puffa, down coat, puffer coat', '', 'length, hood'),
  f('outerwear', 'poncho', 'poncho, cape, cloak', '', ''),
  f('outerwear', 'kimono', 'kimono, duster', '', 'length'),
  f('outerwear', 'fleece', 'fleece jacket, fleece, half zip fleece, sherpa jacket', '', 'closure'),
  // footwear
  f('footwear', 'sneaker', 'sneaker, trainer, sneakerina, tenis, dad shoe, nike blazer, blazer low, blazer mid, kicks, running shoe, sports shoe, tennis shoe, basketball shoe, skate shoe, plimsoll, high top, hi top, low top, casual shoe, athletic shoe, walking shoe, gym shoe, runner, sneakers', 'air max, air force, air jordan, jordan, dunk, yeezy, samba, gazelle, stan smith, superstar, roshe, chuck taylor, all star, old skool, sk8 hi, slip on, new balance, spezial, gel lyte, gel kayano, gel nyc, adistar, handball, v2k, campus, speedcat, onitsuka tiger, mexico 66, cloudtilt, cloudnova, knu skool, knu stack, vomero, cortez, forum, ultraboost, adiracer, court legacy, nike, adidas, puma, asics, reebok, converse, vans, saucony, hoka, salomon, on cloud', SHOE_AXES),
  f('footwear', 'boot', 'boot, bootie, booty, chelsea boot, ankle boot, combat boot, wellington, welly, wellies, hiking boot, work boot, cowboy boot, stiefel', '', 'closure, heel height, shaft'),
  f('footwear', 'sandal', 'sandal, slide, sports sandal, gladiator, espadrille, sliders, floater, peep toe sandal, fisherman sandal', '', 'closure, heel height'),
  f('footwear', 'flip flop', 'flip flop, flipflop, thong sandal, chappal, jandal, flip slipper, flip', '', ''),
  f('footwear', 'heels', 'heels, heel, pump, stiletto, court shoe, wedge, slingback, platform heel, high heel, kitten heel, block heel', 'peep toe', 'heel height, closure', 'womens'),
  f('footwear', 'flat', 'flats, ballet flat, ballerina, ballet pump, flat shoe', '', 'closure', 'womens'),
  f('footwear', 'loafer', 'loafer, moccasin, boat shoe, driving shoe, penny loafer', '', 'heel height'),
  f('footwear', 'formal shoe', 'formal shoe, oxford shoe, derby, derby shoe, brogue, dress shoe, monk strap, lace up shoe', '', 'closure'),
  f('footwear', 'mule', 'mule, clog, slipper, house shoe', '', 'heel height'),
  f('footwear', 'shoe', 'shoe, footwear, schuh, chaussure', '', SHOE_AXES),
  // bag
  f('bag', 'handbag', 'handbag, hand bag, purse, top handle bag, satchel, hobo bag, bucket bag, baguette', '', 'strap', 'womens'),
  f('bag', 'tote', 'tote, tote bag, shopper, shopping bag, beach bag', '', 'strap'),
  f('bag', 'backpack', 'backpack, rucksack, daypack, knapsack, back pack, school bag', '', ''),
  f('bag', 'crossbody', 'crossbody, cross body, crossbody bag, messenger bag, sling bag, messenger, camera bag', '', 'strap'),
  f('bag', 'shoulder bag', 'shoulder bag', '', 'strap'),
  f('bag', 'clutch', 'clutch, clutch bag, evening bag, pochette, minaudiere', '', 'strap', 'womens'),
  f('bag', 'belt bag', 'belt bag, bum bag, fanny pack, waist bag, waist pouch, hip bag', '', ''),
  f('bag', 'duffel', 'duffel, duffle, duffel bag, duffle bag, weekender, holdall, gym bag, travel bag, overnight bag, trolley, suitcase, luggage', '', ''),
  f('bag', 'laptop bag', 'laptop bag, briefcase, laptop sleeve, portfolio bag, tablet sleeve', '', ''),
  f('bag', 'pouch', 'pouch, makeup bag, cosmetic bag, toiletry bag, wash bag, lunch bag, mobile pouch', '', ''),
  f('bag', 'bag', 'bag, tasche, sac, baggage', '', 'strap'),
  // accessory
  f('accessory', 'belt', 'belt, belts, waist belt, gurtel', '', ''),
  f('accessory', 'tie', 'tie, necktie, bow tie, bowtie, skinny tie, cravat', '', '', 'mens'),
  f('accessory', 'scarf', 'scarf, scarves, stole, shawl, bandana, neck warmer, neck cozy, neck bandeau, snood, muffler, dupatta, wrap scarf, pashmina, foulard, neckerchief', 'wrap', ''),
  f('accessory', 'gloves', 'gloves, glove, mittens, mitten, mitts, fingerless gloves, arm warmer, opera sleeve', '', ''),
  f('accessory', 'wallet', 'wallet, card holder, cardholder, card case, coin purse, billfold, money clip, passport holder', '', ''),
  f('accessory', 'watch', 'watch, wristwatch, smartwatch, chronograph', '', 'display'),
  f('accessory', 'umbrella', 'umbrella, parasol', '', ''),
  f('accessory', 'suspenders', 'suspenders, braces', '', '', 'mens'),
  f('accessory', 'hair accessory', 'scrunchie, hair clip, hair tie, hairband, hair band, claw clip, barrette, hair pin, bobby pin', '', ''),
  f('accessory', 'keyring', 'keyring, key ring, keychain, key chain, bag charm, lanyard', '', ''),
  f('accessory', 'pocket square', 'pocket square, handkerchief, hanky', '', ''),
  f('accessory', 'face mask', 'face mask, mask', '', ''),
  f('accessory', 'accessory', '', 'accessory, accessories', ''),
  // jewellery
  f('jewellery', 'necklace', 'necklace, pendant, choker, neckpiece, neck piece, chain necklace, locket, mangalsutra', 'chain', 'metal'),
  f('jewellery', 'earrings', 'earrings, earring, studs, stud earring, hoops, hoop earring, ear cuff, drop earring, jhumka', '', 'metal', 'womens'),
  f('jewellery', 'bracelet', 'bracelet, bangle, cuff bracelet, charm bracelet, kada', '', 'metal'),
  f('jewellery', 'ring', 'ring, signet ring, band ring, stacking ring', '', 'metal'),
  f('jewellery', 'anklet', 'anklet, toe ring, payal', '', 'metal', 'womens'),
  f('jewellery', 'brooch', 'brooch, lapel pin, enamel pin, pin badge, pin', '', 'metal'),
  f('jewellery', 'cufflinks', 'cufflinks, cufflink, cuff links, tie clip, tie bar, tie pin', '', 'metal', 'mens'),
  f('jewellery', 'jewellery set', 'jewellery set, jewelry set, necklace set, earring and pendant set, jewellery', 'jewelry', 'metal', 'womens'),
  // headwear
  f('headwear', 'cap', 'cap, baseball cap, snapback, trucker cap, trucker hat, dad hat, flat cap, ball cap, fitted cap, peak cap, strapback, 5 panel, five panel, 6 panel, six panel', '', 'brim'),
  f('headwear', 'hat', 'hat, chapeau, fedora, panama, sun hat, straw hat, boater, trilby, cowboy hat, wide brim hat, bucket hat, cloche, droop hat', '', 'brim'),
  f('headwear', 'beanie', 'beanie, toque, tuque, knit hat, watch cap, bobble hat, pom pom hat, woolly hat', '', ''),
  f('headwear', 'headband', 'headband, head band, turban, head wrap, headscarf, bandeau headband, ear warmer, ear cozy, earmuff, earmuffs, ear muff', '', ''),
  f('headwear', 'beret', 'beret', '', ''),
  f('headwear', 'balaclava', 'balaclava, ski mask', '', ''),
  // eyewear
  f('eyewear', 'sunglasses', 'sunglasses, sunglass, sunnies, shades, aviators', '', 'frame shape'),
  f('eyewear', 'glasses', 'glasses, eyeglasses, spectacles, optical frame, reading glasses, blue light glasses, eyewear', '', 'frame shape'),
  f('eyewear', 'goggles', 'goggles, ski goggles, swim goggles', '', ''),
  // hosiery
  f('hosiery', 'socks', 'socks, sock, ankle sock, crew sock, no show sock, trainer sock, chaussette', '', 'sock height'),
  f('hosiery', 'tights', 'tights, pantyhose, stockings, stocking, hosiery, hold ups, fishnets, leg warmer, leg warmers', '', '', 'womens'),
  // underwear
  f('underwear', 'bra', 'bra, bralette, sports bra, push up bra, balconette, brassiere', '', '', 'womens'),
  f('underwear', 'briefs', 'briefs, brief, panties, panty, knickers, thong, g string, hipster brief, bikini brief, underpants', '', ''),
  f('underwear', 'boxers', 'boxers, boxer, boxer briefs, boxer shorts, trunk, trunks', '', '', 'mens'),
  f('underwear', 'undershirt', 'undershirt, innerwear vest, thermal top, base layer, vest innerwear', '', ''),
  f('underwear', 'shapewear', 'shapewear, slip, body shaper, girdle', '', '', 'womens'),
  f('underwear', 'lingerie', 'lingerie, underwear, lingerie set, teddy, garter, innerwear', '', ''),
  // sleepwear
  f('sleepwear', 'pyjamas', 'pyjamas, pajamas, pyjama, pajama, pjs, pj set, sleep set, night suit, nightsuit, lounge pant, lounge set, sleep pant, sleep short, loungewear', '', ''),
  f('sleepwear', 'nightdress', 'nightdress, nightgown, nightie, nighty, sleep shirt, nightshirt, night shirt, sleep dress, night dress', '', '', 'womens'),
  f('sleepwear', 'robe', 'robe, bathrobe, dressing gown, kimono robe, housecoat, lounge robe', '', ''),
  // swimwear
  f('swimwear', 'bikini', 'bikini, bikini top, bikini bottom, tankini, swim top', '', '', 'womens'),
  f('swimwear', 'swimsuit', 'swimsuit, swimming costume, bathing suit, one piece swimsuit, monokini, swimwear, swim suit', 'one piece, swim', '', 'womens'),
  f('swimwear', 'swim shorts', 'swim shorts, swim short, swim trunks, swim trunk, board shorts, boardshorts, boardshort, board short, swim brief', '', '', 'mens'),
  f('swimwear', 'rash guard', 'rash guard, rashguard, rash vest, swim shirt, wetsuit', '', ''),
  f('swimwear', 'cover up', 'cover up, coverup, sarong, pareo, beach dress, beach kaftan, kaftan, caftan', '', ''),
  // non fashion
  f('non fashion', 'home', 'mug, cup, candle, pillow, cushion, blanket, towel, stool, chair, vase, plate, bowl, bottle, tumbler, blanket, home decor, poster, rug, lamp, headlamp', 'home, homeware, housewares, home goods, kitchen, home decor, decor, living', ''),
  f('non fashion', 'beauty', 'soap, skincare, skin care, perfume, fragrance, cologne, eau de parfum, eau de toilette, lipstick, lip balm, lotion, moisturiser, moisturizer, shampoo, conditioner, deodorant, nail polish, serum, makeup, cosmetic, beard oil, grooming kit', '', ''),
  f('non fashion', 'sports equipment', 'snowboard, ski, skis, ski wax, surfboard, skateboard, skate deck, yoga mat, dumbbell, racket, racquet, football, basketball, tent, sleeping bag, bike, bicycle', '', ''),
  f('non fashion', 'stationery', 'notebook, journal, book, magazine, pen, pencil, sticker, greeting card, field notes, planner', '', ''),
  f('non fashion', 'gift card', 'gift card, giftcard, gift voucher, voucher, e gift card', '', ''),
  f('non fashion', 'electronics', 'phone case, headphones, earphones, earbuds, charger, speaker, cable, airpods case', '', ''),
];

/** Words that look like a family but say something else ("short sleeve" is not shorts). */
export const NOT_A_FAMILY: readonly string[] = list(
  'short sleeve, short sleeved, short sleeves, long sleeve, long sleeved, long sleeves, cap sleeve, cap sleeves, dress code, top handle, top quality, hooded, heel tab, shoe size, ring size, boot cut, bootcut, tank engine, pant size, shirt collar, suit you, ankle length, knee length, pin stripe, pinstripe, tie dye, tie dyed, tie front, tie waist, belt loop, belt loops, belted, chain strap, watch this, pull on, zip up, down to, drop shoulder, cover up your, one size, mask off, leather cap toe, apparel and accessories, cap and gown',
);

/** A slot's catch-all family: the labeller gives it when a listing names only the slot ("shoes", a bag of no kind); it yields to any named family of its slot. */
export const GENERIC_FAMILIES: ReadonlySet<string> = new Set(['shoe', 'bag', 'top', 'accessory', 'lingerie']);

/**
 * Words elsewhere in the same run that make a generic family specific: "Formal Black Shoes" are
 * formal shoes, "Running Shoes" sneakers, "Laptop Bag" a laptop bag.
 */
export const SPECIALISERS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  shoe: {
    formal: 'formal shoe', dress: 'formal shoe', office: 'formal shoe', oxford: 'formal shoe', derby: 'formal shoe', brogue: 'formal shoe', leather: 'formal shoe',
    casual: 'sneaker', sports: 'sneaker', sport: 'sneaker', running: 'sneaker', training: 'sneaker', trail: 'sneaker', tennis: 'sneaker', basketball: 'sneaker',
    skate: 'sneaker', walking: 'sneaker', canvas: 'sneaker', lace: 'sneaker', athletic: 'sneaker', gym: 'sneaker', court: 'sneaker',
    boat: 'loafer', driving: 'loafer', heeled: 'heels', ballet: 'flat',
  },
  bag: {
    hand: 'handbag', shoulder: 'shoulder bag', sling: 'crossbody', messenger: 'crossbody', laptop: 'laptop bag', travel: 'duffel', gym: 'duffel',
    duffle: 'duffel', duffel: 'duffel', tote: 'tote', shopping: 'tote', beach: 'tote', waist: 'belt bag', belt: 'belt bag', school: 'backpack', evening: 'clutch',
  },
};
