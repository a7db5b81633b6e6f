// The devices a user fetches chats with, on the user's slot. Each device has a cursor of its own in
// every chat (chat-fetch.lua); this registry says whether a device is new, known or forgotten,
// which decides where a cursor it lacks starts. A device silent for the lifetime is forgotten, so
// a lost phone cannot keep messages stored for ever in chats that delete what everyone has seen.
import type { RedisClient } from '../client/connection';
import { runScript } from '../client/scripts';
import { userKeys } from '../keys';

export type DeviceStatus = 'known' | 'new' | 'forgotten';

export interface DeviceRecord {
  device: string;
  /** Unix ms of its last fetch. */
  lastFetchAt: number;
  /** Silent for longer than the lifetime: its next fetch starts again at the user's seen-id. */
  forgotten: boolean;
}

const STATUS: DeviceStatus[] = ['known', 'new', 'forgotten'];

export class ChatDevices {
  constructor(
    private readonly redis: RedisClient,
    private readonly lifetimeMs: number,
    private readonly maxDevices: number,
  ) {}

  /** Before a fetch: a known device's last fetch becomes now (unless `peek`). */
  async check(user: string, device: string, peek = false): Promise<DeviceStatus> {
    const status = await runScript(
      this.redis,
      'chat-device-check',
      [userKeys.devices(user)],
      [device, this.lifetimeMs, peek ? 'peek' : ''],
    );
    return STATUS[status as number];
  }

  /** After a new or forgotten device's fetch made its cursors; returns the devices it pushed out. */
  async add(user: string, device: string): Promise<string[]> {
    return (await runScript(
      this.redis,
      'chat-device-add',
      [userKeys.devices(user)],
      [device, this.lifetimeMs, this.maxDevices],
    )) as string[];
  }

  /**
   * The live devices of `users` as `user\ndevice`, joined by tabs (names hold neither), for a
   * chat's scripts. Judged by this process's clock: a device at the edge may be in or out.
   */
  async live(users: string[]): Promise<string> {
    const since = Date.now() - this.lifetimeMs;
    const lists = await Promise.all(
      users.map((user) => this.redis.zrangebyscore(userKeys.devices(user), since, '+inf')),
    );
    return lists.flatMap((devices, i) => devices.map((device) => `${users[i]}\n${device}`)).join('\t');
  }

  /** Most recent first, forgotten ones included while they are remembered. */
  async list(user: string): Promise<DeviceRecord[]> {
    const [flat, time] = await Promise.all([
      this.redis.zrevrange(userKeys.devices(user), 0, -1, 'WITHSCORES'),
      this.redis.time(),
    ]);
    const now = Number(time[0]) * 1000 + Math.floor(Number(time[1]) / 1000);
    const records: DeviceRecord[] = [];
    for (let i = 0; i < flat.length; i += 2) {
      const lastFetchAt = Number(flat[i + 1]);
      records.push({ device: flat[i], lastFetchAt, forgotten: lastFetchAt < now - this.lifetimeMs });
    }
    return records;
  }
}
