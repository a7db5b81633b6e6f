// The push decisions' reads and claims in Redis: when a decision is due, who may be pushed, and
// the claims that make every push happen once per device and entry range (the push-*.lua scripts).
import type { RedisClient } from '../client/connection';
import { runScript } from '../client/scripts';
import { userKeys } from '../keys';
import { keysOf } from '../chat/script-keys';
import type { PushKind, PushTarget } from '../../push/types';

/** A device that may be pushed to, with its target as stored. */
export interface Candidate {
  device: string;
  target: StoredTarget;
}

export interface ChatState {
  last: number;
  /** Who wrote the latest entry ('' when it is no longer kept). */
  lastSender: string;
  /** Member -> seen-id. */
  members: Map<string, number>;
}

/** A claimed push: the device, and the entries after what it has. */
export interface Claim {
  user: string;
  device: string;
  unread: number;
}

/** What a device is pushed for, checked again before each attempt. */
export interface SendCheck {
  target: StoredTarget | undefined;
  online: boolean;
  /** Mailbox: messages waiting, and the oldest one's id (0 for none). */
  waiting: number;
  oldestWaiting: number;
  /** The mailbox push claimed last for the device (0 for none). */
  mailboxPushed: number;
}

/** A target as stored: with `at`, when it was registered, so a late "gone" spares a newer registration. */
export type StoredTarget = PushTarget & { at?: number };

const targetOf = (json: string): StoredTarget => JSON.parse(json) as StoredTarget;

function pairs(flat: string[]): Candidate[] {
  const found: Candidate[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) found.push({ device: flat[i], target: targetOf(flat[i + 1]) });
  return found;
}

export class PushDecisions {
  constructor(
    private readonly redis: RedisClient,
    private readonly settings: {
      /** The chat device lifetime: a target whose device has been silent longer goes. */
      deviceLifetimeMs: number;
      /** How long the marks of pushes made are kept once a chat or mailbox is quiet. */
      markLifetimeMs: number;
    },
  ) {}

  /** Marks a decision due for `key` for `delayMs`; true when none was due (the caller makes one). */
  async due(key: string, delayMs: number): Promise<boolean> {
    return (await this.redis.set(key, '1', 'PX', Math.max(1, delayMs), 'NX')) === 'OK';
  }

  /** A decision has started: what is sent from now on makes a new one. */
  async settle(key: string): Promise<void> {
    await this.redis.del(key);
  }

  async chatState(chatId: string): Promise<ChatState> {
    const [last, lastSender, ...flat] = (await runScript(
      this.redis,
      'push-chat-state',
      keysOf(chatId, 'meta', 'messages', 'members'),
      [],
    )) as [number, string, ...string[]];
    const members = new Map<string, number>();
    for (let i = 0; i + 1 < flat.length; i += 2) members.set(flat[i], Number(flat[i + 1]));
    return { last: Number(last), lastSender, members };
  }

  /** The user's devices with a target and no live subscription (of `kinds` only, when given). */
  async candidates(user: string, kinds?: readonly PushKind[]): Promise<Candidate[]> {
    const flat = (await runScript(
      this.redis,
      'push-candidates',
      [userKeys.pushTargets(user), userKeys.online(user), userKeys.devices(user)],
      [this.settings.deviceLifetimeMs, kinds ? `,${kinds.join(',')},` : ''],
    )) as string[];
    return pairs(flat);
  }

  /**
   * The devices owed a push up to `last` (`check`), or their claim by the task `holder`
   * (`claim`): a push claimed by one task is owed to no other, so only that task sends it.
   */
  async chatOwed(
    chatId: string,
    last: number,
    devices: { user: string; device: string }[],
    mode: 'check' | 'claim',
    holder = '',
  ): Promise<Claim[]> {
    if (devices.length === 0) return [];
    const flat = (await runScript(this.redis, 'push-chat-claim', keysOf(chatId, 'members', 'cursors', 'pushed'), [
      last,
      this.settings.markLifetimeMs,
      mode,
      holder,
      ...devices.flatMap(({ user, device }) => [user, device]),
    ])) as (string | number)[];
    const claims: Claim[] = [];
    for (let i = 0; i + 2 < flat.length; i += 3) {
      claims.push({ user: String(flat[i]), device: String(flat[i + 1]), unread: Number(flat[i + 2]) });
    }
    return claims;
  }

  /** What the device or its person has of the chat now (-1: they left it), and its latest claimed push. */
  async chatHas(chatId: string, user: string, device: string): Promise<{ has: number; pushed: number }> {
    const [has, pushed] = (await runScript(
      this.redis,
      'push-chat-wanted',
      keysOf(chatId, 'members', 'cursors', 'pushed'),
      [user, device],
    )) as [number, number];
    return { has: Number(has), pushed: Number(pushed) };
  }

  /** After reading: the chat's latest entry, and the user's `devices` due a badge-only update with their unread counts. */
  async chatRead(
    chatId: string,
    user: string,
    devices: string[],
  ): Promise<{ last: number; due: { device: string; unread: number }[] }> {
    if (devices.length === 0) return { last: 0, due: [] };
    const [last, ...flat] = (await runScript(
      this.redis,
      'push-chat-read',
      keysOf(chatId, 'members', 'cursors', 'pushed', 'meta'),
      [user, ...devices],
    )) as [number, ...(string | number)[]];
    const due: { device: string; unread: number }[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) due.push({ device: String(flat[i]), unread: Number(flat[i + 1]) });
    return { last: Number(last), due };
  }

  /**
   * The mailbox's decision: the latest id, messages waiting, and the devices owed a push
   * (`check`), or the claim of `claim.device`'s push up to `claim.upTo` by the task `claim.holder`.
   */
  async mailboxOwed(
    user: string,
    claim?: { device: string; upTo: number; holder: string },
  ): Promise<{ latest: number; waiting: number; owed: Candidate[] }> {
    const [latest, waiting, ...flat] = (await runScript(
      this.redis,
      'push-mailbox-claim',
      [
        userKeys.pushTargets(user),
        userKeys.online(user),
        userKeys.devices(user),
        userKeys.mailbox(user),
        userKeys.mailboxIds(user),
        userKeys.mailboxPushed(user),
      ],
      [
        this.settings.deviceLifetimeMs,
        this.settings.markLifetimeMs,
        ...(claim ? ['claim', claim.device, claim.upTo, claim.holder] : ['check']),
      ],
    )) as [number, number, ...string[]];
    return { latest: Number(latest), waiting: Number(waiting), owed: pairs(flat) };
  }

  async sendCheck(user: string, device: string): Promise<SendCheck> {
    const [json, online, waiting, oldest, mailboxPushed] = (await runScript(
      this.redis,
      'push-send-check',
      [userKeys.pushTargets(user), userKeys.online(user), userKeys.mailbox(user), userKeys.mailboxPushed(user)],
      [device],
    )) as [string, number, number, number, number];
    return {
      target: json === '' ? undefined : targetOf(json),
      online: online === 1,
      waiting: Number(waiting),
      oldestWaiting: Number(oldest),
      mailboxPushed: Number(mailboxPushed),
    };
  }
}
