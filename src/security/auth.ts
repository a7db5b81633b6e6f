// Who is calling: bearer tokens, HS256 ones signed with our shared secret (`sub` the user id,
// `roles` holding "service" for backend callers) and those of the identity providers configured
// (security/oidc). The same verifier serves HTTP and WebSocket.
import { createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import jwt from 'jsonwebtoken';
import { AppError, forbidden, unauthenticated } from '../common/errors';
import { validName } from '../common/validation';
import type { ProviderIssuer } from './oidc/provider';
import { isExpired, SERVICE_ROLE, tokenRefused, type Principal } from './principal';

export { isExpired, SERVICE_ROLE, type Principal } from './principal';

export interface TokenOptions {
  /** Unset: HS256 tokens are refused (production with identity providers only). */
  secret: string | undefined;
  issuer?: string | undefined;
  audience?: string | undefined;
  /** Identity providers, by the `iss` of their tokens. */
  providers?: readonly ProviderIssuer[];
}

/** Keys by their RFC 7638 thumbprint. */
type KeysWithdrawn = (issuer: string, thumbprints: readonly string[]) => void;

const MAX_TOKEN_LENGTH = 4096;
const MAX_ROLES = 16;
/**
 * Verified tokens remembered (the oldest go first, a tenth at a time): at most this many, and at
 * most REMEMBERED_BYTES of token text. A provider's RS256 token is 800-2,000 characters, so the bound is on bytes too.
 */
const REMEMBERED_TOKENS = 10_000;
const REMEMBERED_BYTES = 16 * 1024 * 1024;

export class TokenVerifier {
  /**
   * The secret as a KeyObject, made once. Given a string, jsonwebtoken first tries to read it as
   * a PEM public key on every call, and that failed attempt was over half of a request's CPU.
   */
  private readonly key: KeyObject | undefined;
  private readonly providers: ReadonlyMap<string, ProviderIssuer>;

  constructor(private readonly options: TokenOptions) {
    this.key = options.secret === undefined ? undefined : createSecretKey(Buffer.from(options.secret, 'utf8'));
    this.providers = new Map((options.providers ?? []).map((provider) => [provider.config.issuer, provider]));
  }

  /**
   * Tokens that verified, with their principal. An app sends the same token with every request,
   * and checking its signature and claims again cost 10-15 µs (HS256) to 50-100 µs (RS256) each
   * time; a token is only ever remembered after it verified, and a remembered one past its expiry
   * is checked afresh (and refused). Only valid tokens get in, so a caller cannot fill it without
   * a key.
   */
  private readonly verified = new Map<string, Principal>();
  private rememberedBytes = 0;

  /**
   * Rejects with UNAUTHENTICATED (and a reason) any token that is not valid. A provider's token
   * may wait for its key set; a remembered or HS256 one does not.
   */
  async verify(token: string): Promise<Principal> {
    const known = this.verified.get(token);
    if (known !== undefined) {
      if (!isExpired(known)) return known;
      this.forget(token);
    }
    if (token.length > MAX_TOKEN_LENGTH) throw tokenRefused('TOKEN_MALFORMED', 'Bearer token is too long');
    const provider = this.providerOf(token);
    if (provider === undefined) return this.remember(token, this.checkShared(token));
    const principal = await provider.verify(token);
    // Checked again after the wait: a refresh that withdrew the key meanwhile has already made
    // forgetKeys run, and a token remembered after it would outlive the key.
    if (!this.trusts(principal)) {
      throw tokenRefused('TOKEN_KEY_UNKNOWN', "Bearer token key is not one of the provider's keys");
    }
    return this.remember(token, principal);
  }

  /** False for a provider's token whose key the provider has since withdrawn. */
  trusts(principal: Principal): boolean {
    if (principal.source === undefined) return true;
    return this.providers.get(principal.source.issuer)?.keys.holds(principal.source.keyThumbprint) ?? false;
  }

  /**
   * Forgets what tokens signed with these keys (by thumbprint) verified to: a provider withdrew them (a rotation
   * or a leaked key), so those tokens must be checked again, and fail.
   */
  forgetKeys(issuer: string, thumbprints: readonly string[]): void {
    for (const [token, principal] of this.verified) {
      if (principal.source?.issuer === issuer && thumbprints.includes(principal.source.keyThumbprint)) {
        this.forget(token);
      }
    }
    for (const listener of this.withdrawals) listener(issuer, thumbprints);
  }

  private readonly withdrawals = new Set<KeysWithdrawn>();

  /** Told when a provider withdraws keys (after forgetKeys); returns the way to stop listening. */
  onKeysWithdrawn(listener: KeysWithdrawn): () => void {
    this.withdrawals.add(listener);
    return () => this.withdrawals.delete(listener);
  }

  /**
   * The provider a token claims to come from, undefined for one of ours (HS256). Only the header
   * and the `iss` are read here, unverified: they choose which key checks the signature, so an
   * HS256 token can never be checked against a provider's public key (algorithm confusion).
   */
  private providerOf(token: string): ProviderIssuer | undefined {
    let alg: unknown;
    let iss: unknown;
    try {
      alg = decodeProtectedHeader(token).alg;
      if (alg !== 'HS256') iss = decodeJwt(token).iss;
    } catch {
      throw tokenRefused('TOKEN_MALFORMED', 'Bearer token is not valid');
    }
    if (alg === 'HS256') {
      if (this.key === undefined) throw tokenRefused('TOKEN_ALGORITHM', 'Bearer token algorithm is not accepted');
      return undefined;
    }
    const provider = typeof iss === 'string' ? this.providers.get(iss) : undefined;
    if (provider !== undefined) return provider;
    if (this.providers.size === 0) throw tokenRefused('TOKEN_ALGORITHM', 'Bearer token algorithm is not accepted');
    throw tokenRefused('TOKEN_ISSUER', 'Bearer token issuer is not trusted');
  }

  private remember(token: string, principal: Principal): Principal {
    if (this.verified.has(token)) return principal;
    this.verified.set(token, principal);
    this.rememberedBytes += token.length;
    if (this.verified.size > REMEMBERED_TOKENS || this.rememberedBytes > REMEMBERED_BYTES) this.forgetOldest();
    return principal;
  }

  /**
   * Forgets the oldest tokens down to nine tenths of both bounds, in one pass. One at a time, each
   * eviction would walk from the map's front over the holes the earlier ones left there (V8 keeps
   * them until it rehashes): 6-12 µs per new token at 10,000 remembered, against under 1 µs.
   */
  private forgetOldest(): void {
    for (const token of this.verified.keys()) {
      if (this.verified.size <= REMEMBERED_TOKENS * 0.9 && this.rememberedBytes <= REMEMBERED_BYTES * 0.9) return;
      this.forget(token);
    }
  }

  private forget(token: string): void {
    if (this.verified.delete(token)) this.rememberedBytes -= token.length;
  }

  private checkShared(token: string): Principal {
    let claims: jwt.JwtPayload;
    try {
      const decoded = jwt.verify(token, this.key!, {
        algorithms: ['HS256'],
        issuer: this.options.issuer,
        audience: this.options.audience,
        clockTolerance: 5,
      });
      if (typeof decoded === 'string') throw new Error('payload is not an object');
      claims = decoded;
    } catch (error) {
      throw sharedRefusal(error);
    }
    return principalFromClaims(claims);
  }

  sign(userId: string, roles: string[], expiresInSeconds: number): string {
    if (this.key === undefined) throw new Error('No JWT_SECRET: this server signs no tokens');
    return jwt.sign({ roles }, this.key, {
      algorithm: 'HS256',
      subject: userId,
      expiresIn: expiresInSeconds,
      ...(this.options.issuer ? { issuer: this.options.issuer } : {}),
      ...(this.options.audience ? { audience: this.options.audience } : {}),
    });
  }
}

function sharedRefusal(error: unknown): AppError {
  if (error instanceof jwt.TokenExpiredError) return tokenRefused('TOKEN_EXPIRED', 'Bearer token has expired');
  if (error instanceof jwt.NotBeforeError) return tokenRefused('TOKEN_NOT_YET_VALID', 'Bearer token is not valid yet');
  const message = error instanceof Error ? error.message : '';
  if (message.startsWith('jwt issuer invalid')) return tokenRefused('TOKEN_ISSUER', 'Bearer token is not valid');
  if (message.startsWith('jwt audience invalid')) return tokenRefused('TOKEN_AUDIENCE', 'Bearer token is not valid');
  if (message === 'invalid signature') return tokenRefused('TOKEN_SIGNATURE', 'Bearer token is not valid');
  return tokenRefused('TOKEN_MALFORMED', 'Bearer token is not valid');
}

function principalFromClaims(claims: jwt.JwtPayload): Principal {
  let userId: string;
  try {
    userId = validName(String(claims.sub ?? ''), 'sub');
  } catch (error) {
    const reason = error instanceof AppError ? error.message : 'sub is not valid';
    throw tokenRefused('TOKEN_CLAIMS', `Bearer token subject is not a usable user id: ${reason}`);
  }
  const roles: unknown = claims.roles ?? [];
  if (!Array.isArray(roles) || roles.length > MAX_ROLES || !roles.every((r) => typeof r === 'string')) {
    throw tokenRefused('TOKEN_CLAIMS', 'Bearer token roles claim must be a list of strings');
  }
  // Frozen: one principal now serves every request that sends the same token.
  return Object.freeze({
    userId,
    roles: Object.freeze([...roles]),
    isService: roles.includes(SERVICE_ROLE),
    expiresAt: typeof claims.exp === 'number' ? claims.exp * 1000 : undefined,
  });
}

/**
 * Reads "Bearer <token>". Returns undefined when there is no header (an anonymous caller);
 * a header in any other shape is an error rather than silently anonymous.
 */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined || header === '') return undefined;
  const match = /^Bearer ([A-Za-z0-9\-_.=]+)$/i.exec(header.trim());
  if (!match) throw tokenRefused('TOKEN_MALFORMED', 'Authorization header must be "Bearer <token>"');
  return match[1];
}

/**
 * Outside production an unset JWT_SECRET is replaced by a random one kept in the data directory,
 * so the tokens printed at start keep working across restarts.
 */
export function developmentSecret(dataDir: string): string {
  const file = path.join(dataDir, 'dev-jwt-secret');
  try {
    const existing = fs.readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) return existing;
  } catch {
    // not there yet
  }
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(32).toString('base64url');
  fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/**
 * The one check of who may call what: no roles needs any valid caller; SERVICE_ROLE a service
 * caller. Any other role must be in the token's roles: a role this did not know would otherwise
 * let anyone in. Throws UNAUTHENTICATED or FORBIDDEN. GraphQL's @Authorized and the log upload
 * route both call it.
 */
export function authorize(principal: Principal | null, roles: readonly string[]): Principal {
  if (!principal || isExpired(principal)) throw unauthenticated();
  for (const role of roles) {
    if (role === SERVICE_ROLE && !principal.isService) {
      throw forbidden('This operation is for service callers (a token whose roles include "service")');
    }
    if (role !== SERVICE_ROLE && !principal.roles.includes(role))
      throw forbidden(`This operation needs the role "${role}"`);
  }
  return principal;
}
