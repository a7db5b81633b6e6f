// The token verifier of a running server: our HS256 secret (a development one outside production
// when unset) and the identity providers configured, their keys fetched at start and refreshed as
// security/oidc/key-set.ts says, withdrawals logged and acted on.
import type { Config } from '../config';
import type { Logger } from '../common/logger';
import { developmentSecret, TokenVerifier } from './auth';
import { ProviderIssuer } from './oidc/provider';

export function createTokenVerifier(
  config: Pick<Config, 'jwtSecret' | 'jwtIssuer' | 'jwtAudience' | 'isProduction' | 'dataDir' | 'oidc'>,
  logger: Logger,
): TokenVerifier {
  const { oidc } = config;
  const providers = oidc.providers.map((provider) => {
    const log = logger.child({ issuer: provider.issuer });
    return new ProviderIssuer(provider, {
      clockToleranceS: oidc.clockToleranceS,
      keys: {
        maxAgeMs: oidc.keysMaxAgeMs,
        cooldownMs: oidc.keysCooldownMs,
        fetchTimeoutMs: oidc.fetchTimeoutMs,
        onRemoved: (keys) => {
          const thumbprints = keys.map((key) => key.thumbprint);
          // Which keys, by the ids operators know them by; by thumbprint where a key had none.
          const keyIds = keys.map((key) => key.kid ?? key.thumbprint);
          log.warn(
            { code: 'OIDC_KEYS_WITHDRAWN', keyIds, thumbprints },
            'identity provider withdrew keys; their tokens are refused',
          );
          verifier.forgetKeys(provider.issuer, thumbprints);
        },
        onFetchFailed: (problem) =>
          log.warn({ code: 'OIDC_KEYS_UNAVAILABLE' }, `identity provider keys could not be fetched: ${problem}`),
      },
    });
  });
  const secret = config.jwtSecret ?? (config.isProduction ? undefined : developmentSecret(config.dataDir));
  const verifier = new TokenVerifier({ secret, issuer: config.jwtIssuer, audience: config.jwtAudience, providers });
  // Fetched now, so the first caller does not wait for them; a failure is logged and retried on use.
  for (const provider of providers) void provider.keys.refresh().catch(() => undefined);
  return verifier;
}
