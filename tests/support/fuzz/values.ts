// Values for the fuzzer, by GraphQL input type: each sample has the form it takes as a variable's
// JSON value and the form it takes as a literal in the document, which differ on purpose for
// wrong-typed samples ("5" as a variable, NaN as a literal). Pools go from plausible values (the
// seed's names, so resolvers reach stored state) to boundaries, hostile text and wrong types;
// fast-check shrinks towards the first, so a counterexample keeps only what it needs.
import fc from 'fast-check';
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  parseValue,
  type GraphQLInputType,
} from 'graphql';
import {
  bigString,
  deepArray,
  deepMixed,
  deepObject,
  jsonLiteral,
  NAME,
  RawJson,
  stringLiteral,
  wideArray,
  wideObject,
  type Json,
  type StringStyle,
} from './json';

export interface Sample {
  /** As a variable's value. */
  json: Json;
  /** As a literal in the document; undefined when no literal can carry it (a lone surrogate). */
  literal?: string;
}

/** Limits from docs/configuration.md (the defaults the fuzzed server runs with). */
export const LIMITS = {
  nameLength: 128,
  messageLength: 4000,
  taskArgsBytes: 65536,
  jsonDepth: 32,
  bodyBytes: 102400,
};

/** Which pools a generator may use. */
export interface ValueOptions {
  /** JSON nested up to the body limit (40,000 levels): the dedicated JSON test only. */
  hugeJson?: boolean;
  /**
   * Only values of the argument's GraphQL type, so that the request passes validation and reaches
   * the resolver (hostile content, out-of-range numbers); otherwise wrong types and literal forms
   * GraphQL refuses as well.
   */
  typed?: boolean;
  /**
   * Every list a long one of items of the wrong type, around graphql-js's caps (50 variable
   * errors, 100 validation errors): the dedicated long-list test only.
   */
  longBadLists?: boolean;
}

/** A value whose literal is its JSON, except where no literal can carry it (a lone surrogate in a string). */
const same = (json: Json): Sample => {
  const literal = jsonLiteral(json);
  if (json instanceof RawJson) return { json, literal };
  try {
    parseValue(literal);
    return { json, literal };
  } catch {
    return { json };
  }
};
const samples = (...values: Json[]): fc.Arbitrary<Sample> => fc.constantFrom(...values).map(same);

// ---------------------------------------------------------------------------------------------
// Text
// ---------------------------------------------------------------------------------------------

/** Names the seed stores (tests/support/fuzz/seed.ts), so that calls meet existing state. */
const SEED_NAMES = [
  'alice',
  'bob',
  'carol',
  'billing-service',
  'guild1',
  'hits',
  'page/home',
  'q',
  't',
  'k1',
  'sword',
  'shield',
  'axe',
  'l1',
  's1',
  '7',
];
const SEED_IDS = ['1', '2', '3', '7', 'q:1', 'q:2', 'q:3', 'nope:1'];

/** Any UTF-16 code unit, lone surrogates included. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n));

const plausibleText: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...SEED_NAMES), weight: 4 },
  { arbitrary: fc.stringMatching(/^[a-z][a-z0-9_.\-/@]{0,11}$/), weight: 3 },
  {
    arbitrary: fc.constantFrom(
      'Zoë',
      'Straße',
      'STRASSE',
      'éloïse',
      'e\u0301',
      '用户',
      'مرحبا',
      '👩‍👩‍👧',
      '👍🏽',
      '🇫🇷',
      'ÿes',
    ),
    weight: 1,
  },
);

const BOUNDARY_TEXT = [
  '',
  'a',
  'x'.repeat(LIMITS.nameLength),
  'x'.repeat(LIMITS.nameLength + 1),
  'é'.repeat(LIMITS.nameLength),
  '😀'.repeat(LIMITS.nameLength),
  '😀'.repeat(LIMITS.nameLength + 1),
  'e\u0301'.repeat(LIMITS.nameLength),
  'x'.repeat(LIMITS.messageLength),
  'x'.repeat(LIMITS.messageLength + 1),
  '😀'.repeat(LIMITS.messageLength),
  'x'.repeat(40_000),
];

const HOSTILE_TEXT = [
  'a\u0000b',
  '\u0000',
  'a\u0001',
  'a\u001b[2J',
  'a\u007f',
  'a\u0085',
  'a\u009b31m',
  'tab\there',
  'line\nbreak',
  'cr\rhere',
  'invoice\u202Efdp.exe',
  '\u202A',
  'a\u2066b\u2069',
  'a\u200Fb',
  'a\u061Cb',
  'a\ud800',
  '\udfff',
  'a\ud83d',
  '\ude00\ud83d',
  'a\u200db',
  '\u200b',
  '\u200b \u200b',
  '\ufeff',
  '\uffff',
  '\ufffe',
  '{',
  'a}',
  'a:b',
  'a*',
  'a?',
  '[a',
  '(a',
  '-',
  '+',
  ' ',
  ' a ',
  '"',
  '\\',
  "'",
  '1 OR 1=1',
  '%s%n',
  '${x}',
  '../../etc/passwd',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  '-1',
  '0',
  '007',
  '1e3',
  '1.5',
  'NaN',
  '9007199254740993',
  'q:',
  ':1',
  'q:0',
  'q:-1',
  'q:1:2',
  'q{x}:1',
];

const textArbitrary: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: plausibleText, weight: 6 },
  { arbitrary: fc.constantFrom(...BOUNDARY_TEXT), weight: 2 },
  { arbitrary: fc.constantFrom(...HOSTILE_TEXT), weight: 3 },
  { arbitrary: fc.tuple(plausibleText, fc.constantFrom(...HOSTILE_TEXT)).map(([a, b]) => a + b), weight: 2 },
  { arbitrary: fc.string({ unit: codeUnit, maxLength: 12 }), weight: 1 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }), weight: 1 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 8 }), weight: 1 },
);

const stringStyle = fc.constantFrom<StringStyle>('escaped', 'block', 'raw');

/** Text as a variable, or as an escaped literal (a lone surrogate only as a variable). */
const typedText: fc.Arbitrary<Sample> = textArbitrary.map(same);

/** Also block strings and raw literals, where NUL, newlines and lone surrogates break the document. */
const looseText: fc.Arbitrary<Sample> = fc
  .tuple(textArbitrary, stringStyle)
  .map(([text, style]) => ({ json: text, literal: stringLiteral(text, style) }));

// ---------------------------------------------------------------------------------------------
// Numbers
// ---------------------------------------------------------------------------------------------

/** Ints GraphQL accepts (32-bit), from plausible to boundaries. */
const typedInt: fc.Arbitrary<Sample> = fc.oneof(
  { arbitrary: samples(1, 5, 10, 20, 60, 100, 1000, 10_000, 60_000), weight: 4 },
  { arbitrary: fc.integer({ min: -5, max: 300 }).map(same), weight: 2 },
  {
    arbitrary: samples(
      0,
      -1,
      2 ** 31 - 1,
      -(2 ** 31),
      1_000_000,
      1_000_001,
      3_600_000,
      3_600_001,
      604_800_000,
      604_800_001,
    ),
    weight: 3,
  },
  { arbitrary: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }).map(same), weight: 1 },
);

const TOO_PRECISE = new RawJson('9007199254740993', '9007199254740993', '2^53+1');

/** Wrong for a number, as a variable and as a literal. */
const WRONG_FOR_NUMBER: Sample[] = [
  { json: '5', literal: '"5"' },
  { json: 'NaN', literal: 'NaN' },
  { json: 'Infinity', literal: 'Infinity' },
  { json: '-Infinity', literal: '-Infinity' },
  { json: '', literal: '""' },
  { json: true, literal: 'true' },
  { json: [1], literal: '[1]' },
  { json: { a: 1 }, literal: '{a: 1}' },
];

/** Beyond 32 bits, fractions, and numbers written as Int cannot be. */
const looseInt: fc.Arbitrary<Sample> = fc.oneof(
  { arbitrary: samples(2 ** 31, -(2 ** 31) - 1, 2 ** 53 - 1, 2 ** 53, -(2 ** 53), 1e21, 1.5, -0.5), weight: 3 },
  {
    arbitrary: fc.constantFrom<Sample>(
      { json: TOO_PRECISE, literal: TOO_PRECISE.literal },
      { json: 1, literal: '1.0' },
      { json: 1000, literal: '1e3' },
      { json: 0, literal: '-0' },
    ),
    weight: 1,
  },
  { arbitrary: fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }).map(same), weight: 1 },
  { arbitrary: fc.constantFrom(...WRONG_FOR_NUMBER), weight: 2 },
);

const INFINITY_TEXT = new RawJson('1e309', '1e309', '1e309');

const typedFloat: fc.Arbitrary<Sample> = fc.oneof(
  { arbitrary: samples(0.05, 0.5, 1, 5, 60, 3600, 1.5, 1_700_000_000), weight: 4 },
  {
    arbitrary: samples(
      0,
      -0,
      0.049,
      86_400,
      86_400.001,
      86_401,
      -86_400,
      -86_400.001,
      1e-7,
      5e-324,
      1e308,
      -1e308,
      Number.MAX_VALUE,
      2 ** 53,
      4_102_444_800,
      -1,
    ),
    weight: 3,
  },
  {
    arbitrary: fc.constantFrom<Sample>({ json: 1, literal: '1' }, { json: 2 ** 31, literal: '2147483648' }),
    weight: 1,
  },
  { arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }).map(same), weight: 1 },
);

const looseFloat: fc.Arbitrary<Sample> = fc.oneof(
  {
    arbitrary: fc.constantFrom<Sample>(
      { json: INFINITY_TEXT, literal: INFINITY_TEXT.literal },
      { json: 0.5, literal: '.5' },
      { json: 5, literal: '5.' },
    ),
    weight: 1,
  },
  { arbitrary: fc.constantFrom(...WRONG_FOR_NUMBER), weight: 2 },
);

const typedBoolean: fc.Arbitrary<Sample> = samples(true, false);

const looseBoolean: fc.Arbitrary<Sample> = fc.constantFrom<Sample>(
  { json: 'true', literal: '"true"' },
  { json: 1, literal: '1' },
  { json: 0, literal: 'TRUE' },
  { json: [true], literal: '[true]' },
);

/** An ID: a name or a numeric id, as a string or (as graphql-js accepts for ID) an integer. */
const typedId: fc.Arbitrary<Sample> = fc.oneof(
  { arbitrary: fc.constantFrom(...SEED_IDS).map(same), weight: 3 },
  { arbitrary: typedText, weight: 5 },
  { arbitrary: samples(1, 2, 0, -1, 2 ** 53), weight: 1 },
);

const looseId: fc.Arbitrary<Sample> = fc.oneof(
  looseText,
  fc.constantFrom<Sample>(
    { json: 1.5, literal: '1.5' },
    { json: true, literal: 'true' },
    { json: ['1'], literal: '["1"]' },
  ),
);

// ---------------------------------------------------------------------------------------------
// JSON (the JSON scalar): small, deep, wide, big
// ---------------------------------------------------------------------------------------------

const jsonSmall: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>({ to: 'ann@example.com' }, { a: 1 }, [1, 2, 3], {}, [], '', 0, true, null, 'x'),
  fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>,
  fc.constantFrom<Json>(
    JSON.parse('{"__proto__": {"polluted": 1}}') as Json,
    { constructor: { prototype: { polluted: 1 } } },
    { a: 'a\ud800' },
    { '': null, ' ': [null], '\u0000': 'nul' },
    1e308,
    -0,
    2 ** 53 + 2,
  ),
);

const JSON_DEPTHS = [LIMITS.jsonDepth - 1, LIMITS.jsonDepth, LIMITS.jsonDepth + 1, 100, 1000];

const jsonBounded: fc.Arbitrary<Json> = fc.oneof(
  { arbitrary: jsonSmall, weight: 5 },
  {
    arbitrary: fc.constantFrom(...JSON_DEPTHS).chain((n) => fc.constantFrom(deepArray(n), deepObject(n), deepMixed(n))),
    weight: 3,
  },
  {
    arbitrary: fc.constantFrom<Json>(
      wideArray(10_000),
      wideObject(2_000),
      bigString(LIMITS.taskArgsBytes - 2),
      bigString(LIMITS.taskArgsBytes - 1),
      Array.from({ length: 500 }, () => ({ a: [1, { b: 'c' }] })),
    ),
    weight: 1,
  },
);

/** Nesting that only the body limit bounds: an array 40,000 deep is about 80 KB. */
const HUGE_DEPTHS = [2_000, 10_000, 20_000, 40_000, 45_000, 50_000];

const jsonHuge: fc.Arbitrary<Json> = fc
  .constantFrom(...HUGE_DEPTHS)
  .chain((n) => fc.constantFrom(deepArray(n), deepObject(Math.floor(n / 3)), deepMixed(Math.floor(n / 2))));

function jsonSample(options: ValueOptions): fc.Arbitrary<Sample> {
  const value = options.hugeJson
    ? fc.oneof({ arbitrary: jsonHuge, weight: 4 }, { arbitrary: jsonBounded, weight: 1 })
    : jsonBounded;
  return value.map(same);
}

// ---------------------------------------------------------------------------------------------
// By type
// ---------------------------------------------------------------------------------------------

/** Samples of a named or wrapped input type, null excepted (the argument level decides on nulls). */
export function sampleFor(type: GraphQLInputType, options: ValueOptions = {}): fc.Arbitrary<Sample> {
  const nullable = getNullableType(type);
  if (isListType(nullable))
    return options.longBadLists ? longBadList(nullable.ofType) : listSample(nullable.ofType, options);
  const typed = typedSampleFor(nullable, options);
  if (options.typed) return typed;
  const loose = looseSampleFor(nullable);
  return loose ? fc.oneof({ arbitrary: typed, weight: 3 }, { arbitrary: loose, weight: 2 }) : typed;
}

function typedSampleFor(type: GraphQLInputType, options: ValueOptions): fc.Arbitrary<Sample> {
  if (isEnumType(type))
    return fc
      .constantFrom(...type.getValues().map((v) => v.name))
      .map((name): Sample => ({ json: name, literal: name }));
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields());
    return fc
      .tuple(...fields.map((field) => fc.option(sampleFor(field.type, options), { nil: undefined, freq: 4 })))
      .map((values): Sample => {
        const present = fields
          .map((field, i) => [field.name, values[i]] as const)
          .filter((entry): entry is [string, Sample] => entry[1] !== undefined);
        const literal = present.every(([, sample]) => sample.literal !== undefined)
          ? `{${present.map(([name, sample]) => `${name}: ${sample.literal}`).join(', ')}}`
          : undefined;
        return {
          json: Object.fromEntries(present.map(([name, sample]) => [name, sample.json])),
          ...(literal === undefined ? {} : { literal }),
        };
      });
  }
  if (isScalarType(type)) {
    switch (type.name) {
      case 'Int':
        return typedInt;
      case 'Float':
        return typedFloat;
      case 'Boolean':
        return typedBoolean;
      case 'ID':
        return typedId;
      case 'String':
        return typedText;
      case 'JSON':
        return jsonSample(options);
      default:
        // A scalar this fuzzer does not know yet: text and JSON alike.
        return fc.oneof(typedText, jsonSample(options));
    }
  }
  throw new Error(`no samples for input type ${String(type)}`);
}

/** Values of the wrong type or literals GraphQL refuses; undefined where every value is of the type (JSON). */
function looseSampleFor(type: GraphQLInputType): fc.Arbitrary<Sample> | undefined {
  if (isEnumType(type)) {
    const values = type.getValues().map((v) => v.name);
    return fc.oneof(
      // A string literal where an enum is expected, and names that are not values.
      fc.constantFrom(...values).map((name): Sample => ({ json: name, literal: JSON.stringify(name) })),
      fc
        .constantFrom(
          ...values.map((v) => v.toLowerCase()),
          'URGENT',
          '',
          `${values[0]} `,
          `${values[0]}\u0000`,
          '__proto__',
          'true',
          'null',
        )
        .map((name): Sample => ({ json: name, literal: NAME.test(name) ? name : JSON.stringify(name) })),
      fc.constantFrom<Sample>({ json: 1, literal: '1' }, { json: [values[0]], literal: `[${values[0]}]` }),
    );
  }
  if (isScalarType(type)) {
    switch (type.name) {
      case 'Int':
        return looseInt;
      case 'Float':
        return looseFloat;
      case 'Boolean':
        return looseBoolean;
      case 'ID':
        return looseId;
      case 'String':
        return fc.oneof(looseText, samples(1, true, ['x'], { a: 'x' }));
      default:
        return undefined;
    }
  }
  return undefined;
}

/** A list of samples, with a literal when every item has one. */
function list(items: Sample[]): Sample {
  const literal = items.every((s) => s.literal !== undefined)
    ? `[${items.map((s) => s.literal).join(', ')}]`
    : undefined;
  return { json: items.map((s) => s.json), ...(literal === undefined ? {} : { literal }) };
}

function listSample(item: GraphQLInputType, options: ValueOptions): fc.Arbitrary<Sample> {
  const one = sampleFor(item, options);
  const many = (count: number): Sample =>
    list(Array.from({ length: count }, (_, i) => ({ json: `m${i}`, literal: `"m${i}"` })));
  const typed = fc.oneof(
    { arbitrary: fc.array(one, { maxLength: 3 }).map(list), weight: 6 },
    // A single value where a list is expected (coerced to a list of one).
    { arbitrary: one, weight: 1 },
    { arbitrary: fc.constantFrom(many(999), many(1000), many(1001)), weight: 1 },
  );
  if (options.typed) return typed;
  const nullItem: Sample = { json: null, literal: 'null' };
  return fc.oneof(
    { arbitrary: typed, weight: 4 },
    { arbitrary: one.map((s) => list([s, nullItem])), weight: 1 },
    { arbitrary: one.map((s) => list([list([s])])), weight: 1 },
  );
}

// ---------------------------------------------------------------------------------------------
// Long lists of bad items
// ---------------------------------------------------------------------------------------------

/** Around graphql-js's caps: 50 errors for variables (then one more), 100 for validation (then one more). */
const LONG_LIST_LENGTHS = [49, 50, 51, 52, 100, 101, 102, 150, 500];

/** Scalars that take any value: no item is of the wrong type. */
const TAKES_ANYTHING = new Set(['JSON']);

/** Items that are not of `item`'s type, as a variable's value and as a literal alike. */
function badItemsFor(item: GraphQLInputType): Sample[] {
  const name = getNamedType(item).name;
  const found: Sample[] = [];
  if (isNonNullType(item)) found.push({ json: null, literal: 'null' });
  if (TAKES_ANYTHING.has(name) || isListType(getNullableType(item))) return found;
  const named = getNamedType(item);
  const text = isScalarType(named) && !['Int', 'Float', 'Boolean', 'SafeInt'].includes(name);
  if (name !== 'Boolean') found.push({ json: true, literal: 'true' });
  if (name !== 'Float') found.push({ json: 1.5, literal: '1.5' });
  if (!text) found.push({ json: 'x', literal: '"x"' });
  found.push({ json: { bogus: [1] }, literal: '{bogus: [1]}' });
  return found;
}

/** Whether an argument of this type is a list that can be given items of the wrong type. */
export function takesLongBadLists(type: GraphQLInputType): boolean {
  const nullable = getNullableType(type);
  return isListType(nullable) && badItemsFor(nullable.ofType).length > 0;
}

/** LONG_LIST_LENGTHS items, each of the wrong type, one to all of the kinds taking turns. */
function longBadList(item: GraphQLInputType): fc.Arbitrary<Sample> {
  const bad = badItemsFor(item);
  if (bad.length === 0) throw new Error(`no item is of the wrong type for ${String(item)}`);
  return fc
    .tuple(fc.constantFrom(...LONG_LIST_LENGTHS), fc.subarray(bad, { minLength: 1 }))
    .map(([length, kinds]) => list(Array.from({ length }, (_, i) => kinds[i % kinds.length])));
}
