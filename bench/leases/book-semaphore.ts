// The book's fair counting semaphore (Redis in Action 6.3.2-6.3.5) with ioredis, a peer for
// bench/leases.ts; docs/performance.md ("Method: ... leases ...") tells its round trips. The book
// names the owner zset `semname + 'owner'` in acquire and `+ ':owner'` in release: ':owner' here.
import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';

function replies(result: [Error | null, unknown][] | null): unknown[] {
  if (result === null) throw new Error('MULTI/EXEC was aborted');
  return result.map(([error, value]) => {
    if (error) throw error;
    return value;
  });
}

/**
 * acquire_fair_semaphore: drop timed-out holders (ZINTERSTORE keeps the owner zset in step), draw
 * a number; add ourselves to both zsets, and a rank below `limit` holds a slot, else back out.
 */
export async function acquireFairSemaphore(redis: Redis, semname: string, limit: number, timeoutSeconds: number) {
  const identifier = randomUUID();
  const owners = `${semname}:owner`;
  const counter = `${semname}:counter`;
  const now = Date.now() / 1000;
  const [, , drawn] = replies(
    await redis
      .multi()
      .zremrangebyscore(semname, '-inf', now - timeoutSeconds)
      .zinterstore(owners, 2, owners, semname, 'WEIGHTS', 1, 0)
      .incr(counter)
      .exec(),
  );
  const [, , rank] = replies(
    await redis
      .multi()
      .zadd(semname, now, identifier)
      .zadd(owners, drawn as number, identifier)
      .zrank(owners, identifier)
      .exec(),
  );
  if ((rank as number) < limit) return identifier;
  replies(await redis.multi().zrem(semname, identifier).zrem(owners, identifier).exec());
  return undefined;
}

/** release_fair_semaphore: out of both zsets. True when the slot was still held. */
export async function releaseFairSemaphore(redis: Redis, semname: string, identifier: string): Promise<boolean> {
  const [removed] = replies(await redis.multi().zrem(semname, identifier).zrem(`${semname}:owner`, identifier).exec());
  return (removed as number) === 1;
}

/** acquire_lock (6.2.3): SETNX, a millisecond's sleep between attempts, until `acquireTimeoutMs`. */
async function acquireLock(redis: Redis, lockname: string, acquireTimeoutMs: number): Promise<string | undefined> {
  const identifier = randomUUID();
  const end = Date.now() + acquireTimeoutMs;
  while (Date.now() < end) {
    if ((await redis.setnx(`lock:${lockname}`, identifier)) === 1) return identifier;
    await sleep(1);
  }
  return undefined;
}

/** release_lock: WATCH, check the owner, MULTI/DEL/EXEC; `redis` must be the caller's own connection. */
async function releaseLock(redis: Redis, lockname: string, identifier: string): Promise<boolean> {
  const key = `lock:${lockname}`;
  for (;;) {
    await redis.watch(key);
    if ((await redis.get(key)) !== identifier) {
      await redis.unwatch();
      return false;
    }
    if ((await redis.multi().del(key).exec()) !== null) return true;
  }
}

/** acquire_semaphore_with_lock: the fair semaphore's try under a lock it waits 10 ms for at most. */
export async function acquireSemaphoreWithLock(redis: Redis, semname: string, limit: number, timeoutSeconds: number) {
  const lock = await acquireLock(redis, semname, 10);
  if (lock === undefined) return undefined;
  try {
    return await acquireFairSemaphore(redis, semname, limit, timeoutSeconds);
  } finally {
    await releaseLock(redis, semname, lock);
  }
}
