// Locks and semaphores through the real server, over HTTP and WebSocket: service callers only,
// tokens that only their holder can use, waiting in turn, release notifications, bad input, and
// a waiter whose client went away taking nothing.
import { leaseKeys } from '../../src/redis/keys';
import { print } from 'graphql';
import {
  AcquireLockDocument,
  AcquireSemaphoreDocument,
  LockReleasedDocument,
  LockStateDocument,
  RefreshLockDocument,
  RefreshSemaphoreDocument,
  ReleaseLockDocument,
  ReleaseSemaphoreDocument,
  SemaphoreReleasedDocument,
  SemaphoreStateDocument,
} from '../../src/generated/client/graphql';
import { serverForThisFile } from '../support/fixture';
import { codes, eventually, post, wsOperation } from '../support/graphql';
import type { TestServer } from '../support/server';

const fixture = serverForThisFile({
  SEMAPHORE_MAX_LIMIT: '50',
  LEASE_MAX_TIMEOUT_MS: '60000',
  LEASE_MAX_WAIT_MS: '20000',
});
let api: TestServer;

beforeAll(() => {
  api = fixture.api;
});

const lockState = async (name: string) =>
  (await post(api.url, LockStateDocument, { name }, api.tokens.service)).data!.lock;
const acquireLock = (name: string, acquireTimeoutMs = 0, lockTimeoutMs = 10_000) =>
  post(api.url, AcquireLockDocument, { name, acquireTimeoutMs, lockTimeoutMs }, api.tokens.service);

describe('locks over HTTP', () => {
  it('grants a lock with a secret token and a fencing token, shows its holder, and frees it only for that token', async () => {
    const first = (await acquireLock('orders')).data!.acquireLock!;
    expect(first).toMatchObject({ name: 'orders', fencingToken: 1 });
    expect(first.token).toMatch(/^[0-9a-f]{32}$/);
    expect((await acquireLock('orders')).data).toEqual({ acquireLock: null });

    const state = await lockState('orders');
    expect(state).toMatchObject({
      name: 'orders',
      waiting: 0,
      lastFencingToken: 1,
      holder: { fencingToken: 1, owner: 'billing-service' },
    });
    expect(state.holder!.expiresAt).toBe(first.expiresAt);
    expect(Math.abs(first.expiresAt - (Date.now() + 10_000) / 1000)).toBeLessThan(60);
    expect(state.holder!.timeLeftMs).toBeGreaterThan(0);
    expect(state.holder!.timeLeftMs).toBeLessThanOrEqual(10_000);
    expect(JSON.stringify(state)).not.toContain(first.token);

    const wrong = 'f'.repeat(32);
    expect(
      (await post(api.url, ReleaseLockDocument, { name: 'orders', token: wrong }, api.tokens.service)).data,
    ).toEqual({ releaseLock: false });
    expect(
      (await post(api.url, RefreshLockDocument, { name: 'orders', token: wrong }, api.tokens.service)).data,
    ).toEqual({ refreshLock: null });
    expect((await lockState('orders')).holder?.fencingToken).toBe(1);

    const refreshed = await post(
      api.url,
      RefreshLockDocument,
      { name: 'orders', token: first.token, lockTimeoutMs: 30_000 },
      api.tokens.service,
    );
    expect(refreshed.data!.refreshLock).toMatchObject({ token: first.token, fencingToken: 1 });
    expect(refreshed.data!.refreshLock!.expiresAt).toBeGreaterThan(first.expiresAt);

    expect(
      (await post(api.url, ReleaseLockDocument, { name: 'orders', token: first.token }, api.tokens.service)).data,
    ).toEqual({ releaseLock: true });
    expect(
      (await post(api.url, ReleaseLockDocument, { name: 'orders', token: first.token }, api.tokens.service)).data,
    ).toEqual({ releaseLock: false });
    expect((await acquireLock('orders')).data!.acquireLock!.fencingToken).toBe(2);
  });

  it('makes a second caller wait for the lock and hands it over on release', async () => {
    const held = (await acquireLock('handover')).data!.acquireLock!;
    const waiting = acquireLock('handover', 15_000);
    await eventually(async () => (await lockState('handover')).waiting === 1, 5000, 20);
    await post(api.url, ReleaseLockDocument, { name: 'handover', token: held.token }, api.tokens.service);
    const next = (await waiting).data!.acquireLock;
    expect(next).toMatchObject({ name: 'handover', fencingToken: 2 });
    expect(next!.token).not.toBe(held.token);
    expect((await lockState('handover')).waiting).toBe(0);
  });

  it('does not give the lock to a waiter whose HTTP client went away', async () => {
    const held = (await acquireLock('abandoned')).data!.acquireLock!;
    const gone = new AbortController();
    const request = fetch(api.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${api.tokens.service}` },
      body: JSON.stringify({
        query: print(AcquireLockDocument),
        variables: { name: 'abandoned', acquireTimeoutMs: 15_000 },
      }),
      signal: gone.signal,
    }).catch((error: unknown) => error);
    await eventually(async () => (await lockState('abandoned')).waiting === 1, 5000, 20);
    gone.abort();
    await request;
    await eventually(async () => (await lockState('abandoned')).waiting === 0, 5000, 20);
    await post(api.url, ReleaseLockDocument, { name: 'abandoned', token: held.token }, api.tokens.service);
    const after = await lockState('abandoned');
    expect(after.holder).toBeNull();
    expect(after.lastFencingToken).toBe(1);
  });
});

describe('semaphores over HTTP', () => {
  const acquire = (limit: number, extra: { timeoutMs?: number; waitMs?: number } = {}) =>
    post(api.url, AcquireSemaphoreDocument, { name: 'exports', limit, ...extra }, api.tokens.service);

  it('grants at most `limit` slots and lists the holders and the limit', async () => {
    const leases = [(await acquire(2)).data!.acquireSemaphore!, (await acquire(2)).data!.acquireSemaphore!];
    expect(leases.map((lease) => lease.fencingToken)).toEqual([1, 2]);
    expect((await acquire(2)).data).toEqual({ acquireSemaphore: null });
    const state = (await post(api.url, SemaphoreStateDocument, { name: 'exports' }, api.tokens.service)).data!
      .semaphore;
    expect(state).toMatchObject({ name: 'exports', limit: 2, waiting: 0, lastFencingToken: 2 });
    expect(state.holders.map((holder) => [holder.owner, holder.fencingToken]).sort()).toEqual([
      ['billing-service', 1],
      ['billing-service', 2],
    ]);
    expect(
      (await post(api.url, ReleaseSemaphoreDocument, { name: 'exports', id: leases[0].id }, api.tokens.service)).data,
    ).toEqual({
      releaseSemaphore: true,
    });
    expect((await acquire(2)).data!.acquireSemaphore!.fencingToken).toBe(3);
  });

  it('keeps a refreshed slot and tells a holder whose slot lapsed that it lost it', async () => {
    const lease = (await acquire(1, { timeoutMs: 300 })).data!.acquireSemaphore!;
    const refreshed = (
      await post(api.url, RefreshSemaphoreDocument, { name: 'exports', id: lease.id }, api.tokens.service)
    ).data!.refreshSemaphore;
    expect(refreshed).toMatchObject({ id: lease.id, fencingToken: 1 });
    const next = (await acquire(1, { waitMs: 10_000 })).data!.acquireSemaphore!;
    expect(next.fencingToken).toBe(2);
    expect(
      (await post(api.url, RefreshSemaphoreDocument, { name: 'exports', id: lease.id }, api.tokens.service)).data,
    ).toEqual({
      refreshSemaphore: null,
    });
    expect(
      (await post(api.url, ReleaseSemaphoreDocument, { name: 'exports', id: lease.id }, api.tokens.service)).data,
    ).toEqual({
      releaseSemaphore: false,
    });
  });

  it('queues a caller that may wait and serves it when a slot is released', async () => {
    const held = (await acquire(1)).data!.acquireSemaphore!;
    const waiting = acquire(1, { waitMs: 15_000 });
    await eventually(
      async () =>
        (await post(api.url, SemaphoreStateDocument, { name: 'exports' }, api.tokens.service)).data!.semaphore
          .waiting === 1,
      5000,
      20,
    );
    // A fail-fast caller does not overtake the one waiting.
    expect((await acquire(1)).data).toEqual({ acquireSemaphore: null });
    await post(api.url, ReleaseSemaphoreDocument, { name: 'exports', id: held.id }, api.tokens.service);
    expect((await waiting).data!.acquireSemaphore!.fencingToken).toBe(2);
  });
});

describe('over WebSocket', () => {
  it('acquires, waits and releases a lock, and tells subscribers about the release', async () => {
    const socket = fixture.connect(api.tokens.service);
    const released = wsOperation(socket.client, LockReleasedDocument, { name: 'ws-lock' });
    await eventually(async () => (await api.redis.subscribers(leaseKeys('lock', 'ws-lock').released)) === 1, 5000, 20);
    const [first] = await wsOperation(socket.client, AcquireLockDocument, { name: 'ws-lock' }).completion();
    const token = first.data!.acquireLock!.token;
    const waiting = wsOperation(socket.client, AcquireLockDocument, { name: 'ws-lock', acquireTimeoutMs: 15_000 });
    await eventually(async () => (await lockState('ws-lock')).waiting === 1, 5000, 20);

    const [release] = await wsOperation(socket.client, ReleaseLockDocument, { name: 'ws-lock', token }).completion();
    expect(release.data).toEqual({ releaseLock: true });
    const [next] = await waiting.completion();
    expect(next.data!.acquireLock).toMatchObject({ name: 'ws-lock', fencingToken: 2 });
    const [notice] = await released.take(1);
    expect(notice.data!.lockReleased.name).toBe('ws-lock');
    // Unix seconds, like every time in the API (Redis runs on this machine's clock here).
    expect(Math.abs(notice.data!.lockReleased.releasedAt - Date.now() / 1000)).toBeLessThan(60);
    released.unsubscribe();
  });

  it('tells semaphore subscribers about a freed slot', async () => {
    const socket = fixture.connect(api.tokens.service);
    const released = wsOperation(socket.client, SemaphoreReleasedDocument, { name: 'ws-sem' });
    const lease = (await post(api.url, AcquireSemaphoreDocument, { name: 'ws-sem', limit: 3 }, api.tokens.service))
      .data!.acquireSemaphore!;
    // The subscription is registered on the server before the release, or the notice is lost.
    await eventually(
      async () => (await api.redis.subscribers(leaseKeys('semaphore', 'ws-sem').released)) === 1,
      5000,
      20,
    );
    await post(api.url, ReleaseSemaphoreDocument, { name: 'ws-sem', id: lease.id }, api.tokens.service);
    const [notice] = await released.take(1);
    expect(notice.data!.semaphoreReleased.name).toBe('ws-sem');
    released.unsubscribe();
  });

  it('does not give the lock to a waiter whose client cancelled the operation', async () => {
    const held = (await acquireLock('ws-cancelled')).data!.acquireLock!;
    const socket = fixture.connect(api.tokens.service);
    const waiting = wsOperation(socket.client, AcquireLockDocument, { name: 'ws-cancelled', acquireTimeoutMs: 15_000 });
    await eventually(async () => (await lockState('ws-cancelled')).waiting === 1, 5000, 20);
    waiting.unsubscribe(); // sends graphql-ws `complete` for the running mutation
    await eventually(async () => (await lockState('ws-cancelled')).waiting === 0, 5000, 20);
    await post(api.url, ReleaseLockDocument, { name: 'ws-cancelled', token: held.token }, api.tokens.service);
    const after = await lockState('ws-cancelled');
    expect(after.holder).toBeNull();
    expect(after.lastFencingToken).toBe(1);
    // The socket itself stays usable.
    const [state] = await wsOperation(socket.client, LockStateDocument, { name: 'ws-cancelled' }).completion();
    expect(state.data!.lock.waiting).toBe(0);
  });

  it('does not give the lock to a waiter whose socket closed', async () => {
    const held = (await acquireLock('ws-abandoned')).data!.acquireLock!;
    const socket = fixture.connect(api.tokens.service);
    wsOperation(socket.client, AcquireLockDocument, { name: 'ws-abandoned', acquireTimeoutMs: 15_000 });
    await eventually(async () => (await lockState('ws-abandoned')).waiting === 1, 5000, 20);
    await socket.dispose();
    await eventually(async () => (await lockState('ws-abandoned')).waiting === 0, 5000, 20);
    await post(api.url, ReleaseLockDocument, { name: 'ws-abandoned', token: held.token }, api.tokens.service);
    const after = await lockState('ws-abandoned');
    expect(after.holder).toBeNull();
    expect(after.lastFencingToken).toBe(1);
  });
});

describe('who may use locks and semaphores', () => {
  const token = 'a'.repeat(32);
  const operations = [
    ['acquireLock', AcquireLockDocument, { name: 'x', acquireTimeoutMs: 0 }],
    ['releaseLock', ReleaseLockDocument, { name: 'x', token }],
    ['refreshLock', RefreshLockDocument, { name: 'x', token }],
    ['lock', LockStateDocument, { name: 'x' }],
    ['acquireSemaphore', AcquireSemaphoreDocument, { name: 'x', limit: 1 }],
    ['releaseSemaphore', ReleaseSemaphoreDocument, { name: 'x', id: token }],
    ['refreshSemaphore', RefreshSemaphoreDocument, { name: 'x', id: token }],
    ['semaphore', SemaphoreStateDocument, { name: 'x' }],
    ['lockReleased', LockReleasedDocument, { name: 'x' }],
    ['semaphoreReleased', SemaphoreReleasedDocument, { name: 'x' }],
  ] as const;

  it.each(operations)(
    '%s is FORBIDDEN to a user over HTTP and WebSocket, and writes nothing',
    async (field, document, variables) => {
      if (field !== 'lockReleased' && field !== 'semaphoreReleased') {
        const http = await post(api.url, document as never, variables as never, api.tokens.user);
        expect(codes(http)).toEqual(['FORBIDDEN']);
        const anonymous = await post(api.url, document as never, variables as never);
        expect(codes(anonymous)).toEqual(['UNAUTHENTICATED']);
      }
      const socket = fixture.connect(api.tokens.user);
      const results = await wsOperation(socket.client, document as never, variables as never).completion();
      expect(results.map((result) => codes(result))).toEqual([['FORBIDDEN']]);
      expect(await api.redis.client.dbsize()).toBe(0);
    },
  );
});

describe('bad input is refused with BAD_USER_INPUT and nothing written', () => {
  const long = 'n'.repeat(129);
  it.each([
    ['an empty name', AcquireLockDocument, { name: '' }, 'name'],
    ['an over-long name', AcquireLockDocument, { name: long }, 'name'],
    ['a name with a colon', AcquireLockDocument, { name: 'a:b' }, 'name'],
    ['a name with braces', AcquireSemaphoreDocument, { name: '{s:x}', limit: 1 }, 'name'],
    ['a negative acquireTimeoutMs', AcquireLockDocument, { name: 'x', acquireTimeoutMs: -1 }, 'acquireTimeoutMs'],
    [
      'an acquireTimeoutMs over LEASE_MAX_WAIT_MS',
      AcquireLockDocument,
      { name: 'x', acquireTimeoutMs: 20_001 },
      'acquireTimeoutMs',
    ],
    ['a lockTimeoutMs of 0', AcquireLockDocument, { name: 'x', lockTimeoutMs: 0 }, 'lockTimeoutMs'],
    [
      'a lockTimeoutMs over LEASE_MAX_TIMEOUT_MS',
      AcquireLockDocument,
      { name: 'x', lockTimeoutMs: 60_001 },
      'lockTimeoutMs',
    ],
    [
      'a refresh lockTimeoutMs of -5',
      RefreshLockDocument,
      { name: 'x', token: 'a'.repeat(32), lockTimeoutMs: -5 },
      'lockTimeoutMs',
    ],
    ['a malformed token', ReleaseLockDocument, { name: 'x', token: 'not-a-token' }, 'token'],
    ['an upper-case token', RefreshLockDocument, { name: 'x', token: 'A'.repeat(32) }, 'token'],
    ['a limit of 0', AcquireSemaphoreDocument, { name: 'x', limit: 0 }, 'limit'],
    ['a limit over SEMAPHORE_MAX_LIMIT', AcquireSemaphoreDocument, { name: 'x', limit: 51 }, 'limit'],
    ['a timeoutMs of 0', AcquireSemaphoreDocument, { name: 'x', limit: 1, timeoutMs: 0 }, 'timeoutMs'],
    ['a negative waitMs', AcquireSemaphoreDocument, { name: 'x', limit: 1, waitMs: -1 }, 'waitMs'],
    ['a malformed lease id', ReleaseSemaphoreDocument, { name: 'x', id: '123' }, 'id'],
    ['a bad name in a state query', SemaphoreStateDocument, { name: 'a b' }, 'name'],
  ] as const)('%s', async (_case, document, variables, argument) => {
    const result = await post(api.url, document as never, variables as never, api.tokens.service);
    expect(codes(result)).toEqual(['BAD_USER_INPUT']);
    expect(result.errors![0].extensions!.argument).toBe(argument);
    expect(await api.redis.client.dbsize()).toBe(0);
  });

  it('a subscription to a bad name, over WebSocket', async () => {
    const socket = fixture.connect(api.tokens.service);
    const results = await wsOperation(socket.client, LockReleasedDocument, { name: 'a{b' }).completion();
    expect(results.map((result) => codes(result))).toEqual([['BAD_USER_INPUT']]);
  });

  it('a limit that is not an integer (refused by GraphQL itself)', async () => {
    const result = await post(api.url, AcquireSemaphoreDocument, { name: 'x', limit: 1.5 }, api.tokens.service);
    expect(codes(result)).toEqual(['BAD_USER_INPUT']);
    expect(await api.redis.client.dbsize()).toBe(0);
  });
});
