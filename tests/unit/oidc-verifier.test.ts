// Tokens of an identity provider, checked against a real OpenID provider (oidc-provider) on
// loopback: what is accepted and how claims map, every refusal with its reason, keys that rotate,
// a provider that stops, and key sets or discovery documents that are huge, slow or malformed.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPublicKey } from 'node:crypto';
import { calculateJwkThumbprint, type JWK } from 'jose';
import jwt from 'jsonwebtoken';
import { AppError } from '../../src/common/errors';
import { loadConfig } from '../../src/config';
import { isExpired, type TokenVerifier } from '../../src/security/auth';
import { createTokenVerifier } from '../../src/security/tokens';
import { captureLogs } from '../support/logs';
import { eventually } from '../support/graphql';
import {
  API_AUDIENCE,
  forgedToken,
  SERVICE_CLIENT,
  signingKey,
  startProvider,
  type SigningKey,
  type TestProvider,
} from '../support/oidc';

const SECRET = 'a-secret-that-is-long-enough-for-tests-0123456789';
const now = (): number => Math.floor(Date.now() / 1000);

let provider: TestProvider;
let es256: SigningKey;
let others: SigningKey[];

beforeAll(async () => {
  es256 = await signingKey('ES256');
  others = await Promise.all((['RS256', 'PS256', 'EdDSA'] as const).map((alg) => signingKey(alg)));
  provider = await startProvider({ keys: [es256, ...others], roles: { alice: ['admin', 'editor'] } });
});
afterAll(async () => {
  await provider?.stop();
});

function verifierFor(issuer: string, settings: Record<string, unknown> = {}, env: Record<string, string> = {}) {
  const config = loadConfig({
    NODE_ENV: 'test',
    JWT_SECRET: SECRET,
    OIDC_PROVIDERS: JSON.stringify([
      {
        issuer,
        audience: API_AUDIENCE,
        rolesClaim: 'realm_access.roles',
        serviceClients: [SERVICE_CLIENT.id],
        ...settings,
      },
    ]),
    OIDC_KEYS_COOLDOWN_S: '1',
    ...env,
  });
  const { logger, lines } = captureLogs('debug');
  return { verifier: createTokenVerifier(config, logger), lines };
}

async function reasonOf(verifier: TokenVerifier, token: string): Promise<string> {
  try {
    await verifier.verify(token);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('UNAUTHENTICATED');
    // Nothing of the token in what the client is told.
    expect((error as AppError).message).not.toContain(token.slice(-20));
    return String((error as AppError).details.reason);
  }
  throw new Error('token was accepted');
}

/** RFC 7638 thumbprint of a signing key (of its public members only, so the private JWK serves). */
const thumbprintOf = (key: SigningKey): Promise<string> => calculateJwkThumbprint(key.privateJwk, 'sha256');

/** The key as a provider publishes it: public members, its kid, alg and use, and anything else given. */
function published(key: SigningKey, members: Record<string, unknown> = {}): JWK {
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicJwk } = key.privateJwk;
  return { ...publicJwk, ...members };
}

const claims = (overrides: Record<string, unknown> = {}) => ({
  iss: provider.issuer,
  aud: API_AUDIENCE,
  sub: 'forged-user',
  iat: now(),
  exp: now() + 600,
  ...overrides,
});

describe('tokens the provider issues', () => {
  it("accepts a user's access token from the sign-in, with roles from realm_access.roles", async () => {
    const { verifier } = verifierFor(provider.issuer);
    const principal = await verifier.verify(await provider.userToken('alice'));
    expect(principal).toMatchObject({ userId: 'alice', roles: ['admin', 'editor'], isService: false });
    expect(principal.source).toEqual({ issuer: provider.issuer, keyThumbprint: await thumbprintOf(es256) });
    expect(principal.expiresAt).toBeGreaterThan(Date.now() + 500_000);
  });

  it('makes a client-credentials token of a listed client a service caller, and others not', async () => {
    const token = await provider.serviceToken();
    expect((await verifierFor(provider.issuer).verifier.verify(token)).isService).toBe(true);
    const unlisted = verifierFor(provider.issuer, { serviceClients: [] }).verifier;
    expect(await unlisted.verify(token)).toMatchObject({ userId: SERVICE_CLIENT.id, isService: false });
  });

  it('makes a role listed in serviceRoles a service caller', async () => {
    const { verifier } = verifierFor(provider.issuer, { serviceRoles: ['editor'] });
    expect((await verifier.verify(await provider.userToken('alice'))).isService).toBe(true);
    expect((await verifier.verify(await provider.userToken('bob'))).isService).toBe(false);
  });

  it.each(['RS256', 'PS256', 'EdDSA'])('verifies %s with the key the provider publishes', async (alg) => {
    const { verifier } = verifierFor(provider.issuer);
    const key = others.find((candidate) => candidate.alg === alg)!;
    expect((await verifier.verify(await forgedToken(key, claims({ sub: `by-${alg}` })))).userId).toBe(`by-${alg}`);
  });

  it('reads roles from a namespaced claim (Auth0) and from a space-separated one', async () => {
    const auth0 = verifierFor(provider.issuer, { rolesClaim: 'https://example.com/roles' }).verifier;
    const namespaced = await forgedToken(es256, claims({ 'https://example.com/roles': ['ops'] }));
    expect((await auth0.verify(namespaced)).roles).toEqual(['ops']);
    const groups = verifierFor(provider.issuer, { rolesClaim: 'cognito:groups' }).verifier;
    expect((await groups.verify(await forgedToken(es256, claims({ 'cognito:groups': 'a b' })))).roles).toEqual([
      'a',
      'b',
    ]);
  });

  it('puts a prefix before user ids when told, so two providers cannot name the same user', async () => {
    const { verifier } = verifierFor(provider.issuer, { userPrefix: 'kc.' });
    expect((await verifier.verify(await forgedToken(es256, claims({ sub: 'alice' })))).userId).toBe('kc.alice');
  });

  it('takes the user id from another claim when told, validated as user ids are', async () => {
    const { verifier } = verifierFor(provider.issuer, { userClaim: 'preferred_username' });
    expect((await verifier.verify(await forgedToken(es256, claims({ preferred_username: 'carol' })))).userId).toBe(
      'carol',
    );
    expect(await reasonOf(verifier, await forgedToken(es256, claims({ preferred_username: 'has space' })))).toBe(
      'TOKEN_CLAIMS',
    );
    expect(await reasonOf(verifier, await forgedToken(es256, claims()))).toBe('TOKEN_CLAIMS');
  });

  it('checks client_id as the audience where the provider puts it there (Cognito access tokens)', async () => {
    const { verifier } = verifierFor(provider.issuer, { audience: 'web', audienceClaim: 'client_id' });
    expect((await verifier.verify(await provider.userToken('dave'))).userId).toBe('dave');
    expect(await reasonOf(verifier, await provider.serviceToken())).toBe('TOKEN_AUDIENCE');
  });
});

describe('refusals', () => {
  let verifier: TokenVerifier;
  beforeAll(() => {
    verifier = verifierFor(provider.issuer).verifier;
  });

  it('refuses a token for another audience', async () => {
    const other = verifierFor(provider.issuer, { audience: 'https://other.example' }).verifier;
    expect(await reasonOf(other, await provider.userToken('alice'))).toBe('TOKEN_AUDIENCE');
  });

  it('refuses an issuer it does not trust', async () => {
    expect(await reasonOf(verifier, await forgedToken(es256, claims({ iss: 'https://evil.example' })))).toBe(
      'TOKEN_ISSUER',
    );
  });

  it('refuses expired tokens and those not valid yet, beyond the clock tolerance', async () => {
    expect(await reasonOf(verifier, await forgedToken(es256, claims({ exp: now() - 60 })))).toBe('TOKEN_EXPIRED');
    expect(await reasonOf(verifier, await forgedToken(es256, claims({ nbf: now() + 120 })))).toBe(
      'TOKEN_NOT_YET_VALID',
    );
    // Within the 30 s tolerance: accepted, and not taken for expired by what authorizes a call.
    const late = await verifier.verify(await forgedToken(es256, claims({ exp: now() - 5 })));
    expect(late.userId).toBe('forged-user');
    expect(isExpired(late)).toBe(false);
  });

  it('refuses a token without an expiry', async () => {
    expect(await reasonOf(verifier, await forgedToken(es256, claims({ exp: undefined })))).toBe('TOKEN_CLAIMS');
  });

  it('refuses alg none', async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'none', kid: es256.kid })).toString('base64url');
    const body = Buffer.from(JSON.stringify(claims())).toString('base64url');
    expect(await reasonOf(verifier, `${header}.${body}.`)).toBe('TOKEN_ALGORITHM');
  });

  it("refuses an HS256 token signed with the provider's public key (algorithm confusion)", async () => {
    const rsa = others.find((key) => key.alg === 'RS256')!;
    const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicJwk } = rsa.privateJwk;
    const pem = createPublicKey({ key: publicJwk, format: 'jwk' }).export({ type: 'spki', format: 'pem' });
    const confused = jwt.sign(claims(), pem, { algorithm: 'HS256', keyid: rsa.kid });
    expect(await reasonOf(verifier, confused)).toBe('TOKEN_SIGNATURE');
    const providersOnly = verifierFor(provider.issuer, {}, { JWT_SECRET: '', NODE_ENV: 'production' }).verifier;
    expect(await reasonOf(providersOnly, confused)).toBe('TOKEN_ALGORITHM');
  });

  it('refuses an algorithm the provider is not configured for', async () => {
    const esOnly = verifierFor(provider.issuer, { algorithms: ['ES256'] }).verifier;
    const rsa = others.find((key) => key.alg === 'RS256')!;
    expect(await reasonOf(esOnly, await forgedToken(rsa, claims()))).toBe('TOKEN_ALGORITHM');
  });

  it('refuses a token whose signature does not match', async () => {
    const token = await provider.userToken('alice');
    const [header, , signature] = token.split('.');
    const body = Buffer.from(JSON.stringify(claims({ sub: 'mallory' }))).toString('base64url');
    expect(await reasonOf(verifier, `${header}.${body}.${signature}`)).toBe('TOKEN_SIGNATURE');
  });

  it('refuses a token that is not a JWT', async () => {
    expect(await reasonOf(verifier, 'abc.def.ghi')).toBe('TOKEN_MALFORMED');
  });
});

describe('keys', () => {
  it('fetches the key set once per cooldown however many unknown key ids arrive', async () => {
    const { verifier } = verifierFor(provider.issuer, {}, { OIDC_KEYS_COOLDOWN_S: '60' });
    await verifier.verify(await forgedToken(es256, claims()));
    const before = (await provider.stats()).jwks;
    const stranger = await signingKey('ES256');
    const invented = await Promise.all(
      Array.from({ length: 50 }, (_, i) => forgedToken(stranger, claims(), { kid: `invented-${i}` })),
    );
    const reasons = await Promise.all(invented.map((token) => reasonOf(verifier, token)));
    expect(reasons).toEqual(Array(50).fill('TOKEN_KEY_UNKNOWN'));
    // The first fetch of this verifier was within the cooldown: not one more.
    expect((await provider.stats()).jwks - before).toBe(0);
  });
});

describe('a provider that rotates its keys', () => {
  let rotating: TestProvider;
  afterAll(async () => {
    await rotating?.stop();
  });

  it('takes a new key within the cooldown and refuses what the withdrawn one signed', async () => {
    const first = await signingKey('ES256');
    rotating = await startProvider({ keys: [first] });
    const { verifier, lines } = verifierFor(rotating.issuer);
    const withdrawn: string[][] = [];
    verifier.onKeysWithdrawn((_issuer, keyIds) => withdrawn.push([...keyIds]));
    const old = await rotating.userToken('alice');
    expect((await verifier.verify(old)).userId).toBe('alice');

    const second = await signingKey('RS256');
    await rotating.stop();
    rotating = await startProvider({ keys: [second], port: rotating.port });
    // Past the 1 s cooldown, twenty clients arrive at once with the new key: one fetch serves all.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const before = (await rotating.stats()).jwks;
    const fresh = await Promise.all(
      Array.from({ length: 20 }, (_, i) => forgedToken(second, { ...claims({ iss: rotating.issuer, sub: `u${i}` }) })),
    );
    const principals = await Promise.all(fresh.map((token) => verifier.verify(token)));
    expect(principals.map((principal) => principal.source?.keyThumbprint)).toEqual(
      Array(20).fill(await thumbprintOf(second)),
    );
    expect((await rotating.stats()).jwks - before).toBe(1);
    expect((await verifier.verify(await rotating.userToken('alice'))).userId).toBe('alice');
    expect(withdrawn).toEqual([[await thumbprintOf(first)]]);
    expect(await reasonOf(verifier, old)).toBe('TOKEN_KEY_UNKNOWN');
    expect(lines.filter((line) => line.code === 'OIDC_KEYS_WITHDRAWN')).toMatchObject([
      { keyIds: [first.kid], thumbprints: [await thumbprintOf(first)] },
    ]);
  });
});

describe('keys known by their thumbprint, not their kid', () => {
  let server: http.Server;
  let base: string;
  let keySet: JWK[] = [];
  let fetches = 0;

  beforeAll(async () => {
    server = http.createServer((_req, res) => {
      fetches += 1;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: keySet }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** A verifier of tokens from `base`, and what it says about withdrawn keys. */
  function watched() {
    const { verifier, lines } = verifierFor(base, { jwksUri: `${base}/jwks` });
    const withdrawn: string[][] = [];
    verifier.onKeysWithdrawn((issuer, thumbprints) => {
      expect(issuer).toBe(base);
      withdrawn.push([...thumbprints]);
    });
    const logged = () => lines.filter((line) => line.code === 'OIDC_KEYS_WITHDRAWN');
    return { verifier, withdrawn, logged };
  }

  /**
   * Makes the verifier fetch the key set again: a token naming a key id nobody publishes does,
   * once the 1 s cooldown is over. Waits for that fetch, not for a guessed time.
   */
  async function refetch(verifier: TokenVerifier): Promise<void> {
    const before = fetches;
    const probe = await forgedToken(await signingKey('ES256', 'nobody-publishes-this'), claims({ iss: base }));
    await eventually(async () => {
      expect(await reasonOf(verifier, probe)).toBe('TOKEN_KEY_UNKNOWN');
      return fetches > before;
    }, 10_000);
  }

  it('withdraws a key published without kid once the provider stops publishing it', async () => {
    const kidless = await signingKey('ES256');
    keySet = [published(kidless, { kid: undefined })];
    const { verifier, withdrawn, logged } = watched();
    const old = await forgedToken(kidless, claims({ iss: base }), { kid: undefined });
    const principal = await verifier.verify(old);
    expect(principal.source).toEqual({ issuer: base, keyThumbprint: await thumbprintOf(kidless) });

    // Removed in a hurry (leaked), another key in its place.
    keySet = [published(await signingKey('RS256'))];
    await refetch(verifier);
    expect(withdrawn).toEqual([[await thumbprintOf(kidless)]]);
    expect(await reasonOf(verifier, old)).toBe('TOKEN_KEY_UNKNOWN');
    // Without a kid, the log names the key by its thumbprint.
    expect(logged()).toMatchObject([
      { keyIds: [await thumbprintOf(kidless)], thumbprints: [await thumbprintOf(kidless)] },
    ]);
  });

  it('withdraws the old key when its kid is published again with new material', async () => {
    const before = await signingKey('ES256', 'reused');
    const after = await signingKey('ES256', 'reused');
    keySet = [published(before)];
    const { verifier, withdrawn, logged } = watched();
    const old = await forgedToken(before, claims({ iss: base }));
    expect((await verifier.verify(old)).source?.keyThumbprint).toBe(await thumbprintOf(before));

    keySet = [published(after)];
    await refetch(verifier);
    expect(withdrawn).toEqual([[await thumbprintOf(before)]]);
    // Forgotten, and checked afresh against what the kid names now: the signature does not match.
    expect(await reasonOf(verifier, old)).toBe('TOKEN_SIGNATURE');
    const fresh = await verifier.verify(await forgedToken(after, claims({ iss: base, sub: 'fresh' })));
    expect(fresh).toMatchObject({ userId: 'fresh', source: { keyThumbprint: await thumbprintOf(after) } });
    expect(logged()).toMatchObject([{ keyIds: ['reused'], thumbprints: [await thumbprintOf(before)] }]);
  });

  it('withdraws a key republished so that it can no longer verify (for encryption)', async () => {
    const key = await signingKey('ES256');
    keySet = [published(key)];
    const { verifier, withdrawn } = watched();
    const old = await forgedToken(key, claims({ iss: base }));
    await verifier.verify(old);
    keySet = [published(key, { use: 'enc' }), published(await signingKey('RS256'))];
    await refetch(verifier);
    expect(withdrawn).toEqual([[await thumbprintOf(key)]]);
    expect(await reasonOf(verifier, old)).toBe('TOKEN_KEY_UNKNOWN');
  });

  it('withdraws nothing while the same keys stay published, with or without kid, in any order', async () => {
    const named = await signingKey('ES256');
    const kidless = await signingKey('EdDSA');
    keySet = [published(named), published(kidless, { kid: undefined })];
    const { verifier, withdrawn, logged } = watched();
    const byNamed = await forgedToken(named, claims({ iss: base, sub: 'named' }));
    const byKidless = await forgedToken(kidless, claims({ iss: base, sub: 'kidless' }), { kid: undefined });
    expect((await verifier.verify(byNamed)).userId).toBe('named');
    expect((await verifier.verify(byKidless)).userId).toBe('kidless');

    // Reordered, members that are not part of the key changed, a key added: the same two keys.
    const added = published(await signingKey('RS256'));
    keySet = [published(kidless, { kid: undefined, use: undefined }), added, published(named, { alg: undefined })];
    await refetch(verifier);
    keySet = [published(named), added, published(kidless, { kid: undefined })];
    await refetch(verifier);
    expect(withdrawn).toEqual([]);
    expect(logged()).toEqual([]);
    expect((await verifier.verify(byNamed)).userId).toBe('named');
    expect((await verifier.verify(byKidless)).userId).toBe('kidless');
    // Tokens not seen before verify with the keys fetched last, and are known by the same thumbprints.
    const later = await forgedToken(kidless, claims({ iss: base, sub: 'later' }), { kid: undefined });
    expect((await verifier.verify(later)).source?.keyThumbprint).toBe(await thumbprintOf(kidless));
  });
});

describe('a provider that is down', () => {
  it('keeps verifying with cached keys, refuses new key ids, and says when it has no keys at all', async () => {
    const key = await signingKey('ES256');
    const down = await startProvider({ keys: [key] });
    const { verifier, lines } = verifierFor(down.issuer, {}, { OIDC_KEYS_MAX_AGE_S: '10' });
    const cached = (iat: number) => forgedToken(key, { ...claims({ iss: down.issuer, iat }) });
    expect((await verifier.verify(await cached(now()))).userId).toBe('forged-user');
    await down.stop();

    // Another token on the cached key verifies; a token naming a key not cached cannot.
    expect((await verifier.verify(await cached(now() - 1))).userId).toBe('forged-user');
    const unknown = await forgedToken(await signingKey('ES256'), claims({ iss: down.issuer }));
    expect(await reasonOf(verifier, unknown)).toBe('TOKEN_KEY_UNKNOWN');
    // Once the cooldown is over, an unknown key id tries the provider, which fails, and says so.
    await eventually(async () => {
      expect(await reasonOf(verifier, unknown)).toBe('TOKEN_KEY_UNKNOWN');
      return lines.some((line) => line.code === 'OIDC_KEYS_UNAVAILABLE');
    }, 10_000);

    const { verifier: coldStart } = verifierFor(down.issuer);
    expect(await reasonOf(coldStart, await cached(now() - 2))).toBe('TOKEN_KEYS_UNAVAILABLE');
  });
});

describe('key sets and discovery documents that are not usable', () => {
  let server: http.Server;
  let base: string;
  let answer: (res: http.ServerResponse, path: string) => void;

  beforeAll(async () => {
    server = http.createServer((req, res) => answer(res, req.url ?? ''));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  async function problemWith(serve: (res: http.ServerResponse, path: string) => void, settings = {}, env = {}) {
    answer = serve;
    const { verifier, lines } = verifierFor(base, settings, env);
    const token = await forgedToken(es256, claims({ iss: base }));
    expect(await reasonOf(verifier, token)).toBe('TOKEN_KEYS_UNAVAILABLE');
    const line = lines.find((candidate) => candidate.code === 'OIDC_KEYS_UNAVAILABLE');
    expect(JSON.stringify(line)).not.toContain(token);
    return String(line?.msg);
  }

  const json = (res: http.ServerResponse, value: unknown) => {
    res.setHeader('content-type', 'application/json');
    res.end(typeof value === 'string' ? value : JSON.stringify(value));
  };

  it('refuses a key set over 256 KiB', async () => {
    const huge = { keys: [{ kty: 'oct', k: 'x'.repeat(300 * 1024) }] };
    expect(await problemWith((res) => json(res, huge), { jwksUri: `${base}/jwks` })).toMatch(/more than 262144 bytes/);
  });

  it('refuses a key set of more than 100 keys', async () => {
    const many = { keys: Array.from({ length: 101 }, (_, i) => ({ kty: 'EC', kid: `k${i}` })) };
    expect(await problemWith((res) => json(res, many), { jwksUri: `${base}/jwks` })).toMatch(/101 keys/);
  });

  it('gives up on a key set that is slow to come', async () => {
    const slow = (res: http.ServerResponse) => {
      res.setHeader('content-type', 'application/json');
      res.write('{"keys": [');
    };
    // The only case cut off by time: the others must not be, however busy the machine.
    expect(await problemWith(slow, { jwksUri: `${base}/jwks` }, { OIDC_FETCH_TIMEOUT_MS: '300' })).toMatch(
      /within 300 ms/,
    );
  });

  it('refuses a discovery document that is not JSON, names another issuer, or has no jwks_uri', async () => {
    expect(await problemWith((res) => json(res, '<html>'))).toMatch(/not JSON/);
    expect(await problemWith((res) => json(res, { issuer: 'https://else.example', jwks_uri: `${base}/jwks` }))).toMatch(
      /names issuer/,
    );
    expect(await problemWith((res) => json(res, { issuer: base }))).toMatch(/no usable jwks_uri/);
  });

  it('keeps no key set that holds no keys (a glitch would otherwise withdraw every key)', async () => {
    expect(await problemWith((res) => json(res, { keys: [] }), { jwksUri: `${base}/jwks` })).toMatch(/holds no keys/);
  });

  it('keeps no key set none of whose keys can verify (a secret, a private key, an encryption key)', async () => {
    const keys = [{ kty: 'oct', k: 'c2VjcmV0' }, { ...(await signingKey('ES256')).privateJwk }];
    expect(await problemWith((res) => json(res, { keys }), { jwksUri: `${base}/jwks` })).toMatch(
      /holds no public signing keys/,
    );
  });

  it('refuses a key set that is not one', async () => {
    expect(await problemWith((res) => json(res, { keys: 'none' }), { jwksUri: `${base}/jwks` })).toMatch(
      /not a JSON Web Key Set/,
    );
  });
});

describe('OIDC_PROVIDERS', () => {
  const problems = (value: string): string[] => {
    try {
      loadConfig({ NODE_ENV: 'test', JWT_SECRET: SECRET, OIDC_PROVIDERS: value });
    } catch (error) {
      return (error as { problems: string[] }).problems;
    }
    return [];
  };

  it('names what is wrong and where', () => {
    expect(problems('not json')).toEqual([
      'OIDC_PROVIDERS must be JSON: a list of providers such as [{"issuer": ..., "audience": ...}]',
    ]);
    expect(problems(JSON.stringify([{ issuer: 'http://example.com', audience: 'a' }]))).toEqual([
      'OIDC_PROVIDERS is not valid at [0].issuer: must be an https URL without user or password (http only on a loopback host)',
    ]);
    expect(problems(JSON.stringify([{ issuer: 'https://a.example' }]))[0]).toMatch(
      /^OIDC_PROVIDERS is not valid at \[0\]\.audience/,
    );
    expect(problems(JSON.stringify([{ issuer: 'https://a.example', audience: 'a', extra: 1 }]))[0]).toMatch(/extra/);
    const twice = JSON.stringify([1, 2].map(() => ({ issuer: 'https://a.example', audience: 'a' })));
    expect(problems(twice)).toEqual(['OIDC_PROVIDERS names the issuer https://a.example twice']);
    expect(problems(JSON.stringify([{ issuer: 'https://u:p@a.example', audience: 'a' }]))[0]).toMatch(
      /without user or password/,
    );
    expect(problems(JSON.stringify([{ issuer: 'https://a.example', audience: 5 }]))[0]).toMatch(/must be a string/);
    expect(problems('[]')).toEqual([]);
  });

  it('lets production run without JWT_SECRET when providers are set, and not otherwise', () => {
    const provider = JSON.stringify([{ issuer: 'https://a.example', audience: 'a' }]);
    expect(() => loadConfig({ NODE_ENV: 'production', OIDC_PROVIDERS: provider })).not.toThrow();
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/JWT_SECRET must be set in production/);
  });
});

describe('OIDC_WEB_APP', () => {
  const PROVIDERS = JSON.stringify([{ issuer: 'https://a.example', audience: 'api' }]);
  const load = (value: string, providers = PROVIDERS) =>
    loadConfig({ NODE_ENV: 'test', JWT_SECRET: SECRET, OIDC_PROVIDERS: providers, OIDC_WEB_APP: value });
  const problems = (value: string, providers?: string): string[] => {
    try {
      load(value, providers);
    } catch (error) {
      return (error as { problems: string[] }).problems;
    }
    return [];
  };

  it('reads the web app client with its defaults, and the origins as origins', () => {
    expect(loadConfig({ NODE_ENV: 'test', JWT_SECRET: SECRET }).oidc.webApp).toBeUndefined();
    expect(load(JSON.stringify({ issuer: 'https://a.example', clientId: 'spa' })).oidc.webApp).toEqual({
      issuer: 'https://a.example',
      clientId: 'spa',
      scope: 'openid offline_access',
      params: {},
      origins: [],
    });
    const auth0 = {
      issuer: 'https://a.example',
      clientId: 'spa',
      scope: 'openid profile offline_access',
      params: { audience: 'https://api.example' },
      origins: ['https://login.example/oauth2/token'],
    };
    expect(load(JSON.stringify(auth0)).oidc.webApp).toEqual({ ...auth0, origins: ['https://login.example'] });
  });

  it('names what is wrong and where', () => {
    expect(problems('{')).toEqual(['OIDC_WEB_APP must be JSON: an object such as {"issuer": ..., "clientId": ...}']);
    expect(problems(JSON.stringify({ issuer: 'https://b.example', clientId: 'spa' }))).toEqual([
      'OIDC_WEB_APP names the issuer https://b.example, which OIDC_PROVIDERS does not',
    ]);
    expect(problems(JSON.stringify({ issuer: 'https://a.example' }))[0]).toMatch(
      /^OIDC_WEB_APP is not valid at \.clientId/,
    );
    expect(
      problems(JSON.stringify({ issuer: 'https://a.example', clientId: 'spa', params: { 'Bad-Name': 'x' } })),
    ).toEqual(['OIDC_WEB_APP is not valid at .params: must name lower-case parameters']);
    expect(
      problems(JSON.stringify({ issuer: 'https://a.example', clientId: 'spa', params: { state: 'x' } }))[0],
    ).toMatch(/^OIDC_WEB_APP is not valid at \.params: must not set what the sign-in sets itself \(client_id, /);
    const many = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`p${'abcdefghijk'[i]}`, 'x']));
    expect(problems(JSON.stringify({ issuer: 'https://a.example', clientId: 'spa', params: many }))[0]).toMatch(
      /at most 10 parameters/,
    );
    expect(
      problems(JSON.stringify({ issuer: 'https://a.example', clientId: 'spa', origins: ['http://evil.example'] }))[0],
    ).toMatch(/^OIDC_WEB_APP is not valid at \.origins\[0\]: must be an https URL/);
    expect(problems(JSON.stringify({ issuer: 'https://a.example', clientId: 'spa', secret: 'x' }))[0]).toMatch(
      /secret/,
    );
    // An origin that would end the CSP directive it is put in.
    for (const origin of ['https://b.example;sandbox', 'https://b.example,x'])
      expect(problems(JSON.stringify({ issuer: 'https://a.example', clientId: 'spa', origins: [origin] }))[0]).toMatch(
        /^OIDC_WEB_APP is not valid at \.origins\[0\]: must be an https URL/,
      );
    // Providers that are not valid are reported once; the web app's issuer is not said to be missing from them.
    expect(problems(JSON.stringify({ issuer: 'https://a.example', clientId: 'spa' }), 'nope')).toEqual([
      'OIDC_PROVIDERS must be JSON: a list of providers such as [{"issuer": ..., "audience": ...}]',
    ]);
  });
});
