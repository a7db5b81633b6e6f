// The ioredis fixes in src/redis/client/ioredis-patches.ts: a sharded subscriber connection that
// ioredis stops (its slots moved) may still report an error as its socket closes; that must not be
// an unhandled 'error' event, which would end the API process. And the ASKING that the cluster
// client sends on an ASK redirect, and never awaits, must not end as an unhandled rejection when
// its connection closes (a slot refresh drops the importing node's connection). And the list of
// channels ioredis resubscribes on a cluster holds each channel once, however often it is subscribed.
import { EventEmitter } from 'node:events';
import Redis from 'ioredis';
import ClusterSubscriberGroup from 'ioredis/built/cluster/ClusterSubscriberGroup';
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

/**
 * Every catch-up after a reconnect sends SSUBSCRIBE again for each live channel. ioredis 5.11.1
 * appended each one to its list of the slot's channels, so the list grew by a copy of every live
 * channel per reconnect, and each later resubscribe sent them all. Redis holds a channel once
 * however often it is subscribed, and one SUNSUBSCRIBE ends it: the list must do the same.
 */
describe('the sharded subscriber group keeps each channel once', () => {
  const newGroup = () => new ClusterSubscriberGroup(new EventEmitter(), {});
  const channelsOf = (group: ClusterSubscriberGroup): (string | Buffer)[] =>
    [...(group as unknown as { channels: Map<number, (string | Buffer)[]> }).channels.values()].flat();

  it('counts a channel subscribed again, or twice in one call, once', () => {
    const group = newGroup();
    expect(group.addChannels(['notify:{a}:chat'])).toBe(1);
    expect(group.addChannels(['notify:{a}:chat'])).toBe(1);
    expect(group.addChannels(['notify:{a}:chat', 'notify:{a}:task', 'notify:{a}:task'])).toBe(2);
    expect(group.addChannels(['notify:{b}:chat'])).toBe(3);
    expect(channelsOf(group).sort()).toEqual(['notify:{a}:chat', 'notify:{a}:task', 'notify:{b}:chat']);
  });

  it('drops a channel subscribed many times with one unsubscribe', () => {
    const group = newGroup();
    for (let time = 0; time < 5; time += 1) group.addChannels(['notify:{a}:chat']);
    group.addChannels(['notify:{a}:task']);
    expect(group.removeChannels(['notify:{a}:chat'])).toBe(1);
    expect(channelsOf(group)).toEqual(['notify:{a}:task']);
  });

  it('still refuses channels of different slots in one call', () => {
    const group = newGroup();
    expect(group.addChannels(['notify:{a}:chat', 'notify:{b}:chat'])).toBe(-1);
    expect(channelsOf(group)).toEqual([]);
  });
});
