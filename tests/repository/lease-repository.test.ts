// Locks and semaphores against a real redis-server: the Lua scripts, and waiting in turn, with
// concurrent callers on separate connections. Every "at most L holders" check is made by the
// test itself, from what each caller was told, not by the code under test.
import Redis from 'ioredis';
import pino from 'pino';
import { AppError } from '../../src/common/errors';
import { leaseKeys } from '../../src/redis/keys';
import { LeaseRepository, newLeaseId, type Attempt, type Lease } from '../../src/redis/leases/repository';
import { LeaseSignals } from '../../src/redis/leases/signals';
import { LeaseAcquirer, type WaitTiming } from '../../src/redis/leases/acquirer';
import { eventually } from '../support/graphql';
import { itSingle, listen, scriptClient, startTestRedis, withSubscribersDown, type TestRedis } from '../support/redis';
import { setTimeout as sleep } from 'node:timers/promises';

let redis: TestRedis;
const signalSets: LeaseSignals[] = [];
const shutdown = new AbortController();
const SETTINGS = { maxWaiters: 1000 };

const connection = (): Redis => scriptClient(redis);

/**
 * Waiters here ask again only once a minute on their own, so a test that needs a wake-up which
 * never comes times out instead of passing on polling.
 */
const WAKE_ONLY: WaitTiming = { pollMs: 60_000, holdMs: 300_000 };

/** One "API instance": a command connection, a subscriber connection and an acquirer per kind. */
function instance(kind: 'lock' | 'semaphore', settings = SETTINGS, client = connection()): LeaseAcquirer {
  // As the product makes a subscriber connection (connection.ts): no ready check, which ioredis 5
  // can send after the first SUBSCRIBE and then reconnect, losing a release notice (ioredis#2037).
  const subscriber = redis.newClient({ enableReadyCheck: false });
  const signals = new LeaseSignals(subscriber, pino({ level: 'silent' }), 50);
  signalSets.push(signals);
  return new LeaseAcquirer(new LeaseRepository(client, kind, settings), signals, shutdown.signal, WAKE_ONLY);
}

beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
  shutdown.abort();
  for (const signals of signalSets) signals.close();
  await redis.stop();
});
beforeEach(async () => {
  await redis.client.flushdb();
});

async function waitingCount(repository: LeaseRepository, name: string): Promise<number> {
  return (await repository.state(name, 10)).waiting;
}

/** The shared poll, at this file's pace: every 10 ms for up to 5 s. */
const until = (probe: () => Promise<boolean>): Promise<void> => eventually(probe, 5000, 10);

describe('a counting semaphore', () => {
  it('never has more than `limit` holders: 200 callers, limit 5, 5 rounds, over 4 instances', async () => {
    const instances = [0, 1, 2, 3].map(() => instance('semaphore'));
    const limit = 5;
    let inside = 0;
    let most = 0;
    const fences: number[] = [];
    let releasedTrue = 0;

    await Promise.all(
      Array.from({ length: 200 }, async (_, caller) => {
        const acquirer = instances[caller % instances.length];
        for (let round = 0; round < 5; round += 1) {
          const lease = await acquirer.acquire({
            name: 'pool',
            limit,
            ttlMs: 60_000,
            owner: `c${caller}`,
            waitMs: 30_000,
          });
          if (!lease) throw new Error(`caller ${caller} got no slot in round ${round}`);
          inside += 1;
          most = Math.max(most, inside);
          fences.push(lease.fencingToken);
          await sleep(Math.random() * 3);
          inside -= 1;
          if (await acquirer.repository.release('pool', lease.id)) releasedTrue += 1;
        }
      }),
    );

    expect(most).toBe(limit); // full use, and never more
    expect(fences).toHaveLength(1000);
    expect([...fences].sort((a, b) => a - b)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
    expect(releasedTrue).toBe(1000);
    const state = await instances[0].repository.state('pool', 100);
    expect(state).toMatchObject({ holders: [], waiting: 0, limit: 5, lastFencingToken: 1000 });
    const keys = leaseKeys('semaphore', 'pool');
    expect(await redis.client.exists(keys.holders, keys.leases, keys.queue, keys.queueExpiry, keys.solo)).toBe(0);
  });

  it('grants exactly `limit` of 200 simultaneous fail-fast callers', async () => {
    const instances = [0, 1, 2, 3].map(() => instance('semaphore'));
    const leases = await Promise.all(
      Array.from({ length: 200 }, (_, caller) =>
        instances[caller % 4].acquire({ name: 'burst', limit: 5, ttlMs: 60_000, owner: 'svc', waitMs: 0 }),
      ),
    );
    const granted = leases.filter((lease): lease is Lease => lease !== undefined);
    expect(granted).toHaveLength(5);
    expect(granted.map((lease) => lease.fencingToken).sort()).toEqual([1, 2, 3, 4, 5]);
    const state = await instances[0].repository.state('burst', 100);
    expect(state.holders).toHaveLength(5);
    expect(state.waiting).toBe(0);
  });

  it('serves queued callers in the order they asked, and a fail-fast caller does not jump the queue', async () => {
    const repository = new LeaseRepository(connection(), 'semaphore', SETTINGS);
    const ask = (id: string, holdMs: number) =>
      repository.attempt({ name: 's', id, limit: 2, ttlMs: 60_000, owner: 'svc', holdMs });
    const [a, b, c, d, e] = [newLeaseId(), newLeaseId(), newLeaseId(), newLeaseId(), newLeaseId()];
    expect((await ask(a, 0)).granted).toBe(true);
    expect((await ask(b, 0)).granted).toBe(true);
    const cQueued = await ask(c, 10_000);
    const dQueued = await ask(d, 10_000);
    expect(cQueued).toMatchObject({ granted: false, ticket: 1, ahead: 0 });
    expect(dQueued).toMatchObject({ granted: false, ticket: 2, ahead: 1 });
    // retryAfter is when the first holder's time runs out, by the server's clock.
    expect(cQueued.granted === false && cQueued.retryAfterMs).toBeGreaterThan(59_000);

    expect(await repository.release('s', a)).toBe(true);
    // A slot is free, but c asked first: a newcomer that will not wait gets nothing...
    expect(await ask(e, 0)).toMatchObject({ granted: false, ticket: 0, ahead: 2, retryAfterMs: undefined });
    // ...nor does d, who is second in line.
    expect((await ask(d, 10_000)).granted).toBe(false);
    expect((await ask(c, 10_000)).granted).toBe(true);
    expect(await repository.release('s', b)).toBe(true);
    const dGranted = await ask(d, 10_000);
    expect(dGranted).toMatchObject({ granted: true });
    expect(dGranted.granted && dGranted.lease.fencingToken).toBe(4);
    expect(await waitingCount(repository, 's')).toBe(0);
  });

  it('lets callers queued within the number of free slots go together', async () => {
    const repository = new LeaseRepository(connection(), 'semaphore', SETTINGS);
    const ask = (id: string) =>
      repository.attempt({ name: 'wide', id, limit: 3, ttlMs: 60_000, owner: 'svc', holdMs: 10_000 });
    const holders = [newLeaseId(), newLeaseId(), newLeaseId()];
    for (const id of holders) expect((await ask(id)).granted).toBe(true);
    const waiters = Array.from({ length: 4 }, () => newLeaseId());
    for (const id of waiters) expect((await ask(id)).granted).toBe(false);
    expect(await repository.release('wide', holders[0])).toBe(true);
    expect(await repository.release('wide', holders[1])).toBe(true);
    // Two slots are free: the first two in line may take them in either order; the third not.
    expect((await ask(waiters[2])).granted).toBe(false);
    expect((await ask(waiters[1])).granted).toBe(true);
    expect((await ask(waiters[2])).granted).toBe(false);
    expect((await ask(waiters[0])).granted).toBe(true);
    expect((await ask(waiters[2])).granted).toBe(false);
    expect((await repository.state('wide', 10)).waiting).toBe(2);
  });

  it('drops the place of a queued caller that stopped asking, so it cannot hold up the others', async () => {
    const repository = new LeaseRepository(connection(), 'semaphore', SETTINGS);
    const ask = (id: string, holdMs: number) =>
      repository.attempt({ name: 'lapse', id, limit: 1, ttlMs: 60_000, owner: 'svc', holdMs });
    const holder = newLeaseId();
    const dead = newLeaseId();
    expect((await ask(holder, 0)).granted).toBe(true);
    expect((await ask(dead, 1000)).granted).toBe(false);
    expect(await repository.release('lapse', holder)).toBe(true);
    expect((await ask(newLeaseId(), 0)).granted).toBe(false);
    await until(async () => (await waitingCount(repository, 'lapse')) === 0);
    expect((await ask(newLeaseId(), 0)).granted).toBe(true);
  });

  it('refuses to queue more than maxWaiters callers, and writes nothing then', async () => {
    const repository = new LeaseRepository(connection(), 'semaphore', { maxWaiters: 2 });
    const ask = (id: string) =>
      repository.attempt({ name: 'full', id, limit: 1, ttlMs: 60_000, owner: 'svc', holdMs: 10_000 });
    expect((await ask(newLeaseId())).granted).toBe(true);
    await ask(newLeaseId());
    await ask(newLeaseId());
    const error = await ask(newLeaseId()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'CONFLICT', details: { argument: 'name' } });
    expect(await redis.client.hget(leaseKeys('semaphore', 'full').state, 'ticket')).toBe('2');
    expect(await waitingCount(repository, 'full')).toBe(2);
  });

  it('refuses a different limit while the semaphore is in use, writing nothing, and accepts it once idle', async () => {
    const repository = new LeaseRepository(connection(), 'semaphore', SETTINGS);
    const ask = (id: string, limit: number, holdMs = 0) =>
      repository.attempt({ name: 'fixed', id, limit, ttlMs: 60_000, owner: 'svc', holdMs });
    const first = newLeaseId();
    expect((await ask(first, 2)).granted).toBe(true);
    expect((await ask(newLeaseId(), 2)).granted).toBe(true);
    await ask(newLeaseId(), 2, 10_000); // queued
    // A caller with a larger limit would otherwise jump the queue and exceed the limit in use.
    for (const limit of [1, 5]) {
      const error = await ask(newLeaseId(), limit).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'CONFLICT', details: { argument: 'limit' } });
      expect((error as Error).message).toMatch(/limit 2/);
    }
    expect(await redis.client.hget(leaseKeys('semaphore', 'fixed').state, 'limit')).toBe('2');
    const state = await repository.state('fixed', 10);
    expect(state.holders).toHaveLength(2);
    expect(state.waiting).toBe(1);

    await redis.client.del(leaseKeys('semaphore', 'fixed').holders, leaseKeys('semaphore', 'fixed').queue);
    expect((await ask(newLeaseId(), 5)).granted).toBe(true);
    expect(await redis.client.hget(leaseKeys('semaphore', 'fixed').state, 'limit')).toBe('5');
  });

  it('names a live waiter, not one whose place lapsed, when a slot is released', async () => {
    const repository = new LeaseRepository(connection(), 'semaphore', SETTINGS);
    const notices: { upTo: number }[] = [];
    await listen(redis, [repository.channel('lapsed')], (_channel, message) =>
      notices.push(JSON.parse(message) as { upTo: number }),
    );
    const ask = (id: string, holdMs: number) =>
      repository.attempt({ name: 'lapsed', id, limit: 1, ttlMs: 60_000, owner: 'svc', holdMs });
    const holder = newLeaseId();
    await ask(holder, 0);
    await ask(newLeaseId(), 100); // ticket 1, dies
    await ask(newLeaseId(), 60_000); // ticket 2, alive
    await sleep(150);
    expect(await repository.release('lapsed', holder)).toBe(true);
    await until(async () => notices.length === 1);
    expect(notices[0].upTo).toBe(2);
  });

  it('lists holders with their owner and fencing token but never their secret', async () => {
    const acquirer = instance('semaphore');
    const first = await acquirer.acquire({ name: 'shown', limit: 3, ttlMs: 20_000, owner: 'billing', waitMs: 0 });
    const second = await acquirer.acquire({ name: 'shown', limit: 3, ttlMs: 10_000, owner: 'reports', waitMs: 0 });
    const state = await acquirer.repository.state('shown', 10);
    expect(state.limit).toBe(3);
    expect(state.holders.map((h) => [h.owner, h.fencingToken])).toEqual([
      ['reports', 2],
      ['billing', 1],
    ]);
    expect(state.holders[0].expiresAt).toBe(second!.expiresAt);
    expect(state.holders[1].expiresAt).toBe(first!.expiresAt);
    expect(JSON.stringify(state)).not.toContain(first!.id);
  });
});

describe('a lock', () => {
  it('is held by one caller at a time, with fencing tokens rising in the order it was held', async () => {
    const instances = [0, 1, 2].map(() => instance('lock'));
    let inside = 0;
    let most = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 30 }, async (_, caller) => {
        const acquirer = instances[caller % 3];
        for (let round = 0; round < 10; round += 1) {
          const lease = await acquirer.acquire({
            name: 'mutex',
            limit: 1,
            ttlMs: 60_000,
            owner: 'svc',
            waitMs: 30_000,
          });
          if (!lease) throw new Error('no lock in time');
          inside += 1;
          most = Math.max(most, inside);
          order.push(lease.fencingToken);
          await sleep(Math.random() * 2);
          inside -= 1;
          expect(await acquirer.repository.release('mutex', lease.id)).toBe(true);
        }
      }),
    );
    expect(most).toBe(1);
    expect(order).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
  });

  it('is lost by a holder that stops refreshing: its refresh and release say so, and the next holder has a higher fence', async () => {
    const acquirer = instance('lock');
    const stalled = await acquirer.acquire({ name: 'job', limit: 1, ttlMs: 200, owner: 'svc', waitMs: 0 });
    expect(stalled).toBeDefined();
    await sleep(5);
    const refreshed = await acquirer.repository.refresh('job', stalled!.id);
    expect(refreshed).toMatchObject({ fencingToken: stalled!.fencingToken, ttlMs: 200 });
    expect(refreshed!.expiresAt).toBeGreaterThan(stalled!.expiresAt);
    // The refresh moved the expiry that Redis acts on (the only holder's key's), not only the one it reported.
    expect(await redis.client.call('PEXPIRETIME', leaseKeys('lock', 'job').solo)).toBe(refreshed!.expiresAt);

    // Someone else waits; they get the lock once the stalled holder's time is up.
    const next = await acquirer.acquire({ name: 'job', limit: 1, ttlMs: 10_000, owner: 'svc', waitMs: 5_000 });
    expect(next).toBeDefined();
    expect(next!.fencingToken).toBeGreaterThan(stalled!.fencingToken);
    expect(await acquirer.repository.refresh('job', stalled!.id)).toBeUndefined();
    expect(await acquirer.repository.release('job', stalled!.id)).toBe(false);
    // The stalled holder's late release took nothing from the new one.
    const state = await acquirer.repository.state('job', 1);
    expect(state.holders.map((h) => h.fencingToken)).toEqual([next!.fencingToken]);
  });

  it('refuses a release or refresh by a non-holder and leaves the holder in place', async () => {
    const acquirer = instance('lock');
    const holder = await acquirer.acquire({ name: 'mine', limit: 1, ttlMs: 10_000, owner: 'svc', waitMs: 0 });
    expect(await acquirer.repository.release('mine', newLeaseId())).toBe(false);
    expect(await acquirer.repository.refresh('mine', newLeaseId())).toBeUndefined();
    // The same token on another name is not the holder either.
    expect(await acquirer.repository.release('other', holder!.id)).toBe(false);
    expect((await acquirer.repository.state('mine', 1)).holders.map((h) => h.fencingToken)).toEqual([
      holder!.fencingToken,
    ]);
    expect(await acquirer.acquire({ name: 'mine', limit: 1, ttlMs: 10_000, owner: 'svc', waitMs: 0 })).toBeUndefined();
    expect(await acquirer.repository.release('mine', holder!.id)).toBe(true);
    expect(await acquirer.repository.release('mine', holder!.id)).toBe(false);
  });

  it('always has an expiry in Redis, and leaves only its fencing counter once free', async () => {
    const acquirer = instance('lock');
    const keys = leaseKeys('lock', 'ttl');
    const lease = await acquirer.acquire({ name: 'ttl', limit: 1, ttlMs: 5_000, owner: 'svc', waitMs: 0 });
    const soloTtl = await redis.client.pttl(keys.solo);
    expect(soloTtl).toBeGreaterThan(0);
    expect(soloTtl).toBeLessThanOrEqual(5_000);
    await acquirer.repository.refresh('ttl', lease!.id, 60_000);
    expect(await redis.client.pttl(keys.solo)).toBeGreaterThan(5_000);
    await acquirer.repository.release('ttl', lease!.id);
    expect(await redis.client.keys('lock:*')).toEqual([keys.state]);
    expect(await redis.client.hget(keys.state, 'fence')).toBe('1');
  });

  it('does not leave a slot held when the reply to its grant was lost to a timeout', async () => {
    const key = leaseKeys('lock', 'lost-reply').state;
    // A grant and release first, on a patient connection: the script is then cached on the node
    // that owns the key (a NOSCRIPT after the pause would never fall back to EVAL once the client
    // has given up), and the fence starts at 1.
    const patient = instance('lock');
    const first = await patient.acquire({ name: 'lost-reply', limit: 1, ttlMs: 60_000, owner: 'svc', waitMs: 0 });
    expect(await patient.repository.release('lost-reply', first!.id)).toBe(true);

    const impatient = scriptClient(redis, { commandTimeout: 100 });
    const acquirer = instance('lock', SETTINGS, impatient);
    // Connected first (on a cluster: slots known, the node's connection open), so the grant is
    // sent while writes are held. On a loaded machine connecting can itself take over 100 ms, so
    // this asks until one answer comes in time; only the grant below is meant to time out.
    await until(() =>
      impatient.exists(key).then(
        () => true,
        () => false,
      ),
    );
    // Redis holds writes for 1 s, ten times the client's patience: the grant runs after the
    // client has given up on it.
    await (await redis.nodeFor(key)).client('PAUSE', 1_000, 'WRITE');
    const failed = await acquirer
      .acquire({ name: 'lost-reply', limit: 1, ttlMs: 60_000, owner: 'svc', waitMs: 0 })
      .catch((e: unknown) => e);
    expect(String(failed)).toMatch(/timed out/i);
    // Checked on the patient connection: the impatient one would fail these reads on a busy machine.
    await until(async () => (await redis.client.hget(key, 'fence')) === '2');
    await until(async () => (await patient.repository.state('lost-reply', 1)).holders.length === 0);
    expect(await redis.client.exists(leaseKeys('lock', 'lost-reply').holders)).toBe(0);
  });

  it('announces a release on its channel with the server time and the tickets that may go', async () => {
    const repository = new LeaseRepository(connection(), 'lock', SETTINGS);
    const messages: string[] = [];
    await listen(redis, [repository.channel('announce')], (_channel, message) => messages.push(message));
    const holder = newLeaseId();
    await repository.attempt({ name: 'announce', id: holder, limit: 1, ttlMs: 10_000, owner: 'svc', holdMs: 0 });
    await repository.attempt({
      name: 'announce',
      id: newLeaseId(),
      limit: 1,
      ttlMs: 10_000,
      owner: 'svc',
      holdMs: 10_000,
    });
    const [seconds] = await redis.client.time();
    expect(await repository.release('announce', holder)).toBe(true);
    await until(async () => messages.length === 1);
    const notice = JSON.parse(messages[0]) as { name: string; releasedAt: number; upTo: number };
    expect(notice.name).toBe('announce');
    expect(notice.upTo).toBe(1);
    expect(Math.abs(notice.releasedAt - Number(seconds) * 1000)).toBeLessThan(5_000);
  });

  it('gives up waiting when the caller goes away, leaving the queue and taking nothing', async () => {
    const acquirer = instance('lock');
    const holder = await acquirer.acquire({ name: 'gone', limit: 1, ttlMs: 10_000, owner: 'svc', waitMs: 0 });
    const clientGone = new AbortController();
    const waiting = acquirer.acquire(
      { name: 'gone', limit: 1, ttlMs: 10_000, owner: 'svc', waitMs: 30_000 },
      clientGone.signal,
    );
    await until(async () => (await waitingCount(acquirer.repository, 'gone')) === 1);
    clientGone.abort();
    expect(await waiting).toBeUndefined();
    expect(await waitingCount(acquirer.repository, 'gone')).toBe(0);
    expect((await acquirer.repository.state('gone', 1)).holders.map((h) => h.fencingToken)).toEqual([
      holder!.fencingToken,
    ]);
  });

  it('asks nothing for a caller that is already gone, and gives back a slot granted after it went', async () => {
    const acquirer = instance('lock');
    const gone = new AbortController();
    gone.abort();
    expect(
      await acquirer.acquire({ name: 'late', limit: 1, ttlMs: 10_000, owner: 'svc', waitMs: 0 }, gone.signal),
    ).toBeUndefined();
    expect((await acquirer.repository.state('late', 1)).lastFencingToken).toBeUndefined();

    const goingAway = new AbortController();
    const pending = acquirer.acquire(
      { name: 'late', limit: 1, ttlMs: 10_000, owner: 'svc', waitMs: 0 },
      goingAway.signal,
    );
    goingAway.abort(); // the attempt is already on its way to Redis
    expect(await pending).toBeUndefined();
    const state = await acquirer.repository.state('late', 1);
    expect(state.holders).toEqual([]);
    expect(state.lastFencingToken).toBe(1);
  });

  it('wakes the next waiter when the one ahead of it gives up', async () => {
    const repository = new LeaseRepository(connection(), 'lock', SETTINGS);
    const acquirer = instance('lock');
    const holder = newLeaseId();
    const first = newLeaseId();
    await repository.attempt({ name: 'handover', id: holder, limit: 1, ttlMs: 60_000, owner: 'svc', holdMs: 0 });
    await repository.attempt({ name: 'handover', id: first, limit: 1, ttlMs: 60_000, owner: 'svc', holdMs: 60_000 });
    const second = acquirer.acquire({ name: 'handover', limit: 1, ttlMs: 60_000, owner: 'svc', waitMs: 20_000 });
    await until(async () => (await waitingCount(repository, 'handover')) === 2);
    expect(await repository.release('handover', holder)).toBe(true);
    // The slot is owed to `first`, who does not come back for it but says so.
    expect(await repository.abandon('handover', first)).toBe(true);
    const lease = await second;
    expect(lease?.fencingToken).toBe(2);
  });
});

// A name nobody holds or waits for is granted and released without the queue's bookkeeping;
// these check that the shortcut keeps every promise the queue keeps.
describe('a name nobody holds or waits for', () => {
  it('keeps fencing tokens rising by one whether a grant was immediate or waited for', async () => {
    for (const kind of ['lock', 'semaphore'] as const) {
      const repository = new LeaseRepository(connection(), kind, SETTINGS);
      const limit = kind === 'lock' ? 1 : 2;
      const ask = (id: string, holdMs: number) =>
        repository.attempt({ name: 'mixed', id, limit, ttlMs: 60_000, owner: 'svc', holdMs });
      const fences: number[] = [];
      const granted = async (id: string, holdMs: number): Promise<void> => {
        const attempt = await ask(id, holdMs);
        if (!attempt.granted) throw new Error(`${kind}: ${id} was not granted`);
        fences.push(attempt.lease.fencingToken);
      };
      for (let round = 0; round < 3; round += 1) {
        // Idle: granted at once.
        const first = newLeaseId();
        await granted(first, 0);
        // Full, then one more caller queues and is granted on its next ask after a release.
        const others = Array.from({ length: limit - 1 }, () => newLeaseId());
        for (const id of others) await granted(id, 0);
        const waiter = newLeaseId();
        expect((await ask(waiter, 10_000)).granted).toBe(false);
        expect(await repository.release('mixed', first)).toBe(true);
        await granted(waiter, 10_000);
        for (const id of [...others, waiter]) expect(await repository.release('mixed', id)).toBe(true);
        const keys = leaseKeys(kind, 'mixed');
        expect(await redis.client.exists(keys.holders, keys.queue, keys.solo)).toBe(0);
      }
      expect(fences).toEqual(Array.from({ length: 3 * (limit + 1) }, (_, i) => i + 1));
      expect((await repository.state('mixed', 1)).lastFencingToken).toBe(fences.length);
    }
  });

  it('is not taken by a newcomer while a caller queued for it has yet to come back', async () => {
    const repository = new LeaseRepository(connection(), 'lock', SETTINGS);
    const ask = (id: string, holdMs: number) =>
      repository.attempt({ name: 'owed', id, limit: 1, ttlMs: 60_000, owner: 'svc', holdMs });
    const holder = newLeaseId();
    const [first, second] = [newLeaseId(), newLeaseId()];
    expect((await ask(holder, 0)).granted).toBe(true);
    expect(await ask(first, 10_000)).toMatchObject({ granted: false, ticket: 1 });
    expect(await ask(second, 10_000)).toMatchObject({ granted: false, ticket: 2 });
    expect(await repository.release('owed', holder)).toBe(true);
    // Nobody holds the lock now, but two callers are queued for it.
    expect(await redis.client.exists(leaseKeys('lock', 'owed').holders)).toBe(0);
    expect(await ask(newLeaseId(), 0)).toMatchObject({ granted: false, ticket: 0, ahead: 2 });
    expect(await ask(newLeaseId(), 10_000)).toMatchObject({ granted: false, ticket: 3, ahead: 2 });
    expect((await ask(second, 10_000)).granted).toBe(false);
    const granted = await ask(first, 10_000);
    expect(granted.granted && granted.lease.fencingToken).toBe(2);
    expect(await repository.release('owed', first)).toBe(true);
    const next = await ask(second, 10_000);
    expect(next.granted && next.lease.fencingToken).toBe(3);
  });

  it('expires an immediate grant that is not released: it has a key expiry, and the slot frees when its time is up', async () => {
    const repository = new LeaseRepository(connection(), 'semaphore', SETTINGS);
    const keys = leaseKeys('semaphore', 'lapse-idle');
    const ttlMs = 1000;
    const ask = (id: string) =>
      repository.attempt({ name: 'lapse-idle', id, limit: 1, ttlMs, owner: 'svc', holdMs: 0 });
    const stalled = newLeaseId();
    const first = await ask(stalled);
    if (!first.granted) throw new Error('an idle semaphore refused its first caller');
    const ttl = await redis.client.pttl(keys.solo);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(ttlMs);
    // Others are refused until its time is up by the server's clock, then the next one asking gets it.
    let next: Attempt | undefined;
    let refused = 0;
    await until(async () => {
      next = await ask(newLeaseId());
      if (!next.granted) refused += 1;
      return next.granted;
    });
    if (!next?.granted) throw new Error('unreachable');
    expect(refused).toBeGreaterThan(0);
    expect(next.lease.expiresAt - ttlMs).toBeGreaterThanOrEqual(first.lease.expiresAt);
    expect(next.lease.fencingToken).toBe(2);
    expect(await repository.release('lapse-idle', stalled)).toBe(false);
    expect(await repository.refresh('lapse-idle', stalled)).toBeUndefined();
  });

  it('never grants a semaphore over its limit as it goes from idle to contended and back, over 3 instances', async () => {
    const instances = [0, 1, 2].map(() => instance('semaphore'));
    const limit = 3;
    let inside = 0;
    let most = 0;
    const fences: number[] = [];
    for (let wave = 0; wave < 10; wave += 1) {
      // A wave of 1 to 8 callers on an idle semaphore, some of which will not wait.
      const callers = 1 + ((wave * 3) % 8);
      await Promise.all(
        Array.from({ length: callers }, async (_, caller) => {
          const acquirer = instances[caller % instances.length];
          const waitMs = caller % 4 === 3 ? 0 : 30_000;
          const lease = await acquirer.acquire({ name: 'waves', limit, ttlMs: 60_000, owner: 'svc', waitMs });
          if (!lease) return;
          inside += 1;
          most = Math.max(most, inside);
          fences.push(lease.fencingToken);
          await sleep(Math.random() * 3);
          inside -= 1;
          expect(await acquirer.repository.release('waves', lease.id)).toBe(true);
        }),
      );
      const keys = leaseKeys('semaphore', 'waves');
      expect(await redis.client.exists(keys.holders, keys.queue, keys.solo)).toBe(0);
    }
    expect(most).toBe(limit);
    expect([...fences].sort((a, b) => a - b)).toEqual(Array.from({ length: fences.length }, (_, i) => i + 1));
  });

  it('announces a release that nobody waited for, with the server time and upTo 0', async () => {
    for (const kind of ['lock', 'semaphore'] as const) {
      const repository = new LeaseRepository(connection(), kind, SETTINGS);
      const messages: string[] = [];
      await listen(redis, [repository.channel('quiet')], (_channel, message) => messages.push(message));
      const holder = newLeaseId();
      const attempt = await repository.attempt({
        name: 'quiet',
        id: holder,
        limit: 2,
        ttlMs: 10_000,
        owner: 'svc',
        holdMs: 0,
      });
      expect(attempt.granted).toBe(true);
      const [seconds] = await redis.client.time();
      expect(await repository.release('quiet', holder)).toBe(true);
      await until(async () => messages.length === 1);
      const notice = JSON.parse(messages[0]) as { name: string; releasedAt: number; upTo: number };
      expect(notice).toMatchObject({ name: 'quiet', upTo: 0 });
      expect(Math.abs(notice.releasedAt - Number(seconds) * 1000)).toBeLessThan(5_000);
      // A second release of the same lease frees nothing and announces nothing.
      expect(await repository.release('quiet', holder)).toBe(false);
      await sleep(50);
      expect(messages).toHaveLength(1);
    }
  });
});

// An idle name's grant is one key (`solo`) with the lease's own expiry; a second holder or a
// waiter turns it into the holders set first. These follow a name through both shapes.
describe('the only holder of a name, kept as one key', () => {
  /** Which of a name's keys exist, besides its fencing counter. */
  async function shape(kind: 'lock' | 'semaphore', name: string): Promise<string[]> {
    const keys = leaseKeys(kind, name);
    const names = ['solo', 'holders', 'leases', 'queue', 'queueExpiry'] as const;
    const exists = await Promise.all(names.map((key) => redis.client.exists(keys[key])));
    return names.filter((_, i) => exists[i] === 1);
  }
  const granted = (attempt: Attempt): Lease => {
    if (!attempt.granted) throw new Error('not granted');
    return attempt.lease;
  };

  it('turns into the holders set when a semaphore of 2 gets a second holder, and queues the third in turn', async () => {
    const repository = new LeaseRepository(connection(), 'semaphore', SETTINGS);
    const ask = (id: string, holdMs: number, owner = 'svc') =>
      repository.attempt({ name: 'pair', id, limit: 2, ttlMs: 60_000, owner, holdMs });
    const [a, b, c, d] = [newLeaseId(), newLeaseId(), newLeaseId(), newLeaseId()];
    const first = granted(await ask(a, 0, 'first owner'));
    expect(await shape('semaphore', 'pair')).toEqual(['solo']);
    const second = granted(await ask(b, 10_000));
    expect(await shape('semaphore', 'pair')).toEqual(['holders', 'leases']);
    const members = await redis.client.zrange(leaseKeys('semaphore', 'pair').holders, 0, -1, 'WITHSCORES');
    expect(
      new Map([
        [members[0], members[1]],
        [members[2], members[3]],
      ]),
    ).toEqual(
      new Map([
        [a, String(first.expiresAt)],
        [b, String(second.expiresAt)],
      ]),
    );
    expect(await ask(c, 10_000)).toMatchObject({ granted: false, ticket: 1, ahead: 0 });
    expect(await ask(d, 10_000)).toMatchObject({ granted: false, ticket: 2, ahead: 1 });
    expect(await shape('semaphore', 'pair')).toEqual(['holders', 'leases', 'queue', 'queueExpiry']);
    // The first holder, moved into the set, keeps its fence, owner and expiry, and is released there.
    const state = await repository.state('pair', 10);
    expect(state.holders).toEqual([
      { fencingToken: 1, expiresAt: first.expiresAt, owner: 'first owner' },
      { fencingToken: 2, expiresAt: second.expiresAt, owner: 'svc' },
    ]);
    expect(state.waiting).toBe(2);
    expect(await repository.refresh('pair', a)).toMatchObject({ fencingToken: 1, ttlMs: 60_000 });
    expect(await repository.release('pair', a)).toBe(true);
    expect((await ask(d, 10_000)).granted).toBe(false);
    expect(granted(await ask(c, 10_000)).fencingToken).toBe(3);
    expect(await repository.release('pair', b)).toBe(true);
    expect(granted(await ask(d, 10_000)).fencingToken).toBe(4);
  });

  it('is released by its id alone, once, announcing the free slot; other ids release nothing', async () => {
    const repository = new LeaseRepository(connection(), 'lock', SETTINGS);
    const messages: string[] = [];
    await listen(redis, [repository.channel('one')], (_channel, message) => messages.push(message));
    const holder = newLeaseId();
    granted(await repository.attempt({ name: 'one', id: holder, limit: 1, ttlMs: 60_000, owner: 'svc', holdMs: 0 }));
    const solo = leaseKeys('lock', 'one').solo;
    const [value, expiry] = [await redis.client.get(solo), await redis.client.call('PEXPIRETIME', solo)];
    // Writes Redis has made (one Redis only: on a cluster INFO answers for some node).
    const writes = async () =>
      redis.cluster ? 0 : Number(/rdb_changes_since_last_save:(\d+)/.exec(await redis.client.info('persistence'))![1]);
    const writesBefore = await writes();
    expect(await repository.release('one', newLeaseId())).toBe(false);
    expect(await repository.release('one', holder.slice(0, 16))).toBe(false);
    // Another id's release writes nothing at all (replicas, the AOF and WATCH would see a write).
    expect(await writes()).toBe(writesBefore);
    expect([await redis.client.get(solo), await redis.client.call('PEXPIRETIME', solo)]).toEqual([value, expiry]);
    expect(await shape('lock', 'one')).toEqual(['solo']);
    expect(await repository.release('one', holder)).toBe(true);
    expect(await shape('lock', 'one')).toEqual([]);
    expect(await repository.release('one', holder)).toBe(false);
    await until(async () => messages.length === 1);
    expect(JSON.parse(messages[0])).toMatchObject({ name: 'one', upTo: 0 });
    // Free again: the next grant is the solo key again, with the next fence.
    const next = granted(
      await repository.attempt({ name: 'one', id: newLeaseId(), limit: 1, ttlMs: 60_000, owner: 'svc', holdMs: 0 }),
    );
    expect(next.fencingToken).toBe(2);
    expect(await shape('lock', 'one')).toEqual(['solo']);
  });

  it('is refreshed by its id from now, with its own or a new time, and the key expires then', async () => {
    const repository = new LeaseRepository(connection(), 'lock', SETTINGS);
    const keys = leaseKeys('lock', 'kept');
    const id = newLeaseId();
    const lease = granted(
      await repository.attempt({ name: 'kept', id, limit: 1, ttlMs: 30_000, owner: 'svc', holdMs: 0 }),
    );
    expect(await redis.client.call('PEXPIRETIME', keys.solo)).toBe(lease.expiresAt);
    expect(await repository.refresh('kept', newLeaseId())).toBeUndefined();
    expect(await redis.client.call('PEXPIRETIME', keys.solo)).toBe(lease.expiresAt);
    const own = await repository.refresh('kept', id);
    expect(own).toMatchObject({ name: 'kept', id, fencingToken: 1, ttlMs: 30_000 });
    expect(own!.expiresAt).toBeGreaterThanOrEqual(lease.expiresAt);
    const longer = await repository.refresh('kept', id, 90_000);
    expect(longer).toMatchObject({ fencingToken: 1, ttlMs: 90_000 });
    expect(await redis.client.call('PEXPIRETIME', keys.solo)).toBe(longer!.expiresAt);
    // The new time is its own from now on: a refresh without one keeps 90 s.
    expect(await repository.refresh('kept', id)).toMatchObject({ ttlMs: 90_000 });
    expect((await repository.state('kept', 1)).holders).toEqual([
      { fencingToken: 1, expiresAt: expect.any(Number), owner: 'svc' },
    ]);
    expect(await shape('lock', 'kept')).toEqual(['solo']);
  });

  it('frees the lock when its key expires: refresh and release then say it was lost, and the fence goes on', async () => {
    const repository = new LeaseRepository(connection(), 'lock', SETTINGS);
    const stalled = newLeaseId();
    const first = granted(
      await repository.attempt({ name: 'lapses', id: stalled, limit: 1, ttlMs: 300, owner: 'svc', holdMs: 0 }),
    );
    await until(async () => (await shape('lock', 'lapses')).length === 0);
    expect(await repository.refresh('lapses', stalled)).toBeUndefined();
    expect(await repository.release('lapses', stalled)).toBe(false);
    expect((await repository.state('lapses', 1)).holders).toEqual([]);
    const next = granted(
      await repository.attempt({ name: 'lapses', id: newLeaseId(), limit: 1, ttlMs: 10_000, owner: 'svc', holdMs: 0 }),
    );
    expect(next.fencingToken).toBe(first.fencingToken + 1);
  });

  it('shows in the state as the one holder, with the limit and last fence', async () => {
    const repository = new LeaseRepository(connection(), 'semaphore', SETTINGS);
    const lease = granted(
      await repository.attempt({
        name: 'seen',
        id: newLeaseId(),
        limit: 4,
        ttlMs: 20_000,
        owner: 'reports',
        holdMs: 0,
      }),
    );
    const state = await repository.state('seen', 10);
    expect(state).toEqual({
      name: 'seen',
      limit: 4,
      lastFencingToken: 1,
      holders: [{ fencingToken: 1, expiresAt: lease.expiresAt, owner: 'reports' }],
      waiting: 0,
      now: expect.any(Number),
    });
    expect(lease.expiresAt - state.now).toBeGreaterThan(0);
    expect(lease.expiresAt - state.now).toBeLessThanOrEqual(20_000);
    expect((await repository.state('seen', 0)).holders).toEqual([]);
    expect(JSON.stringify(state)).not.toContain(lease.id);
  });

  it('refuses a fail-fast caller of a held lock without writing anything', async () => {
    const repository = new LeaseRepository(connection(), 'lock', SETTINGS);
    const keys = leaseKeys('lock', 'busy');
    const holder = granted(
      await repository.attempt({ name: 'busy', id: newLeaseId(), limit: 1, ttlMs: 60_000, owner: 'svc', holdMs: 0 }),
    );
    const before = await Promise.all([redis.client.get(keys.solo), redis.client.hgetall(keys.state)]);
    const refused = await repository.attempt({
      name: 'busy',
      id: newLeaseId(),
      limit: 1,
      ttlMs: 10_000,
      owner: 'svc',
      holdMs: 0,
    });
    expect(refused).toMatchObject({ granted: false, ticket: 0, ahead: 0 });
    const retryAfterMs = refused.granted === false ? refused.retryAfterMs : undefined;
    expect(retryAfterMs).toBeGreaterThan(0);
    expect(retryAfterMs).toBeLessThanOrEqual(60_000);
    expect(await Promise.all([redis.client.get(keys.solo), redis.client.hgetall(keys.state)])).toEqual(before);
    expect(await redis.client.call('PEXPIRETIME', keys.solo)).toBe(holder.expiresAt);
    expect(await shape('lock', 'busy')).toEqual(['solo']);
  });

  it('refuses another limit while it holds, writing nothing', async () => {
    const repository = new LeaseRepository(connection(), 'semaphore', SETTINGS);
    const keys = leaseKeys('semaphore', 'sized');
    granted(
      await repository.attempt({ name: 'sized', id: newLeaseId(), limit: 2, ttlMs: 60_000, owner: 'svc', holdMs: 0 }),
    );
    const before = await Promise.all([redis.client.get(keys.solo), redis.client.hgetall(keys.state)]);
    for (const holdMs of [0, 10_000]) {
      const error = await repository
        .attempt({ name: 'sized', id: newLeaseId(), limit: 3, ttlMs: 60_000, owner: 'svc', holdMs })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'CONFLICT', details: { argument: 'limit' } });
      expect((error as Error).message).toMatch(/limit 2/);
    }
    expect(await Promise.all([redis.client.get(keys.solo), redis.client.hgetall(keys.state)])).toEqual(before);
    expect(await shape('semaphore', 'sized')).toEqual(['solo']);
  });

  it('gives fencing tokens that rise by one from solo to set and back, for a lock and a semaphore', async () => {
    for (const [kind, limit] of [
      ['lock', 1],
      ['semaphore', 3],
    ] as const) {
      const repository = new LeaseRepository(connection(), kind, SETTINGS);
      const ask = (id: string, holdMs: number) =>
        repository.attempt({ name: 'cycle', id, limit, ttlMs: 60_000, owner: 'svc', holdMs });
      const fences: number[] = [];
      for (let round = 0; round < 2; round += 1) {
        const solo = newLeaseId();
        fences.push(granted(await ask(solo, 0)).fencingToken);
        expect(await shape(kind, 'cycle')).toEqual(['solo']);
        // Up to the limit beside it, then one waiter: the solo holder is in the set now.
        const others = Array.from({ length: limit }, () => newLeaseId());
        for (const id of others.slice(0, -1)) fences.push(granted(await ask(id, 0)).fencingToken);
        const waiter = others[others.length - 1];
        expect((await ask(waiter, 10_000)).granted).toBe(false);
        expect(await shape(kind, 'cycle')).toEqual(['holders', 'leases', 'queue', 'queueExpiry']);
        expect(await repository.release('cycle', solo)).toBe(true);
        fences.push(granted(await ask(waiter, 10_000)).fencingToken);
        for (const id of others) expect(await repository.release('cycle', id)).toBe(true);
        expect(await shape(kind, 'cycle')).toEqual([]);
      }
      expect(fences).toEqual(Array.from({ length: 2 * (limit + 1) }, (_, i) => i + 1));
    }
    // On a cluster beside CPU burners each of these round trips took up to a second.
  }, 180_000);

  it('never grants over the limit when fail-fast and waiting callers meet idle, solo and set names, over 3 instances', async () => {
    for (const [kind, limit] of [
      ['lock', 1],
      ['semaphore', 2],
    ] as const) {
      const instances = [0, 1, 2].map(() => instance(kind));
      let inside = 0;
      let most = 0;
      const fences: number[] = [];
      for (let wave = 0; wave < 4; wave += 1) {
        const callers = 1 + ((wave * 3) % 5);
        await Promise.all(
          Array.from({ length: callers }, async (_, caller) => {
            const acquirer = instances[(caller + wave) % instances.length];
            const waitMs = (caller + wave) % 3 === 2 ? 0 : 30_000;
            const lease = await acquirer.acquire({ name: 'meet', limit, ttlMs: 60_000, owner: 'svc', waitMs });
            if (!lease) return;
            inside += 1;
            most = Math.max(most, inside);
            fences.push(lease.fencingToken);
            if (caller % 2 === 1) await acquirer.repository.refresh('meet', lease.id);
            await sleep(Math.random() * 2);
            inside -= 1;
            expect(await acquirer.repository.release('meet', lease.id)).toBe(true);
          }),
        );
        expect(await shape(kind, 'meet')).toEqual([]);
      }
      expect(most).toBeLessThanOrEqual(limit);
      expect([...fences].sort((a, b) => a - b)).toEqual(Array.from({ length: fences.length }, (_, i) => i + 1));
    }
    // A cluster beside CPU burners makes this a few hundred slow round trips.
  }, 240_000);
});

describe('release notices', () => {
  it('wake a waiter whose release was published while the subscriber connection was down: it asks again once that is back', async () => {
    const acquirer = instance('lock');
    const holder = await acquirer.acquire({ name: 'blip', limit: 1, ttlMs: 60_000, owner: 'svc', waitMs: 0 });
    expect(holder?.fencingToken).toBe(1);
    // WAKE_ONLY: on its own the waiter asks again only after a minute.
    const waiting = acquirer.acquire({ name: 'blip', limit: 1, ttlMs: 60_000, owner: 'svc', waitMs: 120_000 });
    const channel = acquirer.repository.channel('blip');
    await until(async () => (await waitingCount(acquirer.repository, 'blip')) === 1);
    await until(async () => (await redis.subscribers(channel)) === 1);

    // Cut the subscriber connection (a restart, failover or blip) and keep it from coming back
    // (maxclients 1) while the holder releases: the notice certainly finds nobody subscribed.
    await withSubscribersDown(redis, channel, async () => {
      expect(await acquirer.repository.release('blip', holder!.id)).toBe(true);
    });

    // Getting the connection back is ioredis's reconnect backoff (7.7 s on an idle cluster, more
    // on a busy machine); this wait is only a safety net that names the failure, well inside the
    // test's own timeout.
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'still waiting'>((resolve) => {
      timer = setTimeout(() => resolve('still waiting'), 90_000);
    });
    try {
      const lease = await Promise.race([waiting, late]);
      expect(lease === 'still waiting' ? lease : lease?.fencingToken).toBe(2);
    } finally {
      clearTimeout(timer);
    }
  }, 120_000);

  // One Redis only: on a cluster, ioredis moves sharded subscriptions itself.
  itSingle(
    'are heard again after the subscriber connection was cut, even for a name listened to while it reconnected',
    async () => {
      const subscriber = connection();
      // ioredis reports its own readiness check failing on a subscribed connection; expected here.
      subscriber.on('error', () => undefined);
      const signals = new LeaseSignals(subscriber, pino({ level: 'silent' }), 60_000);
      signalSets.push(signals);
      const heard: string[] = [];
      await signals.listen('LOCK_RELEASED:a', (notice) => notice && heard.push(notice.name));
      // Listen to a second name in the middle of the reconnect, when a SUBSCRIBE can be lost.
      const listenedDuringReconnect = new Promise<void>((resolve) => {
        subscriber.once('connect', () => {
          void signals.listen('LOCK_RELEASED:b', (notice) => notice && heard.push(notice.name)).then(() => resolve());
        });
      });
      await redis.client.client('KILL', 'TYPE', 'pubsub');
      await listenedDuringReconnect;
      await until(async () => {
        const counts = (await redis.client.pubsub('NUMSUB', 'LOCK_RELEASED:a', 'LOCK_RELEASED:b')) as (
          string | number
        )[];
        return Number(counts[1]) === 1 && Number(counts[3]) === 1;
      });
      for (const name of ['a', 'b']) {
        await redis.client.publish(`LOCK_RELEASED:${name}`, JSON.stringify({ name, releasedAt: 1, upTo: 0 }));
      }
      await until(async () => heard.length === 2);
      expect(heard.sort()).toEqual(['a', 'b']);
      expect(signals.isSubscribed('LOCK_RELEASED:b')).toBe(true);
    },
  );
});
