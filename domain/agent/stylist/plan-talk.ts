// The turns that are conversation more than search: store questions (pointed to the store's own
// site), thanks, a catalogue that cannot be reached, a cart that was not shared, and requests too
// open to search, which learn what the store sells (get_articles) and ask one question built from
// it, or, asked once already, show a few of the store's pieces. Pure.
import { LOOK_OCCASION_CHOICES } from '../../search/shopper-words.js';
import type { TurnContext } from '../context.js';
import type { Intent, OpenAsk } from './intent.js';
import { readArticles, readLookup, readShow, type Articles } from './outputs.js';
import type { PolicyTopic } from './phrases.js';
import { call, made, reply, type Plan, type StylistStep } from './plan.js';
import { capital, describe, listing, plural, readingLine } from './words.js';
import type { ProductBrief } from '../products.js';
import { suitsAge, type Wish } from './wish.js';

const TOPIC: Readonly<Record<PolicyTopic, string>> = {
  returns: 'returns, exchanges and refunds',
  shipping: 'shipping and delivery',
  payment: 'payment options',
  orders: 'orders and tracking',
  discounts: 'promotions and discount codes',
  sizing: 'size guides and fit',
  contact: 'contact details',
};

const site = (store: TurnContext['stores'][number]) => store.url ?? (store.domain ? `https://${store.domain}` : null);

export function policyReply(context: TurnContext, topic: PolicyTopic): string {
  const about = TOPIC[topic];
  const stores = context.stores.slice(0, 6);
  if (context.severalStores && stores.length > 1) {
    const list = stores.map((s) => `${s.name}${site(s) ? ` (${site(s)})` : ''}`).join(', ');
    return `I represent several stores, and each has its own ${about}: please check the store's own site — ${list}. I'm happy to help you find something in the meantime.`;
  }
  const store = stores[0];
  const where = store ? `${store.name}'s own site${site(store) ? ` (${site(store)})` : ''}` : "the store's own site";
  return `I can't see the store's ${about} from here — ${where} has the details. I'm happy to help you find something in the meantime.`;
}

export const THANKS = "You're welcome! If you'd like anything else — another colour, a complete look or something new — just ask.";
export const UNAVAILABLE = "I'm sorry — the catalogue isn't available right now, so I can't look up products or prices. Please try again a little later.";
export const NO_CART = "I can't see or change your cart from this chat. You can add or change items in the store's own cart — and I'm happy to help you find pieces.";

const FASHION = new Set(['top', 'bottom', 'full body', 'footwear', 'outerwear', 'bag', 'accessory', 'headwear', 'jewellery', 'eyewear', 'swimwear']);

/** The store's garment families, most stocked first. */
function families(articles: Articles | null): Array<{ slot: string; family: string; count: number }> {
  return (articles?.slots ?? [])
    .filter((s) => FASHION.has(s.slot))
    .flatMap((s) => s.families.filter((f) => f.family && f.family !== 'other' && f.count > 0).map((f) => ({ slot: s.slot, family: f.family, count: f.count })))
    .sort((a, b) => b.count - a.count || (a.family < b.family ? -1 : 1));
}

const sells = (articles: Articles | null, names: string[]) => !articles || families(articles).some((f) => names.includes(f.family));

function question(ask: OpenAsk, greeting: boolean, wish: Wish, articles: Articles | null): { question: string; options: string[] } {
  const offered = families(articles);
  if (ask === 'who') return { question: 'Who is the gift for?', options: ['For her', 'For him', 'For anyone'] };
  if (ask === 'occasion') {
    const fits: Record<string, string[]> = {
      'wedding guest': ['dress', 'suit', 'blazer', 'heels', 'formal shoe', 'jumpsuit'],
      vacation: ['dress', 'shorts', 'sandal', 'swimsuit', 'bikini', 'swim shorts', 't shirt'],
      work: ['shirt', 'blouse', 'trousers', 'blazer', 'skirt', 'loafer', 'formal shoe'],
      'date night': ['dress', 'top', 'blouse', 'shirt', 'heels', 'jeans'],
      'night out': ['dress', 'top', 'jeans', 'heels', 'shirt'],
    };
    const options = LOOK_OCCASION_CHOICES.filter((o) => !fits[o] || sells(articles, fits[o]!)).map(capital);
    return { question: greeting ? "Hi! I'd love to put a look together. What's the occasion?" : "What's the occasion?", options: options.length >= 2 ? options.slice(0, 5) : ['Casual', 'Work', 'Night out'] };
  }
  if (ask === 'imageKind' && wish.colour) {
    const options = offered.slice(0, 5).map((f) => capital(`${wish.colour} ${plural(f.family)}`));
    return { question: `What kind of piece are you after in ${wish.colour}?`, options: options.length >= 2 ? options : [`${capital(wish.colour)} tops`, `${capital(wish.colour)} dresses`, `${capital(wish.colour)} shoes`] };
  }
  const options = offered.slice(0, 4).map((f) => capital(plural(f.family)));
  const slots = new Set(offered.map((f) => f.slot));
  if ((slots.has('top') || slots.has('full body')) && slots.has('footwear')) options.push('A complete outfit');
  return {
    question: greeting ? 'Hi! What are you shopping for today?' : 'What are you looking for?',
    options: options.length >= 2 ? options : ['Tops', 'Bottoms', 'Shoes', 'A complete outfit'],
  };
}

export function planOpen(plan: Plan, intent: Extract<Intent, { kind: 'open' }>): StylistStep {
  const args = intent.wish.gender ? { gender: intent.wish.gender } : {};
  const step = made(plan, 'get_articles', args);
  if (!step && plan.tools.has('get_articles')) return { thinking: readingLine(`open request (${intent.ask})`, null, plan.currency), toolCalls: [call('get_articles', args)] };
  const articles = readArticles(step?.raw);
  const ask = question(intent.ask, intent.greeting, intent.wish, articles.ok ? articles.value : null);
  const options = [...new Set(ask.options.map((o) => o.slice(0, 60)))];
  const asked = made(plan, 'ask_question', { question: ask.question, options });
  if (!asked && plan.tools.has('ask_question') && options.length >= 2) return { thinking: 'Asking one question to narrow it down', toolCalls: [call('ask_question', { question: ask.question, options })] };
  return reply(asked ? "Pick one — or tell me in your own words what you have in mind." : `${ask.question} ${options.join(', ')}?`);
}

const GIFT_SLOTS = ['jewellery', 'bag', 'accessory', 'headwear', 'eyewear', 'top'];
const AUDIENCE: Readonly<Record<string, string>> = { mens: 'for him', womens: 'for her', unisex: 'for anyone' };

/** A few of the store's pieces, from its most stocked slots (or giftable ones). */
export function planShowcase(plan: Plan, intent: Extract<Intent, { kind: 'showcase' }>): StylistStep {
  const wish = intent.wish;
  const args = wish.gender ? { gender: wish.gender } : {};
  const step = made(plan, 'get_articles', args);
  if (!step && plan.tools.has('get_articles')) return { thinking: readingLine(intent.gift ? 'gift ideas' : 'browsing', wish, plan.currency), toolCalls: [call('get_articles', args)] };
  const articles = readArticles(step?.raw);
  const stocked = (articles.ok ? articles.value.slots : []).filter((s) => s.count > 0 && FASHION.has(s.slot)).sort((a, b) => b.count - a.count);
  const slots = intent.gift ? GIFT_SLOTS.filter((slot) => stocked.some((s) => s.slot === slot)) : stocked.map((s) => s.slot);
  const chosen = (slots.length ? slots : stocked.map((s) => s.slot)).slice(0, 3);
  const query = [wish.gender ?? '', wish.age ?? '', ...wish.occasions].join(' ').trim();
  const lookups = chosen.map((slot) =>
    call('lookup_products', { ...(query ? { query } : {}), slot, ...(wish.maxPrice !== undefined ? { maxPrice: wish.maxPrice } : {}), limit: 6 }),
  );
  if (!lookups.length) lookups.push(call('lookup_products', { ...(query ? { query } : {}), ...(wish.maxPrice !== undefined ? { maxPrice: wish.maxPrice } : {}), limit: 8 }));
  const pending = lookups.filter((c) => !made(plan, c.name, c.arguments));
  if (pending.length) return { thinking: `Picking a few pieces from ${chosen.join(', ') || 'the store'}`, toolCalls: pending };
  // One from each slot in turn, so the cards are varied.
  const lists = lookups.map((c) => {
    const answer = readLookup(made(plan, c.name, c.arguments)?.raw);
    return answer.ok ? answer.value.products.filter((p) => p.available && suitsAge(wish, p)) : [];
  });
  const mixed: ProductBrief[] = [];
  for (let i = 0; i < 4; i++) for (const list of lists) if (list[i] && !mixed.some((p) => p.itemId === list[i]!.itemId)) mixed.push(list[i]!);
  const picks = mixed.slice(0, 8);
  if (!picks.length) return reply("I couldn't find anything to suggest just now. Tell me what you have in mind — a garment, a colour or an occasion — and I'll look again.");
  const label = (intent.gift ? `Gift ideas ${wish.gender ? AUDIENCE[wish.gender] : ''}` : 'A few favourites').trim();
  const show = { label, kind: 'list', itemIds: picks.map((p) => p.itemId), suggestions: ['Show cheaper', 'Something else', 'A complete outfit'] };
  const shown = made(plan, 'show_products', show);
  if (!shown && plan.tools.has('show_products')) return { thinking: `Showing ${picks.length} pieces`, toolCalls: [call('show_products', show)] };
  const answer = readShow(shown?.raw);
  const onScreen = answer.ok && answer.value.shown.length ? answer.value.shown : picks;
  const budget = wish.maxPrice !== undefined ? ` ${describe({ ...wish, families: [], slot: undefined, colour: undefined, words: [], occasions: [], gender: undefined }, plan.currency, { garment: false })}` : '';
  return reply(
    `${intent.gift ? `Here are a few gift ideas${wish.gender ? ` ${AUDIENCE[wish.gender]}` : ''}${budget}` : 'Here are a few pieces to start with'}: ${listing(onScreen, plan.context.severalStores)}. Tell me more — a colour, an occasion or a budget — and I'll narrow it down.`,
  );
}

/** A card picked with nothing asked of it: offer what can be done with it. */
export function planPick(plan: Plan, intent: Extract<Intent, { kind: 'pick' }>): StylistStep {
  const options = ['Show similar pieces', 'Complete the look', ...(plan.tools.has('add_to_cart') ? ['Add it to my cart'] : [])];
  const args = { question: `Good choice! What would you like to do with the ${intent.brief.name}?`.slice(0, 200), options };
  if (!made(plan, 'ask_question', args) && plan.tools.has('ask_question')) return { thinking: `Reading: picked ${intent.brief.name}`, toolCalls: [call('ask_question', args)] };
  return reply(`The ${listing([intent.brief], plan.context.severalStores)} — shall I find similar pieces or build a look around it?`);
}
