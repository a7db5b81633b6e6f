// Who is in a chat: creating one with its first members, joining, adding, leaving and removing,
// owners, and the chats of one member. Membership lives on the chat's slot; each change also
// writes the members' chat indexes (user-index.ts), before and after.
import { notFound } from '../../common/errors';
import type { RedisClient } from '../client/connection';
import { runScript } from '../client/scripts';
import { chatChannel, chatKeys, userKeys } from '../keys';
import { compareBytes } from '../order';
import type { ChatDevices } from './devices';
import { parseMessage } from './log';
import { keysOf } from './script-keys';
import { summaryOf, toSummary, type JoinReply } from './summary';
import type { ChatMessage, ChatSettings, ChatSummary, Retention } from './types';
import type { ChatIndex, IndexEntry } from './user-index';

/** Steps of 1, 2, 4, ... 2^12 skip over up to 8,191 ids lost with a failed-over shard. */
const MAX_CHAT_ID_STEPS = 12;

const isChatIdTaken = (error: unknown): boolean => error instanceof Error && error.message.startsWith('E_CHAT_EXISTS');

export class ChatMembership {
  constructor(
    private readonly redis: RedisClient,
    private readonly settings: ChatSettings,
    private readonly devices: ChatDevices,
    private readonly index: ChatIndex,
  ) {}

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
      const holds = await this.index.holdAll(members);
      let chatId: string;
      let entries: IndexEntry[];
      try {
        chatId = String(await this.redis.incrby(chatKeys.ids(), 2 ** attempt));
        entries = await this.index.indexAll(chatId, members, holds);
      } catch (error) {
        await this.index.release(members, holds);
        throw error;
      }
      let json: string;
      try {
        json = (await runScript(
          this.redis,
          'chat-create',
          keysOf(chatId, 'members', 'messages', 'meta', 'roles', 'cursors', 'active'),
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
        await this.index.takeBack(chatId, members, entries, error);
        if (isChatIdTaken(error) && attempt < MAX_CHAT_ID_STEPS) continue;
        throw error;
      }
      await this.index.reindex(chatId, members, 1);
      return {
        chat: { id: chatId, open, memberCount: members.length, latestMessageId: 1, seenMessageId: 0 },
        message: parseMessage(chatId, json),
      };
    }
  }

  /** An owner (or the service) makes a member an owner or takes it back; false when it already was so. */
  async setOwner(chatId: string, caller: string, anyChat: boolean, member: string, owner: boolean): Promise<boolean> {
    return (
      (await runScript(this.redis, 'chat-manage', keysOf(chatId, 'members', 'messages', 'meta', 'roles'), [
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
      keysOf(
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
    if (stamp !== null) await this.index.unindex(user, { chatId, stamp: Number(stamp) });
    return left === 1;
  }

  /** The user's chats, by id; entries of chats the user has left are dropped from the index. */
  async summaries(user: string): Promise<ChatSummary[]> {
    const entries = await this.index.read(user);
    const found = await Promise.all(
      entries.map(async (entry) => {
        const summary = await this.summary(entry.chatId, user);
        if (!summary) await this.index.unindex(user, entry);
        return summary;
      }),
    );
    return found.filter((chat): chat is ChatSummary => chat !== undefined).sort((a, b) => Number(a.id) - Number(b.id));
  }

  /** The chat as `user` sees it, or undefined when it does not exist or they are not a member. */
  async summary(chatId: string, user: string): Promise<ChatSummary | undefined> {
    return summaryOf(this.redis, chatId, user);
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
    const [entries, devices] = await Promise.all([this.index.indexAll(chatId, users), this.devices.live(users)]);
    let status: JoinReply;
    try {
      status = (await runScript(
        this.redis,
        'chat-join',
        keysOf(chatId, 'members', 'meta', 'joined', 'cursors', 'active'),
        [mode, caller, this.settings.maxChatMembers, chatChannel(chatId), chatId, devices, ...users],
      )) as JoinReply;
    } catch (error) {
      await this.index.takeBack(chatId, users, entries, error);
      throw error;
    }
    await this.index.reindex(chatId, users, status[4]);
    return toSummary(chatId, [status[0], status[1], status[2], status[3]])!;
  }
}
