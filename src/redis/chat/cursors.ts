// Where each reader is in a chat: a member's seen-id, and a cursor per device of theirs. Fetching
// takes what is past them from every chat of the member, shared fairly, and moves them on.
import { badInput } from '../../common/errors';
import type { RedisClient } from '../client/connection';
import { runScript } from '../client/scripts';
import { chatChannel, chatKeys } from '../keys';
import { compareBytes } from '../order';
import type { PushTargets } from '../push/targets';
import type { ChatDevices, DeviceStatus } from './devices';
import { shareFairly } from './fair-share';
import { parseMessage } from './log';
import { keysOf } from './script-keys';
import type { ChatSettings, PendingChat, ReadPosition } from './types';
import type { ChatIndex, IndexEntry } from './user-index';

/** Added to the time since a push-out within which a cursor's use counts as the device's own. */
const FORGET_MARGIN_MS = 20;

/** Who fetches: a member, and one of their devices ('' for none) with what chat-device-check said. */
interface Reader {
  user: string;
  device: string;
  /** New to the user, or forgotten: a cursor it lacks starts at the member's seen-id. */
  fresh: boolean;
  /** Its cursors start again at the member's seen-id, left-over ones too. */
  forgotten: boolean;
}

export class ChatCursors {
  constructor(
    private readonly redis: RedisClient,
    private readonly settings: ChatSettings,
    private readonly devices: ChatDevices,
    private readonly index: ChatIndex,
    private readonly pushTargets?: Pick<PushTargets, 'removeDevices'>,
  ) {}

  /**
   * Every chat of `user` with entries after their cursor: at most `limit` entries in all,
   * shared fairly between chats, oldest first within each. The cursor is the user's seen-id, or
   * with `device` that device's own. With `advance`, cursors move past what is returned (the
   * seen-id with them) and, in the 'seen' retention mode, entries everyone has taken are deleted.
   * A forgotten device gets every chat, with or without entries, each saying where history starts.
   */
  async pending(user: string, limit: number, advance: boolean, device?: string): Promise<PendingChat[]> {
    const [entries, status] = await Promise.all([
      this.index.read(user),
      device === undefined ? Promise.resolve<DeviceStatus>('known') : this.devices.check(user, device),
    ]);
    const reader: Reader = { user, device: device ?? '', fresh: status !== 'known', forgotten: status === 'forgotten' };
    const chats = entries.length === 0 ? [] : await this.pendingIn(reader, entries, limit, advance);
    // Known only once its cursors are made: a fetch cut short here is a first fetch again next time.
    if (device !== undefined && status !== 'known') {
      const pushedOut = await this.devices.add(user, device);
      if (pushedOut.length > 0) {
        // A forgotten device is pushed to no more: it may be a phone that was sold or lost.
        await Promise.all([
          this.dropCursors(user, pushedOut, performance.now(), entries),
          this.pushTargets?.removeDevices(user, pushedOut),
        ]);
      }
    }
    return chats;
  }

  /** Drops the cursors of devices pushed out of the user's list, in every chat of theirs. */
  private async dropCursors(user: string, devices: string[], since: number, entries: IndexEntry[]): Promise<void> {
    // A cursor used since the push-out (by that device's own fetch meanwhile) stays; the window is
    // measured here and compared on the chat's shard with its own clock, with a margin for the trip.
    const window = Math.ceil(performance.now() - since) + FORGET_MARGIN_MS;
    await Promise.all(
      entries.map((entry) =>
        runScript(this.redis, 'chat-forget-devices', keysOf(entry.chatId, 'cursors', 'active'), [
          user,
          window,
          ...devices,
        ]),
      ),
    );
  }

  private async pendingIn(
    reader: Reader,
    entries: IndexEntry[],
    limit: number,
    advance: boolean,
  ): Promise<PendingChat[]> {
    // Fetched straight away, without first asking each chat what is waiting: every chat gets an
    // equal share as if it had plenty (a share of 0 still reports what is waiting), and shares
    // a chat could not use go round again to the chats that had more. Two round trips in the
    // usual case, three when shares go round again.
    const start = Math.floor(Math.random() * entries.length);
    const found = await this.fetchEach(
      reader,
      entries,
      shareFairly(
        entries.map(() => limit),
        limit,
        start,
      ),
      advance,
    );
    const left = limit - found.reduce((sum, chat) => sum + (chat?.messages.length ?? 0), 0);
    const more = found.map((chat) => (chat && left > 0 ? chat.remaining : 0));
    const again = more.flatMap((count, i) => (count > 0 ? [i] : []));
    if (again.length > 0) {
      const quotas = shareFairly(
        again.map((i) => more[i]),
        left,
        start % again.length,
      );
      // Without advance the seen-id did not move: fetch the first share again plus the extra one.
      const asked = advance ? quotas : quotas.map((quota, k) => quota + found[again[k]]!.messages.length);
      // The first pass started a forgotten device's cursors again: this one goes on from them.
      const fetched = await this.fetchEach(
        { ...reader, forgotten: false },
        again.map((i) => entries[i]),
        asked,
        advance,
      );
      fetched.forEach((chat, k) => {
        const i = again[k];
        const first = found[i]!;
        if (chat)
          found[i] = {
            ...chat,
            messages: advance ? [...first.messages, ...chat.messages] : chat.messages,
            deviceForgotten: first.deviceForgotten,
          };
        // Left between the passes: what the first pass took (and, with advance, moved past) is still theirs.
        else found[i] = { ...first, remaining: 0 };
      });
    }
    return found
      .filter(
        (chat): chat is PendingChat =>
          chat !== undefined &&
          (reader.forgotten || chat.deviceForgotten || chat.messages.length > 0 || chat.remaining > 0),
      )
      .sort((a, b) => Number(a.chatId) - Number(b.chatId));
  }

  /** One chat-fetch per entry with a quota (undefined for chats the user is no longer in, whose entries go). */
  private fetchEach(
    reader: Reader,
    entries: IndexEntry[],
    quotas: number[],
    advance: boolean,
  ): Promise<(PendingChat | undefined)[]> {
    return Promise.all(
      entries.map(async (entry, i): Promise<PendingChat | undefined> => {
        const [remaining, historyStart, made, ...found] = (await runScript(
          this.redis,
          'chat-fetch',
          keysOf(entry.chatId, 'members', 'messages', 'meta', 'joined', 'cursors', 'active'),
          [
            reader.user,
            quotas[i],
            advance ? '1' : '0',
            reader.device,
            reader.forgotten ? '2' : reader.fresh ? '1' : '0',
            chatChannel(entry.chatId),
            entry.chatId,
            this.settings.deviceTtlSeconds * 1000,
          ],
        )) as [number, number?, number?, ...string[]];
        if (remaining < 0) {
          await this.index.unindex(reader.user, entry);
          return undefined;
        }
        return {
          chatId: entry.chatId,
          messages: found.map((json) => parseMessage(entry.chatId, json)),
          remaining,
          historyStart: historyStart!,
          // 2: the list let the device through a moment before forgetting it, but this chat had.
          deviceForgotten: (reader.forgotten && made === 1) || made === 2,
        };
      }),
    );
  }

  /**
   * Moves the member's seen-id, or with `device` that device's cursor (and the seen-id with it),
   * forward to `messageId`; false when it already was there.
   */
  async markSeen(chatId: string, user: string, messageId: number, device?: string): Promise<boolean> {
    // Only a device the user's list knows has cursors: one named here first would make cursors
    // that no list bounds, and a forgotten one starts again with its next fetch.
    // Only looked at: a mark is no fetch, and must not keep a device known whose cursors go stale.
    if (device !== undefined && (await this.devices.check(user, device, true)) !== 'known') {
      throw badInput('device has not fetched yet, or was forgotten: fetch with it first', 'device');
    }
    return (
      (await runScript(
        this.redis,
        'chat-mark-seen',
        keysOf(chatId, 'members', 'messages', 'meta', 'cursors', 'active'),
        [user, messageId, device ?? '', chatChannel(chatId), chatId, this.settings.deviceTtlSeconds * 1000],
      )) === 1
    );
  }

  /**


  /** Where each member has read up to (their seen-id), by name. Callers check membership first. */
  async readPositions(chatId: string): Promise<ReadPosition[]> {
    const flat = await this.redis.zrange(chatKeys.members(chatId), 0, -1, 'WITHSCORES');
    const positions: ReadPosition[] = [];
    for (let i = 0; i < flat.length; i += 2) positions.push({ user: flat[i], messageId: Number(flat[i + 1]) });
    return positions.sort((a, b) => compareBytes(a.user, b.user));
  }
}
