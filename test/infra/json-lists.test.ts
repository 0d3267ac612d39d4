// The parser that reads a feed page and an upload body entry by entry: whatever the pieces the
// text arrives in, it accepts what JSON.parse accepts, refuses what it refuses, and hands over
// the same values (lists entry by entry, everything else of the root value by value), with the
// root's keys in JSON.parse's order and a key seen twice read as its last value.
import t from 'tap';
import { InvalidJson, JsonLists } from '../../infra/http/json-lists.js';

const LISTS = ['items', 'products'];

/** What the parser makes of `text` written in pieces of `step` characters: the document rebuilt from what it handed over, or 'invalid'. */
function read(text: string, step: number, maxDepth = 64): { value: unknown; entriesSeen: number } | 'invalid' {
  const lists = new Map<string, unknown[]>();
  const others = new Map<string | number | null, unknown>();
  let entriesSeen = 0;
  const parser = new JsonLists(LISTS, {
    startList: (key) => void lists.set(key, []),
    entry: (key, value, index) => {
      entriesSeen++;
      if (lists.get(key)!.length !== index) throw new Error(`entry ${index} of ${key} out of order`);
      lists.get(key)!.push(value);
    },
    other: (value, key) => void others.set(key, value),
  }, maxDepth);
  try {
    for (let i = 0; i < text.length; i += step) {
      try {
        parser.write(text.slice(i, i + step));
      } catch (error) {
        if (!(error instanceof InvalidJson)) throw error;
      }
    }
    parser.end();
  } catch (error) {
    if (error instanceof InvalidJson) return 'invalid';
    throw error;
  }
  if (parser.root === 'scalar') return { value: others.get(null), entriesSeen };
  if (parser.root === 'array') return { value: [...others.keys()].map((index) => others.get(index)), entriesSeen };
  const value: Record<string, unknown> = Object.create(null);
  for (const key of parser.keys) value[key] = LISTS.includes(key) && parser.isList(key) ? lists.get(key) : others.get(key);
  return { value, entriesSeen };
}

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return 'invalid';
  }
};

/** Same values, and the same key order in every object. */
const sameDocument = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b) && JSON.stringify(Object.keys(a ?? {})) === JSON.stringify(Object.keys(b ?? {}));

const product = (id: number) => ({ id, title: `Shirt ${id}`, tags: ['a', 'b'], variants: [{ id: id * 10, price: '9.50', option1: 'Größe M 😀' }], body_html: '<p>"quoted" \\ back\u2028slash</p>' });
const documents: string[] = [
  '',
  '   \n',
  '\uFEFF',
  '\uFEFF{}',
  '{}\uFEFF',
  '{\uFEFF"items":[]}',
  '[\uFEFF]',
  '{"a":"\uFEFF"}',
  '{"\uFEFFitems":[1]}',
  '{}',
  '[]',
  '1',
  '"text"',
  'null',
  '[1,"two",{"three":3},[4]]',
  JSON.stringify({ items: [1, 2, 3] }),
  JSON.stringify({ products: [product(1), product(2)], page: 1, meta: { next: null } }),
  JSON.stringify({ note: 'first', items: [product(3)], products: 'not a list', extra: [1, [2, [3]]] }),
  '{"items":[{"a":1}],"items":[{"b":2}]}',
  '{"items":[{"a":1}],"items":"replaced"}',
  '{"items":"first","items":[{"a":1}]}',
  '{"items":[1],"items":[]}',
  '{"items":{"a":{"b":[1,2]}}}',
  '{"b":1,"2":2,"a":3,"1":4,"b":5}',
  '{"__proto__":{"items":[1]},"items":[{"__proto__":{"x":1}}]}',
  '{"items":[1e400,-0,0.5e-3,123456789012345678901234567890]}',
  '{"items":["\\u0000","\\ud800","\\ud83d\\ude00","\\/\\b\\f\\n\\r\\t"]}',
  '{"items":[1,]}',
  '{"items":[1] ',
  '{"items":[1]} {}',
  '{"items":[01]}',
  '{"items":[1]}x',
  '\u00a0{}',
  '{"a":1,}',
  '{"a" 1}',
  "{'a':1}",
  '[1 2]',
  '"unterminated',
  'nul',
];

t.test('read in any pieces, a document is what JSON.parse makes of it, or refused as JSON.parse refuses it', async (t) => {
  for (const text of documents) {
    const expected = parsed(text);
    for (const step of [1, 2, 3, 7, 1000]) {
      const got = read(text, step);
      const value = got === 'invalid' ? 'invalid' : got.value;
      t.ok(sameDocument(value, expected), `${JSON.stringify(text).slice(0, 60)} in pieces of ${step}: ${JSON.stringify(value)?.slice(0, 80)}`);
    }
  }
});

t.test('each entry is handed over as soon as its closing bracket arrives', async (t) => {
  const seen: unknown[] = [];
  const parser = new JsonLists(['products'], { startList: () => {}, entry: (_key, value) => void seen.push(value) }, 36);
  parser.write('{"products":[');
  for (let i = 0; i < 5; i++) {
    const text = `${i ? ',' : ''}${JSON.stringify(product(i))}`;
    parser.write(text.slice(0, -1));
    t.equal(seen.length, i, `product ${i} not yet complete`);
    parser.write(text.slice(-1));
    t.same(seen[i], product(i), `product ${i} handed over`);
  }
  parser.write(']}');
  parser.end();
  t.equal(parser.isList('products'), true);
  t.same(parser.keys, ['products']);
});

t.test('containers deeper than maxDepth are read empty, their text still checked', async (t) => {
  let nested = '1';
  for (let i = 0; i < 5000; i++) nested = `[${nested}]`;
  const got = read(`{"items":[${nested}]}`, 4096, 6);
  t.not(got, 'invalid');
  // The root is level 1, the list 2, the entry 3: levels 4 to 6 are read, the one at 7 is empty.
  t.same((got as { value: { items: unknown[] } }).value.items, [[[[[[]]]]]]);
  t.equal(read(`{"items":[${nested.slice(0, -1)}]}`, 4096, 6), 'invalid', 'a bracket missing deep down is still seen');
});

t.test("a handler's own error comes out as it was thrown, not as invalid JSON", async (t) => {
  const parser = new JsonLists(['items'], { startList: () => {}, entry: () => { throw new RangeError('no room'); } }, 8);
  t.throws(() => parser.write('{"items":[1]}'), RangeError);
});
