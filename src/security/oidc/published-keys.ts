// The keys of one fetched key set, each known by its RFC 7638 thumbprint (SHA-256) rather than its
// `kid`, which a key may lack or a provider may reuse for new material; and the choice of the key
// a token's header names, made as jose's createLocalJWKSet makes it, so we know which key it was.
import {
  calculateJwkThumbprint,
  errors,
  importJWK,
  type FlattenedJWSInput,
  type JWK,
  type JWSHeaderParameters,
  type KeyLike,
} from 'jose';

export class PublishedKey {
  readonly kid: string | undefined;
  /** Imported once per algorithm (a failure is not kept: the algorithm comes from a token). */
  private readonly imported = new Map<string, Promise<KeyLike>>();

  private constructor(
    readonly jwk: JWK,
    /**
     * Undefined for a key that cannot verify a signature (not a public RSA, EC or OKP key for
     * `sig` and `verify`), or lacks the members its type needs: such a key verifies nothing, and a
     * key republished that way counts as withdrawn.
     */
    readonly thumbprint: string | undefined,
  ) {
    this.kid = typeof jwk.kid === 'string' ? jwk.kid : undefined;
  }

  static async of(jwk: JWK): Promise<PublishedKey> {
    const thumbprint = canVerify(jwk) ? await calculateJwkThumbprint(jwk, 'sha256').catch(() => undefined) : undefined;
    return new PublishedKey(jwk, thumbprint);
  }

  /** The key to verify a token of this algorithm with, and its thumbprint. */
  async verifying(alg: string): Promise<{ key: KeyLike; thumbprint: string }> {
    if (this.thumbprint === undefined) throw new errors.JWKSInvalid('JSON Web Key Set member is not a usable key');
    let key = this.imported.get(alg);
    if (key === undefined) {
      key = importPublic(this.jwk, alg);
      this.imported.set(alg, key);
      key.catch(() => this.imported.delete(alg));
    }
    return { key: await key, thumbprint: this.thumbprint };
  }
}

function canVerify(jwk: JWK): boolean {
  if (!['RSA', 'EC', 'OKP'].includes(jwk.kty ?? '') || jwk.d !== undefined) return false;
  if (typeof jwk.use === 'string' && jwk.use !== 'sig') return false;
  return !Array.isArray(jwk.key_ops) || jwk.key_ops.includes('verify');
}

async function importPublic(jwk: JWK, alg: string): Promise<KeyLike> {
  const key = await importJWK({ ...jwk, ext: true }, alg);
  if (key instanceof Uint8Array || key.type !== 'public') {
    throw new errors.JWKSInvalid('JSON Web Key Set members must be public keys');
  }
  return key;
}

/**
 * The key a token names, chosen as jose 5's createLocalJWKSet chooses: the key type of the
 * algorithm, the `kid` when the token has one, and the key's own alg, use, key_ops and curve when
 * it states them. No key fits, or several do (a token without `kid`): jose's error for either.
 * The algorithm is the header's, with the unprotected one's over it, as jose reads it.
 */
export function chooseKey(
  keys: readonly PublishedKey[],
  protectedHeader: JWSHeaderParameters,
  token: FlattenedJWSInput | undefined,
): { key: PublishedKey; alg: string } {
  const { alg, kid } = { ...protectedHeader, ...token?.header };
  const kty = typeof alg === 'string' ? keyTypeOf(alg) : undefined;
  if (kty === undefined || alg === undefined) {
    throw new errors.JOSENotSupported('Unsupported "alg" value for a JSON Web Key Set');
  }
  const candidates = keys.filter(({ jwk }) => fits(jwk, kty, alg, kid));
  if (candidates.length === 0) throw new errors.JWKSNoMatchingKey();
  if (candidates.length > 1) throw new errors.JWKSMultipleMatchingKeys();
  return { key: candidates[0], alg };
}

function keyTypeOf(alg: string): string | undefined {
  switch (alg.slice(0, 2)) {
    case 'RS':
    case 'PS':
      return 'RSA';
    case 'ES':
      return 'EC';
    case 'Ed':
      return 'OKP';
    default:
      return undefined;
  }
}

const CURVES: ReadonlyMap<string, readonly string[]> = new Map([
  ['EdDSA', ['Ed25519', 'Ed448']],
  ['ES256', ['P-256']],
  ['ES256K', ['secp256k1']],
  ['ES384', ['P-384']],
  ['ES512', ['P-521']],
]);

function fits(jwk: JWK, kty: string, alg: string, kid: string | undefined): boolean {
  if (jwk.kty !== kty) return false;
  if (typeof kid === 'string' && jwk.kid !== kid) return false;
  if (typeof jwk.alg === 'string' && jwk.alg !== alg) return false;
  if (typeof jwk.use === 'string' && jwk.use !== 'sig') return false;
  if (Array.isArray(jwk.key_ops) && !jwk.key_ops.includes('verify')) return false;
  const curves = CURVES.get(alg);
  return curves === undefined || curves.includes(jwk.crv as string);
}
