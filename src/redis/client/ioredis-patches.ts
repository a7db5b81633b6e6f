// Fixes for ioredis 5.11.1 that it does not ship yet. Remove each when an ioredis release has it
// (tests/unit/ioredis-patches.test.ts shows what each one guards against).
import Redis from 'ioredis';
import ClusterSubscriberGroup from 'ioredis/built/cluster/ClusterSubscriberGroup';
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

/**
 * On an ASK redirect (a slot being moved to another primary) the cluster client sends ASKING to
 * the importing node and drops the promise it gets. That node owns no slot yet, so the next slot
 * refresh disconnects it, and every ASKING still queued or in flight there is rejected with
 * "Connection is closed.": an unhandled rejection each, logged at error level. The command that
 * followed it fails on its own and is retried or answered as STORE_UNAVAILABLE; the ASKING's
 * reply tells nobody anything, so its failure is marked handled. Whoever does await it (nothing
 * in this product) still sees the rejection.
 */
// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the connection as `this`
const originalAsking = Redis.prototype.asking;
Redis.prototype.asking = function asking(this: Redis, ...args: Parameters<Redis['asking']>): Promise<'OK'> {
  const reply = originalAsking.apply(this, args);
  reply.catch(() => undefined);
  return reply;
};

/**
 * On a cluster, ioredis keeps the channels of each slot to send SSUBSCRIBE for again after a
 * reconnect or a new slot layout. addChannels appends whatever it is given, so every SSUBSCRIBE
 * of a channel already held added a copy: the catch-up after each reconnect subscribes every live
 * channel again, and the lists grew by one copy of each per reconnect (and each resubscribe sent
 * them all). Redis holds a channel once however often it is subscribed, and so does the list now:
 * the slot's list is stored without repeats (same equality as removeChannels, so one SUNSUBSCRIBE
 * still removes it). The slot is ioredis's to compute, so its own write of the list is caught.
 */
type SlotChannels = Map<number, (string | Buffer)[]>;
// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the group as `this`
const originalAddChannels = ClusterSubscriberGroup.prototype.addChannels;
ClusterSubscriberGroup.prototype.addChannels = function addChannels(
  this: ClusterSubscriberGroup,
  channels: (string | Buffer)[],
): number {
  const bySlot = (this as unknown as { channels: SlotChannels }).channels;
  const store = bySlot.set.bind(bySlot);
  bySlot.set = (slot, list) => store(slot, [...new Set(list)]);
  try {
    return originalAddChannels.call(this, channels);
  } finally {
    // Back to Map.prototype.set.
    delete (bySlot as Partial<SlotChannels>).set;
  }
};
