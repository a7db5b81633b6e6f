// The web app's routes at /app: its files under a strict CSP, and sign-in by user name only on a
// development server that made its own secret, only from this machine, through the request gate.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config';
import { startServer, type RunningServer } from '../../src/app/server';
import { isLoopback } from '../../src/transports/web-app';
import { captureLogs } from '../support/logs';
import { startTestRedis, type TestRedis } from '../support/redis';
import { startTestServer, type TestServer } from '../support/server';

let redis: TestRedis;
let dev: RunningServer;
let devBase: string;
let secured: TestServer;
let webDir: string;
let dataDir: string;

beforeAll(async () => {
  redis = await startTestRedis();
  webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ria-web-'));
  fs.mkdirSync(path.join(webDir, 'assets'));
  fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>app</title>');
  fs.writeFileSync(path.join(webDir, 'assets', 'index-abc123.js'), 'console.log(1)');
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
  for (const dir of [webDir, dataDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
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
    });
    const base = new URL(secured.url).origin;
    expect(await fetch(`${base}/app/session.json`).then((r) => r.json() as Promise<any>)).toEqual({ devSignIn: false });
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
    expect(await index.text()).toContain('<title>app</title>');
    expect(index.headers.get('cache-control')).toBe('no-cache');
    const csp = index.headers.get('content-security-policy')!;
    expect(csp.split('; ')).toEqual(
      expect.arrayContaining(["default-src 'self'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'"]),
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
