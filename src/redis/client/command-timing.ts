// Times every command a client sends, from send to reply, for the metrics (src/metrics/redis.ts):
// the client's sendCommand is wrapped, which both a Redis and a Cluster client call once per
// command, pipelines and scripts included. A script is named by its file, not as EVALSHA.
import type { Command } from 'ioredis';
import type { RedisClient } from './redis-client';
import { scriptNamesBySha } from './scripts';

/** Why a command failed: its own error reply, its timeout, or the connection. */
export type CommandFailure = 'reply' | 'timeout' | 'connection';

export interface CommandObserver {
  /** `command`: lower case (`hget`), or `script:<name>` for one of the product's Lua scripts. */
  observe(command: string, seconds: number, failure: CommandFailure | undefined): void;
}

/** Set on a command once timed: a command sent again (an offline queue flushed) is timed once. */
const TIMED = Symbol('timed');
type TimedCommand = Command & { [TIMED]?: true };

export function timeCommands(client: RedisClient, observer: CommandObserver): void {
  // The label of each script's EVALSHA, made once rather than on every call.
  const scripts = new Map([...scriptNamesBySha(client)].map(([sha, name]) => [sha, `script:${name}`]));
  // A Redis client takes (command, stream), a Cluster (command, stream, node): passed on as they came.
  const send = client.sendCommand.bind(client) as (command: Command, stream?: unknown, node?: unknown) => unknown;
  client.sendCommand = (command: TimedCommand, stream?: unknown, node?: unknown) => {
    if (command[TIMED]) return send(command, stream, node);
    command[TIMED] = true;
    // Read before sending: ioredis turns an EVALSHA into EVAL as it writes it.
    const name =
      command.name === 'evalsha' ? (scripts.get(command.args[0] as string) ?? 'script:unknown') : command.name;
    const started = performance.now();
    command.promise.then(
      () => observer.observe(name, (performance.now() - started) / 1000, undefined),
      (error: Error) => observer.observe(name, (performance.now() - started) / 1000, failureOf(error)),
    );
    return send(command, stream, node);
  };
}

/**
 * A script's own refusal (`E_QUEUE_FULL ...`, scripts.ts) is an answer, not a failure of Redis;
 * any other error reply is (WRONGTYPE, OOM, READONLY, a cluster that stayed down).
 */
function failureOf(error: Error): CommandFailure | undefined {
  if (error.name === 'ReplyError') return /^E_[A-Z_]+/.test(error.message) ? undefined : 'reply';
  return error.message === 'Command timed out' ? 'timeout' : 'connection';
}
