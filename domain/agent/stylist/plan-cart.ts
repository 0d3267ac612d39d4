// A cart turn (only when the shopper shared a cart): add the product meant (on screen or on the
// page, looked up for its itemId and sizes) in the size they named, or ask which size; for every
// other change, read the cart, find the line their words name ("my sweater", "the shoes") or ask
// which, then change its quantity, its size (one up or down from the variant they have), swap it
// for another product, or remove it; then say what happened, in the tool's own words when it
// could not. Pure.
import { findColours } from '../../catalogue/colours.js';
import { familyCues, words } from '../../catalogue/taxonomy/index.js';
import { normalSize } from '../../search/sizes.js';
import type { ProductBrief } from '../products.js';
import type { CartRequest } from './cart-intent.js';
import { lineLabel, lineName, sameLine, sizeIn } from './cart-intent.js';
import type { Intent } from './intent.js';
import { readCartChange, readCartView, readLookup, type CartLineBrief, type CartView } from './outputs.js';
import { call, made, reply, type Plan, type StylistStep, type ToolCallPlan } from './plan.js';
import { money } from './words.js';
import { isGarmentAsked } from './plan-products.js';
import { overlap, productLookup, productOf, sizeLabel, sizeOf, sizePart, uniq } from './product-match.js';
import { lookupArgs, overlay, wishFromText, type Wish } from './wish.js';
import type { Slot } from '../../catalogue/vocabulary.js';

type CartIntent = Extract<Intent, { kind: 'cart' }>;

/** The size of a cart line, read from its variant ("M / Black", "42"). */
export function lineSize(variant: string | null): string | undefined {
  if (!variant) return undefined;
  for (const part of variant.split('/')) {
    const size = sizeIn(part.trim());
    if (size) return size;
  }
  return undefined;
}


function ask(plan: Plan, question: string, options: string[], fallback: string): StylistStep {
  const opts = uniq(options.map((o) => o.slice(0, 60)).filter(Boolean)).slice(0, 6);
  const args = { question, options: opts };
  if (opts.length < 2 || !plan.tools.has('ask_question')) return reply(fallback);
  if (!made(plan, 'ask_question', args)) return { thinking: 'Asking which one', toolCalls: [call('ask_question', args)] };
  return reply("Just pick one and I'll take care of it.");
}

/** Make the change, then report what the tool said. */
function act(plan: Plan, change: ToolCallPlan, done: string, verb: string): StylistStep {
  const step = made(plan, change.name, change.arguments);
  if (!step) return { thinking: `Cart: ${change.name.replace(/_/g, ' ')}`, toolCalls: [change] };
  const answer = readCartChange(step.raw);
  return reply(answer.ok ? done : `I couldn't ${verb}: ${answer.error}`);
}

export function planCart(plan: Plan, intent: CartIntent): StylistStep {
  const request = intent.cart;
  if (!plan.tools.has('read_cart')) return reply("I can't see or change your cart from this chat.");
  if (request.action === 'add') return planAdd(plan, request);
  const readStep = made(plan, 'read_cart', {});
  if (!readStep) return { thinking: `Cart: ${request.action}; reading the cart first`, toolCalls: [call('read_cart', {})] };
  const cart = readCartView(readStep.raw);
  if (!cart.ok) return reply(`I couldn't read your cart: ${cart.error}`);
  if (request.action === 'view') return reply(viewText(cart.value));
  const lines = cart.value.lines;
  // "make it two" right after adding: the cart sent may not hold the new line yet, so add the rest.
  const added = request.lastAdded && request.lastProduct;
  if (request.action === 'quantity' && added && !request.refText.trim() && !lines.some((l) => overlap(added.name, l.title) >= 0.6)) {
    const wanted = request.quantity ?? request.lastAdded!.quantity + 1;
    const more = Math.min(10, wanted - request.lastAdded!.quantity);
    if (more < 1) return reply(`You have ${request.lastAdded!.quantity} × ${added.name} on the way to your cart already.`);
    const size = request.lastAdded!.size;
    return act(
      plan,
      call('add_to_cart', { itemId: added.itemId, ...(size ? { size } : {}), ...(more > 1 ? { quantity: more } : {}) }),
      `Done — that's ${wanted} × ${added.name}${size ? ` in size ${size}` : ''} in your cart.`,
      `add another ${added.name}`,
    );
  }
  if (!lines.length) return reply('Your cart is empty right now — want me to find something to put in it?');
  const match = matchLine(plan, request, lines);
  if (!('line' in match)) return ask(plan, 'Which item in your cart do you mean?', match.options.map(lineLabel), `Which item do you mean? Your cart has ${lines.map(lineLabel).join(', ')}.`);
  const line = match.line;
  switch (request.action) {
    case 'remove':
      return act(plan, call('remove_from_cart', { lineKey: line.key }), `Done — I've removed the ${line.title} from your cart.`, `remove the ${line.title}`);
    case 'quantity': {
      const wanted = request.quantity ?? (request.increment === 'double' ? line.quantity * 2 : line.quantity + 1);
      const quantity = Math.min(99, Math.max(1, Math.round(wanted)));
      return act(plan, call('update_cart_quantity', { lineKey: line.key, quantity }), `Done — you now have ${quantity} × ${line.title} in your cart.`, `change the quantity of the ${line.title}`);
    }
    case 'resize':
      return resize(plan, request, line);
    case 'swap':
      return swap(plan, request, line);
    default:
      return reply(viewText(cart.value));
  }
}

function viewText(cart: CartView): string {
  if (!cart.lines.length) return 'Your cart is empty right now.';
  const lines = cart.lines.slice(0, 8).map((l) => `${l.quantity} × ${lineName(l)}`);
  return `Your cart has ${lines.join(', ')}${cart.lines.length > 8 ? ` and ${cart.lines.length - 8} more` : ''}${cart.currency ? ` — ${money(cart.total, cart.currency)} in all` : ''}.`;
}

/** The garments a title names (taxonomy cues), for matching "my sweater" to "Wool Crew Jumper". */
function garmentsOf(title: string): { families: Set<string>; slots: Set<string> } {
  const families = new Set<string>();
  const slots = new Set<string>();
  for (const m of familyCues().scan(words(title)))
    for (const cue of m.values) {
      if (!cue) continue;
      families.add(cue.family);
      slots.add(cue.slot);
    }
  return { families, slots };
}

function matchLine(plan: Plan, request: CartRequest, lines: CartLineBrief[]): { line: CartLineBrief } | { options: CartLineBrief[] } {
  // "Which item do you mean?" answered with a tap: the line tapped, whatever else was said.
  const tapped = request.tappedLine && sameLine(lines, request.tappedLine);
  if (tapped) return { line: tapped };
  const ref = request.ref;
  const refWords = words(request.refText).filter((w) => w.length > 2 && !['the', 'and', 'one', 'ones', 'those', 'these', 'this', 'that', 'item'].includes(w));
  const named = ref.families.length > 0 || ref.slot !== undefined || ref.colour !== undefined || refWords.length > 0;
  if (!named) {
    if (request.ordinal !== undefined) {
      const line = request.ordinal === -1 ? lines.at(-1) : lines[request.ordinal - 1];
      if (line) return { line };
    }
    // "it" right after a change: the line changed (its quantity or size), or the product added or swapped in.
    const changed = request.lastLine && sameLine(lines, request.lastLine);
    if (changed) return { line: changed };
    const hint = request.lastProduct?.name ?? (request.thisRef ? plan.context.page?.title : undefined);
    const byHint = hint ? [...lines].sort((a, b) => overlap(hint, b.title) - overlap(hint, a.title))[0] : undefined;
    if (byHint && hint && overlap(hint, byHint.title) >= 0.5) return { line: byHint };
    return lines.length === 1 ? { line: lines[0]! } : { options: lines };
  }
  const scored = lines.map((line) => {
    const g = garmentsOf(line.title);
    let score = 0;
    if (ref.families.some((f) => g.families.has(f))) score += 3;
    else if (ref.slot && g.slots.has(ref.slot)) score += 2;
    if (ref.colour && findColours(`${line.title} ${line.variant ?? ''}`).some((c) => c.family === ref.colour)) score += 1.5;
    const title = new Set(words(line.title));
    score += refWords.filter((w) => title.has(w)).length;
    return { line, score };
  });
  const best = Math.max(...scored.map((s) => s.score));
  if (best <= 0) return { options: lines };
  const top = scored.filter((s) => s.score === best).map((s) => s.line);
  return top.length === 1 ? { line: top[0]! } : { options: top };
}

function resize(plan: Plan, request: CartRequest, line: CartLineBrief): StylistStep {
  const current = lineSize(line.variant);
  const found = productOf(plan, line.title);
  let size = request.size;
  // A size named outright goes to the tool as written (it checks stock); a step needs the product's sizes.
  if (size && !request.step && !found.asked) return act(plan, call('swap_cart_item', { lineKey: line.key, size: size.slice(0, 40) }), `Done — the ${line.title} is now in size ${size}.`, `change the size of the ${line.title}`);
  if (!found.asked) return { thinking: `Finding the sizes of the ${line.title}`, toolCalls: [productLookup(line.title)] };
  // Sizes in the order the product lists them, once each ("Sage / S", "Black / S" are both S).
  const sizes = uniq((found.product?.sizes ?? []).map(sizePart));
  const other = sizes.filter((s) => !current || normalSize(s) !== normalSize(current));
  if (!size && request.step && current) {
    const at = sizes.findIndex((s) => normalSize(s) === normalSize(current));
    const next = at >= 0 ? sizes[at + request.step] : undefined;
    if (next) size = next;
    else if (at >= 0) return reply(`The ${line.title} doesn't come in a size ${request.step > 0 ? 'up' : 'down'} from ${current} right now.`);
  }
  if (size && sizes.length && !sizeOf(sizes, size)) return ask(plan, `The ${line.title} isn't in stock in ${size}. Which size would you like?`, other.map(sizeLabel), `The ${line.title} isn't in stock in size ${size} right now.`);
  if (!size) return ask(plan, `Which size would you like the ${line.title} in?`, other.map(sizeLabel), `Which size would you like the ${line.title} in?`);
  const label = sizePart(sizes.length ? sizeOf(sizes, size)! : size);
  return act(plan, call('swap_cart_item', { lineKey: line.key, size: label.slice(0, 40) }), `Done — the ${line.title} is now in size ${label}.`, `change the size of the ${line.title}`);
}

/** The variant label that names a colour of `colour`'s family, when the product's variants are colours. */
const variantOfColour = (labels: string[], colour: string | undefined): string | undefined =>
  colour ? labels.find((label) => findColours(label).some((c) => c.family === colour)) : undefined;

function swap(plan: Plan, request: CartRequest, line: CartLineBrief): StylistStep {
  // What the line is comes from the catalogue when it can: a title is often a name ("MUSE BROWN"), not a garment.
  const found = productOf(plan, line.title);
  if (!found.asked) return { thinking: `Finding the ${line.title} in the catalogue`, toolCalls: [productLookup(line.title)] };
  const lineWish = found.product ? { ...wishFromText(line.title), families: [found.product.family], slot: found.product.slot as Slot } : wishFromText(line.title);
  const target: Wish = request.target ?? { families: [], words: [], occasions: [], exclude: [], similar: false };
  const wish = overlay(lineWish, target, { colour: false, words: false });
  if (!wish.families.length && !wish.slot) return reply(`What would you like instead of the ${line.title}?`);
  const args = lookupArgs({ ...wish, exclude: [] }, 6);
  const step = made(plan, 'lookup_products', args);
  if (!step) return { thinking: `Finding ${args.query ?? 'a replacement'} for the ${line.title}`, toolCalls: [call('lookup_products', args)] };
  const answer = readLookup(step.raw);
  const pick = (answer.ok ? answer.value.products : []).find((p) => p.available && overlap(line.title, p.name) < 1 && isGarmentAsked(wish, p));
  if (!pick) return reply(`I couldn't find ${args.query ?? 'a replacement'} to swap the ${line.title} for. Want me to look for something else?`);
  const size = request.size ?? lineSize(line.variant);
  // A product sold in colours rather than sizes ("in moss"): the variant of the colour asked.
  const label = (size ? sizeOf(pick.sizes, size) : undefined) ?? variantOfColour(pick.sizes, target.colour);
  if (!label && pick.sizes.length > 1) return ask(plan, `Which size of the ${pick.name} would you like?`, pick.sizes.map(sizeLabel), `Which size of the ${pick.name} would you like?`);
  const chosen = label ? sizePart(label) : pick.sizes[0] ? sizePart(pick.sizes[0]) : undefined;
  return act(
    plan,
    call('swap_cart_item', { lineKey: line.key, itemId: pick.itemId, ...(chosen ? { size: chosen.slice(0, 40) } : {}) }),
    `Done — I've swapped the ${line.title} for the ${pick.name}${chosen ? ` in size ${chosen}` : ''} (${money(pick.price, pick.currency)}).`,
    `swap the ${line.title}`,
  );
}

function planAdd(plan: Plan, request: CartRequest): StylistStep {
  const meant = request.product ?? { kind: 'choose' as const, options: [] };
  let product: ProductBrief;
  if (meant.kind === 'shown') product = meant.brief;
  else if (meant.kind === 'page' && plan.context.page) {
    const found = productOf(plan, plan.context.page.title);
    if (!found.asked) return { thinking: 'Finding the product on this page', toolCalls: [productLookup(plan.context.page.title)] };
    if (!found.product) return reply(`I couldn't find the ${plan.context.page.title} in the catalogue, so I can't add it from here.`);
    product = found.product;
  } else if (meant.kind === 'named') {
    const args = lookupArgs({ ...meant.wish, exclude: [] }, 5);
    const step = made(plan, 'lookup_products', args);
    if (!step) return { thinking: `Finding ${args.query ?? 'the product'}`, toolCalls: [call('lookup_products', args)] };
    const answer = readLookup(step.raw);
    const products = answer.ok ? answer.value.products.filter((p) => p.available) : [];
    if (!products.length) return reply(`I couldn't find ${args.query ?? 'that'} in stock to add.`);
    if (products.length > 1 && overlap(request.refText, products[0]!.name) < 0.6) return ask(plan, 'Which one should I add?', products.map((p) => p.name), `Which one should I add: ${products.map((p) => p.name).join(', ')}?`);
    product = products[0]!;
  } else {
    const options = meant.kind === 'choose' ? meant.options : [];
    return ask(plan, 'Which one should I add to your cart?', options.map((p) => p.name), 'Which product would you like me to add? Tell me its name, or open it and ask again.');
  }
  const sizes = product.sizes;
  let size: string | undefined = request.size ? undefined : variantOfColour(sizes, request.ref.colour);
  if (size) {
    // The colour asked names the variant.
  } else if (request.size) {
    size = sizeOf(sizes, request.size) ?? (sizes.length ? undefined : request.size);
    if (!size) return ask(plan, `The ${product.name} isn't in stock in ${request.size}. Which size would you like?`, sizes.map(sizeLabel), `The ${product.name} isn't in stock in size ${request.size} right now.`);
  } else if (sizes.length > 1) return ask(plan, `Which size of the ${product.name} would you like?`, sizes.map(sizeLabel), `Which size of the ${product.name} would you like?`);
  else size = sizes[0];
  if (size) size = sizePart(size);
  const quantity = request.quantity !== undefined ? Math.min(10, Math.max(1, request.quantity)) : undefined;
  const args = { itemId: product.itemId, ...(size ? { size: size.slice(0, 40) } : {}), ...(quantity && quantity > 1 ? { quantity } : {}) };
  return act(
    plan,
    call('add_to_cart', args),
    `Done — I've added the ${product.name}${size ? ` in size ${size}` : ''}${quantity && quantity > 1 ? ` (× ${quantity})` : ''} to your cart.`,
    `add the ${product.name}`,
  );
}
