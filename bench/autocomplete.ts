// Autocomplete (book 6.1): our guild prefix search and recent contacts (src/redis/guild.ts,
// src/redis/contacts.ts) against the book's, on the same redis-server: 1. guild prefix queries/s,
// 2. memory per user of a full contacts list, 3. memory per guild member, 4. contacts prefix
// filtering in Node, in a Lua script and the book's way. Method: docs/performance.md, "Method: autocomplete".
import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import { ContactsRepository } from '../src/redis/contacts';
import { GuildRepository, guildEntry } from '../src/redis/guild';
import { guildKeys, userKeys } from '../src/redis/keys';
import { alternate, bench, inParallel, isQuick, size as sized, stepsOf, type Steps, type SuiteReport } from './harness';
import { measure, medianRange, perOp, rates } from './harness/measure';
import { keyBytes, mean, median, seeded, sumOf, usedMemory } from './harness/support';

const QUICK = isQuick();
const GUILD_SIZES = (process.env.BENCH_GUILD_SIZES ?? (QUICK ? '10000' : '10000,1000000')).split(',').map(Number);
/** Queries per measured round of section 1: the book's fewer, so that its rounds last about as long. */
const GUILD_OPS = sized('BENCH_GUILD_OPS', 3_000, 40_000);
const GUILD_BOOK_OPS = sized('BENCH_GUILD_BOOK_OPS', 400, 5_000);
/** Calls per measured round of section 4. */
const FILTER_OPS = sized('BENCH_FILTER_OPS', 1_500, 10_000);
const ROUNDS = sized('BENCH_AUTOCOMPLETE_ROUNDS', 3, 5);
const CALLERS = sized('BENCH_AUTOCOMPLETE_CALLERS', 8, 8);
const CONTACT_USERS = sized('BENCH_CONTACT_USERS', 100, 1_000);
/** Different names the contacts are drawn from. */
const CONTACT_POOL = QUICK ? 5_000 : 20_000;
/** The book's list length, and the API's default CONTACTS_MAX. */
const MAX_CONTACTS = 100;
const LIMIT = 10;
/** Database the book's keys live in, under the same names as ours. */
const BOOK_DB = 1;
const SEED = sized('BENCH_SEED', 61, 61);

type Random = () => number;

const below = (random: Random, n: number): number => Math.floor(random() * n);
const between = (random: Random, min: number, max: number): number => min + below(random, max - min + 1);
const pick = <T>(random: Random, items: ArrayLike<T>): T => items[below(random, items.length)];
/** `length` characters of `alphabet` (each a single UTF-16 unit). */
const drawn = (random: Random, alphabet: string, length: number): string =>
  Array.from({ length }, () => pick(random, alphabet)).join('');

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = LOWER.toUpperCase();
const ACCENTED_LOWER = 'áàâäãåçéèêëíìîïñóòôöõøúùûüýÿæœ';
const ACCENTED_UPPER = 'ÁÀÂÄÅÇÉÈÊËÍÎÑÓÔÖØÚÜÆ';
const CYRILLIC_LOWER = 'абвгдежзиклмнопрстуфхцчшщыэюя';
const CYRILLIC_UPPER = 'АБВГДЕЖЗИКЛМНОПРСТУФХЦЧШЭЮЯ';
const HAN =
  '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦方白邹孟熊秦邱江尹薛段雷侯龙史陶黎贺顾毛郝龚邵万钱严武戴莫孔向汤伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚英华玉兰红梅飞鹏辉云天月星雪风雨';

/** What the book's autocomplete assumes: lower-case a-z only, here 4-12 letters. */
const lowercaseName = (random: Random): string => drawn(random, LOWER, between(random, 4, 12));

/** A player name as people pick them (shares in docs/performance.md). */
function mixedName(random: Random): string {
  const [kind, length] = [random(), between(random, 6, 14)];
  if (kind < 0.1) return drawn(random, HAN, between(random, 2, 6));
  if (kind < 0.15) return pick(random, CYRILLIC_UPPER) + drawn(random, CYRILLIC_LOWER, length - 1);
  if (kind < 0.45) {
    const digits = random() < 0.3 ? between(random, 1, 3) : 0;
    return drawn(random, LOWER, length - digits) + drawn(random, '0123456789', digits);
  }
  if (kind < 0.5) return drawn(random, UPPER, length);
  if (kind < 0.65) {
    const first = random() < 0.3 ? pick(random, ACCENTED_UPPER) : pick(random, UPPER);
    const rest = Array.from({ length: length - 1 }, () => pick(random, random() < 0.2 ? ACCENTED_LOWER : LOWER));
    return first + rest.join('');
  }
  let name = ''; // camel case: a capital every few letters ("DarkWolfKing")
  while (name.length < length) name += pick(random, UPPER) + drawn(random, LOWER, between(random, 2, 5));
  return name.slice(0, length);
}

/** `count` different names (NFC, as the API stores every name), the same in every run, so runs compare. */
function uniqueNames(count: number, make: (random: Random) => string, seed: number): string[] {
  const random = seeded(seed);
  const names = new Set<string>();
  while (names.size < count) names.add(make(random).normalize('NFC'));
  return [...names];
}

const utf8 = (text: string): number => Buffer.byteLength(text, 'utf8');

/** The book's find_prefix_range (section 6.1, in TypeScript with ioredis): a member just before every match and one just after, over '`a-z{'. */
function findPrefixRange(prefix: string): [string, string] {
  const alphabet = '`abcdefghijklmnopqrstuvwxyz{';
  let position = 0; // bisect_left
  while (position < alphabet.length && alphabet[position] < prefix.slice(-1)) position++;
  return [`${prefix.slice(0, -1)}${alphabet[(position || 1) - 1]}{`, `${prefix}{`];
}

/** autocomplete_on_prefix. `redis` must be this caller's own connection (WATCH). */
async function bookAutocompleteOnPrefix(redis: Redis, zset: string, prefix: string) {
  const identifier = randomUUID();
  const [start, end] = findPrefixRange(prefix).map((marker) => marker + identifier) as [string, string];
  await redis.zadd(zset, 0, start, 0, end);
  for (let retries = 0; ; retries++) {
    await redis.watch(zset);
    const startIndex = (await redis.zrank(zset, start))!;
    const endIndex = (await redis.zrank(zset, end))!;
    const endRange = Math.min(startIndex + 9, endIndex - 2);
    // ioredis resolves exec with null when WATCH saw a change: redis-py's WatchError.
    const replies = await redis.multi().zrem(zset, start, end).zrange(zset, startIndex, endRange).exec();
    if (replies === null) continue;
    const items = (replies[1][1] as string[]).filter((item) => !item.includes('{'));
    return { items, retries };
  }
}

/** add_update_contact (`list` is the book's 'recent:' + user). */
function bookAddUpdateContact(redis: Redis, list: string, contact: string) {
  const multi = redis.multi().lrem(list, 0, contact).lpush(list, contact);
  return multi.ltrim(list, 0, MAX_CONTACTS - 1).exec();
}

/** fetch_autocomplete_list: the whole list, filtered in the client. */
async function bookFetchAutocompleteList(redis: Redis, list: string, prefix: string): Promise<string[]> {
  return (await redis.lrange(list, 0, -1)).filter((candidate) => candidate.toLowerCase().startsWith(prefix));
}

// Section 4's in-Redis alternative: up to ARGV[2] entries starting with ARGV[1] after
// string.lower (A-Z only), as cheap as Lua allows: lowered once, searched by string.find in C.
const FILTER_CONTACTS_LUA = `
local list = redis.call('GET', KEYS[1])
if not list then return {} end
local wrapped = '\\n' .. list
local lowered = string.lower(wrapped)
local needle = '\\n' .. string.lower(ARGV[1])
local limit = tonumber(ARGV[2])
local found, from = {}, 1
while #found < limit do
  local at = string.find(lowered, needle, from, true)
  if not at then break end
  local stop = string.find(wrapped, '\\n', at + 1, true)
  found[#found + 1] = string.sub(wrapped, at + 1, (stop or 0) - 1)
  if not stop then break end
  from = stop
end
return found`;

/** `ops` queries per measured round; `task` numbers them, so every peer asks the same sequence; statCommand: section 4. */
type Query = (caller: number, task: number) => Promise<{ items: string[]; retries?: number }>;
type Peer = { label: string; ops: number; query: Query; statCommand?: string };

/** One warm-up round per peer (a quarter of its queries), then ROUNDS rounds, peers taking turns. */
async function alternatePeers(label: string, peers: Peer[], admin: Redis, steps: Steps) {
  const { measured } = await alternate({
    peers: peers.map((p) => p.label),
    rounds: ROUNDS,
    steps,
    label,
    async run(name, at) {
      const { ops: full, query, statCommand } = peers.find((p) => p.label === name)!;
      const [ops, totals] = [at.size(full), { found: 0, retries: 0 }];
      const work = () =>
        inParallel(ops, CALLERS, async (task, caller) => {
          const { items, retries = 0 } = await query(caller, task);
          totals.found += items.length;
          totals.retries += retries;
        });
      const sample = await measure(ops, work, { admin, label: `${label}, ${name}` });
      // INFO commandstats for the peer's statCommand alone.
      const stats = await admin.info('commandstats');
      const stat = new RegExp(`^cmdstat_${statCommand}:calls=(\\d+),usec=(\\d+)`, 'm').exec(stats);
      return { ...sample, ...totals, statCalls: Number(stat?.[1] ?? 0), statUsec: Number(stat?.[2] ?? 0) };
    },
  });
  return peers.map((peer) => ({ ...peer, rounds: measured[peer.label] }));
}

type Summary = Awaited<ReturnType<typeof alternatePeers>>[number];

/** A total over a peer's measured rounds per query; the median rate; Redis CPU µs per query, overall and per round. */
const per = (s: Summary, field: keyof Summary['rounds'][number]): number =>
  sumOf(s.rounds, (r) => r[field]) / sumOf(s.rounds, (r) => r.ops);
const rate = (s: Summary): number => median(rates(s.rounds));
const cpu = (s: Summary): number => per(s, 'redisCpu') * 1e6;
const cpuPerRound = (s: Summary): number[] => s.rounds.map((r) => (r.redisCpu * 1e6) / r.ops);
const fixed = (value: number, digits = 2): string => value.toFixed(digits);
const count = (n: number): string => n.toLocaleString('en-US');

/** Redis memory taken by `fill`: used_memory growth, MEMORY USAGE of each key, the first key's encoding. */
async function memoryOf(redis: Redis, keys: string[], fill: () => Promise<unknown>) {
  const before = await usedMemory(redis);
  const { seconds } = await measure(1, fill);
  const used = (await usedMemory(redis)) - before;
  const sizes = await Promise.all(keys.map((key) => keyBytes(redis, key)));
  return { used, sizes, seconds, encoding: String(await redis.object('ENCODING', keys[0])) };
}

/** Ours in db 0 (one command connection); the book's in db 1, with one connection per book caller for WATCH. */
type Connections = Record<'ours' | 'book', Redis> & { bookCallers: Redis[]; contacts: ContactsRepository };

/** Loads `names` into zset `key` in both layouts (ZADDs of 1,000, 8 in flight), measures each, runs `use`, drops them. */
async function withGuild(c: Connections, key: string, names: string[], kind: string, use?: () => Promise<void>) {
  const rows = [];
  for (const [redis, layout, entries] of [
    [c.ours, 'ours (guildEntry)', names.map(guildEntry)],
    [c.book, 'book (plain name)', names],
  ] as const) {
    const memory = await memoryOf(redis, [key], async () => {
      await inParallel(Math.ceil(entries.length / 1_000), 8, (batch) =>
        redis.zadd(key, ...entries.slice(batch * 1_000, (batch + 1) * 1_000).flatMap((member) => [0, member])),
      );
      const loaded = await redis.zcard(key);
      if (loaded !== entries.length)
        throw new Error(`${kind} names, ${layout}: ${loaded} members loaded, expected ${entries.length}`);
    });
    rows.push({ size: entries.length, kind, layout, entryBytes: sumOf(entries, utf8) / entries.length, ...memory });
  }
  await use?.();
  await Promise.all([c.ours.del(key), c.book.del(key)]);
  return rows;
}

/** Sections 1 and 3 for one size: lower-case names in both layouts (search speed, memory), then mixed names' memory. */
async function guildOf(c: Connections, size: number, admin: Redis, steps: Steps) {
  const names = uniqueNames(size, lowercaseName, SEED + size);
  if (names.some((name) => guildEntry(name) !== name)) throw new Error('a lower-case name has an entry of its own');
  const [guild, key] = [`bench-lower-${size}`, guildKeys.members(`bench-lower-${size}`)];
  const guilds = new GuildRepository(c.ours, { maxGuildMembers: size * 2, maxGuildsPerUser: 1 });
  const book = (caller: number, prefix: string) => bookAutocompleteOnPrefix(c.bookCallers[caller], key, prefix);
  // 1-3 letter prefixes cut from member names, as someone typing a member's name would start.
  const random = seeded(SEED + size + 2);
  const prefixes = Array.from({ length: 10_000 }, () => pick(random, names).slice(0, between(random, 1, 3)));
  const prefixOf = (task: number): string => prefixes[task % prefixes.length];
  const ours = (label: string, asMember?: (task: number) => string): Peer => ({
    label,
    ops: GUILD_OPS,
    query: async (_, task) => ({ items: await guilds.search(guild, prefixOf(task), LIMIT, asMember?.(task)) }),
  });
  let speed: Summary[] = [];
  const lower = await withGuild(c, key, names, 'a-z', async () => {
    // Before timing anything: both must return the same members for the same prefixes (run one at a time).
    for (const prefix of prefixes.slice(0, 200))
      if ((await guilds.search(guild, prefix, LIMIT)).join('\n') !== (await book(0, prefix)).items.join('\n'))
        throw new Error(`ours and the book disagree on the guild prefix search '${prefix}'`);
    const peers: Peer[] = [
      ours('ours (service)'),
      ours('ours (asMember)', (task) => names[(task * 7919) % names.length]),
      { label: 'book', ops: GUILD_BOOK_OPS, query: (caller, task) => book(caller, prefixOf(task)) },
    ];
    speed = await alternatePeers(`guild of ${count(size)}`, peers, admin, steps);
  });
  const mixedNames = uniqueNames(size, mixedName, SEED + size + 1);
  const mixed = await withGuild(c, guildKeys.members(`bench-mixed-${size}`), mixedNames, 'mixed');
  return { size, speed, memory: [...mixed, ...lower] };
}

type Guild = Awaited<ReturnType<typeof guildOf>>;

/** Table 1 and, per size, the guild search figures. */
function reportGuildSpeed(report: SuiteReport, guilds: Guild[]): void {
  // Peers in the order ours (service), ours (asMember), book.
  const rows = guilds.flatMap(({ size, speed }) => speed.map((s) => ({ size, s, book: speed[2] })));
  const title = `1. Guild prefix queries, limit ${LIMIT}, ${CALLERS} concurrent callers (medians of ${ROUNDS} rounds, per-query figures over all rounds)`;
  report.tableOf(title, 2, rows, [
    ['members', (r) => count(r.size)],
    ['peer', (r) => r.s.label],
    ['queries/s (min-max)', (r) => medianRange(rates(r.s.rounds))],
    ['ours/book', (r) => (r.s === r.book ? '' : fixed(rate(r.s) / rate(r.book)))],
    ['redis cmds/q', (r) => fixed(per(r.s, 'executed'))],
    ['round trips/q', (r) => fixed(perOp(r.s.rounds))],
    ['WATCH retries/q', (r) => fixed(per(r.s, 'retries'), 3)],
    ['redis CPU µs/q', (r) => fixed(cpu(r.s), 1)],
    ['book CPU/ours', (r) => (r.s === r.book ? '' : fixed(cpu(r.book) / cpu(r.s)))],
    ['results/q', (r) => fixed(per(r.s, 'found'))],
  ]);
  report.note(
    'Guild search: ours is one EVALSHA (ZRANGEBYLEX, + ZSCORE with asMember) on one shared connection; the book ZADDs two markers, then per attempt WATCH, ZRANK, ZRANK, ' +
      'MULTI/ZREM/ZRANGE/EXEC, one connection per caller; round trips are counted as the clients sent them.',
    'results/q: members returned; below 10 where a prefix matches fewer, and a little lower for the book, whose ZRANGE of 10 ranks also ' +
      "takes other callers' markers, which it then filters out.",
  );
  for (const { size, speed } of guilds) {
    const [service, asMember, book] = speed;
    const [id, guild] = [`autocomplete.guild${size}`, `guild of ${count(size)}`];
    const [ourRates, bookRates] = [rates(service.rounds), rates(book.rounds)];
    report.ratio(`${id}.ours_vs_book`, `${guild}: prefix search, ours / book (queries/s)`, ourRates, bookRates);
    const asMemberLabel = `${guild}: prefix search as a member, ours / book (queries/s)`;
    report.ratio(`${id}.as_member_vs_book`, asMemberLabel, rates(asMember.rounds), bookRates);
    const cpuLabel = `${guild}: Redis CPU per query, book / ours`;
    report.ratio(`${id}.book_cpu_vs_ours`, cpuLabel, cpuPerRound(book), cpuPerRound(service));
    const trips = (who: string): string => `${guild}: ${who}, round trips per query`;
    report.value(`${id}.ours_round_trips`, trips('ours'), 'round trips', perOp(service.rounds), { op: '<=', value: 1 });
    report.value(`${id}.book_round_trips`, trips('book'), 'round trips', perOp(book.rounds));
  }
}

/** Table 3 (rows in pairs, ours then the book's) and the mixed names' memory figures. */
function reportGuildMemory(report: SuiteReport, guilds: Guild[]): void {
  const rows = guilds.flatMap((guild) => guild.memory).map((row, i) => ({ ...row, i }));
  const ratio = (i: number): number => rows[i].sizes[0] / rows[i + 1].sizes[0];
  const perMember = (row: (typeof rows)[number], bytes: number): string => fixed(bytes / row.size, 1);
  const title =
    '3. Memory per guild member (MEMORY USAGE key SAMPLES 0 / members; used_memory growth while loading / members)';
  report.tableOf(title, 3, rows, [
    ['members, names', (r) => `${count(r.size)} ${r.kind}`],
    ['layout', (r) => r.layout],
    ['encoding', (r) => r.encoding],
    ['entry bytes', (r) => fixed(r.entryBytes, 1)],
    ['bytes/member', (r) => perMember(r, r.sizes[0])],
    ['used_memory/member', (r) => perMember(r, r.used)],
    ['ours/book', (r) => (r.i % 2 ? '' : fixed(ratio(r.i)))],
  ]);
  for (let i = 0; i < rows.length; i += 2) {
    if (rows[i].kind !== 'mixed') continue;
    const label = `guild of ${count(rows[i].size)} mixed names: memory per member, ours / book`;
    report.value(`autocomplete.guild${rows[i].size}.memory_ours_vs_book`, label, 'x', ratio(i));
  }
}

// One user's adds, oldest first: mostly new names, one in five a repeat that moves an earlier
// name back to the front, until 110 different names were added (the list ends full, trimmed).
function contactAdds(random: Random, pool: string[]): string[] {
  const adds: string[] = [];
  const added = new Set<string>();
  while (added.size < MAX_CONTACTS + 10) {
    const name = adds.length > 0 && random() < 0.2 ? pick(random, adds) : pick(random, pool);
    adds.push(name);
    added.add(name);
  }
  return adds;
}

const contactUser = (i: number): string => `player${i}`;
const contactsKey = (i: number): string => userKeys.contacts(contactUser(i));

/** Section 2: each user's adds in order, users 50 at a time, into both stores; what the lists take. */
async function contactsMemory(c: Connections, plan: string[][]) {
  const keys = plan.map((_, user) => contactsKey(user));
  const rows = [];
  for (const [label, redis, add] of [
    ['ours (string)', c.ours, (user: number, name: string) => c.contacts.add(contactUser(user), name)],
    ['book (list)', c.book, (user: number, name: string) => bookAddUpdateContact(c.book, contactsKey(user), name)],
  ] as const) {
    const m = await memoryOf(redis, keys, () =>
      inParallel(plan.length, 50, async (user) => {
        for (const contact of plan[user]) await add(user, contact);
      }),
    );
    rows.push({ label, ...m, perUser: mean(m.sizes), fillRate: plan.flat().length / m.seconds });
  }
  // Both stores must hold the same 100 names in the same order for every user.
  const lists = [];
  for (let user = 0; user < plan.length; user++) {
    const [ours, theirs] = [await c.contacts.all(contactUser(user)), await c.book.lrange(contactsKey(user), 0, -1)];
    if (ours.length !== MAX_CONTACTS || ours.join('\n') !== theirs.join('\n'))
      throw new Error(`contacts of ${contactUser(user)} differ`);
    lists.push(ours);
  }
  return { rows, lists };
}

/** Table 2 and the contacts memory figures. */
function reportContactsMemory(report: SuiteReport, { rows, lists }: Awaited<ReturnType<typeof contactsMemory>>): void {
  const [ours, book] = rows;
  const minMax = (sizes: number[]): string => `${Math.min(...sizes)}-${Math.max(...sizes)}`;
  const nameBytes = sumOf(lists.flat(), utf8) / lists.length;
  const title = `2. Memory per user of a full ${MAX_CONTACTS}-entry recent-contacts list (${count(lists.length)} users; the names themselves: ${nameBytes.toFixed(0)} bytes per user)`;
  report.tableOf(title, 2, rows, [
    ['layout', (r) => r.label],
    ['encoding', (r) => r.encoding],
    ['MEMORY USAGE bytes/user (min-max)', (r) => `${r.perUser.toFixed(0)} (${minMax(r.sizes)})`],
    ['used_memory/user', (r) => (r.used / lists.length).toFixed(0)],
    ['ours/book', (r) => (r === ours ? fixed(ours.perUser / book.perUser) : '')],
    ['fill adds/s (one pass)', (r) => r.fillRate.toFixed(0)],
  ]);
  const bytesLabel = `recent contacts: ours, bytes per user of ${MAX_CONTACTS} names`;
  report.value('autocomplete.contacts.ours_bytes_per_user', bytesLabel, 'bytes', ours.perUser);
  // src/redis/contacts.ts chose a string over the book's list because it costs less memory per user.
  const [memoryLabel, atMostOne] = ['recent contacts: memory per user, ours / book', { op: '<=', value: 1 } as const];
  report.value('autocomplete.contacts.memory_ours_vs_book', memoryLabel, 'x', ours.perUser / book.perUser, atMostOne);
}

function filterPeers(c: Connections, lists: string[][]): Peer[] {
  c.ours.defineCommand('benchFilterContacts', { numberOfKeys: 1, lua: FILTER_CONTACTS_LUA });
  type Filter = (key: string, prefix: string, limit: number) => Promise<string[]>;
  const filter = (c.ours as unknown as Record<string, Filter>).benchFilterContacts.bind(c.ours);
  // A user and what they typed: the first 1-2 characters of one of their contacts, lower-cased.
  const random = seeded(SEED + 4);
  const tasks = Array.from({ length: 10_000 }, () => {
    const user = below(random, lists.length);
    const typed = [...pick(random, lists[user])].slice(0, between(random, 1, 2));
    return { user: contactUser(user), key: contactsKey(user), prefix: typed.join('').toLowerCase() };
  });
  const peer = (label: string, statCommand: string, run: (t: (typeof tasks)[number]) => Promise<string[]>): Peer => ({
    label,
    statCommand,
    ops: FILTER_OPS,
    query: async (_, n) => ({ items: await run(tasks[n % tasks.length]) }),
  });
  return [
    peer('ours: GET + foldCase', 'get', (t) => c.contacts.find(t.user, t.prefix, LIMIT)),
    peer('Lua filter (ASCII)', 'evalsha', (t) => filter(t.key, t.prefix, LIMIT)),
    peer('book: LRANGE + filter', 'lrange', (t) => bookFetchAutocompleteList(c.book, t.key, t.prefix)),
  ];
}

/** Table 4, its notes and conclusion, and the filtering figures. */
function reportFiltering(report: SuiteReport, summaries: Summary[]): void {
  const [ours, lua] = summaries;
  const usecPerCall = (s: Summary): number => per(s, 'statUsec') / (per(s, 'statCalls') || 1);
  const title = `4. Recent-contacts prefix filtering, ${CALLERS} callers on one connection each way (medians of ${ROUNDS} rounds)`;
  report.tableOf(title, 1, summaries, [
    ['way', (s) => s.label],
    ['calls/s (min-max)', (s) => medianRange(rates(s.rounds))],
    ['ours/this', (s) => (s === ours ? '' : fixed(rate(ours) / rate(s)))],
    ['command', (s) => s.statCommand ?? ''],
    ['usec_per_call', (s) => fixed(usecPerCall(s))],
    ['redis CPU µs/call', (s) => fixed(cpu(s), 1)],
    ['matches/call', (s) => fixed(per(s, 'found'))],
  ]);
  // The decision, from this run's numbers: which way costs Redis, the shared resource, less CPU.
  const [stat, whole] = [usecPerCall(lua) / usecPerCall(ours), cpu(lua) / cpu(ours)];
  const verdict = stat > 1 ? 'keep filtering in Node' : 'filter in Redis';
  const agreement = stat > 1 === whole > 1 ? 'same verdict' : 'the opposite verdict';
  const times = fixed(rate(ours) / rate(lua));
  const speed =
    rate(ours) >= rate(lua)
      ? `ours also serves ${times}x the calls/s`
      : `ours serves only ${times}x the Lua filter's calls/s here, held back by foldCase in Node on the same cores ` +
        '(Node CPU grows with more API processes; Redis has one thread for everyone)';
  report.note(
    'Filtering: usec_per_call is INFO commandstats for the command alone (for evalsha the whole script); redis CPU is the server process, parsing and replies included.',
    `Filtering: matches/call: the Lua filter finds fewer where a name starts with a non-ASCII capital (É, Ж) that string.lower cannot fold.`,
    `conclusion: ${verdict}. Per call the Lua filter costs Redis ${fixed(usecPerCall(lua))} µs against GET's ${fixed(usecPerCall(ours))} ` +
      `(${fixed(stat)}x, commandstats), and ${fixed(cpu(lua), 1)} against ${fixed(cpu(ours), 1)} µs of whole-server CPU ` +
      `(${fixed(whole)}x, ${agreement}), with ASCII-only folding; ${speed}.`,
  );
  // src/redis/contacts.ts filters in Node because a GET costs Redis less than filtering in a script.
  const cpuLabel = 'contacts prefix filter: Redis CPU per call, Lua filter / GET (ours)';
  const atLeastOne = { op: '>=', value: 1 } as const;
  report.ratio('autocomplete.filter.lua_vs_get_redis_cpu', cpuLabel, cpuPerRound(lua), cpuPerRound(ours), atLeastOne);
  const speedLabel = 'contacts prefix filter: ours (GET + foldCase) / Lua filter (calls/s)';
  report.ratio('autocomplete.filter.ours_vs_lua', speedLabel, rates(ours.rounds), rates(lua.rounds));
}

/** Loading a guild of `size` members twice, counted in rounds of a speed test for the progress bar. */
const loadWeight = (size: number): number => Math.max(1, size / 100_000);

const TITLE = "Autocomplete (book 6.1): guild prefix search and recent contacts, against the book's";

bench({ id: 'autocomplete', title: TITLE }, async ({ admin, connect, report, steps: progress }) => {
  const ours = connect();
  const c: Connections = {
    ours,
    book: connect({ db: BOOK_DB }, true),
    bookCallers: Array.from({ length: CALLERS }, () => connect({ db: BOOK_DB }, true)),
    contacts: new ContactsRepository(ours, { maxContacts: MAX_CONTACTS }),
  };
  await Promise.all([ours, c.book, ...c.bookCallers].map((client) => client.ping()));
  const steps = progress(1 + stepsOf(3, ROUNDS, 'once') * (1 + GUILD_SIZES.length) + sumOf(GUILD_SIZES, loadWeight));
  steps.step('recent contacts: memory');
  const [pool, random] = [uniqueNames(CONTACT_POOL, mixedName, SEED + 3), seeded(SEED + 5)];
  const plan = Array.from({ length: CONTACT_USERS }, () => contactAdds(random, pool));
  const contacts = await contactsMemory(c, plan);
  const filtering = await alternatePeers('contacts prefix filtering', filterPeers(c, contacts.lists), admin, steps);
  const guilds = [];
  for (const size of GUILD_SIZES) {
    steps.step(`guild of ${count(size)}: loading`, loadWeight(size));
    guilds.push(await guildOf(c, size, admin, steps));
  }
  reportGuildSpeed(report, guilds);
  reportContactsMemory(report, contacts);
  reportGuildMemory(report, guilds);
  reportFiltering(report, filtering);
});
