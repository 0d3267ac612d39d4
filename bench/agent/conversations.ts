// What the agent benchmark's shoppers say: first messages as shoppers type them into a store's chat
// (a garment with a colour, a size or a budget; an occasion; something too open to search), and a
// few two-turn conversations whose second message only makes sense with the first turn's `history`
// replayed ("cheaper", "in blue"). Some are sent with a `country` (market re-pricing) and some from
// one store's site (`store.origin`, the feed's store in bench/search-quality/feeds.ts); the rest
// speak to every store of the organization. Written by hand; nothing here came from running the
// agent. Pure data.
import { FEED_STORES } from '../search-quality/feeds.js';
import { ANNIE, LACED, UBB, WOVEN } from '../search-quality/queries.js';

export interface BenchConversation {
  id: string;
  /** The shopper's messages, one per turn; turn 2 onwards is sent after turn 1's `history`. */
  turns: string[];
  country?: string;
  /** The storefront the shopper is on (narrows the agent to that store's datasets). */
  storeOrigin?: string;
}

const origin = (feed: string) => new URL(FEED_STORES[feed]!.storeUrl).origin;

export const BENCH_CONVERSATIONS: readonly BenchConversation[] = [
  { id: 'linen-shirts-budget', turns: ['show me linen shirts under 80'] },
  { id: 'black-boots-size', turns: ['black boots size 42'], country: 'DE' },
  { id: 'summer-wedding', turns: ['something for a summer wedding'] },
  { id: 'red-dress-budget', turns: ['a red dress under 150'], storeOrigin: origin(WOVEN), country: 'CA' },
  { id: 'white-sneakers-size', turns: ['white sneakers in size 41'], storeOrigin: origin(LACED) },
  { id: 'navy-chinos-office', turns: ['navy chinos for the office'], country: 'US' },
  { id: 'hiking-jacket-budget', turns: ['a warm jacket for hiking under 200'], storeOrigin: origin(UBB), country: 'US' },
  { id: 'black-hoodie', turns: ['oversized black hoodie'] },
  { id: 'green-tee-budget', turns: ['green t-shirt under 40'], country: 'GB' },
  { id: 'job-interview', turns: ['what should I wear to a job interview?'] },
  { id: 'beige-trench', turns: ['beige trench coat'], country: 'CA' },
  { id: 'cream-knit', turns: ['a cosy knit sweater in cream'], storeOrigin: origin(ANNIE) },
  { id: 'mens-running-shoes', turns: ["men's running shoes under 120"], country: 'US' },
  { id: 'denim-jacket-size', turns: ['a denim jacket, size M'] },
  { id: 'grey-sweatpants', turns: ['grey sweatpants'], country: 'IN' },
  { id: 'garden-party-skirt', turns: ['floral midi skirt for a garden party'] },
  { id: 'brown-belt', turns: ['leather belt in brown'] },
  { id: 'cocktail-dress', turns: ['a black dress for a cocktail party under 200'], country: 'US' },
  { id: 'beach-shorts', turns: ['shorts for the beach'] },
  { id: 'wool-beanie', turns: ['a wool beanie'], country: 'GB' },
  { id: 'first-date-outfit', turns: ['an outfit for a first date'] },
  { id: 'pink-blouse-work', turns: ['pink blouse for work under 90'], storeOrigin: origin(WOVEN) },
  { id: 'red-high-tops', turns: ['high-top sneakers in red'] },
  { id: 'olive-cargo', turns: ['cargo pants in olive'], country: 'US' },
  { id: 'gift-ideas', turns: ['I need a gift for my brother'] },
  // Two turns: the second reads the first turn's products from the replayed history.
  { id: 'linen-then-cheaper', turns: ['a linen shirt for summer', 'cheaper'], country: 'US' },
  { id: 'sneakers-then-blue', turns: ['white sneakers', 'in blue'] },
  { id: 'hoodie-then-black', turns: ['a hoodie under 100', 'in black'], country: 'CA' },
  { id: 'wedding-dress-then-cheaper', turns: ['a dress for a wedding', 'cheaper'], storeOrigin: origin(ANNIE) },
  { id: 'jeans-then-size', turns: ["women's straight jeans", 'do you have them in size 30?'] },
];
