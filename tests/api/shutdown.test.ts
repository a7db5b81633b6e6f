// Graceful shutdown of an in-process server: sockets are told, nothing is left listening.
import { leaseKeys } from '../../src/redis/keys';
import { AcquireLockDocument, CounterUpdatedDocument } from '../../src/generated/client/graphql';
import { connectWs, eventually, post, wsOperation } from '../support/graphql';
import { startTestRedis } from '../support/redis';
import { startTestServer } from '../support/server';

it('closes WebSockets with 1001, stops listening, and can be stopped while clients are connected', async () => {
  const api = await startTestServer({ COUNTER_CLEANUP: 'on' });
  const { client, closed } = connectWs(api.url, api.tokens.user);
  const subscription = wsOperation(client, CounterUpdatedDocument, { name: 'x' });
  await new Promise((resolve) => setTimeout(resolve, 200));

  await api.stop();
  expect(await closed).toBe(1001);
  await subscription.completion().catch(() => undefined);
  await expect(fetch(api.url.replace('/graphql', '/healthz'))).rejects.toThrow();
  await client.dispose();
});

it('ends a request waiting for a lock with null when the server stops, leaving its queue place', async () => {
  const store = await startTestRedis();
  const api = await startTestServer({ SHUTDOWN_TIMEOUT_MS: '60000' }, store);
  const redis = store.client;
  const held = await post(api.url, AcquireLockDocument, { name: 'deploy', acquireTimeoutMs: 0 }, api.tokens.service);
  expect(held.data!.acquireLock!.fencingToken).toBe(1);
  const waiting = post(api.url, AcquireLockDocument, { name: 'deploy', acquireTimeoutMs: 20_000 }, api.tokens.service);
  await eventually(async () => (await redis.zcard(leaseKeys('lock', 'deploy').queue)) === 1, 5000, 20);

  // The HTTP drain would wait for the request for 30 s; the waiter is told to stop instead.
  const stopping = api.stop();
  const result = await waiting;
  expect(result.errors).toBeUndefined();
  expect(result.data).toEqual({ acquireLock: null });
  await stopping;
  expect(await redis.zcard(leaseKeys('lock', 'deploy').queue)).toBe(0);
  await store.stop();
});
