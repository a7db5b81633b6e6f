import { parse } from 'graphql';
import { DocumentCache } from '../../src/security/document-cache';

describe('DocumentCache', () => {
  it('keeps documents by text and drops the oldest beyond its size', () => {
    const cache = new DocumentCache(100);
    const texts = ['{ a }', '{ bb }', '{ ccc }'].map((t) => t.padEnd(20, ' '));
    for (const text of texts) cache.set(text, parse(text));
    expect(cache.get(texts[1])).toEqual(parse(texts[1]));
    expect(cache.count).toBe(3);
    for (let i = 0; i < 3; i++) cache.set(`{ x${i} }`.padEnd(20, ' '), parse(`{ x${i} }`));
    // 6 texts of 20 characters = 120 > 100: the oldest goes.
    expect(cache.count).toBe(5);
    expect(cache.get(texts[0])).toBeUndefined();
    expect(cache.get(texts[2])).toBeDefined();
  });

  it('does not keep a text longer than a quarter of its size', () => {
    const cache = new DocumentCache(100);
    const text = `{ ${'a'.repeat(30)} }`;
    cache.set(text, parse(text));
    expect(cache.get(text)).toBeUndefined();
    expect(cache.count).toBe(0);
  });
});
