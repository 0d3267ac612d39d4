// One dataset's part of the search memory (projections/search-memory.ts): its active items as
// search ranks them, an inverted index of their lexemes, attribute and name postings, and the HNSW
// graph of their embeddings. Changed by `put` and `remove` only, one item at a time, so a dataset
// can be followed change by change; `restore` places a saved copy's items (snapshot.ts) at once.
import type { ListingVariant } from '../../domain/catalogue/product-input.js';
import type { AnswerBody } from '../../domain/item/record.js';
import { createHnswIndex, type VectorIndex } from '../../infra/vectors/hnsw.js';

/** One active item as search ranks it. */
export interface MemoryDoc {
  itemId: string;
  datasetId: string;
  sourceId: string | null;
  /**
   * Position in its dataset's accumulators and postings, this version's own: a changed item takes a
   * new slot, and a slot is given again only once compaction has dropped every posting of its last
   * holder (so a posting's slot says whose it is).
   */
  slot: number;
  slotName: string;
  family: string;
  gender: string;
  ageGroup: string;
  colorFamily: string;
  colors: string[];
  pattern: string;
  materials: string[];
  fit: string | null;
  featureKeys: string[];
  price: number;
  currency: string;
  /**
   * The stored variants as JSON text, parsed (and frozen) in its place the first time a search
   * prices the doc, so each doc is parsed once, not once a search. A saved copy does not hold them:
   * a restored doc has none until a search first prices it and keeps them (`keep`).
   */
  variants: string | HeldValues['variants'] | null;
  /**
   * The answer body a result shows (domain/item/record.ts `AnswerBody`) as JSON text, likewise
   * parsed in its place once shown; none in a saved copy, kept once a search shows the doc. Null
   * also for a row projected before the read model kept bodies.
   */
  body: string | HeldValues['body'] | null;
  queuedAt: string;
  /** Lexeme ids of its document (ascending when parsed, in the saved order when restored), and each one's weight (A 1.0, B 0.5, C 0.2, D 0.1, plus a little per repeat). */
  terms: Uint32Array;
  weights: Float32Array;
  /**
   * Whether `terms` are ascending, so a search finds a lexeme in them by halving (`termsInOrder`).
   * A restored doc's are put in order the first time a search reads them: sorting every doc of a
   * saved copy would add a third to its load.
   */
  ascending: boolean;
  /** The names it answers to when typed in full (domain/search/names.ts); none for a doc put without. */
  names?: readonly string[];
  /** A checksum of its embedding: an unchanged vector is not put into the graph again. */
  vectorSum: number;
  /** The read model's `change_seq` of this version (0 when not from the read model): a saved copy is checked by it (snapshot.ts). */
  changeSeq: number;
  /**
   * The item id's first 48 bits as a number: ordering by it is ordering by the id (as the read
   * model orders ties) for all but ids sharing those bits, and costs a subtraction, not a string
   * comparison; ties among thousands of equal scores are common.
   */
  idOrder: number;
}

/** What a doc's `variants` and `body` hold once parsed: shared by every search that reads them, so frozen. */
export interface HeldValues {
  variants: readonly ListingVariant[];
  body: AnswerBody;
}

/** What a doc is made of: the rest (slot, vector checksum, id order) the memory works out. */
export type DocFields = Omit<MemoryDoc, 'slot' | 'vectorSum' | 'idOrder' | 'changeSeq' | 'ascending'> & { changeSeq?: number };

/**
 * A saved dataset's items (snapshot.ts) as columns, one entry a doc, with every doc's terms back
 * to back in `terms` (each an index into `lexemes`, the lexicon's ids of the copy's lexemes).
 */
export interface SavedDocs {
  datasetId: string;
  itemId: string[];
  sourceId: Array<string | null>;
  slotName: string[];
  family: string[];
  gender: string[];
  ageGroup: string[];
  colorFamily: string[];
  colors: string[][];
  pattern: string[];
  materials: string[][];
  fit: Array<string | null>;
  featureKeys: string[][];
  price: number[];
  currency: string[];
  queuedAt: string[];
  names: Array<readonly string[] | null>;
  /** null where the doc has no vector. */
  vectorSum: Array<number | null>;
  changeSeq: number[];
  termCount: number[];
  terms: Uint32Array;
  weights: Float32Array;
  lexemes: readonly number[];
}

/** A doc as the memory holds it, every field set in one order (one object shape for all). */
function memoryDoc(doc: DocFields, slot: number, vectorSum: number, inOrder = ascending(doc.terms)): MemoryDoc {
  return {
    itemId: doc.itemId,
    datasetId: doc.datasetId,
    sourceId: doc.sourceId,
    slot,
    slotName: doc.slotName,
    family: doc.family,
    gender: doc.gender,
    ageGroup: doc.ageGroup,
    colorFamily: doc.colorFamily,
    colors: doc.colors,
    pattern: doc.pattern,
    materials: doc.materials,
    fit: doc.fit,
    featureKeys: doc.featureKeys,
    price: doc.price,
    currency: doc.currency,
    variants: doc.variants,
    body: doc.body,
    queuedAt: doc.queuedAt,
    terms: doc.terms,
    weights: doc.weights,
    ascending: inOrder,
    names: doc.names,
    vectorSum,
    changeSeq: doc.changeSeq ?? 0,
    idOrder: idOrderOf(doc.itemId),
  };
}

function ascending(terms: Uint32Array): boolean {
  for (let i = 1; i < terms.length; i++) if (terms[i]! <= terms[i - 1]!) return false;
  return true;
}

/** The doc's terms, ascending (and its weights alike), sorted in place the first time they are asked for. */
export function termsInOrder(doc: MemoryDoc): Uint32Array {
  if (!doc.ascending) {
    const { terms, weights } = doc;
    const order = Array.from(terms.keys()).sort((a, b) => terms[a]! - terms[b]!);
    const [termsBefore, weightsBefore] = [terms.slice(), weights.slice()];
    order.forEach((from, to) => {
      terms[to] = termsBefore[from]!;
      weights[to] = weightsBefore[from]!;
    });
    doc.ascending = true;
  }
  return doc.terms;
}

/** Item ids in their order, as `MemoryDoc.idOrder` allows it cheaply. */
export const byItemId = (a: MemoryDoc, b: MemoryDoc): number => a.idOrder - b.idOrder || (a.itemId < b.itemId ? -1 : a.itemId > b.itemId ? 1 : 0);

const idOrderOf = (itemId: string): number => {
  const order = Number.parseInt(itemId[8] === '-' ? itemId.slice(0, 8) + itemId.slice(9, 13) : itemId.replace(/-/g, '').slice(0, 12), 16);
  return Number.isNaN(order) ? 0 : order;
};

/** The lexeme ids that answer one shopper's word. */
export type WordLexemes = number[];

/** A label test: the doc meets it when it has any of `keys` (`family:dress`, `color:red`…). */
export interface AttributeTest {
  keys: string[];
  weight: number;
  /**
   * What each key earns, when the keys differ (the family named and the families near it): at
   * most `weight`. A doc meeting several keys of a test earns the most of them, once. One test
   * rather than two, so the walk knows a doc cannot earn both.
   */
  keyWeights?: readonly number[];
}

/** What `test`'s key at `index` earns. */
export const keyWeight = (test: AttributeTest, index: number): number => test.keyWeights?.[index] ?? test.weight;

/** The labels a doc has one value of, kept as columns by slot so a filter tests them without reading the doc. */
export const LABEL_FIELDS = ['slotName', 'family', 'colorFamily', 'pattern', 'fit', 'gender', 'ageGroup'] as const;
export type LabelField = (typeof LABEL_FIELDS)[number];

/** A bound on the stored price (projections/queries/search/filter.ts), judged on the price columns without reading the doc. */
export interface PriceTest {
  /** Whether the shopper pays the stored price of a doc from this source; a doc they do not is judged once priced. */
  paysStored(sourceId: string | null): boolean;
  /** Whether a stored price in `currency` is within the bounds. */
  within(price: number, currency: string): boolean;
}

/**
 * A filter on labels (each test: the field is one of `values`), on the stored price (`price`) and
 * on what else it reads of the doc (`rest`); `test` is the whole of it on a doc.
 */
export interface LabelFilter {
  labels: ReadonlyArray<{ field: LabelField; values: readonly string[] }>;
  price: PriceTest | null;
  rest: ((doc: MemoryDoc) => boolean) | null;
  test(doc: MemoryDoc): boolean;
}

/** What a price test reads by slot: the stored price, its currency (a `labelCode`) and its source (a dataset's own code). */
interface PriceColumns {
  prices: Float64Array;
  currencies: Uint32Array;
  sources: Uint32Array;
  /** Each source code's id (0: none). */
  sourceIds: ReadonlyArray<string | null>;
}

/**
 * Each label value's number in the columns, shared by every dataset (0: none, as a null `fit`).
 * The values are the closed vocabularies of domain/catalogue (slots, families, colour families,
 * patterns, fits, genders, age groups), so the table stays small.
 */
const labelCodes = new Map<string, number>();
/** Which codes are among `values` (1 by code): a column's test. A value no doc has has no code, and passes none. */
const passingCodes = (values: Iterable<string>): Uint8Array => {
  const codes = new Uint8Array(labelCodes.size + 1);
  for (const value of values) {
    const code = labelCodes.get(value);
    if (code !== undefined) codes[code] = 1;
  }
  return codes;
};
/** Each code's value, by code (ISO currencies share the table: a closed set too). */
const labelValues: string[] = [''];
const labelCode = (value: string | null): number => {
  if (value === null) return 0;
  let code = labelCodes.get(value);
  if (code === undefined) {
    labelCodes.set(value, (code = labelCodes.size + 1));
    labelValues[code] = value;
  }
  return code;
};

/**
 * A filter asked once per doc (by slot) during one search of a dataset, whichever legs ask. Its
 * label tests read the dataset's columns, so a doc they refuse, and a doc nothing else is asked
 * of, is judged without reading its object: at 100,000 items that read is a cache miss of about
 * 100 ns, and a whole read judges tens of thousands of docs (docs/performance.md).
 */
export class Verdicts {
  private readonly known: Uint8Array;
  private readonly rest: ((doc: MemoryDoc) => boolean) | null;
  private readonly bySlot: ReadonlyArray<MemoryDoc | null>;
  /** Each label test: its column, and which codes pass (by code). */
  private readonly columns: Uint32Array[];
  private readonly passing: Uint8Array[];
  private readonly price: PriceTest | null;
  private readonly priced: PriceColumns;
  /** By source code: 0 not yet asked, 1 the shopper pays its stored prices, 2 not. */
  private readonly paysStored: Uint8Array;
  constructor(bySlot: ReadonlyArray<MemoryDoc | null>, filter: LabelFilter, columns: Readonly<Record<LabelField, Uint32Array>>, priced: PriceColumns, admitted: Iterable<MemoryDoc>) {
    this.bySlot = bySlot;
    this.rest = filter.rest;
    this.price = filter.price;
    this.priced = priced;
    this.paysStored = new Uint8Array(filter.price ? priced.sourceIds.length : 0);
    this.known = new Uint8Array(bySlot.length);
    this.columns = filter.labels.map(({ field }) => columns[field]);
    this.passing = filter.labels.map(({ values }) => passingCodes(values));
    for (const doc of admitted) if (bySlot[doc.slot] === doc) this.known[doc.slot] = 1;
  }
  accepts(doc: MemoryDoc): boolean {
    return this.acceptsSlot(doc.slot) && this.bySlot[doc.slot] === doc;
  }
  /** Whether the slot holds a current doc that passes: a posting's test. */
  acceptsSlot(slot: number): boolean {
    let verdict = this.known[slot]!;
    if (verdict === 0) {
      const doc = this.bySlot[slot];
      // A slot whose holder left stays empty for the search (searches do not interleave with changes).
      // Compared with null, not tested for truth: that would read the doc's object (its map).
      let passes = doc !== null && doc !== undefined;
      for (let t = 0; passes && t < this.columns.length; t++) passes = this.passing[t]![this.columns[t]![slot]!] === 1;
      if (passes && this.price !== null) passes = this.passesPrice(slot, this.price);
      this.known[slot] = verdict = passes && (this.rest === null || this.rest(doc!)) ? 1 : 2;
    }
    return verdict === 1;
  }

  private passesPrice(slot: number, price: PriceTest): boolean {
    const { prices, currencies, sources, sourceIds } = this.priced;
    const source = sources[slot]!;
    let pays = this.paysStored[source]!;
    if (pays === 0) this.paysStored[source] = pays = price.paysStored(sourceIds[source] ?? null) ? 1 : 2;
    return pays === 2 || price.within(prices[slot]!, labelValues[currencies[slot]!]!);
  }
}

/** A filter of a test on the whole doc: every doc it is asked of is read. */
const wholeDocFilter = (test: (doc: MemoryDoc) => boolean): LabelFilter => ({ labels: [], price: null, rest: test, test });

/** `column`, or a copy twice as long (at least `slot + 1` and `least`) when it cannot hold `slot`. */
function holding<T extends Uint32Array | Float32Array | Float64Array>(column: T, slot: number, least = 64): T {
  if (slot < column.length) return column;
  const grown = new (column.constructor as new (length: number) => T)(Math.max(least, column.length * 2, slot + 1));
  grown.set(column);
  return grown;
}

/**
 * One lexeme's postings: each entry a doc's slot and its weight there, in two typed arrays that
 * grow by doubling. A whole read at 100,000 items walks tens of thousands of entries: as slots it
 * touches small arrays indexed by slot, not each doc's object on the heap (measured in
 * docs/performance.md).
 */
export class Postings {
  slots: Uint32Array;
  weights: Float32Array;
  length = 0;
  constructor(capacity = 2) {
    this.slots = new Uint32Array(capacity);
    this.weights = new Float32Array(capacity);
  }

  push(slot: number, weight: number): void {
    this.grow();
    this.slots[this.length] = slot;
    this.weights[this.length++] = weight;
  }

  /** The entry put at `at`, the later ones moved up by one. */
  insert(at: number, slot: number, weight: number): void {
    this.grow();
    this.slots.copyWithin(at + 1, at, this.length);
    this.weights.copyWithin(at + 1, at, this.length);
    this.slots[at] = slot;
    this.weights[at] = weight;
    this.length++;
  }

  /** Keeps the entries whose slot passes, in their order. */
  keep(passes: (slot: number) => boolean): void {
    let kept = 0;
    for (let i = 0; i < this.length; i++) {
      const slot = this.slots[i]!;
      if (!passes(slot)) continue;
      this.slots[kept] = slot;
      this.weights[kept++] = this.weights[i]!;
    }
    this.length = kept;
  }

  /** Room for one more entry: both arrays doubled when full (most lists are short: at least 4). */
  private grow(): void {
    this.slots = holding(this.slots, this.length, 4);
    this.weights = holding(this.weights, this.length, 4);
  }
}

export class DatasetMemory {
  readonly docs = new Map<string, MemoryDoc>();
  /** By slot; null where an item left or changed (its new version has a slot of its own). */
  readonly bySlot: Array<MemoryDoc | null> = [];
  /**
   * By slot, the doc whose postings name it, current or not, until compaction drops them: the walk
   * orders and reads postings by their doc's id whether or not it is still current.
   */
  readonly holders: Array<MemoryDoc | null> = [];
  /** Slots whose holder left: given again only after compaction, when no posting names them. */
  private retiredSlots: number[] = [];
  private readonly freeSlots: number[] = [];
  /** Each doc's single-valued labels by slot, as `labelCode`s: what a filter tests (Verdicts). */
  private columns = Object.fromEntries(LABEL_FIELDS.map((field) => [field, new Uint32Array(0)])) as Record<LabelField, Uint32Array>;
  /** Each doc's stored price, currency and source by slot: what a price bound tests (Verdicts). */
  private readonly priced: PriceColumns & { sourceIds: Array<string | null> } = { prices: new Float64Array(0), currencies: new Uint32Array(0), sources: new Uint32Array(0), sourceIds: [null] };
  private readonly sourceCodes = new Map<string, number>();
  /**
   * Lexeme id → the slots of docs with that lexeme and its weight in each (an entry is current only
   * while its slot holds a doc: `bySlot`). In walk order (weight, then item id: `inWalkOrder`) once a search has read
   * the list, and kept so as docs come; in the order they came until then.
   */
  readonly postings = new Map<number, Postings>();
  /**
   * `family:dress`, `slot:top`, `color:red` (colour family or a colour sold), `material:linen`,
   * `pattern:striped`, `feature:k` (`hasLabel`). In item id order once a search has read the list
   * (`inIdOrder`), likewise.
   */
  readonly attributes = new Map<string, MemoryDoc[]>();
  /**
   * A label list's slots, by its key, made when a whole read first asks and again once the list
   * has grown (a list only grows, or is replaced at compaction, which drops these): a whole read
   * judges every entry on the columns (Verdicts.acceptsSlot), where reading each doc's object for
   * its slot is a cache miss an entry at 100,000 items. In no particular order.
   */
  private readonly listSlots = new Map<string, { list: readonly MemoryDoc[]; slots: Uint32Array }>();
  private listSlotBytes = 0;
  /** The postings and attribute lists in walk order. Sorted when first read, not at load: most lists are never read. */
  private readonly ordered = new WeakSet<object>();
  /** Name key → docs answering to it (an entry is current only while its slot holds that doc). */
  readonly names = new Map<string, MemoryDoc[]>();
  vectors: VectorIndex | null = null;
  /** Lexeme → how many current docs hold it (postings keep retired docs until compacted; this never does). */
  private readonly live = new Map<number, number>();
  private stale = 0;
  private entries = 0;
  /** The docs' own bytes, by `docBytes`, kept as they come and go so `memoryBytes` costs nothing. */
  private ownBytes = 0;

  isCurrent(doc: MemoryDoc): boolean {
    return this.bySlot[doc.slot] === doc;
  }

  /** How many current docs hold `lexeme`: the same for a copy caught up as for a rebuild. */
  docFrequency(lexeme: number): number {
    return this.live.get(lexeme) ?? 0;
  }

  /** One of its postings lists, put in walk order if not yet: the greater weight first, then the smaller item id (best.ts reads them so). */
  inWalkOrder(list: Postings): Postings {
    if (!this.ordered.has(list)) {
      const { holders } = this;
      const [slots, weights] = [list.slots.slice(0, list.length), list.weights.slice(0, list.length)];
      const order = Array.from(slots.keys()).sort((a, b) => weights[b]! - weights[a]! || byItemId(holders[slots[a]!]!, holders[slots[b]!]!));
      order.forEach((from, to) => {
        list.slots[to] = slots[from]!;
        list.weights[to] = weights[from]!;
      });
      this.ordered.add(list);
    }
    return list;
  }

  /** The slots of the docs listed under a label key (`attributes`), in no particular order: every entry's slot holds its doc until compaction. */
  labelSlots(key: string): Uint32Array {
    const list = this.attributes.get(key);
    if (!list) return EMPTY_SLOTS;
    let held = this.listSlots.get(key);
    if (held === undefined || held.list !== list || held.slots.length !== list.length) {
      this.listSlotBytes -= held?.slots.byteLength ?? 0;
      held = { list, slots: Uint32Array.from(list, (doc) => doc.slot) };
      this.listSlots.set(key, held);
      this.listSlotBytes += held.slots.byteLength;
    }
    return held.slots;
  }

  /**
   * Whether the doc at a slot is listed under any of `labelKeys` (`hasLabel`): the single-valued
   * labels (family, slot, pattern, a colour family) read from the columns, the rest from the doc.
   * Asked only of a slot holding a doc.
   */
  labelledTest(labelKeys: readonly string[]): (slot: number) => boolean {
    const valuesOf = new Map<LabelField, string[]>();
    const onDoc: string[] = [];
    for (const key of labelKeys) {
      const colon = key.indexOf(':');
      const field = COLUMN_OF_LABEL.get(key.slice(0, colon));
      // A colour sold is listed under its colour too, not only a colour family: the doc tells.
      if (!field || field === 'colorFamily') onDoc.push(key);
      if (field) valuesOf.set(field, [...(valuesOf.get(field) ?? []), key.slice(colon + 1)]);
    }
    const onColumns = [...valuesOf].map(([field, values]) => ({ column: this.columns[field], passing: passingCodes(values) }));
    const { bySlot } = this;
    return (slot) => {
      for (const { column, passing } of onColumns) if (passing[column[slot]!] === 1) return true;
      return onDoc.length > 0 && onDoc.some((key) => hasLabel(bySlot[slot]!, key));
    };
  }

  /** One of its label lists, put in item id order if not yet. */
  inIdOrder(list: readonly MemoryDoc[]): readonly MemoryDoc[] {
    if (list.length && !this.ordered.has(list)) {
      (list as MemoryDoc[]).sort(byItemId);
      this.ordered.add(list);
    }
    return list;
  }

  /** A search's filter over this dataset, each doc judged once for all the legs that meet it. */
  verdicts(filter: LabelFilter | ((doc: MemoryDoc) => boolean), admitted: Iterable<MemoryDoc> = []): Verdicts {
    return new Verdicts(this.bySlot, typeof filter === 'function' ? wholeDocFilter(filter) : filter, this.columns, this.priced, admitted);
  }

  /**
   * The variants or body of a doc parsed, in place of its text or of none (a restored doc's, read
   * from the read model at the doc's own `changeSeq`): kept for the next searches.
   */
  keep<F extends keyof HeldValues>(doc: MemoryDoc, field: F, value: HeldValues[F], textLength: number): void {
    const held = doc[field];
    if ((held !== null && typeof held !== 'string') || !this.isCurrent(doc)) return;
    parsedBytes.set(value, PARSED_OVERHEAD * (STRING_HEADER_BYTES + textLength));
    this.ownBytes += heldBytes(value) - heldBytes(held);
    (doc as Pick<MemoryDoc, F>)[field] = value as MemoryDoc[F];
  }

  put(doc: DocFields, vector: number[] | null): void {
    const previous = this.docs.get(doc.itemId);
    const vectorSum = vector?.length ? checksum(vector) : NaN;
    this.place(doc, vectorSum);
    // Most changes are of price, stock or status: the vector is the same and stays as it is.
    if (vector?.length && previous?.vectorSum === vectorSum && this.vectors?.has(doc.itemId)) return;
    if (vector?.length) {
      // A new embedding model changes the dimensions: the graph starts over with the new ones.
      if (!this.vectors || this.vectors.dimensions !== vector.length) this.vectors = createHnswIndex({ dimensions: vector.length });
      this.vectors.upsert(doc.itemId, vector);
    } else this.vectors?.remove(doc.itemId);
  }

  /**
   * A saved copy's docs (snapshot.ts) and graph, into an empty memory, in one pass: the postings
   * are counted first and filled in place, with the copy's own lexeme numbers, so nothing grows
   * or is looked up per term. Each doc keeps the checksum of the vector the graph holds for it,
   * so a later change that keeps the vector leaves the graph alone.
   */
  restore(saved: SavedDocs, vectors: VectorIndex | null): void {
    if (this.docs.size) throw new Error('a dataset memory is restored only when empty');
    const { terms, weights, termCount, lexemes } = saved;
    const counts = new Uint32Array(lexemes.length);
    for (let i = 0; i < terms.length; i++) counts[terms[i]!]!++;
    const lists: Postings[] = Array.from(counts, (n) => new Postings(n));
    let at = 0;
    for (let d = 0; d < saved.itemId.length; d++) {
      const n = termCount[d]!;
      const doc = memoryDoc(
        {
          itemId: saved.itemId[d]!,
          datasetId: saved.datasetId,
          sourceId: saved.sourceId[d] ?? null,
          slotName: saved.slotName[d]!,
          family: saved.family[d]!,
          gender: saved.gender[d]!,
          ageGroup: saved.ageGroup[d]!,
          colorFamily: saved.colorFamily[d]!,
          colors: saved.colors[d]!,
          pattern: saved.pattern[d]!,
          materials: saved.materials[d]!,
          fit: saved.fit[d] ?? null,
          featureKeys: saved.featureKeys[d]!,
          price: saved.price[d]!,
          currency: saved.currency[d]!,
          variants: null,
          body: null,
          queuedAt: saved.queuedAt[d]!,
          names: saved.names[d] ?? undefined,
          changeSeq: saved.changeSeq[d]!,
          // Views of the copy's arrays; their lexeme numbers become the lexicon's below.
          terms: terms.subarray(at, at + n),
          weights: weights.subarray(at, at + n),
        },
        d,
        saved.vectorSum[d] ?? NaN,
        // Renumbered below into the lexicon's ids, in no order of theirs.
        false,
      );
      for (let i = at; i < at + n; i++) lists[terms[i]!]!.push(d, weights[i]!);
      at += n;
      this.docs.set(doc.itemId, doc);
      this.bySlot.push(doc);
      this.holders.push(doc);
      this.label(doc);
      for (const key of attributeKeys(doc)) push(this.attributes, key, doc);
      for (const key of doc.names ?? []) push(this.names, key, doc);
      this.ownBytes += docBytes(doc);
    }
    for (let i = 0; i < terms.length; i++) terms[i] = lexemes[terms[i]!]!;
    lists.forEach((list, l) => {
      if (!list.length) return;
      this.postings.set(lexemes[l]!, list);
      this.live.set(lexemes[l]!, counts[l]!);
    });
    this.entries = terms.length;
    this.vectors = vectors;
  }

  private place(doc: DocFields, vectorSum: number): void {
    const previous = this.docs.get(doc.itemId);
    if (previous) this.retire(previous);
    const slot = this.freeSlots.pop() ?? this.bySlot.length;
    const placed = memoryDoc(doc, slot, vectorSum);
    this.ownBytes += docBytes(placed) - (previous ? docBytes(previous) : 0);
    this.docs.set(doc.itemId, placed);
    this.bySlot[slot] = placed;
    this.holders[slot] = placed;
    this.label(placed);
    const { holders } = this;
    placed.terms.forEach((term, i) => {
      this.live.set(term, (this.live.get(term) ?? 0) + 1);
      const weight = placed.weights[i]!;
      let list = this.postings.get(term);
      if (!list) this.postings.set(term, (list = new Postings()));
      if (!this.ordered.has(list) || !list.length) list.push(slot, weight);
      else {
        // Kept in walk order: after every entry of a greater weight, or of the same and a smaller id.
        const { slots, weights } = list;
        list.insert(
          firstAfter(list.length, (j) => weights[j]! > weight || (weights[j] === weight && byItemId(holders[slots[j]!]!, placed) < 0)),
          slot,
          weight,
        );
      }
    });
    for (const key of attributeKeys(placed)) {
      const list = this.attributes.get(key);
      if (!list) this.attributes.set(key, [placed]);
      else if (!this.ordered.has(list)) list.push(placed);
      else list.splice(firstAfter(list.length, (j) => byItemId(list[j]!, placed) < 0), 0, placed);
    }
    for (const key of placed.names ?? []) push(this.names, key, placed);
    this.entries += placed.terms.length;
  }

  remove(itemId: string): void {
    const doc = this.docs.get(itemId);
    if (!doc) return;
    this.retire(doc);
    this.ownBytes -= docBytes(doc);
    this.docs.delete(itemId);
    this.vectors?.remove(itemId);
  }

  /** The doc's labels, price, currency and source into the columns at its slot, grown (doubled) to hold it. */
  private label(doc: MemoryDoc): void {
    const { slot } = doc;
    for (const field of LABEL_FIELDS) (this.columns[field] = holding(this.columns[field], slot))[slot] = labelCode(doc[field]);
    const priced = this.priced;
    (priced.prices = holding(priced.prices, slot))[slot] = doc.price;
    (priced.currencies = holding(priced.currencies, slot))[slot] = labelCode(doc.currency);
    let source = 0;
    if (doc.sourceId !== null) {
      source = this.sourceCodes.get(doc.sourceId) ?? 0;
      if (source === 0) this.sourceCodes.set(doc.sourceId, (source = priced.sourceIds.push(doc.sourceId) - 1));
    }
    (priced.sources = holding(priced.sources, slot))[slot] = source;
  }

  /** The doc's slot emptied (its postings stay, and name a slot no doc holds, until compaction). */
  private retire(doc: MemoryDoc): void {
    this.bySlot[doc.slot] = null;
    this.retiredSlots.push(doc.slot);
    for (const term of doc.terms) {
      const left = (this.live.get(term) ?? 1) - 1;
      if (left > 0) this.live.set(term, left);
      else this.live.delete(term);
    }
    this.stale += doc.terms.length;
    // Postings keep retired docs until they outnumber the live ones: then they are rebuilt once.
    if (this.stale > 1000 && this.stale > this.entries - this.stale) this.compact();
  }

  private compact(): void {
    this.listSlots.clear();
    this.listSlotBytes = 0;
    for (const lists of [this.attributes, this.names]) {
      for (const [key, list] of lists) {
        const current = list.filter((doc) => this.isCurrent(doc));
        if (this.ordered.has(list)) this.ordered.add(current);
        if (current.length) lists.set(key, current);
        else lists.delete(key);
      }
    }
    const current = (slot: number) => this.bySlot[slot] !== null;
    for (const [term, list] of this.postings) {
      list.keep(current);
      if (!list.length) this.postings.delete(term);
    }
    this.entries -= this.stale;
    this.stale = 0;
    // No posting names the retired slots now: they can be given again.
    for (const slot of this.retiredSlots) {
      this.holders[slot] = null;
      this.freeSlots.push(slot);
    }
    this.retiredSlots = [];
  }

  /** The current docs passing `accept` whose name is `key` (a `nameKey`), in item id order. */
  namedExactly(key: string, accept: (doc: MemoryDoc) => boolean): MemoryDoc[] {
    if (!key) return [];
    return [...new Set((this.names.get(key) ?? []).filter((doc) => this.isCurrent(doc) && accept(doc)))].sort(byItemId);
  }

  /**
   * Bytes held, estimated (SEARCH_MEMORY_MB is counted in these; bench/search/cold-load.ts checks
   * them against the process's growth): the docs, their postings, the columns and the graph.
   */
  memoryBytes(): number {
    return this.ownBytes + this.entries * POSTING_BYTES + this.bySlot.length * COLUMN_BYTES + this.listSlotBytes + this.live.size * LIVE_COUNT_BYTES + (this.vectors?.memoryBytes() ?? 0);
  }
}

/** A Map entry of a number to a number (`live`), as V8 holds it. */
const LIVE_COUNT_BYTES = 40;

/**
 * One doc's own estimate: the object, its strings and Map entries, its term arrays, its labels.
 * Set so that a dataset's estimate (these and the graph's) matches what a process grows by when it
 * loads one (bench/search/cold-load.ts, 2026-11-27: about 4.1 KB an item with its vector, 1.9 KB
 * of it V8 heap).
 */
const DOC_BYTES = 1000;
const TERM_BYTES = 8;
const LABEL_BYTES = 40;
/** A posting: a slot and a weight (4 bytes each) in two typed arrays that double as they grow, and their slack. */
const POSTING_BYTES = 12;
/** A slot's columns: seven labels, the currency and the source (4 bytes each) and the price (8). */
const COLUMN_BYTES = LABEL_FIELDS.length * 4 + 4 + 4 + 8;

function docBytes(doc: MemoryDoc): number {
  return (
    DOC_BYTES +
    doc.terms.length * TERM_BYTES +
    (doc.colors.length + doc.materials.length + doc.featureKeys.length + (doc.names?.length ?? 0)) * LABEL_BYTES +
    heldBytes(doc.variants) +
    heldBytes(doc.body)
  );
}

const STRING_HEADER_BYTES = 16;
const TWO_BYTE = /[\u0100-\uffff]/;
/**
 * What a text held costs the process: V8 keeps Latin-1 in a byte a character, anything else in two,
 * and a dataset holding every body and variants grows by about twice their characters
 * (bench/search/cold-load.ts, 2026-11-27: 4.5 KB an item for 2.1 KB of text).
 */
const TEXT_OVERHEAD = 2;
const textBytes = (text: string): number => TEXT_OVERHEAD * (STRING_HEADER_BYTES + text.length * (TWO_BYTE.test(text) ? 2 : 1));
/**
 * What a parsed text costs, by its length: stored variants parsed take 1.4 to 1.6 times their
 * characters of V8 heap (four fixture feeds' variants, 2026-11-27), and once the search route has
 * shown them, their JSON is kept beside them, about once their characters more
 * (api/routes/answer-text.ts): counted two and a half times.
 */
const PARSED_OVERHEAD = 2.5;
/** Each parsed value's bytes as counted when it was kept (a WeakMap: the value carries nothing of ours). */
const parsedBytes = new WeakMap<object, number>();
const heldBytes = (held: string | object | null): number => (held === null ? 0 : typeof held === 'string' ? textBytes(held) : (parsedBytes.get(held) ?? 0));

function checksum(vector: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * (i + 1);
  return sum;
}

function push<K>(lists: Map<K, MemoryDoc[]>, key: K, doc: MemoryDoc): void {
  const list = lists.get(key);
  if (list) list.push(doc);
  else lists.set(key, [doc]);
}

/** The first index in 0..n where `before` no longer holds (it holds for a prefix of them). */
function firstAfter(n: number, before: (i: number) => boolean): number {
  let [low, high] = [0, n];
  while (low < high) {
    const mid = (low + high) >> 1;
    if (before(mid)) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The label keys a doc is listed under in `DatasetMemory.attributes`; `hasLabel` answers for one of them. */
function attributeKeys(doc: MemoryDoc): Set<string> {
  return new Set([
    `family:${doc.family}`,
    `slot:${doc.slotName}`,
    `color:${doc.colorFamily}`,
    ...doc.colors.map((colour) => `color:${colour}`),
    ...doc.materials.map((material) => `material:${material}`),
    `pattern:${doc.pattern}`,
    ...doc.featureKeys.map((key) => `feature:${key}`),
  ]);
}

const EMPTY_SLOTS = new Uint32Array(0);

/** The column holding a label key's kind, where it has one value a doc. */
const COLUMN_OF_LABEL: ReadonlyMap<string, LabelField> = new Map([
  ['family', 'family'],
  ['slot', 'slotName'],
  ['pattern', 'pattern'],
  ['color', 'colorFamily'],
]);

/** Whether the doc is listed under a label key (`attributeKeys`), read from the doc itself. */
export function hasLabel(doc: MemoryDoc, label: string): boolean {
  const colon = label.indexOf(':');
  const value = label.slice(colon + 1);
  switch (label.slice(0, colon)) {
    case 'family':
      return doc.family === value;
    case 'slot':
      return doc.slotName === value;
    case 'color':
      return doc.colorFamily === value || doc.colors.includes(value);
    case 'material':
      return doc.materials.includes(value);
    case 'pattern':
      return doc.pattern === value;
    case 'feature':
      return doc.featureKeys.includes(value);
    default:
      return false;
  }
}
