// What the domain suites share in the harness (bench/harness/support.ts, suite.ts, rounds.ts): callers in flight that
// know their slot, whose connection they use, and tables given column by column. The suites'
// per-caller connections (WATCH needs one each) and their summary tables rest on these.
import { SuiteReport } from '../../bench/harness/suite';
import { inParallel, mean, sumOf } from '../../bench/harness';

describe('bench harness helpers', () => {
  const quiet = jest.spyOn(console, 'log').mockImplementation(() => undefined);
  afterAll(() => quiet.mockRestore());

  it('runs every call once, never more than the concurrency at a time, each slot taking the next', async () => {
    const seen: [number, number][] = [];
    let running = 0;
    let most = 0;
    const slotsBusy = new Set<number>();
    await inParallel(10, 3, async (i, slot) => {
      expect(slotsBusy.has(slot)).toBe(false);
      slotsBusy.add(slot);
      most = Math.max(most, ++running);
      seen.push([i, slot]);
      await new Promise<void>((resolve) => setImmediate(resolve));
      running--;
      slotsBusy.delete(slot);
    });
    expect(seen.map(([i]) => i)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(seen.slice(0, 3).map(([, slot]) => slot)).toEqual([0, 1, 2]);
    expect(new Set(seen.map(([, slot]) => slot))).toEqual(new Set([0, 1, 2]));
    expect(most).toBe(3);
  });

  it('starts no more slots than there are calls', async () => {
    const slots: number[] = [];
    await inParallel(2, 8, async (_, slot) => void slots.push(slot));
    expect(slots).toEqual([0, 1]);
    await inParallel(0, 8, async () => {
      throw new Error('no call expected');
    });
  });

  it('builds a table from columns: headers in order, one row per item, cells by column', () => {
    const report = new SuiteReport();
    const items = [
      { name: 'ours', rate: 1500.4 },
      { name: 'book', rate: 99.6 },
    ];
    report.tableOf('rates', 1, items, [
      ['peer', (item) => item.name],
      ['ops/s', (item) => item.rate.toFixed(0)],
    ]);
    expect(report.tables).toEqual([
      {
        title: 'rates',
        header: ['peer', 'ops/s'],
        rows: [
          ['ours', '1500'],
          ['book', '100'],
        ],
      },
    ]);
  });

  it('sums and averages', () => {
    expect(sumOf([{ n: 2 }, { n: 5 }], (x) => x.n)).toBe(7);
    expect(mean([1, 2, 6])).toBe(3);
  });
});
