// Case folding and the input rules autocomplete relies on.
import { foldCase } from '../../src/common/case-fold';
import { validName, validPrefix } from '../../src/common/validation';

describe('foldCase', () => {
  it.each([
    ['Alice', 'alice'],
    ['ÉLOÏSE', 'éloïse'],
    ['Straße', 'strasse'],
    ['STRAẞE', 'strasse'],
    ['ﬁnn', 'finn'],
    ['ΟΔΟΣ', 'οδοσ'],
    ['οδος', 'οδοσ'],
    ['Ÿvonne', 'ÿvonne'],
    ['王小明', '王小明'],
    ['🙂Fan', '🙂fan'],
    ['E\u0301', 'é'],
  ])('folds %s to %s', (text, folded) => {
    expect(foldCase(text)).toBe(folded);
  });

  it('folds every letter, digit and mark like its lower and upper case, and folding twice changes nothing', () => {
    const differing: string[] = [];
    for (let code = 0; code <= 0x10ffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const character = String.fromCodePoint(code).normalize('NFC');
      if (!/^[\p{L}\p{N}\p{M}]+$/u.test(character)) continue;
      const folded = foldCase(character);
      const lower = foldCase(character.toLowerCase().normalize('NFC'));
      const upper = foldCase(character.toUpperCase().normalize('NFC'));
      if (lower !== folded || upper !== folded || foldCase(folded) !== folded) differing.push(code.toString(16));
    }
    expect(differing).toEqual([]);
  });

  it('gives a prefix and the names it starts the same fold at the front', () => {
    for (const [prefix, name] of [
      ['STRASSE', 'Straße'],
      ['straß', 'STRAẞE'],
      ['οδοσ', 'ΟΔΟΣΑ'],
      ['ÉL', 'éloïse'],
      ['x-', 'X-Ray'],
    ]) {
      expect(foldCase(name).startsWith(foldCase(prefix))).toBe(true);
    }
    expect(foldCase('zoë').startsWith(foldCase('zoe'))).toBe(false);
  });
});

describe('names and prefixes', () => {
  it('accepts emoji in names, but a zero-width joiner only inside an emoji sequence', () => {
    expect(validName('🙂fan', 'n')).toBe('🙂fan');
    expect(validName('👨‍👩‍👧', 'n')).toBe('👨‍👩‍👧');
    expect(validName('🇫🇷x', 'n')).toBe('🇫🇷x');
    expect(validName('👍🏽', 'n')).toBe('👍🏽');
    expect(validName('❤️‍🔥', 'n')).toBe('❤️‍🔥');
    for (const spoof of ['a\u200Db', 'a\u200D', '\u200D🙂', 'x\u200D\u200D🙂', 'a\uFE0F\u200D🙂']) {
      expect(() => validName(spoof, 'n')).toThrow(expect.objectContaining({ code: 'BAD_USER_INPUT' }));
    }
  });

  it('takes any printable prefix, empty included, and refuses control and direction characters', () => {
    for (const prefix of ['', '[', '(', '-', '+', '{', '\xff', 'a b', '*?', 'p'.repeat(128)])
      expect(validPrefix(prefix, 'prefix')).toBe(prefix);
    expect(validPrefix('e\u0301', 'prefix')).toBe('é');
    for (const bad of ['a\u0000', '\t', '\n', '\u0085', '\u202E', '\u2067', '\u200F', '\uD800', 'p'.repeat(129)]) {
      expect(() => validPrefix(bad, 'prefix')).toThrow(expect.objectContaining({ code: 'BAD_USER_INPUT' }));
    }
  });
});
