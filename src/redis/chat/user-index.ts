// A user's chat index, on the user's slot, only says which chats to look at: it is written before a
// user becomes a member and again after, and an entry is removed only if its stamp is unchanged, so
// a member is never missing from it even on Redis Cluster, where the index and the chat (on the
// chat's slot) cannot change together.
import { randomUUID } from 'node:crypto';
import { AppError, conflict } from '../../common/errors';
import type { RedisClient } from '../client/connection';
import { runScript } from '../client/scripts';
import { isStoreUnavailable } from '../client/store-errors';
import { userKeys } from '../keys';
import { summaryOf } from './summary';

export interface IndexEntry {
  chatId: string;
  stamp: number;
  /** Written by this process before a change: the stamp the entry had before, if it had one. */
  previous?: number;
}

/** How long a place held for a chat being created lasts, if its process dies before using it. */
const HOLD_MS = 60_000;

export class ChatIndex {
  /** `maxChatsPerUser`: 0 or less for no limit. */
  constructor(
    private readonly redis: RedisClient,
    private readonly maxChatsPerUser: number,
  ) {}

  /** The user's entries, by stamp. */
  async read(user: string): Promise<IndexEntry[]> {
    const flat = await this.redis.zrange(userKeys.chats(user), 0, -1, 'WITHSCORES');
    const entries: IndexEntry[] = [];
    for (let i = 0; i < flat.length; i += 2) entries.push({ chatId: flat[i], stamp: Number(flat[i + 1]) });
    return entries;
  }

  /**
   * Holds a place in every user's index for a chat about to be created, or in none when one of
   * them is in too many chats; returns the holds' tokens ('' each when there is no limit).
   */
  async holdAll(users: string[]): Promise<string[]> {
    const limit = this.maxChatsPerUser;
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
  async release(users: string[], holds: string[]): Promise<void> {
    await Promise.all(
      users.flatMap((user, i) => (holds[i] ? [this.redis.zrem(userKeys.chatHolds(user), holds[i])] : [])),
    ).catch(() => undefined);
  }

  /** Records the chat for every user, or for none when one of them is in too many chats. */
  async indexAll(chatId: string, users: string[], holds?: string[]): Promise<IndexEntry[]> {
    const results = await Promise.allSettled(
      users.map((user, i) => this.index(user, chatId, this.maxChatsPerUser, holds?.[i] ?? '')),
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
      return conflict(`${user} already belongs to the most chats allowed (${this.maxChatsPerUser})`, 'members');
    return reason;
  }

  /**
   * Takes back index entries written for a change that failed: each as it was before (removed, or
   * its earlier stamp put back), so a refused change leaves the index unchanged. A member's entry
   * is taken back only when the change was refused outright and the entry had an earlier stamp:
   * when the answer was lost, the change may have gone through after all. Only an entry still
   * holding the stamp written here is touched, so never one that a concurrent join rewrote.
   */
  async takeBack(
    chatId: string,
    users: string[],
    entries: (IndexEntry | undefined)[],
    failure: unknown,
  ): Promise<void> {
    const refused = !isStoreUnavailable(failure);
    await Promise.all(
      entries.map(async (entry, i) => {
        if (!entry) return;
        const member = (await summaryOf(this.redis, chatId, users[i])) !== undefined;
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
  async reindex(chatId: string, users: string[], generation: number): Promise<void> {
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
  async unindex(user: string, entry: IndexEntry, ownWrite = false): Promise<void> {
    const args = ownWrite ? ['force', entry.previous ?? ''] : ['', ''];
    await runScript(this.redis, 'chat-index-remove', [userKeys.chats(user)], [entry.chatId, entry.stamp, ...args]);
  }
}
