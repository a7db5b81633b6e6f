// The web app's routes at /app: its files under a strict CSP, and sign-in by user name only on a
// development server that made its own secret, only from this machine, through the request gate.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { loadConfig } from '../../src/config';
import { startServer, type RunningServer } from '../../src/app/server';
import { isLoopback } from '../../src/transports/web-app';
import { captureLogs } from '../support/logs';
import { startTestRedis, type TestRedis } from '../support/redis';
import { startTestServer, type TestServer } from '../support/server';

const SCRIPT = 'export const greeting = "hello from the app";\n'.repeat(300);
const COMPRESSED: Record<string, string> = {
  'assets/app-def456.js': SCRIPT,
  'index.html': `<!doctype html><title>app</title>${'<p>compressible</p>'.repeat(100)}`,
};

let redis: TestRedis;
let dev: RunningServer;
let devBase: string;
let secured: TestServer;
let webDir: string;
let outsideDir: string;
let dataDir: string;

beforeAll(async () => {
  redis = await startTestRedis();
  // A folder around the app's, with a file (and its copy) that must not be served.
  outsideDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ria-web-'));
  fs.writeFileSync(path.join(outsideDir, 'secret.txt'), 'not for the web');
  fs.writeFileSync(path.join(outsideDir, 'secret.txt.br'), zlib.brotliCompressSync('not for the web'));
  webDir = path.join(outsideDir, 'web');
  fs.mkdirSync(path.join(webDir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>app</title>');
  fs.writeFileSync(path.join(webDir, 'assets', 'index-abc123.js'), 'console.log(1)');
  // As the build leaves them (web/precompress.mts): a brotli and a gzip copy beside each text file.
  fs.writeFileSync(path.join(webDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  for (const [name, text] of Object.entries(COMPRESSED)) {
    const file = path.join(webDir, name);
    fs.writeFileSync(file, text);
    fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(text));
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(text));
  }
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ria-web-data-'));
  // No JWT_SECRET: the server makes its own, so it offers sign-in by user name.
  const config = loadConfig({
    NODE_ENV: 'development',
    PORT: '0',
    ...redis.env,
    DATA_DIR: dataDir,
    WEB_APP_DIR: webDir,
    COUNTER_CLEANUP: 'off',
    LOCATION_WORKER: 'off',
    RATE_LIMIT_IP_PER_MINUTE: '40',
  });
  dev = await startServer(config, captureLogs('warn').logger);
  devBase = new URL(dev.url).origin;
  secured = await startTestServer({ WEB_APP_DIR: webDir }, redis);
}, 60_000);

afterAll(async () => {
  await secured?.stop();
  await dev?.stop();
  await redis?.stop();
  for (const dir of [outsideDir, dataDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const mint = (base: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}/app/dev-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const codeOf = async (response: Response): Promise<string> =>
  ((await response.json()) as { errors: { extensions: { code: string } }[] }).errors[0].extensions.code;

const graphql = async (base: string, token: string, query: string) =>
  (await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query }),
  }).then((r) => r.json() as Promise<any>)) as {
    data?: Record<string, unknown>;
    errors?: { extensions: { code: string } }[];
  };

describe('sign-in by user name', () => {
  it('is offered only by the server that made its own secret', async () => {
    expect(await fetch(`${devBase}/app/session.json`).then((r) => r.json() as Promise<any>)).toEqual({
      devSignIn: true,
      provider: null,
      push: null,
    });
    const base = new URL(secured.url).origin;
    expect(await fetch(`${base}/app/session.json`).then((r) => r.json() as Promise<any>)).toEqual({
      devSignIn: false,
      provider: null,
      push: null,
    });
    const refused = await mint(base, { user: 'mallory', service: true });
    expect(refused.status).toBe(404);
    expect(await codeOf(refused)).toBe('NOT_FOUND');
  });

  it('mints a user token the API accepts as that user, and a service token only when asked', async () => {
    const user = await mint(devBase, { user: 'zoë' }).then((r) => r.json() as Promise<any>);
    expect(user).toMatchObject({ user: 'zoë', roles: [] });
    expect(user.expiresAt).toBeGreaterThan(Date.now() + 11 * 3600 * 1000);
    const me = await graphql(devBase, user.token, '{ me { userId } }');
    expect(me.data).toEqual({ me: { userId: 'zoë' } });
    const notService = await graphql(devBase, user.token, '{ queue(name: "q") { name } }');
    expect(notService.errors?.map((e) => e.extensions.code)).toEqual(['FORBIDDEN']);

    const operator = await mint(devBase, { user: 'ops', service: true }).then((r) => r.json() as Promise<any>);
    expect(operator.roles).toEqual(['service']);
    const queue = await graphql(devBase, operator.token, '{ queue(name: "q") { name } }');
    expect(queue.errors).toBeUndefined();
    expect(queue.data).toEqual({ queue: { name: 'q' } });
  });

  it('refuses a bad user name, a body that is not JSON and one that is too large, with codes', async () => {
    const bad = await mint(devBase, { user: 'a:b{c}' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).errors[0].extensions).toEqual({ code: 'BAD_USER_INPUT', argument: 'user' });
    const missing = await mint(devBase, {});
    expect(missing.status).toBe(400);
    expect(await codeOf(missing)).toBe('BAD_USER_INPUT');
    const notJson = await mint(devBase, '{user');
    expect(notJson.status).toBe(400);
    expect(await codeOf(notJson)).toBe('BAD_REQUEST');
    const large = await mint(devBase, { user: 'x'.repeat(2000) });
    expect(large.status).toBe(413);
    expect(await codeOf(large)).toBe('PAYLOAD_TOO_LARGE');
  });

  it('refuses a bad bearer token like every other path (the request gate)', async () => {
    const refused = await mint(devBase, { user: 'x' }, { authorization: 'Bearer not-a-token' });
    expect(refused.status).toBe(401);
    expect(await codeOf(refused)).toBe('UNAUTHENTICATED');
  });

  it('counts against the address rate limit', async () => {
    let limited: Response | undefined;
    for (let i = 0; i < 60 && limited === undefined; i++) {
      const answer = await mint(devBase, { user: `u${i}` });
      if (answer.status === 429) limited = answer;
    }
    expect(limited?.status).toBe(429);
    expect(await codeOf(limited!)).toBe('RATE_LIMITED');
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('knows which addresses are this machine', () => {
    expect(['127.0.0.1', '127.8.0.3', '::1', '::ffff:127.0.0.1'].map(isLoopback)).toEqual([true, true, true, true]);
    expect(['10.0.0.1', '::ffff:10.0.0.1', '128.0.0.1', 'fe80::1', '', undefined].map(isLoopback)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('the app files', () => {
  it('redirects /app to /app/ and serves index.html uncached under a strict CSP', async () => {
    const base = new URL(secured.url).origin;
    const redirect = await fetch(`${base}/app`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('/app/');
    const index = await fetch(`${base}/app/`);
    expect(index.status).toBe(200);
    expect(await index.text()).toContain('<title>app</title>'); // fetch undoes the gzip it asks for
    expect(index.headers.get('cache-control')).toBe('no-cache');
    const csp = index.headers.get('content-security-policy')!;
    expect(csp.split('; ')).toEqual(
      expect.arrayContaining([
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "connect-src 'self'", // no provider configured: no other host
        "frame-ancestors 'none'",
      ]),
    );
    expect(csp).not.toMatch(/unsafe|\*/);
  });

  it('caches hashed assets for good and answers JSON 404s for anything else', async () => {
    const base = new URL(secured.url).origin;
    const asset = await fetch(`${base}/app/assets/index-abc123.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    for (const missing of ['/app/assets/nope.js', '/app/..%2f..%2fpackage.json', '/app/%2e%2e/%2e%2e/package.json']) {
      const answer = await fetch(`${base}${missing}`);
      expect(answer.status).toBe(404);
      expect(await codeOf(answer)).toBe('NOT_FOUND');
    }
  });

  it('says when the app is not built, and is gone with WEB_APP=off', async () => {
    const unbuilt = await startTestServer({ WEB_APP_DIR: path.join(webDir, 'missing') }, redis);
    const off = await startTestServer({ WEB_APP: 'off', WEB_APP_DIR: webDir }, redis);
    try {
      const answer = await fetch(`${new URL(unbuilt.url).origin}/app/`);
      expect(answer.status).toBe(404);
      expect(await codeOf(answer)).toBe('WEB_APP_NOT_BUILT');
      const gone = await fetch(`${new URL(off.url).origin}/app/`);
      expect(gone.status).toBe(404);
      expect(await codeOf(gone)).toBe('NOT_FOUND');
    } finally {
      await unbuilt.stop();
      await off.stop();
    }
  });
});

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The bytes as they came, not decoded. */
  body: Buffer;
}

/** A request whose Accept-Encoding is exactly `headers`' (fetch adds its own and decodes the reply). */
function raw(urlPath: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  const url = new URL(urlPath, secured.url);
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

/** The body as the client reads it after undoing the coding the server named. */
function decoded(answer: Raw): string {
  const coding = answer.headers['content-encoding'];
  if (coding === 'br') return zlib.brotliDecompressSync(answer.body).toString();
  if (coding === 'gzip') return zlib.gunzipSync(answer.body).toString();
  expect(coding).toBeUndefined();
  return answer.body.toString();
}

describe('the app files, compressed at build time', () => {
  const asset = '/app/assets/app-def456.js';

  it('sends the coding the Accept-Encoding header prefers, q values and q=0 included, else the file itself', async () => {
    const cases: [string | undefined, string][] = [
      ['gzip, deflate, br, zstd', 'br'], // Chromium's
      ['gzip, deflate', 'gzip'],
      ['x-gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['BR;Q=0.5, gzip;q=0.9', 'gzip'],
      ['gzip;q=0.5, br', 'br'],
      ['gzip;q=0.8', 'gzip'],
      ['*', 'br'],
      ['*;q=0.5, br;q=0', 'gzip'],
      [undefined, 'identity'],
      ['', 'identity'],
      ['identity', 'identity'],
      ['deflate, zstd', 'identity'],
      ['br;q=0.5, identity', 'identity'],
      ['br;q=0, gzip;q=0', 'identity'],
      ['*;q=0', 'identity'], // nothing acceptable: the file itself rather than a 406
    ];
    const seen: [string | undefined, string][] = [];
    for (const [header, _expected] of cases) {
      const answer = await raw(asset, header === undefined ? {} : { 'accept-encoding': header });
      expect(answer.status).toBe(200);
      expect(decoded(answer)).toBe(SCRIPT);
      expect(answer.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(answer.headers.vary).toMatch(/accept-encoding/i);
      expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
      seen.push([header, answer.headers['content-encoding'] ?? 'identity']);
    }
    expect(seen).toEqual(cases);
  });

  it('sends the copies as they were built, each with an ETag of its own that a revalidation matches', async () => {
    const br = await raw(asset, { 'accept-encoding': 'br' });
    const gzip = await raw(asset, { 'accept-encoding': 'gzip' });
    const identity = await raw(asset);
    expect(br.body).toEqual(fs.readFileSync(path.join(webDir, 'assets', 'app-def456.js.br')));
    expect(gzip.body).toEqual(fs.readFileSync(path.join(webDir, 'assets', 'app-def456.js.gz')));
    expect(br.body.length).toBeLessThan(gzip.body.length);
    expect(gzip.body.length).toBeLessThan(identity.body.length);
    const etags = [br, gzip, identity].map((answer) => answer.headers.etag);
    expect(new Set(etags).size).toBe(3);

    const fresh = await raw(asset, { 'accept-encoding': 'br', 'if-none-match': br.headers.etag! });
    expect(fresh.status).toBe(304);
    expect(fresh.body.length).toBe(0);
    // Another coding is another representation: its ETag does not match the brotli one.
    const other = await raw(asset, { 'accept-encoding': 'gzip', 'if-none-match': br.headers.etag! });
    expect(other.status).toBe(200);
    expect(other.headers['content-encoding']).toBe('gzip');

    const head = await raw(asset, { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(Number(head.headers['content-length'])).toBe(br.body.length);
    expect(head.body.length).toBe(0);
  });

  it('compresses index.html too, still uncached and under the CSP', async () => {
    const index = await raw('/app/', { 'accept-encoding': 'gzip, br' });
    expect(index.status).toBe(200);
    expect(index.headers['content-encoding']).toBe('br');
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(index.headers['cache-control']).toBe('no-cache');
    expect(index.headers['content-security-policy']).toContain("script-src 'self'");
    expect(decoded(index)).toBe(COMPRESSED['index.html']);
    const plain = await raw('/app/index.html', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe('no-cache');
    expect(decoded(plain)).toBe(COMPRESSED['index.html']);
  });

  it('sends a file without copies as it is, and nothing outside the folder asked for', async () => {
    const icon = await raw('/app/favicon.svg', { 'accept-encoding': 'br, gzip' });
    expect(icon.status).toBe(200);
    expect(icon.headers['content-encoding']).toBeUndefined();
    expect(icon.headers['content-type']).toBe('image/svg+xml');
    expect(icon.body.toString()).toBe('<svg xmlns="http://www.w3.org/2000/svg"/>');
    for (const escaping of ['/app/..%2fsecret.txt', '/app/assets/..%2f..%2fsecret.txt', '/app/%2e%2e/secret.txt']) {
      const answer = await raw(escaping, { 'accept-encoding': 'br' });
      expect([escaping, answer.status, answer.headers['content-encoding']]).toEqual([escaping, 404, undefined]);
    }
  });
});

describe('sign-in through an identity provider', () => {
  it('tells the app the provider and lets its CSP reach the issuer and the origins named, and no other', async () => {
    const issuer = 'http://127.0.0.1:9'; // not running: nothing here fetches from it
    const withProvider = await startTestServer(
      {
        WEB_APP_DIR: webDir,
        OIDC_PROVIDERS: JSON.stringify([{ issuer, audience: 'api' }]),
        OIDC_WEB_APP: JSON.stringify({
          issuer,
          clientId: 'spa',
          origins: ['https://login.example/oauth2/token', `${issuer}/token`],
        }),
      },
      redis,
    );
    try {
      const base = new URL(withProvider.url).origin;
      expect(await fetch(`${base}/app/session.json`).then((r) => r.json())).toEqual({
        devSignIn: false,
        provider: { issuer, clientId: 'spa', scope: 'openid offline_access', params: {} },
        push: null,
      });
      const csp = (await fetch(`${base}/app/`)).headers.get('content-security-policy')!;
      // Each origin once: the issuer's, named again in `origins`, is not repeated.
      expect(csp.split('; ')).toContain(`connect-src 'self' ${issuer} https://login.example`);
    } finally {
      await withProvider.stop();
    }
  });
});
