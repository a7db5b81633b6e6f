// Recent contacts and guild prefix search through the real server: order, caps, case-insensitive
// Unicode matching, literal prefixes, who may search, and bad input that writes nothing.
import {
  AddRecentContactDocument,
  GuildMembersDocument,
  JoinGuildDocument,
  LeaveGuildDocument,
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
