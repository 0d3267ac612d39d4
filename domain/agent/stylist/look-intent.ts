// A look request read from a message: the piece it is built around (the page product, a product on
// screen, or a garment the shopper names), the pieces they want in it ("what shoes go with it"),
// the occasion, audience, colour and budget; and how a later message changes the last look
// ("cheaper", "another look", "in black"). Pure.
import { type ColorFamily, type Gender, type Slot } from '../../catalogue/vocabulary.js';
import { familyByName } from '../../search/lexicons.js';
import type { ProductBrief } from '../products.js';
import type { TurnContext } from '../context.js';
import type { Turn } from './history.js';
import type { Said } from './said.js';
import { markOf, restOf } from './phrases.js';
import { audience, onlyNarrows, wishFromText, type Wish } from './wish.js';

export type Anchor = { kind: 'page' } | { kind: 'shown'; brief: ProductBrief } | { kind: 'named'; wish: Wish };

export interface LookRequest {
  anchor: Anchor | null;
  /** Pieces the shopper asked to have in the look, one wish per slot. */
  targets: Wish[];
  occasions: string[];
  gender?: Gender;
  age?: 'kids' | 'baby';
  colour?: ColorFamily;
  /** The whole look's budget. */
  maxPrice?: number;
  /** Products not to use again ("another look"). */
  exclude: string[];
  /** What changed from the last look, for the reply. */
  note: 'new' | 'cheaper' | 'other' | 'narrow';
  /** Nothing to build on: no piece, occasion, audience, colour or budget. */
  vague: boolean;
}

/** Reads an earlier turn (intent.ts's intentAt): only a look it asked for matters here. */
type ReadAt = (context: TurnContext, turns: Turn[], index: number, imageColours: readonly ColorFamily[], depth: number) => { kind: string; look?: LookRequest };

const hasGarment = (wish: Wish) => wish.families.length > 0 || wish.slot !== undefined;

/** A wish per slot named ("a shirt and shoes" → shirt; footwear). */
function bySlot(wish: Wish): Wish[] {
  if (!hasGarment(wish)) return [];
  const groups = new Map<Slot, string[]>();
  for (const family of wish.families) {
    const slot = familyByName.get(family)?.slot;
    if (slot) groups.set(slot, [...(groups.get(slot) ?? []), family]);
  }
  if (!groups.size && wish.slot) return [{ ...wish, families: [] }];
  return [...groups].map(([slot, families]) => {
    const one: Wish = { families: families.length > 3 ? [] : families, slot, words: wish.words, occasions: [], exclude: [], similar: false };
    if (wish.colour) one.colour = wish.colour;
    return one;
  });
}

/** The pieces a look is built on; shoes, bags and accessories may come back in another look. */
const LEAD_SLOTS = new Set(['full body', 'top', 'bottom', 'outerwear']);

const ANCHOR_SEEKING = /^(complete|finish|style|how|what goes|goes|go|pair|match|wear|to)/;

export function readLookRequest(said: Said, readAt: ReadAt, openOccasion = false): LookRequest | null {
  const { reading, wish, prev, context } = said;
  const cues = reading.cues;
  const lookMark = markOf(reading, 'look');
  const pair = markOf(reading, 'pair');
  if (!lookMark && !pair && !openOccasion) return prev?.kind === 'look' ? refineLook(said, readAt) : null;

  let anchorWish: Wish | null = null;
  let targets: Wish[] = [];
  let colourWish = wish;
  if (pair) {
    const before = wishFromText(restOf(reading, 0, pair.start));
    const after = wishFromText(restOf(reading, pair.end));
    if (hasGarment(after)) anchorWish = after;
    targets = bySlot(before);
    colourWish = before;
  } else if (hasGarment(wish)) {
    if (cues.has('this')) {
      // "style these black jeans": the colour is the jeans', not the look's.
      anchorWish = wish;
      const { colour: _theirs, ...rest } = wish;
      colourWish = rest;
    } else targets = bySlot(wish);
  }
  const phrase = lookMark ? reading.tokens.slice(lookMark.start, lookMark.end).join(' ') : '';
  const seeksAnchor = cues.has('this') || !!pair || ANCHOR_SEEKING.test(phrase);
  const anchor = findAnchor(said, anchorWish, seeksAnchor);
  // "what shoes go with it" right after looks: for the same occasion as they were.
  const before = !wish.occasions.length && prev?.kind === 'look' && prev.turn === said.index - 1 && said.depth < 3 ? readAt(context, said.turns, prev.turn, [], said.depth + 1) : null;
  const request: LookRequest = {
    anchor,
    targets,
    occasions: before?.look?.occasions ?? wish.occasions,
    exclude: [],
    note: 'new',
    vague: false,
  };
  if (wish.gender) request.gender = wish.gender;
  if (wish.age) request.age = wish.age;
  if (colourWish.colour && !targets.length) request.colour = colourWish.colour;
  if (wish.maxPrice !== undefined) request.maxPrice = wish.maxPrice;
  request.vague = !anchor && !targets.length && !request.occasions.length && !request.gender && !request.colour && request.maxPrice === undefined;
  if (request.vague && context.page) {
    request.anchor = { kind: 'page' };
    request.vague = false;
  }
  // "another look" / "a cheaper look" with a look on screen change that look.
  if (prev?.kind === 'look' && (cues.has('other') || cues.has('cheaper')) && !hasGarment(wish)) return refineLook(said, readAt);
  return request;
}

function findAnchor(said: Said, named: Wish | null, seeks: boolean): Anchor | null {
  const { prev, context, reading, index } = said;
  const onScreen = prev?.kind === 'list' ? prev.shown : prev?.kind === 'look' ? prev.looks[0] ?? [] : [];
  const page = context.page ? wishFromText(context.page.title + (context.page.type ? ` ${context.page.type}` : '')) : null;
  if (named) {
    const fits = (b: ProductBrief) => (named.families.length ? named.families.includes(b.family) : b.slot === named.slot) && (!named.colour || b.colour === named.colour);
    const shown = onScreen.find(fits);
    if (shown && prev?.turn === index - 1) return { kind: 'shown', brief: shown };
    if (page && page.families.some((f) => named.families.includes(f))) return { kind: 'page' };
    if (shown) return { kind: 'shown', brief: shown };
    return { kind: 'named', wish: named };
  }
  if (!seeks) return null;
  const ordinal = reading.ordinal;
  if (ordinal !== undefined && onScreen.length) {
    const brief = ordinal === -1 ? onScreen.at(-1) : onScreen[ordinal - 1];
    if (brief) return { kind: 'shown', brief };
  }
  if (prev?.kind === 'list' && prev.turn === index - 1 && prev.shown[0]) return { kind: 'shown', brief: prev.shown[0] };
  // Right after looks, "it" is the piece the first look is built on.
  const lead = prev?.kind === 'look' ? prev.looks[0]?.find((p) => LEAD_SLOTS.has(p.slot)) : undefined;
  if (lead && prev?.turn === index - 1) return { kind: 'shown', brief: lead };
  if (context.page) return { kind: 'page' };
  if (prev?.kind === 'list' && prev.shown[0]) return { kind: 'shown', brief: prev.shown[0] };
  return null;
}

/** A change to the last look: the look asked for then, with this message's changes. */
function refineLook(said: Said, readAt: ReadAt): LookRequest | null {
  const { reading, wish, prev, turns, context, depth } = said;
  if (prev?.kind !== 'look' || depth > 3) return null;
  const cues = reading.cues;
  const cheaper = cues.has('cheaper');
  const other = cues.has('other') || reading.alone === 'other' || cues.has('instead');
  if (!cheaper && !other && !onlyNarrows(wish) && !(cues.has('instead') && hasGarment(wish))) return null;
  const before = readAt(context, turns, prev.turn, [], depth + 1);
  if (!before.look) return null;
  const look: LookRequest = { ...before.look, exclude: [], note: 'narrow', vague: false };
  const anchorId = look.anchor?.kind === 'shown' ? look.anchor.brief.itemId : undefined;
  const used = prev.looks.flat().filter((p) => LEAD_SLOTS.has(p.slot)).map((p) => p.itemId).filter((id) => id !== anchorId);
  if (cheaper) {
    const totals = prev.looks.map((items) => items.reduce((sum, p) => sum + p.price, 0));
    look.maxPrice = Math.min(look.maxPrice ?? Infinity, Math.max(0, Math.min(...totals) - 0.01));
    look.note = 'cheaper';
  } else if (other && !hasGarment(wish) && !wish.colour) {
    look.exclude = [...new Set(used)].slice(0, 60);
    look.note = 'other';
  }
  if (hasGarment(wish)) look.targets = bySlot(wish);
  if (wish.colour) look.colour = wish.colour;
  const { gender: _gender, age: _age, ...rest } = look;
  const changed: LookRequest = { ...rest, ...audience(look, wish) };
  if (wish.occasions.length) changed.occasions = wish.occasions;
  if (wish.maxPrice !== undefined) changed.maxPrice = wish.maxPrice;
  return changed;
}
