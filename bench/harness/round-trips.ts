// Counts what ioredis clients send, so round trips per operation are measured, not believed: a
// bench-only hook on Redis.prototype.sendCommand, which every command (scripts, pipelines) takes.
import Redis from 'ioredis';

/** Requests that waited for a reply (a pipeline or MULTI is one), and commands (each of a pipeline counted). */
export type Traffic = { requests: number; commands: number };

const ignored = new WeakSet<object>();
/** Connections whose requests are also counted on their own (countOn). */
const own = new WeakMap<object, Traffic>();
let traffic: Traffic | undefined;

/**
 * Starts counting on every connection except those passed to `uncounted()`. A pipeline's commands
 * come with its stream, new for each exec, so the first command seen with a stream is one request.
 */
export function countTraffic(): Traffic {
  if (traffic) return traffic;
  const counts = (traffic = { requests: 0, commands: 0 });
  const seen = new WeakSet<object>();
  const send = Redis.prototype.sendCommand;
  Redis.prototype.sendCommand = function (this: Redis, ...args: Parameters<Redis['sendCommand']>) {
    if (ignored.has(this)) return send.apply(this, args);
    const stream = args[1] as object | undefined;
    const request = stream === undefined || !seen.has(stream) ? 1 : 0;
    if (stream !== undefined) seen.add(stream);
    for (const into of [counts, own.get(this)]) {
      if (!into) continue;
      into.requests += request;
      into.commands++;
    }
    return send.apply(this, args);
  };
  return counts;
}

/** Counts a connection's requests into `into` as well as into the totals (several may share one). */
export function countOn<T extends Redis>(client: T, into: Traffic): T {
  countTraffic();
  own.set(client, into);
  return client;
}

/** Leaves a connection out of the counts (the bench's own INFO and CONFIG). */
export function uncounted<T extends Redis>(client: T): T {
  ignored.add(client);
  return client;
}
