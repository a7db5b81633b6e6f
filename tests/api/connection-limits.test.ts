// Limits on connections rather than documents: sockets per user and per address, an operation id
// reused before its operation ended, handshakes over the rate (with Retry-After), bad tokens
// counted against their address, and client keys for IPv4 and IPv6 addresses.
import { clientKey } from '../../src/security/rate-limit';
import { serverForThisFile } from '../support/fixture';
import { closeRawSockets, HandshakeRefused, handshakeStatus, rawSocket, type RawSocket } from '../support/raw-ws';

afterEach(() => closeRawSockets());

async function initialised(url: string, token: string): Promise<RawSocket> {
  const socket = await rawSocket(url);
  socket.send({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } });
  await socket.next((frame) => frame.type === 'connection_ack' || frame.type === 'error', 2000).catch(() => undefined);
  return socket;
}

describe('clientKey', () => {
  it('counts IPv4 as itself, IPv4-mapped IPv6 as IPv4, and IPv6 per /64', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('2001:db8:0:1::5')).toBe('2001:db8:0:1::/64');
    expect(clientKey('2001:0db8:0000:0001:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:0:1::/64');
    expect(clientKey('2001:db8:0:2::5')).not.toBe(clientKey('2001:db8:0:1::5'));
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey(undefined)).toBe('unknown');
  });
});

describe('sockets per user', () => {
  const fixture = serverForThisFile({ WS_MAX_SOCKETS_PER_USER: '2', COUNTER_CLEANUP: 'off', ROW_CACHE: 'off' });

  it('closes a third socket of one user with 1008, lets other users and service callers in, and frees a place on close', async () => {
    const { api } = fixture;
    const first = await initialised(api.url, api.tokens.user);
    const second = await initialised(api.url, api.tokens.user);
    const third = await initialised(api.url, api.tokens.user);
    expect((await third.closedWithin(2000)).code).toBe(1008);
    expect(first.frames.map((frame) => frame.type)).toEqual(['connection_ack']);
    expect(second.frames.map((frame) => frame.type)).toEqual(['connection_ack']);

    const other = await initialised(api.url, api.tokens.other);
    expect(other.frames.map((frame) => frame.type)).toEqual(['connection_ack']);
    const services = await Promise.all([1, 2, 3].map(() => initialised(api.url, api.tokens.service)));
    expect(services.map((socket) => socket.frames[0]?.type)).toEqual([
      'connection_ack',
      'connection_ack',
      'connection_ack',
    ]);

    first.socket.close();
    await first.closed;
    await new Promise((resolve) => setTimeout(resolve, 50));
    const again = await initialised(api.url, api.tokens.user);
    expect(again.frames.map((frame) => frame.type)).toEqual(['connection_ack']);
  });

  it('closes with 4409 a socket that reuses an operation id before that operation ended, leaving nothing running', async () => {
    const { api } = fixture;
    const socket = await initialised(api.url, api.tokens.user);
    const subscribe = (id: string) => ({
      type: 'subscribe',
      id,
      payload: { query: 'subscription { counterUpdated(name: "leak") { name } }' },
    });
    socket.send(subscribe('x'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.sendTogether([{ type: 'complete', id: 'x' }, subscribe('x')]);
    expect((await socket.closedWithin(2000)).code).toBe(4409);
    // Nothing keeps listening once the socket is gone.
    let channels: string[] = [];
    for (let attempt = 0; attempt < 20; attempt += 1) {
      channels = (await api.redis.client.call('PUBSUB', 'CHANNELS', 'COUNTER_UPDATED*')) as string[];
      if (channels.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(channels).toEqual([]);
  });
});

describe('sockets per address', () => {
  const fixture = serverForThisFile({ WS_MAX_SOCKETS_PER_ADDRESS: '3', ROW_CACHE: 'off' });

  it('refuses a fourth socket from one address with 429, and lets one in again once a socket closed', async () => {
    const { api } = fixture;
    const sockets = await Promise.all([1, 2, 3].map(() => rawSocket(api.url)));
    expect(await handshakeStatus(api.url)).toBe(429);
    sockets[0].socket.close();
    await sockets[0].closed;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await handshakeStatus(api.url)).toBe(101);
  });
});

describe('handshakes over the address rate', () => {
  const fixture = serverForThisFile({ RATE_LIMIT_IP_PER_MINUTE: '5', ROW_CACHE: 'off' });

  it('answers the sixth handshake in a minute with 429 and a Retry-After header', async () => {
    const { api } = fixture;
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) statuses.push(await handshakeStatus(api.url));
    expect(statuses).toEqual([101, 101, 101, 101, 101]);
    const refused = await rawSocket(api.url).then(
      () => undefined,
      (error: unknown) => error as HandshakeRefused,
    );
    expect(refused).toBeInstanceOf(HandshakeRefused);
    expect(refused!.status).toBe(429);
    expect(Number(refused!.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('requests with a bad token', () => {
  const fixture = serverForThisFile({ RATE_LIMIT_IP_PER_MINUTE: '8', ROW_CACHE: 'off' });

  it('are counted against their address: guessing tokens is rate-limited too', async () => {
    const { api } = fixture;
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      const response = await fetch(api.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer not-a-token' },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      statuses.push(response.status);
      if (response.status === 429) expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 429, 429]);
  });
});
