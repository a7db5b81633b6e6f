// onSubscriberBack (src/redis/client/connection.ts) on a cluster: only a shard subscriber's
// connection holds subscriptions, so only its loss marks notices as possibly missed. The cluster
// says '-node' for its ordinary node connections as well; those must not cost a catch-up.
// Real ioredis objects, never connected (lazyConnect): the events are the ones ioredis emits.
import { EventEmitter } from 'node:events';
import Redis, { Cluster } from 'ioredis';
import ShardedSubscriber from 'ioredis/built/cluster/ShardedSubscriber';
import { onSubscriberBack } from '../../src/redis/client/connection';

const node = { host: '127.0.0.1', port: 1 };

function watched() {
  const cluster = new Cluster([node], { lazyConnect: true, shardedSubscribers: true });
  const calls: string[] = [];
  onSubscriberBack(
    cluster,
    () => calls.push('lost'),
    () => calls.push('back'),
  );
  return { cluster, calls };
}

it('counts a shard subscriber connection that ended as lost', () => {
  const { cluster, calls } = watched();
  // As ioredis makes it, with the name it gives it.
  const shard = new ShardedSubscriber(new EventEmitter(), { ...node, connectionName: 'api:subscriber' }, {});
  cluster.emit('-node', shard.getInstance(), '127.0.0.1:1');
  cluster.emit('subscribersReady');
  expect(calls).toEqual(['lost', 'back']);
  shard.stop();
});

it('leaves subscriptions alone when an ordinary node connection of the cluster closes', () => {
  const { cluster, calls } = watched();
  const command = new Redis({ ...node, lazyConnect: true, connectionName: 'api:subscriber' });
  cluster.emit('-node', command);
  cluster.emit('subscribersReady');
  expect(calls).toEqual(['back']);
  command.disconnect();
});

it('leaves subscriptions alone when a node connection without a name closes', () => {
  const { cluster, calls } = watched();
  const command = new Redis({ ...node, lazyConnect: true });
  (command.options as { connectionName: unknown }).connectionName = null;
  cluster.emit('-node', command);
  cluster.emit('subscribersReady');
  expect(calls).toEqual(['back']);
  command.disconnect();
});
