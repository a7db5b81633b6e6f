// The request gate: who is calling, and whether they may call now. One object decides it for
// every entry point: the express path, the GraphQL fast path, the WebSocket handshake, its
// connection_init and each of its operations. The transports only say how a refusal is sent.
import { bearerToken, type Principal, type TokenVerifier } from './auth';
import { tokenRefused } from './principal';
import { AppError } from '../common/errors';
import type { RateLimits } from './rate-limit';

/** A refusal as every transport reports it. */
export interface Refusal {
  /** The HTTP status (the WebSocket handshake answers with it too). */
  status: number;
  code: string;
  message: string;
  /** Extra fields of the error's `extensions` (retryAfterMs). */
  details: Record<string, unknown>;
  /** Response headers that go with it (retry-after, www-authenticate). */
  headers: Record<string, string>;
}

/** The JSON body of a refusal: the GraphQL error shape, with the code in `extensions`. */
export function errorBody(
  code: string,
  message: string,
  details: Record<string, unknown> = {},
): { errors: { message: string; extensions: Record<string, unknown> }[] } {
  return { errors: [{ message, extensions: { code, ...details } }] };
}

export interface Admission {
  /** null for a caller without a token (or with one that was refused). */
  principal: Principal | null;
  refusal?: Refusal;
  /** Set when the rate could not be counted for an unexpected reason (a bug): answer 500. */
  error?: unknown;
}

export class RequestGate {
  constructor(
    readonly verifier: TokenVerifier,
    private readonly rateLimits: RateLimits,
  ) {}

  /**
   * The caller an Authorization value names: null when there is none. A value that is not a
   * valid bearer token rejects with UNAUTHENTICATED (an AppError).
   */
  async identify(authorization: unknown): Promise<Principal | null> {
    if (authorization === undefined) return null;
    if (typeof authorization !== 'string')
      throw tokenRefused('TOKEN_MALFORMED', 'Authorization must be a bearer token');
    const token = bearerToken(authorization);
    return token === undefined ? null : this.verifier.verify(token);
  }

  /** Counts one request or operation of `principal` from `address`; the refusal when over a limit. */
  async count(principal: Principal | null, address: string | undefined): Promise<Refusal | undefined> {
    try {
      await this.rateLimits.check(principal, address);
      return undefined;
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'RATE_LIMITED') throw error;
      const retryAfterMs = Number(error.details.retryAfterMs);
      return {
        status: 429,
        code: error.code,
        message: error.message,
        details: { retryAfterMs },
        headers: { 'retry-after': String(Math.ceil(retryAfterMs / 1000)) },
      };
    }
  }

  /**
   * An HTTP request: identify the caller, count it, then refuse a bad token. A bad token is
   * counted against its address first: guessing tokens costs a client its rate like anything else.
   */
  async admit(authorization: string | undefined, address: string | undefined): Promise<Admission> {
    let principal: Principal | null = null;
    let refusedToken: AppError | undefined;
    try {
      principal = await this.identify(authorization);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      refusedToken = error;
    }
    let overLimit: Refusal | undefined;
    try {
      overLimit = await this.count(principal, address);
    } catch (error) {
      // The caller is known by now: the request's log line still names them.
      return { principal, error };
    }
    if (overLimit) return { principal, refusal: overLimit };
    if (refusedToken) {
      return {
        principal,
        refusal: {
          status: 401,
          code: refusedToken.code,
          message: refusedToken.message,
          details: refusedToken.details,
          headers: { 'www-authenticate': 'Bearer' },
        },
      };
    }
    return { principal };
  }
}
