// The soak's lease checks (bench/soak/leases.ts) on made-up holds: they must find a double grant
// or a token out of order when there is one, and not when a holder merely answered late.
import { overlaps, tokenOrder, type Hold } from '../../bench/soak/leases';
import { keptBytes, MemorySampler, shapeOf } from '../../bench/soak/memory';

const hold = (fencingToken: number, asked: number, granted: number, released: number): Hold => ({
  fencingToken,
  asked,
  granted,
  released,
});

describe('the soak lease checks', () => {
  it('finds two lock holders whose certain holds overlap, and none in holds that only touch', () => {
    expect(overlaps([hold(1, 0, 10, 50), hold(2, 20, 60, 90)], 1)).toEqual([]);
    expect(overlaps([hold(1, 0, 10, 50), hold(2, 40, 50, 90)], 1)).toEqual([]);
    const found = overlaps([hold(1, 0, 10, 50), hold(2, 20, 40, 90)], 1);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/tokens 1, 2$/);
  });

  it('counts holders against a semaphore limit', () => {
    const three = [hold(1, 0, 10, 100), hold(2, 0, 20, 100), hold(3, 0, 30, 100)];
    expect(overlaps(three, 3)).toEqual([]);
    expect(overlaps([...three, hold(4, 0, 40, 100)], 3)).toEqual([expect.stringMatching(/tokens 1, 2, 3, 4$/)]);
  });

  it('cuts a hold whose release came late at the lease lapse counted from the request (3 s)', () => {
    // Holder 1 asked at 0 and released only at 10 s: its lease had lapsed at 3 s at the latest,
    // so a grant to holder 2 at 3.5 s is no overlap; one at 2.5 s is.
    expect(overlaps([hold(1, 0, 10, 10_000), hold(2, 3000, 3500, 3600)], 1)).toEqual([]);
    expect(overlaps([hold(1, 0, 10, 10_000), hold(2, 2000, 2500, 2600)], 1)).toHaveLength(1);
  });

  it('finds a token given twice, and a higher token that arrived before a lower one was asked for', () => {
    expect(tokenOrder([hold(1, 0, 10, 20), hold(2, 15, 25, 30)], 'lock')).toEqual([]);
    expect(tokenOrder([hold(1, 0, 10, 20), hold(1, 15, 25, 30)], 'lock')).toEqual(['lock token 1 granted twice']);
    expect(tokenOrder([hold(1, 30, 40, 50), hold(2, 0, 10, 20)], 'lock')).toEqual([
      'lock token 2 arrived before token 1 was asked for',
    ]);
    // Not only between neighbours: token 3 arrived before token 1 was asked for.
    expect(tokenOrder([hold(1, 10, 20, 25), hold(2, 0, 30, 35), hold(3, 1, 5, 8)], 'lock')).toEqual([
      'lock token 3 arrived before token 1 was asked for',
    ]);
  });
});

describe('the soak keyspace shapes', () => {
  it('groups keys by shape: hash tag and ids replaced, a precision kept', () => {
    expect(shapeOf('chat:{c12}:sent')).toBe('chat:{…}:sent');
    expect(shapeOf('ctr:{ctr-3}:s:60:soak-1-hits')).toBe('ctr:{…}:s:60');
    expect(shapeOf('market:{market}:inv:soak-77-trader1')).toBe('market:{…}:inv:…');
    expect(shapeOf('queue:{q:soak-5}:meta')).toBe('queue:{…}:meta');
  });
});

describe('the soak memory curve', () => {
  afterEach(() => jest.useRealTimers());

  it('gives each series its mean per whole minute, null where it has no sample', () => {
    jest.useFakeTimers({ now: 0 });
    const memory = new MemorySampler();
    const at = (seconds: number, name: string, mb: number): void => {
      jest.setSystemTime(seconds * 1000);
      memory.add(name, mb * 2 ** 20);
    };
    at(10, 'a', 100);
    at(50, 'a', 110);
    at(70, 'a', 120);
    at(130, 'b', 7);
    expect(memory.curve()).toEqual({
      minutes: [1, 2, 3],
      series: [
        { name: 'a', mb: [105, 120, null] },
        { name: 'b', mb: [null, null, 7] },
      ],
    });
  });

  it('counts the kept task history and chat dedupe records by key shape', () => {
    const kept = keptBytes([
      { shape: 'queue:{…}:meta', keys: 1, bytes: 1000 },
      { shape: 'queue:{…}:done', keys: 1, bytes: 500 },
      { shape: 'chat:{…}:sent', keys: 4, bytes: 300 },
      { shape: 'chat:{…}:sent-exp', keys: 4, bytes: 200 },
      { shape: 'chat:{…}:msgs', keys: 4, bytes: 9000 },
    ]);
    expect(kept).toEqual({ taskHistory: 1500, chatDedupe: 500 });
  });
});
