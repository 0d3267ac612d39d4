// A leg's best docs in one dataset without walking every match: Fagin's threshold algorithm over
// postings kept in walk order (DatasetMemory.inWalkOrder / inIdOrder). Each of the query's
// words (or label tests) is a stream of its docs, best first; the streams are read a step each in
// turn, every new doc is scored exactly from its own terms or labels, and the walk stops once the
// k-th best so far is ahead of anything an unread doc could still score (the sum of the streams'
// heads). "dress" at 100,000 items matches tens of thousands of docs; its best 120 are found after
// a few hundred.
//
// The keys are the ones ranking reads and the full walk gave (test/projections/search-memory-best.test.ts
// holds the two equal): for words, how many of them a doc has times `cover`, plus each word's weight
// in the doc (of the first of the word's lexemes it has); for tests, the summed weight of those met.
// Ties go to the smaller item id, as the read model orders them.
import { byItemId, keyWeight, termsInOrder, type AttributeTest, type DatasetMemory, type MemoryDoc, type Postings, type Verdicts, type WordLexemes } from './dataset.js';

/** A leg's best docs in one dataset and their keys, in no particular order. */
export interface Best {
  docs: MemoryDoc[];
  keys: number[];
}

/** Up to this many of the query's words count (a bit each in the coverage), as before. */
const MAX_WORDS = 32;

/**
 * When the lists are read whole instead. The threshold walk scores each doc it reads from the doc's
 * own terms or labels, about five times what adding up one posting costs (a micro-benchmark of
 * 14,000 docs, 2026-11-27): it pays on long lists whose best come early, as a common word's do,
 * and not where two common words must both be read deep to find the docs holding both, or where a
 * filter refuses most of what it reads. So lists of fewer than `wholeBelow` entries in all are read
 * whole, as are more than `maxStreams` streams, and a walk that has read more than `giveUpAfter` of
 * the entries (besides the rare streams it read first) stops and reads them whole. In the search
 * bench's query mix at 100,000 items a search read 13,400 postings whole and scored 570 docs
 * before the rare-first order and `maxStreams`, 11,700 and 600 after: 14,700 posting-equivalents
 * against 16,300 (docs/performance.md).
 */
export interface WalkPlan {
  wholeBelow: number;
  giveUpAfter: number;
  /**
   * A stream (a word's or a test's lists) holding at most this share of the entries is read to its
   * end before the others, and its length is added to the budget: "linen shirt" reads the few
   * linen docs first, then shirts best first until no shirt left unread can pass the k-th best.
   * Read in turn instead, the shirts' stream went as deep as linen's before linen ran out, and
   * most such walks gave up.
   */
  rareShare: number;
  /**
   * More streams than this are read whole: the walk stops only once the k-th best is ahead of the
   * sum of every stream's head, which the boost leg's dozen occasion words never let it.
   */
  maxStreams: number;
}

export const WALK_PLAN: WalkPlan = { wholeBelow: 2000, giveUpAfter: 0.05, rareShare: 0.2, maxStreams: 4 };

/** The shopper's words as lexeme ids, and what each doc holds of them, read from the doc's own terms. */
export class WordQuery {
  readonly words: readonly WordLexemes[];

  constructor(words: readonly WordLexemes[]) {
    this.words = words.slice(0, MAX_WORDS);
  }

  /** Summed weight of the words the doc has (each by the first of its lexemes the doc has), how many it has, and which (bit w for word w). */
  measure(doc: MemoryDoc): { rank: number; covered: number; which: number } {
    this.read(doc);
    return { rank: this.rank, covered: this.covered, which: this.which };
  }

  /** Each word's weight in the doc (of the first of its lexemes the doc has; 0 without), into `into`, which is returned. */
  weights(doc: MemoryDoc, into: Float64Array = new Float64Array(this.words.length)): Float64Array {
    const terms = termsInOrder(doc);
    for (let w = 0; w < this.words.length; w++) into[w] = Math.max(0, wordWeight(terms, doc.weights, this.words[w]!));
    return into;
  }

  /**
   * How rare each word is among the docs of `memories` (inverse document frequency, ln(1 + N / df),
   * a word no doc has counted as one a single doc has): a shared word ("top", "dress") says less
   * of what the shopper wants than a rare one ("waffle").
   */
  rarity(memories: readonly DatasetMemory[]): number[] {
    const docs = memories.reduce((sum, memory) => sum + memory.docs.size, 0);
    return this.words.map((lexemes) => {
      let found = 0;
      for (const memory of memories) for (const lexeme of lexemes) found += memory.docFrequency(lexeme);
      return Math.log(1 + Math.max(docs, 1) / Math.max(found, 1));
    });
  }

  /** `cover` for each of the words the doc has, plus their summed weight: the key the text leg ranks by. */
  key(doc: MemoryDoc, cover: number): number {
    this.read(doc);
    return this.covered * cover + this.rank;
  }

  /** What `read` found in the doc last read: kept here, not returned, so the walk's hot path allocates nothing. */
  private rank = 0;
  private covered = 0;
  private which = 0;

  private read(doc: MemoryDoc): void {
    let rank = 0;
    let covered = 0;
    let which = 0;
    const { words } = this;
    if (words.length) {
      const terms = termsInOrder(doc);
      const { weights } = doc;
      // Summed in the words' order, as the bound is: equal sums are equal floats.
      for (let w = 0; w < words.length; w++) {
        const weight = wordWeight(terms, weights, words[w]!);
        if (weight < 0) continue;
        covered++;
        which |= 1 << w;
        rank += weight;
      }
    }
    this.rank = rank;
    this.covered = covered;
    this.which = which;
  }
}

/** A word's weight in a doc: that of the first of its lexemes the doc's terms hold, or -1 when they hold none. */
function wordWeight(terms: Uint32Array, weights: ArrayLike<number>, lexemes: WordLexemes): number {
  for (let l = 0; l < lexemes.length; l++) {
    const at = indexOf(terms, lexemes[l]!);
    if (at >= 0) return weights[at]!;
  }
  return -1;
}

/** Where `value` is in the ascending `sorted`, or -1. */
function indexOf(sorted: Uint32Array, value: number): number {
  let [low, high] = [0, sorted.length - 1];
  while (low <= high) {
    const mid = (low + high) >> 1;
    const at = sorted[mid]!;
    if (at < value) low = mid + 1;
    else if (at > value) high = mid - 1;
    else return mid;
  }
  return -1;
}

/**
 * The best `k` current docs passing `verdicts` that hold any of the words, by `covered * cover + rank`
 * (more than `k` when the lists are read whole: the caller keeps the best).
 */
export function bestByWords(memory: DatasetMemory, query: WordQuery, cover: number, verdicts: Verdicts, k: number, plan = WALK_PLAN): Best {
  const lists = query.words.map((lexemes) => lexemes.flatMap((lexeme) => memory.postings.get(lexeme) ?? []));
  const total = lists.reduce((sum, postings) => postings.reduce((n, list) => n + list.length, sum), 0);
  // Nothing to read (a query without boost words, a word no doc has): nothing allocated either.
  if (total === 0) return { docs: [], keys: [] };
  if (total < plan.wholeBelow || lists.length > plan.maxStreams) return wholeByWords(memory, lists, cover, verdicts, k);
  const streams = lists.map((postings) =>
    new Stream(
      postings.map((list) => {
        const { slots, weights, length } = memory.inWalkOrder(list);
        return { slots, docs: null, length, weights, weight: 0 };
      }),
      memory.holders,
    ),
  );
  const walked = thresholdWalk(memory, streams, cover, k, verdicts, total, plan, (doc) => query.key(doc, cover));
  return walked ?? wholeByWords(memory, lists, cover, verdicts, k);
}

/**
 * The current docs listed under any of `labelKeys` that pass `verdicts` and hold any of the
 * words, keyed by the words' summed weight. For the near families' traits (search's `traits`
 * leg). A word's postings are read, each entry's labels tested on the columns, unless they are
 * more than POSTINGS_PER_LABELLED times the labelled docs: then each labelled doc's own terms are
 * read instead. A family's own name ("jacket") is a trait of it for its near families, and its
 * postings may be mostly the family's own docs, which the leg would read only to refuse.
 */
/**
 * A posting costs a few reads of typed arrays; a labelled doc's terms a read of its object and a
 * search in its terms. Counted on the search bench's trait queries at 100,000 items ("red
 * jacket", "joggers", "hoodie"), the traits leg took 0.9 to 1.2 ms a search reading postings only
 * up to the labelled docs' number, 0.46 at four times, 0.21 to 0.30 at eight, and no less at 16 or
 * more (docs/performance.md).
 */
const POSTINGS_PER_LABELLED = 8;

export function labelledWithWords(memory: DatasetMemory, labelKeys: readonly string[], query: WordQuery, verdicts: Verdicts, k = Infinity, postingsPerLabelled = POSTINGS_PER_LABELLED): Best {
  const { words } = query;
  const labelled = labelKeys.map((key) => memory.attributes.get(key) ?? []);
  const labelledCount = entries(labelled);
  if (!words.length || !labelledCount) return { docs: [], keys: [] };
  const isLabelled = memory.labelledTest(labelKeys);
  const { bySlot } = memory;
  const tally = WordTally.take(bySlot.length);
  // Word by word, so each doc's weights add up in the words' order, as WordQuery.key adds them.
  for (let w = 0; w < words.length; w++) {
    const bit = 1 << w;
    const lists = words[w]!.flatMap((lexeme) => memory.postings.get(lexeme) ?? []);
    if (lists.reduce((sum, list) => sum + list.length, 0) <= labelledCount * postingsPerLabelled) {
      // Its postings, kept to the labelled docs. Its lexemes in order, so the first of them a doc
      // holds is the one that counts.
      for (const { slots, weights, length } of lists) {
        for (let i = 0; i < length; i++) {
          const slot = slots[i]!;
          // Compared with null, not tested for truth: that would read the doc's object.
          if (bySlot[slot] !== null && !tally.has(slot, bit) && isLabelled(slot)) tally.add(slot, bit, weights[i]!);
        }
      }
    } else {
      // A word far more common than the labelled docs: each labelled doc's own terms.
      for (const key of labelKeys) {
        for (const slot of memory.labelSlots(key)) {
          const doc = bySlot[slot];
          if (doc === null || tally.has(slot, bit)) continue;
          const weight = wordWeight(termsInOrder(doc!), doc!.weights, words[w]!);
          if (weight >= 0) tally.add(slot, bit, weight);
        }
      }
    }
  }
  // The docs that earned something and pass, moved to the front of the slots met, each slot
  // cleared as it is read: the tally is given back clear without a second pass.
  const { met, found, rank, keys } = tally;
  let accepted = 0;
  for (let i = 0; i < tally.count; i++) {
    const slot = met[i]!;
    const earned = rank[slot]!;
    found[slot] = 0;
    rank[slot] = 0;
    if (earned > 0 && verdicts.acceptsSlot(slot)) {
      met[accepted] = slot;
      keys[accepted++] = earned;
    }
  }
  const best = keepBestSlots(memory, met, keys, accepted, k);
  tally.giveBack();
  return best;
}

/** The best `k` current docs passing `verdicts` that meet any of the tests, by the summed weight of those met (or more, as above). */
export function bestByAttributes(memory: DatasetMemory, tests: readonly AttributeTest[], verdicts: Verdicts, k: number, plan = WALK_PLAN): Best {
  const lists = tests.map(({ keys }) => keys.map((key) => memory.attributes.get(key) ?? []));
  const total = entries(lists.flat());
  if (total === 0) return { docs: [], keys: [] };
  if (total < plan.wholeBelow || lists.length > plan.maxStreams) return wholeByAttributes(memory, tests, verdicts, k);
  const streams = lists.map(
    (labelled, t) =>
      new Stream(
        labelled.map((docs, i) => ({ slots: null, docs: memory.inIdOrder(docs), length: docs.length, weights: null, weight: keyWeight(tests[t]!, i) })),
        memory.holders,
      ),
  );
  // Each key as a test of a slot, made once: a walk scores hundreds of docs.
  const labelled = tests.map((test) => test.keys.map((key) => memory.labelledTest([key])));
  const walked = thresholdWalk(memory, streams, 0, k, verdicts, total, plan, (doc) => {
    let key = 0;
    for (let t = 0; t < tests.length; t++) {
      let earned = 0;
      for (let i = 0; i < labelled[t]!.length; i++) if (labelled[t]![i]!(doc.slot)) earned = Math.max(earned, keyWeight(tests[t]!, i));
      key += earned;
    }
    return key;
  });
  return walked ?? wholeByAttributes(memory, tests, verdicts, k);
}

const entries = (lists: ReadonlyArray<readonly MemoryDoc[]>): number => lists.reduce((sum, list) => sum + list.length, 0);

/**
 * Every posting of every word read, each doc's words summed as they come (the first of a word's
 * lexemes it has counts): slots and weights only, a doc's object read the first time its slot is
 * judged. The `k` best (and any tied with the k-th) are returned.
 */
function wholeByWords(memory: DatasetMemory, lists: ReadonlyArray<readonly Postings[]>, cover: number, verdicts: Verdicts, k: number): Best {
  const tally = WordTally.take(memory.bySlot.length);
  for (let w = 0; w < lists.length; w++) {
    const bit = 1 << w;
    for (const { slots, weights, length } of lists[w]!) {
      for (let i = 0; i < length; i++) {
        const slot = slots[i]!;
        if (!tally.has(slot, bit) && verdicts.acceptsSlot(slot)) tally.add(slot, bit, weights[i]!);
      }
    }
  }
  const { met, found, rank, keys, count } = tally;
  for (let i = 0; i < count; i++) keys[i] = popcount(found[met[i]!]!) * cover + rank[met[i]!]!;
  const best = keepBestSlots(memory, met, keys, count, k);
  tally.clear();
  return best;
}

/**
 * Per slot, which of a query's words or tests (bits) were met and their weights summed; the slots
 * met, in the order met (the first `count` of `met`); and room for the caller's key of each
 * (`keys`). Taken with `WordTally.take` and given back clear (`clear`, or `giveBack` by a caller
 * that cleared what it read): 24 bytes a slot of the dataset, and made new for every leg of every
 * search such arrays were 3% of a search's CPU at 100,000 items, most of it zero-filling half a
 * megabyte, and a part of the 6% spent collecting garbage, as were the lists of slots met, grown
 * by doubling (docs/performance.md). One is kept between searches, as long as the largest dataset
 * searched, and cleared slot by slot where it was written. Legs are synchronous, so a second is
 * taken only if one is not given back (an exception): it is then made new.
 */
class WordTally {
  readonly found: Uint32Array;
  readonly rank: Float64Array;
  readonly met: Uint32Array;
  readonly keys: Float64Array;
  count = 0;
  private static spare: WordTally | null = null;

  private constructor(slots: number) {
    this.found = new Uint32Array(slots);
    this.rank = new Float64Array(slots);
    this.met = new Uint32Array(slots);
    this.keys = new Float64Array(slots);
  }

  /** A tally of `slots` slots, all unmet. */
  static take(slots: number): WordTally {
    const spare = WordTally.spare;
    WordTally.spare = null;
    if (spare && spare.found.length >= slots) return spare;
    return new WordTally(Math.max(slots, spare?.found.length ?? 0));
  }

  /** Clears the slots met and gives it back; none of it is to be read after. */
  clear(): void {
    const { found, rank, met } = this;
    for (let i = 0; i < this.count; i++) {
      found[met[i]!] = 0;
      rank[met[i]!] = 0;
    }
    this.giveBack();
  }

  /** Gives it back, its slots already cleared by the caller. */
  giveBack(): void {
    this.count = 0;
    WordTally.spare = this;
  }

  has(slot: number, bit: number): boolean {
    return (this.found[slot]! & bit) !== 0;
  }
  add(slot: number, bit: number, weight: number): void {
    const had = this.found[slot]!;
    if (had === 0) this.met[this.count++] = slot;
    this.found[slot] = had | bit;
    this.rank[slot]! += weight;
  }
}

/**
 * The `k` best of the first `n` slots by `keys` (same order), as their docs, and every one tied
 * with the k-th: a leg's gathering keeps its best of all datasets from these, so a dataset need
 * hand on no more.
 */
function keepBestSlots(memory: DatasetMemory, slots: ArrayLike<number>, keys: Float64Array, n: number, k: number): Best {
  const threshold = n > k ? kthLargest(keys, n, k) : -Infinity;
  const best: Best = { docs: [], keys: [] };
  for (let i = 0; i < n; i++) {
    if (keys[i]! < threshold) continue;
    best.docs.push(memory.bySlot[slots[i]!]!);
    best.keys.push(keys[i]!);
  }
  return best;
}

/** The `k`-th largest of the first `n` of `values` (k ≥ 1), in one pass through a min-heap of the k largest seen. */
export function kthLargest(values: Float64Array, n: number, k: number): number {
  const heap = new Float64Array(k);
  let size = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    if (size < k) {
      let at = size++;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (heap[parent]! <= v) break;
        heap[at] = heap[parent]!;
        at = parent;
      }
      heap[at] = v;
    } else if (v > heap[0]!) {
      let at = 0;
      for (;;) {
        const left = 2 * at + 1;
        if (left >= k) break;
        const right = left + 1;
        const child = right < k && heap[right]! < heap[left]! ? right : left;
        if (heap[child]! >= v) break;
        heap[at] = heap[child]!;
        at = child;
      }
      heap[at] = v;
    }
  }
  return heap[0]!;
}

/** Every doc of every test's lists read, each test counted once a doc, judged by slot on the columns. */
function wholeByAttributes(memory: DatasetMemory, tests: readonly AttributeTest[], verdicts: Verdicts, k: number): Best {
  // A test's bit for each doc that meets it, and the weights earned summed: as the words' whole read tallies them.
  const tally = WordTally.take(memory.bySlot.length);
  tests.forEach((test, t) => {
    const bit = 1 << t;
    // The keys that earn most first: a doc meeting several earns the first it meets.
    const order = test.keys.map((_, i) => i).sort((a, b) => keyWeight(test, b) - keyWeight(test, a));
    for (const i of order) {
      const weight = keyWeight(test, i);
      for (const slot of memory.labelSlots(test.keys[i]!)) if (!tally.has(slot, bit) && verdicts.acceptsSlot(slot)) tally.add(slot, bit, weight);
    }
  });
  const { met, rank, keys, count } = tally;
  for (let i = 0; i < count; i++) keys[i] = rank[met[i]!]!;
  const best = keepBestSlots(memory, met, keys, count, k);
  tally.clear();
  return best;
}

function popcount(n: number): number {
  let count = 0;
  for (let v = n; v; v &= v - 1) count++;
  return count;
}

/** One sorted list: a postings list's slots (their holders' docs) or a label list's docs; each entry's score (`weights`), or one score for all (`weight`). */
interface WalkList {
  slots: Uint32Array | null;
  docs: readonly MemoryDoc[] | null;
  length: number;
  weights: Float32Array | null;
  weight: number;
}

/** Several lists read as one, in walk order: the higher score first, then the smaller item id. */
class Stream {
  private readonly at: number[];
  /** The head: the next entry to read (null once every list is read) and its score. */
  doc: MemoryDoc | null = null;
  score = 0;
  private from = -1;
  /** Entries in all its lists. */
  readonly length: number;
  /** Read to its end before the other streams (WalkPlan.rareShare). */
  first = false;

  private readonly lists: readonly WalkList[];
  private readonly holders: ReadonlyArray<MemoryDoc | null>;
  constructor(lists: readonly WalkList[], holders: ReadonlyArray<MemoryDoc | null>) {
    this.lists = lists;
    this.holders = holders;
    this.at = lists.map(() => 0);
    this.length = lists.reduce((sum, list) => sum + list.length, 0);
    this.pick();
  }

  next(): MemoryDoc | null {
    const doc = this.doc;
    if (doc) {
      this.at[this.from]!++;
      this.pick();
    }
    return doc;
  }

  private pick(): void {
    let from = -1;
    let doc: MemoryDoc | null = null;
    let score = 0;
    for (let l = 0; l < this.lists.length; l++) {
      const list = this.lists[l]!;
      const i = this.at[l]!;
      if (i >= list.length) continue;
      const s = list.weights ? list.weights[i]! : list.weight;
      // A posting's holder, current or not (an old version's entry is skipped when read).
      const d = list.slots ? this.holders[list.slots[i]!]! : list.docs![i]!;
      if (!doc || s > score || (s === score && byItemId(d, doc) < 0)) {
        from = l;
        doc = d;
        score = s;
      }
    }
    this.from = from;
    this.doc = doc;
    this.score = score;
  }
}

/**
 * Reads the rare streams (plan.rareShare of the `total` entries or fewer) to their end, then the
 * streams a step each in turn; scores each current doc passing `verdicts` once by `keyOf` and keeps
 * the best `k`; stops when no unread doc can be ahead of the k-th best: its key is at most `cover`
 * and the head's score for each stream not read to its end (summed as `keyOf` sums), and at that
 * bound its id comes after every such head's, whatever order the streams were read in. Null once
 * it has read more than `plan.giveUpAfter` of the entries besides the rare streams'.
 */
function thresholdWalk(memory: DatasetMemory, streams: readonly Stream[], cover: number, k: number, verdicts: Verdicts, total: number, plan: WalkPlan, keyOf: (doc: MemoryDoc) => number): Best | null {
  const best = new BestHeap(k);
  if (!streams.length || k <= 0) return best.result();
  let budget = total * plan.giveUpAfter;
  let rareLeft = 0;
  for (const stream of streams) {
    stream.first = stream.doc !== null && stream.length <= total * plan.rareShare && streams.length > 1;
    if (stream.first) {
      budget += stream.length;
      rareLeft++;
    }
  }
  const seen = new Uint8Array(memory.bySlot.length);
  for (let reads = 0; ; ) {
    if (reads > budget) return null;
    if (best.full) {
      let covered = 0;
      let rank = 0;
      let last: MemoryDoc | null = null;
      for (const stream of streams) {
        if (!stream.doc) continue;
        covered++;
        rank += stream.score;
        if (!last || byItemId(stream.doc, last) > 0) last = stream.doc;
      }
      if (!last) break;
      const bound = covered * cover + rank;
      if (best.worstKey > bound || (best.worstKey === bound && byItemId(best.worstDoc!, last) < 0)) break;
    }
    let read = false;
    for (const stream of streams) {
      if (rareLeft && !stream.first) continue;
      const doc = stream.next();
      if (!doc) continue;
      read = true;
      reads++;
      if (stream.first && !stream.doc) rareLeft--;
      // An entry of an old version is skipped; the slot is marked by the current doc only.
      if (seen[doc.slot] || !memory.isCurrent(doc)) continue;
      seen[doc.slot] = 1;
      if (verdicts.accepts(doc)) best.offer(doc, keyOf(doc));
    }
    if (!read) break;
  }
  return best.result();
}

/** The best `k` offered so far, the worst of them at the root (a binary heap). */
class BestHeap {
  private readonly docs: MemoryDoc[] = [];
  private readonly keys: number[] = [];
  private readonly k: number;
  constructor(k: number) {
    this.k = k;
  }

  get full(): boolean {
    return this.docs.length >= this.k;
  }
  get worstKey(): number {
    return this.keys[0]!;
  }
  get worstDoc(): MemoryDoc | undefined {
    return this.docs[0];
  }

  /** Whether entry i is behind entry j. */
  private behind(i: number, j: number): boolean {
    const a = this.keys[i]!;
    const b = this.keys[j]!;
    return a < b || (a === b && byItemId(this.docs[i]!, this.docs[j]!) > 0);
  }

  offer(doc: MemoryDoc, key: number): void {
    const { docs, keys } = this;
    if (docs.length < this.k) {
      docs.push(doc);
      keys.push(key);
      let at = docs.length - 1;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (!this.behind(at, parent)) break;
        this.swap(at, parent);
        at = parent;
      }
      return;
    }
    // Not ahead of the worst kept: left out.
    if (key < keys[0]! || (key === keys[0]! && byItemId(doc, docs[0]!) > 0)) return;
    docs[0] = doc;
    keys[0] = key;
    let at = 0;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= docs.length) break;
      const right = left + 1;
      const child = right < docs.length && this.behind(right, left) ? right : left;
      if (!this.behind(child, at)) break;
      this.swap(at, child);
      at = child;
    }
  }

  private swap(i: number, j: number): void {
    const { docs, keys } = this;
    [docs[i], docs[j]] = [docs[j]!, docs[i]!];
    [keys[i], keys[j]] = [keys[j]!, keys[i]!];
  }

  result(): Best {
    return { docs: this.docs, keys: this.keys };
  }
}
