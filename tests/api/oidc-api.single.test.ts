// Sign-in through identity providers, end to end: the real server with three real OpenID providers
// (oidc-provider) and our HS256 secret configured at once, over HTTP and WebSocket. Single pass
// only: nothing here depends on how Redis is laid out.
import {
  DirectMessagesDocument,
  InboxChangedDocument,
  SendDirectMessageDocument,
  UpdateCounterDocument,
  ViewerDocument,
} from '../../src/generated/client/graphql';
import { connectWs, eventually, post, wsOperation, type WsClient } from '../support/graphql';
import { waitForLine } from '../support/logs';
import {
  API_AUDIENCE,
  forgedToken,
  signingKey,
  startProvider,
  type SigningKey,
  type TestProvider,
} from '../support/oidc';
import { startTestServer, type TestServer } from '../support/server';

let api: TestServer;
/** Tokens live ten minutes. */
let main: TestProvider;
/** Tokens live eight seconds: for a socket that outlives its token. */
let brief: TestProvider;
/** Restarted with other keys in a test. */
let rotating: TestProvider;
let rotatingKey: SigningKey;
const sockets: WsClient[] = [];
/** A provider configured but not running: its keys can never be fetched. */
const UNREACHABLE = 'http://127.0.0.1:9';

const provider = (issuer: string) => ({
  issuer,
  audience: API_AUDIENCE,
  rolesClaim: 'realm_access.roles',
  serviceRoles: ['billing'],
  serviceClients: ['billing-worker'],
});

beforeAll(async () => {
  main = await startProvider({ keys: [await signingKey('ES256')], roles: { carol: ['billing'] } });
  brief = await startProvider({ keys: [await signingKey('RS256')], accessTokenTtl: 8 });
  rotatingKey = await signingKey('ES256');
  rotating = await startProvider({ keys: [rotatingKey] });
  api = await startTestServer({
    OIDC_PROVIDERS: JSON.stringify([
      provider(main.issuer),
      provider(brief.issuer),
      provider(rotating.issuer),
      provider(UNREACHABLE),
    ]),
    OIDC_CLOCK_TOLERANCE_S: '0',
    OIDC_KEYS_COOLDOWN_S: '1',
  });
}, 60_000);
afterEach(async () => {
  await Promise.all(sockets.splice(0).map((socket) => socket.dispose()));
});
afterAll(async () => {
  await api?.stop();
  await Promise.all([main, brief, rotating].map((running) => running?.stop()));
});

function connect(token: string): WsClient {
  const socket = connectWs(api.url, token);
  sockets.push(socket);
  return socket;
}

const send = (to: string, message: string, token: string) =>
  post(api.url, SendDirectMessageDocument, { to, message }, token);

describe('over HTTP', () => {
  it("takes a provider's token with its subject as the user, beside our own HS256 tokens", async () => {
    const alice = await main.userToken('alice');
    expect((await send('bob', 'from the provider', alice)).data?.sendDirectMessage).toMatchObject({
      sender: 'alice',
    });
    expect((await send('bob', 'from our secret', api.tokens.user)).data?.sendDirectMessage).toMatchObject({
      sender: 'alice',
    });
    const inbox = await post(api.url, DirectMessagesDocument, {}, await brief.userToken('bob'));
    expect(inbox.data?.directMessages.map((m) => [m.sender, m.message])).toEqual([
      ['alice', 'from the provider'],
      ['alice', 'from our secret'],
    ]);
  });

  it('tells each caller who they are as the API reads their token (viewer), whoever issued it', async () => {
    const viewer = async (token: string) => (await post(api.url, ViewerDocument, {}, token)).data?.viewer;
    const alice = await main.userToken('alice');
    const claims = JSON.parse(Buffer.from(alice.split('.')[1], 'base64url').toString()) as { exp: number };
    expect(await viewer(alice)).toEqual({
      userId: 'alice',
      service: false,
      roles: [],
      expiresAt: claims.exp * 1000,
      issuer: main.issuer,
    });
    expect(await viewer(await main.userToken('carol'))).toMatchObject({
      userId: 'carol',
      service: true,
      roles: ['billing'],
    });
    expect(await viewer(api.tokens.user)).toMatchObject({ userId: 'alice', service: false, issuer: null });
    const anonymous = await post(api.url, ViewerDocument, {});
    expect(anonymous.errors?.map((error) => error.extensions?.code)).toEqual(['UNAUTHENTICATED']);
    // The same answer over a socket opened with the token.
    const overSocket = await wsOperation(connect(alice).client, ViewerDocument, {}).completion();
    expect(overSocket.map((result) => result.data?.viewer.userId)).toEqual(['alice']);
  });

  it('lets service callers in by OAuth client or by mapped role, and no one else', async () => {
    const update = (token: string) => post(api.url, UpdateCounterDocument, { name: 'oidc-hits' }, token);
    expect((await update(await main.serviceToken())).data).toEqual({ updateCounter: true });
    expect((await update(await main.userToken('carol'))).data).toEqual({ updateCounter: true });
    const refused = await update(await main.userToken('dave'));
    expect(refused.errors?.map((error) => error.extensions?.code)).toEqual(['FORBIDDEN']);
  });

  it('answers a refused token with 401, UNAUTHENTICATED and the reason, writing nothing and logging no token', async () => {
    const key = main.keys[0];
    const expired = await forgedToken(key, {
      iss: main.issuer,
      aud: API_AUDIENCE,
      sub: 'mallory',
      exp: Math.floor(Date.now() / 1000) - 10,
    });
    const result = await send('grace', 'should not arrive', expired);
    expect(result.status).toBe(401);
    expect(result.headers.get('www-authenticate')).toBe('Bearer');
    expect(result.errors?.map((error) => error.extensions)).toEqual([
      { code: 'UNAUTHENTICATED', reason: 'TOKEN_EXPIRED' },
    ]);
    expect(await api.redis.client.llen('user:{u:grace}:mailbox')).toBe(0);
    expect(JSON.stringify(api.logs)).not.toContain(expired.split('.')[2]);
  });
});

/** Tokens refused, each with the reason both transports must give. */
async function badTokens(): Promise<[string, string][]> {
  const key = main.keys[0];
  const now = Math.floor(Date.now() / 1000);
  const claims = { iss: main.issuer, aud: API_AUDIENCE, sub: 'mallory', exp: now + 600 };
  const unsigned = [{ alg: 'none' }, claims].map((part) => Buffer.from(JSON.stringify(part)).toString('base64url'));
  const stranger = await signingKey('ES256');
  return [
    ['TOKEN_EXPIRED', await forgedToken(key, { ...claims, exp: now - 10 })],
    ['TOKEN_NOT_YET_VALID', await forgedToken(key, { ...claims, nbf: now + 120 })],
    ['TOKEN_AUDIENCE', await forgedToken(key, { ...claims, aud: 'https://another-api.example' })],
    ['TOKEN_ISSUER', await forgedToken(key, { ...claims, iss: 'https://evil.example' })],
    ['TOKEN_ALGORITHM', `${unsigned.join('.')}.`],
    ['TOKEN_KEY_UNKNOWN', await forgedToken(stranger, claims)],
    ['TOKEN_KEYS_UNAVAILABLE', await forgedToken(key, { ...claims, iss: UNREACHABLE })],
  ];
}

describe('refusals over both transports', () => {
  it('answers each over HTTP with 401 and its reason, and closes a WebSocket with 4403 and it', async () => {
    for (const [reason, token] of await badTokens()) {
      const result = await send('grace', 'should not arrive', token);
      expect([reason, result.status, result.errors?.map((error) => error.extensions)]).toEqual([
        reason,
        401,
        [{ code: 'UNAUTHENTICATED', reason }],
      ]);
      expect([reason, await connect(token).closeEvent]).toEqual([
        reason,
        { code: 4403, reason: `Forbidden: ${reason}` },
      ]);
    }
    expect(await api.redis.client.llen('user:{u:grace}:mailbox')).toBe(0);
  });
});

describe('over WebSocket', () => {
  it('closes a socket when its token expires; the client comes back with a fresh one and misses nothing', async () => {
    const phone = connect(await brief.userToken('erin'));
    wsOperation(phone.client, InboxChangedDocument, {});
    await waitForLine(api.logs, (line) => line.msg === 'websocket subscription running', 20_000);
    const closed = await phone.closeEvent;
    expect(closed).toEqual({ code: 4403, reason: 'Token expired' });

    // Written while the phone had no socket: the sorted set keeps it for the pull.
    await send('erin', 'while you were away', api.tokens.user);
    const again = connect(await brief.userToken('erin'));
    const pulled = await new Promise<unknown>((resolve, reject) => {
      let data: unknown;
      again.client.subscribe(
        { query: 'query { directMessages { message } }' },
        { next: (value) => (data = value.data), error: reject, complete: () => resolve(data) },
      );
    });
    expect(pulled).toEqual({ directMessages: [{ message: 'while you were away' }] });
  });

  it("closes the sockets a withdrawn key signed once the provider's new key is seen", async () => {
    const laptop = connect(await rotating.userToken('frank'));
    await waitForLine(api.logs, (line) => line.msg === 'websocket connected' && line.user === 'frank', 20_000);

    await rotating.stop();
    rotating = await startProvider({ keys: [await signingKey('RS256')], port: rotating.port });
    const rotated = await rotating.userToken('frank');
    // The first request with the new key refetches the key set (once its 1 s cooldown is over).
    await eventually(async () => (await send('bob', 'new key', rotated)).status === 200, 20_000);
    expect(await laptop.closeEvent).toEqual({ code: 4403, reason: 'Token key withdrawn' });
    const withdrawn = api.logs.find((line) => line.code === 'OIDC_KEYS_WITHDRAWN');
    expect(withdrawn).toMatchObject({ issuer: rotating.issuer, keyIds: [rotatingKey.kid] });
  });
});
