// fast-check arbitraries for requests a careless or hostile client could send: JSON guided by a
// route's JSON schema with wrong types mixed in, text that no JSON serialiser would write (-0,
// 1e400, duplicate and prototype keys, 10,000 levels), bytes that are not UTF-8, odd query
// strings, path ids and headers. Bodies are built as a small JSON tree and written out by hand,
// so the exact text reaches the server (JSON.stringify would turn -0 into 0 and refuse NaN).
import fc from 'fast-check';

/** A number written exactly as given: `-0`, `1e400`, `123456789012345678901234567890`. */
export class RawNumber {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}
/** An object as a list of entries: repeated keys and `__proto__` survive until they are written. */
export class Entries {
  readonly entries: ReadonlyArray<readonly [string, Json]>;
  constructor(entries: ReadonlyArray<readonly [string, Json]>) {
    this.entries = entries;
  }
}
export type Json = null | boolean | number | string | RawNumber | Entries | Json[];

const writeString = (text: string): string =>
  // JSON.stringify escapes lone surrogates as \udXXX: the server still parses them back.
  JSON.stringify(text);

export function writeJson(value: Json): string {
  if (value === null || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : JSON.stringify(value) ?? 'null';
  if (typeof value === 'string') return writeString(value);
  if (value instanceof RawNumber) return value.text;
  if (Array.isArray(value)) return `[${value.map(writeJson).join(',')}]`;
  return `{${value.entries.map(([key, item]) => `${writeString(key)}:${writeJson(item)}`).join(',')}}`;
}

/** A plain JSON value (from fc.jsonValue) as a tree. */
const fromPlain = (value: unknown): Json => {
  if (value === null || typeof value !== 'object') return value as Json;
  if (Array.isArray(value)) return value.map(fromPlain);
  return new Entries(Object.entries(value).map(([key, item]) => [key, fromPlain(item)]));
};

const latin1Char = fc.integer({ min: 0x20, max: 0xff }).filter((code) => code !== 0x7f).map((code) => String.fromCharCode(code));
/** What a real client can put in a header value (Node refuses control characters before sending). */
export const headerText = (maxLength = 80) => fc.string({ unit: latin1Char, maxLength });

const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];

export const nastyStrings = [
  '', ' ', '\t\n', '\u0000', 'a\u0000b', '\uD800', 'x\uDC00y', '\uDBFF', '\uD83E\uDDE5', '\uFEFF', '\u202Eevil', 'é', '🧥',
  'NaN', 'Infinity', '-0', '1e308', '1e400', '0x10', 'null', 'true', '[]', '{}', ...PROTOTYPE_KEYS,
  '%00', '%', '../..', '/', '\\', 'https://', 'http://127.0.0.1:1/', 'javascript:alert(1)', '<script>x</script>', "' OR 1=1 --", '${x}', '{{x}}',
  '00000000-0000-0000-0000-000000000000', 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF', '2026-02-30T25:61:61Z', 'Europe/Nowhere', '#GGGGGG',
];

export const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...nastyStrings) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  // Any code unit: lone surrogates included.
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.constantFrom(101, 201, 256, 1001, 2001, 4001, 20_001, 100_001, 1_000_000).map((n) => 'x'.repeat(n)) },
);

export const nastyNumber: fc.Arbitrary<number | RawNumber> = fc.oneof(
  fc.constantFrom(0, -0, 1, -1, 0.5, -0.5, 1e308, -1e308, 5e-324, 2 ** 31, -(2 ** 31), 2 ** 53, 2 ** 53 + 2, 99, 100, 101, 1e9 + 1),
  fc.constantFrom('1e400', '-1e400', '-0', '-0.0', '1E+308', '123456789012345678901234567890', '0.0000000000000000000000001', '1.0', '1e-400').map((text) => new RawNumber(text)),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

/** Nested `depth` levels deep: the body limit says 32. */
const nested = (depth: number, kind: 'array' | 'object'): Json => {
  let value: Json = 1;
  for (let i = 0; i < depth; i += 1) value = kind === 'array' ? [value] : new Entries([['a', value]]);
  return value;
};

export const key: fc.Arbitrary<string> = fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS, '', ' ', '\u0000', '\uD800', 'a.b', '0'), fc.string({ maxLength: 12 }));

/** Any value of any type: what goes where the schema wants something else. */
export const wrongValue: fc.Arbitrary<Json> = fc.oneof(
  { weight: 3, arbitrary: nastyString },
  { weight: 3, arbitrary: nastyNumber },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.constantFrom<Json>([], new Entries([]), [null], [[]], new Entries([['__proto__', new Entries([['polluted', true]])]])) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map(fromPlain) },
  { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 30, max: 40 }), fc.constantFrom<'array' | 'object'>('array', 'object')).map(([depth, kind]) => nested(depth, kind)) },
  { weight: 1, arbitrary: fc.integer({ min: 1001, max: 5000 }).map((n): Json => Array.from({ length: n }, () => 1)) },
);

type Schema = Record<string, unknown>;

/**
 * Values shaped by a JSON schema, each place wrong about one time in `wrongEvery` (5: most bodies
 * are refused somewhere; 40: many pass validation and reach the command). `$ref`s resolve through `resolve`.
 */
export function guided(schema: Schema | undefined, resolve: (ref: string) => Schema | undefined, wrongEvery = 5, depth = 0, name = ''): fc.Arbitrary<Json> {
  if (!schema || depth > 6) return wrongValue;
  if (typeof schema.$ref === 'string') return guided(resolve(schema.$ref), resolve, wrongEvery, depth + 1, name);
  const right = rightValue(schema, resolve, wrongEvery, depth, name);
  return fc.oneof({ weight: wrongEvery - 1, arbitrary: right }, { weight: 1, arbitrary: wrongValue });
}

// What a field's name says about the text it wants, where its schema says only "a string".
const NAMED_TEXT: Array<[RegExp, fc.Arbitrary<string>]> = [
  [/url|endpoint|src|website|origin/i, fc.oneof(fc.webUrl(), fc.constantFrom('https://shop.example.com', 'shop.example.com', 'http://127.0.0.1:1/products.json'))],
  [/currency/i, fc.constantFrom('EUR', 'USD', 'eur', 'XXX')],
  [/timezone/i, fc.constantFrom('Europe/Berlin', 'UTC', 'America/Argentina/Buenos_Aires', 'Etc/GMT+14')],
  [/id$/i, fc.uuid()],
];

function rightValue(schema: Schema, resolve: (ref: string) => Schema | undefined, wrongEvery: number, depth: number, name: string): fc.Arbitrary<Json> {
  const inner = (child: Schema | undefined, childName = '') => guided(child, resolve, wrongEvery, depth + 1, childName);
  const choices = (schema.anyOf ?? schema.oneOf ?? schema.allOf) as Schema[] | undefined;
  if (choices?.length) return fc.oneof(...choices.map((choice) => inner(choice, name)));
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as Json[]));
  if ('const' in schema) return fc.constant(schema.const as Json);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string': {
      const max = typeof schema.maxLength === 'number' ? schema.maxLength : 60;
      const near = [Math.max(0, max - 1), max, max + 1].map((n) => 'y'.repeat(n));
      const formats = schema.format === 'uuid' ? [fc.uuid()] : schema.format === 'uri' || schema.format === 'url' ? [fc.webUrl()] : [];
      const patterns = typeof schema.pattern === 'string' ? [fc.stringMatching(new RegExp(schema.pattern))] : [];
      const plain = fc.string({ minLength: typeof schema.minLength === 'number' ? schema.minLength : 0, maxLength: Math.min(max, 30) });
      const named = NAMED_TEXT.filter(([pattern]) => pattern.test(name)).map(([, text]) => text);
      const fitting = [...formats, ...patterns, ...named];
      return fitting.length ? fc.oneof({ weight: 4, arbitrary: fc.oneof(...fitting) }, plain, fc.constantFrom(...near), nastyString) : fc.oneof({ weight: 2, arbitrary: plain }, fc.constantFrom(...near), nastyString);
    }
    case 'integer':
    case 'number': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : -1000;
      const max = typeof schema.maximum === 'number' ? schema.maximum : 1000;
      return fc.oneof({ weight: 3, arbitrary: fc.integer({ min: Math.max(min, -1e9), max: Math.min(max, 1e9) }) }, fc.constantFrom(min - 1, max + 1, min + 0.5), nastyNumber);
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const item = inner(schema.items as Schema | undefined);
      return fc.oneof({ weight: 6, arbitrary: fc.array(item, { minLength: 1, maxLength: 4 }) }, fc.constant<Json>([]), fc.array(item, { minLength: 5, maxLength: 60 }));
    }
    case 'object':
    default: {
      const required = new Set((schema.required ?? []) as string[]);
      const properties = Object.entries((schema.properties ?? {}) as Record<string, Schema>);
      const known = properties.map(([name, property]) =>
        fc.option(inner(property, name), { nil: undefined, freq: required.has(name) ? wrongEvery * 2 : 2 }).map((value) => [name, value] as const),
      );
      const extra = fc.oneof({ weight: wrongEvery, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.array(fc.tuple(key, wrongValue), { minLength: 1, maxLength: 2 }) });
      return fc.tuple(fc.tuple(...known), extra).map(([values, more]) => new Entries([...values.filter((entry): entry is readonly [string, Json] => entry[1] !== undefined), ...more]));
    }
  }
}

/** Bodies as the server receives them: schema-guided JSON, any JSON, broken JSON, bytes. */
export function bodyText(schema: Schema | undefined, resolve: (ref: string) => Schema | undefined): fc.Arbitrary<string | Buffer> {
  const shaped = guided(schema ?? { type: 'object' }, resolve).map(writeJson);
  const nearlyValid = guided(schema ?? { type: 'object' }, resolve, 40).map(writeJson);
  return fc.oneof(
    { weight: 5, arbitrary: shaped },
    { weight: 5, arbitrary: nearlyValid },
    { weight: 2, arbitrary: fc.jsonValue().map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: fc.tuple(shaped, fc.nat()).map(([text, cut]) => text.slice(0, cut % (text.length + 1))) },
    { weight: 2, arbitrary: fc.constantFrom(...brokenJson) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.constantFrom(...notUtf8) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 40 }).map((bytes) => Buffer.from(bytes)) },
  );
}

const brokenJson = [
  '', ' ', 'null', 'true', '0', '"x"', '[]', '[{}]', '{', '}', '{"a":', '{"a":1,}', "{'a':1}", '{a:1}', 'NaN', '{"a":NaN}', '{"a":Infinity}',
  '{"a":1e400}', '{"a":-0}', '\uFEFF{}', '{"a":1}{"b":2}', '{"a":1} x', '{"a":"\\u0000"}', '{"a":"\\ud800"}', '{"\\udc00":1}', '{"a":"\\x41"}',
  '{"__proto__":{"polluted":true}}', '{"constructor":{"prototype":{"polluted":true}}}', '{"name":"a","name":{"x":1}}',
  '['.repeat(10_000) + ']'.repeat(10_000), '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000), '['.repeat(100_000), `{"a":${'9'.repeat(100_000)}}`,
  `[${'1,'.repeat(200_000)}1]`, `{${Array.from({ length: 20_000 }, (_, i) => `"k${i}":1`).join(',')}}`,
];

const notUtf8 = [
  Buffer.from([0xff, 0xfe]),
  Buffer.from([0xfe, 0xff, 0x00, 0x7b, 0x00, 0x7d]),
  Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]),
  Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]),
  Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xc0, 0xaf]), Buffer.from('"}')]),
  Buffer.concat([Buffer.from('{"'), Buffer.from([0x80]), Buffer.from('":1}')]),
];

export const queryValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', '-1', '0', '1', '2', '1.5', ' 3 ', '+4', '1e308', '-1e308', '1e400', '0x10', '0b1', 'NaN', 'Infinity', '9007199254740993', '200', '201', '100', '101'),
  fc.constantFrom('%', '%00', '%ZZ', '%C0%80', '%ED%A0%80', '%FF', '%E2%80%AE', '__proto__', '[]', 'true', 'a,b,,', ' , ', 'x'.repeat(30_000)).map((raw) => `\u0001${raw}`),
  fc.string({ maxLength: 20 }),
);

/** `\u0001` marks a value already in its raw (percent-encoded, maybe wrongly) form. */
export const encodeQueryPart = (text: string): string => {
  if (text.startsWith('\u0001')) return text.slice(1);
  try {
    return encodeURIComponent(text);
  } catch {
    return encodeURIComponent(text.replace(/[\uD800-\uDFFF]/g, '?'));
  }
};

export const pathJunk: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '..', '.', '%2e%2e', '%2F', '%2f..%2f', '%00', '%ZZ', '%', '%C0%AF', '%ED%A0%80', '%F0%9F%A7%A5', '%20', '%0A', 'null', 'undefined', '__proto__', 'constructor',
    '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff', '{0b9d7c1e-2f3a-4b5c-8d6e-7f8091a2b3c4}', '0b9d7c1e2f3a4b5c8d6e7f8091a2b3c4',
    '0b9d7c1e-2f3a-4b5c-8d6e-7f8091a2b3c4x', '0B9D7C1E-2F3A-4B5C-8D6E-7F8091A2B3C4', 'x'.repeat(10_000), '1', '-1', '1e308',
  ),
  fc.string({ minLength: 1, maxLength: 20 }).map(encodeQueryPart),
);
