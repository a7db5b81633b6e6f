// Recent contacts and guild prefix search through the real server: order, caps, case-insensitive
// Unicode matching, literal prefixes, who may search, and bad input that writes nothing.
import {
  AddRecentContactDocument,
  GuildMemberPageDocument,
  GuildMembersDocument,
  JoinGuildDocument,
  LeaveGuildDocument,
  MyGuildsDocument,
  RecentContactsDocument,
  RemoveRecentContactDocument,
} from '../../src/generated/client/graphql';
import { serverForThisFile } from '../support/fixture';
import { codes, post, wsOperation } from '../support/graphql';
import type { TestServer } from '../support/server';

const fixture = serverForThisFile({ GUILD_MAX_PER_USER: '3' });
let api: TestServer;

beforeAll(() => {
  api = fixture.api;
});

const add = (contact: string, token = api.tokens.user) => post(api.url, AddRecentContactDocument, { contact }, token);
const contacts = async (prefix?: string, limit?: number, token = api.tokens.user): Promise<string[]> => {
  const result = await post(api.url, RecentContactsDocument, { prefix, limit }, token);
  expect(result.errors).toBeUndefined();
  return result.data!.recentContacts;
};
const search = (guild: string, prefix: string, limit?: number, token = api.tokens.user) =>
  post(api.url, GuildMembersDocument, { guild, prefix, limit }, token);
const members = async (guild: string, prefix: string, limit?: number): Promise<string[]> => {
  const result = await search(guild, prefix, limit, api.tokens.service);
  expect(result.errors).toBeUndefined();
  return result.data!.guildMembers;
};
const memberPage = (guild: string, prefix: string, first?: number, after?: string, token = api.tokens.service) =>
  post(api.url, GuildMemberPageDocument, { guild, prefix, first, after }, token);
const pageOf = async (guild: string, prefix: string, first?: number, after?: string, token = api.tokens.service) => {
  const result = await memberPage(guild, prefix, first, after, token);
  expect(result.errors).toBeUndefined();
  return result.data!.guildMemberPage;
};
const myGuilds = (first?: number, after?: string, token = api.tokens.user, user?: string) =>
  post(api.url, MyGuildsDocument, { first, after, user }, token);
const guildsPage = async (first?: number, after?: string, token = api.tokens.user, user?: string) => {
  const result = await myGuilds(first, after, token, user);
  expect(result.errors).toBeUndefined();
  return result.data!.myGuilds;
};
const joinFor = (guild: string, user: string) => post(api.url, JoinGuildDocument, { guild, user }, api.tokens.service);
const keyCount = () => api.redis.client.dbsize();

describe('recent contacts', () => {
  it('keeps exactly the 100 most recent of 150 additions, newest first, without duplicates', async () => {
    const names = Array.from({ length: 150 }, (_, i) => `c${String(i).padStart(3, '0')}`);
    for (const name of names) expect((await add(name)).data).toEqual({ addRecentContact: true });
    expect(await contacts('', 100)).toEqual(names.slice(50).reverse());

    await add('c060');
    const moved = await contacts('', 100);
    expect(moved.slice(0, 3)).toEqual(['c060', 'c149', 'c148']);
    expect(moved).toHaveLength(100);
    expect(new Set(moved).size).toBe(100);
    expect(moved.filter((name) => name === 'c060')).toHaveLength(1);

    await add('c150');
    const after = await contacts('', 100);
    expect(after.slice(0, 2)).toEqual(['c150', 'c060']);
    expect(after).toHaveLength(100);
    expect(after).not.toContain('c050');
    expect(after[99]).toBe('c051');
  });

  it('stays free of duplicates under concurrent additions', async () => {
    const names = ['ann', 'ben', 'cy', 'dee', 'eve'];
    await Promise.all(Array.from({ length: 60 }, (_, i) => add(names[i % names.length])));
    const list = await contacts('', 100);
    expect([...list].sort()).toEqual(names);
  });

  it('matches prefixes case-insensitively in any script, newest first, and takes every prefix literally', async () => {
    const written = [
      'Zoë',
      'zoey',
      'ÉLOÏSE',
      'eloise',
      '王小明',
      '王芳',
      '🙂fan',
      'Straße',
      'x-ray',
      'x.ray',
      'Ÿvonne',
      'ΟΔΟΣ',
    ];
    for (const name of written) await add(name);
    expect(await contacts('ZO')).toEqual(['zoey', 'Zoë']);
    expect(await contacts('zoë')).toEqual(['Zoë']);
    expect(await contacts('zoe')).toEqual(['zoey']);
    expect(await contacts('éloï')).toEqual(['ÉLOÏSE']);
    expect(await contacts('E')).toEqual(['eloise']);
    expect(await contacts('王')).toEqual(['王芳', '王小明']);
    expect(await contacts('🙂')).toEqual(['🙂fan']);
    expect(await contacts('STRASSE')).toEqual(['Straße']);
    expect(await contacts('straß')).toEqual(['Straße']);
    expect(await contacts('οδοσ')).toEqual(['ΟΔΟΣ']);
    expect(await contacts('x-')).toEqual(['x-ray']);
    expect(await contacts('x.')).toEqual(['x.ray']);
    expect(await contacts('\xff')).toEqual(['Ÿvonne']); // the character ÿ, which folds like Ÿ
    for (const syntax of ['[', '(', '-', '+', '{', '*', '?', '[x', '(x', 'x\\'])
      expect(await contacts(syntax)).toEqual([]);
    expect(await contacts('nobody')).toEqual([]);
    expect(await contacts('')).toEqual([...written].reverse().slice(0, 10));
    expect(await contacts(undefined, 3)).toEqual(['ΟΔΟΣ', 'Ÿvonne', 'x.ray']);
  });

  it('removes a contact, and keeps each user to their own list', async () => {
    await add('carol');
    await add('dave');
    await add('erin', api.tokens.other);
    expect((await post(api.url, RemoveRecentContactDocument, { contact: 'carol' }, api.tokens.user)).data).toEqual({
      removeRecentContact: true,
    });
    expect((await post(api.url, RemoveRecentContactDocument, { contact: 'carol' }, api.tokens.user)).data).toEqual({
      removeRecentContact: false,
    });
    expect(await contacts()).toEqual(['dave']);
    expect(await contacts('', 10, api.tokens.other)).toEqual(['erin']);
    await post(api.url, RemoveRecentContactDocument, { contact: 'dave' }, api.tokens.user);
    expect(await api.redis.client.exists('user:{u:alice}:contacts')).toBe(0);
  });

  it('refuses bad contacts, prefixes and limits with BAD_USER_INPUT, writing nothing', async () => {
    await add('kept');
    const before = await api.redis.client.get('user:{u:alice}:contacts');
    for (const contact of [
      '',
      'x'.repeat(129),
      'a\u0000b',
      'a\nb',
      'two words',
      'a:b',
      'a{b}',
      'a\u202Eb',
      'a\u200Db',
    ]) {
      expect(codes(await add(contact))).toEqual(['BAD_USER_INPUT']);
      expect(codes(await post(api.url, RemoveRecentContactDocument, { contact }, api.tokens.user))).toEqual([
        'BAD_USER_INPUT',
      ]);
    }
    expect(codes(await add('alice'))).toEqual(['BAD_USER_INPUT']); // oneself
    for (const [prefix, limit] of [
      ['a\u0000', 10],
      ['a\u0007', 10],
      ['\u202E', 10],
      ['x'.repeat(129), 10],
      ['', 0],
      ['', 101],
      ['', -1],
    ] as const) {
      expect(codes(await post(api.url, RecentContactsDocument, { prefix, limit }, api.tokens.user))).toEqual([
        'BAD_USER_INPUT',
      ]);
    }
    expect(await api.redis.client.get('user:{u:alice}:contacts')).toBe(before);
    expect(await keyCount()).toBe(1);
  });

  it('needs a signed-in caller', async () => {
    expect(codes(await add('carol', ''))).toEqual(['UNAUTHENTICATED']);
    expect(codes(await post(api.url, RecentContactsDocument, {}))).toEqual(['UNAUTHENTICATED']);
    expect(await keyCount()).toBe(0);
  });
});

describe('guild prefix search', () => {
  const roster = [
    'Alice',
    'alice',
    'alicia',
    'ALINA',
    'Zoë',
    'zoey',
    '王小明',
    '王芳',
    'Éloïse',
    'eloise',
    '🙂fan',
    'Straße',
    'x-ray',
    'x.ray',
    'Ÿvonne',
  ];

  beforeEach(async () => {
    for (const user of roster) expect((await joinFor('raiders', user)).data).toEqual({ joinGuild: true });
  });

  it('finds members by prefix in name order, ignoring case, as they wrote their names', async () => {
    expect(await members('raiders', 'ali')).toEqual(['alice', 'Alice', 'alicia', 'ALINA']);
    expect(await members('raiders', 'ALIC')).toEqual(['alice', 'Alice', 'alicia']);
    expect(await members('raiders', '王')).toEqual(['王小明', '王芳']);
    expect(await members('raiders', 'éL')).toEqual(['Éloïse']);
    expect(await members('raiders', 'e')).toEqual(['eloise']);
    expect(await members('raiders', 'ZOË')).toEqual(['Zoë']);
    expect(await members('raiders', 'zo')).toEqual(['zoey', 'Zoë']);
    expect(await members('raiders', '🙂f')).toEqual(['🙂fan']);
    expect(await members('raiders', 'strasse')).toEqual(['Straße']);
    expect(await members('raiders', 'x-')).toEqual(['x-ray']);
    expect(await members('raiders', 'x.')).toEqual(['x.ray']);
    expect(await members('raiders', 'alicia')).toEqual(['alicia']);
    expect(await members('raiders', 'aliciax')).toEqual([]);
    expect(await members('raiders', 'q')).toEqual([]);
  });

  it('takes range syntax in a prefix literally', async () => {
    for (const syntax of ['[', '(', '-', '+', '{', '[a', '(a', '-a', '+a', 'a\\', '*', '?']) {
      expect(await members('raiders', syntax)).toEqual([]);
    }
    expect(await members('raiders', '\xff')).toEqual(['Ÿvonne']); // ÿ, not the byte 0xFF
  });

  it('returns at most `limit` members, the first in order for an empty prefix', async () => {
    expect(await members('raiders', '', 3)).toEqual(['alice', 'Alice', 'alicia']);
    expect(await members('raiders', '')).toHaveLength(10);
    expect(await members('raiders', 'a', 2)).toEqual(['alice', 'Alice']);
  });

  it('lets only members and service callers search', async () => {
    expect((await search('raiders', 'a', 2, api.tokens.user)).data).toEqual({ guildMembers: ['alice', 'Alice'] });
    expect(codes(await search('raiders', 'a', 2, api.tokens.other))).toEqual(['FORBIDDEN']);
    expect(codes(await search('no-such-guild', 'a', 2, api.tokens.other))).toEqual(['FORBIDDEN']);

    expect((await post(api.url, JoinGuildDocument, { guild: 'raiders' }, api.tokens.other)).data).toEqual({
      joinGuild: true,
    });
    expect((await post(api.url, JoinGuildDocument, { guild: 'raiders' }, api.tokens.other)).data).toEqual({
      joinGuild: false,
    });
    expect((await search('raiders', 'b', 5, api.tokens.other)).data).toEqual({ guildMembers: ['bob'] });
    expect((await post(api.url, LeaveGuildDocument, { guild: 'raiders' }, api.tokens.other)).data).toEqual({
      leaveGuild: true,
    });
    expect((await post(api.url, LeaveGuildDocument, { guild: 'raiders' }, api.tokens.other)).data).toEqual({
      leaveGuild: false,
    });
    expect(codes(await search('raiders', 'b', 5, api.tokens.other))).toEqual(['FORBIDDEN']);
  });

  it('lets a member search over WebSocket, and refuses a non-member there too', async () => {
    const member = fixture.connect(api.tokens.user);
    const [found] = await wsOperation(member.client, GuildMembersDocument, {
      guild: 'raiders',
      prefix: 'ALI',
      limit: 2,
    }).completion();
    expect(found.data).toEqual({ guildMembers: ['alice', 'Alice'] });
    const outsider = fixture.connect(api.tokens.other);
    const [refused] = await wsOperation(outsider.client, GuildMembersDocument, {
      guild: 'raiders',
      prefix: 'a',
    }).completion();
    expect(codes(refused)).toEqual(['FORBIDDEN']);
  });

  it('lets only service callers add or remove someone else', async () => {
    const before = await members('raiders', 'bob');
    expect(before).toEqual([]);
    expect(codes(await post(api.url, JoinGuildDocument, { guild: 'raiders', user: 'bob' }, api.tokens.user))).toEqual([
      'FORBIDDEN',
    ]);
    expect(
      codes(await post(api.url, LeaveGuildDocument, { guild: 'raiders', user: 'Alice' }, api.tokens.user)),
    ).toEqual(['FORBIDDEN']);
    expect(await members('raiders', 'bob')).toEqual([]);
    expect(await members('raiders', 'Alice', 50)).toEqual(['alice', 'Alice']);
    // Naming yourself is allowed.
    expect(
      (await post(api.url, LeaveGuildDocument, { guild: 'raiders', user: 'alice' }, api.tokens.user)).data,
    ).toEqual({ leaveGuild: true });
    expect(
      (await post(api.url, LeaveGuildDocument, { guild: 'raiders', user: 'Alice' }, api.tokens.service)).data,
    ).toEqual({ leaveGuild: true });
    expect(await members('raiders', 'ali')).toEqual(['alicia', 'ALINA']);
  });

  it('refuses bad names, prefixes and limits with BAD_USER_INPUT, writing nothing', async () => {
    const keys = (await api.redis.client.keys('*')).sort();
    const roster0 = await api.redis.client.zrange('guild:{g:raiders}:members', 0, -1);
    for (const guild of ['', 'g'.repeat(129), 'a\u0000b', 'a b', 'a:b', '{g}', 'a\u202Eb']) {
      expect(codes(await joinFor(guild, 'carol'))).toEqual(['BAD_USER_INPUT']);
      expect(codes(await post(api.url, LeaveGuildDocument, { guild, user: 'alice' }, api.tokens.service))).toEqual([
        'BAD_USER_INPUT',
      ]);
      expect(codes(await search(guild, 'a'))).toEqual(['BAD_USER_INPUT']);
    }
    expect(codes(await joinFor('raiders', 'bad user'))).toEqual(['BAD_USER_INPUT']);
    for (const [prefix, limit] of [
      ['a\u0000', 10],
      ['\u0008', 10],
      ['a\u2066', 10],
      ['p'.repeat(129), 10],
      ['a', 0],
      ['a', 51],
      ['a', -5],
    ] as const) {
      expect(codes(await search('raiders', prefix, limit))).toEqual(['BAD_USER_INPUT']);
    }
    expect((await api.redis.client.keys('*')).sort()).toEqual(keys);
    expect(await api.redis.client.zrange('guild:{g:raiders}:members', 0, -1)).toEqual(roster0);
  });

  it('pages through members after a cursor in name order, with hasMore and the member count', async () => {
    const all = await members('raiders', '', 50);
    expect(all).toHaveLength(roster.length);
    const seen: string[] = [];
    let after: string | undefined;
    const pages: boolean[] = [];
    for (;;) {
      const page = await pageOf('raiders', '', 4, after);
      expect(page.guild).toBe('raiders');
      expect(page.memberCount).toBe(15);
      expect(page.members.length).toBeLessThanOrEqual(4);
      seen.push(...page.members);
      pages.push(page.hasMore);
      if (!page.hasMore) break;
      after = page.members[page.members.length - 1];
    }
    expect(seen).toEqual(all);
    expect(pages).toEqual([true, true, true, false]); // 4 + 4 + 4 + 3

    // Within a prefix: the names after the cursor, and nothing past the prefix.
    expect(await pageOf('raiders', 'ALI', 2)).toEqual({
      guild: 'raiders',
      members: ['alice', 'Alice'],
      hasMore: true,
      memberCount: 15,
    });
    expect(await pageOf('raiders', 'ali', 2, 'Alice')).toMatchObject({ members: ['alicia', 'ALINA'], hasMore: false });
    expect(await pageOf('raiders', 'ali', 2, 'alice')).toMatchObject({ members: ['Alice', 'alicia'], hasMore: true });
    // A cursor that is no member continues from where it would sort; one before the prefix starts it.
    expect(await pageOf('raiders', 'ali', 5, 'alicf')).toMatchObject({ members: ['alicia', 'ALINA'], hasMore: false });
    expect(await pageOf('raiders', 'ali', 5, 'Aaron')).toMatchObject({
      members: ['alice', 'Alice', 'alicia', 'ALINA'],
      hasMore: false,
    });
    expect(await pageOf('raiders', 'ali', 5, 'zed')).toMatchObject({ members: [], hasMore: false });
    // Exactly a page full: no more.
    expect(await pageOf('raiders', '', 15)).toMatchObject({ members: all, hasMore: false });
    expect(await pageOf('raiders', '', 14)).toMatchObject({ members: all.slice(0, 14), hasMore: true });
    // guildMembers answers as before.
    expect(await members('raiders', 'ali', 2)).toEqual(['alice', 'Alice']);
    // A guild nobody joined, for a service caller: empty, no members.
    expect(await pageOf('empty-guild', '')).toEqual({
      guild: 'empty-guild',
      members: [],
      hasMore: false,
      memberCount: 0,
    });
  });

  it('lets only members and service callers page through members, and refuses bad pages with BAD_USER_INPUT', async () => {
    expect(await pageOf('raiders', 'zo', 1, undefined, api.tokens.user)).toEqual({
      guild: 'raiders',
      members: ['zoey'],
      hasMore: true,
      memberCount: 15,
    });
    expect(codes(await memberPage('raiders', 'zo', 1, undefined, api.tokens.other))).toEqual(['FORBIDDEN']);
    expect(codes(await memberPage('no-such-guild', '', 1, undefined, api.tokens.other))).toEqual(['FORBIDDEN']);
    expect(codes(await memberPage('raiders', '', 1, undefined, ''))).toEqual(['UNAUTHENTICATED']);
    const keys = (await api.redis.client.keys('*')).sort();
    for (const [first, after] of [
      [0, undefined],
      [51, undefined],
      [-1, undefined],
      [5, 'a b'],
      [5, ''],
      [5, 'x'.repeat(129)],
    ] as const) {
      expect(codes(await memberPage('raiders', '', first, after))).toEqual(['BAD_USER_INPUT']);
    }
    expect(codes(await memberPage('a:b', '', 5))).toEqual(['BAD_USER_INPUT']);
    expect((await api.redis.client.keys('*')).sort()).toEqual(keys);
  });

  it('caps how many guilds a user joins with CONFLICT, keeping nothing of the refused join', async () => {
    for (const guild of ['g1', 'g2']) expect((await joinFor(guild, 'alice')).data).toEqual({ joinGuild: true });
    const refused = await joinFor('g3', 'alice');
    expect(codes(refused)).toEqual(['CONFLICT']);
    expect(await api.redis.client.exists('guild:{g:g3}:members')).toBe(0);
    expect((await api.redis.client.zrange('user:{u:alice}:guilds', 0, -1)).sort()).toEqual(['g1', 'g2', 'raiders']);
    // Rejoining a guild one is in is no new guild.
    expect((await joinFor('g1', 'alice')).data).toEqual({ joinGuild: false });
    await post(api.url, LeaveGuildDocument, { guild: 'g2', user: 'alice' }, api.tokens.service);
    expect((await joinFor('g3', 'alice')).data).toEqual({ joinGuild: true });
  });
});

describe('my guilds', () => {
  it("lists the caller's guilds in byte order with member counts, a page at a time", async () => {
    expect(await guildsPage()).toEqual({ guilds: [], hasMore: false });
    for (const guild of ['raiders', 'Zeta', 'beta']) {
      expect((await post(api.url, JoinGuildDocument, { guild }, api.tokens.user)).data).toEqual({ joinGuild: true });
    }
    await post(api.url, JoinGuildDocument, { guild: 'beta' }, api.tokens.other);
    for (const user of ['carol', 'dave']) await joinFor('raiders', user);

    expect(await guildsPage()).toEqual({
      guilds: [
        { name: 'Zeta', memberCount: 1 },
        { name: 'beta', memberCount: 2 },
        { name: 'raiders', memberCount: 3 },
      ],
      hasMore: false,
    });
    const first = await guildsPage(2);
    expect(first).toEqual({
      guilds: [
        { name: 'Zeta', memberCount: 1 },
        { name: 'beta', memberCount: 2 },
      ],
      hasMore: true,
    });
    expect(await guildsPage(2, 'beta')).toEqual({ guilds: [{ name: 'raiders', memberCount: 3 }], hasMore: false });
    expect(await guildsPage(1, 'raiders')).toEqual({ guilds: [], hasMore: false });
    expect(await guildsPage(1, 'a')).toEqual({ guilds: [{ name: 'beta', memberCount: 2 }], hasMore: true });
    expect(await guildsPage(3)).toMatchObject({ hasMore: false });

    // Leaving takes the guild off the list, and its count down.
    await post(api.url, LeaveGuildDocument, { guild: 'beta' }, api.tokens.other);
    await post(api.url, LeaveGuildDocument, { guild: 'Zeta' }, api.tokens.user);
    expect(await guildsPage()).toEqual({
      guilds: [
        { name: 'beta', memberCount: 1 },
        { name: 'raiders', memberCount: 3 },
      ],
      hasMore: false,
    });
    expect(await guildsPage(10, undefined, api.tokens.other)).toEqual({ guilds: [], hasMore: false });
  });

  it("lets service callers list anyone's guilds, and a user only their own", async () => {
    await joinFor('raiders', 'carol');
    await joinFor('raiders', 'alice');
    expect(await guildsPage(10, undefined, api.tokens.service, 'carol')).toEqual({
      guilds: [{ name: 'raiders', memberCount: 2 }],
      hasMore: false,
    });
    expect(await guildsPage(10, undefined, api.tokens.user, 'alice')).toEqual({
      guilds: [{ name: 'raiders', memberCount: 2 }],
      hasMore: false,
    });
    expect(codes(await myGuilds(10, undefined, api.tokens.user, 'carol'))).toEqual(['FORBIDDEN']);
    expect(codes(await myGuilds(10, undefined, ''))).toEqual(['UNAUTHENTICATED']);
    const member = fixture.connect(api.tokens.user);
    const [overWs] = await wsOperation(member.client, MyGuildsDocument, { first: 1 }).completion();
    expect(overWs.data).toEqual({ myGuilds: { guilds: [{ name: 'raiders', memberCount: 2 }], hasMore: false } });
  });

  it('never shows a guild whose join was cut short, and still fills the page', async () => {
    for (const guild of ['a1', 'c3']) await joinFor(guild, 'alice');
    // A join that counted 'b2' on alice's slot, then stopped before adding her to the guild.
    await api.redis.client.zadd('user:{u:alice}:guilds', 99, 'b2');
    await api.redis.client.zadd('user:{u:alice}:guild-names', 0, 'b2');
    await joinFor('b2', 'bob');
    expect(await guildsPage(1)).toEqual({ guilds: [{ name: 'a1', memberCount: 1 }], hasMore: true });
    expect(await guildsPage(1, 'a1')).toEqual({ guilds: [{ name: 'c3', memberCount: 1 }], hasMore: false });
    // Leaving the guild again clears the list, as before.
    expect((await post(api.url, LeaveGuildDocument, { guild: 'b2' }, api.tokens.user)).data).toEqual({
      leaveGuild: false,
    });
    expect(await api.redis.client.zrange('user:{u:alice}:guild-names', 0, -1)).toEqual(['a1', 'c3']);
  });

  it('lists the guilds of users who joined before the list existed', async () => {
    for (const guild of ['old-b', 'old-a']) await joinFor(guild, 'alice');
    await api.redis.client.del('user:{u:alice}:guild-names'); // as stored before this change
    expect(await guildsPage()).toEqual({
      guilds: [
        { name: 'old-a', memberCount: 1 },
        { name: 'old-b', memberCount: 1 },
      ],
      hasMore: false,
    });
    expect(await api.redis.client.zrange('user:{u:alice}:guild-names', 0, -1)).toEqual(['old-a', 'old-b']);
    // A join builds it too.
    await api.redis.client.del('user:{u:alice}:guild-names');
    await joinFor('old-c', 'alice');
    expect(await api.redis.client.zrange('user:{u:alice}:guild-names', 0, -1)).toEqual(['old-a', 'old-b', 'old-c']);
  });

  it('refuses bad pages and names with BAD_USER_INPUT, writing nothing', async () => {
    await joinFor('raiders', 'alice');
    const keys = (await api.redis.client.keys('*')).sort();
    expect(codes(await myGuilds(0))).toEqual(['BAD_USER_INPUT']);
    expect(codes(await myGuilds(101))).toEqual(['BAD_USER_INPUT']);
    expect(codes(await myGuilds(5, 'a:b'))).toEqual(['BAD_USER_INPUT']);
    expect(codes(await myGuilds(5, undefined, api.tokens.service, '{u}'))).toEqual(['BAD_USER_INPUT']);
    expect((await api.redis.client.keys('*')).sort()).toEqual(keys);
    expect(await guildsPage(100)).toEqual({ guilds: [{ name: 'raiders', memberCount: 1 }], hasMore: false });
  });
});
