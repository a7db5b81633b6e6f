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

/** A guild the user is in, with its size. */
interface GuildSummary {
  name: string;
  memberCount: number;
}

export interface GuildsPage {
  guilds: GuildSummary[];
  hasMore: boolean;
}

export interface GuildMembersPage {
  /** Names as their owners wrote them, in order of folded name. */
  members: string[];
  hasMore: boolean;
  memberCount: number;
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
      [userKeys.guilds(user), userKeys.guildTickets(user), userKeys.guildNames(user)],
      [guild, this.limits.maxGuildsPerUser],
    )) as [number, number];
    return { wasCounted: counted === 1, ticket: String(ticket) };
  }

  private async release(guild: string, user: string, ticket: string): Promise<void> {
    await runScript(this.redis, 'guild-release', [userKeys.guilds(user), userKeys.guildNames(user)], [guild, ticket]);
  }

  /**
   * Up to `limit` members whose name starts with `prefix` ignoring case, in order of folded name.
   * With `asMember` set, fails with FORBIDDEN unless that user belongs to the guild.
   */
  async search(guild: string, prefix: string, limit: number, asMember?: string): Promise<string[]> {
    return (await this.searchEntries(guild, prefix, limit, undefined, asMember)).members;
  }

  /**
   * One page of `search`: up to `first` members after the member named `after` (the last name
   * of the previous page), whether more follow, and the guild's member count.
   */
  async members(
    guild: string,
    prefix: string,
    first: number,
    after: string | undefined,
    asMember?: string,
  ): Promise<GuildMembersPage> {
    const { members, memberCount } = await this.searchEntries(guild, prefix, first + 1, after, asMember);
    return { members: members.slice(0, first), hasMore: members.length > first, memberCount };
  }

  private async searchEntries(
    guild: string,
    prefix: string,
    limit: number,
    after: string | undefined,
    asMember: string | undefined,
  ): Promise<{ members: string[]; memberCount: number }> {
    const folded = foldCase(prefix);
    // An `after` that sorts before the prefix changes nothing: the page starts at the prefix.
    const start = after === undefined ? '' : guildEntry(after);
    const from = start !== '' && Buffer.compare(Buffer.from(start), Buffer.from(folded)) >= 0 ? start : '';
    const [count, ...entries] = (await runScript(
      this.redis,
      'guild-search',
      [guildKeys.members(guild)],
      [asMember === undefined ? '' : guildEntry(asMember), folded, limit, from],
    )) as [number, ...string[]];
    return { members: entries.map(nameOfEntry), memberCount: Number(count) };
  }

  /**
   * Up to `first` guilds the user is in, in byte order of their names, after `after`, each with
   * its member count. The user's own list (on their slot) may name a guild they are not in, after
   * a join or leave cut short; each is checked against the guild, and only those the user is in
   * are shown.
   */
  async guildsOf(user: string, first: number, after: string | undefined): Promise<GuildsPage> {
    const entry = guildEntry(user);
    const guilds: GuildSummary[] = [];
    let cursor = after ?? '';
    // Usually one round: another only when a listed guild did not have the user.
    for (;;) {
      const wanted = first + 1 - guilds.length;
      const names = await this.listed(user, cursor, wanted);
      const checked = await Promise.all(
        names.map(async (name) => {
          const [member, count] = (await runScript(this.redis, 'guild-info', [guildKeys.members(name)], [entry])) as [
            number,
            number,
          ];
          return { name, member: Number(member) === 1, memberCount: Number(count) };
        }),
      );
      for (const guild of checked) if (guild.member) guilds.push({ name: guild.name, memberCount: guild.memberCount });
      if (names.length < wanted || guilds.length > first) break;
      cursor = names[names.length - 1];
    }
    return { guilds: guilds.slice(0, first), hasMore: guilds.length > first };
  }

  private async listed(user: string, after: string, count: number): Promise<string[]> {
    const keys = [userKeys.guilds(user), userKeys.guildNames(user)];
    // Built at most once per user; a second attempt covers a join or leave between the two calls.
    for (let attempt = 0; ; attempt++) {
      const [indexed, ...names] = (await runScript(this.redis, 'guild-mine', keys, [after, count])) as [
        number,
        ...string[],
      ];
      if (Number(indexed) === 1) return names;
      if (attempt === 2) throw new Error(`the guild list of ${user} does not match its index`);
      await runScript(this.redis, 'guild-reindex', keys, []);
    }
  }
}
