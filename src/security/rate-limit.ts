// Rate limits per user and per client address, over HTTP (per request) and WebSocket (per
// handshake and per operation), on rate-limiter-flexible. Counted in this process by default (no
// Redis round trip per request; with N instances a client gets up to N times the limit), or in
// Redis with RATE_LIMIT_STORE=redis (one shared count, one more round trip per request).
import { isIPv6 } from 'node:net';
import type { RedisClient } from '../redis/client/connection';
import { rateLimitPrefix } from '../redis/keys';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Principal } from './auth';
import { AppError } from '../common/errors';
import type { Logger } from '../common/logger';

export interface RateLimitSettings {
  store: 'memory' | 'redis';
  /** Requests and WebSocket operations per minute per signed-in user (service callers are exempt). */
  userPerMinute: number;
  /** Requests, WebSocket handshakes and operations per minute per client address. */
  ipPerMinute: number;
}

const rateLimited = (retryAfterMs: number): AppError =>
  new AppError('RATE_LIMITED', `Too many requests; retry in ${Math.ceil(retryAfterMs / 1000)} s`, { retryAfterMs });

export class RateLimits {
  private readonly byUser: RateLimiterAbstract;
  private readonly byAddress: RateLimiterAbstract;
  private failing = false;

  constructor(
    settings: RateLimitSettings,
    redis: RedisClient,
    private readonly logger: Logger,
  ) {
    const make = (prefix: string, points: number): RateLimiterAbstract =>
      settings.store === 'redis'
        ? new RateLimiterRedis({ storeClient: redis, keyPrefix: rateLimitPrefix(prefix), points, duration: 60 })
        : new RateLimiterMemory({ keyPrefix: prefix, points, duration: 60 });
    this.byUser = make('user', settings.userPerMinute);
    this.byAddress = make('ip', settings.ipPerMinute);
  }

  /**
   * Counts one request or operation; RATE_LIMITED (with `retryAfterMs`) when the caller or its
   * address is over its limit. Service callers are backends, trusted and often many behind one
   * address: they are not counted. If the count cannot be kept (Redis away), the request passes.
   */
  async check(principal: Principal | null, address: string | undefined): Promise<void> {
    if (principal?.isService) return;
    const consumed: Promise<unknown>[] = [this.byAddress.consume(clientKey(address))];
    if (principal) consumed.push(this.byUser.consume(principal.userId));
    const outcomes = await Promise.allSettled(consumed);
    let waitMs = 0;
    for (const outcome of outcomes) {
      if (outcome.status === 'fulfilled') continue;
      if (outcome.reason instanceof RateLimiterRes) {
        waitMs = Math.max(waitMs, outcome.reason.msBeforeNext);
      } else if (!this.failing) {
        this.failing = true;
        this.logger.warn(
          { err: (outcome.reason as Error)?.message },
          'rate limits cannot be counted; letting requests through',
        );
      }
    }
    if (outcomes.every((outcome) => outcome.status === 'fulfilled' || outcome.reason instanceof RateLimiterRes))
      this.failing = false;
    if (waitMs > 0) throw rateLimited(waitMs);
  }
}

/**
 * The client a peer address stands for. IPv4 clients on a dual-stack socket appear as
 * ::ffff:a.b.c.d and count as a.b.c.d; an IPv6 client usually holds a whole /64, so it counts
 * per /64, or it could take a fresh address for every request.
 */
export function clientKey(address: string | undefined): string {
  if (!address) return 'unknown';
  if (address.startsWith('::ffff:') && address.includes('.')) return address.slice(7);
  if (!isIPv6(address)) return address;
  const [head, tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, '').toLowerCase())
    .join(':')}::/64`;
}
