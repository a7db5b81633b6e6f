// Prefix search over guild members (book section 6.1.2), for sets of millions. Members live in
// one zset per guild, all with score 0, so Redis orders them by bytes; each entry starts with the
// member's case-folded name, so one ZRANGEBYLEX finds every name that starts with a prefix in
// any case and any script, and the entry ends with the name as written, so that is what is shown.
import type { RedisClient } from './client/connection';
import { foldCase } from '../common/case-fold';
import { guildKeys, userKeys } from './keys';
import { runScript } from './client/scripts';

/** Sorts below every byte of a name, so entries order by folded name first. Names never hold it. */
const SEPARATOR = '\0';

/**
 * A member's entry: the folded name, then the name as written when that differs. Most names
 * (lower case, or scripts without case) are stored once, costing no more than the book's layout.
 */
export function guildEntry(name: string): string {
  const folded = foldCase(name);
  return folded === name ? name : `${folded}${SEPARATOR}${name}`;
}

function nameOfEntry(entry: string): string {
  const at = entry.indexOf(SEPARATOR);
  return at < 0 ? entry : entry.slice(at + 1);
}

export interface GuildLimits {
  maxGuildMembers: number;
  maxGuildsPerUser: number;
}

export class GuildRepository {
  constructor(
    private readonly redis: RedisClient,
    private readonly limits: GuildLimits,
  ) {}

  /**
   * Adds the user to the guild; false when already a member. The guild is counted against the
   * user's limit first (on the user's slot), so neither limit can be passed, and counted again
   * after the add, in case a leave running alongside dropped the first count: a member is always
   * counted. A refused join takes back what it did.
   */
  async join(guild: string, user: string): Promise<boolean> {
    const first = await this.reserve(guild, user);
    let added: boolean;
    try {
      const joined = await runScript(
        this.redis,
        'guild-join',
        [guildKeys.members(guild)],
        [guildEntry(user), this.limits.maxGuildMembers],
      );
      added = Number(joined) === 1;
    } catch (error) {
      if (!first.wasCounted) await this.release(guild, user, first.ticket).catch(() => undefined);
      throw error;
    }
    try {
      await this.reserve(guild, user);
    } catch (error) {
      // Over the limit now (a leave dropped our count and other joins took the room): undo.
      await this.redis.zrem(guildKeys.members(guild), guildEntry(user)).catch(() => undefined);
      throw error;
    }
    return added;
  }

  /** Removes the user from the guild; false when not a member. */
  async leave(guild: string, user: string): Promise<boolean> {
    const ticket = await this.redis.zscore(userKeys.guilds(user), guild);
    const removed = await this.redis.zrem(guildKeys.members(guild), guildEntry(user));
    // Drops only the count seen before the removal; a join that counted again since keeps its own.
    if (ticket !== null) await this.release(guild, user, ticket);
    return removed === 1;
  }

  private async reserve(guild: string, user: string): Promise<{ wasCounted: boolean; ticket: string }> {
    const [counted, ticket] = (await runScript(
      this.redis,
      'guild-reserve',
      [userKeys.guilds(user), userKeys.guildTickets(user)],
      [guild, this.limits.maxGuildsPerUser],
    )) as [number, number];
    return { wasCounted: counted === 1, ticket: String(ticket) };
  }

  private async release(guild: string, user: string, ticket: string): Promise<void> {
    await runScript(this.redis, 'guild-release', [userKeys.guilds(user)], [guild, ticket]);
  }

  /**
   * Up to `limit` members whose name starts with `prefix` ignoring case, in order of folded name.
   * With `asMember` set, fails with FORBIDDEN unless that user belongs to the guild.
   */
  async search(guild: string, prefix: string, limit: number, asMember?: string): Promise<string[]> {
    const entries = (await runScript(
      this.redis,
      'guild-search',
      [guildKeys.members(guild)],
      [asMember === undefined ? '' : guildEntry(asMember), foldCase(prefix), limit],
    )) as string[];
    return entries.map(nameOfEntry);
  }
}
