// From a provider token's verified claims to a caller: which claim is the user id, where the roles
// are, and whether the caller is a service (by role, or by the OAuth client of a client-credentials
// token).
import { AppError } from '../../common/errors';
import { validName } from '../../common/validation';
import { tokenRefused, type Principal } from '../principal';
import type { ProviderConfig } from './settings';

/** Keycloak gives a few default roles to everyone; more than this is not a token we expect. */
const MAX_ROLES = 64;

/**
 * A claim by name, or by a dotted path into nested objects. The whole name is tried first:
 * namespaced claims (Auth0's "https://example.com/roles") hold dots of their own.
 */
function claimAt(claims: Record<string, unknown>, name: string): unknown {
  if (Object.hasOwn(claims, name)) return claims[name];
  let value: unknown = claims;
  for (const part of name.split('.')) {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.hasOwn(value, part)) {
      return undefined;
    }
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

export function principalFromProvider(
  claims: Record<string, unknown>,
  provider: ProviderConfig,
  keyThumbprint: string,
  clockToleranceS: number,
): Principal {
  const subject = claimAt(claims, provider.userClaim);
  let userId: string;
  try {
    if (typeof subject !== 'string') throw new AppError('BAD_USER_INPUT', `${provider.userClaim} is not a string`);
    userId = validName(`${provider.userPrefix}${subject}`, provider.userClaim);
  } catch (error) {
    const reason = error instanceof AppError ? error.message : 'it is not valid';
    throw tokenRefused('TOKEN_CLAIMS', `Bearer token claim "${provider.userClaim}" is not a usable user id: ${reason}`);
  }
  const roles = rolesOf(claims, provider);
  const client = claims.azp ?? claims.client_id;
  const isService =
    roles.some((role) => provider.serviceRoles.includes(role)) ||
    (typeof client === 'string' && provider.serviceClients.includes(client));
  return Object.freeze({
    userId,
    roles: Object.freeze(roles),
    isService,
    // The tolerance the signature check gave: a token it accepted is not then expired to authorize().
    expiresAt: typeof claims.exp === 'number' ? (claims.exp + clockToleranceS) * 1000 : undefined,
    source: Object.freeze({ issuer: provider.issuer, keyThumbprint }),
  });
}

function rolesOf(claims: Record<string, unknown>, provider: ProviderConfig): string[] {
  if (provider.rolesClaim === undefined) return [];
  const value = claimAt(claims, provider.rolesClaim) ?? [];
  // A space-separated string is how some providers put groups or scopes in one claim.
  const roles = typeof value === 'string' ? value.split(' ').filter(Boolean) : value;
  if (!Array.isArray(roles) || roles.length > MAX_ROLES || !roles.every((role) => typeof role === 'string')) {
    throw tokenRefused(
      'TOKEN_CLAIMS',
      `Bearer token claim "${provider.rolesClaim}" must be a list of at most ${MAX_ROLES} role names`,
    );
  }
  return [...roles];
}
