// A fix for ioredis 5.11.1 that it does not ship yet. Remove this file when an ioredis release
// keeps an error listener on a stopped ShardedSubscriber's connection (tests/ioredis-patches).
import ShardedSubscriber from 'ioredis/built/cluster/ShardedSubscriber';

/**
 * ShardedSubscriber.stop() (called when a cluster's slots move, as in a failover) removes every
 * listener of its connection before that socket has closed. An error the closing socket still
 * reports ("Command queue state error" for a late 'smessage') then has no listener, and Node ends
 * the whole API process on an unhandled 'error' event. The connection is
 * being thrown away, so its last errors are ignored.
 */
// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the subscriber as `this`
const originalStop = ShardedSubscriber.prototype.stop;
ShardedSubscriber.prototype.stop = function stop(this: ShardedSubscriber): void {
  const connection = this.getInstance();
  originalStop.call(this);
  if (connection && connection.listenerCount('error') === 0) connection.on('error', () => undefined);
};
