// Queue key names are data a running deployment already holds: these are the names it wrote,
// letter for letter, for an ordinary queue and for the one queue kept in another domain's slot.
import { MARKET_SALES_QUEUE, marketKeys, queueKeys } from '../../src/redis/keys';

describe('queue key names', () => {
  it('names every key of an ordinary queue under its own tag {q:<name>}', () => {
    const keys = queueKeys('jobs');
    expect([keys.seq, keys.meta, keys.args, keys.results, keys.errors, keys.idempotency]).toEqual([
      'queue:{q:jobs}:seq',
      'queue:{q:jobs}:meta',
      'queue:{q:jobs}:args',
      'queue:{q:jobs}:results',
      'queue:{q:jobs}:errors',
      'queue:{q:jobs}:idem',
    ]);
    expect(keys.lists).toEqual([
      'queue:{q:jobs}:due:HIGH',
      'queue:{q:jobs}:ready:HIGH',
      'queue:{q:jobs}:due:NORMAL',
      'queue:{q:jobs}:ready:NORMAL',
      'queue:{q:jobs}:due:LOW',
      'queue:{q:jobs}:ready:LOW',
    ]);
    expect([keys.workerWake, keys.pollerWake, keys.schedules, keys.changed(7)]).toEqual([
      'queue:{q:jobs}:wake:worker',
      'queue:{q:jobs}:wake:poller',
      'queue:{q:jobs}:schedules',
      'TASK_CHANGED:{q:jobs}:7',
    ]);
  });

  it("keeps the market's sale queue in the market's slot, its keys named after the queue", () => {
    expect(MARKET_SALES_QUEUE).toBe('market-sales');
    const keys = queueKeys(MARKET_SALES_QUEUE);
    expect([keys.seq, keys.meta, keys.args, keys.lists[3], keys.workerWake, keys.delayed, keys.changed(12)]).toEqual([
      'queue:{market}:market-sales:seq',
      'queue:{market}:market-sales:meta',
      'queue:{market}:market-sales:args',
      'queue:{market}:market-sales:ready:NORMAL',
      'queue:{market}:market-sales:wake:worker',
      'queue:{market}:market-sales:delayed',
      'TASK_CHANGED:{market}:12',
    ]);
    expect([marketKeys.listings(), marketKeys.user('ann'), marketKeys.saleIds(), marketKeys.changed()]).toEqual([
      'market:{market}:listings',
      'market:{market}:user:ann',
      'market:{market}:sale-ids',
      'MARKET_CHANGED:{market}',
    ]);
  });

  it('gives a queue named like the market, or like the sale queue in other case, a slot of its own', () => {
    expect(queueKeys('market').seq).toBe('queue:{q:market}:seq');
    expect(queueKeys('Market-Sales').seq).toBe('queue:{q:Market-Sales}:seq');
  });
});
