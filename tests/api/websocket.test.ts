// GraphQL over WebSocket (graphql-ws) against the real server: notify-then-pull, auth, errors.
import jwt from 'jsonwebtoken';
import {
  CounterDocument,
  CounterUpdatedDocument,
  CountersDocument,
  UpdateCounterDocument,
} from '../../src/generated/client/graphql';
import { counterKeys } from '../../src/redis/keys';
import { codes, connectWs, eventually, post, wsOperation, type WsClient } from '../support/graphql';
import { startTestServer, TEST_SECRET, type TestServer } from '../support/server';

let api: TestServer;
const clients: WsClient[] = [];

function connect(token: string | undefined): WsClient {
  const client = connectWs(api.url, token);
  clients.push(client);
  return client;
}

beforeAll(async () => {
  api = await startTestServer();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.dispose()));
});
afterAll(async () => {
  await api.stop();
});

describe('counterUpdated', () => {
  it('notifies a subscriber of each update to its counter, which it then pulls', async () => {
    const { client } = connect(api.tokens.user);
    const subscription = wsOperation(client, CounterUpdatedDocument, { name: 'watched' });
    // The subscription is live once Redis holds the server's subscription to its channel.
    await eventually(async () => (await api.redis.subscribers(counterKeys.updated('watched'))) >= 1, 30_000);

    await post(api.url, UpdateCounterDocument, { name: 'other' }, api.tokens.service);
    await post(api.url, UpdateCounterDocument, { name: 'watched', count: 2 }, api.tokens.service);
    await post(api.url, UpdateCounterDocument, { name: 'watched', count: 3 }, api.tokens.service);

    const events = await subscription.take(2);
    expect(events.map((e) => e.data?.counterUpdated.name)).toEqual(['watched', 'watched']);
    const times = events.map((e) => e.data!.counterUpdated.time);
    expect(times[1]).toBeGreaterThanOrEqual(times[0]);

    const pulled = await post(api.url, CounterDocument, { name: 'watched', precision: 86400 }, api.tokens.user);
    expect(pulled.data?.counter.map((s) => s.count)).toEqual([5]);
    // Nothing about the other counter arrived.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(subscription.results).toHaveLength(2);
  });

  it('hears about updates made through another API instance', async () => {
    const second = await startTestServer({}, api.redis);
    try {
      const { client } = connect(api.tokens.user);
      const subscription = wsOperation(client, CounterUpdatedDocument, { name: 'shared' });
      // A guessed 200 ms for the SUBSCRIBE was too short beside CPU burners: the notice found nobody.
      await eventually(async () => (await api.redis.subscribers(counterKeys.updated('shared'))) >= 1, 30_000);
      await post(second.url, UpdateCounterDocument, { name: 'shared' }, second.tokens.service);
      const [event] = await subscription.take(1);
      expect(event.data?.counterUpdated.name).toBe('shared');
    } finally {
      await second.stop();
    }
  });

  it('refuses an invalid counter name with BAD_USER_INPUT', async () => {
    const { client } = connect(api.tokens.user);
    const subscription = wsOperation(client, CounterUpdatedDocument, { name: 'bad name' });
    const results = await subscription.completion();
    expect(results).toHaveLength(1);
    expect(codes(results[0])).toEqual(['BAD_USER_INPUT']);
  });
});

describe('queries and mutations over WebSocket', () => {
  it('applies the same roles as HTTP', async () => {
    const { client } = connect(api.tokens.user);
    const forbidden = await wsOperation(client, UpdateCounterDocument, { name: 'ws' }).completion();
    expect(codes(forbidden[0])).toEqual(['FORBIDDEN']);

    const service = connect(api.tokens.service);
    const allowed = await wsOperation(service.client, UpdateCounterDocument, { name: 'ws' }).completion();
    expect(allowed[0].data).toEqual({ updateCounter: true });

    const listed = await wsOperation(client, CountersDocument, {}).completion();
    expect(listed[0].data?.counters.map((c) => c.name)).toContain('ws');
  });

  it('reports invalid variables with BAD_USER_INPUT', async () => {
    const { client } = connect(api.tokens.service);
    const results = await wsOperation(client, UpdateCounterDocument, { name: 'ws', count: 2.5 }).completion();
    expect(codes(results[0])).toEqual(['BAD_USER_INPUT']);
  });

  it('reports a document that does not validate with GRAPHQL_VALIDATION_FAILED', async () => {
    const { client } = connect(api.tokens.user);
    const error = await new Promise<unknown>((resolve) => {
      client.subscribe({ query: '{ noSuchField }' }, { next: resolve, error: resolve, complete: () => undefined });
    });
    expect(Array.isArray(error)).toBe(true);
    expect((error as { extensions: { code: string } }[])[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});

describe('WebSocket authentication', () => {
  it('closes a connection without a token with 4403', async () => {
    const { closed } = connect(undefined);
    expect(await closed).toBe(4403);
  });

  it('closes a connection with an invalid token with 4403', async () => {
    const { closed } = connect(jwt.sign({ sub: 'mallory' }, 'y'.repeat(40)));
    expect(await closed).toBe(4403);
  });

  it('closes the connection when the token expires, not before', async () => {
    const expiresAt = (Math.floor(Date.now() / 1000) + 2) * 1000;
    const shortLived = jwt.sign({ sub: 'alice', exp: expiresAt / 1000 }, TEST_SECRET);
    const { client, closed } = connect(shortLived);
    const subscription = wsOperation(client, CounterUpdatedDocument, { name: 'expiring' });
    // The subscription is live until then: an update reaches it.
    await eventually(async () => {
      await post(api.url, UpdateCounterDocument, { name: 'expiring' }, api.tokens.service);
      return subscription.results.length > 0;
    }, 1500);
    expect(await closed).toBe(4403);
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt - 20);
    await subscription.completion().catch(() => undefined);
    expect(subscription.results.every((r) => r.data?.counterUpdated.name === 'expiring')).toBe(true);
  });
});
