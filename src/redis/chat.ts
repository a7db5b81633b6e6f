// Group chats (book section 6.5.2). A chat's keys hold its members with their seen-ids, its
// messages and its latest id; every change to a chat is one script on the chat's slot. A user's
// chat index, on the user's slot, only says which chats to look at: it is written before a user
// becomes a member and again after, and an entry is removed only if its stamp is unchanged, so a
// member is never missing from it even on Redis Cluster, where the two cannot change together.
import { randomUUID } from 'node:crypto';
import type { RedisClient } from './client/connection';
import { AppError, badInput, conflict, notFound } from '../common/errors';
import { chatChannel, chatKeys, userKeys } from './keys';
import { ChatDevices, type DeviceStatus } from './chat-devices';
import { compareBytes } from './order';
import { runScript } from './client/scripts';
import { isStoreUnavailable } from './client/store-errors';

/** An entry of a chat's log: a message, or an edit or deletion of one (which names it in `target`). */
export type EntryKind = 'message' | 'edit' | 'delete';

export interface ChatMessage {
  id: number;
  chatId: string;
  sender: string;
  /** The text: for a message, as last edited; '' once deleted. */
  message: string;
  /** Unix milliseconds, from the Redis server's clock. */
  ts: number;
  kind: EntryKind;
  /** The message an edit or deletion changes; null for a message. */
  target: number | null;
  /** When a message was last edited (unix ms); null when never. */
  editedAt: number | null;
  /** A deleted message, or an edit of one: the text is gone. */
  deleted: boolean;
  /** A message's version: the id of the entry that gave it its text (its own, or its last edit's); an edit's or deletion's own id. */
  version: number;
}

export type RetentionMode = 'history' | 'seen';

/** How long a chat keeps its entries: the newest `keepMessages`, none older than `keepMs`. */
export interface Retention {
  /** 'seen' also deletes entries once every member and device has taken them (the book's way). */
  mode: RetentionMode;
  keepMessages: number;
  keepMs: number;
}

export interface ChatDetails {
  retention: Retention;
  owner: boolean;
  /** Members typing now, in byte order. */
  typing: string[];
}

export interface HistoryPage {
  /** Oldest first. */
  messages: ChatMessage[];
  /** Whether older entries are kept. */
  hasMore: boolean;
  /** No entry before this id is kept for the caller. */
  historyStart: number;
}

export interface ReadPosition {
  user: string;
  messageId: number;
}

export interface ChatSummary {
  id: string;
  open: boolean;
  memberCount: number;
  latestMessageId: number;
  /** The caller's seen-id. */
  seenMessageId: number;
}

export interface PendingChat {
  chatId: string;
  messages: ChatMessage[];
  /** Entries still pending after these. */
  remaining: number;
  /** No entry before this id is kept for the reader. */
  historyStart: number;
  /** The device had been forgotten: its cursor started again at its user's seen-id. */
  deviceForgotten: boolean;
}

export interface SentMessage {
  message: ChatMessage;
  /** False when this was a retry of an earlier send with the same clientMessageId. */
  stored: boolean;
  members: string[];
  /** Whether the script told the members (it was given a ScriptNotice). */
  told: boolean;
}

/** How the send script tells each member: the notice is `before + message id + after`. */
export interface ScriptNotice {
  channelPrefix: string;
  before: string;
  after: string;
}

export interface ChatSettings {
  /** Most members one chat may have. */
  maxChatMembers: number;
  /** Most chats one user may belong to (bounds the work of one fetch). */
  maxChatsPerUser: number;
  /** How long a sender's clientMessageId is remembered, so a retry does not send twice. */
  dedupeSeconds: number;
  /** The retention of chats created without one, and of chats from before retention existed. */
  retention: Retention;
  /** A device that has not fetched for this long is forgotten, and its cursors go. */
  deviceTtlSeconds: number;
  /** Most live devices per user; a new one beyond makes the least recent forgotten. */
  maxDevices: number;
}

/**
 * What a chat app would pick: the newest 10,000 entries of the last 90 days; a device silent for
 * 30 days is forgotten; 10 live devices per user. config.ts reads each from the environment.
 */
export const CHAT_DEFAULTS: Pick<ChatSettings, 'retention' | 'deviceTtlSeconds' | 'maxDevices'> = {
  retention: { mode: 'history', keepMessages: 10_000, keepMs: 90 * 86_400_000 },
  deviceTtlSeconds: 30 * 86_400,
  maxDevices: 10,
};

/** Added to the time since a push-out within which a cursor's use counts as the device's own. */
const FORGET_MARGIN_MS = 20;

/** How long a typing notice lasts, and the least time between two of one member. */
const TYPING_MS = 5_000;
const TYPING_GAP_MS = 1_000;

interface IndexEntry {
  chatId: string;
  stamp: number;
  /** Written by this process before a change: the stamp the entry had before, if it had one. */
  previous?: number;
}

/** How long a place held for a chat being created lasts, if its process dies before using it. */
const HOLD_MS = 60_000;

/** Steps of 1, 2, 4, ... 2^12 skip over up to 8,191 ids lost with a failed-over shard. */
const MAX_CHAT_ID_STEPS = 12;

const isChatIdTaken = (error: unknown): boolean => error instanceof Error && error.message.startsWith('E_CHAT_EXISTS');

export class ChatRepository {
  private readonly devices: ChatDevices;

  constructor(
    private readonly redis: RedisClient,
    private readonly settings: ChatSettings,
  ) {
    this.devices = new ChatDevices(redis, settings.deviceTtlSeconds * 1000, settings.maxDevices);
  }

  /** Creates a chat of `sender` and `others` (distinct, without the sender) and sends its first message. */
  async create(
    sender: string,
    others: string[],
    text: string,
    open: boolean,
    retention: Retention = this.settings.retention,
  ): Promise<{ chat: ChatSummary; message: ChatMessage }> {
    const members = [sender, ...others];
    // The members' live devices get their cursors at once (chat-create.lua says why).
    const devices = await this.devices.live(members);
    // The id counter lives on another shard than the chat. If a failover lost its last
    // increments, ids it hands out again are already taken: step past them, further each time.
    for (let attempt = 0; ; attempt++) {
      // A place in every member's index is held first: a member in too many chats refuses before
      // an id is taken, so a refused creation uses up none (and a concurrent one cannot take the place).
      const holds = await this.holdAll(members);
      let chatId: string;
      let entries: IndexEntry[];
      try {
        chatId = String(await this.redis.incrby(chatKeys.ids(), 2 ** attempt));
        entries = await this.indexAll(chatId, members, holds);
      } catch (error) {
        await this.release(members, holds);
        throw error;
      }
      let json: string;
      try {
        json = (await runScript(
          this.redis,
          'chat-create',
          this.keys(chatId, 'members', 'messages', 'meta', 'roles', 'cursors', 'active'),
          [
            sender,
            text,
            open ? '1' : '0',
            retention.mode,
            retention.keepMessages,
            retention.keepMs,
            devices,
            ...others,
          ],
        )) as string;
      } catch (error) {
        await this.takeBack(chatId, members, entries, error);
        if (isChatIdTaken(error) && attempt < MAX_CHAT_ID_STEPS) continue;
        throw error;
      }
      await this.reindex(chatId, members, 1);
      return {
        chat: { id: chatId, open, memberCount: members.length, latestMessageId: 1, seenMessageId: 0 },
        message: parseMessage(chatId, json),
      };
    }
  }

  /** Stores a message with the chat's next id; members only. With `notice`, the script tells the members. */
  async send(
    chatId: string,
    sender: string,
    text: string,
    clientMessageId?: string,
    notice?: ScriptNotice,
  ): Promise<SentMessage> {
    return this.append(chatId, sender, 'message', text, 0, clientMessageId, notice);
  }

  /**
   * Appends an edit of the sender's own message; the message itself takes the new text. With
   * `version` (ChatMessage.version as the editor saw it), an edit made against an older text is
   * refused, or returns the edit it is a late retry of (chat-send.lua).
   */
  async edit(
    chatId: string,
    sender: string,
    messageId: number,
    text: string,
    notice?: ScriptNotice,
    version?: number,
  ): Promise<SentMessage> {
    return this.append(chatId, sender, 'edit', text, messageId, undefined, notice, version);
  }

  /** Appends a deletion of the sender's own message; its text and its edits' texts are gone. */
  async delete(chatId: string, sender: string, messageId: number, notice?: ScriptNotice): Promise<SentMessage> {
    return this.append(chatId, sender, 'delete', '', messageId, undefined, notice);
  }

  private async append(
    chatId: string,
    sender: string,
    kind: EntryKind,
    text: string,
    target: number,
    clientMessageId: string | undefined,
    notice: ScriptNotice | undefined,
    version?: number,
  ): Promise<SentMessage> {
    const { retention } = this.settings;
    const [stored, json, ...members] = (await runScript(
      this.redis,
      'chat-send',
      this.keys(chatId, 'members', 'messages', 'meta', 'sent', 'sentExpiry', 'joined', 'cursors', 'active'),
      [
        sender,
        text,
        clientMessageId ?? '',
        this.settings.dedupeSeconds * 1000,
        notice?.channelPrefix ?? '',
        notice?.before ?? '',
        notice?.after ?? '',
        kind,
        target,
        retention.keepMessages,
        retention.keepMs,
        this.settings.deviceTtlSeconds * 1000,
        chatChannel(chatId),
        chatId,
        version ?? '',
      ],
    )) as [number, string, ...string[]];
    return { message: parseMessage(chatId, json), stored: stored === 1, members, told: notice !== undefined };
  }

  /**
   * Every chat of `user` with entries after their cursor: at most `limit` entries in all,
   * shared fairly between chats, oldest first within each. The cursor is the user's seen-id, or
   * with `device` that device's own. With `advance`, cursors move past what is returned (the
   * seen-id with them) and, in the 'seen' retention mode, entries everyone has taken are deleted.
   * A forgotten device gets every chat, with or without entries, each saying where history starts.
   */
  async pending(user: string, limit: number, advance: boolean, device?: string): Promise<PendingChat[]> {
    const [flat, status] = await Promise.all([
      this.redis.zrange(userKeys.chats(user), 0, -1, 'WITHSCORES'),
      device === undefined ? Promise.resolve<DeviceStatus>('known') : this.devices.check(user, device),
    ]);
    const entries: IndexEntry[] = [];
    for (let i = 0; i < flat.length; i += 2) entries.push({ chatId: flat[i], stamp: Number(flat[i + 1]) });
    const reader: Reader = { user, device: device ?? '', fresh: status !== 'known', forgotten: status === 'forgotten' };
    const chats = entries.length === 0 ? [] : await this.pendingIn(reader, entries, limit, advance);
    // Known only once its cursors are made: a fetch cut short here is a first fetch again next time.
    if (device !== undefined && status !== 'known') {
      const pushedOut = await this.devices.add(user, device);
      if (pushedOut.length > 0) await this.dropCursors(user, pushedOut, performance.now(), entries);
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
        runScript(this.redis, 'chat-forget-devices', this.keys(entry.chatId, 'cursors', 'active'), [
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
          this.keys(entry.chatId, 'members', 'messages', 'meta', 'joined', 'cursors', 'active'),
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
          await this.unindex(reader.user, entry);
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
        this.keys(chatId, 'members', 'messages', 'meta', 'cursors', 'active'),
        [user, messageId, device ?? '', chatChannel(chatId), chatId, this.settings.deviceTtlSeconds * 1000],
      )) === 1
    );
  }

  /**
   * One page of the entries kept before `before` (the newest when undefined), at most `last`,
   * oldest first; undefined when the chat does not exist or the user is not a member.
   */
  async history(
    chatId: string,
    user: string,
    before: number | undefined,
    last: number,
  ): Promise<HistoryPage | undefined> {
    const [historyStart, more, ...found] = (await runScript(
      this.redis,
      'chat-history',
      this.keys(chatId, 'members', 'messages', 'meta', 'joined'),
      [user, before ?? '', last, this.settings.retention.keepMs],
    )) as [number, number?, ...string[]];
    if (historyStart < 0) return undefined;
    return {
      messages: found.reverse().map((json) => parseMessage(chatId, json)),
      hasMore: more === 1,
      historyStart,
    };
  }

  /** Where each member has read up to (their seen-id), by name. Callers check membership first. */
  async readPositions(chatId: string): Promise<ReadPosition[]> {
    const flat = await this.redis.zrange(chatKeys.members(chatId), 0, -1, 'WITHSCORES');
    const positions: ReadPosition[] = [];
    for (let i = 0; i < flat.length; i += 2) positions.push({ user: flat[i], messageId: Number(flat[i + 1]) });
    return positions.sort((a, b) => compareBytes(a.user, b.user));
  }

  /** The member starts or stops typing; false when the others were not told (too soon, or nothing to stop). */
  async typing(chatId: string, user: string, typing: boolean): Promise<boolean> {
    const told = await runScript(this.redis, 'chat-typing', this.keys(chatId, 'members', 'typing', 'typingTold'), [
      user,
      typing ? '1' : '0',
      TYPING_MS,
      TYPING_GAP_MS,
      chatChannel(chatId),
      chatId,
    ]);
    return told === 1;
  }

  /** Retention, role and who is typing, as `user` may see them; undefined for a non-member. */
  async details(chatId: string, user: string): Promise<ChatDetails | undefined> {
    const reply = (await runScript(
      this.redis,
      'chat-details',
      this.keys(chatId, 'members', 'meta', 'roles', 'typing'),
      [user],
    )) as (string | null)[];
    if (reply.length === 0) return undefined;
    const [mode, keep, keepMs, role, ...typing] = reply;
    const fallback = this.settings.retention;
    return {
      // Chats from before retention existed delete what everyone has seen, as they always did.
      retention: {
        mode: mode === null ? 'seen' : (mode as RetentionMode),
        keepMessages: keep === null ? fallback.keepMessages : Number(keep),
        keepMs: keepMs === null ? fallback.keepMs : Number(keepMs),
      },
      owner: role === 'owner',
      typing: (typing as string[]).sort(compareBytes),
    };
  }

  /**
   * An owner (or the service, `anyChat`) changes the chat's retention; what `change` leaves out
   * stays as the chat has it. Says whether anything changed, and what is now in force.
   */
  async setRetention(
    chatId: string,
    caller: string,
    anyChat: boolean,
    change: Partial<Retention>,
  ): Promise<{ changed: boolean; retention: Retention }> {
    const fallback = this.settings.retention;
    const [changed, mode, keepMessages, keepMs] = (await runScript(
      this.redis,
      'chat-manage',
      this.keys(chatId, 'members', 'messages', 'meta', 'roles'),
      [
        caller,
        anyChat ? '1' : '0',
        'retention',
        change.mode ?? '',
        change.keepMessages ?? '',
        change.keepMs ?? '',
        fallback.keepMessages,
        fallback.keepMs,
      ],
    )) as [number, RetentionMode, number, number];
    return { changed: changed === 1, retention: { mode, keepMessages, keepMs } };
  }

  /** An owner (or the service) makes a member an owner or takes it back; false when it already was so. */
  async setOwner(chatId: string, caller: string, anyChat: boolean, member: string, owner: boolean): Promise<boolean> {
    return (
      (await runScript(this.redis, 'chat-manage', this.keys(chatId, 'members', 'messages', 'meta', 'roles'), [
        caller,
        anyChat ? '1' : '0',
        'role',
        member,
        owner ? 'owner' : 'member',
      ])) === 1
    );
  }

  /** The caller joins an open chat (or one they are in already, keeping their seen-id). */
  async join(chatId: string, user: string): Promise<ChatSummary> {
    return this.addMembers(chatId, user, [user], 'join');
  }

  /** A member adds others; each starts at the chat's latest message. */
  async add(chatId: string, caller: string, users: string[]): Promise<ChatSummary> {
    return this.addMembers(chatId, caller, users, 'add');
  }

  /** False when the user was not a member. The last member out deletes the chat. */
  async leave(chatId: string, user: string): Promise<boolean> {
    return this.removeMember(chatId, user, '', false);
  }

  /**
   * `remover`, an owner (or the service when `anyChat`), removes `user`, who at once receives
   * nothing more; false when they were not a member. '' for a remover: the user leaves.
   */
  async removeMember(chatId: string, user: string, remover: string, anyChat: boolean): Promise<boolean> {
    const stamp = await this.redis.zscore(userKeys.chats(user), chatId);
    const left = await runScript(
      this.redis,
      'chat-leave',
      this.keys(
        chatId,
        'members',
        'messages',
        'meta',
        'sent',
        'sentExpiry',
        'joined',
        'roles',
        'cursors',
        'active',
        'typing',
        'typingTold',
      ),
      [user, remover, anyChat ? '1' : '0', chatChannel(chatId), chatId, this.settings.deviceTtlSeconds * 1000],
    );
    if (stamp !== null) await this.unindex(user, { chatId, stamp: Number(stamp) });
    return left === 1;
  }

  /** The user's devices, most recent first; see ChatDevices. */
  async deviceList(user: string): ReturnType<ChatDevices['list']> {
    return this.devices.list(user);
  }

  /** The user's chats, by id; entries of chats the user has left are dropped from the index. */
  async summaries(user: string): Promise<ChatSummary[]> {
    const flat = await this.redis.zrange(userKeys.chats(user), 0, -1, 'WITHSCORES');
    const entries: IndexEntry[] = [];
    for (let i = 0; i < flat.length; i += 2) entries.push({ chatId: flat[i], stamp: Number(flat[i + 1]) });
    const found = await Promise.all(
      entries.map(async (entry) => {
        const summary = await this.summary(entry.chatId, user);
        if (!summary) await this.unindex(user, entry);
        return summary;
      }),
    );
    return found.filter((chat): chat is ChatSummary => chat !== undefined).sort((a, b) => Number(a.id) - Number(b.id));
  }

  /** The chat as `user` sees it, or undefined when it does not exist or they are not a member. */
  async summary(chatId: string, user: string): Promise<ChatSummary | undefined> {
    return toSummary(
      chatId,
      (await runScript(this.redis, 'chat-status', this.keys(chatId, 'members', 'meta'), [user])) as StatusReply,
    );
  }

  /** Member names in byte order. Callers check membership first. */
  async members(chatId: string): Promise<string[]> {
    // The set is ordered by seen-id, so sort by name here.
    return (await this.redis.zrange(chatKeys.members(chatId), 0, -1)).sort(compareBytes);
  }

  /** Returns the chat as the caller sees it right after the change. */
  private async addMembers(
    chatId: string,
    caller: string,
    users: string[],
    mode: 'join' | 'add',
  ): Promise<ChatSummary> {
    // Checked first so that nobody outside the chat can touch the indexes of the users named.
    if (mode === 'add' && !(await this.summary(chatId, caller))) throw notFound('chat not found', 'chatId');
    // The newcomers' live devices get their cursors at the joining (chat-create.lua says why).
    const [entries, devices] = await Promise.all([this.indexAll(chatId, users), this.devices.live(users)]);
    let status: JoinReply;
    try {
      status = (await runScript(
        this.redis,
        'chat-join',
        this.keys(chatId, 'members', 'meta', 'joined', 'cursors', 'active'),
        [mode, caller, this.settings.maxChatMembers, chatChannel(chatId), chatId, devices, ...users],
      )) as JoinReply;
    } catch (error) {
      await this.takeBack(chatId, users, entries, error);
      throw error;
    }
    await this.reindex(chatId, users, status[4]);
    return toSummary(chatId, [status[0], status[1], status[2], status[3]])!;
  }

  /**
   * Holds a place in every user's index for a chat about to be created, or in none when one of
   * them is in too many chats; returns the holds' tokens ('' each when there is no limit).
   */
  private async holdAll(users: string[]): Promise<string[]> {
    const limit = this.settings.maxChatsPerUser;
    if (limit <= 0) return users.map(() => '');
    const tokens = users.map(() => randomUUID());
    const results = await Promise.allSettled(
      users.map((user, i) =>
        runScript(
          this.redis,
          'chat-index-hold',
          [userKeys.chats(user), userKeys.chatHolds(user)],
          [tokens[i], limit, HOLD_MS],
        ),
      ),
    );
    const failed = results.findIndex((result) => result.status === 'rejected');
    if (failed < 0) return tokens;
    await this.release(
      users,
      tokens.map((token, i) => (results[i].status === 'fulfilled' ? token : '')),
    );
    throw this.tooMany(users[failed], (results[failed] as PromiseRejectedResult).reason);
  }

  /** Gives back holds not turned into entries (best effort: a hold left behind lapses). */
  private async release(users: string[], holds: string[]): Promise<void> {
    await Promise.all(
      users.flatMap((user, i) => (holds[i] ? [this.redis.zrem(userKeys.chatHolds(user), holds[i])] : [])),
    ).catch(() => undefined);
  }

  /** Records the chat for every user, or for none when one of them is in too many chats. */
  private async indexAll(chatId: string, users: string[], holds?: string[]): Promise<IndexEntry[]> {
    const results = await Promise.allSettled(
      users.map((user, i) => this.index(user, chatId, this.settings.maxChatsPerUser, holds?.[i] ?? '')),
    );
    const failed = results.findIndex((result) => result.status === 'rejected');
    if (failed < 0) return results.map((result) => (result as PromiseFulfilledResult<IndexEntry>).value);
    const reason = (results[failed] as PromiseRejectedResult).reason as unknown;
    await this.takeBack(
      chatId,
      users,
      results.map((result) => (result.status === 'fulfilled' ? result.value : undefined)),
      reason,
    );
    throw this.tooMany(users[failed], reason);
  }

  /** The CONFLICT that names the user in too many chats; any other failure as it was. */
  private tooMany(user: string, reason: unknown): unknown {
    if (reason instanceof AppError && reason.code === 'CONFLICT')
      return conflict(
        `${user} already belongs to the most chats allowed (${this.settings.maxChatsPerUser})`,
        'members',
      );
    return reason;
  }

  /**
   * Takes back index entries written for a change that failed: each as it was before (removed, or
   * its earlier stamp put back), so a refused change leaves the index unchanged. A member's entry
   * is taken back only when the change was refused outright and the entry had an earlier stamp:
   * when the answer was lost, the change may have gone through after all. Only an entry still
   * holding the stamp written here is touched, so never one that a concurrent join rewrote.
   */
  private async takeBack(
    chatId: string,
    users: string[],
    entries: (IndexEntry | undefined)[],
    failure: unknown,
  ): Promise<void> {
    const refused = !isStoreUnavailable(failure);
    await Promise.all(
      entries.map(async (entry, i) => {
        if (!entry) return;
        const member = (await this.summary(chatId, users[i])) !== undefined;
        if (member && !(refused && entry.previous !== undefined)) return;
        await this.unindex(users[i], entry, true);
      }),
    ).catch(() => undefined); // best effort: a leftover entry is dropped by a later summaries()
  }

  /**
   * Writes the index again once membership changed, stamped with the chat's membership generation:
   * a concurrent reader that found an earlier entry stale removes nothing (its stamp is older),
   * and one that removed the provisional entry meanwhile is undone. GT keeps a late write of an
   * older generation from replacing a newer one.
   */
  private async reindex(chatId: string, users: string[], generation: number): Promise<void> {
    await Promise.all(users.map((user) => this.redis.zadd(userKeys.chats(user), 'GT', generation, chatId)));
  }

  private async index(user: string, chatId: string, limit: number, hold: string): Promise<IndexEntry> {
    const [stamp, previous] = (await runScript(
      this.redis,
      'chat-index-add',
      [userKeys.chats(user), userKeys.chatHolds(user)],
      [chatId, limit, hold],
    )) as [number, string | null];
    return { chatId, stamp: Number(stamp), ...(previous === null ? {} : { previous: Number(previous) }) };
  }

  /**
   * Drops a stale entry, unless it changed since it was read or is a join under way; `ownWrite`:
   * takes back an entry this process wrote for a failed change, its earlier stamp put back
   * (chat-index-remove).
   */
  private async unindex(user: string, entry: IndexEntry, ownWrite = false): Promise<void> {
    const args = ownWrite ? ['force', entry.previous ?? ''] : ['', ''];
    await runScript(this.redis, 'chat-index-remove', [userKeys.chats(user)], [entry.chatId, entry.stamp, ...args]);
  }

  private keys(chatId: string, ...names: ChatKeyName[]): string[] {
    return names.map((name) => chatKeys[name](chatId));
  }
}

type ChatKeyName = Exclude<keyof typeof chatKeys, 'ids'>;

/** Who fetches: a member, and one of their devices ('' for none) with what chat-device-check said. */
interface Reader {
  user: string;
  device: string;
  /** New to the user, or forgotten: a cursor it lacks starts at the member's seen-id. */
  fresh: boolean;
  /** Its cursors start again at the member's seen-id, left-over ones too. */
  forgotten: boolean;
}

/** An entry as chat-send.lua stores it; `edits`, `lastEdit` and `deletedBy` are the script's own. */
interface StoredEntry {
  id: number;
  sender: string;
  message: string;
  ts: number;
  kind?: 'edit' | 'delete';
  target?: number;
  editedAt?: number;
  deleted?: boolean;
  lastEdit?: number;
}

/** {seen-id or -1 for a non-member, latest id, member count, 1 when open} */
type StatusReply = [number, number, number, number];
/** chat-join's: the status and the chat's membership generation. */
type JoinReply = [...StatusReply, number];

function toSummary(chatId: string, [seen, latest, memberCount, open]: StatusReply): ChatSummary | undefined {
  if (seen < 0) return undefined;
  return { id: chatId, open: open === 1, memberCount, latestMessageId: latest, seenMessageId: seen };
}

function parseMessage(chatId: string, json: string): ChatMessage {
  const entry = JSON.parse(json) as StoredEntry;
  return {
    id: entry.id,
    chatId,
    sender: entry.sender,
    message: entry.message,
    ts: entry.ts,
    kind: entry.kind ?? 'message',
    target: entry.target ?? null,
    editedAt: entry.editedAt ?? null,
    deleted: entry.deleted === true,
    version: entry.kind === undefined ? (entry.lastEdit ?? entry.id) : entry.id,
  };
}

/**
 * Splits `limit` between chats with `pending[i]` messages each: every chat gets an equal share,
 * and what a chat does not need goes to the others (water-filling), so one busy chat cannot
 * starve the rest. When there is less than one message per chat, the chats from `start` onwards
 * (wrapping round) go first; callers pick `start` at random so that no chat always waits.
 */
export function shareFairly(pending: number[], limit: number, start = 0): number[] {
  const quotas = pending.map(() => 0);
  const n = pending.length;
  let left = limit;
  let open = pending.map((_, i) => (start + i) % n).filter((i) => pending[i] > 0);
  while (left > 0 && open.length > 0) {
    const share = Math.max(1, Math.floor(left / open.length));
    for (const i of open) {
      const give = Math.min(share, pending[i] - quotas[i], left);
      quotas[i] += give;
      left -= give;
      if (left === 0) break;
    }
    open = open.filter((i) => quotas[i] < pending[i]);
  }
  return quotas;
}
