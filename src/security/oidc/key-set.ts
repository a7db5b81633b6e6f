// One provider's signing keys, cached. jose's remote key set refetches on a miss too, but a fetch
// that fails once the cache is old makes every token fail: here the cached keys keep verifying while
// the provider is down, a stale set is refreshed in the background, and a token with an unknown
// `kid` fetches at most once per cooldown, so invented key ids cannot flood the provider. Keys are
// known by their thumbprint: one published without `kid`, or a `kid` reused for new material,
// is withdrawn like any other.
import {
  calculateJwkThumbprint,
  createLocalJWKSet,
  exportJWK,
  type FlattenedJWSInput,
  type JSONWebKeySet,
  type JWK,
  type JWSHeaderParameters,
  type KeyLike,
} from 'jose';
import { fetchJson, FetchProblem } from './fetch-json';
import { providerUrl } from './settings';

/** More keys than any provider publishes at once (current, next, a few retired). */
const MAX_KEYS = 100;

export interface KeySetOptions {
  issuer: string;
  /** Set: fetched directly; unset: found through the issuer's discovery document. */
  jwksUri: string | undefined;
  maxAgeMs: number;
  cooldownMs: number;
  fetchTimeoutMs: number;
  /** Told the keys a refresh no longer finds, so what they signed stops being trusted. */
  onRemoved: (keys: RemovedKey[]) => void;
  onFetchFailed: (problem: string) => void;
}

interface RemovedKey {
  thumbprint: string;
  /** For the log: which key it was, where it had an id. */
  kid: string | undefined;
}

/** The key that verifies a token, and its thumbprint, recorded on the token's principal. */
export interface VerifyingKey {
  key: KeyLike;
  thumbprint: string;
}

type Resolver = (header: JWSHeaderParameters, token: FlattenedJWSInput) => Promise<KeyLike>;

/** A published key that can verify, by its RFC 7638 thumbprint, and its `kid` for the log. */
interface PublishedKey {
  thumbprint: string;
  kid: string | undefined;
}

/** No key set could be had: none fetched yet, or a fetch failed within the cooldown. */
export class KeysUnavailable extends Error {}

export class ProviderKeys {
  /** jose's choice of a token's key among the last set fetched; undefined until one was. */
  private resolver: Resolver | undefined;
  private published: readonly PublishedKey[] = [];
  private thumbprints = new Set<string>();
  private jwksUri: string | undefined;
  private fetchedAt = -Infinity;
  private triedAt = -Infinity;
  private lastProblem = '';
  private inFlight: Promise<void> | undefined;

  constructor(
    private readonly options: KeySetOptions,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.jwksUri = options.jwksUri;
  }

  /** The key a token's header names, for jose's jwtVerify (the caller keeps its thumbprint). */
  async key(header: JWSHeaderParameters, token: FlattenedJWSInput): Promise<VerifyingKey> {
    if (!this.resolver) await this.refreshOrExplain();
    else if (this.now() - this.fetchedAt > this.options.maxAgeMs && this.mayTry()) {
      // Stale: this token uses the cached keys; the next ones get the fresh set. A provider that
      // is down is asked again only after the cooldown.
      void this.refresh().catch(() => undefined);
    }
    try {
      return await this.resolve(header, token);
    } catch (error) {
      const unknownKey = (error as { code?: string }).code === 'ERR_JWKS_NO_MATCHING_KEY';
      if (!unknownKey || (!this.mayTry() && !this.inFlight)) throw error;
      // A key id not seen yet: the provider may have rotated since the last fetch (or a fetch
      // for that is under way, which this token waits for with the others).
      await this.refreshOrExplain();
      return this.resolve(header, token);
    }
  }

  private async resolve(header: JWSHeaderParameters, token: FlattenedJWSInput): Promise<VerifyingKey> {
    const key = await this.resolver!(header, token);
    return { key, thumbprint: await thumbprintOfKey(key) };
  }

  /**
   * Whether a token verified with the key of this thumbprint may still be trusted: false once the
   * provider stopped publishing that key material, whatever `kid` it has.
   */
  holds(thumbprint: string): boolean {
    return this.thumbprints.has(thumbprint);
  }

  private mayTry(): boolean {
    return this.now() - this.triedAt >= this.options.cooldownMs;
  }

  private async refreshOrExplain(): Promise<void> {
    if (!this.mayTry() && !this.inFlight) {
      if (this.resolver) return;
      throw new KeysUnavailable(this.lastProblem);
    }
    try {
      await this.refresh();
    } catch (error) {
      if (!this.resolver) throw new KeysUnavailable(error instanceof Error ? error.message : String(error));
    }
  }

  /** One fetch at a time; callers during it share its outcome. */
  refresh(): Promise<void> {
    this.inFlight ??= this.fetchKeys().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  private async fetchKeys(): Promise<void> {
    this.triedAt = this.now();
    try {
      this.jwksUri ??= await this.discover();
      const jwks = keySetOf(await this.fetch(this.jwksUri, 'key set'));
      const published = (await Promise.all(jwks.keys.map(publishedKey))).filter((key) => key !== undefined);
      const thumbprints = new Set(published.map(({ thumbprint }) => thumbprint));
      // A set of keys none of which can verify is a glitch, not a withdrawal of every key.
      if (thumbprints.size === 0) throw new FetchProblem('key set holds no public signing keys');
      // A `kid` published again with other material is a removal too: its old key is gone.
      const removed = this.published.filter(({ thumbprint }) => !thumbprints.has(thumbprint));
      this.resolver = createLocalJWKSet(jwks);
      this.published = published;
      this.thumbprints = thumbprints;
      this.fetchedAt = this.now();
      if (removed.length > 0) this.options.onRemoved(removed);
    } catch (error) {
      this.lastProblem = error instanceof Error ? error.message : String(error);
      this.options.onFetchFailed(this.lastProblem);
      throw error;
    } finally {
      // The cooldown runs from the end of an attempt: a slow provider is not asked back to back.
      this.triedAt = this.now();
    }
  }

  private async discover(): Promise<string> {
    const url = `${this.options.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
    const document = await this.fetch(url, 'discovery document');
    const { issuer, jwks_uri: jwksUri } = (document ?? {}) as Record<string, unknown>;
    // OpenID Connect Discovery 1.0, section 4.3: the document must name the issuer it was asked of.
    if (issuer !== this.options.issuer) {
      throw new FetchProblem(`discovery document names issuer ${JSON.stringify(issuer)}, not ${this.options.issuer}`);
    }
    if (typeof jwksUri !== 'string' || !providerUrl.safeParse(jwksUri).success) {
      throw new FetchProblem('discovery document has no usable jwks_uri (https, or http on loopback)');
    }
    return jwksUri;
  }

  private async fetch(url: string, what: string): Promise<unknown> {
    try {
      return await fetchJson(url, this.options.fetchTimeoutMs);
    } catch (error) {
      if (error instanceof FetchProblem) throw new FetchProblem(`${what} ${url} ${error.message}`);
      throw error;
    }
  }
}

/**
 * A key that can verify a signature (a public RSA, EC or OKP key, for `sig` and `verify`), known by
 * its thumbprint; undefined for any other (an encryption key, a private or symmetric one), which
 * verifies nothing, so one republished that way counts as withdrawn.
 */
async function publishedKey(jwk: JWK): Promise<PublishedKey | undefined> {
  if (!['RSA', 'EC', 'OKP'].includes(jwk.kty ?? '') || jwk.d !== undefined) return undefined;
  if (typeof jwk.use === 'string' && jwk.use !== 'sig') return undefined;
  if (Array.isArray(jwk.key_ops) && !jwk.key_ops.includes('verify')) return undefined;
  const thumbprint = await calculateJwkThumbprint(jwk, 'sha256').catch(() => undefined);
  return thumbprint === undefined ? undefined : { thumbprint, kid: typeof jwk.kid === 'string' ? jwk.kid : undefined };
}

/** jose keeps one imported key per published key and algorithm, so each is exported once. */
const keyThumbprints = new WeakMap<KeyLike, Promise<string>>();

/** The thumbprint of the key jose chose: of its public members, so the same as the published key's. */
function thumbprintOfKey(key: KeyLike): Promise<string> {
  let thumbprint = keyThumbprints.get(key);
  if (thumbprint === undefined) {
    thumbprint = exportJWK(key).then((jwk) => calculateJwkThumbprint(jwk, 'sha256'));
    keyThumbprints.set(key, thumbprint);
  }
  return thumbprint;
}

function keySetOf(value: unknown): JSONWebKeySet {
  const keys = (value as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys) || !keys.every((key) => typeof key === 'object' && key !== null && !Array.isArray(key))) {
    throw new FetchProblem('key set is not a JSON Web Key Set ({"keys": [...]})');
  }
  if (keys.length > MAX_KEYS) throw new FetchProblem(`key set holds ${keys.length} keys, more than ${MAX_KEYS}`);
  // An empty set is a provider's glitch, not a rotation: taken, it would withdraw every key.
  if (keys.length === 0) throw new FetchProblem('key set holds no keys');
  return { keys: keys as JSONWebKeySet['keys'] };
}
