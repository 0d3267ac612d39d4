// Budgets and sizes as shoppers write them ("under $120", "80 or less", "between 50 and 100",
// "1300 rs", "size 42", "in XL", "EU 42"), and the tokeniser that keeps what they need. Pure.
import { P, price, size, type PhraseSet } from './lexicons.js';
import * as W from './shopper-words.js';

/** Longer input is cut: the API allows 500 characters, and a query past 64 words says nothing more. */
const MAX_CHARACTERS = 2000;
const MAX_WORDS = 64;

// "1300rs", "40dollars", "rs1300", "eu42": a currency or size system written against its number.
const unitWords = [...Object.keys(W.CURRENCY_WORDS), ...Object.keys(W.SIZE_PHRASES.systems)].filter((w) => /^[a-z]+$/.test(w)).sort((a, b) => b.length - a.length);
const UNIT_AFTER_NUMBER = new RegExp(`(\\d)(${unitWords.join('|')})(?![a-z])`, 'g');
const UNIT_BEFORE_NUMBER = new RegExp(`(?<![a-z])(${unitWords.join('|')})(\\d)`, 'g');

/** What budget and size phrasing sets; the first bound or size written wins. */
export interface Amounts {
  size?: string;
  sizeSystem?: string;
  minPrice?: number;
  maxPrice?: number;
  currency?: string;
  onSale?: boolean;
}

/**
 * Lower-case words as the taxonomy writes them, keeping what budgets need: currency symbols,
 * decimals, "1,300" → 1300, "50-100" → 50 to 100, "1300rs" → 1300 rs, "eu42" → eu 42.
 */
export function tokenise(text: string): string[] {
  return text
    .slice(0, MAX_CHARACTERS)
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/['’`´]/g, '')
    .replace(/&/g, ' and ')
    .replace(/(\d),(?=\d{3}(?!\d))/g, '$1')
    .replace(/(\d)\s*[-–—]\s*(?=[$€£₹¥]?\s*\d)/g, '$1 to ')
    .replace(/([$€£₹¥<>%])/g, ' $1 ')
    .replace(UNIT_AFTER_NUMBER, '$1 $2')
    .replace(UNIT_BEFORE_NUMBER, '$1 $2')
    .replace(/(?<!\d)\.|\.(?!\d)/g, ' ')
    .replace(/[^a-z0-9.$€£₹¥<>%]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean)
    .slice(0, MAX_WORDS);
}

/** Length of the longest phrase of `from` starting at word `i`, over words not yet consumed; 0 when none. */
export function phraseAt(tokens: string[], consumed: boolean[], i: number, from: PhraseSet): number {
  if (consumed[i] || !from.first.has(tokens[i] ?? '')) return 0;
  let free = 1;
  while (free < from.longest && i + free < tokens.length && !consumed[i + free]) free++;
  for (let length = free; length >= 1; length--) {
    if (from.phrases.has(length === 1 ? tokens[i]! : tokens.slice(i, i + length).join(' '))) return length;
  }
  return 0;
}

interface Money {
  value: number;
  currency: string | null | undefined;
  /** A currency word or symbol was written with the number. */
  explicit: boolean;
  end: number;
}

const NUMBER = /^(\d+(?:\.\d+)?)(k)?$/;

function readMoney(tokens: string[], consumed: boolean[], start: number): Money | null {
  let i = start;
  let currency: string | null | undefined;
  let explicit = false;
  const currencyAt = (at: number) => !consumed[at] && tokens[at] !== undefined && Object.hasOwn(W.CURRENCY_WORDS, tokens[at]!);
  if (currencyAt(i)) [currency, explicit, i] = [W.CURRENCY_WORDS[tokens[i]!], true, i + 1];
  const number = consumed[i] ? null : NUMBER.exec(tokens[i] ?? '');
  if (!number) return null;
  let value = Number(number[1]) * (number[2] ? 1000 : 1);
  i++;
  const k = phraseAt(tokens, consumed, i, price.thousands);
  if (k && !number[2]) [value, i] = [value * 1000, i + k];
  if (!explicit && currencyAt(i)) [currency, explicit, i] = [W.CURRENCY_WORDS[tokens[i]!], true, i + 1];
  return { value, currency, explicit, end: i };
}

// A size system written after the number ("42 eu"); see shopper-words for which.
const AFTER_NUMBER_SYSTEMS = new Set<string>(W.SIZE_PHRASES.systemsAfterNumber);
const SIZE_NUMBER = /^(\d{1,2}(?:\.5)?|\d{2}x\d{2})$/;

/** Budgets ("under $120", "80 or less", "between 50 and 100", "over 200"), sizes ("size 42", "in XL", "EU 42") and "30% off". */
export function readPricesAndSizes(tokens: string[], consumed: boolean[], draft: Amounts): void {
  const take = (from: number, to: number) => consumed.fill(true, from, to);
  const money = (m: Money) => {
    if (m.currency && !draft.currency) draft.currency = m.currency;
  };
  /** Records the bound (the first one written wins) and returns where the money ends. */
  const bound = (which: 'minPrice' | 'maxPrice', m: Money): number => {
    if (draft[which] === undefined) draft[which] = m.value;
    money(m);
    return m.end;
  };
  for (let i = 0; i < tokens.length; ) {
    if (consumed[i]) {
      i++;
      continue;
    }
    const end = readPrice(i) || readSize(i) || readPercentOff(i);
    if (end) {
      take(i, end);
      i = end;
    } else i++;
  }

  function readPrice(i: number): number {
    const between = phraseAt(tokens, consumed, i, price.between);
    const range = between ? readRange(i + between, false) : 0;
    if (range) return range;
    const atMost = phraseAt(tokens, consumed, i, price.atMostBefore);
    const upTo = atMost ? readMoney(tokens, consumed, i + atMost) : null;
    if (upTo) return bound('maxPrice', upTo);
    const atLeast = phraseAt(tokens, consumed, i, price.atLeastBefore);
    const from = atLeast ? readMoney(tokens, consumed, i + atLeast) : null;
    if (from) return bound('minPrice', from);
    const around = phraseAt(tokens, consumed, i, price.around);
    const near = around ? readMoney(tokens, consumed, i + around) : null;
    if (near) {
      draft.minPrice ??= round(near.value * (1 - P.aroundShare));
      draft.maxPrice ??= round(near.value * (1 + P.aroundShare));
      money(near);
      return near.end;
    }
    const m = readMoney(tokens, consumed, i);
    if (!m) return 0;
    const orLess = phraseAt(tokens, consumed, m.end, price.atMostAfter);
    if (orLess) return bound('maxPrice', m) + orLess;
    const orMore = phraseAt(tokens, consumed, m.end, price.atLeastAfter);
    if (orMore) return bound('minPrice', m) + orMore;
    const span = readRange(i, true);
    if (span) return span;
    // A number with a currency and no bound word is a budget ("$50 dress"); a bare number is not a price ("jordan 1").
    return m.explicit ? bound('maxPrice', m) : 0;
  }

  /** "50 and 100", "$50 to $100": with `needCurrency`, one of the two must carry a currency. */
  function readRange(i: number, needCurrency: boolean): number {
    const low = readMoney(tokens, consumed, i);
    const join = low ? phraseAt(tokens, consumed, low.end, price.rangeJoin) : 0;
    const high = low && join ? readMoney(tokens, consumed, low.end + join) : null;
    if (!low || !high || (needCurrency && !low.explicit && !high.explicit)) return 0;
    const [min, max] = low.value <= high.value ? [low, high] : [high, low];
    bound('minPrice', min);
    bound('maxPrice', max);
    return high.end;
  }

  function readSize(i: number): number {
    const system = (at: number) => (consumed[at] ? undefined : W.SIZE_PHRASES.systems[tokens[at] ?? '']);
    const letterAt = (at: number) => phraseAt(tokens, consumed, at, size.letters);
    const found = (value: string, end: number, sys?: string) => {
      if (draft.size === undefined) {
        draft.size = value;
        if (sys) draft.sizeSystem = sys;
      }
      return end;
    };
    const letter = (at: number, length: number) => W.SIZE_PHRASES.letters[tokens.slice(at, at + length).join(' ')]!;
    const numberAt = (at: number) => !consumed[at] && SIZE_NUMBER.test(tokens[at] ?? '');

    const lead = phraseAt(tokens, consumed, i, size.lead);
    if (lead) {
      let at = i + lead;
      const sys = system(at);
      if (sys) at++;
      const letters = letterAt(at);
      if (letters) return found(letter(at, letters), at + letters, sys);
      if (numberAt(at) && (sys || phraseAt(tokens, consumed, i, size.numberLead) === lead)) {
        const after = sys ? undefined : system(at + 1);
        return found(tokens[at]!, at + 1 + (after ? 1 : 0), sys ?? after);
      }
    }
    const sys = system(i);
    if (sys && numberAt(i + 1)) return found(tokens[i + 1]!, i + 2, sys);
    const standalone = phraseAt(tokens, consumed, i, size.standalone);
    if (standalone) return found(letter(i, standalone), i + standalone);
    if (numberAt(i) && AFTER_NUMBER_SYSTEMS.has(tokens[i + 1] ?? '')) return found(tokens[i]!, i + 2, system(i + 1));
    return 0;
  }

  function readPercentOff(i: number): number {
    if (!/^\d+(\.\d+)?$/.test(tokens[i] ?? '') || tokens[i + 1] !== '%') return 0;
    draft.onSale = true;
    return i + 2 + (tokens[i + 2] === 'off' ? 1 : 0);
  }
}

const round = (n: number) => Math.round(n * 100) / 100;
