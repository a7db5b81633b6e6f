// The pool that lends WATCH connections: never more than its size, FIFO waiting bounded by a
// deadline or an abort, a connection that failed mid-work closed rather than lent again, and
// nothing left open after close().
import Redis from 'ioredis';
import type { RedisClient } from '../../src/redis/client/connection';
import { ConnectionPool } from '../../src/redis/client/connection-pool';
import { conflict } from '../../src/common/errors';
import { startTestRedis, type TestRedis } from '../support/redis';
import { setTimeout as sleep } from 'node:timers/promises';

let redis: TestRedis;
let made: Redis[] = [];
const pools: ConnectionPool[] = [];

beforeAll(async () => {
  redis = await startTestRedis();
});

afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
  for (const client of made) client.disconnect();
  made = [];
});

afterAll(async () => {
  await redis.stop();
});

function pool(size: number, connectDelayMs = 0): ConnectionPool {
  const created = new ConnectionPool(async () => {
    if (connectDelayMs > 0) await sleep(connectDelayMs);
    const client = redis.newClient();
    made.push(client);
    return client;
  }, size);
  pools.push(created);
  return created;
}

const soon = (ms: number) => performance.now() + ms;

it('lends at most `size` connections at once, to waiters in arrival order', async () => {
  const p = pool(2);
  let busy = 0;
  let most = 0;
  const order: number[] = [];
  await Promise.all(
    Array.from({ length: 6 }, (_, n) =>
      p.use(async (client) => {
        busy += 1;
        most = Math.max(most, busy);
        order.push(n);
        await client.ping();
        await sleep(30);
        busy -= 1;
      }, soon(5000)),
    ),
  );
  expect(most).toBe(2);
  expect(order).toEqual([0, 1, 2, 3, 4, 5]);
  expect(made).toHaveLength(2);
  expect(p.connections).toBe(2);
});

it('gives up with CONFLICT at the deadline, or at once when the caller aborts', async () => {
  const p = pool(1);
  // The holder keeps its connection until the test lets it go, so each wait below can only end
  // by its deadline or its abort, never by the connection coming back (however slow the machine).
  let release: () => void = () => undefined;
  const holder = p.use(() => new Promise<void>((resolve) => (release = resolve)), soon(5000));
  await expect(p.use(async () => 'never', soon(50))).rejects.toMatchObject({ code: 'CONFLICT' });

  const abort = new AbortController();
  const waiting = p.use(async () => 'never', soon(600_000), abort.signal);
  setTimeout(() => abort.abort(), 20);
  await expect(waiting).rejects.toMatchObject({ code: 'CONFLICT' });
  release();
  await holder;
  // The connection went back and is lent again.
  expect(await p.use((client) => client.ping(), soon(1000))).toBe('PONG');
  expect(made).toHaveLength(1);
});

it('closes a connection whose work failed unexpectedly, and opens another for the next caller', async () => {
  const p = pool(1);
  let first: RedisClient | undefined;
  const failing = p.use(async (client) => {
    first = client;
    await client.watch('some-key');
    throw new Error('lost in the middle of a transaction');
  }, soon(1000));
  const next = p.use(async (client) => client, soon(1000));
  await expect(failing).rejects.toThrow('lost in the middle');
  const second = await next;
  expect(second).not.toBe(first);
  // A cluster client that was told to disconnect may stay 'close' (closed, not reconnecting).
  for (let i = 0; i < 50 && first!.status !== 'end'; i++) await sleep(20);
  expect(redis.cluster ? ['close', 'end'] : ['end']).toContain(first!.status);
  expect(made).toHaveLength(2);
});

it('lends a connection again after an AppError, which work throws only once tidied up', async () => {
  const p = pool(1);
  let first: RedisClient | undefined;
  await expect(
    p.use(async (client) => {
      first = client;
      throw conflict('busy');
    }, soon(1000)),
  ).rejects.toMatchObject({ code: 'CONFLICT' });
  expect(await p.use(async (client) => client, soon(1000))).toBe(first);
});

it('closes a connection that finished opening after close(), and refuses further use', async () => {
  const p = pool(1, 100);
  const late = p.use(async () => 'never', soon(5000));
  await sleep(20);
  await p.close();
  await expect(late).rejects.toThrow('closed');
  await sleep(50);
  expect(made).toHaveLength(1);
  expect(made[0].status).toBe('end');
  expect(p.connections).toBe(0);
  await expect(p.use(async () => 'never', soon(100))).rejects.toThrow('closed');
});
