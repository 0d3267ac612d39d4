// The in-process search memory: a tsvector read as lexemes and weights, prefix look-ups in the
// lexicon, and a dataset's memory as items come, change and go (postings never answer for an old
// version of an item, however many times it changed).
import fc from 'fast-check';
import type { Kysely } from 'kysely';
import t from 'tap';
import { DatasetMemory, Lexicon, parseDocument, SearchMemory, type DocFields, type MemoryDoc } from '../../projections/search-memory.js';

t.test('given a weighted tsvector, then each lexeme has its best weight and a little per repeat', async (t) => {
  const lexicon = new Lexicon();
  const { terms, weights } = parseDocument("'dress':1A,6B 'red':2A 'it''s':9 'linen':3B,4B,5B,7B,8B,10B", lexicon);
  const weightOf = (lexeme: string) => weights[terms.indexOf(lexicon.find(lexeme)!)];
  t.equal(terms.length, 4);
  t.ok(Math.abs(weightOf('dress')! - 1.1) < 1e-6, 'A, repeated once');
  t.equal(weightOf('red'), 1);
  t.ok(Math.abs(weightOf("it's")! - 0.1) < 1e-6, 'no letter is D; a doubled quote is one');
  t.ok(Math.abs(weightOf('linen')! - 0.5 * 1.4) < 1e-6, 'repeats counted up to four');
  t.same([...terms], [...terms].sort((a, b) => a - b), 'ascending, for binary search');
  t.same(parseDocument('', lexicon).terms.length, 0);
});

t.test('given a lexicon, when a prefix is asked, then every lexeme it begins', async (t) => {
  const lexicon = new Lexicon();
  for (const word of ['dress', 'dressi', 'drape', 'dresser', 'boot']) lexicon.id(word);
  t.same(lexicon.withPrefix('dress').map((id) => id).sort(), [lexicon.find('dress'), lexicon.find('dressi'), lexicon.find('dresser')].sort());
  lexicon.id('dressy');
  t.equal(lexicon.withPrefix('dress').length, 4, 'a lexeme added later is found');
  t.same(lexicon.withPrefix('zzz'), []);
});

const doc = (itemId: string, lexicon: Lexicon, text: string, fields: Partial<MemoryDoc> = {}): DocFields => ({
  itemId,
  datasetId: 'd',
  sourceId: null,
  slotName: 'full body',
  family: 'dress',
  gender: 'womens',
  ageGroup: 'adult',
  colorFamily: 'red',
  colors: ['red'],
  pattern: 'solid',
  materials: [],
  fit: null,
  featureKeys: [],
  price: 10,
  currency: 'EUR',
  variants: '[]',
  body: null,
  queuedAt: '2026-11-26T00:00:00.000Z',
  ...parseDocument(text, lexicon),
  ...fields,
});

t.test('given items that change and leave, then postings answer only for their current versions', async (t) => {
  const lexicon = new Lexicon();
  const memory = new DatasetMemory();
  // The docs a word's postings name whose slot still holds them.
  const current = (word: string) => {
    const list = memory.postings.get(lexicon.find(word)!);
    return [...(list?.slots.subarray(0, list.length) ?? [])].flatMap((slot) => memory.bySlot[slot] ?? []).map((d) => d.itemId).sort();
  };
  memory.put(doc('a', lexicon, "'red':1A 'dress':2A"), [1, 0]);
  memory.put(doc('b', lexicon, "'blue':1A 'dress':2A", { colorFamily: 'blue', colors: ['blue'] }), [0, 1]);
  t.same(current('dress'), ['a', 'b']);
  memory.put(doc('a', lexicon, "'red':1A 'skirt':2A", { family: 'skirt' }), [1, 0]);
  t.same(current('dress'), ['b'], 'the old version no longer answers');
  t.same(current('skirt'), ['a']);
  t.equal(memory.docs.get('a')!.slot, 2, 'a changed item takes a slot of its own: a posting of the old version names a slot no doc holds');
  t.same((memory.attributes.get('family:dress') ?? []).filter((d) => memory.isCurrent(d)).map((d) => d.itemId), ['b']);
  memory.remove('b');
  t.same(current('dress'), []);
  t.equal(memory.vectors!.size, 1, 'its vector left too');
  memory.put(doc('c', lexicon, "'dress':1A"), [1, 1]);
  t.equal(memory.docs.get('c')!.slot, 3, 'a freed slot waits for compaction, while postings still name it');

  // Many changes of one item: the postings are compacted instead of growing without end, and the slots their old versions held are given again.
  for (let i = 0; i < 3000; i++) memory.put(doc('a', lexicon, `'red':1A 'word${i % 7}':2A`), [1, 0]);
  const entries = [...memory.postings.values()].reduce((sum, list) => sum + list.length, 0);
  t.ok(entries < 3000, `postings compacted (${entries} entries)`);
  t.ok(memory.bySlot.length < 1500, `slots given again after compaction (${memory.bySlot.length} slots)`);
  t.same(current('red'), ['a']);
  t.same(current('dress'), ['c']);
});

t.test('given items renamed and removed, then a name answers only for the current version of an item that has it', async (t) => {
  const lexicon = new Lexicon();
  const memory = new DatasetMemory();
  const all = () => true;
  memory.put(doc('a', lexicon, "'skirt':1A", { names: ['reduced skirt'] }), null);
  memory.put(doc('b', lexicon, "'skirt':1A", { names: ['reduced skirt'], family: 'skirt' }), null);
  t.same(memory.namedExactly('reduced skirt', all).map((d) => d.itemId), ['a', 'b']);
  t.same(memory.namedExactly('reduced skirt', (d) => d.family === 'skirt').map((d) => d.itemId), ['b'], 'the filter given still applies');
  memory.put(doc('a', lexicon, "'skirt':1A", { names: ['pleated skirt'] }), null);
  memory.remove('b');
  t.same(memory.namedExactly('reduced skirt', all), [], 'renamed and removed');
  t.same(memory.namedExactly('pleated skirt', all).map((d) => d.itemId), ['a']);
  t.same(memory.namedExactly('', all), []);
});

t.test('given a doc whose variants are kept parsed in place of their text, then its bytes are counted while it stays and given back when it goes', async (t) => {
  const lexicon = new Lexicon();
  const text = JSON.stringify([{ variantId: 'v1', sku: 'S-1', label: 'S', options: [{ name: 'Size', value: 'S' }], inStock: true, quantity: null, price: 10, compareAtPrice: null }]);
  // Two memories through the same changes, one of them keeping parsed variants: they must end alike.
  const [memory, plain] = [new DatasetMemory(), new DatasetMemory()];
  for (const m of [memory, plain]) m.put(doc('a', lexicon, "'dress':1A", { variants: text }), null);
  const asText = memory.memoryBytes();
  const held = memory.docs.get('a')!;
  const parsed = JSON.parse(text);
  memory.keep(held, 'variants', parsed, text.length);
  t.equal(held.variants, parsed, 'the parsed value stands in place of the text');
  // V8 holds them in about what the text took, and the search route keeps their JSON beside them once shown.
  t.ok(memory.memoryBytes() >= asText + text.length / 2, `counted as the text was and half its length more (${asText} → ${memory.memoryBytes()} bytes)`);
  memory.keep(held, 'variants', JSON.parse(text), text.length);
  t.equal(held.variants, parsed, 'kept once: a second parse does not replace the first');
  for (const m of [memory, plain]) m.put(doc('a', lexicon, "'dress':1A", { variants: text }), null);
  memory.keep(held, 'variants', JSON.parse(text), text.length);
  t.equal(typeof memory.docs.get('a')!.variants, 'string', 'an old version of the doc keeps nothing for the new one');
  t.equal(memory.memoryBytes(), plain.memoryBytes(), 'its old version gave back what was counted for it');
  memory.keep(memory.docs.get('a')!, 'variants', JSON.parse(text), text.length);
  for (const m of [memory, plain]) m.remove('a');
  t.equal(memory.memoryBytes(), plain.memoryBytes(), 'and so did the doc when it went');

  // A restored doc holds none until a search reads them: what it keeps then is counted.
  for (const m of [memory, plain]) m.put(doc('b', lexicon, "'dress':1A", { variants: null }), null);
  memory.keep(memory.docs.get('b')!, 'variants', JSON.parse(text), text.length);
  t.ok(memory.memoryBytes() >= plain.memoryBytes() + 2 * text.length, `a restored doc's parsed variants are counted (${plain.memoryBytes()} → ${memory.memoryBytes()} bytes)`);
});

t.test('given several datasets, then the nearest items are theirs merged best first, as a sort would put them, ties to the dataset listed first', async (t) => {
  const lexicon = new Lexicon();
  const memory = new SearchMemory({} as Kysely<any>);
  fc.assert(
    fc.property(
      fc.array(fc.array(fc.tuple(fc.integer({ min: -3, max: 3 }), fc.integer({ min: -3, max: 3 })), { maxLength: 12 }), { minLength: 1, maxLength: 4 }),
      fc.integer({ min: 1, max: 20 }),
      (datasets, k) => {
        const memories = datasets.map((vectors, d) => {
          const dataset = new DatasetMemory();
          vectors.forEach(([x, y], i) => (x || y ? dataset.put(doc(`${d}-${i}`, lexicon, "'dress':1A", { datasetId: `d${d}` }), [x, y]) : undefined));
          return dataset;
        });
        const query = [1, 0.5];
        const each = memories.flatMap((dataset) => memory.nearest([dataset], query, k));
        const sorted = [...each].sort((a, b) => b.similarity - a.similarity).slice(0, k);
        const merged = memory.nearest(memories, query, k);
        return JSON.stringify(merged.map((m) => m.doc.itemId)) === JSON.stringify(sorted.map((m) => m.doc.itemId));
      },
    ),
    { numRuns: 200 },
  );
  t.pass('200 catalogues of up to four datasets, with repeated vectors');
});
