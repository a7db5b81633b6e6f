// Cutting log bytes into chunks at line ends, and tallying a chunk's lines: line counts that
// agree whatever the byte pieces, bounded memory for lines without an end, and the checks on
// each field of a line.
import { countLines, LineChunker, LINE_MAX } from '../../src/geo/chunker';
import { isDay, tallyChunk } from '../../src/geo/tally';
import { lazyLocator } from '../../src/geo/ip-locator';

const locator = lazyLocator([]);

/** Feeds `text` in pieces of `piece` bytes and returns the chunks' texts and line counts. */
function cut(text: Buffer, piece: number, chunkBytes: number): { text: string; lines: number }[] {
  const chunker = new LineChunker(chunkBytes);
  const out = [];
  for (let at = 0; at < text.length; at += piece) out.push(...chunker.push(text.subarray(at, at + piece)));
  out.push(...chunker.end());
  return out.map((chunk) => ({ text: chunk.data.toString('latin1'), lines: chunk.lines }));
}

describe('LineChunker', () => {
  const lines = Array.from({ length: 1000 }, (_, i) => `line ${i} ${'x'.repeat(i % 37)}`);
  const text = Buffer.from(lines.join('\n') + '\n');

  it.each([1, 7, 100, 4096, text.length])('cuts at line ends whatever the pieces (%i bytes at a time)', (piece) => {
    const chunks = cut(text, piece, 1000);
    expect(chunks.map((c) => c.text).join('')).toBe(text.toString('latin1'));
    expect(chunks.reduce((sum, c) => sum + c.lines, 0)).toBe(1000);
    for (const chunk of chunks) {
      expect(chunk.text.endsWith('\n')).toBe(true);
      expect(chunk.lines).toBe(countLines(Buffer.from(chunk.text, 'latin1')));
    }
    // Chunks are about chunkBytes: none above it by more than a line, and all but the last near it.
    for (const chunk of chunks.slice(0, -1)) expect(chunk.text.length).toBeGreaterThan(1000 - 60);
    for (const chunk of chunks) expect(chunk.text.length).toBeLessThanOrEqual(1000);
  });

  it('counts a last line without a newline, and an empty input as nothing', () => {
    expect(cut(Buffer.from('a\nb'), 1, 100)).toEqual([{ text: 'a\nb', lines: 2 }]);
    expect(cut(Buffer.from('a\n\n'), 2, 100)).toEqual([{ text: 'a\n\n', lines: 2 }]);
    expect(cut(Buffer.alloc(0), 1, 100)).toEqual([]);
  });

  it('keeps only LINE_MAX bytes of a line without an end, and still counts it as one line', () => {
    const long = Buffer.concat([Buffer.from('first\n'), Buffer.alloc(10 * LINE_MAX, 0xff), Buffer.from('\nlast\n')]);
    const chunks = cut(long, 1000, 1 << 20);
    expect(chunks).toHaveLength(1);
    expect(chunks[0].lines).toBe(3);
    expect(chunks[0].text.length).toBe(6 + LINE_MAX + 1 + 5);
    // Binary garbage with no newline at all: bounded, one line.
    const garbage = cut(Buffer.alloc(1 << 20, 0x00), 4096, 1 << 20);
    expect(garbage).toEqual([{ text: '\u0000'.repeat(LINE_MAX), lines: 1 }]);
  });
});

describe('tallyChunk', () => {
  it('counts valid lines by day and place and refuses each kind of bad line with its number', async () => {
    const text = [
      '173.194.38.137 2011-10-10 13:55:36 achievement-762',
      '173.194.38.137 2011-10-10 13:55:37', // no action: still a visit
      '2001:4860:4860::8888 2011-10-11 00:00:00 x\r', // CRLF line ends
      '10.0.0.1 2011-10-11 00:00:00 private',
      '8.8.8.8 2011-10-10 1:2:3 bad-time',
      '8.8.8.8 2012-02-30 00:00:00 bad-day',
      '8.8.8.8 1969-12-31 00:00:00 too-early',
      '300.1.1.1 2011-10-10 00:00:00 bad-ip',
      'fe80::1%eth0 2011-10-10 00:00:00 zone',
      'nothing-here',
      'x'.repeat(LINE_MAX),
    ].join('\n');
    const tally = await tallyChunk(Buffer.from(text), 101, locator(), 3);
    expect(tally.lines).toBe(11);
    expect(tally.refused).toBe(7);
    expect(tally.samples.map((s) => [s.line, s.reason])).toEqual([
      [105, 'BAD_TIME'],
      [106, 'BAD_DATE'],
      [107, 'BAD_DATE'],
    ]);
    const first = tally.days.get('2011-10-10')!;
    expect(first.visits).toBe(2);
    expect([...first.countries]).toEqual([['US', 2]]);
    expect([...first.cities.get('US\tCalifornia')!]).toEqual([['Mountain View', 2]]);
    const second = tally.days.get('2011-10-11')!;
    expect(second).toMatchObject({ visits: 2, unknown: 1 });
    expect([...second.regions.get('CA')!]).toEqual([['Quebec', 1]]);
  });

  it('knows real calendar days', () => {
    expect(['2000-02-29', '2011-10-10', '1970-01-01', '2099-12-31'].map(isDay)).toEqual([true, true, true, true]);
    expect(['1900-02-29', '2011-02-29', '2011-04-31', '2011-1-01', '2100-01-01', '2011-10-10x'].map(isDay)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
