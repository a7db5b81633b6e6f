// Settings of who may call and how much: tokens, GraphQL document limits, origins, WebSocket
// limits, rate limits and trusted documents.
import { z } from 'zod';
import { commaList, flag, int, oneOf, parsed, text, type SettingDomain, type SettingsReader } from '../common/settings';
import type { DocumentLimits } from './document-limits';
import type { RateLimitSettings } from './rate-limit';
import type { TrustedDocumentsMode, TrustedDocumentsSettings } from './trusted-documents';

/** Shortest JWT_SECRET accepted (checked by src/config.ts, which knows whether this is production). */
export const MIN_SECRET_LENGTH = 32;

const isOrigin = (origin: string): boolean => {
  if (origin === '*') return true;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === origin;
  } catch {
    return false;
  }
};

const origins = z
  .string()
  .refine((value) => commaList(value).every(isOrigin), {
    error: (issue) =>
      `must be a comma-separated list of origins such as https://app.example.com (no path or trailing slash), or *, got "${String(issue.input)}"`,
  })
  .transform(commaList);

const SETTINGS = {
  JWT_SECRET: text({
    default: undefined,
    defaultText: 'generated outside production',
    bounds: `at least ${MIN_SECRET_LENGTH} characters; required in production`,
    description:
      'HS256 secret of user tokens. Unset outside production: a random one is kept in `DATA_DIR/dev-jwt-secret`.',
  }),
  JWT_ISSUER: text({ default: undefined, description: 'When set, tokens must carry this `iss`.' }),
  JWT_AUDIENCE: text({ default: undefined, description: 'When set, tokens must carry this `aud`.' }),
  GRAPHQL_MAX_TOKENS: int({
    default: 1000,
    min: 50,
    max: 100_000,
    description: 'Most tokens in one GraphQL document.',
  }),
  GRAPHQL_MAX_DEPTH: int({ default: 8, min: 2, max: 100, description: 'Deepest selection (introspection exempt).' }),
  GRAPHQL_MAX_ALIASES: int({ default: 15, min: 0, max: 1000, description: 'Most aliases in one operation.' }),
  GRAPHQL_MAX_DIRECTIVES: int({ default: 10, min: 0, max: 1000, description: 'Most directives in one operation.' }),
  // Above the cost of the largest page a client may ask for (1000 rows of a few fields).
  GRAPHQL_MAX_COST: int({
    default: 10_000,
    min: 10,
    max: 1_000_000,
    description: "Highest cost of one operation (graphql-armor's cost rule; a literal `first` multiplies it).",
  }),
  FIELD_SUGGESTIONS: flag({
    default: undefined,
    defaultText: '`on`, `off` in production',
    description: '"Did you mean ...?" in validation errors.',
  }),
  ALLOWED_ORIGINS: parsed({
    type: 'list',
    bounds: 'origins such as `https://app.example.com` (no path or trailing slash), comma-separated, or `*`',
    default: [],
    schema: origins,
    description: "Browser origins allowed besides the server's own; `*` for any.",
  }),
  // As large as an HTTP body unless set: what one transport accepts, the other must too.
  WS_MAX_PAYLOAD_BYTES: int({
    default: undefined,
    defaultText: '`BODY_LIMIT_BYTES`',
    min: 1024,
    max: 10 * 1024 * 1024,
    description:
      'Largest WebSocket frame; a larger one closes the socket (1009). Set lower than `BODY_LIMIT_BYTES`, it lowers the default `LOCATION_MAX_APPEND_LINES` too.',
  }),
  WS_MAX_OPERATIONS: int({
    default: 50,
    min: 1,
    max: 10_000,
    description: 'Operations (subscriptions included) running at once on one socket.',
  }),
  WS_INIT_TIMEOUT_MS: int({
    default: 5000,
    min: 100,
    max: 60_000,
    description: 'A socket that sends no `connection_init` in time is closed (4408).',
  }),
  WS_MAX_SOCKETS_PER_USER: int({
    default: 20,
    min: 1,
    max: 100_000,
    description: 'WebSockets one signed-in user may hold open (service callers exempt); one more is closed with 1008.',
  }),
  WS_MAX_SOCKETS_PER_ADDRESS: int({
    default: 1000,
    min: 1,
    max: 1_000_000,
    description: 'WebSockets one client address may hold open; one more handshake gets 429.',
  }),
  RATE_LIMIT_STORE: oneOf(['memory', 'redis'], {
    default: 'memory',
    description:
      '`memory`: counted in each process (no Redis call; N instances allow N times the limit); `redis`: one shared count.',
  }),
  RATE_LIMIT_USER_PER_MINUTE: int({
    default: 600,
    min: 1,
    max: 10_000_000,
    description: 'Requests and WebSocket operations per signed-in user (service callers are exempt).',
  }),
  RATE_LIMIT_IP_PER_MINUTE: int({
    default: 1200,
    min: 1,
    max: 10_000_000,
    description: 'Requests, WebSocket handshakes and operations per client address.',
  }),
  TRUSTED_DOCUMENTS: oneOf<TrustedDocumentsMode, TrustedDocumentsMode>(['allow', 'require'], {
    default: 'allow',
    description:
      '`allow`: any document runs, and a registered one may be sent by its hash alone; `require`: user callers may run registered documents only (service callers anything).',
  }),
  TRUSTED_DOCUMENTS_FILE: text({
    default: undefined,
    defaultText: "the project's manifests",
    description:
      'The registered documents: JSON of `"sha256:<hex>": "<document>"`, as GraphQL Codegen\'s client preset writes it with `persistedDocuments`.',
  }),
} as const;

export const SECURITY_SETTINGS: SettingDomain = {
  title: 'Security',
  summary: 'Who may call, from where, and how much: tokens, document limits, WebSockets, rate limits.',
  settings: SETTINGS,
};

export interface SecurityConfig extends DocumentLimits {
  /** Whether "Did you mean ...?" suggestions stay in validation errors (off in production). */
  fieldSuggestions: boolean;
  /** Browser origins allowed besides the server's own; `*` for any. */
  allowedOrigins: string[];
  /** Largest WebSocket frame. */
  wsMaxPayloadBytes: number;
  /** Most operations (subscriptions included) running at once on one WebSocket. */
  wsMaxOperations: number;
  /** How long a WebSocket may wait before sending connection_init. */
  wsInitTimeoutMs: number;
  /** Most WebSockets open at once per signed-in user (service callers exempt) and per address. */
  wsMaxSocketsPerUser: number;
  wsMaxSocketsPerAddress: number;
  rateLimit: RateLimitSettings;
  /** Registered documents: by hash for anyone, and (mode require) the only ones user callers may run. */
  trustedDocuments: TrustedDocumentsSettings;
}

export interface TokenConfig {
  /** Unset only outside production: a development secret is generated and kept in dataDir. */
  jwtSecret: string | undefined;
  jwtIssuer: string | undefined;
  jwtAudience: string | undefined;
}

export function readSecurity(
  reader: SettingsReader,
  server: { isProduction: boolean; bodyLimitBytes: number },
): TokenConfig & { security: SecurityConfig } {
  const values = reader.read(SETTINGS);
  return {
    jwtSecret: values.JWT_SECRET,
    jwtIssuer: values.JWT_ISSUER,
    jwtAudience: values.JWT_AUDIENCE,
    security: {
      maxTokens: values.GRAPHQL_MAX_TOKENS,
      maxDepth: values.GRAPHQL_MAX_DEPTH,
      maxAliases: values.GRAPHQL_MAX_ALIASES,
      maxDirectives: values.GRAPHQL_MAX_DIRECTIVES,
      maxCost: values.GRAPHQL_MAX_COST,
      fieldSuggestions: values.FIELD_SUGGESTIONS ?? !server.isProduction,
      allowedOrigins: values.ALLOWED_ORIGINS,
      wsMaxPayloadBytes: values.WS_MAX_PAYLOAD_BYTES ?? server.bodyLimitBytes,
      wsMaxOperations: values.WS_MAX_OPERATIONS,
      wsInitTimeoutMs: values.WS_INIT_TIMEOUT_MS,
      wsMaxSocketsPerUser: values.WS_MAX_SOCKETS_PER_USER,
      wsMaxSocketsPerAddress: values.WS_MAX_SOCKETS_PER_ADDRESS,
      rateLimit: {
        store: values.RATE_LIMIT_STORE,
        userPerMinute: values.RATE_LIMIT_USER_PER_MINUTE,
        ipPerMinute: values.RATE_LIMIT_IP_PER_MINUTE,
      },
      trustedDocuments: { mode: values.TRUSTED_DOCUMENTS, file: values.TRUSTED_DOCUMENTS_FILE },
    },
  };
}
