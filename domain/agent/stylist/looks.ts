// Wearable looks from candidates per slot: which slots a look needs (around the piece it is built
// on, for the occasion and audience), then one product per slot chosen together — a full-body
// piece instead of top and bottom, one strong colour at most besides neutrals (neighbouring
// colours count as one), one print leading, a matching set kept together, every piece for the
// same audience, the whole look within the shopper's budget. A slot the store does not sell is
// filled by a house basic when the store has one. The store's rule switches (styling.off) turn the
// palette, print and set rules off. Pure and bounded: a few hundred combinations at most.
import { areNeighbours } from '../../catalogue/colours.js';
import { familyCues, words } from '../../catalogue/taxonomy/index.js';
import type { Gender, Slot } from '../../catalogue/vocabulary.js';
import { LOOK_OCCASIONS, OCCASION_WORDING } from '../../search/shopper-words.js';
import type { HouseBasic, RuleId } from '../../styling/settings.js';
import type { ProductBrief } from '../products.js';
import { memoised } from './memo.js';
import { ageOfName, suitsAge } from './wish.js';

export interface SlotNeed {
  slot: Slot;
  /** Families that suit this need; empty for any of the slot. */
  families: string[];
  optional: boolean;
  /** Set when the store does not sell the slot and a house basic fills it. */
  basic?: HouseBasic;
}

export type OccasionKind = 'tailored' | 'formal' | 'smart' | 'active' | 'beach' | 'casual';

export function occasionKind(occasions: readonly string[]): { kind: OccasionKind; kinds: OccasionKind[]; hot: boolean; cold: boolean } {
  const of = (k: keyof typeof LOOK_OCCASIONS) => occasions.some((o) => LOOK_OCCASIONS[k].includes(o));
  const kinds = (['tailored', 'formal', 'active', 'beach', 'smart'] as const).filter(of);
  return { kind: kinds[0] ?? 'casual', kinds: kinds.length ? kinds : ['casual'], hot: of('hot'), cold: of('cold') };
}

/** Families that do not belong in a look for the occasion, whatever else the store has. */
const OUT_OF_PLACE: Readonly<Record<OccasionKind | 'hot' | 'cold', readonly string[]>> = {
  formal: ['shorts', 'joggers', 'leggings', 'jeans', 'hoodie', 'sweatshirt', 't shirt', 'tank top', 'polo', 'sneaker', 'flip flop', 'cap', 'beanie', 'backpack', 'belt bag', 'fleece', 'puffer', 'tracksuit', 'dungarees', 'jacket'],
  tailored: ['shorts', 'joggers', 'leggings', 'hoodie', 'sweatshirt', 'tank top', 'flip flop', 'cap', 'beanie', 'belt bag', 'tracksuit', 'playsuit', 'jacket'],
  smart: ['joggers', 'leggings', 'hoodie', 'sweatshirt', 'tank top', 'flip flop', 'tracksuit', 'fleece'],
  beach: ['formal shoe', 'blazer', 'suit', 'tie', 'coat', 'puffer', 'boot'],
  active: ['dress', 'skirt', 'heels', 'formal shoe', 'loafer', 'blazer', 'suit', 'tie', 'clutch', 'jeans', 'shirt', 'blouse'],
  casual: ['suit', 'tie', 'gown'],
  hot: ['coat', 'puffer', 'boot', 'fleece', 'beanie', 'gloves', 'sweater', 'scarf'],
  cold: ['sandal', 'flip flop', 'shorts', 'tank top', 'swim shorts', 'bikini', 'swimsuit'],
};

/** Dressed-up men's looks leave these out too. */
const OUT_OF_PLACE_DRESSED_UP_MENS: readonly string[] = ['sandal', 'heels', 'flat'];

/** The families a look for these occasions leaves out (the audience's too, for dressed-up looks). */
export function outOfPlace(occasions: readonly string[], gender?: Gender): ReadonlySet<string> {
  const { kinds, hot, cold } = occasionKind(occasions);
  const out = new Set(kinds.flatMap((k) => OUT_OF_PLACE[k]));
  if (hot) for (const f of OUT_OF_PLACE.hot) out.add(f);
  if (cold) for (const f of OUT_OF_PLACE.cold) out.add(f);
  if (gender === 'mens' && kinds.some((k) => k === 'formal' || k === 'tailored')) for (const f of OUT_OF_PLACE_DRESSED_UP_MENS) out.add(f);
  return out;
}

export interface NeedsInput {
  anchor: { slot: string; family: string } | null;
  occasions: readonly string[];
  gender?: Gender;
  /** Whether the store sells a slot, or a family (undefined: not known, assumed yes). */
  sellsSlot: (slot: Slot) => boolean;
  sellsFamily: (family: string) => boolean;
  basics: readonly HouseBasic[];
}

const need = (slot: Slot, families: string[] = [], optional = false): SlotNeed => ({ slot, families, optional });

/** The slots a look needs, the anchor's own left out. */
export function slotNeeds(input: NeedsInput): SlotNeed[] {
  const { kind, cold } = occasionKind(input.occasions);
  const dressy = kind === 'formal' || kind === 'smart' || kind === 'beach';
  // Without an audience, an event or a beach trip in a store that sells dresses is dressed as one.
  const event = input.occasions.some((o) => OCCASION_WORDING.events.includes(o)) || kind === 'beach';
  const womens = input.gender === 'womens' || (input.gender === undefined && event && dressy && input.sellsFamily('dress'));
  const mens = input.gender === 'mens';
  const shoes: Record<OccasionKind, string[]> = {
    active: ['sneaker'],
    beach: ['sandal', 'flip flop'],
    formal: mens ? ['formal shoe', 'loafer'] : ['heels', 'sandal', 'flat', 'formal shoe'],
    tailored: mens ? ['formal shoe', 'loafer'] : ['loafer', 'flat', 'heels', 'formal shoe', 'boot'],
    smart: [],
    casual: [],
  };
  const footwear = need('footwear', shoes[kind]);
  const tailored = kind === 'tailored';
  const outer = need('outerwear', tailored || (mens && (kind === 'formal' || kind === 'smart')) ? ['blazer'] : [], true);
  const separates = [
    need('top', tailored ? ['shirt', 'blouse', 'sweater', 'top'] : []),
    need('bottom', kind === 'active' ? ['joggers', 'leggings', 'shorts'] : tailored ? ['trousers', 'skirt'] : []),
    footwear,
  ];
  const dress = [need('full body', ['dress', 'jumpsuit', 'playsuit']), footwear];
  const extras = (list: SlotNeed[]) => [...list, ...(cold || tailored || (mens && (kind === 'formal' || kind === 'smart')) ? [outer] : []), ...(womens && dressy ? [need('bag', [], true)] : [])];
  const anchor = input.anchor;
  let needs: SlotNeed[];
  if (!anchor) {
    // A suit takes the top and bottom slots: its shirt is not a piece of its own in a look.
    if (mens && kind === 'formal' && input.sellsFamily('suit')) needs = [need('full body', ['suit']), need('footwear', ['formal shoe', 'loafer']), need('accessory', ['tie'], true)];
    else if (womens && dressy && !tailored && input.sellsSlot('full body')) needs = extras(dress);
    else needs = extras(separates);
  } else {
    const slot = anchor.slot as Slot;
    if (slot === 'full body' && anchor.family === 'suit') needs = [need('footwear', ['formal shoe', 'loafer']), need('accessory', ['tie'], true)];
    else if (slot === 'full body') needs = [footwear, ...(cold ? [need('outerwear', [], true)] : []), need('bag', [], true)];
    else if (slot === 'top') needs = [need('bottom'), footwear, ...(cold ? [outer] : [])];
    else if (slot === 'bottom') needs = [need('top'), footwear, ...(cold ? [outer] : [])];
    else if (slot === 'outerwear') needs = [need('top'), need('bottom'), footwear];
    else if (slot === 'swimwear') needs = [need('footwear', ['sandal', 'flip flop']), need('headwear', ['hat'], true), need('bag', ['tote'], true)];
    else if (womens && dressy && input.sellsSlot('full body')) needs = [need('full body', ['dress', 'jumpsuit']), ...(slot === 'footwear' ? [] : [footwear])];
    else needs = [need('top'), need('bottom'), ...(slot === 'footwear' ? [] : [footwear])];
  }
  return fillFromStore(needs, input);
}

/** Slots compose_looks fills with a house basic when a look has no piece for them. */
export const BASIC_FILLED: ReadonlySet<string> = new Set(['top', 'bottom', 'footwear']);

/** Slots that finish a look when the store sells too little of the essentials to make one. */
const FINISHING_SLOTS: readonly Slot[] = ['outerwear', 'bag', 'headwear', 'accessory', 'jewellery', 'eyewear'];

/**
 * A slot the store does not sell is filled by its house basic (top, bottom, footwear), or left
 * out. When what is left cannot make a look of two pieces (a dress in a store that sells no shoes,
 * a hike in a store with tops but no trousers for her), the finishing slots the store does sell
 * join as optional pieces: a look from what the store has rather than none.
 */
function fillFromStore(needs: SlotNeed[], input: NeedsInput): SlotNeed[] {
  const kept = needs.flatMap((n) => {
    if (input.sellsSlot(n.slot)) return [n];
    const basic = BASIC_FILLED.has(n.slot) ? input.basics.find((b) => b.slot === n.slot) : undefined;
    return basic && !n.optional ? [{ ...n, basic }] : [];
  });
  const pieces = kept.filter((n) => !n.basic).length + (input.anchor ? 1 : 0);
  if (pieces >= 2) return kept;
  const taken = new Set<string>([...kept.map((n) => n.slot), ...(input.anchor ? [input.anchor.slot] : [])]);
  const finishing = FINISHING_SLOTS.filter((slot) => !taken.has(slot) && input.sellsSlot(slot)).slice(0, 2);
  return [...kept, ...finishing.map((slot) => need(slot, [], true))];
}

const NEUTRALS = new Set(['black', 'charcoal', 'grey', 'silver', 'white', 'ivory', 'cream', 'beige', 'tan', 'camel', 'brown', 'chocolate', 'khaki', 'navy', 'gold', 'other', '']);

/** The strong colour of a piece, or null for a neutral (blue denim counts as neutral; a multicolour piece is strong). */
const strong = (p: ProductBrief): string | null => (NEUTRALS.has(p.colour) || (p.family === 'jeans' && (p.colour === 'blue' || p.colour === 'navy')) ? null : p.colour);
const patterned = (p: ProductBrief) => (p.pattern !== '' && p.pattern !== 'solid' && p.pattern !== 'other') || p.colour === 'multicolour';

/** A name without garment and colour words: "Aria Linen Jacket" and "Aria Linen Trousers" share "aria linen". */
export const nameStem = memoised((name: string): string => stemOf(name));

function stemOf(name: string): string {
  const tokens = words(name);
  const drop = new Set<number>();
  for (const m of familyCues().scan(tokens)) for (let i = m.start; i < m.end; i++) drop.add(i);
  const stem = tokens.filter((w, i) => !drop.has(i) && w.length > 1 && !/^\d+$/.test(w) && !['set', 'co', 'ord', 'the', 'and', 'in', 'with'].includes(w));
  return stem.length >= 2 ? stem.join(' ') : '';
}

export interface ComposeInput {
  anchor: ProductBrief | null;
  needs: SlotNeed[];
  /** Candidates per need, best first (the lookups' order). */
  candidates: ProductBrief[][];
  budget?: number;
  gender?: Gender;
  colour?: string;
  off: readonly RuleId[];
  severalStores: boolean;
  exclude: readonly string[];
  /** The store's house basics. */
  basics: readonly HouseBasic[];
  /** What the look is for (pieces out of place there are left out). */
  occasions?: readonly string[];
  /** Children's looks only when the shopper asked for them. */
  age?: 'kids' | 'baby';
  /** How many looks, 1 or 2. */
  count: number;
}

export interface ComposedLook {
  items: ProductBrief[];
  basics: HouseBasic[];
  total: number;
}

const PER_NEED = { required: 5, optional: 3 };

export function composeLooks(input: ComposeInput): ComposedLook[] {
  const looks: ComposedLook[] = [];
  const used = new Set(input.exclude);
  let first: { missing: number; pieces: number } | null = null;
  for (let n = 0; n < Math.min(2, Math.max(1, input.count)); n++) {
    const look = bestLook(input, used);
    if (!look) break;
    // A second look only when it is as complete as the first: a half look is no alternative.
    if (first && (look.missing > first.missing || look.items.length < first.pieces)) break;
    first ??= { missing: look.missing, pieces: look.items.length };
    looks.push({ items: look.items, basics: look.basics, total: look.total });
    for (const p of look.items) if (p !== input.anchor) used.add(p.itemId);
  }
  return looks;
}

function bestLook(input: ComposeInput, used: ReadonlySet<string>): (ComposedLook & { missing: number }) | null {
  const anchor = input.anchor;
  const gender = input.gender === 'unisex' ? undefined : input.gender ?? (anchor && anchor.gender !== 'unisex' && anchor.gender ? (anchor.gender as Gender) : undefined);
  const anchorPrice = anchor?.price ?? 0;
  const budget = input.budget !== undefined ? input.budget - anchorPrice : Infinity;
  const rules = { palette: !input.off.includes('palette'), prints: !input.off.includes('printLeads'), sets: !input.off.includes('sets') };
  const unsuited = outOfPlace(input.occasions ?? [], gender);
  const options = input.needs.map((need, i) => {
    if (need.basic) return [];
    const age = input.age ?? (anchor ? ageOfName(anchor.name) ?? undefined : undefined);
    const list = (input.candidates[i] ?? []).filter(
      (p) => p.available && !used.has(p.itemId) && p.itemId !== anchor?.itemId && p.price <= budget + 1e-9 && (!p.slot || p.slot === need.slot) && suitsAge({ ...(age ? { age } : {}) }, p) && !unsuited.has(p.family),
    );
    // The families that suit the occasion first; the others stay, as a second choice.
    const suits = (p: ProductBrief) => !need.families.length || need.families.includes(p.family);
    return [...list.filter(suits), ...list.filter((p) => !suits(p))].slice(0, need.optional ? PER_NEED.optional : PER_NEED.required);
  });
  let best: { score: number; picks: Array<Pick | null> } | null = null;
  const chosen: Array<Pick | null> = [];
  const visit = (i: number, spent: number, lookGender: Gender | undefined) => {
    if (i === input.needs.length) {
      if (chosen.filter(Boolean).length + (anchor ? 1 : 0) < 2) return;
      const s = score(input, rules, anchor, chosen);
      if (!best || s > best.score) best = { score: s, picks: [...chosen] };
      return;
    }
    for (const [rank, p] of options[i]!.entries()) {
      if (spent + p.price > budget + 1e-9) continue;
      const g = p.gender === 'mens' || p.gender === 'womens' ? (p.gender as Gender) : undefined;
      if (g && lookGender && g !== lookGender) continue;
      chosen.push({ p, rank });
      visit(i + 1, spent + p.price, lookGender ?? g);
      chosen.pop();
    }
    // Any slot may be left out (a required one at a cost) rather than fail the whole look.
    chosen.push(null);
    visit(i + 1, spent, lookGender);
    chosen.pop();
  };
  visit(0, 0, gender);
  const found = best as { score: number; picks: Array<Pick | null> } | null;
  if (!found) return null;
  const items = [...(anchor ? [anchor] : []), ...found.picks.flatMap((pick) => (pick ? [pick.p] : []))];
  // As compose_looks does: a house basic stands in for a top, bottom or footwear the look lacks.
  const taken = new Set(items.flatMap((p) => (p.slot === 'full body' ? ['top', 'bottom', 'full body'] : [p.slot])));
  const basics = input.basics.filter((b, i) => BASIC_FILLED.has(b.slot) && !taken.has(b.slot) && input.basics.findIndex((x) => x.slot === b.slot) === i);
  const missing = input.needs.filter((n, i) => !n.optional && !n.basic && !found.picks[i]).length;
  return { items, basics, missing, total: Math.round(items.reduce((sum, p) => sum + p.price, 0) * 100) / 100 };
}

interface Pick {
  p: ProductBrief;
  /** Its place among the slot's candidates: earlier ones matched the search better. */
  rank: number;
}

function score(input: ComposeInput, rules: { palette: boolean; prints: boolean; sets: boolean }, anchor: ProductBrief | null, chosen: Array<Pick | null>): number {
  let total = 0;
  const pieces: ProductBrief[] = anchor ? [anchor] : [];
  input.needs.forEach((need, i) => {
    const pick = chosen[i];
    if (!pick) {
      if (!need.optional && !need.basic) total -= 3;
      return;
    }
    pieces.push(pick.p);
    total += 1 - pick.rank * 0.12 + (need.optional ? 0.3 : 0) + (need.families.length && !need.families.includes(pick.p.family) ? -0.8 : 0);
  });
  if (rules.palette) {
    const colours = pieces.map(strong).filter((c): c is string => c !== null);
    const lead = colours[0];
    for (const c of colours) if (lead && c !== lead && (c === 'multicolour' || lead === 'multicolour' || !areNeighbours(lead as never, c as never))) total -= 4;
  }
  if (input.colour) for (const p of pieces) total += p.colour === input.colour ? 0.8 : strong(p) ? -0.6 : 0;
  if (rules.prints) total -= Math.max(0, pieces.filter(patterned).length - 1) * 4;
  if (rules.sets) {
    const stems = pieces.map((p) => nameStem(p.name));
    for (let a = 0; a < stems.length; a++) for (let b = a + 1; b < stems.length; b++) if (stems[a] && stems[a] === stems[b] && pieces[a]!.slot !== pieces[b]!.slot) total += 2.5;
  }
  if (input.severalStores) {
    const store = pieces[0]?.store;
    for (const p of pieces) if (p.store !== store) total -= 0.5;
  }
  return total;
}
