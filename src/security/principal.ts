// Who a verified token names, whoever issued it (our shared secret or an identity provider), and
// how a refused token is reported: UNAUTHENTICATED, with a `reason` saying what was wrong.
import { AppError } from '../common/errors';

export const SERVICE_ROLE = 'service';

export interface Principal {
  userId: string;
  readonly roles: readonly string[];
  isService: boolean;
  /** Epoch milliseconds after which the token is no longer valid, if it expires. */
  expiresAt: number | undefined;
  /**
   * A provider's token: its issuer and the RFC 7638 thumbprint of the key that verified it, so
   * sockets it opened close when the key is withdrawn.
   */
  readonly source?: { readonly issuer: string; readonly keyThumbprint: string };
}

/** `extensions.reason` of a refused token (docs/sign-in.md lists them). */
export type TokenRefusal =
  | 'TOKEN_MALFORMED'
  | 'TOKEN_EXPIRED'
  | 'TOKEN_NOT_YET_VALID'
  | 'TOKEN_ISSUER'
  | 'TOKEN_AUDIENCE'
  | 'TOKEN_ALGORITHM'
  | 'TOKEN_SIGNATURE'
  | 'TOKEN_KEY_UNKNOWN'
  | 'TOKEN_KEYS_UNAVAILABLE'
  | 'TOKEN_CLAIMS';

export const tokenRefused = (reason: TokenRefusal, message: string): AppError =>
  new AppError('UNAUTHENTICATED', message, { reason });

export function isExpired(principal: Principal, now = Date.now()): boolean {
  return principal.expiresAt !== undefined && principal.expiresAt <= now;
}
