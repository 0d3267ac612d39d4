// Judged shopper conversations for the agent-quality benchmark. Written before any agent run;
// nothing here came from running the service's search or agent.
//
// WHAT IT IS
// 69 short conversations (one or two shopper turns) over the seven fixture feeds in
// ../shared/fixtures/shopify (see SOURCES.md there). Each turn says what a good stylist reply
// does: which products answer it (graded), whether it should ask a multiple-choice question,
// which budget or size every shown product must respect, how a refinement relates to the
// previous turn, which slots a composed look draws from, or which cart action it produces.
// A product is named only by its feed file and Shopify product id (the service's sku is
// String(id)); the `why` notes are our own short descriptions. No title, description, handle or
// price is copied from the feeds: the fixtures come from public repositories without a licence
// and stay outside this repo. Shopper utterances name garments and well-known sneaker models in
// our own words, never a listing's title.
//
// COUNTS PER KIND
//   single 23 · refine 15 · open 10 · look 10 · cart 11 · total 69 (node --import tsx
//   bench/agent-quality/check.ts prints them with the grade counts). Every feed is used: Woven 11,
//   Annie Thompson 15, laced-store 8, Kith 5, Hades Culture 7, United By Blue 8, Leon-Sander 8,
//   all feeds as one catalogue 7 (laced-store has no look: it sells sneakers only, nothing to
//   build an outfit from). Three turns have `relevant: []` (nothing in scope answers):
//   swimwear at Woven, sandals at the sneaker store, a men's jacket under 150 at United By Blue.
//
// HOW WE JUDGED (the rules of bench/search-quality/queries.ts, extended to conversations)
// - Pooling: for each turn we searched the feeds broadly with throwaway scripts kept outside the
//   repo (regexes over title, product_type, tags, option names/values, handle and body text for
//   the garment, its synonyms, the colour and near colours, the material, the occasion words, the
//   gender cues), listed every product of the right family in the scope, and then READ each
//   candidate: title, type, vendor, tags, options, every variant (price, size, available) and the
//   body. Grades were decided by hand from that reading. No engine output and no ranking from any
//   tool was used; the order of `relevant` means nothing.
// - Scope: a conversation with `store` is judged against that feed only (the shopper is on that
//   store's site; `country` is the store's home market, so prices are read in its currency). One
//   without `store` is judged against all seven feeds as one catalogue. Budgets and sizes are only
//   asked in scoped conversations (currencies and size systems differ across feeds).
// - Grades: 3 = answers the turn exactly (right family, colour, gender and every hard constraint:
//   budget, size in stock when a size is asked). 2 = one soft mismatch (near colour; close family
//   such as a cardigan for "sweater", a waffle top for "t-shirt", a coat for "jacket", a boot-like
//   high-top for "boots"; an explicitly unisex item for a gendered request; the asked size offered
//   but sold out). 1 = related (same family in another colour, over budget, no such size, weak for
//   the occasion). 0 = not relevant and never written: an unlisted product is 0.
// - Exhaustiveness: grade-3 and grade-2 lists are complete within the scope; grade-1 lists are best
//   effort (a few close neighbours).
// - Price: a product's price is the LOWEST price among its in-stock variants, in the feed's own
//   currency (CAD Woven and Annie Thompson, USD Kith, United By Blue and Leon-Sander, INR Hades,
//   EGP probably for laced-store). When no variant is in stock (every Kith product: the capsule
//   is a sold-out drop) the lowest variant price stands in. "under X" means price <= X. Sale
//   prices are the current `price`, never compare_at_price. The right kind over budget is grade 1.
// - Stock: a sold-out product keeps its grade unless the turn asks for a size (or says "in
//   stock"). That holds for colours too: a colour offered only in sold-out variants still counts.
// - Size: grade 3 needs a variant with that size and available = true; the size offered but sold
//   out is grade 2; the size not offered is grade 1 at most. `size` is written as the feed labels
//   it (the check compares option values case-insensitively): Woven spells Small/Medium/Large,
//   Annie Thompson and United By Blue S/M/L, laced-store EU shoe sizes, Leon-Sander US sizes.
//   A letter size is never read as a number size or the other way round.
// - Gender: the store's audience first (Woven and Annie Thompson womenswear; Kith vendor "Kith" is
//   the men's line, "Kith Women" the women's; United By Blue says Mens/Womens in product_type;
//   Leon-Sander tags men/women/kid/unisex; laced-store and Hades are mixed). Then the product's own
//   words: androgenous/genderless/co-ed/unisex tags or "chicks + gents" make an item explicitly
//   unisex (grade 2 for a gendered request). Other-gender items are 0. Items with no gender cue in
//   a mixed store are at most 1.
// - Colour: option values, then title, then body. Navy is not black; an ink/indigo stripe on white
//   is a near blue (2); colour given only by a sneaker nickname is at most 2.
// - Occasion and "warm"/"summer" words: 3 = the product's own words name the occasion or it is a
//   clear fit, 2 = a plausible piece, 1 = loosely plausible.
// - Non-apparel test items (snowboards, gift cards, ski wax, fees) are never relevant.
//
// HOW EACH KIND IS JUDGED
// - single: one request; `relevant` as above, with `maxPrice`/`size` when the request has them.
// - refine: turn 1 is a plain request, turn 2 refines it; turn 2's `relevant` judges the COMBINED
//   request (turn 1 plus the refinement). 'colour', 'budget', 'size', 'family' grade as that
//   combined request. 'other' ("show me other ones"): turn 2 lists the same pool as turn 1; the
//   runner checks that nothing shown in turn 1 comes back. 'cheaper': the runner checks every shown
//   product against the median price of what turn 1 actually showed; our static `relevant` uses
//   the median price of turn 1's grade-3 list as the stand-in reference (a product strictly below
//   it keeps its grade, one at or above it is at most 1), and check.ts verifies that.
// - open: turn 1 is too open to search ("I need an outfit", "gift ideas", "what should I wear?"),
//   so `question: true` and nothing is judged. Turn 2 is the shopper's answer to that question and
//   is judged like a single request in the same scope.
// - look: `look.slots` are document 1 slot names (domain/catalogue/vocabulary.ts SLOTS; a cardigan
//   is a top, a vest or blazer is outerwear, a scarf or belt an accessory, a hat or cap headwear, a
//   necklace jewellery). `relevant` lists, per slot, the products of the scope that fit the look:
//   3 = clear fit for the brief (and for the page product when one is given), 2 = plausible, 1 =
//   weak. The page product itself is listed in its own slot (the look should be built around it).
// - cart: `cart` is the snapshot sent with every turn; `expect.cart` is the single cart action the
//   turn should produce. `size` names the variant option value that picks the variant: a size, or
//   the colour for a one-size product in colours. A line whose product also varies by colour uses
//   the first variant in feed order with that size. `product` on a swap is the product put in the
//   line's place (the same product when only the size changes).
//
// TYPE REFINEMENTS (kept every field of the brief)
// - `Judged.slot` (optional): the slot a product fills in a look turn, so a runner can check a
//   composed look piece by piece. Only look turns set it.
// - `Feed` is the union of the seven fixture file names of bench/search-quality/queries.ts.
//
// One judge (this file's author) did all grades in one pass; expect some noise in 1-versus-2
// calls, and trust the grade >= 2 boundary most. The occasion and look grades are the softest.

import { ANNIE, EGN, HADES, KITH, LACED, UBB, WOVEN } from '../search-quality/queries.js';

export type Feed = typeof WOVEN | typeof ANNIE | typeof LACED | typeof KITH | typeof HADES | typeof UBB | typeof EGN;
export const FEED_LIST: readonly Feed[] = [WOVEN, ANNIE, LACED, KITH, HADES, UBB, EGN];

export interface ProductRef {
  feed: Feed;
  id: number;
}

export interface Judged extends ProductRef {
  grade: 1 | 2 | 3;
  why: string;
  /** Look turns only: the document 1 slot this product fills in the look. */
  slot?: string;
}

export interface ExpectTurn {
  /** Products that answer this turn, graded as the search set grades (3 exact, 2 one soft mismatch, 1 related). Grade-3 and grade-2 lists exhaustive within scope. Empty array when nothing in the catalogue answers (then the agent should say so, not show unrelated products). */
  relevant?: Judged[];
  /** The request is too open to search: the agent should ask a multiple-choice question instead of (or before) showing products. */
  question?: boolean;
  /** Budget in the scoped store's currency: every product shown must cost at most / at least this (lowest in-stock variant price). */
  maxPrice?: number;
  minPrice?: number;
  /** Every product shown must have this size in stock. */
  size?: string;
  /** Turn 2+ refinements, checked against what the previous turn showed: 'cheaper' (every product shown cheaper than the previous turn's median shown price), 'colour' (colour named in `colour`), 'other' ("something else": none of the previous turn's products again), 'budget', 'size', 'family'. */
  refinement?: { kind: 'cheaper' | 'colour' | 'other' | 'budget' | 'size' | 'family'; colour?: string };
  /** A look request: the agent should compose a look (compose_looks) with pieces from these slots (document 1 slot names: top, bottom, footwear, outerwear, full body, accessory, bag, ...). */
  look?: { slots: string[] };
  /** A cart edit: the cart_action the agent should produce. */
  cart?: { action: 'add' | 'swap' | 'quantity' | 'remove'; lineKey?: string; product?: ProductRef; size?: string; quantity?: number };
}

export interface ConversationTurn {
  user: string;
  expect: ExpectTurn;
}

export interface JudgedConversation {
  id: string;
  kind: 'single' | 'refine' | 'open' | 'look' | 'cart';
  /** Scope to one feed's dataset (the shopper is on that store's site); absent = all feeds as one catalogue. */
  store?: Feed;
  /** Shopper country (two letters) when relevant; default none. */
  country?: string;
  /** The product page the shopper is on (for "this"/"it"): a product of the scoped feed. */
  page?: ProductRef;
  /** A cart snapshot sent with every turn (cart kind): lines reference feed products; the runner builds the CartSnapshot from the feed (title, variant, price), keys as given here. */
  cart?: Array<{ key: string; product: ProductRef; size?: string; quantity: number }>;
  turns: ConversationTurn[];
}

const j = (feed: Feed, id: number, grade: 1 | 2 | 3, why: string): Judged => ({ feed, id, grade, why });
const s = (slot: string, feed: Feed, id: number, grade: 1 | 2 | 3, why: string): Judged => ({ feed, id, grade, why, slot });
const ref = (feed: Feed, id: number): ProductRef => ({ feed, id });

// Pools used by more than one turn (each judged once, by reading).
const EGN_MENS_SNEAKERS: Judged[] = [
  j(EGN, 8546656977178, 3, "men's white leather shell-toe"),
  j(EGN, 8546655895834, 3, "men's black retro runner"),
  j(EGN, 8546661663002, 3, "men's black canvas high-top"),
  j(EGN, 8546661400858, 3, "men's white canvas low-top"),
  j(EGN, 8546656354586, 3, "men's red suede low-top"),
  j(EGN, 8546656747802, 3, "men's grey high-top skate shoe"),
  j(EGN, 8546654421274, 3, "men's blue patterned skate shoe"),
  j(EGN, 8546653995290, 3, "men's white/black printed skate shoe"),
  j(EGN, 8546653602074, 3, "men's red gradient skate shoe"),
  j(EGN, 8546658615578, 3, "men's beige suede slip-on"),
  j(EGN, 8546657304858, 3, "men's light brown skate shoe"),
  j(EGN, 8546658058522, 3, "men's white/black printed side-stripe skate shoe"),
  j(EGN, 8546657501466, 3, "men's black high-top skate shoe"),
  j(EGN, 8546654978330, 3, "men's white cut-out leather high-top"),
  j(EGN, 8546653208858, 3, "men's burgundy low-profile low-top"),
  j(EGN, 8546655469850, 2, "men's canvas/leather boot-style high-top"),
];

const EGN_WHITE_SNEAKERS: Judged[] = [
  j(EGN, 8546656977178, 3, 'white leather shell-toe'),
  j(EGN, 8546661400858, 3, 'white canvas low-top'),
  j(EGN, 8546653995290, 3, 'white skate shoe with black print'),
  j(EGN, 8546658058522, 3, 'white skate shoe with black side stripe and print'),
  j(EGN, 8546654978330, 2, 'white high-top with a leaf cut-out pattern'),
  j(EGN, 8546662744346, 1, "white leather sneaker, kids' sizes"),
];

const LACED_DUNK_LOWS: Judged[] = [
  j(LACED, 8080812834879, 3, 'black/white low-top of that model'),
  j(LACED, 8080814276671, 3, 'green/white retro low of that model'),
  j(LACED, 7986747572287, 3, 'brown low of that model'),
  j(LACED, 7973640110143, 3, 'dark red low of that model'),
  j(LACED, 7973655347263, 3, "women's pastel low of that model"),
  j(LACED, 8119860822079, 3, 'ivory platform variant of that model'),
  j(LACED, 8110939242559, 3, "women's low of that model"),
  j(LACED, 8159655264319, 3, 'skate version of that model, signature colourway'),
  j(LACED, 7980199215167, 3, 'skate version, black/gum'),
  j(LACED, 7980198690879, 3, 'skate version, white/gum'),
  j(LACED, 8068931158079, 3, 'skate version, artist collaboration'),
  j(LACED, 7973300338751, 3, 'skate version, artist collaboration'),
  j(LACED, 7969332396095, 3, 'skate version, soda-brand collaboration'),
  j(LACED, 8068928241727, 3, 'blue stitched-panel low of that model'),
  j(LACED, 7980184174655, 3, 'light stitched-panel low of that model, sold out'),
  j(LACED, 7980103303231, 3, 'skate version, illustrator collaboration, sold out'),
  j(LACED, 7979725422655, 3, 'skate version, black/green/white'),
  j(LACED, 8232390852671, 1, 'skate-line sneaker, model unclear from the listing'),
  j(LACED, 8072450637887, 1, 'low basketball sneaker of another line'),
];

export const JUDGED_CONVERSATIONS: JudgedConversation[] = [
  // ================================================================ single (23)
  {
    id: 'single-black-dress-under-150',
    kind: 'single',
    store: WOVEN,
    country: 'CA',
    turns: [
      {
        user: 'black dress under 150',
        expect: {
          maxPrice: 150,
          relevant: [
            j(WOVEN, 8339405078761, 3, 'black button-front maxi, puff sleeves, in budget'),
            j(WOVEN, 8339407175913, 3, 'black pull-on tiered maxi, in budget'),
            j(WOVEN, 8179137577193, 3, 'little black dress with belt, in budget'),
            j(WOVEN, 8179140591849, 3, 'black button-front maxi, just in budget'),
            j(WOVEN, 8380506767593, 2, 'linen dress in white/black check, in budget'),
            j(WOVEN, 8179140788457, 1, 'black maxi, over budget'),
            j(WOVEN, 8179136659689, 1, 'dark olive dress, in budget'),
          ],
        },
      },
    ],
  },
  {
    id: 'single-swimwear-woven-none',
    kind: 'single',
    store: WOVEN,
    country: 'CA',
    turns: [{ user: 'do you have any swimsuits?', expect: { relevant: [] } }],
  },
  {
    id: 'single-light-spring-jacket',
    kind: 'single',
    store: WOVEN,
    country: 'CA',
    turns: [
      {
        user: 'a light jacket for spring',
        expect: {
          relevant: [
            j(WOVEN, 8380510273769, 3, 'breathable linen jacket for warm months'),
            j(WOVEN, 8179145015529, 3, 'lightweight beige linen jacket for spring'),
            j(WOVEN, 8380494479593, 2, 'knee-length lightweight knit cardigan, a layer'),
            j(WOVEN, 8380513616105, 1, 'lightweight sweater'),
          ],
        },
      },
    ],
  },
  {
    id: 'single-warm-winter-coat',
    kind: 'single',
    store: ANNIE,
    country: 'CA',
    turns: [
      {
        user: 'I need a warm winter coat',
        expect: {
          relevant: [
            j(ANNIE, 7828516339862, 3, 'wool winter coat, quilted sleeves, wrap collar'),
            j(ANNIE, 5945339805846, 3, 'long cotton-velvet coat meant for cold days'),
            j(ANNIE, 121104597022, 2, 'cotton-velvet coat of the same line, no winter cue'),
            j(ANNIE, 7656982839446, 2, 'cotton-velvet coat, lined, all season'),
            j(ANNIE, 5727041061014, 2, 'oversize brushed-cotton coat, multi season'),
            j(ANNIE, 7657017082006, 2, 'insulated quilted jacket for snow sports'),
            j(ANNIE, 4262079365216, 2, 'corduroy half jacket half coat, tagged warm'),
            j(ANNIE, 7642831519894, 1, 'cool-wool shirt jacket, tri-season'),
            j(ANNIE, 422804389918, 1, 'brocade coat, no warmth cue'),
            j(ANNIE, 7803241037974, 1, 'cotton hooded jacket for fall'),
          ],
        },
      },
    ],
  },
  {
    id: 'single-leggings-under-200',
    kind: 'single',
    store: ANNIE,
    country: 'CA',
    turns: [
      {
        user: 'leggings under $200',
        expect: {
          maxPrice: 200,
          relevant: [
            j(ANNIE, 6794797637, 3, 'grey/black stripe bamboo-cotton leggings'),
            j(ANNIE, 365105125, 3, 'black/grey stripe stretch leggings'),
            j(ANNIE, 7580685189, 3, 'navy/red bamboo-cotton leggings'),
            j(ANNIE, 8413213637, 2, 'shorts with attached skirt, tagged leggings'),
            j(ANNIE, 5726930043030, 1, 'knit leggings with built-in skirt, over budget'),
          ],
        },
      },
    ],
  },
  {
    id: 'single-pink-scarf',
    kind: 'single',
    store: ANNIE,
    country: 'CA',
    turns: [
      {
        user: 'a pink scarf',
        expect: {
          relevant: [
            j(ANNIE, 5727256576150, 3, 'fuchsia angora scarf'),
            j(ANNIE, 7836717318294, 3, 'fuchsia angora pull-on neck scarf'),
            j(ANNIE, 4621974962272, 2, 'orchid/crimson knit neck bandeau'),
            j(ANNIE, 5726613667990, 1, 'magenta angora ear-warmer hat, not a scarf'),
          ],
        },
      },
    ],
  },
  {
    id: 'single-black-vest',
    kind: 'single',
    store: ANNIE,
    country: 'CA',
    turns: [
      {
        user: 'a black vest',
        expect: {
          relevant: [
            j(ANNIE, 7092633861, 3, 'black cotton vest with button closure'),
            j(ANNIE, 5500793925, 3, 'loose black cotton single-button vest'),
            j(ANNIE, 5726881153174, 3, 'A-line vest in black coated cotton'),
            j(ANNIE, 121079824414, 2, 'black suiting vest dress'),
            j(ANNIE, 7803139031190, 1, 'same A-line vest, this listing in olive linen'),
            j(ANNIE, 528714924062, 1, 'red plaid vest'),
            j(ANNIE, 6794737541, 1, 'olive jacquard fitted vest'),
          ],
        },
      },
    ],
  },
  {
    id: 'single-crossbody-bag',
    kind: 'single',
    store: ANNIE,
    country: 'CA',
    turns: [
      {
        user: 'a crossbody bag',
        expect: {
          relevant: [
            j(ANNIE, 7855505703062, 3, 'upcycled black/grey cross-body or shoulder bag'),
            j(ANNIE, 7855448883350, 3, 'upcycled green cross-body bag, sold out'),
            j(ANNIE, 4618054008928, 3, 'upcycled cross-body knapsack'),
            j(ANNIE, 7855483322518, 2, 'petite shoulder bag with adjustable strap'),
            j(ANNIE, 7346107089046, 1, 'mini clutch / makeup bag'),
            j(ANNIE, 7346093326486, 1, 'quilted shoulder tote'),
          ],
        },
      },
    ],
  },
  {
    id: 'single-running-shoes-42',
    kind: 'single',
    store: LACED,
    country: 'EG',
    turns: [
      {
        user: 'running shoes size 42',
        expect: {
          size: '42',
          relevant: [
            j(LACED, 8133163515967, 3, 'performance running shoe, 42 in stock'),
            j(LACED, 7979550670911, 3, "women's running model, 42 in stock"),
            j(LACED, 8158160191551, 2, 'running-styled lifestyle sneaker, 42 in stock'),
            j(LACED, 8122996654143, 2, 'retro-runner lifestyle sneaker, 42 in stock'),
            j(LACED, 8115896352831, 2, 'retro-runner lifestyle sneaker, 42 in stock'),
            j(LACED, 8080817881151, 2, 'retro running silhouette, 42 in stock'),
            j(LACED, 8072451620927, 2, 'retro running silhouette, 42 in stock'),
            j(LACED, 7985021026367, 2, 'retro running silhouette, 42 in stock'),
            j(LACED, 8072449228863, 2, 'black retro runner, 42 in stock'),
            j(LACED, 7972192288831, 2, 'running model, 42 offered but sold out'),
            j(LACED, 7980126306367, 2, 'running model, 42 offered but sold out'),
            j(LACED, 7979731124287, 2, 'running model, 42 offered but sold out'),
            j(LACED, 8196999708735, 1, 'chunky lifestyle runner, 42 in stock'),
            j(LACED, 8191747358783, 1, 'chunky lifestyle runner, 42 in stock'),
            j(LACED, 8110933671999, 1, 'chunky lifestyle runner, 42 in stock'),
            j(LACED, 7979987271743, 1, 'designer lifestyle runner, 42 in stock'),
            j(LACED, 7980104548415, 1, 'running shoe, no 42'),
            j(LACED, 8152911773759, 1, 'running-line sneaker, no 42'),
          ],
        },
      },
    ],
  },
  {
    id: 'single-jordan-4-size-40',
    kind: 'single',
    store: LACED,
    country: 'EG',
    turns: [
      {
        user: 'air jordan 4 in size 40',
        expect: {
          size: '40',
          relevant: [
            j(LACED, 7994460667967, 3, 'white/black speckle colourway, 40 in stock'),
            j(LACED, 7985021354047, 3, 'white colourway, 40 in stock'),
            j(LACED, 7979728633919, 3, 'light blue colourway, 40 in stock'),
            j(LACED, 7973660459071, 3, 'pink/black speckle colourway, 40 in stock'),
            j(LACED, 7972180328511, 3, 'white/grey/black colourway, 40 in stock'),
            j(LACED, 7969265713215, 3, 'white/grey/black colourway, 40 in stock'),
            j(LACED, 8068930371647, 1, 'another Jordan line (1 low), 40 in stock'),
            j(LACED, 7972177936447, 1, 'another Jordan line (1 mid), 40 in stock'),
          ],
        },
      },
    ],
  },
  {
    id: 'single-sandals-sneaker-store-none',
    kind: 'single',
    store: LACED,
    country: 'EG',
    turns: [{ user: 'sandals for the summer', expect: { relevant: [] } }],
  },
  {
    id: 'single-mens-shorts',
    kind: 'single',
    store: KITH,
    country: 'US',
    turns: [
      {
        user: "men's shorts",
        expect: {
          relevant: [
            j(KITH, 8285548576896, 3, "men's printed seersucker drawcord short"),
            j(KITH, 8285548544128, 3, "men's printed drawcord short"),
            j(KITH, 8285549232256, 1, "men's silk summer trouser"),
            j(KITH, 8285548937344, 1, "men's wool trouser"),
          ],
        },
      },
    ],
  },
  {
    id: 'single-womens-white-tee',
    kind: 'single',
    store: KITH,
    country: 'US',
    turns: [
      {
        user: 'a white t-shirt for women',
        expect: {
          relevant: [j(KITH, 8285548707968, 3, "women's line white jersey tee")],
        },
      },
    ],
  },
  {
    id: 'single-leather-jacket-hades',
    kind: 'single',
    store: HADES,
    country: 'IN',
    turns: [
      {
        user: 'leather jacket',
        expect: {
          relevant: [
            j(HADES, 10029070909744, 3, 'brown leather zip jacket, lined'),
            j(HADES, 10014985388336, 2, 'red faux-leather biker jacket'),
          ],
        },
      },
    ],
  },
  {
    id: 'single-black-tee-xl',
    kind: 'single',
    store: HADES,
    country: 'IN',
    turns: [
      {
        user: 'black t-shirt in XL',
        expect: {
          size: 'XL',
          relevant: [
            j(HADES, 15124959625520, 3, 'black boxy rib tee, XL in stock'),
            j(HADES, 10072788926768, 2, 'black oversized waffle top, XL in stock'),
            j(HADES, 9900190957872, 1, 'oversized terry tee, colour not stated'),
            j(HADES, 15124961100080, 1, 'brown boxy rib tee'),
          ],
        },
      },
    ],
  },
  {
    id: 'single-backpack-under-130',
    kind: 'single',
    store: UBB,
    country: 'US',
    turns: [
      {
        user: 'a backpack under 130 dollars',
        expect: {
          maxPrice: 130,
          relevant: [
            j(UBB, 8557565837478, 3, 'canvas backpack, four zip compartments, in budget'),
            j(UBB, 8557565509798, 3, 'padded canvas adventure backpack, just in budget'),
            j(UBB, 8557565247654, 1, 'canvas backpack with leather trim, over budget'),
          ],
        },
      },
    ],
  },
  {
    id: 'single-womens-tee-size-m',
    kind: 'single',
    store: UBB,
    country: 'US',
    turns: [
      {
        user: "women's t-shirt in size M",
        expect: {
          size: 'M',
          relevant: [
            j(UBB, 8557565051046, 3, "women's white organic tee, M in stock"),
            j(UBB, 8557565345958, 3, "women's gunmetal organic tee, M in stock"),
            j(UBB, 8557565280422, 2, "women's cream organic tee, M sold out"),
            j(UBB, 8557565313190, 2, "women's navy organic tee, M sold out"),
            j(UBB, 8557565608102, 2, "women's long-sleeve relaxed shirt, M in stock"),
            j(UBB, 8557565542566, 1, "women's woven plaid shirt, M sold out"),
          ],
        },
      },
    ],
  },
  {
    id: 'single-mens-sneakers-size-10',
    kind: 'single',
    store: EGN,
    country: 'US',
    turns: [
      {
        user: "men's sneakers in size 10",
        expect: {
          size: '10',
          relevant: [
            j(EGN, 8546656977178, 3, "men's white shell-toe, 10 in stock"),
            j(EGN, 8546661400858, 3, "men's white canvas low-top, 10 in stock"),
            j(EGN, 8546656747802, 3, "men's grey high-top, 10 in stock"),
            j(EGN, 8546654421274, 3, "men's blue patterned skate shoe, 10 in stock"),
            j(EGN, 8546657304858, 3, "men's light brown skate shoe, 10 in stock"),
            j(EGN, 8546657501466, 3, "men's black high-top skate shoe, 10 in stock"),
            j(EGN, 8546654978330, 3, "men's white cut-out high-top, 10 in stock"),
            j(EGN, 8546653208858, 3, "men's burgundy low-top, 10 in stock"),
            j(EGN, 8546655469850, 2, "men's boot-style high-top, 10 in stock"),
            j(EGN, 8546661663002, 1, "men's black canvas high-top, no 10"),
            j(EGN, 8546655895834, 1, "men's retro runner, no 10"),
            j(EGN, 8546656354586, 1, "men's red suede low-top, no 10"),
          ],
        },
      },
    ],
  },
  {
    id: 'single-womens-boots-size-7',
    kind: 'single',
    store: EGN,
    country: 'US',
    turns: [
      {
        user: "women's boots, size 7",
        expect: {
          size: '7',
          relevant: [
            j(EGN, 8546661007642, 3, "women's cherry-red 8-eye leather boot, 7 in stock"),
            j(EGN, 8546659959066, 1, "women's black 3-eye leather shoe, not a boot"),
            j(EGN, 8546660450586, 1, "women's black 3-eye leather shoe, not a boot"),
          ],
        },
      },
    ],
  },
  {
    id: 'single-warm-winter-for-him',
    kind: 'single',
    turns: [
      {
        user: 'something warm for winter for him',
        expect: {
          relevant: [
            j(UBB, 8557565477030, 3, "men's woolfill work jacket"),
            j(EGN, 8546659172634, 3, "men's waterproof leather winter boot"),
            j(EGN, 8546655469850, 2, "men's canvas/leather boot tagged winter"),
            j(UBB, 8557565575334, 2, "men's leather lace-up work boot"),
            j(KITH, 8285548839040, 2, "men's wool bomber, not a winter coat"),
            j(ANNIE, 7828516339862, 2, 'wool winter coat tagged genderless'),
            j(ANNIE, 6142137106582, 2, 'faux-fur winter vest for "chicks + gents"'),
            j(ANNIE, 7855439118486, 2, 'wool winter scarf tagged men and women'),
            j(ANNIE, 6134238249110, 2, 'warm faux-fur hat, "not just for chicks"'),
            j(ANNIE, 7676785918102, 2, 'fleece-lined winter hat, androgynous'),
            j(ANNIE, 7803286159510, 2, 'warm neck warmer tagged genderless'),
            j(ANNIE, 7901997006998, 2, 'cozy winter sweatshirt tagged co-ed'),
            j(ANNIE, 5727256576150, 2, 'angora scarf tagged androgenous'),
            j(HADES, 10029070909744, 1, 'warm lined leather jacket, no gender cue'),
            j(KITH, 8285548937344, 1, "men's wool trouser"),
          ],
        },
      },
    ],
  },
  {
    id: 'single-womens-swimwear',
    kind: 'single',
    turns: [
      {
        user: "women's swimwear",
        expect: {
          relevant: [
            j(KITH, 8285549396096, 3, "women's monogram bikini set"),
            j(KITH, 8285549035648, 2, "women's silk beach cover-up"),
            j(WOVEN, 8380508733673, 1, 'linen dress that doubles as a beach cover-up'),
            j(ANNIE, 8647752325, 1, 'cotton coatdress that doubles as a beach cover-up'),
          ],
        },
      },
    ],
  },
  {
    id: 'single-shoes-for-kid',
    kind: 'single',
    turns: [
      {
        user: 'shoes for my kid',
        expect: {
          relevant: [
            j(EGN, 8546662744346, 3, "kids' white leather tennis sneaker"),
            j(EGN, 8546662056218, 3, "toddler black no-tie mid sneaker"),
            j(EGN, 8546662351130, 3, 'toddler black mesh sneaker'),
            j(LACED, 7973423677503, 2, 'grade-school sized basketball low'),
            j(LACED, 8166943293503, 2, 'grade-school labelled basketball low, adult sizes listed'),
          ],
        },
      },
    ],
  },
  {
    id: 'single-silk-scarf',
    kind: 'single',
    turns: [
      {
        user: 'a silk scarf',
        expect: {
          relevant: [
            j(KITH, 8285549166720, 3, 'printed silk bandana'),
            j(KITH, 8285548806272, 3, 'printed silk bandana'),
            j(KITH, 8285548773504, 3, 'printed silk bandana'),
            j(KITH, 8285549330560, 1, 'cupro tie, not silk'),
            j(ANNIE, 5727256576150, 1, 'angora scarf, not silk'),
          ],
        },
      },
    ],
  },

  // ================================================================ refine (15)
  {
    id: 'refine-sweater-cheaper',
    kind: 'refine',
    store: WOVEN,
    country: 'CA',
    turns: [
      {
        user: 'show me sweaters',
        expect: {
          relevant: [
            j(WOVEN, 8380513616105, 3, 'black lightweight sweater'),
            j(WOVEN, 8380511977705, 3, 'two-tone lightweight crewneck'),
            j(WOVEN, 8380503425257, 3, 'white or taupe light knit'),
            j(WOVEN, 8380502442217, 3, 'beige crewneck knit'),
            j(WOVEN, 8380498477289, 3, 'boatneck knit, three colours'),
            j(WOVEN, 8179132498153, 3, 'soft spring sweater'),
            j(WOVEN, 8188728017129, 3, 'navy/white striped thick knit'),
            j(WOVEN, 8380494479593, 2, 'knee-length knit cardigan'),
            j(WOVEN, 8185455837417, 2, 'oversized crewneck sweatshirt, sold out'),
          ],
        },
      },
      {
        user: 'anything cheaper?',
        expect: {
          refinement: { kind: 'cheaper' },
          relevant: [
            j(WOVEN, 8380513616105, 3, 'black lightweight sweater, below the reference'),
            j(WOVEN, 8380503425257, 3, 'white or taupe light knit, below the reference'),
            j(WOVEN, 8179132498153, 3, 'soft spring sweater, below the reference'),
            j(WOVEN, 8185455837417, 2, 'oversized sweatshirt, below the reference, sold out'),
            j(WOVEN, 8188728017129, 1, 'striped knit, at the reference price'),
          ],
        },
      },
    ],
  },
  {
    id: 'refine-linen-dress-blue',
    kind: 'refine',
    store: WOVEN,
    country: 'CA',
    turns: [
      {
        user: 'a linen dress',
        expect: {
          relevant: [
            j(WOVEN, 8380508733673, 3, '100% linen button-front dress'),
            j(WOVEN, 8380506767593, 3, 'lightweight linen collared dress'),
            j(WOVEN, 8339409338601, 1, 'cotton-look striped shirt dress, fabric not stated'),
            j(WOVEN, 8179136659689, 1, 'vacation dress, fabric not stated'),
          ],
        },
      },
      {
        user: 'do you have it in blue?',
        expect: {
          refinement: { kind: 'colour', colour: 'blue' },
          relevant: [
            j(WOVEN, 8380508733673, 3, 'linen dress offered in chambray blue'),
            j(WOVEN, 8380506767593, 2, 'linen dress in white with indigo stripe'),
            j(WOVEN, 8339409338601, 2, 'blue/white striped shirt dress, fabric not stated'),
          ],
        },
      },
    ],
  },
  {
    id: 'refine-dress-under-140',
    kind: 'refine',
    store: WOVEN,
    country: 'CA',
    turns: [
      {
        user: 'dresses',
        expect: {
          relevant: [
            j(WOVEN, 8339405078761, 3, 'black puff-sleeve maxi'),
            j(WOVEN, 8339407175913, 3, 'black tiered maxi'),
            j(WOVEN, 8380508733673, 3, 'linen button-front dress'),
            j(WOVEN, 8380506767593, 3, 'collared linen dress'),
            j(WOVEN, 8179137577193, 3, 'little black dress'),
            j(WOVEN, 8179136659689, 3, 'dark olive tie-waist dress'),
            j(WOVEN, 8179140591849, 3, 'black button-front maxi'),
            j(WOVEN, 8179140788457, 3, 'black drop-sleeve maxi'),
            j(WOVEN, 8339409338601, 3, 'striped shirt dress'),
          ],
        },
      },
      {
        user: 'only under 140 please',
        expect: {
          refinement: { kind: 'budget' },
          maxPrice: 140,
          relevant: [
            j(WOVEN, 8339405078761, 3, 'black puff-sleeve maxi, at the budget'),
            j(WOVEN, 8339407175913, 3, 'black tiered maxi, in budget'),
            j(WOVEN, 8380506767593, 3, 'collared linen dress, in budget'),
            j(WOVEN, 8179137577193, 3, 'little black dress, in budget'),
            j(WOVEN, 8339409338601, 3, 'striped shirt dress, in budget'),
            j(WOVEN, 8179140591849, 1, 'black maxi, over budget'),
            j(WOVEN, 8179136659689, 1, 'olive dress, over budget'),
            j(WOVEN, 8179140788457, 1, 'black maxi, over budget'),
            j(WOVEN, 8380508733673, 1, 'linen dress, over budget'),
          ],
        },
      },
    ],
  },
  {
    id: 'refine-winter-hat-cheaper',
    kind: 'refine',
    store: ANNIE,
    country: 'CA',
    turns: [
      {
        user: 'a warm hat for winter',
        expect: {
          relevant: [
            j(ANNIE, 7676785918102, 3, 'fleece-lined reflective winter hat'),
            j(ANNIE, 6134238249110, 3, 'warm faux-fur hat'),
            j(ANNIE, 5727201230998, 3, 'knit hat that doubles as a neck warmer'),
            j(ANNIE, 5726613667990, 3, 'angora ear-warmer bandeau hat'),
            j(ANNIE, 7657007513750, 2, 'cotton-velvet hat tagged warm, tri-season'),
            j(ANNIE, 7605897166998, 1, 'denim bucket hat for spring and fall'),
          ],
        },
      },
      {
        user: 'something cheaper?',
        expect: {
          refinement: { kind: 'cheaper' },
          relevant: [
            j(ANNIE, 7676785918102, 3, 'reflective winter hat, below the reference'),
            j(ANNIE, 5727201230998, 3, 'knit hat and neck warmer, below the reference'),
            j(ANNIE, 6134238249110, 1, 'faux-fur hat, above the reference'),
            j(ANNIE, 5726613667990, 1, 'angora ear warmer, above the reference'),
          ],
        },
      },
    ],
  },
  {
    id: 'refine-high-waisted-pants-size-m',
    kind: 'refine',
    store: ANNIE,
    country: 'CA',
    turns: [
      {
        user: 'high-waisted pants',
        expect: {
          relevant: [
            j(ANNIE, 4511119540320, 3, 'high-waisted pleated white muslin trouser'),
            j(ANNIE, 4262063472736, 3, 'high-waisted olive cotton pant'),
            j(ANNIE, 4262069010528, 3, 'high-waisted chocolate pant'),
            j(ANNIE, 4285321216096, 3, 'high-waisted black pant, sold out'),
            j(ANNIE, 7092433029, 3, 'high-waisted black linen pant, sold out'),
            j(ANNIE, 121242222622, 3, 'high-waisted flocked pant, sold out'),
            j(ANNIE, 1496402821216, 3, 'high-waisted dotted cotton summer pant'),
            j(ANNIE, 389647302686, 3, 'high-waisted plum flocked pant'),
            j(ANNIE, 1496352489568, 3, 'high-waisted sand flocked pant'),
            j(ANNIE, 1512302903392, 1, 'velvet pant, low-waisted'),
            j(ANNIE, 7120701765, 1, 'muslin pant, rise not stated'),
          ],
        },
      },
      {
        user: 'in size M?',
        expect: {
          refinement: { kind: 'size' },
          size: 'M',
          relevant: [
            j(ANNIE, 4511119540320, 3, 'white muslin high-waisted trouser, M in stock'),
            j(ANNIE, 4262069010528, 3, 'chocolate high-waisted pant, M in stock'),
            j(ANNIE, 4262063472736, 2, 'olive high-waisted pant, M sold out'),
            j(ANNIE, 4285321216096, 2, 'black high-waisted pant, M sold out'),
            j(ANNIE, 7092433029, 2, 'black linen high-waisted pant, M sold out'),
            j(ANNIE, 121242222622, 2, 'flocked high-waisted pant, M sold out'),
            j(ANNIE, 1496402821216, 1, 'dotted high-waisted pant, number sizes only'),
            j(ANNIE, 389647302686, 1, 'plum high-waisted pant, number sizes only'),
          ],
        },
      },
    ],
  },
  {
    id: 'refine-jacket-olive',
    kind: 'refine',
    store: ANNIE,
    country: 'CA',
    turns: [
      {
        user: 'a jacket',
        expect: {
          relevant: [
            j(ANNIE, 7819309482134, 3, 'quilted hooded bomber-style jacket, sold out'),
            j(ANNIE, 7803241037974, 3, 'cotton hooded jacket'),
            j(ANNIE, 7657017082006, 3, 'quilted reflective outdoor jacket'),
            j(ANNIE, 7642831519894, 3, 'cool-wool collared shirt jacket'),
            j(ANNIE, 7605908734102, 3, 'lightly quilted hooded jacket, sold out'),
            j(ANNIE, 7605892579478, 3, 'collared olive denim jacket, sold out'),
            j(ANNIE, 7605888974998, 3, 'collarless olive denim jacket, sold out'),
            j(ANNIE, 7346113249430, 3, 'lined striped wool zip jacket'),
            j(ANNIE, 4262126190688, 3, 'lined pinstripe zip jacket'),
            j(ANNIE, 7346038866070, 3, 'zip bomber jacket, sold out'),
            j(ANNIE, 4614913327200, 3, 'zip bomber jacket, sold out'),
            j(ANNIE, 4411594670176, 3, 'cropped olive jacquard jacket'),
            j(ANNIE, 4411593162848, 3, 'cropped chocolate/olive jacket'),
            j(ANNIE, 4262099877984, 3, 'cropped pinstripe and waffle-knit jacket'),
            j(ANNIE, 4624088793184, 3, 'roomy cotton jacket, olive or aubergine'),
            j(ANNIE, 4262079365216, 3, 'corduroy half jacket half coat'),
            j(ANNIE, 7120409733, 3, 'black linen jacket, sold out'),
            j(ANNIE, 562664900, 3, 'fitted black jacket, sold out'),
            j(ANNIE, 7836722167958, 2, 'knit sweater jacket'),
            j(ANNIE, 7828516339862, 2, 'wool winter coat'),
            j(ANNIE, 7656982839446, 2, 'cotton-velvet coat'),
            j(ANNIE, 5945339805846, 2, 'long cotton-velvet coat'),
            j(ANNIE, 121104597022, 2, 'cotton-velvet coat'),
            j(ANNIE, 422804389918, 2, 'brocade coat'),
            j(ANNIE, 121110102046, 2, 'taffeta coat, sold out'),
            j(ANNIE, 5727041061014, 2, 'oversize painted cotton coat'),
            j(ANNIE, 8647752325, 2, 'cotton coatdress worn as a coat'),
            j(ANNIE, 4511117738080, 2, 'denim cloak with pockets, sold out'),
            j(ANNIE, 7275291377814, 2, 'olive hooded sweatshirt jacket, sold out'),
            j(ANNIE, 1884314665056, 2, 'black hooded sweatshirt jacket, sold out'),
            j(ANNIE, 121092276254, 1, 'jacket-style blouse'),
            j(ANNIE, 5500793925, 1, 'black vest'),
          ],
        },
      },
      {
        user: 'any in olive?',
        expect: {
          refinement: { kind: 'colour', colour: 'olive' },
          relevant: [
            j(ANNIE, 7605892579478, 3, 'collared olive denim jacket, sold out'),
            j(ANNIE, 7605888974998, 3, 'collarless olive denim jacket, sold out'),
            j(ANNIE, 4411594670176, 3, 'cropped olive jacquard jacket'),
            j(ANNIE, 4624088793184, 3, 'roomy cotton jacket offered in olive'),
            j(ANNIE, 4411593162848, 2, 'cropped jacket in chocolate and olive'),
            j(ANNIE, 7803241037974, 2, 'hooded jacket in a forest/olive stripe, that colour sold out'),
            j(ANNIE, 7275291377814, 2, 'olive hooded sweatshirt jacket, sold out'),
            j(ANNIE, 4614913327200, 1, 'bomber whose olive version is gone'),
            j(ANNIE, 7803139031190, 1, 'olive linen vest'),
          ],
        },
      },
    ],
  },
  {
    id: 'refine-dunk-low-other',
    kind: 'refine',
    store: LACED,
    country: 'EG',
    turns: [
      { user: 'nike dunk low', expect: { relevant: LACED_DUNK_LOWS } },
      { user: 'show me different ones', expect: { refinement: { kind: 'other' }, relevant: LACED_DUNK_LOWS } },
    ],
  },
  {
    id: 'refine-9060-black',
    kind: 'refine',
    store: LACED,
    country: 'EG',
    turns: [
      {
        user: 'new balance 9060',
        expect: {
          relevant: [
            j(LACED, 8207477375039, 3, 'that model, colour not stated'),
            j(LACED, 8207477309503, 3, 'that model in pink'),
            j(LACED, 8196999708735, 3, 'that model in brown'),
            j(LACED, 8191747358783, 3, 'that model, R variant'),
            j(LACED, 8156480143423, 3, 'that model in black'),
            j(LACED, 8110933671999, 3, 'that model in chocolate'),
            j(LACED, 8108937969727, 3, 'that model in pink overdye'),
            j(LACED, 8072452800575, 3, 'that model in white'),
            j(LACED, 7973709152319, 3, 'that model in blue, sold out'),
            j(LACED, 8080817881151, 1, 'another model of the brand'),
          ],
        },
      },
      {
        user: 'in black?',
        expect: {
          refinement: { kind: 'colour', colour: 'black' },
          relevant: [
            j(LACED, 8156480143423, 3, 'that model in black'),
            j(LACED, 8072449228863, 1, 'black sneaker of another model of the brand'),
          ],
        },
      },
    ],
  },
  {
    id: 'refine-mens-sneakers-boots',
    kind: 'refine',
    store: EGN,
    country: 'US',
    turns: [
      { user: "men's sneakers", expect: { relevant: EGN_MENS_SNEAKERS } },
      {
        user: 'show me boots instead',
        expect: {
          refinement: { kind: 'family' },
          relevant: [
            j(EGN, 8546659172634, 3, "men's 6-inch leather work boot"),
            j(EGN, 8546655469850, 2, "men's boot-style canvas high-top"),
          ],
        },
      },
    ],
  },
  {
    id: 'refine-white-sneakers-other',
    kind: 'refine',
    store: EGN,
    country: 'US',
    turns: [
      { user: 'white sneakers', expect: { relevant: EGN_WHITE_SNEAKERS } },
      { user: 'not my style, something else in white?', expect: { refinement: { kind: 'other' }, relevant: EGN_WHITE_SNEAKERS } },
    ],
  },
  {
    id: 'refine-backpack-navy',
    kind: 'refine',
    store: UBB,
    country: 'US',
    turns: [
      {
        user: 'a backpack',
        expect: {
          relevant: [
            j(UBB, 8557565837478, 3, 'canvas backpack, four zip compartments'),
            j(UBB, 8557565509798, 3, 'padded canvas adventure backpack'),
            j(UBB, 8557565247654, 3, 'canvas backpack with leather trim'),
            j(UBB, 8557565411494, 1, 'wheeled duffle carry-on'),
            j(UBB, 8557565444262, 1, 'canvas lunch bag'),
          ],
        },
      },
      {
        user: 'in navy',
        expect: {
          refinement: { kind: 'colour', colour: 'navy' },
          relevant: [
            j(UBB, 8557565509798, 3, 'adventure backpack, navy in stock'),
            j(UBB, 8557565837478, 3, 'four-compartment backpack offered in navy (sold out)'),
            j(UBB, 8557565247654, 1, 'backpack in nutmeg only'),
          ],
        },
      },
    ],
  },
  {
    id: 'refine-mens-jacket-under-150-none',
    kind: 'refine',
    store: UBB,
    country: 'US',
    turns: [
      {
        user: 'a jacket for him',
        expect: {
          relevant: [
            j(UBB, 8557565477030, 3, "men's woolfill work jacket"),
            j(UBB, 8557565018278, 1, "men's chambray shirt"),
          ],
        },
      },
      { user: 'anything under 150?', expect: { refinement: { kind: 'budget' }, maxPrice: 150, relevant: [] } },
    ],
  },
  {
    id: 'refine-tee-black',
    kind: 'refine',
    store: HADES,
    country: 'IN',
    turns: [
      {
        user: 'a t-shirt',
        expect: {
          relevant: [
            j(HADES, 9900190957872, 3, 'oversized terry tee with prints'),
            j(HADES, 15124961100080, 3, 'brown boxy rib tee'),
            j(HADES, 15124959625520, 3, 'black boxy rib tee'),
            j(HADES, 15124958282032, 2, 'oversized waffle top with back print'),
            j(HADES, 15124956512560, 2, 'oversized waffle top with back print'),
            j(HADES, 10072788926768, 2, 'black oversized waffle top'),
            j(HADES, 15124962705712, 2, 'sleeveless oversized waffle vest'),
          ],
        },
      },
      {
        user: 'in black',
        expect: {
          refinement: { kind: 'colour', colour: 'black' },
          relevant: [
            j(HADES, 15124959625520, 3, 'black boxy rib tee'),
            j(HADES, 10072788926768, 2, 'black oversized waffle top'),
          ],
        },
      },
    ],
  },
  {
    id: 'refine-jacket-cheaper-hades',
    kind: 'refine',
    store: HADES,
    country: 'IN',
    turns: [
      {
        user: 'show me jackets',
        expect: {
          relevant: [
            j(HADES, 10029070909744, 3, 'brown leather zip jacket'),
            j(HADES, 10014985388336, 3, 'red faux-leather biker jacket'),
          ],
        },
      },
      {
        user: 'cheaper please',
        expect: {
          refinement: { kind: 'cheaper' },
          relevant: [
            j(HADES, 10014985388336, 3, 'faux-leather jacket, below the reference'),
            j(HADES, 10029070909744, 1, 'leather jacket, above the reference'),
          ],
        },
      },
    ],
  },
  {
    id: 'refine-cap-straw-hat',
    kind: 'refine',
    store: KITH,
    country: 'US',
    turns: [
      {
        user: 'a cap',
        expect: {
          relevant: [
            j(KITH, 8285549199488, 3, 'black silk jacquard cap'),
            j(KITH, 8285548609664, 3, 'two-tone cotton twill cap'),
            j(KITH, 8285548642432, 1, 'straw fedora'),
          ],
        },
      },
      {
        user: 'show me a straw hat instead',
        expect: {
          refinement: { kind: 'family' },
          relevant: [j(KITH, 8285548642432, 3, 'paper-straw fedora')],
        },
      },
    ],
  },

  // ================================================================ open (10)
  {
    id: 'open-outfit-woven-linen',
    kind: 'open',
    store: WOVEN,
    country: 'CA',
    turns: [
      { user: 'I need an outfit', expect: { question: true } },
      {
        user: 'Something in linen for the summer',
        expect: {
          relevant: [
            j(WOVEN, 8380510273769, 3, 'breathable linen jacket'),
            j(WOVEN, 8380508733673, 3, '100% linen dress'),
            j(WOVEN, 8380506767593, 3, 'lightweight linen dress'),
            j(WOVEN, 8380504932585, 3, 'lightweight linen blouse'),
            j(WOVEN, 8380497428713, 3, 'wide-leg linen pull-on pant'),
            j(WOVEN, 8179143508201, 3, 'linen pull-on pants'),
            j(WOVEN, 8179145015529, 3, 'lightweight linen jacket'),
            j(WOVEN, 8380500246761, 1, 'lightweight blouse, fabric not stated'),
            j(WOVEN, 8179136233705, 1, 'lightweight top, fabric not stated'),
          ],
        },
      },
    ],
  },
  {
    id: 'open-help-annie-bag',
    kind: 'open',
    store: ANNIE,
    country: 'CA',
    turns: [
      { user: 'help me find something', expect: { question: true } },
      {
        user: 'A bag',
        expect: {
          relevant: [
            j(ANNIE, 7855505703062, 3, 'upcycled cross-body/shoulder bag'),
            j(ANNIE, 7855448883350, 3, 'upcycled cross-body bag, sold out'),
            j(ANNIE, 7855483322518, 3, 'petite shoulder bag'),
            j(ANNIE, 7346107089046, 3, 'mini clutch / makeup bag'),
            j(ANNIE, 7346093326486, 3, 'quilted shoulder tote'),
            j(ANNIE, 4618054008928, 3, 'cross-body knapsack'),
          ],
        },
      },
    ],
  },
  {
    id: 'open-sneakers-speedcat',
    kind: 'open',
    store: LACED,
    country: 'EG',
    turns: [
      { user: 'I want new sneakers, help me pick', expect: { question: true } },
      {
        user: 'I like the Puma Speedcat',
        expect: {
          relevant: [
            j(LACED, 8292126097471, 3, 'that model in navy/white'),
            j(LACED, 8276399259711, 3, "that model, women's black/white"),
            j(LACED, 8276387561535, 3, 'that model in brown/off-white'),
            j(LACED, 8192720339007, 3, 'that model, colour not stated'),
            j(LACED, 8125147480127, 3, 'that model, premium rose edition'),
            j(LACED, 8097157218367, 3, 'that model in black'),
            j(LACED, 8292031561791, 1, 'another model of the brand'),
            j(LACED, 7979728830527, 1, 'another model of the brand'),
          ],
        },
      },
    ],
  },
  {
    id: 'open-gift-kith-accessory',
    kind: 'open',
    store: KITH,
    country: 'US',
    turns: [
      { user: 'gift ideas?', expect: { question: true } },
      {
        user: 'For my boyfriend, an accessory under 500 dollars',
        expect: {
          maxPrice: 500,
          relevant: [
            j(KITH, 8285549330560, 3, "men's cupro tie, in budget"),
            j(KITH, 8285549297792, 3, "men's reversible leather belt, in budget"),
            j(KITH, 8285549166720, 3, 'silk bandana, in budget'),
            j(KITH, 8285548806272, 3, 'silk bandana, in budget'),
            j(KITH, 8285548773504, 3, 'silk bandana, in budget'),
            j(KITH, 8285549101184, 3, 'enamel pin, in budget'),
            j(KITH, 8285548675200, 3, 'leather card holder, in budget'),
            j(KITH, 8285549199488, 1, 'silk cap, over budget'),
            j(KITH, 8285548609664, 1, 'twill cap, over budget'),
            j(KITH, 8285548642432, 1, 'straw fedora, over budget'),
            j(KITH, 8285549068416, 1, 'canvas tote, over budget'),
          ],
        },
      },
    ],
  },
  {
    id: 'open-gift-ubb-camping',
    kind: 'open',
    store: UBB,
    country: 'US',
    turns: [
      { user: 'gift ideas', expect: { question: true } },
      {
        user: 'For my dad, he loves camping',
        expect: {
          relevant: [
            j(UBB, 8557565771942, 3, 'folding wooden camp stool'),
            j(UBB, 8557565706406, 3, 'insulated steel mug for the campsite'),
            j(UBB, 8557565640870, 3, 'LED headlamp'),
            j(UBB, 8557565378726, 3, 'five-panel camp cap'),
            j(UBB, 8557565509798, 2, 'adventure backpack'),
            j(UBB, 8557565837478, 2, 'rugged canvas backpack'),
            j(UBB, 8557565247654, 2, 'waterproof canvas backpack'),
            j(UBB, 8557565444262, 2, 'lunch bag for trail snacks'),
            j(UBB, 8557565477030, 2, "men's woolfill work jacket"),
            j(UBB, 8557565575334, 1, "men's leather work boot"),
            j(UBB, 8557565018278, 1, "men's travel chambray shirt"),
            j(UBB, 8557564985510, 1, 'travel skincare kit'),
          ],
        },
      },
    ],
  },
  {
    id: 'open-something-nice-backpack',
    kind: 'open',
    store: EGN,
    country: 'US',
    turns: [
      { user: "I'm looking for something nice", expect: { question: true } },
      {
        user: 'A backpack',
        expect: {
          relevant: [
            j(EGN, 8546664251674, 3, 'black faux-leather backpack with fur print'),
            j(EGN, 8546664612122, 3, 'blue multicolour backpack'),
            j(EGN, 8546663170330, 3, 'black cinch-top backpack'),
          ],
        },
      },
    ],
  },
  {
    id: 'open-what-to-wear-hades',
    kind: 'open',
    store: HADES,
    country: 'IN',
    turns: [
      { user: 'what should I wear?', expect: { question: true } },
      {
        user: 'Something light and oversized for the summer',
        expect: {
          relevant: [
            j(HADES, 15124961100080, 3, 'breathable boxy rib tee, summer-ready'),
            j(HADES, 15124959625520, 3, 'breathable boxy rib tee, summer-ready'),
            j(HADES, 15124962705712, 3, 'breathable sleeveless oversized vest'),
            j(HADES, 15124958282032, 2, 'oversized waffle top, heavier fabric'),
            j(HADES, 15124956512560, 2, 'oversized waffle top, heavier fabric'),
            j(HADES, 10072788926768, 2, 'oversized waffle top, heavier fabric'),
            j(HADES, 9900190957872, 2, 'oversized terry tee, heavier fabric'),
          ],
        },
      },
    ],
  },
  {
    id: 'open-boyfriend-shirt',
    kind: 'open',
    turns: [
      { user: 'I need something for my boyfriend', expect: { question: true } },
      {
        user: 'A nice shirt',
        expect: {
          relevant: [
            j(UBB, 8557565018278, 3, "men's chambray button-down"),
            j(KITH, 8285549363328, 3, "men's printed short-sleeve zip shirt"),
            j(KITH, 8285549133952, 3, "men's silk camp-collar shirt"),
            j(KITH, 8285549002880, 3, "men's printed long-sleeve camp-collar shirt"),
            j(KITH, 8285548740736, 2, "men's knit polo"),
            j(KITH, 8285548445824, 1, "men's linen v-neck top"),
            j(EGN, 8546659500314, 1, "men's printed tee"),
          ],
        },
      },
    ],
  },
  {
    id: 'open-nice-top-under-200',
    kind: 'open',
    store: ANNIE,
    country: 'CA',
    turns: [
      { user: 'can you show me something nice?', expect: { question: true } },
      {
        user: 'A top, under 200',
        expect: {
          maxPrice: 200,
          relevant: [
            j(ANNIE, 2027881103456, 3, 'black reversible crop top, in budget'),
            j(ANNIE, 1909602484320, 3, 'shimmer linen crop top, in budget, sold out'),
            j(ANNIE, 1903438987360, 3, 'dotted crop top, in budget, sold out'),
            j(ANNIE, 4511117770848, 3, 'organic knit off-shoulder tee, in budget'),
            j(ANNIE, 7047873797, 3, 'organic tank, in budget'),
            j(ANNIE, 5499905029, 3, 'rose hooded tank top, in budget'),
            j(ANNIE, 3089112773, 3, 'red lyocell top, in budget in its in-stock size'),
            j(ANNIE, 4262040338528, 3, 'roomy knit top, in budget, sold out'),
            j(ANNIE, 2027778900064, 3, 'black organic stretch top, in budget'),
            j(ANNIE, 5830570885, 3, 'long sheer mesh top, in budget in its in-stock size'),
            j(ANNIE, 2901599237, 3, 'long sheer top, in budget in its in-stock sizes'),
            j(ANNIE, 3048975813, 3, 'long sheer top, in budget in its in-stock size'),
            j(ANNIE, 1428737687648, 3, 'mesh tee, in budget'),
            j(ANNIE, 2404083781, 3, 'grey organic tank, in budget'),
            j(ANNIE, 333102137, 3, 'black organic tank top/dress, in budget'),
            j(ANNIE, 4622021296224, 3, 'organic knit top, in budget, sold out'),
            j(ANNIE, 7275291377814, 2, 'hooded sweatshirt jacket, in budget, sold out'),
            j(ANNIE, 1884314665056, 2, 'hooded sweatshirt jacket, in budget, sold out'),
            j(ANNIE, 5727085461654, 1, 'Italian knit top, over budget'),
            j(ANNIE, 5272577736854, 1, 'long-sleeve sporty top, over budget'),
          ],
        },
      },
    ],
  },
  {
    id: 'open-help-boots',
    kind: 'open',
    turns: [
      { user: 'help me find something', expect: { question: true } },
      {
        user: 'Boots',
        expect: {
          relevant: [
            j(EGN, 8546659172634, 3, "men's 6-inch leather work boot"),
            j(EGN, 8546661007642, 3, "women's 8-eye leather boot"),
            j(UBB, 8557565575334, 3, "men's leather lace-up work boot"),
            j(EGN, 8546655469850, 2, 'boot-style canvas/leather high-top'),
            j(EGN, 8546659959066, 1, 'leather 3-eye shoe'),
            j(EGN, 8546660450586, 1, 'leather 3-eye shoe'),
          ],
        },
      },
    ],
  },

  // ================================================================ look (10)
  {
    id: 'look-summer-wedding-with-dress',
    kind: 'look',
    store: WOVEN,
    country: 'CA',
    page: ref(WOVEN, 8179136659689),
    turns: [
      {
        user: 'Put together an outfit for a summer wedding with this dress',
        expect: {
          look: { slots: ['full body', 'outerwear', 'headwear'] },
          relevant: [
            s('full body', WOVEN, 8179136659689, 3, 'the dark olive dress on the page'),
            s('outerwear', WOVEN, 8380510273769, 3, 'linen jacket sold as a summer blazer'),
            s('outerwear', WOVEN, 8179145015529, 2, 'casual beige linen jacket'),
            s('headwear', WOVEN, 8182502031593, 3, 'straw droop-brim summer hat'),
          ],
        },
      },
    ],
  },
  {
    id: 'look-with-these-pants',
    kind: 'look',
    store: WOVEN,
    country: 'CA',
    page: ref(WOVEN, 8380497428713),
    turns: [
      {
        user: 'What goes with these pants?',
        expect: {
          look: { slots: ['bottom', 'top', 'outerwear', 'headwear'] },
          relevant: [
            s('bottom', WOVEN, 8380497428713, 3, 'the wide-leg linen pant on the page'),
            s('top', WOVEN, 8380496412905, 3, 'lightweight black or navy top'),
            s('top', WOVEN, 8380504932585, 3, 'linen blouse'),
            s('top', WOVEN, 8380500246761, 3, 'collared lightweight blouse'),
            s('top', WOVEN, 8179136233705, 3, 'loose lightweight olive top'),
            s('top', WOVEN, 8380513616105, 3, 'black lightweight sweater'),
            s('top', WOVEN, 8380511977705, 3, 'two-tone lightweight crewneck'),
            s('top', WOVEN, 8380503425257, 3, 'white or taupe light knit'),
            s('top', WOVEN, 8380502442217, 3, 'beige crewneck knit'),
            s('top', WOVEN, 8380498477289, 3, 'boatneck knit'),
            s('top', WOVEN, 8179132498153, 3, 'soft spring sweater'),
            s('top', WOVEN, 8188728017129, 3, 'navy/white striped knit'),
            s('top', WOVEN, 8380494479593, 3, 'long knit cardigan'),
            s('top', WOVEN, 8185455837417, 2, 'oversized sweatshirt, sold out'),
            s('outerwear', WOVEN, 8380510273769, 3, 'linen jacket'),
            s('outerwear', WOVEN, 8179145015529, 3, 'beige linen jacket'),
            s('headwear', WOVEN, 8182502031593, 2, 'straw summer hat'),
          ],
        },
      },
    ],
  },
  {
    id: 'look-cocktail-with-black-dress',
    kind: 'look',
    store: ANNIE,
    country: 'CA',
    page: ref(ANNIE, 121145557022),
    turns: [
      {
        user: 'How would you style this dress for a cocktail party?',
        expect: {
          look: { slots: ['full body', 'jewellery', 'bag', 'outerwear', 'footwear'] },
          relevant: [
            s('full body', ANNIE, 121145557022, 3, 'the little black dress on the page'),
            s('jewellery', ANNIE, 7753445572758, 3, 'statement neckpiece with medallion'),
            s('jewellery', ANNIE, 7753433219222, 3, 'red/orange chain neckpiece with medallion'),
            s('jewellery', ANNIE, 7753400418454, 3, 'black chain pendant'),
            s('jewellery', ANNIE, 7753370337430, 3, 'black chain neckpiece with faux pearls'),
            s('jewellery', ANNIE, 8703780037, 3, 'brushed silver square necklace'),
            s('bag', ANNIE, 7855483322518, 3, 'petite day-or-evening shoulder bag'),
            s('bag', ANNIE, 7346107089046, 3, 'mini clutch'),
            s('bag', ANNIE, 7855505703062, 2, 'everyday cross-body bag'),
            s('outerwear', ANNIE, 422804389918, 3, 'brocade coat for an evening'),
            s('outerwear', ANNIE, 7836722167958, 3, 'sleek knit sweater coat, meant for a slim dress'),
            s('outerwear', ANNIE, 121110102046, 2, 'taffeta coat, sold out'),
            s('outerwear', ANNIE, 121104597022, 2, 'cotton-velvet coat'),
            s('outerwear', ANNIE, 5945339805846, 2, 'long cotton-velvet coat'),
            s('outerwear', ANNIE, 7656982839446, 2, 'fuchsia cotton-velvet coat'),
            s('outerwear', ANNIE, 4262079365216, 2, 'corduroy party-ready half coat'),
            s('outerwear', ANNIE, 4262099877984, 2, 'cropped jacket with sequinned logo'),
            s('outerwear', ANNIE, 562664900, 2, 'fitted black jacket, sold out'),
            s('footwear', ANNIE, 7942425093, 2, 'light leather sandals'),
            s('bag', ANNIE, 7346093326486, 1, 'quilted shoulder tote'),
          ],
        },
      },
    ],
  },
  {
    id: 'look-cold-winter-day',
    kind: 'look',
    store: ANNIE,
    country: 'CA',
    turns: [
      {
        user: 'Put together an outfit for a cold winter day',
        expect: {
          look: { slots: ['outerwear', 'top', 'bottom', 'headwear', 'accessory'] },
          relevant: [
            s('outerwear', ANNIE, 7828516339862, 3, 'wool winter coat'),
            s('outerwear', ANNIE, 5945339805846, 3, 'long cotton-velvet coat for cold days'),
            s('outerwear', ANNIE, 7657017082006, 3, 'insulated quilted snow jacket'),
            s('outerwear', ANNIE, 121104597022, 2, 'cotton-velvet coat'),
            s('outerwear', ANNIE, 7656982839446, 2, 'cotton-velvet coat'),
            s('outerwear', ANNIE, 5727041061014, 2, 'roomy brushed-cotton coat for layering'),
            s('outerwear', ANNIE, 4262079365216, 2, 'warm corduroy half coat'),
            s('outerwear', ANNIE, 7346113249430, 2, 'lined wool zip jacket'),
            s('outerwear', ANNIE, 7642831519894, 2, 'cool-wool layering jacket'),
            s('outerwear', ANNIE, 6142137106582, 2, 'faux-fur winter vest'),
            s('outerwear', ANNIE, 7836722167958, 2, 'knit sweater coat tagged winter'),
            s('top', ANNIE, 5726901403798, 3, 'wool-blend top that keeps the torso warm'),
            s('top', ANNIE, 5726590861462, 3, 'angora tunic top'),
            s('top', ANNIE, 7901997006998, 3, 'cozy winter sweatshirt'),
            s('top', ANNIE, 5727085461654, 2, 'Italian knit top'),
            s('bottom', ANNIE, 7901998383254, 3, 'wool pinstripe trouser tagged winter'),
            s('bottom', ANNIE, 7901994811542, 3, 'washed wool trouser tagged winter'),
            s('bottom', ANNIE, 1512302903392, 2, 'cotton-velvet trouser for fall and winter'),
            s('bottom', ANNIE, 121190973470, 2, 'cotton flannel plaid pant'),
            s('bottom', ANNIE, 5726930043030, 2, 'knit leggings for fall'),
            s('bottom', ANNIE, 377517292, 2, 'quilted winter over-skirt'),
            s('headwear', ANNIE, 7676785918102, 3, 'fleece-lined winter hat'),
            s('headwear', ANNIE, 6134238249110, 3, 'warm faux-fur hat'),
            s('headwear', ANNIE, 5727201230998, 3, 'knit hat and neck warmer'),
            s('headwear', ANNIE, 5726613667990, 3, 'angora ear-warmer hat'),
            s('headwear', ANNIE, 7657007513750, 2, 'cotton-velvet hat tagged warm'),
            s('accessory', ANNIE, 7855439118486, 3, 'wool winter scarf'),
            s('accessory', ANNIE, 7836717318294, 3, 'angora neck scarf for winter'),
            s('accessory', ANNIE, 7803286159510, 3, 'toasty neck warmer'),
            s('accessory', ANNIE, 5727256576150, 3, 'angora scarf'),
            s('accessory', ANNIE, 5727273287830, 2, 'knit scarf'),
            s('accessory', ANNIE, 4622010155104, 2, 'knit neck bandeau'),
            s('accessory', ANNIE, 4622015660128, 2, 'knit neck bandeau'),
            s('accessory', ANNIE, 4621974962272, 2, 'knit neck bandeau'),
            s('accessory', ANNIE, 5727147491478, 2, 'warm angora opera sleeves'),
            s('accessory', ANNIE, 4618034053216, 1, 'light spring neck wrap'),
          ],
        },
      },
    ],
  },
  {
    id: 'look-sunny-wedding-with-hat',
    kind: 'look',
    store: ANNIE,
    country: 'CA',
    page: ref(ANNIE, 7504203907222),
    turns: [
      {
        user: 'Build me a look for a sunny wedding around this hat',
        expect: {
          look: { slots: ['headwear', 'full body', 'bag', 'jewellery', 'footwear'] },
          relevant: [
            s('headwear', ANNIE, 7504203907222, 3, 'the dotted bucket-style hat on the page'),
            s('full body', ANNIE, 4511117869152, 3, 'light navy/black dot jumpsuit that matches the hat'),
            s('full body', ANNIE, 4511117901920, 3, 'cotton dress with lightweight skirt, navy option'),
            s('full body', ANNIE, 4618068033632, 3, 'long eggshell ramie button-front dress'),
            s('full body', ANNIE, 2025849946208, 2, 'silver dot top/dress'),
            s('full body', ANNIE, 4618064232544, 2, 'long striped button-front dress'),
            s('full body', ANNIE, 4511117803616, 2, 'long hand-dyed striped dress'),
            s('full body', ANNIE, 121145557022, 2, 'little black cotton dress'),
            s('full body', ANNIE, 110669004830, 2, 'ankle-length black knit dress'),
            s('full body', ANNIE, 2178424864864, 2, 'black cotton A-line dress'),
            s('full body', ANNIE, 1475815800928, 2, 'sheer reversible top/dress'),
            s('full body', ANNIE, 2156788514912, 2, 'black cotton top dress'),
            s('full body', ANNIE, 7346023628950, 2, 'ramie kaftan dress, worn solo in summer'),
            s('full body', ANNIE, 7117498450070, 2, 'cotton kaftan dress, worn solo in summer'),
            s('full body', ANNIE, 121145065502, 1, 'white satin dress, white is the bride\u2019s colour'),
            s('bag', ANNIE, 7855483322518, 3, 'petite dressy shoulder bag'),
            s('bag', ANNIE, 7346107089046, 3, 'mini clutch'),
            s('bag', ANNIE, 7855505703062, 2, 'everyday cross-body bag'),
            s('bag', ANNIE, 7855448883350, 2, 'everyday cross-body bag, sold out'),
            s('jewellery', ANNIE, 7753445572758, 3, 'medallion neckpiece'),
            s('jewellery', ANNIE, 7753433219222, 3, 'red/orange chain neckpiece'),
            s('jewellery', ANNIE, 7753400418454, 3, 'black chain pendant'),
            s('jewellery', ANNIE, 7753370337430, 3, 'black chain neckpiece with faux pearls'),
            s('jewellery', ANNIE, 8703780037, 3, 'brushed silver square necklace'),
            s('footwear', ANNIE, 7942425093, 3, 'light leather sandals'),
          ],
        },
      },
    ],
  },
  {
    id: 'look-casual-him-egn',
    kind: 'look',
    store: EGN,
    country: 'US',
    turns: [
      {
        user: 'a casual look for him',
        expect: {
          look: { slots: ['top', 'footwear', 'headwear', 'bag', 'hosiery'] },
          relevant: [
            s('top', EGN, 8546659500314, 3, "men's printed tee"),
            ...EGN_MENS_SNEAKERS.map((x) => ({ ...x, slot: 'footwear' })),
            s('footwear', EGN, 8546659172634, 2, "men's leather work boot"),
            s('headwear', EGN, 8546663596314, 3, "men's black fitted cap"),
            s('headwear', EGN, 8546663989530, 2, 'white flat-peak cap, no gender cue'),
            s('bag', EGN, 8546664612122, 2, 'multicolour backpack, no gender cue'),
            s('bag', EGN, 8546663170330, 2, 'black cinch-top backpack, no gender cue'),
            s('hosiery', EGN, 8546662908186, 2, 'unisex no-show socks'),
          ],
        },
      },
    ],
  },
  {
    id: 'look-hike-her-ubb',
    kind: 'look',
    store: UBB,
    country: 'US',
    turns: [
      {
        user: 'an outfit for a hike, for her',
        expect: {
          look: { slots: ['top', 'bag', 'headwear'] },
          relevant: [
            s('top', UBB, 8557565051046, 3, "women's organic cotton tee"),
            s('top', UBB, 8557565345958, 3, "women's organic cotton tee"),
            s('top', UBB, 8557565280422, 3, "women's organic cotton tee"),
            s('top', UBB, 8557565313190, 3, "women's organic cotton tee"),
            s('top', UBB, 8557565608102, 3, "women's relaxed long-sleeve shirt"),
            s('top', UBB, 8557565542566, 2, "women's short-sleeve plaid shirt"),
            s('top', UBB, 8557565214886, 2, "women's chambray shirt, sold out"),
            s('top', UBB, 8557565149350, 2, "women's wool pullover for a cool trail"),
            s('top', UBB, 8557565182118, 2, "women's cardigan"),
            s('bag', UBB, 8557565837478, 3, 'rugged canvas backpack'),
            s('bag', UBB, 8557565509798, 3, 'adventure backpack'),
            s('bag', UBB, 8557565247654, 3, 'waterproof canvas backpack'),
            s('headwear', UBB, 8557565378726, 3, 'five-panel camp cap'),
            s('bag', UBB, 8557565444262, 1, 'lunch bag'),
          ],
        },
      },
    ],
  },
  {
    id: 'look-summer-evening-him-kith',
    kind: 'look',
    store: KITH,
    country: 'US',
    turns: [
      {
        user: 'a look for a summer evening out, for him',
        expect: {
          look: { slots: ['top', 'bottom', 'outerwear', 'headwear', 'accessory'] },
          relevant: [
            s('top', KITH, 8285549133952, 3, "men's silk camp-collar shirt"),
            s('top', KITH, 8285549002880, 3, "men's printed camp-collar shirt"),
            s('top', KITH, 8285549363328, 3, "men's printed zip shirt"),
            s('top', KITH, 8285548740736, 3, "men's silk-cotton knit polo"),
            s('top', KITH, 8285548445824, 3, "men's linen v-neck top"),
            s('top', KITH, 8285549265024, 2, "men's white tee"),
            s('top', KITH, 8285548871808, 2, "men's white tee"),
            s('top', KITH, 8285548478592, 2, "men's white pocket tee"),
            s('bottom', KITH, 8285549232256, 3, "men's silk summer trouser"),
            s('bottom', KITH, 8285548937344, 2, "men's wool pleated trouser"),
            s('bottom', KITH, 8285548576896, 2, "men's printed short"),
            s('bottom', KITH, 8285548544128, 2, "men's printed short"),
            s('outerwear', KITH, 8285548511360, 3, 'lightweight deconstructed blazer'),
            s('outerwear', KITH, 8285548970112, 3, 'silk-blend double-breasted blazer'),
            s('outerwear', KITH, 8285548839040, 2, 'wool collarless bomber'),
            s('headwear', KITH, 8285548642432, 3, 'straw fedora'),
            s('headwear', KITH, 8285549199488, 2, 'silk cap'),
            s('headwear', KITH, 8285548609664, 2, 'twill cap'),
            s('accessory', KITH, 8285549297792, 3, 'reversible leather belt'),
            s('accessory', KITH, 8285549330560, 2, 'tie'),
            s('accessory', KITH, 8285549166720, 2, 'silk bandana'),
            s('accessory', KITH, 8285548806272, 2, 'silk bandana'),
            s('accessory', KITH, 8285548773504, 2, 'silk bandana'),
          ],
        },
      },
    ],
  },
  {
    id: 'look-streetwear-hades',
    kind: 'look',
    store: HADES,
    country: 'IN',
    turns: [
      {
        user: 'put together a streetwear look',
        expect: {
          look: { slots: ['outerwear', 'top'] },
          relevant: [
            s('outerwear', HADES, 10029070909744, 3, 'brown leather jacket'),
            s('outerwear', HADES, 10014985388336, 3, 'red faux-leather biker jacket'),
            s('top', HADES, 9900190957872, 3, 'oversized printed tee'),
            s('top', HADES, 15124961100080, 3, 'boxy rib tee'),
            s('top', HADES, 15124959625520, 3, 'boxy rib tee'),
            s('top', HADES, 15124958282032, 3, 'oversized waffle top'),
            s('top', HADES, 15124956512560, 3, 'oversized waffle top'),
            s('top', HADES, 10072788926768, 3, 'oversized black waffle top'),
            s('top', HADES, 15124962705712, 2, 'sleeveless waffle vest'),
          ],
        },
      },
    ],
  },
  {
    id: 'look-winter-outfit-him',
    kind: 'look',
    turns: [
      {
        user: 'Put together a warm winter outfit for him',
        expect: {
          look: { slots: ['outerwear', 'top', 'bottom', 'footwear', 'accessory', 'headwear'] },
          relevant: [
            s('outerwear', UBB, 8557565477030, 3, "men's woolfill work jacket"),
            s('outerwear', KITH, 8285548839040, 2, "men's wool bomber"),
            s('outerwear', ANNIE, 7828516339862, 2, 'genderless wool winter coat'),
            s('outerwear', ANNIE, 6142137106582, 2, 'unisex faux-fur vest'),
            s('outerwear', HADES, 10029070909744, 1, 'warm leather jacket, no gender cue'),
            s('top', UBB, 8557565018278, 2, "men's chambray shirt to layer"),
            s('top', ANNIE, 7901997006998, 2, 'co-ed cozy winter sweatshirt'),
            s('top', KITH, 8285548740736, 1, "men's knit polo"),
            s('bottom', KITH, 8285548937344, 3, "men's wool trouser"),
            s('footwear', EGN, 8546659172634, 3, "men's waterproof winter boot"),
            s('footwear', UBB, 8557565575334, 3, "men's leather work boot"),
            s('footwear', EGN, 8546655469850, 2, "men's canvas/leather boot"),
            s('accessory', ANNIE, 7855439118486, 2, 'wool scarf tagged men and women'),
            s('accessory', ANNIE, 7803286159510, 2, 'genderless neck warmer'),
            s('headwear', ANNIE, 6134238249110, 2, 'unisex faux-fur hat'),
            s('headwear', ANNIE, 7676785918102, 2, 'androgynous winter hat'),
            s('headwear', EGN, 8546663596314, 1, "men's cap, not warm"),
          ],
        },
      },
    ],
  },

  // ================================================================ cart (11)
  {
    id: 'cart-add-page-sweater-m',
    kind: 'cart',
    store: WOVEN,
    country: 'CA',
    page: ref(WOVEN, 8380513616105),
    cart: [],
    turns: [{ user: 'Add this to my cart in M', expect: { cart: { action: 'add', product: ref(WOVEN, 8380513616105), size: 'Medium', quantity: 1 } } }],
  },
  {
    id: 'cart-pants-to-medium',
    kind: 'cart',
    store: WOVEN,
    country: 'CA',
    cart: [
      { key: 'line-pant', product: ref(WOVEN, 8380497428713), size: 'Small', quantity: 1 },
      { key: 'line-top', product: ref(WOVEN, 8179136233705), size: 'Small', quantity: 1 },
    ],
    turns: [{ user: 'Can you change the pants to a medium?', expect: { cart: { action: 'swap', lineKey: 'line-pant', product: ref(WOVEN, 8380497428713), size: 'Medium' } } }],
  },
  {
    id: 'cart-cardigan-size-l',
    kind: 'cart',
    store: UBB,
    country: 'US',
    cart: [{ key: 'ubb-cardigan', product: ref(UBB, 8557565182118), size: 'S', quantity: 1 }],
    turns: [{ user: 'change the size of my cardigan to L', expect: { cart: { action: 'swap', lineKey: 'ubb-cardigan', product: ref(UBB, 8557565182118), size: 'L' } } }],
  },
  {
    id: 'cart-swap-backpack-for-page',
    kind: 'cart',
    store: UBB,
    country: 'US',
    page: ref(UBB, 8557565509798),
    cart: [
      { key: 'ubb-tee', product: ref(UBB, 8557565051046), size: 'S', quantity: 1 },
      { key: 'ubb-pack', product: ref(UBB, 8557565837478), size: 'Khaki', quantity: 1 },
    ],
    turns: [{ user: 'swap my backpack for this one, in moss', expect: { cart: { action: 'swap', lineKey: 'ubb-pack', product: ref(UBB, 8557565509798), size: 'Moss' } } }],
  },
  {
    id: 'cart-remove-hat',
    kind: 'cart',
    store: ANNIE,
    country: 'CA',
    cart: [
      { key: 'at-hat', product: ref(ANNIE, 6134238249110), size: 'ML', quantity: 1 },
      { key: 'at-leggings', product: ref(ANNIE, 365105125), size: 'M', quantity: 1 },
    ],
    turns: [{ user: 'remove the hat please', expect: { cart: { action: 'remove', lineKey: 'at-hat' } } }],
  },
  {
    id: 'cart-one-pair-of-leggings',
    kind: 'cart',
    store: ANNIE,
    country: 'CA',
    cart: [
      { key: 'at-leggings', product: ref(ANNIE, 6794797637), size: 'L', quantity: 2 },
      { key: 'at-scarf', product: ref(ANNIE, 5727256576150), quantity: 1 },
    ],
    turns: [{ user: 'I only need one pair of the leggings', expect: { cart: { action: 'quantity', lineKey: 'at-leggings', quantity: 1 } } }],
  },
  {
    id: 'cart-make-it-two',
    kind: 'cart',
    store: EGN,
    country: 'US',
    cart: [{ key: 'egn-lo', product: ref(EGN, 8546661400858), size: '9', quantity: 1 }],
    turns: [{ user: 'make it two of those', expect: { cart: { action: 'quantity', lineKey: 'egn-lo', quantity: 2 } } }],
  },
  {
    id: 'cart-add-page-high-top-11',
    kind: 'cart',
    store: EGN,
    country: 'US',
    page: ref(EGN, 8546657501466),
    cart: [{ key: 'egn-cap', product: ref(EGN, 8546663596314), size: 'm', quantity: 1 }],
    turns: [{ user: 'add these in size 11', expect: { cart: { action: 'add', product: ref(EGN, 8546657501466), size: '11', quantity: 1 } } }],
  },
  {
    id: 'cart-swap-shoes-for-black',
    kind: 'cart',
    store: LACED,
    country: 'EG',
    cart: [{ key: 'laced-forum', product: ref(LACED, 8194530836543), size: '40', quantity: 1 }],
    turns: [{ user: 'swap the shoes for the black ones', expect: { cart: { action: 'swap', lineKey: 'laced-forum', product: ref(LACED, 8194524184639), size: '40' } } }],
  },
  {
    id: 'cart-shoe-size-43',
    kind: 'cart',
    store: LACED,
    country: 'EG',
    cart: [{ key: 'laced-samba', product: ref(LACED, 7968927612991), size: '42', quantity: 1 }],
    turns: [{ user: 'can you change it to a 43?', expect: { cart: { action: 'swap', lineKey: 'laced-samba', product: ref(LACED, 7968927612991), size: '43' } } }],
  },
  {
    id: 'cart-swap-tee-for-black',
    kind: 'cart',
    store: HADES,
    country: 'IN',
    cart: [{ key: 'hc-tee', product: ref(HADES, 15124961100080), size: 'M', quantity: 1 }],
    turns: [{ user: 'swap it for the black one', expect: { cart: { action: 'swap', lineKey: 'hc-tee', product: ref(HADES, 15124959625520), size: 'M' } } }],
  },
];
