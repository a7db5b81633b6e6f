// Graceful shutdown of an in-process server: sockets are told, nothing is left listening.
import { CounterUpdatedDocument } from './generated/graphql';
import { connectWs, wsOperation } from './support/graphql';
import { startTestServer } from './support/server';

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
