// The benchmark harness's round loop (bench/harness/rounds.ts): the order peers take their turns
// in, which rounds count as measured, and when a warm-up counts as steady. Every suite's figures
// rest on these, so they are pinned here.
import { alternate, inParallel, size, untilSteady } from '../../bench/harness/rounds';
import { pairedRatio } from '../../bench/harness/suite';

describe('bench harness rounds', () => {
  const quiet = jest.spyOn(console, 'log').mockImplementation(() => undefined);
  afterAll(() => quiet.mockRestore());

  it('runs one warm-up round of a quarter size, then the measured rounds with the peers in turn', async () => {
    const calls: string[] = [];
    const { measured, warm } = await alternate({
      peers: ['book', 'ours'] as const,
      rounds: 3,
      run: async (peer, round) => {
        calls.push(`${round.index}:${peer}:${round.size(100)}`);
        return round.index * 10 + (peer === 'ours' ? 1 : 0);
      },
    });
    expect(calls).toEqual([
      '0:book:25',
      '0:ours:25',
      '1:book:100',
      '1:ours:100',
      '2:book:100',
      '2:ours:100',
      '3:book:100',
      '3:ours:100',
    ]);
    expect(measured).toEqual({ book: [10, 20, 30], ours: [11, 21, 31] });
    expect(warm.book.results).toEqual([0]);
    expect(warm.ours.results).toEqual([1]);
  });

  it('rotates the order each round when asked, and runs no warm-up with none', async () => {
    const calls: string[] = [];
    await alternate({
      peers: ['a', 'b', 'c'] as const,
      rounds: 3,
      rotate: true,
      warmUp: 'none',
      run: async (peer, round) => void calls.push(`${round.index}${peer}`),
    });
    expect(calls).toEqual(['1b', '1c', '1a', '2c', '2a', '2b', '3a', '3b', '3c']);
  });

  it('warms each peer up until two rounds agree and enough work was done, before any measured round', async () => {
    const rates = { a: [100, 150, 200, 205, 300], b: [50, 52] };
    const calls: string[] = [];
    const { measured, warm } = await alternate({
      peers: ['a', 'b'] as const,
      rounds: 2,
      warmUp: { rate: (r: number) => r, agree: 0.1, work: () => 10, minWork: 20, maxRounds: 10 },
      run: async (peer, round) => {
        calls.push(`${round.warm ? 'w' : round.index}${peer}`);
        return round.warm ? rates[peer].shift()! : 1;
      },
    });
    expect(warm.a).toEqual({ results: [100, 150, 200, 205], steady: true });
    expect(warm.b).toEqual({ results: [50, 52], steady: true });
    expect(calls).toEqual(['wa', 'wa', 'wa', 'wa', 'wb', 'wb', '1a', '1b', '2a', '2b']);
    expect(measured).toEqual({ a: [1, 1], b: [1, 1] });
  });

  it('stops a warm-up that never settles at its cap and says so', async () => {
    let rate = 1;
    const result = await untilSteady({ rate: (r: number) => r, agree: 0.1, maxRounds: 4 }, async () => (rate *= 2));
    expect(result).toEqual({ results: [2, 4, 8, 16], steady: false });
  });

  it('takes a ratio round by round, not of the medians', () => {
    expect(pairedRatio([10, 30, 20], [5, 10, 20])).toEqual({ value: 2, spread: { min: 1, max: 3 } });
    expect(() => pairedRatio([1, 2], [1])).toThrow('paired rounds differ in number');
  });

  it('runs every task once with no more than the given number in flight', async () => {
    let running = 0;
    let most = 0;
    const done: number[] = [];
    await inParallel(25, 4, async (i) => {
      most = Math.max(most, ++running);
      await new Promise((resolve) => setImmediate(resolve));
      done.push(i);
      running--;
    });
    expect(done.sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i));
    expect(most).toBe(4);
  });

  it('takes a size from the environment before the quick or full default', () => {
    process.env.BENCH_TEST_SIZE = '7';
    expect(size('BENCH_TEST_SIZE', 1, 2)).toBe(7);
    delete process.env.BENCH_TEST_SIZE;
    process.env.BENCH_QUICK = '1';
    expect(size('BENCH_TEST_SIZE', 1, 2)).toBe(1);
    delete process.env.BENCH_QUICK;
    const quickFlag = process.env.npm_config_quick;
    delete process.env.npm_config_quick;
    expect(size('BENCH_TEST_SIZE', 1, 2)).toBe(process.argv.includes('--quick') ? 1 : 2);
    if (quickFlag !== undefined) process.env.npm_config_quick = quickFlag;
  });
});
