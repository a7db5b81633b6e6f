// Where each device of a user is pushed to when it has no socket open: one target per live
// device, on the user's slot, and for each target who registered it last, so that a phone that
// changes hands stops getting the previous user's pushes.
import { createHash } from 'node:crypto';
import type { PushTarget } from '../../push/types';
import type { RedisClient } from '../client/connection';
import { runScript } from '../client/scripts';
import { pushTargetOwner, userKeys } from '../keys';

/** A device's target as stored: `at` is when it was registered (unix ms, Redis's clock). */
export interface RegisteredPushTarget {
  device: string;
  target: PushTarget;
  at: number;
}

export interface PushTargetSettings {
  /** A device that has not fetched for this long is not live (CHAT_DEVICE_TTL_SECONDS). */
  deviceTtlSeconds: number;
  /** Most targets per user: as many as live devices (CHAT_MAX_DEVICES). */
  maxDevices: number;
}

/** The endpoint or token: what tells one phone or browser from another. */
const addressOf = (target: PushTarget): string => (target.kind === 'webpush' ? target.endpoint : target.token);

/** The owner key's tag: 22 base64url characters (132 bits) of a hash of the kind and address. */
export function pushTargetDigest(target: PushTarget): string {
  return createHash('sha256')
    .update(`${target.kind}\n${addressOf(target)}`)
    .digest('base64url')
    .slice(0, 22);
}

/** The JSON stored: the target's own fields only, whatever object it came in. */
function stored(target: PushTarget): string {
  switch (target.kind) {
    case 'webpush':
      return JSON.stringify({
        kind: target.kind,
        endpoint: target.endpoint,
        keys: { p256dh: target.keys.p256dh, auth: target.keys.auth },
      });
    case 'apns':
      return JSON.stringify({ kind: target.kind, token: target.token, environment: target.environment });
    case 'fcm':
      return JSON.stringify({ kind: target.kind, token: target.token });
  }
}

function parsed(device: string, json: string): RegisteredPushTarget {
  const { at, ...target } = JSON.parse(json) as PushTarget & { at: number };
  return { device, target, at };
}

const owner = (user: string, device: string): string => `${user}\n${device}`;

export class PushTargets {
  private readonly lifetimeMs: number;
  private readonly maxTargets: number;

  constructor(
    private readonly redis: RedisClient,
    settings: PushTargetSettings,
  ) {
    this.lifetimeMs = settings.deviceTtlSeconds * 1000;
    this.maxTargets = settings.maxDevices;
  }

  /**
   * Registers `device`'s target in place of the one it had; the same endpoint or token leaves
   * any other device it was on, this user's or another's. NOT_FOUND when the device is not a live
   * one of the user's, CONFLICT when the user would have more targets than live devices.
   */
  async set(user: string, device: string, target: PushTarget): Promise<RegisteredPushTarget> {
    const json = stored(target);
    const [at, previous, ...dropped] = (await runScript(
      this.redis,
      'push-target-set',
      [userKeys.devices(user), userKeys.pushTargets(user)],
      [device, json, target.kind, addressOf(target), this.lifetimeMs, this.maxTargets],
    )) as [number, string, ...string[]];
    // The user's targets and the owner index live on different slots, so no one script can do
    // both: the target is stored first, then claimed. Between the two the phone is registered
    // to both users for a moment; the last claim removes it from whoever had it before.
    const digest = pushTargetDigest(target);
    const before = await this.redis.set(pushTargetOwner(digest), owner(user, device), 'GET');
    const released: RegisteredPushTarget[] = [];
    if (previous !== '') released.push(parsed(device, previous));
    for (let i = 0; i < dropped.length; i += 2) released.push(parsed(dropped[i], dropped[i + 1]));
    await Promise.all([
      before !== null && !before.startsWith(`${user}\n`) ? this.takeFrom(before, target) : undefined,
      this.release(
        user,
        released.filter((old) => pushTargetDigest(old.target) !== digest),
      ),
    ]);
    return { device, target: JSON.parse(json) as PushTarget, at: Number(at) };
  }

  /** Removes the device's target; false when it had none. */
  async remove(user: string, device: string): Promise<boolean> {
    return (await this.removeWhere(user, [device])).length === 1;
  }

  /**
   * Removes the device's target only while it is still `target` (and was registered at `at`,
   * when given): a provider that calls a target gone must not take a newer registration with it.
   */
  async removeIfSame(user: string, device: string, target: PushTarget & { at?: number }): Promise<boolean> {
    return (await this.removeWhere(user, [device], target)).length === 1;
  }

  /** Removes the targets of devices the user no longer has; returns the devices that had one. */
  async removeDevices(user: string, devices: string[]): Promise<string[]> {
    if (devices.length === 0) return [];
    return (await this.removeWhere(user, devices)).map((removed) => removed.device);
  }

  async get(user: string, device: string): Promise<RegisteredPushTarget | undefined> {
    const json = await this.redis.hget(userKeys.pushTargets(user), device);
    return json === null ? undefined : parsed(device, json);
  }

  /** The user's targets, the most recently registered first. */
  async list(user: string): Promise<RegisteredPushTarget[]> {
    const all = await this.redis.hgetall(userKeys.pushTargets(user));
    return Object.entries(all)
      .map(([device, json]) => parsed(device, json))
      .sort((a, b) => b.at - a.at || (a.device < b.device ? -1 : a.device > b.device ? 1 : 0));
  }

  private async removeWhere(
    user: string,
    devices: string[],
    expected?: PushTarget & { at?: number },
  ): Promise<RegisteredPushTarget[]> {
    const flat = (await runScript(
      this.redis,
      'push-target-remove',
      [userKeys.pushTargets(user)],
      [expected?.kind ?? '', expected === undefined ? '' : addressOf(expected), expected?.at ?? '', ...devices],
    )) as string[];
    const removed: RegisteredPushTarget[] = [];
    for (let i = 0; i < flat.length; i += 2) removed.push(parsed(flat[i], flat[i + 1]));
    await this.release(user, removed);
    return removed;
  }

  /** The previous owner of a target just claimed loses it, unless they registered it again since. */
  private async takeFrom(previous: string, target: PushTarget): Promise<void> {
    const split = previous.indexOf('\n');
    if (split < 0) return;
    await runScript(
      this.redis,
      'push-target-remove',
      [userKeys.pushTargets(previous.slice(0, split))],
      [target.kind, addressOf(target), '', previous.slice(split + 1)],
    );
  }

  /** Owner entries of targets no longer registered go, unless someone else claimed them since. */
  private async release(user: string, targets: RegisteredPushTarget[]): Promise<void> {
    await Promise.all(
      targets.map((old) =>
        runScript(
          this.redis,
          'push-target-release',
          [pushTargetOwner(pushTargetDigest(old.target))],
          [owner(user, old.device)],
        ),
      ),
    );
  }
}
