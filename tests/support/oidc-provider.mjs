// A real OpenID provider for the tests (oidc-provider, an OpenID-certified implementation), run in
// its own process on loopback: oidc-provider is an ES module and jest runs CommonJS. Started by
// tests/support/oidc.ts with one JSON argument:
//   { port, keys (private JWKs), audience, accessTokenTtl, redirectUri, roles: { user: [role] },
//     serviceClient: { id, secret } }
// Its clients: `web` (the tests' own sign-ins by HTTP), `web-app` (the web app in a browser) and
// the service client (client credentials).
// It prints {"issuer": ...} once listening, and counts the key set's fetches and the refresh-token
// grants at GET /_test/stats; POST /_test/token-delay?ms= slows its token endpoint.
import http from 'node:http';
import Provider from 'oidc-provider';

const options = JSON.parse(process.argv[2]);
const stats = { jwks: 0, discovery: 0, refreshed: 0, grantErrors: 0, revoked: 0 };
/** Set by POST /_test/token-delay?ms=: a slow token endpoint. */
let tokenDelayMs = 0;

const server = http.createServer();
await new Promise((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  jwks: { keys: options.keys },
  clients: [
    {
      client_id: 'web',
      token_endpoint_auth_method: 'none',
      redirect_uris: [options.redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      id_token_signed_response_alg: options.keys[0].alg,
    },
    // The web app (web/src/provider.ts), a public client served by the API under test on a port
    // chosen when it starts: as a native client on loopback, its redirect URIs match on any port
    // (RFC 8252, section 7.3), so the provider can start first.
    {
      client_id: 'web-app',
      application_type: 'native',
      token_endpoint_auth_method: 'none',
      redirect_uris: ['http://127.0.0.1/app/'],
      post_logout_redirect_uris: ['http://127.0.0.1/app/'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      id_token_signed_response_alg: options.keys[0].alg,
    },
    {
      client_id: options.serviceClient.id,
      client_secret: options.serviceClient.secret,
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      id_token_signed_response_alg: options.keys[0].alg,
    },
  ],
  // The web app's origin is the API's, on loopback: its fetches to the token endpoint may cross.
  clientBasedCORS: (_ctx, origin, client) =>
    client.clientAuthMethod === 'none' && /^http:\/\/127\.0\.0\.1:\d+$/.test(origin),
  findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id }) }),
  features: {
    devInteractions: { enabled: true },
    clientCredentials: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => options.audience,
      useGrantedResource: () => true,
      getResourceServerInfo: () => ({
        scope: 'api',
        audience: options.audience,
        accessTokenFormat: 'jwt',
        accessTokenTTL: options.accessTokenTtl,
        jwt: { sign: { alg: options.keys[0].alg } },
      }),
    },
  },
  // Keycloak's shape: realm roles under realm_access.roles.
  extraTokenClaims: (_ctx, token) =>
    token.accountId ? { realm_access: { roles: options.roles[token.accountId] ?? [] } } : undefined,
  ttl: { AccessToken: options.accessTokenTtl, ClientCredentials: options.accessTokenTtl },
  pkce: { required: () => true },
  // Keycloak's way: a refresh token with every code a client may refresh, without asking for
  // offline_access (which OpenID Connect ties to prompt=consent).
  issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
});
provider.on('server_error', (_ctx, error) => console.error(error));
provider.on('grant.success', (ctx) => {
  if (ctx.oidc.params?.grant_type === 'refresh_token') stats.refreshed += 1;
});
// A refresh token used twice is an error, and revokes the whole grant.
provider.on('grant.error', () => (stats.grantErrors += 1));
provider.on('grant.revoked', () => (stats.revoked += 1));

const callback = provider.callback();
server.on('request', (req, res) => {
  if (req.url === '/_test/stats') {
    res.setHeader('content-type', 'application/json');
    return res.end(JSON.stringify(stats));
  }
  if (req.url?.startsWith('/_test/token-delay')) {
    tokenDelayMs = Number(/ms=(\d+)/.exec(req.url)?.[1] ?? 0);
    return res.end();
  }
  if (req.url === '/jwks') stats.jwks += 1;
  if (req.url === '/.well-known/openid-configuration') stats.discovery += 1;
  if (req.url === '/token' && req.method === 'POST' && tokenDelayMs > 0) {
    return void setTimeout(() => callback(req, res), tokenDelayMs);
  }
  return callback(req, res);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
process.stdout.write(`${JSON.stringify({ issuer })}\n`);
