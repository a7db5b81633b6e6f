// The ioredis fix in src/redis/client/ioredis-patches.ts: a sharded subscriber connection that ioredis
// stops (its slots moved) may still report an error as its socket closes; that must not be an
// unhandled 'error' event, which would end the API process.
import { EventEmitter } from 'node:events';
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
