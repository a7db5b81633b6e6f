// Bearer tokens: what is accepted, what is refused.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import jwt from 'jsonwebtoken';
import { bearerToken, developmentSecret, isExpired, TokenVerifier } from '../../src/security/auth';
import { AppError } from '../../src/common/errors';
import type { ProviderIssuer } from '../../src/security/oidc/provider';
import type { Principal } from '../../src/security/principal';

const SECRET = 'a-secret-that-is-long-enough-for-tests-0123456789';
const verifier = new TokenVerifier({ secret: SECRET });

/** The message and reason of a refused token. */
const refusal = async (token: string, by = verifier): Promise<string> => {
  try {
    await by.verify(token);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('UNAUTHENTICATED');
    return `${(error as AppError).message} (${String((error as AppError).details.reason)})`;
  }
  throw new Error('token was accepted');
};

describe('TokenVerifier', () => {
  it('reads the user id, roles and expiry', async () => {
    const token = jwt.sign({ sub: 'alice', roles: ['service', 'x'] }, SECRET, { expiresIn: 60 });
    const principal = await verifier.verify(token);
    expect(principal).toMatchObject({ userId: 'alice', roles: ['service', 'x'], isService: true });
    expect(principal.expiresAt).toBeGreaterThan(Date.now());
    expect(isExpired(principal)).toBe(false);
  });

  it('treats a token without roles as a plain user', async () => {
    expect(await verifier.verify(jwt.sign({ sub: 'bob' }, SECRET))).toMatchObject({
      roles: [],
      isService: false,
      expiresAt: undefined,
    });
  });

  it('signs tokens it accepts', async () => {
    expect(await verifier.verify(verifier.sign('carol', ['service'], 60))).toMatchObject({
      userId: 'carol',
      isService: true,
    });
  });

  it('refuses other algorithms, even with the right secret, and unsigned tokens', async () => {
    expect(await refusal(jwt.sign({ sub: 'alice' }, SECRET, { algorithm: 'HS512' }))).toBe(
      'Bearer token algorithm is not accepted (TOKEN_ALGORITHM)',
    );
    const unsigned = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from('{"sub":"alice"}').toString('base64url')}.`;
    expect(await refusal(unsigned)).toBe('Bearer token algorithm is not accepted (TOKEN_ALGORITHM)');
  });

  it('refuses a token signed with another secret, and one that is not a JWT', async () => {
    expect(await refusal(jwt.sign({ sub: 'alice' }, `${SECRET}-other`))).toBe(
      'Bearer token is not valid (TOKEN_SIGNATURE)',
    );
    expect(await refusal('not.a.jwt')).toBe('Bearer token is not valid (TOKEN_MALFORMED)');
  });

  it('refuses expired tokens and those not valid yet, saying so', async () => {
    const now = Math.floor(Date.now() / 1000);
    expect(await refusal(jwt.sign({ sub: 'alice', exp: now - 30 }, SECRET))).toBe(
      'Bearer token has expired (TOKEN_EXPIRED)',
    );
    expect(await refusal(jwt.sign({ sub: 'alice', nbf: now + 60 }, SECRET))).toBe(
      'Bearer token is not valid yet (TOKEN_NOT_YET_VALID)',
    );
  });

  it('checks issuer and audience when configured', async () => {
    const strict = new TokenVerifier({ secret: SECRET, issuer: 'us', audience: 'api' });
    expect((await strict.verify(jwt.sign({ sub: 'a' }, SECRET, { issuer: 'us', audience: 'api' }))).userId).toBe('a');
    expect(await refusal(jwt.sign({ sub: 'a' }, SECRET, { issuer: 'them', audience: 'api' }), strict)).toMatch(
      /TOKEN_ISSUER/,
    );
    expect(await refusal(jwt.sign({ sub: 'a' }, SECRET, { issuer: 'us', audience: 'web' }), strict)).toMatch(
      /TOKEN_AUDIENCE/,
    );
  });

  it('refuses overlong tokens before parsing them', async () => {
    expect(await refusal('x'.repeat(5000))).toBe('Bearer token is too long (TOKEN_MALFORMED)');
  });

  it('refuses every HS256 token when it has no secret (identity providers only)', async () => {
    const none = new TokenVerifier({ secret: undefined });
    expect(await refusal(jwt.sign({ sub: 'a' }, SECRET), none)).toBe(
      'Bearer token algorithm is not accepted (TOKEN_ALGORITHM)',
    );
    expect(() => none.sign('a', [], 60)).toThrow(/JWT_SECRET/);
  });
});

describe('TokenVerifier remembers tokens that verified', () => {
  afterEach(() => jest.restoreAllMocks());

  it('answers a token seen before with the same frozen principal', async () => {
    const fresh = new TokenVerifier({ secret: SECRET });
    const token = fresh.sign('dana', ['service'], 60);
    const first = await fresh.verify(token);
    expect(await fresh.verify(token)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.roles)).toBe(true);
  });

  it('refuses a remembered token once it has expired', async () => {
    const fresh = new TokenVerifier({ secret: SECRET });
    const now = Date.now();
    const token = jwt.sign({ sub: 'erin', exp: Math.floor(now / 1000) + 2 }, SECRET);
    expect((await fresh.verify(token)).userId).toBe('erin');
    jest.spyOn(Date, 'now').mockReturnValue(now + 10_000);
    await expect(fresh.verify(token)).rejects.toThrow(/expired/);
  });

  it('keeps at most 10,000 tokens, dropping the oldest tenth when one more comes', async () => {
    const fresh = new TokenVerifier({ secret: SECRET });
    const tokens = Array.from({ length: 10_001 }, (_, i) => fresh.sign(`u${i}`, [], 600));
    const principals = await Promise.all(tokens.map((token) => fresh.verify(token)));
    // Down to 9,000: the 1,001 oldest (0 to 1,000) are gone, the rest remembered.
    expect(await fresh.verify(tokens[10_000])).toBe(principals[10_000]);
    expect(await fresh.verify(tokens[1001])).toBe(principals[1001]);
    for (const old of [0, 1000]) {
      const again = await fresh.verify(tokens[old]);
      expect(again).not.toBe(principals[old]);
      expect(again).toEqual(principals[old]);
    }
  });

  it('keeps at most 16 MiB of token text: long tokens push out the oldest sooner', async () => {
    const fresh = new TokenVerifier({ secret: SECRET });
    const pad = 'p'.repeat(2800);
    // 5,000 tokens of about 3.9 kB: 19 MB, over the bound well before the count bound.
    const tokens = Array.from({ length: 5000 }, (_, i) => jwt.sign({ sub: `u${i}`, pad }, SECRET));
    expect(tokens[0].length).toBeGreaterThan(3700);
    expect(tokens[0].length).toBeLessThan(4096);
    const principals = await Promise.all(tokens.map((token) => fresh.verify(token)));
    expect(await fresh.verify(tokens[4999])).toBe(principals[4999]);
    expect(await fresh.verify(tokens[0])).not.toBe(principals[0]);
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

describe('a provider key withdrawn while a token is checked', () => {
  it('refuses the token, and does not remember it, when the key went while its check waited', async () => {
    const issuer = 'https://idp.example';
    let held = true;
    let release!: () => void;
    const principal: Principal = {
      userId: 'alice',
      roles: [],
      isService: false,
      expiresAt: Date.now() + 60_000,
      source: { issuer, keyThumbprint: 'k1' },
    };
    // A provider whose check the test lets finish, and whose key set the test changes meanwhile.
    const provider = {
      config: { issuer },
      keys: { holds: (thumbprint: string) => held && thumbprint === 'k1' },
      verify: () => new Promise<Principal>((resolve) => (release = () => resolve(principal))),
    } as unknown as ProviderIssuer;
    const verifier = new TokenVerifier({ secret: undefined, providers: [provider] });
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const token = `${part({ alg: 'ES256', kid: 'k1' })}.${part({ iss: issuer, sub: 'alice' })}.c2ln`;

    const checked = verifier.verify(token);
    held = false; // withdrawn (a refresh) before the check ends
    release();
    await expect(checked).rejects.toMatchObject({ code: 'UNAUTHENTICATED', details: { reason: 'TOKEN_KEY_UNKNOWN' } });
    // Not remembered: asked again, the provider checks it again.
    held = true;
    const again = verifier.verify(token);
    release();
    expect(await again).toBe(principal);
  });
});
