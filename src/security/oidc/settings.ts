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
    // Host names and IP literals only: the web app's CSP names these origins, and a `;` or `,`
    // that URL parsing lets through in a host would end its directive there.
    if (!/^([a-z0-9-]+\.)*[a-z0-9-]+$|^\[[0-9a-f:.]+\]$/.test(url.hostname)) return false;
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

/** Marks a problem with the whole value, said as it is (not "is not valid: ..."). */
const WHOLE = { whole: true };

/** JSON text checked by `schema`; each problem is named by its place in the value. */
function json<S extends z.ZodType>(schema: S, example: string) {
  return z.string().transform((text, ctx): z.output<S> => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: `must be JSON: ${example}` });
      return z.NEVER;
    }
    const result = schema.safeParse(value);
    if (!result.success) {
      for (const issue of result.error.issues) {
        const whole = issue.code === 'custom' && issue.params === WHOLE;
        ctx.addIssue({
          code: 'custom',
          message: whole ? issue.message : `is not valid${where(issue.path)}: ${issue.message}`,
        });
      }
      return z.NEVER;
    }
    return result.data;
  });
}

const providers = json(
  z
    .array(PROVIDER)
    .max(MAX_PROVIDERS)
    .superRefine((list, ctx) => {
      const issuers = list.map((provider) => provider.issuer);
      const repeated = issuers.find((issuer, i) => issuers.indexOf(issuer) !== i);
      if (repeated !== undefined)
        ctx.addIssue({ code: 'custom', message: `names the issuer ${repeated} twice`, params: WHOLE });
    }),
  'a list of providers such as [{"issuer": ..., "audience": ...}]',
);

/** Parameters the web app's sign-in sends itself: `params` may not change them. */
const SIGN_IN_PARAMS = new Set([
  'client_id',
  'redirect_uri',
  'response_type',
  'response_mode',
  'scope',
  'state',
  'nonce',
  'code_challenge',
  'code_challenge_method',
]);

/** The web app's sign-in through one of the providers: a public client (no secret), code flow with PKCE. */
const WEB_APP = z.strictObject({
  /** One of OIDC_PROVIDERS' issuers. */
  issuer: providerUrl,
  /** The client registered at the provider for the web app, with `<origin>/app/` as its redirect URI. */
  clientId: claim,
  /** Asked for at sign-in: `openid`, and `offline_access` where the provider gives refresh tokens only then. */
  scope: z.string().min(1).max(500).default('openid offline_access'),
  /** More parameters of the authorization request: Auth0's `audience`, or an RFC 8707 `resource`. */
  params: z
    .record(z.string(), z.string().max(500))
    .refine((params) => Object.keys(params).length <= 10, { error: 'must have at most 10 parameters' })
    .refine((params) => Object.keys(params).every((name) => /^[a-z][a-z_]{0,39}$/.test(name)), {
      error: 'must name lower-case parameters',
    })
    .refine((params) => !Object.keys(params).some((name) => SIGN_IN_PARAMS.has(name)), {
      error: `must not set what the sign-in sets itself (${[...SIGN_IN_PARAMS].join(', ')})`,
    })
    .default({}),
  /** Origins besides the issuer's that the app must reach: a token endpoint on another host, as Cognito's. */
  origins: z
    .array(providerUrl.transform((url) => new URL(url).origin))
    .max(5)
    .default([]),
});

export type WebAppSignIn = z.output<typeof WEB_APP>;

const webApp = json(WEB_APP, 'an object such as {"issuer": ..., "clientId": ...}');

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
  OIDC_WEB_APP: parsed({
    type: 'JSON',
    default: undefined,
    defaultText: 'none (the web app offers no provider sign-in)',
    bounds: 'an object; `issuer` must be one of OIDC_PROVIDERS; see docs/sign-in.md',
    schema: webApp,
    description:
      "The web app's sign-in through a provider: `issuer`, `clientId`, and optionally `scope`, `params` (such as Auth0's `audience`), `origins`.",
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
  /** What the web app signs in with, when it offers a provider. */
  webApp: WebAppSignIn | undefined;
  clockToleranceS: number;
  keysMaxAgeMs: number;
  keysCooldownMs: number;
  fetchTimeoutMs: number;
}

export function readOidc(reader: SettingsReader): OidcConfig {
  const values = reader.read(SETTINGS);
  const webApp = values.OIDC_WEB_APP;
  // Providers that are not valid have been reported already; their issuers are unknown, not missing.
  if (
    webApp !== undefined &&
    !reader.failed('OIDC_PROVIDERS') &&
    !values.OIDC_PROVIDERS.some((provider) => provider.issuer === webApp.issuer)
  ) {
    reader.problem('OIDC_WEB_APP', `OIDC_WEB_APP names the issuer ${webApp.issuer}, which OIDC_PROVIDERS does not`);
  }
  return {
    providers: values.OIDC_PROVIDERS,
    webApp: values.OIDC_WEB_APP,
    clockToleranceS: values.OIDC_CLOCK_TOLERANCE_S,
    keysMaxAgeMs: values.OIDC_KEYS_MAX_AGE_S * 1000,
    keysCooldownMs: values.OIDC_KEYS_COOLDOWN_S * 1000,
    fetchTimeoutMs: values.OIDC_FETCH_TIMEOUT_MS,
  };
}
