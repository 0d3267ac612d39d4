// A look turn: learn what the store sells and find the piece the look is built on (the page
// product, a product on screen, or the store's best match for a garment the shopper named), look
// up each missing slot in parallel, compose one or two looks (looks.ts) and announce them, then
// describe them. "What shoes go with it" looks up only the shoes, shows them as a list and pairs
// the best one with the piece. Pure.
import { words } from '../../catalogue/taxonomy/index.js';
import type { Gender, Slot } from '../../catalogue/vocabulary.js';
import type { HouseBasic } from '../../styling/settings.js';
import type { ProductBrief } from '../products.js';
import type { Intent } from './intent.js';
import { pageWish } from './intent.js';
import type { LookRequest } from './look-intent.js';
import { composeLooks, outOfPlace, slotNeeds, type SlotNeed } from './looks.js';
import { readArticles, readLookup, readLooks, type Articles } from './outputs.js';
import { call, made, missing, reply, severalStoresNote, type Plan, type StylistStep, type ToolCallPlan } from './plan.js';
import { capital, describe, listing, LOOK_CHIPS, looksFor, money, plural, readingLine } from './words.js';
import { ageOfName, garmentWords, lookupArgs, suitsAge, type Wish } from './wish.js';

type LookIntent = Extract<Intent, { kind: 'look' }>;

const STYLABLE = new Set(['top', 'bottom', 'full body', 'footwear', 'outerwear', 'bag', 'accessory', 'headwear', 'jewellery', 'eyewear', 'swimwear']);

/** The first lookup of a look: the piece it is built on. */
function anchorCall(plan: Plan, look: LookRequest): ToolCallPlan | null {
  if (look.anchor?.kind === 'page' && plan.context.page) return call('lookup_products', { query: plan.context.page.title.slice(0, 200), limit: 5 });
  if (look.anchor?.kind === 'named') return call('lookup_products', lookupArgs({ ...look.anchor.wish, exclude: [] }, 5));
  return null;
}

interface Resolved {
  /** The product in the catalogue, when found; null for the shopper's own piece ("what goes with a white tee"). */
  brief: ProductBrief | null;
  slot: string;
  family: string;
  name: string;
}

const overlap = (a: string, b: string) => {
  const x = new Set(words(a));
  const y = words(b);
  return x.size ? y.filter((w) => x.has(w)).length / x.size : 0;
};

function resolveAnchor(plan: Plan, look: LookRequest, lookup: ToolCallPlan | null): Resolved | null {
  const anchor = look.anchor;
  if (!anchor) return null;
  if (anchor.kind === 'shown') return { brief: anchor.brief, slot: anchor.brief.slot, family: anchor.brief.family, name: anchor.brief.name };
  const answer = lookup ? readLookup(made(plan, lookup.name, lookup.arguments)?.raw) : null;
  const products = answer?.ok ? answer.value.products.filter((p) => p.available) : [];
  if (anchor.kind === 'named') {
    const brief = products.find((p) => (anchor.wish.families.length ? anchor.wish.families.includes(p.family) : p.slot === anchor.wish.slot)) ?? null;
    const wish = anchor.wish;
    // Not in the store: the shopper's own piece, named as they did ("white t-shirt").
    return brief ? { brief, slot: brief.slot, family: brief.family, name: brief.name } : { brief: null, slot: wish.slot ?? '', family: wish.families[0] ?? '', name: describe({ ...wish, words: [] }, plan.currency, { one: true }) };
  }
  const page = plan.context.page!;
  const best = [...products].sort((a, b) => overlap(page.title, b.name) - overlap(page.title, a.name))[0];
  if (best && overlap(page.title, best.name) >= 0.6) return { brief: best, slot: best.slot, family: best.family, name: best.name };
  const wish = pageWish(plan.context);
  return { brief: null, slot: wish?.slot ?? '', family: wish?.families[0] ?? '', name: page.title };
}

function needsFor(plan: Plan, look: LookRequest, anchor: Resolved | null, articles: Articles | null, gender: Gender | undefined): { needs: SlotNeed[]; pairing: boolean } {
  const slots = new Map((articles?.slots ?? []).map((s) => [s.slot, s]));
  const sellsSlot = (slot: Slot) => !articles || (slots.get(slot)?.count ?? 0) > 0;
  const sellsFamily = (family: string) => !articles || [...slots.values()].some((s) => s.families.some((f) => f.family === family && f.count > 0));
  const targetNeeds = look.targets.flatMap((t): SlotNeed[] => (t.slot ? [{ slot: t.slot, families: t.families, optional: false }] : []));
  const usable = anchor && STYLABLE.has(anchor.slot) ? anchor : null;
  const base = slotNeeds({ anchor: usable ? { slot: usable.slot, family: usable.family } : null, occasions: look.occasions, ...(gender ? { gender } : {}), sellsSlot, sellsFamily, basics: plan.context.styling.basics });
  // A slot word ("shoes") leaves the choice of family to the occasion, as the look would.
  const sharpen = (t: SlotNeed) => {
    const own = base.find((n) => n.slot === t.slot);
    return own && (!t.families.length || t.families.length > 3) ? { ...t, families: own.families } : t;
  };
  if (usable && targetNeeds.length) return { needs: targetNeeds.filter((n) => n.slot !== usable.slot).map(sharpen), pairing: true };
  const needs = base.map((n) => (targetNeeds.find((t) => t.slot === n.slot) ? sharpen(targetNeeds.find((t) => t.slot === n.slot)!) : n));
  for (const t of targetNeeds) if (!needs.some((n) => n.slot === t.slot)) needs.push(t);
  // A full-body piece asked for replaces top and bottom.
  const full = targetNeeds.some((t) => t.slot === 'full body');
  return { needs: full ? needs.filter((n) => n.slot !== 'top' && n.slot !== 'bottom') : needs, pairing: false };
}

function slotCall(look: LookRequest, need: SlotNeed, gender: Gender | undefined, anchor: Resolved | null, target: Wish | undefined): ToolCallPlan {
  // No garment words beside the slot: search reads the last one as the garment wanted and keeps only it.
  const query = [gender ?? '', look.age ?? '', look.colour ?? '', ...(target?.words ?? []), ...look.occasions].filter(Boolean).join(' ').slice(0, 200);
  const budget = look.maxPrice !== undefined ? Math.max(0, look.maxPrice - (anchor?.brief?.price ?? 0)) : undefined;
  const exclude = [...look.exclude, ...(anchor?.brief ? [anchor.brief.itemId] : [])].slice(0, 60);
  return call('lookup_products', {
    ...(query ? { query } : {}),
    ...(need.families.length === 1 ? { family: need.families[0] } : { slot: need.slot }),
    // A look's colour ranks pieces (the colour word, then composing); only a piece named in a colour filters.
    ...(target?.colour ? { color: target.colour } : {}),
    ...(budget !== undefined ? { maxPrice: Math.round(budget * 100) / 100 } : {}),
    ...(exclude.length ? { excludeItemIds: exclude } : {}),
    limit: 8,
  });
}

const occasionTitle = (look: LookRequest) => (look.occasions.length ? look.occasions.slice(0, 2).join(' ') : '');

/** A product's name without the colour a store appends ("Slip Dress – Navy" → "Slip Dress"). */
const shortName = (name: string) => name.split(/\s[–|-]\s/)[0]!.trim() || name;

function lookLabel(look: LookRequest, anchor: Resolved | null, index: number, count: number): string {
  if (anchor) return (count > 1 ? `${capital(shortName(anchor.name))}, look ${index + 1}` : `Styled with ${anchor.brief ? 'the' : 'a'} ${shortName(anchor.name)}`).slice(0, 120);
  return `${capital(occasionTitle(look) || (look.colour ? `all ${look.colour}` : 'everyday'))} look${count > 1 ? ` ${index + 1}` : ''}`.slice(0, 120);
}

function instructions(look: LookRequest): string | undefined {
  // compose_looks adds the store's picture rules and house basics itself.
  const notes = [...(look.occasions.length ? [`Styled for ${look.occasions.join(' and ')}.`] : []), ...(look.colour ? [`A ${look.colour} look.`] : [])];
  return notes.length ? notes.join(' ').slice(0, 600) : undefined;
}

export function planLook(plan: Plan, intent: LookIntent): StylistStep {
  const look = intent.look;
  const articlesArgs = look.gender ? { gender: look.gender } : {};
  const first = anchorCall(plan, look);
  const pre = [...(plan.tools.has('get_articles') ? [call('get_articles', articlesArgs)] : []), ...(first ? [first] : [])];
  const pending = missing(plan, pre);
  const seed: Wish = { families: [], words: [], occasions: look.occasions, exclude: [], similar: false, ...(look.gender ? { gender: look.gender } : {}), ...(look.colour ? { colour: look.colour } : {}), ...(look.maxPrice !== undefined ? { maxPrice: look.maxPrice } : {}) };
  if (pending.length) return { thinking: readingLine(look.note === 'new' ? 'look' : `look (${look.note})`, seed, plan.currency, look.anchor ? [`around ${look.anchor.kind === 'shown' ? look.anchor.brief.name : look.anchor.kind === 'page' ? 'the page product' : garmentWords(look.anchor.wish).join(' ')}`] : []), toolCalls: pending };

  const articles = readArticles(made(plan, 'get_articles', articlesArgs)?.raw);
  const anchor = resolveAnchor(plan, look, first);
  const anchorGender = anchor?.brief?.gender === 'mens' || anchor?.brief?.gender === 'womens' ? (anchor.brief.gender as Gender) : undefined;
  const gender = look.gender ?? anchorGender;
  if (look.maxPrice !== undefined && anchor?.brief && anchor.brief.price > look.maxPrice) return reply(`The ${anchor.name} is already ${money(anchor.brief.price, anchor.brief.currency)}, over your budget of ${money(look.maxPrice, plan.currency)} for the whole look. Want me to build a look around something else?`);
  const { needs, pairing } = needsFor(plan, look, anchor, articles.ok ? articles.value : null, gender);
  const targets = needs.map((n) => look.targets.find((t) => t.slot === n.slot));
  const lookups = needs.map((n, i) => (n.basic ? null : slotCall(look, n, gender, anchor, targets[i])));
  const waiting = missing(plan, lookups.filter((c): c is ToolCallPlan => c !== null));
  if (waiting.length) return { thinking: `Looking for ${needs.filter((n) => !n.basic).map((n) => n.families.length === 1 ? n.families[0] : n.slot).join(', ')}${anchor ? ` to go with the ${anchor.name}` : ''}`, toolCalls: waiting };

  const candidates = lookups.map((c) => {
    const answer = c ? readLookup(made(plan, c.name, c.arguments)?.raw) : null;
    return answer?.ok ? answer.value.products : [];
  });
  const composed = composeLooks({
    anchor: anchor?.brief ?? null,
    needs,
    candidates,
    ...(look.maxPrice !== undefined ? { budget: look.maxPrice } : {}),
    ...(gender ? { gender } : {}),
    ...(look.colour ? { colour: look.colour } : {}),
    off: plan.context.styling.off,
    severalStores: plan.context.severalStores,
    exclude: look.exclude,
    basics: plan.context.styling.basics,
    ...(look.age ? { age: look.age } : {}),
    occasions: look.occasions,
    count: pairing ? 1 : 2,
  });
  if (!composed.length) {
    const what = look.maxPrice !== undefined ? ` within ${money(look.maxPrice, plan.currency)}` : '';
    return reply(`I couldn't put a complete look together${anchor ? ` around the ${anchor.name}` : ''}${what} from what's in stock right now. Tell me a piece you'd like to start from, or a different occasion, and I'll try again.`);
  }
  const looksArgs = { looks: composed.map((c, i) => ({ label: lookLabel(look, anchor, i, composed.length), itemIds: c.items.map((p) => p.itemId), ...(instructions(look) ? { customInstructions: instructions(look) } : {}) })) };
  const chips = { suggestions: LOOK_CHIPS };
  const age = look.age ?? (anchor?.brief ? ageOfName(anchor.brief.name) ?? undefined : undefined);
  const unsuited = outOfPlace(look.occasions, gender);
  const pairList = pairing ? candidates.flat().filter((p) => p.available && p.itemId !== anchor?.brief?.itemId && suitsAge({ ...(age ? { age } : {}) }, p) && !unsuited.has(p.family)).slice(0, 6) : [];
  const pairWords = look.targets.flatMap((t) => garmentWords(t).map(plural)).join(' and ') || 'pieces';
  const show = pairList.length > 1 ? { label: capital(`${pairWords} to wear with the ${anchor?.name ?? 'piece'}`).slice(0, 120), kind: 'list', itemIds: pairList.map((p) => p.itemId), suggestions: ['Show cheaper', 'Complete the look', 'Something else'] } : null;
  const finalCalls = [
    ...(plan.tools.has('compose_looks') ? [call('compose_looks', looksArgs)] : []),
    ...(show && plan.tools.has('show_products') ? [call('show_products', show)] : []),
    ...(!show && plan.tools.has('suggest_replies') ? [call('suggest_replies', chips)] : []),
  ];
  const left = missing(plan, finalCalls);
  if (left.length) return { thinking: `Composed ${composed.length} look${composed.length > 1 ? 's' : ''}`, toolCalls: left };

  const answered = readLooks(made(plan, 'compose_looks', looksArgs)?.raw);
  const accepted = answered.ok && answered.value.looks.length ? answered.value.looks.map((l) => l.itemIds) : answered.ok ? [] : composed.map((c) => c.items.map((p) => p.itemId));
  const byId = new Map(candidates.flat().concat(anchor?.brief ? [anchor.brief] : []).map((p) => [p.itemId, p]));
  const described = accepted.map((ids, i) => ({ items: ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : [])), basics: composed[i]?.basics ?? [] })).filter((l) => l.items.length);
  if (!described.length) return reply("I put a look together but couldn't show it just now — please ask me again in a moment.");
  return reply(lookReply(plan, look, anchor, described, { pairing, listed: show !== null }));
}

/** The reply: each look's pieces (beside the piece it is built on), its total, and the house basics it is styled with. */
function lookReply(plan: Plan, look: LookRequest, anchor: Resolved | null, looks: Array<{ items: ProductBrief[]; basics: HouseBasic[] }>, { pairing, listed }: { pairing: boolean; listed: boolean }): string {
  const several = plan.context.severalStores;
  if (pairing && anchor) {
    const pick = looks[0]!.items.find((p) => p.itemId !== anchor.brief?.itemId);
    return `My pick to wear with the ${anchor.name} is the ${pick ? listing([pick], several) : 'piece shown'}, styled together as a look${listed ? ', and a few more options are on screen' : ''}.`;
  }
  const adjective = look.note === 'cheaper' ? 'cheaper' : look.note === 'other' ? 'different' : '';
  const what = looksFor(look.occasions, looks.length, adjective);
  const audience = look.gender === 'mens' ? ' for him' : look.gender === 'womens' ? ' for her' : '';
  const wearing = anchor ? (anchor.brief ? `the ${anchor.name}` : `${/^[aeiou]/i.test(anchor.name) ? 'an' : 'a'} ${anchor.name}`) : '';
  const intro = anchor ? `Here's how I'd wear ${wearing} — ${what}:` : `Here ${looks.length > 1 ? 'are' : 'is'} ${what}${look.colour ? ` in ${look.colour}` : ''}${audience}:`;
  const lines = looks.map((l, i) => {
    const pieces = anchor?.brief ? l.items.filter((p) => p.itemId !== anchor.brief!.itemId) : l.items;
    const total = money(Math.round(l.items.reduce((sum, p) => sum + p.price, 0) * 100) / 100, l.items[0]?.currency || plan.currency);
    const basics = l.basics.map((b) => ` Finish it with a house basic: ${b.text} (not sold here).`).join('');
    return `${looks.length > 1 ? `${i + 1}. ` : ''}${listing(pieces, several, 6)} — ${total} in all.${basics}`;
  });
  return `${severalStoresNote(plan)}${intro} ${lines.join(' ')}`.replace(/\s+/g, ' ').trim();
}
