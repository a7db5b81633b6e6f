// JSON values as the fuzzer sends them and their GraphQL literals: RawJson for values built as
// text (40,000 levels deep would be slow or impossible to build and stringify as objects), the
// JSON serialiser that splices them in, and the printers of string, number and value literals.

/** JSON text sent as is, for values that JSON.stringify would build slowly or not at all (40,000 levels). */
export class RawJson {
  constructor(
    readonly json: string,
    readonly literal: string,
    readonly label: string,
  ) {}
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json } | RawJson;

/** JSON text of a value that may hold RawJson parts; `undefined` members are left out as JSON does. */
export function toJsonText(value: Json | undefined): string {
  if (value instanceof RawJson) return value.json;
  if (value === null || value === undefined || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map((item) => toJsonText(item)).join(',')}]`;
  const members = Object.entries(value).filter(([, member]) => member !== undefined);
  return `{${members.map(([key, member]) => `${JSON.stringify(key)}:${toJsonText(member)}`).join(',')}}`;
}

/** A GraphQL name, which may stand as an enum literal or an object field. */
export const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

export type StringStyle = 'escaped' | 'block' | 'raw';

/** A GraphQL string literal: JSON's escapes, a block string, or raw text (only quote and backslash escaped). */
export function stringLiteral(text: string, style: StringStyle = 'escaped'): string {
  if (style === 'block' && !text.includes('"""') && !text.endsWith('"') && !text.endsWith('\\')) return `"""${text}"""`;
  if (style === 'raw') return `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
  return JSON.stringify(text);
}

/** A number as GraphQL writes it: integers as IntValue, the rest as FloatValue (NaN and infinities as names). */
function numberLiteral(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
  if (Object.is(value, -0)) return '-0';
  return String(value);
}

/** The literal of a JSON value (object keys that are not GraphQL names are renamed `_<n>`). */
export function jsonLiteral(value: Json): string {
  if (value instanceof RawJson) return value.literal;
  if (value === null) return 'null';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return numberLiteral(value);
  if (typeof value === 'string') return stringLiteral(value);
  if (Array.isArray(value)) return `[${value.map(jsonLiteral).join(', ')}]`;
  return `{${Object.entries(value)
    .map(([key, member], i) => `${NAME.test(key) ? key : `_${i}`}: ${jsonLiteral(member)}`)
    .join(', ')}}`;
}

// Values built as text: deep, wide, big.

export function deepArray(levels: number): RawJson {
  return new RawJson(
    `${'['.repeat(levels)}${']'.repeat(levels)}`,
    `${'['.repeat(levels)}${']'.repeat(levels)}`,
    `[[…${levels} deep…]]`,
  );
}

export function deepObject(levels: number): RawJson {
  return new RawJson(
    `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`,
    `${'{a:'.repeat(levels)}1${'}'.repeat(levels)}`,
    `{a:{a:…${levels} deep…}}`,
  );
}

/** Arrays and objects nested in turn, `levels` deep. */
export function deepMixed(levels: number): RawJson {
  let open = '';
  let close = '';
  for (let i = 0; i < levels; i++) {
    open += i % 2 === 0 ? '[' : '{"a":';
    close = (i % 2 === 0 ? ']' : '}') + close;
  }
  const literal = open.replace(/"a"/g, 'a');
  return new RawJson(
    `${open}${levels % 2 === 0 ? '1' : ''}${close}`,
    `${literal}${levels % 2 === 0 ? '1' : ''}${close}`,
    `[{a:[…${levels} deep, mixed…]}]`,
  );
}

export const wideArray = (count: number): RawJson => {
  const text = `[${Array(count).fill('0').join(',')}]`;
  return new RawJson(text, text, `[0, 0, …${count} wide]`);
};

export const wideObject = (count: number): RawJson => {
  const members = Array.from({ length: count }, (_, i) => `"k${i}":${i}`);
  return new RawJson(
    `{${members.join(',')}}`,
    `{${members.map((m) => m.replace(/"/g, '')).join(',')}}`,
    `{k0: 0, …${count} keys}`,
  );
};

export const bigString = (length: number): RawJson =>
  new RawJson(JSON.stringify('x'.repeat(length)), JSON.stringify('x'.repeat(length)), `"x"×${length}`);
