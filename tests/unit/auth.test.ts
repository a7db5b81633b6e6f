// Bearer tokens: what is accepted, what is refused.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import jwt from 'jsonwebtoken';
import { bearerToken, developmentSecret, isExpired, TokenVerifier } from '../../src/security/auth';
import { AppError } from '../../src/common/errors';

const SECRET = 'a-secret-that-is-long-enough-for-tests-0123456789';
const verifier = new TokenVerifier({ secret: SECRET });

const refusal = (token: string): string => {
  try {
    verifier.verify(token);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('UNAUTHENTICATED');
    return (error as AppError).message;
  }
  throw new Error('token was accepted');
};

describe('TokenVerifier', () => {
  it('reads the user id, roles and expiry', () => {
    const token = jwt.sign({ sub: 'alice', roles: ['service', 'x'] }, SECRET, { expiresIn: 60 });
    const principal = verifier.verify(token);
    expect(principal).toMatchObject({ userId: 'alice', roles: ['service', 'x'], isService: true });
    expect(principal.expiresAt).toBeGreaterThan(Date.now());
    expect(isExpired(principal)).toBe(false);
  });

  it('treats a token without roles as a plain user', () => {
    expect(verifier.verify(jwt.sign({ sub: 'bob' }, SECRET))).toMatchObject({
      roles: [],
      isService: false,
      expiresAt: undefined,
    });
  });

  it('signs tokens it accepts', () => {
    expect(verifier.verify(verifier.sign('carol', ['service'], 60))).toMatchObject({
      userId: 'carol',
      isService: true,
    });
  });

  it('refuses other algorithms, even with the right secret', () => {
    expect(refusal(jwt.sign({ sub: 'alice' }, SECRET, { algorithm: 'HS512' }))).toMatch(/not valid/);
  });

  it('refuses expired tokens, saying so', () => {
    expect(refusal(jwt.sign({ sub: 'alice', exp: Math.floor(Date.now() / 1000) - 30 }, SECRET))).toMatch(/expired/);
  });

  it('checks issuer and audience when configured', () => {
    const strict = new TokenVerifier({ secret: SECRET, issuer: 'us', audience: 'api' });
    expect(strict.verify(jwt.sign({ sub: 'a' }, SECRET, { issuer: 'us', audience: 'api' })).userId).toBe('a');
    expect(() => strict.verify(jwt.sign({ sub: 'a' }, SECRET, { issuer: 'them', audience: 'api' }))).toThrow(AppError);
  });

  it('refuses overlong tokens before parsing them', () => {
    expect(refusal('x'.repeat(5000))).toMatch(/too long/);
  });
});

describe('TokenVerifier remembers tokens that verified', () => {
  afterEach(() => jest.restoreAllMocks());

  it('answers a token seen before with the same frozen principal', () => {
    const fresh = new TokenVerifier({ secret: SECRET });
    const token = fresh.sign('dana', ['service'], 60);
    const first = fresh.verify(token);
    expect(fresh.verify(token)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.roles)).toBe(true);
  });

  it('refuses a remembered token once it has expired', () => {
    const fresh = new TokenVerifier({ secret: SECRET });
    const now = Date.now();
    const token = jwt.sign({ sub: 'erin', exp: Math.floor(now / 1000) + 2 }, SECRET);
    expect(fresh.verify(token).userId).toBe('erin');
    jest.spyOn(Date, 'now').mockReturnValue(now + 10_000);
    expect(() => fresh.verify(token)).toThrow(/expired/);
  });

  it('keeps at most 10,000 tokens, dropping the oldest, and does not keep long ones', () => {
    const fresh = new TokenVerifier({ secret: SECRET });
    const tokens = Array.from({ length: 10_001 }, (_, i) => fresh.sign(`u${i}`, [], 600));
    const principals = tokens.map((token) => fresh.verify(token));
    expect(fresh.verify(tokens[10_000])).toBe(principals[10_000]);
    expect(fresh.verify(tokens[1])).toBe(principals[1]);
    const again = fresh.verify(tokens[0]);
    expect(again).not.toBe(principals[0]);
    expect(again).toEqual(principals[0]);

    const long = jwt.sign({ sub: 'frank', pad: 'p'.repeat(1200) }, SECRET);
    expect(fresh.verify(long)).not.toBe(fresh.verify(long));
  });
});

describe('bearerToken', () => {
  it('returns undefined without a header and the token with one', () => {
    expect(bearerToken(undefined)).toBeUndefined();
    expect(bearerToken('Bearer abc.def.ghi')).toBe('abc.def.ghi');
    expect(bearerToken('bearer abc')).toBe('abc');
  });

  it.each(['Basic abc', 'Bearer', 'Bearer a b', 'abc'])('refuses %p', (header) => {
    expect(() => bearerToken(header)).toThrow(AppError);
  });
});

describe('developmentSecret', () => {
  it('creates a secret once, private to the owner, and reuses it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ria-secret-'));
    try {
      const first = developmentSecret(dir);
      expect(first.length).toBeGreaterThanOrEqual(32);
      expect(developmentSecret(dir)).toBe(first);
      expect(fs.statSync(path.join(dir, 'dev-jwt-secret')).mode & 0o777).toBe(0o600);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
