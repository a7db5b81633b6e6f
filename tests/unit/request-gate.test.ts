// The request gate on its own (security/request-gate.ts), with the in-memory rate limiter: what
// every transport relies on. The transports' own answers are tested through the server
// (hostile, connection-limits, auth and the fast-path tests).
import pino from 'pino';
import { TokenVerifier } from '../../src/security/auth';
import type { RedisClient } from '../../src/redis/client/connection';
import { RateLimits } from '../../src/security/rate-limit';
import { RequestGate } from '../../src/security/request-gate';

const verifier = new TokenVerifier({ secret: 'gate-test-secret-gate-test-secret-0123456' });
const logger = pino({ level: 'silent' });
// The memory store never touches Redis; the limiter only needs a client for its Redis store.
const NO_REDIS = undefined as unknown as RedisClient;
const limits = (ipPerMinute: number) =>
  new RateLimits({ store: 'memory', userPerMinute: 1000, ipPerMinute }, NO_REDIS, logger);

describe('the request gate', () => {
  it('lets an anonymous caller and a signed-in one through, naming the caller', async () => {
    const gate = new RequestGate(verifier, limits(100));
    expect(await gate.admit(undefined, '10.0.0.1')).toEqual({ principal: null });
    const admitted = await gate.admit(`Bearer ${verifier.sign('alice', [], 60)}`, '10.0.0.1');
    expect(admitted.refusal).toBeUndefined();
    expect(admitted.principal).toMatchObject({ userId: 'alice', isService: false });
  });

  it('refuses a bad token with 401 after counting it against its address', async () => {
    const gate = new RequestGate(verifier, limits(2));
    const refused = await gate.admit('Bearer not-a-token', '10.0.0.2');
    expect(refused.principal).toBeNull();
    expect(refused.refusal).toMatchObject({
      status: 401,
      code: 'UNAUTHENTICATED',
      headers: { 'www-authenticate': 'Bearer' },
    });
    await gate.admit('Bearer not-a-token', '10.0.0.2');
    // Both guesses used the address's budget: a good token from there is now over the limit.
    const limited = await gate.admit(`Bearer ${verifier.sign('alice', [], 60)}`, '10.0.0.2');
    expect(limited.principal).toMatchObject({ userId: 'alice' });
    expect(limited.refusal).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect(Number(limited.refusal!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(limited.refusal!.details.retryAfterMs)).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await gate.admit(undefined, '10.0.0.3')).refusal).toBeUndefined();
  });

  it('identifies a connection_init value the same way as a header, refusing what is not a bearer token', async () => {
    const gate = new RequestGate(verifier, limits(100));
    expect(await gate.identify(undefined)).toBeNull();
    expect(await gate.identify(`Bearer ${verifier.sign('bob', ['service'], 60)}`)).toMatchObject({
      userId: 'bob',
      isService: true,
    });
    await expect(gate.identify(42)).rejects.toThrow(expect.objectContaining({ code: 'UNAUTHENTICATED' }));
    await expect(gate.identify('Bearer not-a-token')).rejects.toThrow(
      expect.objectContaining({ code: 'UNAUTHENTICATED' }),
    );
  });

  it('hands back, with the caller, an error the limiter should never throw', async () => {
    class BrokenLimits extends RateLimits {
      override async check(): Promise<void> {
        throw new TypeError('broken limiter');
      }
    }
    const gate = new RequestGate(
      verifier,
      new BrokenLimits({ store: 'memory', userPerMinute: 1, ipPerMinute: 1 }, NO_REDIS, logger),
    );
    const admitted = await gate.admit(`Bearer ${verifier.sign('carol', [], 60)}`, '10.0.0.4');
    expect(admitted.principal).toMatchObject({ userId: 'carol' });
    expect(admitted.refusal).toBeUndefined();
    expect(admitted.error).toBeInstanceOf(TypeError);
    await expect(gate.count(null, '10.0.0.4')).rejects.toThrow('broken limiter');
  });
});
