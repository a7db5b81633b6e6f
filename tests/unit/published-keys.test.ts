// Our choice of a token's key (src/security/oidc/published-keys.ts) re-implements jose's
// createLocalJWKSet, so that the code knows which key verified a token. Here both choose over
// random key sets and token headers, and must agree on every one: which key, or a refusal. A jose
// upgrade that changes its rules shows up here instead of loosening verification unseen.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { calculateJwkThumbprint, createLocalJWKSet, exportJWK, generateKeyPair, type JWK, type KeyLike } from 'jose';
import { chooseKey, PublishedKey } from '../../src/security/oidc/published-keys';

const ALGORITHMS = ['ES256', 'ES384', 'RS256', 'PS256', 'EdDSA', 'HS256'] as const;

let pool: JWK[] = [];
beforeAll(async () => {
  for (const alg of ['ES256', 'ES384', 'RS256', 'EdDSA'] as const) {
    const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
    pool.push(await exportJWK(publicKey), await exportJWK(privateKey));
  }
  pool.push({ kty: 'oct', k: Buffer.from('a shared secret').toString('base64url') });
  pool = pool.map((jwk) => Object.freeze(jwk));
});

/** Mostly absent: most published keys state few members. */
const maybe = <T>(values: readonly T[]) =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: fc.constantFrom(...values), weight: 1 });

/** A key of the pool with its members changed as providers (or mistakes) publish them. */
const publishedKey = fc
  .record({
    index: fc.nat(8),
    kid: maybe(['a', 'b', 'c']),
    alg: maybe(ALGORITHMS),
    use: maybe(['sig', 'enc']),
    keyOps: maybe([['verify'], ['encrypt'], ['sign', 'verify']]),
  })
  .map(({ index, kid, alg, use, keyOps }) => {
    const jwk: JWK = { ...pool[index] };
    if (kid !== undefined) jwk.kid = kid;
    if (alg !== undefined) jwk.alg = alg;
    if (use !== undefined) jwk.use = use;
    if (keyOps !== undefined) jwk.key_ops = keyOps;
    return jwk;
  });

/** jose's choice: the chosen key's thumbprint, or 'refused'. */
async function joseChoice(keys: JWK[], header: { alg: string; kid?: string }): Promise<string> {
  try {
    const key = await createLocalJWKSet({ keys })(header, { payload: '', signature: '' });
    return await thumbprintOfKey(key);
  } catch {
    return 'refused';
  }
}

/** Ours, the same way. */
async function ourChoice(keys: JWK[], header: { alg: string; kid?: string }): Promise<string> {
  try {
    const published = await Promise.all(keys.map((jwk) => PublishedKey.of(jwk)));
    const { key, alg } = chooseKey(published, header, undefined);
    return await thumbprintOfKey((await key.verifying(alg)).key);
  } catch {
    return 'refused';
  }
}

async function thumbprintOfKey(key: KeyLike): Promise<string> {
  const jwk = await exportJWK(key);
  return jwk.kty === 'oct' ? createHash('sha256').update(String(jwk.k)).digest('hex') : calculateJwkThumbprint(jwk);
}

describe('choosing a token key as jose does', () => {
  it('agrees with createLocalJWKSet on random key sets and headers', async () => {
    let chosen = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(publishedKey, { minLength: 1, maxLength: 5 }),
        // Mostly the algorithms of the pool's keys, so that many runs choose a key.
        fc.oneof(
          { arbitrary: fc.constantFrom('ES256', 'RS256', 'EdDSA'), weight: 3 },
          { arbitrary: fc.constantFrom(...ALGORITHMS), weight: 1 },
        ),
        maybe(['a', 'b', 'c']),
        async (keys, alg, kid) => {
          const header = kid === undefined ? { alg } : { alg, kid };
          const ours = await ourChoice(keys, header);
          expect(ours).toBe(await joseChoice(keys, header));
          if (ours !== 'refused') chosen += 1;
        },
      ),
      { numRuns: 500, seed: 36 },
    );
    // The runs must have chosen keys, not only refused.
    expect(chosen).toBeGreaterThan(40);
  });
});
