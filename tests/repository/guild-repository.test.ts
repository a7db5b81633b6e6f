// Guild prefix search against a real redis-server: a 100,000-member guild searched while other
// callers join and leave, results checked against an independent filter-and-sort of the same
// names, the query writing nothing, and both membership limits.
import Redis, { type Cluster } from 'ioredis';
import { AppError } from '../../src/common/errors';
import { foldCase } from '../../src/common/case-fold';
import { GuildRepository, guildEntry } from '../../src/redis/guild';
import { guildKeys, userKeys } from '../../src/redis/keys';
import { runScript } from '../../src/redis/client/scripts';
import { scriptClient, startTestRedis, type TestRedis } from '../support/redis';

let redis: TestRedis;
const LIMITS = { maxGuildMembers: 1_000_000, maxGuildsPerUser: 100 };

const connection = (): Redis => scriptClient(redis);

beforeAll(async () => {
  redis = await startTestRedis();
});

afterAll(async () => {
  await redis.stop();
});

/** Deterministic names in several scripts and cases, with accents and emoji. */
function makeNames(count: number, seed: number): string[] {
  let state = seed;
  const next = (n: number) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state % n;
  };
  const starts = [
    'al',
    'Al',
    'AL',
    'be',
    'Bé',
    'ca',
    'Ça',
    'da',
    'é',
    'É',
    'zo',
    'Zö',
    '王',
    '李',
    '🙂',
    'ß',
    'ss',
    'Ω',
    'ω',
    'x-',
    'x.',
  ];
  const letters = 'abcdefghijklmnopqrstuvwxyzéüßABCDEFGHIJ王李小明'.split('');
  const names = new Set<string>();
  while (names.size < count) {
    let name = starts[next(starts.length)];
    for (let i = 0, length = 2 + next(8); i < length; i++) name += letters[next(letters.length)];
    names.add(name.normalize('NFC'));
  }
  return [...names];
}

const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** What prefix searches must return, worked out without Redis: sort by entry bytes, then filter. */
function reference(names: string[]): (prefix: string) => string[] {
  const sorted = names
    .map((name) => ({ name, folded: foldCase(name), entry: guildEntry(name) }))
    .sort((a, b) => byBytes(a.entry, b.entry));
  return (prefix) => {
    const folded = foldCase(prefix);
    return sorted.filter((member) => member.folded.startsWith(folded)).map(({ name }) => name);
  };
}

/** Writes since the last save, over every primary on a cluster. */
async function rdbChanges(): Promise<number> {
  const nodes = redis.cluster ? (redis.client as unknown as Cluster).nodes('master') : [redis.client];
  let changes = 0;
  for (const node of nodes)
    changes += Number(/rdb_changes_since_last_save:(\d+)/.exec(await node.info('persistence'))![1]);
  return changes;
}

describe('guild prefix search in Redis', () => {
  beforeEach(async () => {
    await redis.client.flushdb();
  });

  it('answers correctly on 100,000 members while others join and leave, and the queries write nothing', async () => {
    const guild = 'big';
    const stable = makeNames(100_000, 7);
    const stableSet = new Set(stable);
    for (let i = 0; i < stable.length; i += 5000) {
      const chunk = stable.slice(i, i + 5000).flatMap((name) => [0, guildEntry(name)]);
      await redis.client.zadd(guildKeys.members(guild), ...chunk);
    }
    expect(await redis.client.zcard(guildKeys.members(guild))).toBe(100_000);
    const churners = makeNames(400, 99).filter((name) => !stableSet.has(name));
    const churnerSet = new Set(churners);

    const expected = reference(stable);
    const searcher = new GuildRepository(connection(), LIMITS);
    const prefixes = [
      'al',
      'AL',
      'alb',
      'Bé',
      'É',
      'é',
      '王',
      '李小',
      '🙂',
      'SS',
      'ß',
      'ω',
      'x-',
      'x.',
      'zö',
      '',
      'q',
      '[',
      '(',
      '-',
      '+',
      '{',
    ];

    let churning = true;
    const churn = (async () => {
      const repository = new GuildRepository(connection(), LIMITS);
      let round = 0;
      while (churning) {
        const batch = churners.slice((round * 50) % churners.length, ((round * 50) % churners.length) + 50);
        await Promise.all(batch.map((name) => repository.join(guild, name)));
        await Promise.all(batch.filter((_, i) => i % 2 === 0).map((name) => repository.leave(guild, name)));
        round++;
      }
      return round;
    })();

    let checked = 0;
    for (let round = 0; round < 10; round++) {
      for (const prefix of prefixes) {
        const limit = 50;
        const found = await searcher.search(guild, prefix, limit);
        const want = expected(prefix);
        const fromStable = found.filter((name) => !churnerSet.has(name));
        expect(found.length).toBeLessThanOrEqual(limit);
        expect(found.length).toBeGreaterThanOrEqual(Math.min(limit, want.length));
        expect(new Set(found).size).toBe(found.length);
        expect([...found].sort((a, b) => byBytes(guildEntry(a), guildEntry(b)))).toEqual(found);
        for (const name of found) expect(foldCase(name).startsWith(foldCase(prefix))).toBe(true);
        // Members that stayed put are never skipped: they are the first of the expected answer.
        expect(fromStable).toEqual(want.slice(0, fromStable.length));
        if (found.length < limit) expect(fromStable).toEqual(want);
        checked++;
      }
    }
    churning = false;
    const rounds = await churn;
    expect(rounds).toBeGreaterThan(0);
    expect(checked).toBe(10 * prefixes.length);

    // Nothing but members joined or left: every entry is a stable member or a churner.
    const entries = await redis.client.zrange(guildKeys.members(guild), 0, -1);
    const allowed = new Set([...stable, ...churners].map(guildEntry));
    expect(entries.every((entry) => allowed.has(entry))).toBe(true);
    const stableEntries = new Set(stable.map(guildEntry));
    expect(entries.filter((entry) => stableEntries.has(entry))).toHaveLength(100_000);

    // With the churn stopped, a thousand queries change nothing at all.
    const keys = await redis.client.dbsize();
    const changes = await rdbChanges();
    for (let i = 0; i < 1000; i++) await searcher.search(guild, prefixes[i % prefixes.length], 50);
    expect(await rdbChanges()).toBe(changes);
    expect(await redis.client.dbsize()).toBe(keys);
    expect(await redis.client.zrange(guildKeys.members(guild), 0, -1)).toEqual(entries);
  }, 120_000);

  it('refuses a search by a non-member with FORBIDDEN, and serves a member or a service search', async () => {
    const repository = new GuildRepository(connection(), LIMITS);
    await repository.join('g', 'Mia');
    await repository.join('g', 'max');
    await expect(repository.search('g', 'm', 10, 'outsider')).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(repository.search('g', 'm', 10, 'mia')).rejects.toMatchObject({ code: 'FORBIDDEN' }); // names are case-sensitive
    expect(await repository.search('g', 'm', 10, 'Mia')).toEqual(['max', 'Mia']);
    expect(await repository.search('g', 'M', 10)).toEqual(['max', 'Mia']);
  });

  it('refuses a join to a full guild with CONFLICT and gives back the user’s reservation', async () => {
    const repository = new GuildRepository(connection(), { maxGuildMembers: 2, maxGuildsPerUser: 5 });
    expect(await repository.join('small', 'a')).toBe(true);
    expect(await repository.join('small', 'b')).toBe(true);
    expect(await repository.join('small', 'a')).toBe(false); // already in: never "full"
    const refused = await repository.join('small', 'c').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'CONFLICT' });
    expect(await redis.client.exists(userKeys.guilds('c'))).toBe(0);
    expect(await repository.search('small', '', 10)).toEqual(['a', 'b']);
  });

  it('caps the guilds of one user', async () => {
    const repository = new GuildRepository(connection(), { maxGuildMembers: 10, maxGuildsPerUser: 2 });
    await repository.join('one', 'u');
    await repository.join('two', 'u');
    await expect(repository.join('three', 'u')).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await redis.client.exists(guildKeys.members('three'))).toBe(0);
    expect(await repository.leave('one', 'u')).toBe(true);
    expect(await repository.join('three', 'u')).toBe(true);
    expect((await redis.client.zrange(userKeys.guilds('u'), 0, -1)).sort()).toEqual(['three', 'two']);
  });

  it('counts every guild a user is in against their limit, even when joins and leaves race', async () => {
    const limits = { maxGuildMembers: 10, maxGuildsPerUser: 3 };
    const joiner = new GuildRepository(connection(), limits);
    const leaver = new GuildRepository(connection(), limits);
    const guilds = Array.from({ length: 40 }, (_, i) => `race-${i}`);
    const ticks = async (count: number) => {
      for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
    };
    const unexpected: unknown[] = [];
    for (let round = 0; round < 40; round++) {
      await Promise.all(
        guilds.map(async (guild, i) => {
          const join = joiner.join(guild, 'u').catch((error: unknown) => {
            if ((error as AppError).code !== 'CONFLICT') unexpected.push(error);
          });
          // Each leave starts at another point of the join's three steps.
          await ticks((i + round) % 12);
          await Promise.all([join, leaver.leave(guild, 'u')]);
        }),
      );
      const memberOf: string[] = [];
      for (const guild of guilds)
        if ((await redis.client.zscore(guildKeys.members(guild), 'u')) !== null) memberOf.push(guild);
      const counted = await redis.client.zrange(userKeys.guilds('u'), 0, -1);
      expect(memberOf.length).toBeLessThanOrEqual(3);
      expect(counted.length).toBeLessThanOrEqual(3);
      for (const guild of memberOf) expect(counted).toContain(guild);
      expect(await redis.client.zrange(userKeys.guildNames('u'), 0, -1)).toEqual([...counted].sort());
      // myGuilds shows exactly the guilds the user is in, whatever the list says.
      const listed = await joiner.guildsOf('u', 10, undefined);
      expect(listed.guilds.map((guild) => guild.name)).toEqual(
        [...memberOf].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))),
      );
      expect(listed.guilds.every((guild) => guild.memberCount === 1)).toBe(true);
      // Start the next round from a user in no guild, counted nowhere.
      for (const guild of counted) await leaver.leave(guild, 'u');
    }
    expect(unexpected).toEqual([]);
  });

  it("keeps a join counted whichever way its steps and a leave's interleave (the scripts, step by step)", async () => {
    const client = connection();
    const index = userKeys.guilds('u');
    const names = userKeys.guildNames('u');
    const reserveKeys = [index, userKeys.guildTickets('u'), names];
    const reserve = async () =>
      ((await runScript(client, 'guild-reserve', reserveKeys, ['g', 3])) as [number, number])[1];
    const release = async (ticket: number) =>
      Number(await runScript(client, 'guild-release', [index, names], ['g', ticket]));
    const add = async () => runScript(client, 'guild-join', [guildKeys.members('g')], ['u', 10]);

    // join counts, leave reads that count and removes nothing, join adds and counts again, leave
    // drops the count it read: the renewed count survives.
    const first = await reserve();
    const seenByLeave = Number(await client.zscore(index, 'g'));
    expect(seenByLeave).toBe(first);
    await add();
    const renewed = await reserve();
    expect(renewed).toBeGreaterThan(first);
    expect(await release(seenByLeave)).toBe(0);
    expect(await client.zscore(index, 'g')).toBe(String(renewed));

    // The leave drops the count before the join renews it: the renewal counts the guild again.
    await client.del(index);
    await client.del(names);
    await client.del(guildKeys.members('g'));
    const again = await reserve();
    await add();
    expect(await release(again)).toBe(1);
    expect(await client.zscore(index, 'g')).toBeNull();
    expect(await client.zscore(names, 'g')).toBeNull();
    await reserve();
    expect(await client.zcard(index)).toBe(1);

    // A full user is refused a new guild, and a renewal of a counted one never counts as new.
    for (const other of ['h', 'i']) await runScript(client, 'guild-reserve', reserveKeys, [other, 3]);
    await expect(runScript(client, 'guild-reserve', reserveKeys, ['j', 3])).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    await expect(reserve()).resolves.toEqual(expect.any(Number));
    expect(await client.zcard(index)).toBe(3);
    // The name index follows the counted guilds, in byte order.
    expect(await client.zrange(names, 0, -1)).toEqual(['g', 'h', 'i']);
  });

  it('stores a name once when folding leaves it unchanged, and both forms otherwise', () => {
    expect(guildEntry('王小明')).toBe('王小明');
    expect(guildEntry('zoë')).toBe('zoë');
    expect(guildEntry('Zoë')).toBe('zoë\0Zoë');
    expect(guildEntry('Straße')).toBe('strasse\0Straße');
  });
});
