// The ioredis fixes in src/redis/client/ioredis-patches.ts: a sharded subscriber connection that
// ioredis stops (its slots moved) may still report an error as its socket closes; that must not be
// an unhandled 'error' event, which would end the API process. And the ASKING that the cluster
// client sends on an ASK redirect, and never awaits, must not end as an unhandled rejection when
// its connection closes (a slot refresh drops the importing node's connection).
import { EventEmitter } from 'node:events';
import Redis from 'ioredis';
import ShardedSubscriber from 'ioredis/built/cluster/ShardedSubscriber';
import '../../src/redis/client/connection';

const newSubscriber = () =>
  new ShardedSubscriber(new EventEmitter(), { host: '127.0.0.1', port: 1 }, { lazyConnect: true });

it('keeps an error listener on a stopped sharded subscriber connection, so a late error is ignored', () => {
  const subscriber = newSubscriber();
  const connection = subscriber.getInstance()!;
  subscriber.stop();

  expect(subscriber.getInstance()).toBeNull();
  expect(connection.listenerCount('error')).toBe(1);
  expect(() =>
    connection.emit('error', new Error('Command queue state error. If you can reproduce this, please report it.')),
  ).not.toThrow();
});

it('without the fix, the same late error would be thrown (what the fix guards against)', () => {
  const subscriber = newSubscriber();
  const connection = subscriber.getInstance()!;
  subscriber.stop();
  connection.removeAllListeners('error');

  expect(() => connection.emit('error', new Error('late'))).toThrow('late');
});

/**
 * Sends ASKING and drops its promise, as the cluster client does, on a connection that closes
 * before any reply (nothing listens on port 1), and waits until the connection has ended and
 * Node has had the chance to report the rejection. Jest fails the test that was running when a
 * rejection goes unhandled (without the fix this one fails with "Connection is closed.").
 */
it('leaves no unhandled rejection when an ASKING nobody awaits fails as its connection closes', async () => {
  const connection = new Redis({ host: '127.0.0.1', port: 1, lazyConnect: true, retryStrategy: () => null });
  connection.on('error', () => undefined);
  const ended = new Promise((resolve) => connection.once('end', resolve));
  const asked = connection.asking();
  await ended;
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
  // Whoever does await the reply still learns it failed.
  await expect(asked).rejects.toThrow('Connection is closed.');
});
