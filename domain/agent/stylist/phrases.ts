// The stylist's reading of a chat message's intent words (shopper-words.ts, "The stylist agent's
// words"): which cues it carries and where, the number and the ordinal it names, and the rest of
// the words, for query understanding to read what the shopper wants. Pure.
import { PhraseMatcher } from '../../catalogue/taxonomy/index.js';
import { memoised } from './memo.js';
import { tokenise } from '../../search/amounts.js';
import {
  AGENT_ALONE,
  AGENT_PHRASES,
  AGENT_SKIP_AT_START,
  BRANDS,
  FILLER_WORDS,
  ORDINAL_LEADS,
  ORDINAL_WORDS,
  POLICY_PHRASES,
  QUANTITY_WORDS,
  SIMILAR_PHRASES,
  SIZE_PHRASES,
  type AgentCue,
} from '../../search/shopper-words.js';

export type PolicyTopic = keyof typeof POLICY_PHRASES;

// "like this" stays for query understanding to read (it asks for products like the page's), and
// points at "this" like the agent's own words do. A brand stays whole ("new balance" is no "new").
type Mark = { cue: AgentCue } | { policy: PolicyTopic } | { similar: boolean } | { keep: true };

const matcher = new PhraseMatcher<Mark>();
for (const [cue, phrases] of Object.entries(AGENT_PHRASES) as Array<[AgentCue, readonly string[]]>) for (const phrase of phrases) matcher.add(phrase, { cue });
for (const [policy, phrases] of Object.entries(POLICY_PHRASES) as Array<[PolicyTopic, readonly string[]]>) for (const phrase of phrases) matcher.add(phrase, { policy });
for (const phrase of SIMILAR_PHRASES) matcher.add(phrase, { similar: /\b(this|these|that|those|it|mine)\b/.test(phrase) });
for (const phrase of [...BRANDS.footwear, ...BRANDS.apparel]) if (phrase.includes(' ')) matcher.add(phrase, { keep: true });

const KEPT_FOR_SEARCH = new Set<AgentCue>(['cheaper', 'pricier']);

const alone = new Map<string, AgentCue>();
for (const [cue, phrases] of Object.entries(AGENT_ALONE) as Array<[AgentCue, readonly string[]]>) for (const phrase of phrases) alone.set(phrase, cue);
const filler = new Set(FILLER_WORDS.filter((w) => !w.includes(' ')));
const ordinalLeads = new Set(ORDINAL_LEADS);

export interface Cued {
  cue: AgentCue;
  start: number;
  end: number;
}

export interface Reading {
  /** The message's words, as search tokenises them. */
  tokens: string[];
  cues: Set<AgentCue>;
  /** Where each cue was found, in order. */
  marks: Cued[];
  policy: PolicyTopic | null;
  /** The cue of the whole message when it is only "more", "ok", "no"… */
  alone: AgentCue | null;
  /** Word positions taken by agent phrases. */
  taken: boolean[];
  quantity?: number;
  /** 1-based; -1 for the last. */
  ordinal?: number;
}

/** The reading of a message (shared: a turn reads the same messages at every step). */
export const readPhrases = memoised((text: string): Reading => readFresh(text), 200);

function readFresh(text: string): Reading {
  const tokens = tokenise(text);
  const taken = tokens.map(() => false);
  const cues = new Set<AgentCue>();
  const marks: Cued[] = [];
  let policy: PolicyTopic | null = null;
  const opener = AGENT_SKIP_AT_START.map((p) => p.split(' ')).find((p) => p.every((w, i) => tokens[i] === w) && tokens.length > p.length);
  const from = opener?.length ?? 0;
  taken.fill(true, 0, from);
  for (const found of matcher.scan(tokens.slice(from))) {
    const match = { ...found, start: found.start + from, end: found.end + from };
    // Price words stay for search to read too: "cheaper than 50" is a budget.
    if (match.values.some((mark) => !('similar' in mark) && !('keep' in mark) && !('cue' in mark && KEPT_FOR_SEARCH.has(mark.cue)))) taken.fill(true, match.start, match.end);
    for (const mark of match.values) {
      if ('keep' in mark) continue;
      if ('policy' in mark) policy ??= mark.policy;
      else if ('similar' in mark) {
        if (mark.similar) marks.push({ cue: 'this', start: match.start, end: match.end });
        if (mark.similar) cues.add('this');
      } else {
        cues.add(mark.cue);
        marks.push({ cue: mark.cue, start: match.start, end: match.end });
      }
    }
  }
  const core = tokens.filter((word, i) => !(taken[i] && marks.some((m) => m.cue === 'skip' && i >= m.start && i < m.end)) && !filler.has(word) && /[a-z0-9]/.test(word));
  const wholeCue = alone.get(core.join(' ')) ?? (core.length === 0 ? alone.get(tokens.join(' ')) : undefined) ?? null;
  // "nah", "more": the whole message is the cue, nothing is left to search for.
  if (wholeCue) taken.fill(true);
  const reading: Reading = { tokens, cues, marks, policy, alone: wholeCue, taken };
  const quantity = readQuantity(tokens, marks);
  if (quantity) {
    reading.quantity = quantity.value;
    taken.fill(true, quantity.start, quantity.end);
  }
  const ordinal = readOrdinal(tokens);
  if (ordinal) {
    reading.ordinal = ordinal.value;
    taken.fill(true, ordinal.start, ordinal.end);
  }
  return reading;
}

const near = (marks: Cued[], i: number, cues: AgentCue[]) => marks.some((m) => cues.includes(m.cue) && ((i >= m.end && i <= m.end + 3) || i === m.start - 1 || i === m.start - 2));

/** Words that make the number after them a size ("in size 11", "EU 42", "in 38"), never a quantity. */
const SIZE_LEADS = new Set(['size', 'sz', 'sized', 'in', ...Object.keys(SIZE_PHRASES.systems)]);
/**
 * The words of a size label before its number ("Toddler 7", "Youth 12", "Big Kid 5"), and the units
 * after it ("7 years", "18 months"): the number is the size, never how many ("add this in
 * Toddler 7" is one item in Toddler 7, not seven).
 */
const SIZE_LABEL_WORDS = new Set(['toddler', 'toddlers', 'youth', 'kid', 'kids', 'junior', 'juniors', 'baby', 'babies', 'infant', 'infants', 'little', 'big', 'boys', 'girls', 'grade', 'preschool', 'child', 'childs', 'children', 'childrens']);
const SIZE_UNITS_AFTER = new Set(['y', 'yr', 'yrs', 'year', 'years', 'm', 'mo', 'mos', 'month', 'months', 't']);
const isSizeNumber = (tokens: string[], i: number) =>
  SIZE_LEADS.has(tokens[i - 1] ?? '') || SIZE_LABEL_WORDS.has(tokens[i - 1] ?? '') || SIZE_UNITS_AFTER.has(tokens[i + 1] ?? '');

/** "make it two", "2 of those", "three more": a quantity word anywhere, a number next to a quantity or cart cue. */
function readQuantity(tokens: string[], marks: Cued[]): { value: number; start: number; end: number } | undefined {
  for (let i = 0; i < tokens.length; i++) {
    const pair = i + 1 < tokens.length ? QUANTITY_WORDS[`${tokens[i]} ${tokens[i + 1]}`] : undefined;
    const word = pair ?? (Object.hasOwn(QUANTITY_WORDS, tokens[i]!) ? QUANTITY_WORDS[tokens[i]!] : undefined);
    if (word !== undefined && !(tokens[i] === 'one' && /^(size|more|of)$/.test(tokens[i + 1] ?? ''))) return { value: word, start: i, end: i + (pair !== undefined ? 2 : 1) };
    if (/^\d{1,2}$/.test(tokens[i]!) && Number(tokens[i]) >= 1 && !ordinalLeads.has(tokens[i - 1] ?? '') && !isSizeNumber(tokens, i) && near(marks, i, ['quantity', 'add', 'cart'])) return { value: Number(tokens[i]), start: i, end: i + 1 };
  }
  return undefined;
}

/** "the second one", "number 3", "the last": which card, and the words that said it. */
function readOrdinal(tokens: string[]): { value: number; start: number; end: number } | undefined {
  for (let i = 0; i < tokens.length; i++) {
    const word = tokens[i]!;
    if (Object.hasOwn(ORDINAL_WORDS, word)) return { value: ORDINAL_WORDS[word]!, start: i, end: i + 1 };
    if (ordinalLeads.has(word) && /^\d{1,2}$/.test(tokens[i + 1] ?? '') && Number(tokens[i + 1]) >= 1) return { value: Number(tokens[i + 1]), start: i, end: i + 2 };
  }
  return undefined;
}

/** The words of `from` to `to` not taken by agent phrases, as text for query understanding. */
export function restOf(reading: Reading, from = 0, to = reading.tokens.length): string {
  return reading.tokens
    .slice(from, to)
    .filter((_, i) => !reading.taken[from + i])
    .join(' ');
}

/** The first place a cue was found. */
export const markOf = (reading: Reading, cue: AgentCue): Cued | undefined => reading.marks.find((m) => m.cue === cue);
