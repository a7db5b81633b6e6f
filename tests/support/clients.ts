// Closing the tests' Redis connections without leaving a timer behind.
import type { Cluster, Redis } from 'ioredis';

/**
 * Closes the clients not closed yet and waits until each is. ioredis's disconnect() arms a 2 s
 * timer that only its socket's close event clears: on a client whose socket had already closed
 * (one a test or a worker's stop() closed before), nothing clears it, and it kept the jest worker
 * alive for 2 s after its last test, past jest's 500 ms, so that jest reported "A worker process
 * has failed to exit gracefully".
 */
export async function closeClients(clients: readonly (Redis | Cluster)[]): Promise<void> {
  await Promise.all(
    clients.map(async (client) => {
      if (client.status === 'end') return;
      const ended = new Promise<void>((resolve) => client.once('end', () => resolve()));
      client.disconnect();
      // A safety net for a client that never says so; unref'd, so it holds nothing up itself.
      let timer: NodeJS.Timeout | undefined;
      const netting = new Promise<void>((resolve) => (timer = setTimeout(resolve, 5000).unref()));
      await Promise.race([ended, netting]);
      clearTimeout(timer);
    }),
  );
}
