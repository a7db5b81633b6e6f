// Which devices this API process tells over a socket, kept in Redis (userKeys.online) so the push
// decision on any instance leaves them alone. One per process; holds lapse unless renewed, so a
// crashed process's devices count as online for one ttl at most.
import { randomBytes } from 'node:crypto';
import type { Logger } from '../../common/logger';
import type { RedisClient } from '../client/redis-client';
import { runScript, type ScriptName } from '../client/scripts';
import { userKeys } from '../keys';

export interface PushPresenceOptions {
  /** How long a hold counts without renewal; renewed every third of it. */
  ttlMs: number;
  logger: Logger;
}

/** Users renewed at once by the loop (one script call each): 10,000 held devices in a few round trips. */
const USERS_PER_SLICE = 300;
/** Members in one script call, well below Lua's limit on unpacked arguments. */
const MEMBERS_PER_CALL = 500;
/** A Redis that is down fails every renewal: one warning in this long says so. */
const WARN_EVERY_MS = 30_000;

export class PushPresence {
  /** Names this process in the members it writes, so instances never remove each other's holds. */
  readonly instance = randomBytes(9).toString('base64url');
  /** user -> device -> holds (sockets or subscriptions) this process has of it. */
  private readonly held = new Map<string, Map<string, number>>();
  private readonly log: Logger;
  private timer: NodeJS.Timeout | undefined;
  private renewal: Promise<void> | undefined;
  private stopped = false;
  private lastWarning = -Infinity;

  constructor(
    private readonly redis: RedisClient,
    private readonly options: PushPresenceOptions,
  ) {
    this.log = options.logger.child({ component: 'push-presence' });
  }

  /**
   * One more hold of the device; the first is written to Redis at once. Never rejects: a failed
   * write is logged, and the next renewal writes it again.
   */
  async hold(user: string, device: string): Promise<void> {
    if (this.stopped) return;
    let devices = this.held.get(user);
    if (!devices) {
      devices = new Map<string, number>();
      this.held.set(user, devices);
    }
    const count = devices.get(device) ?? 0;
    devices.set(device, count + 1);
    if (count === 0) await this.write('push-presence-hold', user, [String(this.options.ttlMs)], [device]);
  }

  /**
   * One hold fewer; with the last, the device's member goes from Redis at once. Never rejects: a
   * member a failed write left behind lapses after the ttl.
   */
  async release(user: string, device: string): Promise<void> {
    const devices = this.held.get(user);
    const count = devices?.get(device);
    if (!devices || count === undefined) return;
    if (count > 1) {
      devices.set(device, count - 1);
      return;
    }
    devices.delete(device);
    if (devices.size === 0) this.held.delete(user);
    await this.write('push-presence-release', user, [], [device]);
  }

  /** The user's devices some instance holds at `at` (unix ms; Redis's clock now when left out). */
  async online(user: string, at?: number): Promise<string[]> {
    return (await runScript(this.redis, 'push-presence-online', [userKeys.online(user)], [at ?? ''])) as string[];
  }

  start(): void {
    if (this.timer || this.stopped) return;
    this.schedule();
  }

  /** Stops renewing, then removes every member this process holds (graceful shutdown, before Redis closes). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.renewal;
    const users = [...this.held];
    this.held.clear();
    await this.inSlices(users, ([user, devices]) => this.write('push-presence-release', user, [], [...devices.keys()]));
  }

  /**
   * Passes start a third of the ttl apart, or back to back when one takes longer: a hold is
   * written again within a third of the ttl plus one pass, so it keeps while a pass takes less
   * than two thirds of the ttl.
   */
  private schedule(delayMs = this.options.ttlMs / 3): void {
    this.timer = setTimeout(() => {
      const started = Date.now();
      this.renewal = this.renew().finally(() => {
        this.renewal = undefined;
        if (!this.stopped) this.schedule(Math.max(0, this.options.ttlMs / 3 - (Date.now() - started)));
      });
    }, delayMs);
    this.timer.unref();
  }

  /**
   * Moves every hold's lapse forward. Each slice reads the holds when it is sent: a release
   * after that is sent after it on the same connection, so Redis applies them in that order.
   */
  private async renew(): Promise<void> {
    const started = Date.now();
    const ttl = String(this.options.ttlMs);
    await this.inSlices([...this.held.keys()], async (user) => {
      const devices = this.held.get(user);
      if (devices) await this.write('push-presence-hold', user, [ttl], [...devices.keys()]);
    });
    this.log.debug({ users: this.held.size, ms: Date.now() - started }, 'push presence renewed');
  }

  private async inSlices<T>(items: T[], work: (item: T) => Promise<void>): Promise<void> {
    for (let from = 0; from < items.length; from += USERS_PER_SLICE) {
      await Promise.all(items.slice(from, from + USERS_PER_SLICE).map(work));
    }
  }

  private async write(script: ScriptName, user: string, args: string[], devices: string[]): Promise<void> {
    const key = userKeys.online(user);
    try {
      for (let from = 0; from < devices.length; from += MEMBERS_PER_CALL) {
        const members = devices.slice(from, from + MEMBERS_PER_CALL).map((device) => `${device}\n${this.instance}`);
        await runScript(this.redis, script, [key], [...args, ...members]);
      }
    } catch (error) {
      if (Date.now() - this.lastWarning < WARN_EVERY_MS) return;
      this.lastWarning = Date.now();
      this.log.warn(
        { err: error, code: 'PUSH_PRESENCE_FAILED', script, user },
        'push presence could not be written; pushes may reach devices told over a socket (further failures quiet for 30 s)',
      );
    }
  }
}
