// Tokens of one identity provider: signature against its published keys (jose), its issuer, our
// audience, the time claims within a small tolerance, then the claims mapped to a caller.
import {
  errors,
  jwtVerify,
  type FlattenedJWSInput,
  type JWSHeaderParameters,
  type JWTPayload,
  type KeyLike,
} from 'jose';
import { tokenRefused, type Principal } from '../principal';
import { principalFromProvider } from './claims';
import { KeysUnavailable, ProviderKeys, type KeySetOptions } from './key-set';
import type { ProviderConfig } from './settings';

export interface ProviderOptions {
  clockToleranceS: number;
  keys: Omit<KeySetOptions, 'issuer' | 'jwksUri'>;
}

export class ProviderIssuer {
  readonly keys: ProviderKeys;

  constructor(
    readonly config: ProviderConfig,
    private readonly options: ProviderOptions,
  ) {
    this.keys = new ProviderKeys({ ...options.keys, issuer: config.issuer, jwksUri: config.jwksUri });
  }

  async verify(token: string): Promise<Principal> {
    const { issuer, audience, audienceClaim, algorithms } = this.config;
    let payload: JWTPayload;
    // The key that verified the token, so the token is trusted only while that key is published.
    // Empty (no key's) until jose asks for a key, which it does before any token verifies.
    let thumbprint = '';
    const key = async (header: JWSHeaderParameters, jws: FlattenedJWSInput): Promise<KeyLike> => {
      const verifying = await this.keys.key(header, jws);
      thumbprint = verifying.thumbprint;
      return verifying.key;
    };
    try {
      const verified = await jwtVerify(token, key, {
        issuer,
        algorithms,
        ...(audienceClaim === 'aud' ? { audience } : {}),
        clockTolerance: this.options.clockToleranceS,
        requiredClaims: ['exp'],
      });
      payload = verified.payload;
    } catch (error) {
      throw refusal(error);
    }
    if (audienceClaim === 'client_id' && !audience.includes(payload.client_id as string)) {
      throw tokenRefused('TOKEN_AUDIENCE', 'Bearer token is not for this API (client_id)');
    }
    return principalFromProvider(payload, this.config, thumbprint, this.options.clockToleranceS);
  }
}

/** jose's error as the reason a client is told; never the token or a claim's value. */
function refusal(error: unknown): Error {
  if (error instanceof KeysUnavailable) {
    return tokenRefused(
      'TOKEN_KEYS_UNAVAILABLE',
      "Bearer token cannot be checked: the provider's keys are unavailable",
    );
  }
  if (error instanceof errors.JWTExpired) return tokenRefused('TOKEN_EXPIRED', 'Bearer token has expired');
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'iss') return tokenRefused('TOKEN_ISSUER', 'Bearer token issuer is not trusted');
    if (error.claim === 'aud') return tokenRefused('TOKEN_AUDIENCE', 'Bearer token is not for this API (aud)');
    if (error.claim === 'nbf' && error.reason === 'check_failed') {
      return tokenRefused('TOKEN_NOT_YET_VALID', 'Bearer token is not valid yet');
    }
    return tokenRefused('TOKEN_CLAIMS', `Bearer token claim "${error.claim}" is missing or not valid`);
  }
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) {
    return tokenRefused('TOKEN_ALGORITHM', 'Bearer token algorithm is not accepted');
  }
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) {
    return tokenRefused('TOKEN_KEY_UNKNOWN', "Bearer token key is not one of the provider's keys");
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return tokenRefused('TOKEN_SIGNATURE', 'Bearer token signature is not valid');
  }
  return tokenRefused('TOKEN_MALFORMED', 'Bearer token is not valid');
}
