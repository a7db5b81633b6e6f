import { buildSchema, GraphQLError, parse, validate, type DocumentNode } from 'graphql';
import { DocumentCache, type DocumentCheck } from '../../src/security/document-cache';

const schema = buildSchema('type Query { a: Int b: Int }');

/** graphql-js's parse and validation, counting the texts parsed. */
function counted(): DocumentCheck & { parsed: string[] } {
  const parsed: string[] = [];
  return {
    parsed,
    parse(text) {
      parsed.push(text);
      try {
        return parse(text);
      } catch (error) {
        throw new GraphQLError((error as Error).message, { extensions: { code: 'GRAPHQL_PARSE_FAILED' } });
      }
    },
    validate: (document) => validate(schema, document),
  };
}

const isDocument = (value: DocumentNode | readonly GraphQLError[]): value is DocumentNode => 'kind' in value;

describe('DocumentCache', () => {
  it('keeps documents by text and drops the least recently used beyond its size', () => {
    const cache = new DocumentCache(100, counted());
    const texts = ['{ a }', '{ b }', '{ a b }'].map((t) => t.padEnd(20, ' '));
    for (const text of texts) cache.valid(text);
    expect(cache.valid(texts[1])).toEqual(parse(texts[1]));
    expect(cache.count).toBe(3);
    // texts[0] used again: texts[2] is now the oldest.
    cache.valid(texts[0]);
    for (let i = 0; i < 3; i++) cache.valid(`{ a } # ${i}`.padEnd(20 + i, ' '));
    // 20 * 4 + 21 + 22 = 123 > 100: the two least recently used go (texts[2], then texts[1]).
    expect(cache.count).toBe(4);
    expect(texts.map((text) => cache.has(text))).toEqual([true, false, false]);
    expect(cache.chars).toBe(20 + 20 + 21 + 22);
  });

  it('does not keep a text longer than a quarter of its size', () => {
    const check = counted();
    const cache = new DocumentCache(100, check);
    const text = `{ a ${' '.repeat(30)} }`;
    expect(isDocument(cache.valid(text))).toBe(true);
    expect(isDocument(cache.valid(text))).toBe(true);
    expect(cache.count).toBe(0);
    expect(check.parsed).toEqual([text, text]);
  });

  it('parses and validates a text once, and keeps what fails too, with its errors', () => {
    const check = counted();
    const cache = new DocumentCache(1000, check);
    const first = cache.valid('{ a }');
    expect(cache.valid('{ a }')).toBe(first);
    const invalid = cache.valid('{ nope }');
    expect(isDocument(invalid) ? [] : invalid.map((error) => error.message)).toEqual([
      'Cannot query field "nope" on type "Query".',
    ]);
    const broken = cache.valid('{ a');
    expect(isDocument(broken) ? [] : broken.map((error) => error.extensions.code)).toEqual(['GRAPHQL_PARSE_FAILED']);
    expect(cache.valid('{ nope }')).toBe(invalid);
    expect(cache.valid('{ a')).toBe(broken);
    expect(check.parsed).toEqual(['{ a }', '{ nope }', '{ a']);
    expect([cache.count, cache.chars]).toEqual([3, 5 + 8 + 3]);
  });

  it('stays within its size whatever number of distinct documents comes', () => {
    const cache = new DocumentCache(2_000, counted());
    let most = 0;
    let refused = 0;
    const text = (i: number) => `query Q${i} { a${' b'.repeat(i % 10)} }`;
    for (let i = 0; i < 1_000; i++) {
      if (!isDocument(cache.valid(text(i)))) refused++;
      most = Math.max(most, cache.chars);
    }
    expect(refused).toBe(0);
    expect(most).toBeLessThanOrEqual(2_000);
    expect(cache.chars).toBeGreaterThan(2_000 - 40);
    // The newest are kept, the first long gone.
    expect([999, 950, 0].map((i) => cache.has(text(i)))).toEqual([true, true, false]);
  });
});
