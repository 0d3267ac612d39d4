// Finds known phrases in a list of words: at each position the longest phrase wins and its words
// are consumed, so "t shirt dress" yields `t shirt` then `dress`, never `shirt`. Pure.
import { normalise } from './text.js';

export interface PhraseMatch<T> {
  /** Index of the first word matched, and one past the last. */
  start: number;
  end: number;
  phrase: string;
  values: T[];
}

export class PhraseMatcher<T> {
  private readonly phrases = new Map<string, T[]>();
  private longest = 1;

  add(phrase: string, value: T): this {
    const key = normalise(phrase);
    if (!key) return this;
    const list = this.phrases.get(key) ?? [];
    list.push(value);
    this.phrases.set(key, list);
    this.longest = Math.max(this.longest, key.split(' ').length);
    return this;
  }

  has(phrase: string): boolean {
    return this.phrases.has(phrase);
  }

  get(phrase: string): T[] | undefined {
    return this.phrases.get(normalise(phrase));
  }

  /** Non-overlapping matches, left to right. */
  scan(words: readonly string[]): PhraseMatch<T>[] {
    const found: PhraseMatch<T>[] = [];
    for (let start = 0; start < words.length; ) {
      let matched = 0;
      for (let length = Math.min(this.longest, words.length - start); length >= 1 && !matched; length--) {
        const phrase = length === 1 ? words[start]! : words.slice(start, start + length).join(' ');
        const values = this.phrases.get(phrase);
        if (values) {
          found.push({ start, end: start + length, phrase, values });
          matched = length;
        }
      }
      start += matched || 1;
    }
    return found;
  }
}
