// Settings of sign-in through identity providers (OpenID Connect): whose tokens are taken, how
// their claims name a caller, and the bounds on fetching their keys.
import { z } from 'zod';
import { int, parsed, type SettingDomain, type SettingsReader } from '../../common/settings';

const PROVIDER_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'] as const;
const MAX_PROVIDERS = 10;

/** https, or http on a loopback host: a provider run on the developer's machine or by the tests. */
function isProviderUrl(value: string): boolean {
  try {
    const url = new URL(value);
    if (url.username !== '' || url.password !== '') return false;
    if (url.protocol === 'https:') return true;
    return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  } catch {
    return false;
  }
}

export const providerUrl = z
  .string()
  .max(2000)
  .refine(isProviderUrl, { error: 'must be an https URL without user or password (http only on a loopback host)' });

const claim = z.string({ error: 'must be a string' }).min(1).max(200);
const oneOrMore = z
  .union([claim, z.array(claim).min(1).max(10)], { error: 'must be a string or a list of 1 to 10 strings' })
  .transform((v) => (typeof v === 'string' ? [v] : v));

const PROVIDER = z.strictObject({
  /** The `iss` of its tokens; its keys are found through `<issuer>/.well-known/openid-configuration`. */
  issuer: providerUrl,
  /** Accepted `aud` values (or `client_id` values with audienceClaim "client_id", as Cognito access tokens carry). */
  audience: oneOrMore,
  audienceClaim: z.enum(['aud', 'client_id']).default('aud'),
  /** The key set's URL, when discovery is not wanted. */
  jwksUri: providerUrl.optional(),
  algorithms: z
    .array(z.enum(PROVIDER_ALGORITHMS))
    .min(1)
    .default([...PROVIDER_ALGORITHMS]),
  userClaim: claim.default('sub'),
  /** Put before every user id of this provider, so its users cannot be taken for another's. */
  userPrefix: z.string().max(32).default(''),
  /** Where roles are: a claim name (namespaced ones included) or a dotted path such as realm_access.roles. */
  rolesClaim: claim.optional(),
  /** Roles that make a caller a service caller. */
  serviceRoles: z.array(claim).max(20).default([]),
  /** OAuth clients (`azp` or `client_id`) whose tokens are service callers: client-credentials tokens. */
  serviceClients: z.array(claim).max(100).default([]),
});

export type ProviderConfig = z.output<typeof PROVIDER>;

const where = (path: PropertyKey[]): string =>
  path.length === 0
    ? ''
    : ` at ${path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('')}`;

/** JSON text of a list of providers; each problem is named by its place in the list. */
const providers = z.string().transform((text, ctx): ProviderConfig[] => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    ctx.addIssue({
      code: 'custom',
      message: 'must be JSON: a list of providers such as [{"issuer": ..., "audience": ...}]',
    });
    return z.NEVER;
  }
  const result = z.array(PROVIDER).max(MAX_PROVIDERS).safeParse(value);
  if (!result.success) {
    for (const issue of result.error.issues) {
      ctx.addIssue({ code: 'custom', message: `is not valid${where(issue.path)}: ${issue.message}` });
    }
    return z.NEVER;
  }
  const issuers = result.data.map((provider) => provider.issuer);
  const repeated = issuers.find((issuer, i) => issuers.indexOf(issuer) !== i);
  if (repeated !== undefined) {
    ctx.addIssue({ code: 'custom', message: `names the issuer ${repeated} twice` });
    return z.NEVER;
  }
  return result.data;
});

const SETTINGS = {
  OIDC_PROVIDERS: parsed({
    type: 'JSON',
    default: [],
    defaultText: 'none',
    bounds: `a list of at most ${MAX_PROVIDERS} providers; see docs/sign-in.md`,
    schema: providers,
    description:
      'Identity providers whose tokens are accepted: `issuer`, `audience`, and optionally `jwksUri`, `algorithms`, `audienceClaim`, `userClaim`, `userPrefix`, `rolesClaim`, `serviceRoles`, `serviceClients`.',
  }),
  OIDC_CLOCK_TOLERANCE_S: int({
    default: 30,
    min: 0,
    max: 300,
    description: "Seconds a provider token's `exp`, `nbf` and `iat` may be off by (clock skew).",
  }),
  OIDC_KEYS_MAX_AGE_S: int({
    default: 600,
    min: 10,
    max: 86_400,
    description:
      "A provider's key set older than this is fetched again in the background; until that succeeds the cached keys keep working.",
  }),
  OIDC_KEYS_COOLDOWN_S: int({
    default: 10,
    min: 1,
    max: 3600,
    description:
      'A token whose key is not cached fetches the key set again, at most once in this time per provider (a rotated key works within it; invented key ids cannot flood the provider).',
  }),
  OIDC_FETCH_TIMEOUT_MS: int({
    default: 5000,
    min: 100,
    max: 60_000,
    description: "Longest wait for a provider's discovery document or key set.",
  }),
} as const;

export const OIDC_SETTINGS: SettingDomain = {
  title: 'Identity providers',
  summary:
    'Sign-in through OpenID Connect providers (Auth0, Keycloak, Cognito, ...): their tokens are checked against their published keys. See docs/sign-in.md.',
  settings: SETTINGS,
};

export interface OidcConfig {
  providers: ProviderConfig[];
  clockToleranceS: number;
  keysMaxAgeMs: number;
  keysCooldownMs: number;
  fetchTimeoutMs: number;
}

export function readOidc(reader: SettingsReader): OidcConfig {
  const values = reader.read(SETTINGS);
  return {
    providers: values.OIDC_PROVIDERS,
    clockToleranceS: values.OIDC_CLOCK_TOLERANCE_S,
    keysMaxAgeMs: values.OIDC_KEYS_MAX_AGE_S * 1000,
    keysCooldownMs: values.OIDC_KEYS_COOLDOWN_S * 1000,
    fetchTimeoutMs: values.OIDC_FETCH_TIMEOUT_MS,
  };
}
