// Who is calling: HS256 bearer tokens whose `sub` is the user id and whose `roles` claim may
// hold "service" for backend callers. The same verifier serves HTTP and WebSocket.
import { createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import jwt from 'jsonwebtoken';
import { AppError, forbidden, unauthenticated } from '../common/errors';
import { validName } from '../common/validation';

export const SERVICE_ROLE = 'service';

export interface Principal {
  userId: string;
  readonly roles: readonly string[];
  isService: boolean;
  /** Epoch milliseconds after which the token is no longer valid, if it expires. */
  expiresAt: number | undefined;
}

export interface TokenOptions {
  secret: string;
  issuer?: string | undefined;
  audience?: string | undefined;
}

const MAX_TOKEN_LENGTH = 4096;
const MAX_ROLES = 16;
/** Verified tokens remembered (the oldest go first), and the longest remembered: at most about 10 MB. */
const REMEMBERED_TOKENS = 10_000;
const REMEMBERED_TOKEN_LENGTH = 1024;

export class TokenVerifier {
  /**
   * The secret as a KeyObject, made once. Given a string, jsonwebtoken first tries to read it as
   * a PEM public key on every call, and that failed attempt was over half of a request's CPU.
   */
  private readonly key: KeyObject;

  constructor(private readonly options: TokenOptions) {
    this.key = createSecretKey(Buffer.from(options.secret, 'utf8'));
  }

  /**
   * Tokens that verified, with their principal. An app sends the same token with every request,
   * and checking its HMAC and claims again cost 10-15 µs each time; a token is only ever
   * remembered after it verified, and a remembered one past its expiry is checked afresh (and
   * refused). Only valid tokens get in, so a caller cannot fill it without the secret.
   */
  private readonly verified = new Map<string, Principal>();

  /** Throws UNAUTHENTICATED for any token that is not ours, is expired, or lacks a usable subject. */
  verify(token: string): Principal {
    const known = this.verified.get(token);
    if (known !== undefined) {
      if (!isExpired(known)) return known;
      this.verified.delete(token);
    }
    const principal = this.check(token);
    if (token.length <= REMEMBERED_TOKEN_LENGTH) {
      if (this.verified.size >= REMEMBERED_TOKENS) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(token, principal);
    }
    return principal;
  }

  private check(token: string): Principal {
    if (token.length > MAX_TOKEN_LENGTH) throw unauthenticated('Bearer token is too long');
    let claims: jwt.JwtPayload;
    try {
      const decoded = jwt.verify(token, this.key, {
        algorithms: ['HS256'],
        issuer: this.options.issuer,
        audience: this.options.audience,
        clockTolerance: 5,
      });
      if (typeof decoded === 'string') throw new Error('payload is not an object');
      claims = decoded;
    } catch (error) {
      const reason = error instanceof jwt.TokenExpiredError ? 'has expired' : 'is not valid';
      throw unauthenticated(`Bearer token ${reason}`);
    }
    return principalFromClaims(claims);
  }

  sign(userId: string, roles: string[], expiresInSeconds: number): string {
    return jwt.sign({ roles }, this.key, {
      algorithm: 'HS256',
      subject: userId,
      expiresIn: expiresInSeconds,
      ...(this.options.issuer ? { issuer: this.options.issuer } : {}),
      ...(this.options.audience ? { audience: this.options.audience } : {}),
    });
  }
}

function principalFromClaims(claims: jwt.JwtPayload): Principal {
  let userId: string;
  try {
    userId = validName(String(claims.sub ?? ''), 'sub');
  } catch (error) {
    const reason = error instanceof AppError ? error.message : 'sub is not valid';
    throw unauthenticated(`Bearer token subject is not a usable user id: ${reason}`);
  }
  const roles: unknown = claims.roles ?? [];
  if (!Array.isArray(roles) || roles.length > MAX_ROLES || !roles.every((r) => typeof r === 'string')) {
    throw unauthenticated('Bearer token roles claim must be a list of strings');
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
  if (!match) throw unauthenticated('Authorization header must be "Bearer <token>"');
  return match[1];
}

export function isExpired(principal: Principal, now = Date.now()): boolean {
  return principal.expiresAt !== undefined && principal.expiresAt <= now;
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
