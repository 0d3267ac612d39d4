// The conversation as the stylist reads it: turns (a shopper message, then the calls made for it
// and their results), the words a turn really means (a tapped question option means the request it
// answers plus the option), and what earlier turns put on screen, so "cheaper" or "in blue" can
// build on it. The history is client data: every entry is checked before it is read. Pure.
import type { ProductBrief } from '../products.js';
import { parseJson, readLookup, readLooks, readShow } from './outputs.js';
import { readPhrases } from './phrases.js';

export interface Step {
  callId: string;
  name: string;
  args: Record<string, unknown>;
  /** The arguments in a canonical form, to recognise a call already made (this turn's calls only). */
  key: string;
  /** The result's text; undefined until the tool has answered. */
  raw?: string;
}

export interface Turn {
  /** The shopper's words. */
  text: string;
  images: number;
  steps: Step[];
  /** The assistant's texts of the turn. */
  replies: string[];
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** JSON with keys sorted and undefined left out: the same arguments give the same key. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(',')}}`;
  return JSON.stringify(value ?? null) ?? 'null';
}

function userParts(content: unknown): { text: string; images: number } {
  if (typeof content === 'string') return { text: content, images: 0 };
  if (!Array.isArray(content)) return { text: '', images: 0 };
  const texts: string[] = [];
  let images = 0;
  for (const part of content) {
    if (!isObject(part)) continue;
    if (part.type === 'input_text' && typeof part.text === 'string') texts.push(part.text);
    if (part.type === 'input_image') images++;
  }
  return { text: texts.join('\n\n'), images };
}

/** The conversation cut into turns; entries before the first shopper message are ignored. */
export function readTurns(messages: unknown): Turn[] {
  const turns: Turn[] = [];
  const results = new Map<string, string>();
  const entries = Array.isArray(messages) ? messages : [];
  for (const entry of entries) {
    if (isObject(entry) && entry.type === 'function_call_result' && typeof entry.callId === 'string' && isObject(entry.output) && typeof entry.output.text === 'string')
      results.set(entry.callId, entry.output.text);
  }
  for (const entry of entries) {
    if (!isObject(entry)) continue;
    if (entry.role === 'user' && entry.type === undefined) {
      turns.push({ ...userParts(entry.content), steps: [], replies: [] });
      continue;
    }
    const turn = turns.at(-1);
    if (!turn) continue;
    if (entry.type === 'function_call' && typeof entry.callId === 'string' && typeof entry.name === 'string') {
      const parsed = typeof entry.arguments === 'string' ? parseJson(entry.arguments) : undefined;
      const args = isObject(parsed) ? parsed : {};
      const raw = results.get(entry.callId);
      turn.steps.push({ callId: entry.callId, name: entry.name, args, key: '', ...(raw !== undefined ? { raw } : {}) });
    } else if (entry.type === 'message' && Array.isArray(entry.content)) {
      turn.replies.push(entry.content.flatMap((part) => (isObject(part) && typeof part.text === 'string' ? [part.text] : [])).join(''));
    }
  }
  // Only this turn's calls are compared with the calls a step would make.
  for (const step of turns.at(-1)?.steps ?? []) step.key = canonical(step.args);
  return turns;
}

const squash = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();

/** The question a turn asked, if any. */
export function questionOf(turn: Turn | undefined): { question: string; options: string[] } | null {
  const step = turn?.steps.find((s) => s.name === 'ask_question');
  if (!step) return null;
  const options = Array.isArray(step.args.options) ? step.args.options.filter((o): o is string => typeof o === 'string') : [];
  return { question: typeof step.args.question === 'string' ? step.args.question : '', options };
}

/**
 * A message is an answer to the question before it when it is one of the options, or a few words
 * that ask nothing of their own ("a wedding", "M"; not "make it two").
 */
function answers(text: string, options: string[], asksOwn: (text: string) => boolean): boolean {
  const said = squash(text);
  if (!said) return false;
  return options.some((o) => squash(o) === said) || (said.split(' ').length <= 3 && !asksOwn(text));
}

/**
 * What turn `index` asks for, in the order it was said: its own words, or, when it answers the
 * question of the turn before, that turn's request followed by the answer ("I need an outfit",
 * "Date night"). The answer comes last: where it names what the request did too, it wins.
 */
export function requestParts(turns: Turn[], index: number, depth = 0): string[] {
  const turn = turns[index];
  if (!turn) return [];
  const question = depth < 3 ? questionOf(turns[index - 1]) : null;
  if (question && answers(turn.text, question.options, asksOwn)) return [...requestParts(turns, index - 1, depth + 1), turn.text];
  return [turn.text];
}

/** What turn `index` asks for, as one text ("I need an outfit Date night"). */
export const effectiveText = (turns: Turn[], index: number): string => requestParts(turns, index).join(' ').trim();

/** Words that carry a request of their own: a cue of the agent's words other than "this" and filler. */
function asksOwn(text: string): boolean {
  const reading = readPhrases(text);
  return reading.policy !== null || reading.alone !== null || [...reading.cues].some((cue) => cue !== 'this' && cue !== 'skip');
}

/** What an earlier turn put on screen: a list of products (with the search that found them) or looks. */
export type OnScreen =
  | { kind: 'list'; turn: number; args: Record<string, unknown>; shown: ProductBrief[] }
  | { kind: 'look'; turn: number; looks: ProductBrief[][]; text: string };

const MAX_LOOK_BACK = 6;

/** The latest list or looks of the turns before `index`. */
export function lastOnScreen(turns: Turn[], index: number): OnScreen | null {
  for (let i = index - 1; i >= 0 && i >= index - MAX_LOOK_BACK; i--) {
    const turn = turns[i]!;
    const found = new Map<string, ProductBrief>();
    for (const step of turn.steps) {
      if (step.name !== 'lookup_products') continue;
      const result = readLookup(step.raw);
      if (result.ok) for (const p of result.value.products) found.set(p.itemId, p);
    }
    const looks = [...turn.steps].reverse().find((s) => s.name === 'compose_looks');
    if (looks) {
      const answered = readLooks(looks.raw);
      const asked = Array.isArray(looks.args.looks) ? looks.args.looks : [];
      const lists = answered.ok && answered.value.looks.length ? answered.value.looks.map((l) => l.itemIds) : asked.map((l) => (isObject(l) && Array.isArray(l.itemIds) ? l.itemIds : []));
      const items = lists.map((ids) => ids.flatMap((id) => (typeof id === 'string' && found.has(id) ? [found.get(id)!] : []))).filter((l) => l.length);
      if (items.length) return { kind: 'look', turn: i, looks: items, text: effectiveText(turns, i) };
    }
    const show = [...turn.steps].reverse().find((s) => s.name === 'show_products');
    // A search that found nothing (its chips offered instead) is still what "any colour" refines.
    const firstLookup = turn.steps.find((s) => s.name === 'lookup_products');
    if (!show && firstLookup && turn.steps.some((s) => s.name === 'suggest_replies')) return { kind: 'list', turn: i, args: firstLookup.args, shown: [] };
    if (!show) continue;
    const answered = readShow(show.raw);
    const ids = Array.isArray(show.args.itemIds) ? show.args.itemIds.filter((id): id is string => typeof id === 'string') : [];
    const shown = answered.ok && answered.value.shown.length ? answered.value.shown : ids.flatMap((id) => (found.has(id) ? [found.get(id)!] : []));
    if (!shown.length) continue;
    // The search that found what was shown: the last lookup whose results hold the first card.
    const source = [...turn.steps].reverse().find((s) => s.name === 'lookup_products' && readLookup(s.raw).ok && s.raw!.includes(JSON.stringify(shown[0]!.itemId)));
    return { kind: 'list', turn: i, args: source?.args ?? {}, shown };
  }
  return null;
}
