// The tests' identity provider: a real oidc-provider in its own process on loopback (see
// oidc-provider.mjs), with users signed in through its login and consent pages by HTTP as a
// browser would, and a client-credentials client for services. The tests keep the private keys,
// so they can also sign tokens the provider never would (not yet valid, unknown key, ...).
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK, type JWTPayload } from 'jose';

export const API_AUDIENCE = 'https://api.test.example';
const REDIRECT_URI = 'http://127.0.0.1:1/callback';
export const SERVICE_CLIENT = { id: 'billing-worker', secret: 'billing-worker-secret-0123456789abcdef' };

export type Algorithm = 'ES256' | 'RS256' | 'PS256' | 'EdDSA';

export interface SigningKey {
  kid: string;
  alg: Algorithm;
  privateJwk: JWK;
}

export async function signingKey(alg: Algorithm, kid = `${alg.toLowerCase()}-${randomBytes(4).toString('hex')}`) {
  const { privateKey } = await generateKeyPair(alg, { extractable: true });
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg, use: 'sig' };
  return { kid, alg, privateJwk } satisfies SigningKey;
}

export interface ProviderOptions {
  keys: SigningKey[];
  /** Seconds an access token lives. */
  accessTokenTtl?: number;
  roles?: Record<string, string[]>;
  /** The same port again: a restart with other keys is a rotation at the same issuer. */
  port?: number;
}

interface ProviderStats {
  jwks: number;
  discovery: number;
  refreshed: number;
  grantErrors: number;
  revoked: number;
}

export interface TestProvider {
  issuer: string;
  port: number;
  keys: SigningKey[];
  /** An access token for the API, by signing in through the login and consent pages. */
  userToken(user: string): Promise<string>;
  /** A client-credentials access token for the service client. */
  serviceToken(): Promise<string>;
  /** Times the key set and the discovery document were fetched; refresh-token grants, failed grants, revocations. */
  stats(): Promise<ProviderStats>;
  /** Makes the token endpoint answer `ms` later. */
  slowTokens(ms: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startProvider(options: ProviderOptions): Promise<TestProvider> {
  const script = path.join(__dirname, 'oidc-provider.mjs');
  const settings = {
    port: options.port ?? 0,
    keys: options.keys.map((key) => key.privateJwk),
    audience: API_AUDIENCE,
    accessTokenTtl: options.accessTokenTtl ?? 600,
    redirectUri: REDIRECT_URI,
    roles: options.roles ?? {},
    serviceClient: SERVICE_CLIENT,
  };
  const child = spawn(process.execPath, [script, JSON.stringify(settings)], { stdio: ['ignore', 'pipe', 'pipe'] });
  const issuer = await announced(child);
  const port = Number(new URL(issuer).port);
  return {
    issuer,
    port,
    keys: options.keys,
    userToken: (user) => signIn(issuer, user),
    serviceToken: () => clientCredentials(issuer),
    stats: async () => (await (await fetch(`${issuer}/_test/stats`)).json()) as ProviderStats,
    slowTokens: async (ms) => void (await fetch(`${issuer}/_test/token-delay?ms=${ms}`, { method: 'POST' })),
    stop: () => stopChild(child),
  };
}

function announced(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    let errors = '';
    child.stderr!.on('data', (data: Buffer) => (errors += data.toString()));
    child.stdout!.on('data', (data: Buffer) => {
      output += data.toString();
      const line = output.split('\n').find((text) => text.startsWith('{'));
      if (line) resolve((JSON.parse(line) as { issuer: string }).issuer);
    });
    child.once('exit', (code) => reject(new Error(`OpenID provider exited (${code}): ${errors}`)));
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Cookies by name, sent with every request of one sign-in (as a browser would to one host). */
class CookieJar {
  private readonly cookies = new Map<string, string>();

  keep(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  }

  get header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** Authorization code with PKCE: the login page (any user name), consent, then the token endpoint. */
async function signIn(issuer: string, user: string): Promise<string> {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const jar = new CookieJar();
  const go = async (url: string, body?: URLSearchParams): Promise<string> => {
    const response = await fetch(new URL(url, issuer), {
      method: body ? 'POST' : 'GET',
      body,
      redirect: 'manual',
      headers: { cookie: jar.header },
    });
    jar.keep(response);
    const location = response.headers.get('location');
    if (!location) throw new Error(`sign-in stopped at ${url}: HTTP ${response.status} ${await response.text()}`);
    return location;
  };
  const query = new URLSearchParams({
    client_id: 'web',
    response_type: 'code',
    redirect_uri: REDIRECT_URI,
    scope: 'openid api',
    resource: API_AUDIENCE,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: randomBytes(8).toString('hex'),
  });
  let location = await go(`/auth?${query}`);
  // The login page, then consent, each answered as its form would be.
  for (const prompt of ['login', 'consent']) {
    const form = new URLSearchParams({ prompt, login: user, password: 'any' });
    location = await go(await go(location, form));
    if (location.startsWith(REDIRECT_URI)) break;
  }
  const code = new URL(location).searchParams.get('code');
  if (!code) throw new Error(`sign-in ended without a code: ${location}`);
  return tokenRequest(issuer, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT_URI,
    client_id: 'web',
    code_verifier: verifier,
    resource: API_AUDIENCE,
  });
}

async function clientCredentials(issuer: string): Promise<string> {
  const basic = Buffer.from(`${SERVICE_CLIENT.id}:${SERVICE_CLIENT.secret}`).toString('base64');
  return tokenRequest(
    issuer,
    { grant_type: 'client_credentials', scope: 'api', resource: API_AUDIENCE },
    { authorization: `Basic ${basic}` },
  );
}

async function tokenRequest(
  issuer: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<string> {
  const response = await fetch(`${issuer}/token`, { method: 'POST', body: new URLSearchParams(fields), headers });
  const body = (await response.json()) as { access_token?: string; error?: string };
  if (!response.ok || !body.access_token) throw new Error(`token endpoint: ${JSON.stringify(body)}`);
  return body.access_token;
}

/** A token signed with one of the provider's keys, with whatever claims and header a test wants. */
export async function forgedToken(
  key: SigningKey,
  claims: JWTPayload,
  header: { kid?: string; alg?: string } = {},
): Promise<string> {
  const privateKey = await importJWK(key.privateJwk, key.alg);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'at+jwt', ...header })
    .sign(privateKey);
}
