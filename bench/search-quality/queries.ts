// Judged query set for the shopper-search quality benchmark (issue 13). Written before the search
// engine exists; nothing here came from running it.
//
// WHAT IT IS
// 60+ shopper queries over the seven fixture feeds in ../shared/fixtures/shopify (see SOURCES.md
// there), each with the products that answer it and a graded relevance. A product is named only by
// its feed file and Shopify product id (the service's sku is String(id)); the `why` notes are our own
// short descriptions. No title, description, handle or price is copied from the feeds: the fixtures
// come from public repositories without a licence and must stay outside this repo.
//
// HOW WE JUDGED
// - Pooling: for each query we searched the feeds broadly with throwaway scripts kept outside the
//   repo (regexes over title, product_type, tags, option names/values and body text for the garment,
//   its synonyms and misspellings, the colour and its near colours, the material, the occasion words),
//   listed every product of the right family in the scoped store(s), and then READ each candidate:
//   title, type, vendor, tags, options, every variant (price, size, available) and the body text.
//   Grades were decided by hand from that reading. No engine output was used, and no ranking from any
//   tool: the order of `judgements` means nothing.
// - Scope: a query with `store` is judged against that one feed only (the shopper is on that store's
//   site). A query without `store` is judged against all seven feeds loaded as one catalogue.
// - Grades: 3 = answers the query exactly (right garment family, colour, gender, and every hard
//   constraint: budget, size, stock when the query asks for it). 2 = answers it with one soft mismatch
//   (near colour such as burgundy for red or white-with-black for black; close family such as a
//   blouse for "shirt", a top/dress hybrid for "dress", a sweatshirt for "sweater"; a boot-like high-top
//   for "boots"; an explicitly unisex item for a gendered query; the requested size exists but is sold
//   out). 1 = related (same family in another colour or material, over budget, plausible but weak for
//   an occasion). 0 = not relevant; 0 is never written, an item that is not listed is 0.
// - Exhaustiveness: grade 3 and grade 2 lists are meant to be complete within the scope, because
//   recall@20 counts items of grade >= 2. Grade 1 lists are best effort (a few close neighbours), so
//   nDCG@10 uses all grades but a missing grade-1 item only costs a little.
// - Budget: the product's price is the LOWEST variant price in the feed, in the feed's own currency
//   (SOURCES.md: CAD for Woven and Annie Thompson, USD for Kith, United By Blue and the Leon-Sander dev
//   store, INR for Hades Culture, probably EGP for laced-store). The feeds mix currencies, so every
//   query with a budget is scoped to one store with `store` (and `country`), and the number is read in
//   that store's currency. "under X" means lowest price <= X. Sale prices are the current `price`, not
//   compare_at_price. Items of the right kind over budget are at most grade 1.
// - Gender: the store's audience from SOURCES.md first: Woven and Annie Thompson are womenswear; Kith
//   vendor "Kith" is the men's line and "Kith Women" the women's; United By Blue says Mens/Womens in
//   product_type; the Leon-Sander items carry men/women/kid/unisex tags; laced-store and Hades Culture
//   are mixed (laced-store is women's only when the title or handle says W/WMNS/women). Then the
//   product's own words: tags such as androgenous, genderless, co-ed or unisex make an item explicitly
//   unisex (grade 2 for a gendered query, 3 for "unisex"/"gender neutral"). Items for the other gender
//   are 0. Items with no gender cue in a mixed store are at most 1 and are not listed.
// - Size: grade 3 needs a variant in that size with available = true; the size offered but sold out is
//   grade 2; no such size is grade 1 at most. Sizes are read from the variant titles/options (laced-store
//   uses EU shoe sizes, Leon-Sander and United By Blue US sizes). Other queries do not judge stock: a
//   sold-out item keeps its grade unless the query asks for something in stock.
// - Colour: read from the option values, then the title, then the body. Colour family counts (navy is
//   not black; cream/ivory count as white only at grade 2; olive/khaki/sage are near each other).
//   Colour names that are only product names (a "Black Lamb" style in eggshell) do not count.
//   Colour given only by a sneaker nickname ("bred", "panda") is at most grade 2.
// - "similar to X" (type 'similar'): `similarTo` names the product; it is never judged itself. Judged
//   by family first, then colour, then style/silhouette and material: 3 = same family and same look, 2 =
//   same family with one difference (other colour or cut), 1 = same broad family.
// - Misspellings are judged exactly as their correct spelling would be.
// - Occasion words boost rather than filter: 3 = the product's own words name the occasion or it is a
//   clear fit, 2 = a plausible piece for it, 1 = loosely plausible.
// - Non-apparel test items (snowboards, gift cards, ski wax, fees) are never relevant to a clothing
//   query.
// - One judge (this file's author) did all grades in one pass, so expect some noise in 1-versus-2
//   calls; the grade >= 2 boundary is the one to trust.

export interface JudgedQuery {
  id: string;
  type: 'garment' | 'colour' | 'occasion' | 'budget' | 'gender' | 'misspelling' | 'similar' | 'attribute' | 'size';
  text: string;
  store?: string /* feed file when the query is scoped to one store */;
  country?: string;
  similarTo?: { feed: string; id: string };
  judgements: Array<{ feed: string; id: string; grade: 1 | 2 | 3; why: string }>;
}

/** The feed files, as named in ../shared/fixtures/shopify. */
export const WOVEN = 'mohitgit1233-LewkPrototype-clothes.json'; // women's boutique, CAD
export const ANNIE = 'NickHMetzler-Shopify-To-Square-products_page_1.json'; // women's designer, CAD
export const LACED = 'ahmedhelal9077-laced-store-products_all.json'; // sneaker reseller, EGP (probably)
export const KITH = 'Andre-831-shopify-monitor-products_raw.json'; // Armani x Kith capsule, USD, all sold out
export const HADES = 'Akarshk-max-hades_culture-products_raw.json'; // Indian streetwear, INR
export const UBB = 'jmikh-ecom-shopify_products-converted.json'; // United By Blue demo store, USD
export const EGN = 'Leon-Sander-shopify_endpoint-raw_products-converted.json'; // sneaker dev store, USD

export const FEEDS = [WOVEN, ANNIE, LACED, KITH, HADES, UBB, EGN];

type Judgement = JudgedQuery['judgements'][number];
const j = (feed: string, id: string, grade: 1 | 2 | 3, why: string): Judgement => ({ feed, id, grade, why });

export const JUDGED_QUERIES: JudgedQuery[] = [
  // ---------------------------------------------------------------- garment
  {
    id: 'garment-dresses-woven',
    type: 'garment',
    text: 'dresses',
    store: WOVEN,
    judgements: [
      j(WOVEN, '8339405078761', 3, 'black maxi dress, puff sleeves, buttons'),
      j(WOVEN, '8339407175913', 3, 'black pull-on maxi dress, tiered skirt'),
      j(WOVEN, '8380508733673', 3, 'linen button-front dress, white/indigo or chambray'),
      j(WOVEN, '8380506767593', 3, 'collared linen dress, several colours'),
      j(WOVEN, '8179137577193', 3, 'little black dress with belt'),
      j(WOVEN, '8179136659689', 3, 'dark olive holiday dress, tie waist'),
      j(WOVEN, '8179140591849', 3, 'black button-front maxi dress'),
      j(WOVEN, '8179140788457', 3, 'black maxi dress, dropped sleeves'),
      j(WOVEN, '8339409338601', 3, 'blue/white striped shirt dress'),
    ],
  },
  {
    id: 'garment-linen-pants',
    type: 'garment',
    text: 'linen pants',
    judgements: [
      j(WOVEN, '8380497428713', 3, 'wide-leg linen pull-on pant, black or navy'),
      j(WOVEN, '8179143508201', 3, 'beige linen pull-on pants'),
      j(ANNIE, '2156869320800', 3, 'black linen tie-waist pant'),
      j(ANNIE, '1903436202080', 3, 'black linen-viscose tie-waist pant, mostly linen'),
      j(ANNIE, '7092433029', 3, 'black linen high-waisted pant'),
      j(ANNIE, '7092611653', 3, 'sage linen trousers'),
      j(ANNIE, '4525798916192', 3, 'hand-dyed linen button-fly pant'),
      j(WOVEN, '8179139641577', 1, 'olive loose pull-on pant, fabric not stated'),
      j(ANNIE, '7275081531542', 1, 'silk tie pant, light summer pant but not linen'),
      j(KITH, '8285549232256', 1, "men's silk twill summer trouser"),
    ],
  },
  {
    id: 'garment-boots',
    type: 'garment',
    text: 'boots',
    judgements: [
      j(EGN, '8546659172634', 3, "men's 6-inch wheat leather work boot"),
      j(UBB, '8557565575334', 3, "men's leather lace-up work boot"),
      j(EGN, '8546661007642', 3, 'cherry-red 8-eye leather boot'),
      j(EGN, '8546655469850', 2, 'red canvas/leather high-top, boot-like'),
      j(EGN, '8546659959066', 1, 'black 3-eye leather shoe, not a boot'),
      j(EGN, '8546660450586', 1, 'black 3-eye leather shoe, not a boot'),
    ],
  },
  {
    id: 'garment-blazer',
    type: 'garment',
    text: 'blazer',
    judgements: [
      j(KITH, '8285548970112', 3, 'double-breasted silk-blend blazer'),
      j(KITH, '8285548511360', 3, 'double-breasted lightweight blazer'),
      j(WOVEN, '8380510273769', 2, "women's linen jacket sold as a summer blazer alternative"),
      j(WOVEN, '8179145015529', 1, 'beige linen jacket'),
      j(ANNIE, '562664900', 1, 'fitted black jacket'),
    ],
  },
  {
    id: 'garment-backpack',
    type: 'garment',
    text: 'backpack',
    judgements: [
      j(EGN, '8546664251674', 3, 'black backpack, fur print'),
      j(EGN, '8546664612122', 3, 'blue multicolour classic backpack'),
      j(EGN, '8546663170330', 3, 'black cinch-top backpack'),
      j(UBB, '8557565837478', 3, 'canvas backpack, four zip compartments'),
      j(UBB, '8557565509798', 3, 'padded canvas adventure backpack'),
      j(UBB, '8557565247654', 3, 'canvas backpack with leather trim'),
      j(ANNIE, '4618054008928', 3, 'cross-body knapsack, tagged backpack'),
      j(UBB, '8557565411494', 1, 'wheeled duffle/carry-on'),
      j(UBB, '8557565444262', 1, 'canvas lunch bag'),
    ],
  },
  {
    id: 'garment-jumpsuit',
    type: 'garment',
    text: 'jumpsuit',
    judgements: [
      j(ANNIE, '4511117869152', 3, 'navy/black dot jumpsuit'),
      j(ANNIE, '121188614174', 2, 'black organic cotton "jumper" filed under pants, reads as a one-piece'),
      j(ANNIE, '7901999530134', 1, 'olive linen jumper dress (pinafore)'),
      j(ANNIE, '7676761899158', 1, 'wool/cotton jumper dress'),
    ],
  },
  {
    id: 'garment-caps',
    type: 'garment',
    text: 'baseball cap',
    judgements: [
      j(KITH, '8285549199488', 3, 'black silk jacquard six-panel cap'),
      j(KITH, '8285548609664', 3, 'two-tone cotton twill cap'),
      j(EGN, '8546663596314', 3, 'black fitted cap'),
      j(EGN, '8546663989530', 3, 'white flat-peak snapback'),
      j(UBB, '8557565378726', 3, 'five-panel cap, adjustable strap'),
      j(ANNIE, '7753368109206', 3, 'black cotton cap, wide brim'),
      j(ANNIE, '7782034702486', 3, 'hand-dyed black cotton cap'),
      j(KITH, '8285548642432', 1, 'straw fedora, another hat'),
    ],
  },
  {
    id: 'garment-leggings',
    type: 'garment',
    text: 'leggings',
    judgements: [
      j(ANNIE, '7580685189', 3, 'navy/red bamboo-cotton leggings'),
      j(ANNIE, '6794797637', 3, 'grey/black stripe leggings'),
      j(ANNIE, '365105125', 3, 'black/grey stripe stretch leggings'),
      j(ANNIE, '5726930043030', 3, 'organic mint leggings'),
      j(ANNIE, '8413213637', 2, 'stretch shorts with skirt, tagged leggings'),
      j(ANNIE, '7467492114582', 1, 'knit jogger-style pant'),
    ],
  },

  // ---------------------------------------------------------------- colour
  {
    id: 'colour-black-dress',
    type: 'colour',
    text: 'black dress',
    judgements: [
      j(WOVEN, '8339405078761', 3, 'black maxi dress, puff sleeves'),
      j(WOVEN, '8339407175913', 3, 'black maxi dress'),
      j(WOVEN, '8179137577193', 3, 'little black dress'),
      j(WOVEN, '8179140591849', 3, 'black button-front maxi dress'),
      j(WOVEN, '8179140788457', 3, 'black maxi dress, dropped sleeves'),
      j(ANNIE, '121145557022', 3, 'short black cotton dress'),
      j(ANNIE, '110669004830', 3, 'ankle-length black knit dress'),
      j(ANNIE, '2178424864864', 3, 'black cotton A-line dress'),
      j(ANNIE, '121165152286', 2, 'black sheer robe dress'),
      j(ANNIE, '2156788514912', 2, 'black top that doubles as a dress'),
      j(ANNIE, '7901954506902', 2, 'black pinstripe wool coat-dress'),
      j(ANNIE, '121079824414', 2, 'black suiting vest dress'),
      j(ANNIE, '7676761899158', 2, 'jumper dress, black wool option'),
      j(ANNIE, '6134326231190', 2, 'knit dress/top, black+navy option'),
      j(ANNIE, '4262045581408', 2, 'top/dress, black silk option'),
      j(ANNIE, '8505088901', 2, 'sheer black mini-stripe top/dress'),
      j(ANNIE, '333102137', 2, 'black tank that can be a dress'),
      j(WOVEN, '8380506767593', 1, 'dress with a white/black check option'),
      j(ANNIE, '4345926090848', 1, 'long wool dress, colour not stated'),
    ],
  },
  {
    id: 'colour-red-jacket',
    type: 'colour',
    text: 'red jacket',
    judgements: [
      j(HADES, '10014985388336', 3, 'crimson faux-leather biker jacket'),
      j(ANNIE, '121104597022', 2, 'red/navy floral velvet coat'),
      j(ANNIE, '5945339805846', 2, 'red + navy velvet long coat'),
      j(ANNIE, '7657017082006', 1, 'quilted jacket, fuchsia/neon orange option'),
      j(HADES, '10029070909744', 1, 'brown leather jacket'),
    ],
  },
  {
    id: 'colour-olive-pants',
    type: 'colour',
    text: 'olive green pants',
    judgements: [
      j(WOVEN, '8179139641577', 3, 'olive loose pull-on pant'),
      j(ANNIE, '4262063472736', 3, 'olive cotton high-waisted pant'),
      j(ANNIE, '6794832453', 3, 'olive stretch pant'),
      j(ANNIE, '7092611653', 2, 'sage linen trousers, near colour'),
      j(ANNIE, '6794835269', 1, 'same stretch pant in chartreuse'),
      j(ANNIE, '4262069010528', 1, 'same high-waisted pant in chocolate'),
    ],
  },
  {
    id: 'colour-navy-sweater',
    type: 'colour',
    text: 'navy sweater',
    store: WOVEN,
    judgements: [
      j(WOVEN, '8380498477289', 3, 'boatneck knit, navy option'),
      j(WOVEN, '8188728017129', 2, 'navy/white striped thick knit'),
      j(WOVEN, '8380496412905', 1, 'lightweight top, navy option'),
      j(WOVEN, '8380513616105', 1, 'black lightweight sweater'),
    ],
  },
  {
    id: 'colour-white-blouse',
    type: 'colour',
    text: 'white blouse',
    judgements: [
      j(WOVEN, '8380504932585', 3, 'linen blouse, white option'),
      j(WOVEN, '8380500246761', 2, 'collared blouse, white check option'),
      j(ANNIE, '121092276254', 1, 'black blouse with bow collar'),
      j(UBB, '8557565214886', 1, "women's blue chambray shirt"),
    ],
  },
  {
    id: 'colour-brown-leather-jacket',
    type: 'colour',
    text: 'brown leather jacket',
    judgements: [
      j(HADES, '10029070909744', 3, 'brown leather jacket, ribbed cuffs'),
      j(HADES, '10014985388336', 1, 'red faux-leather jacket'),
    ],
  },
  {
    id: 'colour-pink-sneakers',
    type: 'colour',
    text: 'pink sneakers',
    store: LACED,
    judgements: [
      j(LACED, '8238190166079', 3, 'pink/white low-top'),
      j(LACED, '8207477309503', 3, 'pink chunky runner'),
      j(LACED, '8163302703167', 3, 'pink suede low-top'),
      j(LACED, '8137864314943', 3, 'pink retro runner'),
      j(LACED, '8125147480127', 3, 'rose-pink low profile sneaker'),
      j(LACED, '8108937969727', 3, 'pink overdyed chunky runner'),
      j(LACED, '7994455719999', 3, 'pale pink low basketball sneaker'),
      j(LACED, '7979693932607', 3, 'pink retro runner'),
      j(LACED, '7973660459071', 3, 'pink/white high basketball sneaker'),
      j(LACED, '7972191993919', 3, 'pink-foam mesh runner'),
      j(LACED, '7972191699007', 3, 'grey and pink-foam mesh runner'),
      j(LACED, '7973297258559', 3, 'white and pink chunky sneaker'),
      j(LACED, '8265930309695', 2, 'black suede with pink, women'),
      j(LACED, '7969268662335', 2, 'black with pink accents'),
      j(LACED, '8161595326527', 2, 'brown with pink gum'),
      j(LACED, '7973652594751', 2, 'white/grey with pink'),
      j(LACED, '7973295161407', 2, 'cream with rose tones'),
      j(LACED, '8227432038463', 1, "Valentine's edition, colours not stated"),
      j(LACED, '7979531698239', 1, "Valentine's edition, colours not stated"),
      j(LACED, '8129004896319', 1, "Valentine's edition, colours not stated"),
    ],
  },
  {
    id: 'colour-white-sneakers-egn',
    type: 'colour',
    text: 'white sneakers',
    store: EGN,
    judgements: [
      j(EGN, '8546656977178', 3, 'white leather shell-toe sneaker'),
      j(EGN, '8546661400858', 3, 'white canvas low-top'),
      j(EGN, '8546653995290', 3, 'white canvas skate shoe with print'),
      j(EGN, '8546658058522', 3, 'white skate shoe with print'),
      j(EGN, '8546654978330', 3, 'white leather high-top with cut-outs'),
      j(EGN, '8546662744346', 2, "kids' white leather tennis shoe"),
      j(EGN, '8546653208858', 1, 'burgundy/white low-top'),
      j(EGN, '8546658615578', 1, 'beige suede slip-on'),
    ],
  },
  {
    id: 'colour-fuchsia-top',
    type: 'colour',
    text: 'hot pink top',
    store: ANNIE,
    judgements: [
      j(ANNIE, '2121755164768', 3, 'fuchsia velvet top'),
      j(ANNIE, '1428737687648', 3, 'mesh tee, fuchsia option'),
      j(ANNIE, '1856797769824', 2, 'roomy top, fuchsia & black velvet option'),
      j(ANNIE, '5499905029', 2, 'rose hooded top, softer pink'),
      j(ANNIE, '3048975813', 2, 'sheer long top in raspberry orchid'),
      j(ANNIE, '7901997006998', 1, 'sweatshirt, watermelon colourway'),
    ],
  },

  // ---------------------------------------------------------------- occasion
  {
    id: 'occasion-summer-wedding',
    type: 'occasion',
    text: 'something for a summer wedding',
    store: WOVEN,
    judgements: [
      j(WOVEN, '8179136659689', 2, 'elevated light holiday dress, gold buttons'),
      j(WOVEN, '8339405078761', 2, 'maxi dress with puff sleeves'),
      j(WOVEN, '8339407175913', 2, 'relaxed maxi dress'),
      j(WOVEN, '8179137577193', 2, 'elegant little black dress'),
      j(WOVEN, '8179140591849', 2, 'black maxi dress, fitted top'),
      j(WOVEN, '8179140788457', 2, 'light black maxi dress'),
      j(WOVEN, '8380506767593', 2, 'light linen dress'),
      j(WOVEN, '8182502031593', 2, 'straw sun hat with droop brim'),
      j(WOVEN, '8380510273769', 2, 'linen summer jacket to wear over a dress'),
      j(WOVEN, '8346158661865', 2, 'dressy wide-leg pant'),
      j(WOVEN, '8380508733673', 1, 'casual linen dress / beach cover-up'),
      j(WOVEN, '8339409338601', 1, 'casual striped shirt dress'),
    ],
  },
  {
    id: 'occasion-beach-holiday',
    type: 'occasion',
    text: 'what to pack for a beach holiday',
    judgements: [
      j(KITH, '8285549396096', 3, "women's bikini"),
      j(KITH, '8285549035648', 3, "women's silk cover-up"),
      j(WOVEN, '8380508733673', 3, 'linen dress that doubles as a beach cover-up'),
      j(WOVEN, '8179136659689', 3, 'dress sold as a vacation dress'),
      j(ANNIE, '7275081531542', 3, 'light silk pant, beach wear in its words'),
      j(KITH, '8285548576896', 2, 'printed drawstring shorts'),
      j(KITH, '8285548544128', 2, 'printed drawstring shorts'),
      j(KITH, '8285548642432', 2, 'straw fedora'),
      j(WOVEN, '8182502031593', 2, 'straw sun hat'),
      j(ANNIE, '7504203907222', 2, 'sun hat'),
      j(KITH, '8285549363328', 1, 'short-sleeve seersucker shirt'),
      j(KITH, '8285548904576', 1, "women's silk kimono"),
    ],
  },
  {
    id: 'occasion-black-tie',
    type: 'occasion',
    text: 'outfit for a black tie event',
    judgements: [
      j(ANNIE, '121079824414', 3, 'black suiting vest dress, black tie in its words'),
      j(KITH, '8285548970112', 2, 'double-breasted blazer'),
      j(KITH, '8285548511360', 2, 'double-breasted blazer'),
      j(KITH, '8285549330560', 2, 'tie'),
      j(ANNIE, '121145065502', 2, 'white satin dress'),
      j(ANNIE, '121145557022', 2, 'little black dress'),
      j(ANNIE, '2178424864864', 1, 'black cotton dress'),
      j(ANNIE, '121110102046', 1, 'black taffeta coat'),
    ],
  },
  {
    id: 'occasion-winter-coat',
    type: 'occasion',
    text: 'warm coat for the winter',
    judgements: [
      j(ANNIE, '7828516339862', 3, 'wool-cashmere winter coat'),
      j(ANNIE, '5945339805846', 2, 'long velvet coat, deep pockets for gloves'),
      j(UBB, '8557565477030', 2, "men's insulated work jacket"),
      j(HADES, '10029070909744', 2, 'lined leather jacket for winter evenings'),
      j(ANNIE, '5727041061014', 1, 'brushed cotton coat'),
      j(ANNIE, '7656982839446', 1, 'velvet coat'),
      j(ANNIE, '6142137106582', 1, 'faux fur vest'),
      j(ANNIE, '7819309482134', 1, 'quilted hooded coat'),
    ],
  },
  {
    id: 'occasion-camping',
    type: 'occasion',
    text: 'stuff for a camping trip',
    store: UBB,
    judgements: [
      j(UBB, '8557565771942', 3, 'folding camp seat'),
      j(UBB, '8557565640870', 3, 'headlamp'),
      j(UBB, '8557565706406', 3, 'insulated mug for the campsite'),
      j(UBB, '8557565509798', 2, 'adventure backpack'),
      j(UBB, '8557565837478', 2, 'rugged backpack'),
      j(UBB, '8557565378726', 2, 'camp cap'),
      j(UBB, '8557565477030', 2, 'insulated work jacket'),
      j(UBB, '8557565444262', 2, 'lunch bag for trail snacks'),
      j(UBB, '8557565575334', 1, 'leather work boot'),
    ],
  },
  {
    id: 'occasion-office-trousers',
    type: 'occasion',
    text: 'smart trousers for the office',
    judgements: [
      j(KITH, '8285548937344', 3, "men's wool pleated trouser with crease"),
      j(ANNIE, '7901998383254', 3, 'pinstripe wool trouser'),
      j(WOVEN, '8346158661865', 3, 'wide-leg pant for a dress code'),
      j(KITH, '8285549232256', 2, "men's pleated silk summer trouser"),
      j(WOVEN, '8380497428713', 2, 'wide-leg linen pant'),
      j(ANNIE, '4511119540320', 2, 'front-pleated high-waisted cotton trouser'),
      j(ANNIE, '7092611653', 2, 'linen trousers'),
      j(ANNIE, '7901994811542', 1, 'striped cropped wool trouser'),
      j(ANNIE, '4285321216096', 1, 'high-waisted cotton pant'),
    ],
  },
  {
    id: 'occasion-wedding-hat',
    type: 'occasion',
    text: 'hat for a sunny wedding',
    store: ANNIE,
    judgements: [
      j(ANNIE, '7504203907222', 3, 'sun hat, wedding named in its title words'),
      j(ANNIE, '7504438624406', 1, 'structured hat'),
      j(ANNIE, '7504427450518', 1, 'statement hat'),
      j(ANNIE, '7605897166998', 1, 'same brim shape in olive denim for fall'),
    ],
  },

  // ---------------------------------------------------------------- budget (always scoped)
  {
    id: 'budget-dress-under-120',
    type: 'budget',
    text: 'dress under 120',
    store: WOVEN,
    country: 'CA',
    judgements: [
      j(WOVEN, '8179137577193', 3, 'black dress at 110 CAD'),
      j(WOVEN, '8380506767593', 1, 'linen dress, over budget'),
      j(WOVEN, '8339407175913', 1, 'maxi dress, over budget'),
      j(WOVEN, '8339409338601', 1, 'shirt dress, over budget'),
    ],
  },
  {
    id: 'budget-sweater-under-120',
    type: 'budget',
    text: 'sweater under $120',
    store: WOVEN,
    country: 'CA',
    judgements: [
      j(WOVEN, '8380513616105', 3, 'black lightweight sweater, 110'),
      j(WOVEN, '8380503425257', 3, 'white/taupe light knit, 110'),
      j(WOVEN, '8179132498153', 3, 'soft spring sweater, 120'),
      j(WOVEN, '8185455837417', 2, 'oversized crewneck sweatshirt, 100'),
      j(WOVEN, '8380502442217', 1, 'crewneck knit, over budget'),
      j(WOVEN, '8380498477289', 1, 'boatneck knit, over budget'),
      j(WOVEN, '8188728017129', 1, 'striped knit, over budget'),
    ],
  },
  {
    id: 'budget-sneakers-laced',
    type: 'budget',
    text: 'cheapest sneakers under 1700',
    store: LACED,
    country: 'EG',
    judgements: [
      j(LACED, '7980199215167', 3, 'black/gum skate low-top at the lowest price'),
      j(LACED, '7979732402239', 3, 'grey/black mesh runner at the lowest price'),
      j(LACED, '7973628772415', 3, 'green low-top at the lowest price'),
      j(LACED, '7973613699135', 3, 'black/white suede low-top at the lowest price'),
      j(LACED, '7972190322751', 3, "women's cream terrace sneaker at the lowest price"),
      j(LACED, '7969268891711', 3, 'running-style sneaker at the lowest price'),
      j(LACED, '7973555339327', 1, 'low-top just over budget'),
      j(LACED, '7973556781119', 1, 'black low-top just over budget'),
    ],
  },
  {
    id: 'budget-tee-under-40',
    type: 'budget',
    text: 't-shirt under 40 dollars',
    store: UBB,
    country: 'US',
    judgements: [
      j(UBB, '8557565051046', 3, "women's white organic cotton tee"),
      j(UBB, '8557565345958', 3, "women's gunmetal organic cotton tee"),
      j(UBB, '8557565280422', 3, "women's cream organic cotton tee"),
      j(UBB, '8557565313190', 3, "women's navy organic cotton tee"),
      j(UBB, '8557565608102', 1, 'long-sleeve relaxed shirt, over budget'),
    ],
  },
  {
    id: 'budget-mens-sneakers-under-150',
    type: 'budget',
    text: "men's sneakers under $150",
    store: EGN,
    country: 'US',
    judgements: [
      j(EGN, '8546661663002', 3, "men's black canvas high-top"),
      j(EGN, '8546661400858', 3, "men's white canvas low-top"),
      j(EGN, '8546656354586', 3, "men's red suede low-top"),
      j(EGN, '8546654421274', 3, "men's blue patterned skate shoe"),
      j(EGN, '8546653995290', 3, "men's white printed skate shoe"),
      j(EGN, '8546653602074', 3, "men's red gradient skate shoe"),
      j(EGN, '8546658615578', 3, "men's beige suede slip-on"),
      j(EGN, '8546657304858', 3, "men's light brown skate shoe"),
      j(EGN, '8546658058522', 3, "men's white printed skate shoe"),
      j(EGN, '8546657501466', 3, "men's black high-top skate shoe"),
      j(EGN, '8546653208858', 3, "men's burgundy low-top on sale"),
      j(EGN, '8546655469850', 1, "men's high-top boot, just over budget"),
      j(EGN, '8546656747802', 1, "men's grey high-top, over budget"),
      j(EGN, '8546656977178', 1, "men's white shell-toe, over budget"),
    ],
  },
  {
    id: 'budget-hat-under-100',
    type: 'budget',
    text: 'hat under 100',
    store: ANNIE,
    country: 'CA',
    judgements: [
      j(ANNIE, '7676785918102', 3, 'reflective winter hat'),
      j(ANNIE, '5727201230998', 3, 'knit hat with neck warmer'),
      j(ANNIE, '6134238249110', 1, 'faux fur hat, just over budget'),
      j(ANNIE, '5726613667990', 1, 'angora ear-warmer hat, over budget'),
    ],
  },
  {
    id: 'budget-top-under-150',
    type: 'budget',
    text: 'tops under $150',
    store: ANNIE,
    country: 'CA',
    judgements: [
      j(ANNIE, '7047873797', 3, 'organic cotton tank'),
      j(ANNIE, '2404083781', 3, 'grey organic cotton tank'),
      j(ANNIE, '5499905029', 3, 'rose hooded top'),
      j(ANNIE, '333102137', 3, 'black tank/dress'),
      j(ANNIE, '1428737687648', 3, 'mesh tee'),
      j(ANNIE, '3089112773', 3, 'red lyocell top, lowest variant in budget'),
      j(ANNIE, '4511117770848', 1, 'organic knit tee, just over budget'),
      j(ANNIE, '2901599237', 1, 'sheer long top, over budget'),
    ],
  },
  {
    id: 'budget-tee-hades',
    type: 'budget',
    text: 'tee under 1300 rs',
    store: HADES,
    country: 'IN',
    judgements: [
      j(HADES, '9900190957872', 3, 'oversized cotton terry tee'),
      j(HADES, '15124958282032', 2, 'oversized waffle top with back print'),
      j(HADES, '15124956512560', 2, 'oversized waffle top with back print'),
      j(HADES, '10072788926768', 2, 'black oversized waffle top with back graphic'),
      j(HADES, '15124962705712', 2, 'sleeveless oversized waffle vest'),
      j(HADES, '15124961100080', 1, 'brown rib tee, over budget'),
      j(HADES, '15124959625520', 1, 'black rib tee, over budget'),
    ],
  },

  // ---------------------------------------------------------------- gender
  {
    id: 'gender-mens-shirt',
    type: 'gender',
    text: "men's shirt",
    judgements: [
      j(UBB, '8557565018278', 3, "men's chambray button-down"),
      j(KITH, '8285549363328', 3, "men's short-sleeve zip shirt"),
      j(KITH, '8285549133952', 3, "men's silk camp-collar shirt"),
      j(KITH, '8285549002880', 3, "men's long-sleeve camp-collar shirt"),
      j(KITH, '8285548740736', 2, "men's knit polo"),
      j(KITH, '8285548445824', 1, "men's linen v-neck top"),
    ],
  },
  {
    id: 'gender-womens-sneakers',
    type: 'gender',
    text: "women's sneakers",
    store: LACED,
    judgements: [
      j(LACED, '8276399259711', 3, "women's black/white low-profile sneaker"),
      j(LACED, '8265930309695', 3, "women's black/pink suede low-top"),
      j(LACED, '8200089894975', 3, "women's brown runner"),
      j(LACED, '8161595326527', 3, "women's brown/pink runner"),
      j(LACED, '8136585379903', 3, "women's mesh runner"),
      j(LACED, '8110939242559', 3, "women's low basketball sneaker"),
      j(LACED, '8047800025151', 3, "women's white/black platform court shoe"),
      j(LACED, '7972192288831', 3, "women's earth-tone runner"),
      j(LACED, '7979731451967', 3, "women's white/navy runner"),
      j(LACED, '7979550670911', 3, "women's silver runner"),
      j(LACED, '7973655347263', 3, "women's pastel low-top"),
      j(LACED, '7973546033215', 3, "women's white/black gum terrace shoe"),
      j(LACED, '7972198645823', 3, "women's white platform court shoe"),
      j(LACED, '7972190322751', 3, "women's cream terrace shoe"),
    ],
  },
  {
    id: 'gender-mens-boots',
    type: 'gender',
    text: 'mens boots',
    judgements: [
      j(EGN, '8546659172634', 3, "men's wheat leather work boot"),
      j(UBB, '8557565575334', 3, "men's leather work boot"),
      j(EGN, '8546655469850', 2, "men's boot-style high-top"),
    ],
  },
  {
    id: 'gender-womens-bomber',
    type: 'gender',
    text: 'womens bomber jacket',
    judgements: [
      j(ANNIE, '7346038866070', 3, "women's zip bomber, knit collar and cuffs"),
      j(ANNIE, '4614913327200', 3, "women's zip bomber, knit collar and cuffs"),
      j(ANNIE, '7605908734102', 3, "women's quilted hip-length bomber"),
      j(ANNIE, '7819309482134', 3, "women's quilted hooded bomber-style coat"),
      j(ANNIE, '7657017082006', 3, "women's quilted nylon bomber"),
      j(ANNIE, '7901997006998', 1, 'rib-banded sweatshirt tagged bomber'),
    ],
  },
  {
    id: 'gender-womens-tee',
    type: 'gender',
    text: 'womens t shirt',
    judgements: [
      j(KITH, '8285548707968', 3, "women's white cotton jersey tee"),
      j(UBB, '8557565051046', 3, "women's white tee"),
      j(UBB, '8557565345958', 3, "women's gunmetal tee"),
      j(UBB, '8557565280422', 3, "women's cream tee"),
      j(UBB, '8557565313190', 3, "women's navy tee"),
      j(ANNIE, '4511117770848', 3, "women's organic knit tee"),
      j(ANNIE, '1428737687648', 3, "women's mesh tee"),
      j(UBB, '8557565608102', 2, "women's long-sleeve relaxed shirt"),
      j(ANNIE, '2404083781', 2, "women's tank"),
      j(ANNIE, '7047873797', 2, "women's tank"),
      j(ANNIE, '2027778900064', 2, "women's stretch jersey top"),
      j(ANNIE, '7451485634710', 1, 't-shirt dress'),
      j(HADES, '9900190957872', 1, 'tee, no gender cue'),
    ],
  },
  {
    id: 'gender-mens-trousers',
    type: 'gender',
    text: "men's trousers",
    judgements: [
      j(KITH, '8285549232256', 3, "men's silk summer trouser"),
      j(KITH, '8285548937344', 3, "men's wool pleated trouser"),
      j(ANNIE, '7468954615958', 2, 'androgynous drawstring pant'),
      j(ANNIE, '7467492114582', 2, 'genderless knit pant'),
      j(ANNIE, '6794835269', 2, 'androgynous stretch pant'),
      j(KITH, '8285548576896', 1, "men's shorts"),
      j(KITH, '8285548544128', 1, "men's shorts"),
    ],
  },
  {
    id: 'gender-neutral-hat',
    type: 'gender',
    text: 'gender neutral hat',
    store: ANNIE,
    judgements: [
      j(ANNIE, '7676785918102', 3, 'winter hat tagged genderless'),
      j(ANNIE, '7657007513750', 3, 'velvet hat tagged androgynous'),
      j(ANNIE, '7605897166998', 3, 'denim brimmed hat tagged genderless'),
      j(ANNIE, '7504427450518', 3, 'hat tagged genderless'),
      j(ANNIE, '7504423092374', 3, 'plaid hat tagged androgynous'),
      j(ANNIE, '7504413950102', 3, 'hat tagged genderless'),
      j(ANNIE, '7504407789718', 3, 'tall hat tagged androgynous'),
      j(ANNIE, '7504203907222', 3, 'sun hat tagged androgynous'),
      j(ANNIE, '6134238249110', 3, 'faux fur hat tagged androgynous'),
      j(ANNIE, '7753368109206', 2, 'cap tagged androgynous'),
      j(ANNIE, '7782034702486', 2, 'cap tagged androgynous'),
      j(ANNIE, '7504438624406', 1, 'hat without a unisex tag'),
    ],
  },

  // ---------------------------------------------------------------- misspelling
  {
    id: 'misspelling-denim-skirt',
    type: 'misspelling',
    text: 'denm skirt',
    judgements: [
      j(WOVEN, '8188734832873', 3, 'cream denim maxi skirt'),
      j(ANNIE, '7803252277398', 3, 'grey/black cotton denim wrap skirt'),
      j(ANNIE, '374981244', 1, 'knee-length knit skirt'),
    ],
  },
  {
    id: 'misspelling-sweater',
    type: 'misspelling',
    text: 'sweter',
    store: WOVEN,
    judgements: [
      j(WOVEN, '8380513616105', 3, 'black lightweight sweater'),
      j(WOVEN, '8380511977705', 3, 'crewneck sweater, two colourways'),
      j(WOVEN, '8380503425257', 3, 'light knit sweater'),
      j(WOVEN, '8380502442217', 3, 'crewneck knit sweater'),
      j(WOVEN, '8380498477289', 3, 'boatneck knit sweater'),
      j(WOVEN, '8179132498153', 3, 'soft spring sweater'),
      j(WOVEN, '8188728017129', 3, 'striped thick-knit sweater'),
      j(WOVEN, '8380494479593', 2, 'knee-length knit cardigan'),
      j(WOVEN, '8185455837417', 2, 'oversized crewneck sweatshirt'),
    ],
  },
  {
    id: 'misspelling-trousers',
    type: 'misspelling',
    text: 'trowsers',
    store: KITH,
    judgements: [
      j(KITH, '8285549232256', 3, 'silk summer trouser'),
      j(KITH, '8285548937344', 3, 'wool pleated trouser'),
      j(KITH, '8285548576896', 1, 'shorts'),
      j(KITH, '8285548544128', 1, 'shorts'),
    ],
  },
  {
    id: 'misspelling-leather-jacket',
    type: 'misspelling',
    text: 'lether jacket',
    judgements: [
      j(HADES, '10029070909744', 3, 'brown leather jacket'),
      j(HADES, '10014985388336', 2, 'faux-leather biker jacket'),
    ],
  },
  {
    id: 'misspelling-sneakers',
    type: 'misspelling',
    text: 'sneekers',
    store: EGN,
    judgements: [
      j(EGN, '8546656977178', 3, 'white shell-toe sneaker'),
      j(EGN, '8546655895834', 3, 'black retro runner'),
      j(EGN, '8546661663002', 3, 'black canvas high-top'),
      j(EGN, '8546661400858', 3, 'white canvas low-top'),
      j(EGN, '8546656354586', 3, 'red suede low-top'),
      j(EGN, '8546656747802', 3, 'grey high-top skate sneaker'),
      j(EGN, '8546654421274', 3, 'blue patterned skate shoe'),
      j(EGN, '8546653995290', 3, 'white printed skate shoe'),
      j(EGN, '8546653602074', 3, 'red gradient skate shoe'),
      j(EGN, '8546658615578', 3, 'beige suede slip-on'),
      j(EGN, '8546657304858', 3, 'light brown skate shoe'),
      j(EGN, '8546658058522', 3, 'white printed skate shoe'),
      j(EGN, '8546657501466', 3, 'black high-top skate shoe'),
      j(EGN, '8546654978330', 3, 'white cut-out high-top'),
      j(EGN, '8546653208858', 3, 'burgundy low-top'),
      j(EGN, '8546662744346', 2, "kids' tennis sneaker"),
      j(EGN, '8546662056218', 2, "toddlers' canvas mid-top"),
      j(EGN, '8546662351130', 2, "toddlers' mesh runner"),
      j(EGN, '8546655469850', 2, 'boot-style high-top'),
      j(EGN, '8546659959066', 1, 'leather lace-up shoe'),
    ],
  },
  {
    id: 'misspelling-cardigan',
    type: 'misspelling',
    text: 'cardigen',
    judgements: [
      j(WOVEN, '8380494479593', 3, 'knee-length knit cardigan'),
      j(UBB, '8557565182118', 3, "women's charcoal cardigan"),
      j(ANNIE, '7836722167958', 2, 'knit sweater jacket'),
      j(UBB, '8557565149350', 1, "women's pullover"),
    ],
  },
  {
    id: 'misspelling-blouse',
    type: 'misspelling',
    text: 'blouce',
    store: WOVEN,
    judgements: [
      j(WOVEN, '8380504932585', 3, 'linen blouse'),
      j(WOVEN, '8380500246761', 3, 'collared button blouse'),
      j(WOVEN, '8380496412905', 2, 'lightweight top'),
      j(WOVEN, '8179136233705', 2, 'loose lightweight top'),
    ],
  },
  {
    id: 'misspelling-jordan-1',
    type: 'misspelling',
    text: 'jordon 1',
    store: LACED,
    judgements: [
      j(LACED, '8259407020095', 3, 'AJ1 model'),
      j(LACED, '8232391278655', 3, 'AJ1 low collab, black/olive'),
      j(LACED, '8227432038463', 3, "AJ1 low, Valentine's edition"),
      j(LACED, '8140080316479', 3, 'AJ1 mid, multicolour'),
      j(LACED, '8124435464255', 3, 'AJ1 model'),
      j(LACED, '8108935413823', 3, 'AJ1 high'),
      j(LACED, '8072450637887', 3, 'AJ1 low, mocha'),
      j(LACED, '8068930371647', 3, 'AJ1 low collab'),
      j(LACED, '7980157337663', 3, 'AJ1 low, all white'),
      j(LACED, '7994455719999', 3, 'AJ1 low collab, pale pink'),
      j(LACED, '7984931110975', 3, 'AJ1 high collab, mocha'),
      j(LACED, '7980119490623', 3, 'AJ1 low triple collab, blue'),
      j(LACED, '7980116869183', 3, 'AJ1 low, player edition'),
      j(LACED, '7972177936447', 3, 'AJ1 mid, grey'),
      j(LACED, '7972176691263', 3, 'AJ1 high, white/blue/black'),
      j(LACED, '7994460667967', 1, 'another Jordan model (4)'),
      j(LACED, '7980199575615', 1, 'another Jordan model (11)'),
    ],
  },
  {
    id: 'misspelling-samba',
    type: 'misspelling',
    text: 'addidas samba',
    store: LACED,
    judgements: [
      j(LACED, '8261575409727', 3, 'samba collab'),
      j(LACED, '8196991483967', 3, 'samba with character theme'),
      j(LACED, '7986053087295', 3, 'samba, floral purple'),
      j(LACED, '7986029166655', 3, 'samba, cardboard colour'),
      j(LACED, '7979982225471', 3, 'samba, white/maroon'),
      j(LACED, '7973546033215', 3, "women's samba variant"),
      j(LACED, '7972190322751', 3, "women's samba, cream"),
      j(LACED, '7972188225599', 3, 'samba, maroon/cream'),
      j(LACED, '7969235894335', 3, 'samba, navy'),
      j(LACED, '7968967524415', 3, 'samba'),
      j(LACED, '7968927612991', 3, 'samba'),
      j(LACED, '7968812367935', 1, 'adidas terrace shoe, other model'),
      j(LACED, '8161655619647', 1, 'adidas terrace shoe, other model'),
    ],
  },

  // ---------------------------------------------------------------- similar
  {
    id: 'similar-black-maxi-dress',
    type: 'similar',
    text: 'more like this black maxi dress',
    store: WOVEN,
    similarTo: { feed: WOVEN, id: '8179140591849' },
    judgements: [
      j(WOVEN, '8339405078761', 3, 'black button maxi dress'),
      j(WOVEN, '8339407175913', 3, 'black maxi dress'),
      j(WOVEN, '8179140788457', 3, 'black light maxi dress'),
      j(WOVEN, '8179137577193', 2, 'black dress, not maxi'),
      j(WOVEN, '8179136659689', 1, 'button dress, olive'),
      j(WOVEN, '8339409338601', 1, 'button shirt dress, striped'),
      j(WOVEN, '8380508733673', 1, 'button linen dress'),
    ],
  },
  {
    id: 'similar-leather-jacket',
    type: 'similar',
    text: 'similar to this leather jacket',
    store: HADES,
    similarTo: { feed: HADES, id: '10029070909744' },
    judgements: [j(HADES, '10014985388336', 2, 'faux-leather biker jacket, red')],
  },
  {
    id: 'similar-white-canvas-low',
    type: 'similar',
    text: 'shoes like these white canvas low tops',
    store: EGN,
    similarTo: { feed: EGN, id: '8546661400858' },
    judgements: [
      j(EGN, '8546661663002', 2, 'same canvas sneaker as a black high-top'),
      j(EGN, '8546653995290', 2, 'white canvas low lace-up'),
      j(EGN, '8546658058522', 2, 'white low skate shoe'),
      j(EGN, '8546656977178', 2, 'white low sneaker, leather'),
      j(EGN, '8546653602074', 1, 'canvas low lace-up, red'),
      j(EGN, '8546653208858', 1, 'canvas low lace-up, burgundy'),
      j(EGN, '8546662056218', 1, "toddlers' version, black mid"),
    ],
  },
  {
    id: 'similar-samba',
    type: 'similar',
    text: 'similar to this samba',
    store: LACED,
    similarTo: { feed: LACED, id: '7979982225471' },
    judgements: [
      j(LACED, '7972188225599', 3, 'same model, maroon/cream'),
      j(LACED, '8261575409727', 2, 'same model, other colour'),
      j(LACED, '8196991483967', 2, 'same model, themed'),
      j(LACED, '7986053087295', 2, 'same model, purple floral'),
      j(LACED, '7986029166655', 2, 'same model, cardboard colour'),
      j(LACED, '7973546033215', 2, "women's variant, white/black"),
      j(LACED, '7972190322751', 2, "women's, cream"),
      j(LACED, '7969235894335', 2, 'same model, navy'),
      j(LACED, '7968967524415', 2, 'same model'),
      j(LACED, '7968927612991', 2, 'same model'),
      j(LACED, '7968812367935', 1, 'adidas terrace shoe, other model'),
      j(LACED, '8161655619647', 1, 'adidas terrace shoe, other model'),
      j(LACED, '8161658437695', 1, 'adidas terrace shoe, cream/white'),
    ],
  },
  {
    id: 'similar-white-tee',
    type: 'similar',
    text: 'more tees like this one',
    store: KITH,
    similarTo: { feed: KITH, id: '8285549265024' },
    judgements: [
      j(KITH, '8285548871808', 3, 'white cotton tee, embroidered front'),
      j(KITH, '8285548478592', 3, 'white cotton pocket tee'),
      j(KITH, '8285548707968', 2, "women's white jersey tee"),
      j(KITH, '8285548740736', 1, 'knit polo'),
    ],
  },
  {
    id: 'similar-backpack',
    type: 'similar',
    text: 'other bags like this backpack',
    store: UBB,
    similarTo: { feed: UBB, id: '8557565509798' },
    judgements: [
      j(UBB, '8557565837478', 3, 'canvas backpack, same colourways'),
      j(UBB, '8557565247654', 3, 'canvas backpack, leather trim'),
      j(UBB, '8557565444262', 1, 'canvas lunch bag'),
      j(UBB, '8557565411494', 1, 'canvas wheeled duffle'),
    ],
  },
  {
    id: 'similar-high-waisted-pant',
    type: 'similar',
    text: 'similar pants',
    store: ANNIE,
    similarTo: { feed: ANNIE, id: '4262063472736' },
    judgements: [
      j(ANNIE, '4262069010528', 3, 'same high-waisted pant, chocolate'),
      j(ANNIE, '4285321216096', 3, 'same high-waisted pant, dark'),
      j(ANNIE, '7092433029', 3, 'same high-waisted pant, black linen'),
      j(ANNIE, '6794832453', 2, 'olive stretch pant'),
      j(ANNIE, '1496402821216', 2, 'high-waisted cotton pant, dotted'),
      j(ANNIE, '4511119540320', 2, 'high-waisted cotton trouser, white'),
      j(ANNIE, '389647302686', 2, 'high-waisted pant, plum flocking'),
      j(ANNIE, '1496352489568', 2, 'high-waisted pant, sand flocking'),
      j(ANNIE, '121242222622', 2, 'high-waisted pant, sand flocking'),
      j(ANNIE, '4262126780512', 1, 'roomy cotton pant'),
    ],
  },
  {
    id: 'similar-linen-blouse',
    type: 'similar',
    text: 'anything like this linen blouse',
    store: WOVEN,
    similarTo: { feed: WOVEN, id: '8380504932585' },
    judgements: [
      j(WOVEN, '8380500246761', 3, 'light collared blouse, beige/white check'),
      j(WOVEN, '8380496412905', 2, 'light pull-on top'),
      j(WOVEN, '8179136233705', 2, 'loose light top'),
      j(WOVEN, '8380506767593', 1, 'linen collared dress'),
    ],
  },

  // ---------------------------------------------------------------- attribute
  {
    id: 'attribute-silk-shirt',
    type: 'attribute',
    text: 'silk shirt',
    judgements: [
      j(KITH, '8285549133952', 3, 'silk jacquard camp-collar shirt'),
      j(KITH, '8285549363328', 2, 'cupro seersucker shirt, silk-like'),
      j(KITH, '8285549002880', 2, 'cupro seersucker shirt, silk-like'),
      j(KITH, '8285549035648', 1, "women's silk cover-up"),
      j(ANNIE, '4262045581408', 1, 'top/dress with a black silk option'),
    ],
  },
  {
    id: 'attribute-organic-cotton-top',
    type: 'attribute',
    text: 'organic cotton top',
    store: ANNIE,
    judgements: [
      j(ANNIE, '2404083781', 3, 'organic cotton tank'),
      j(ANNIE, '7047873797', 3, 'organic cotton tank'),
      j(ANNIE, '5499905029', 3, 'organic cotton hooded top'),
      j(ANNIE, '333102137', 3, 'organic cotton tank/dress'),
      j(ANNIE, '2027778900064', 3, 'organic cotton stretch top'),
      j(ANNIE, '4511117770848', 3, 'organic cotton knit tee'),
      j(ANNIE, '5272577736854', 3, 'organic cotton long-sleeve top'),
      j(ANNIE, '4622021296224', 3, 'organic knit top'),
      j(ANNIE, '4262040338528', 3, 'organic cotton knit top'),
      j(ANNIE, '7836362834070', 2, 'organic cotton bodysuit'),
      j(ANNIE, '6134326231190', 2, 'organic cotton knit dress/top'),
      j(ANNIE, '4262037291104', 2, 'organic cotton knit dress/top'),
      j(ANNIE, '7901997006998', 2, 'organic cotton sweatshirt'),
      j(ANNIE, '3089112773', 1, 'lyocell top, not cotton'),
    ],
  },
  {
    id: 'attribute-oversized-tee',
    type: 'attribute',
    text: 'oversized tee',
    store: HADES,
    judgements: [
      j(HADES, '9900190957872', 3, 'relaxed oversized tee'),
      j(HADES, '15124961100080', 3, 'boxy oversized rib tee'),
      j(HADES, '15124959625520', 3, 'boxy oversized rib tee'),
      j(HADES, '15124958282032', 2, 'oversized waffle top'),
      j(HADES, '15124956512560', 2, 'oversized waffle top'),
      j(HADES, '10072788926768', 2, 'oversized waffle top'),
      j(HADES, '15124962705712', 2, 'sleeveless oversized vest'),
    ],
  },
  {
    id: 'attribute-high-top-sneakers',
    type: 'attribute',
    text: 'high top sneakers',
    store: EGN,
    judgements: [
      j(EGN, '8546661663002', 3, 'canvas high-top'),
      j(EGN, '8546657501466', 3, 'high-top skate shoe'),
      j(EGN, '8546654978330', 3, 'leather high-top with cut-outs'),
      j(EGN, '8546656747802', 3, 'high-top skate sneaker'),
      j(EGN, '8546655469850', 2, 'boot-style high-top'),
      j(EGN, '8546662056218', 1, "toddlers' mid-top"),
    ],
  },
  {
    id: 'attribute-striped-sweater',
    type: 'attribute',
    text: 'striped sweater',
    judgements: [
      j(WOVEN, '8188728017129', 3, 'navy/white striped knit'),
      j(ANNIE, '7803241037974', 1, 'hoodie jacket with mini-stripe options'),
      j(ANNIE, '7346113249430', 1, 'striped jacket'),
    ],
  },
  {
    id: 'attribute-wool-trousers',
    type: 'attribute',
    text: 'wool trousers',
    judgements: [
      j(KITH, '8285548937344', 3, 'extra-fine wool pleated trouser'),
      j(ANNIE, '7901998383254', 3, 'pinstripe wool trouser'),
      j(ANNIE, '7901994811542', 3, 'striped washed wool trouser'),
      j(KITH, '8285549232256', 1, 'silk trouser'),
    ],
  },

  // ---------------------------------------------------------------- size
  {
    id: 'size-black-sneakers-42',
    type: 'size',
    text: 'black sneakers size 42',
    store: LACED,
    judgements: [
      j(LACED, '8191741493311', 3, 'all-black chunky sneaker, 42 in stock'),
      j(LACED, '8158160191551', 3, 'black/grey runner, 42 in stock'),
      j(LACED, '8072449228863', 3, 'black retro runner, 42 in stock'),
      j(LACED, '7980199215167', 3, 'black/gum skate low-top, 42 in stock'),
      j(LACED, '7980172345407', 3, 'black/gum terrace shoe, 42 in stock'),
      j(LACED, '7980199575615', 2, 'high-top, 42 in stock; colour only as sneaker slang for black/red'),
      j(LACED, '7980200755263', 2, 'velvet high-top, 42 in stock; colour only as sneaker slang for black/red'),
      j(LACED, '8232391278655', 2, 'black/olive low-top, 42 in stock'),
      j(LACED, '8159656181823', 2, 'grey/black skate shoe, 42 in stock'),
      j(LACED, '7979987271743', 2, 'black/white runner, 42 in stock'),
      j(LACED, '8080812834879', 2, 'low-top, 42 in stock; colour only as a nickname for black/white'),
      j(LACED, '8074057121855', 2, 'white/black high-top, 42 in stock'),
      j(LACED, '7980040454207', 2, 'white/black low-top, 42 in stock'),
      j(LACED, '7979725422655', 2, 'black/green/white skate low-top, 42 in stock'),
      j(LACED, '8156480143423', 1, 'black chunky runner, no 42'),
      j(LACED, '8157219979327', 2, 'black runner, 42 offered but sold out'),
      j(LACED, '8167745421375', 2, 'black/grey low-top, 42 offered but sold out'),
      j(LACED, '7979731124287', 1, 'cream/black runner, 42 sold out'),
    ],
  },
  {
    id: 'size-mens-boots-10',
    type: 'size',
    text: "men's boots size 10",
    judgements: [
      j(EGN, '8546659172634', 3, "men's work boot, US 10 in stock"),
      j(UBB, '8557565575334', 2, "men's work boot, US 10 sold out"),
      j(EGN, '8546655469850', 2, "men's boot-style high-top, US 10 in stock"),
    ],
  },
  {
    id: 'size-dress-xl',
    type: 'size',
    text: 'dress in XL',
    store: WOVEN,
    judgements: [
      j(WOVEN, '8380508733673', 3, 'linen dress, XL in stock'),
      j(WOVEN, '8380506767593', 3, 'linen dress, XL in stock'),
      j(WOVEN, '8339407175913', 1, 'dress, largest size is L'),
      j(WOVEN, '8179140591849', 1, 'dress, largest size is L'),
    ],
  },
  {
    id: 'size-pants-8',
    type: 'size',
    text: 'pants size 8',
    store: ANNIE,
    judgements: [
      j(ANNIE, '7120701765', 3, 'muslin pant, size 8 in stock'),
      j(ANNIE, '389647302686', 3, 'high-waisted pant, size 8 in stock'),
      j(ANNIE, '1496402821216', 2, 'high-waisted pant, size 8 sold out'),
      j(ANNIE, '1512302903392', 2, 'velvet pant, size 8 sold out'),
      j(ANNIE, '1496352489568', 2, 'high-waisted pant, size 8 sold out'),
      j(ANNIE, '4511119638624', 2, 'muslin pant, size 8 sold out'),
      j(ANNIE, '7092611653', 2, 'linen trousers, size 8 sold out'),
      j(ANNIE, '7049594629', 1, 'muslin pant, no size 8'),
    ],
  },
  {
    id: 'size-samba-42-in-stock',
    type: 'size',
    text: 'samba size 42 in stock',
    store: LACED,
    judgements: [
      j(LACED, '7968927612991', 3, 'samba with 42 in stock'),
      j(LACED, '7979982225471', 1, 'samba, sizes stop at 41'),
      j(LACED, '7969235894335', 1, 'samba, sizes stop at 41'),
    ],
  },
];
