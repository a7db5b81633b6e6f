// Autocomplete (book 6.1): our guild prefix search and recent contacts (src/redis/guild.ts,
// src/redis/contacts.ts) against the book's, on the same redis-server: 1. guild prefix queries/s,
// 2. memory per user of a full contacts list, 3. memory per guild member, 4. contacts prefix
// filtering in Node, in a Lua script and the book's way. Method: docs/performance.md, "Method: autocomplete".
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type Redis from 'ioredis';
import { ContactsRepository } from '../src/redis/contacts';
import { GuildRepository, guildEntry } from '../src/redis/guild';
import { guildKeys, userKeys } from '../src/redis/keys';
import {
  alternate,
  bench,
  isQuick,
  measure,
  median,
  medianRange,
  perOp,
  rates,
  seeded,
  size as sized,
  stepsOf,
  type Sample,
  type Steps,
  type SuiteReport,
} from './harness';
import { inParallel, keyBytes, sumOf, tableOf, usedMemory } from './harness';

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
/** Members per ZADD while loading a guild. */
const LOAD_BATCH = 1_000;
/** Database the book's keys live in, under the same names as ours. */
const BOOK_DB = 1;
const SEED = sized('BENCH_SEED', 61, 61);

// --- deterministic names: the same in every run, so runs compare ------------------------------

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
  const kind = random();
  const length = between(random, 6, 14);
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

/** `count` different names (NFC, as the API stores every name). */
function uniqueNames(count: number, make: (random: Random) => string, seed: number): string[] {
  const random = seeded(seed);
  const names = new Set<string>();
  while (names.size < count) names.add(make(random).normalize('NFC'));
  return [...names];
}

const utf8 = (text: string): number => Buffer.byteLength(text, 'utf8');

// --- the book's code (section 6.1), in TypeScript with ioredis ----------------------------------

/** find_prefix_range: a member just before every match and one just after, over '`a-z{'. */
function findPrefixRange(prefix: string): [string, string] {
  const alphabet = '`abcdefghijklmnopqrstuvwxyz{';
  let position = 0; // bisect_left
  while (position < alphabet.length && alphabet[position] < prefix.slice(-1)) position++;
  return [`${prefix.slice(0, -1)}${alphabet[(position || 1) - 1]}{`, `${prefix}{`];
}

interface Outcome {
  /** Items returned. */
  found: number;
  retries: number;
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
    return { items, outcome: { found: items.length, retries } };
  }
}

/** add_update_contact (`list` is the book's 'recent:' + user). */
const bookAddUpdateContact = (redis: Redis, list: string, contact: string) =>
  redis
    .multi()
    .lrem(list, 0, contact)
    .lpush(list, contact)
    .ltrim(list, 0, MAX_CONTACTS - 1)
    .exec();

/** fetch_autocomplete_list: the whole list, filtered in the client. */
async function bookFetchAutocompleteList(redis: Redis, list: string, prefix: string): Promise<string[]> {
  return (await redis.lrange(list, 0, -1)).filter((candidate) => candidate.toLowerCase().startsWith(prefix));
}

/**
 * Section 4's in-Redis alternative: up to ARGV[2] entries starting with ARGV[1] after
 * string.lower (A-Z only), as cheap as Lua allows: lowered once, searched by string.find in C.
 */
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

type FilterCommand = (key: string, prefix: string, limit: number) => Promise<string[]>;

function defineFilterScript(redis: Redis): FilterCommand {
  redis.defineCommand('benchFilterContacts', { numberOfKeys: 1, lua: FILTER_CONTACTS_LUA });
  const command = (redis as unknown as Record<string, FilterCommand>).benchFilterContacts;
  return (key, prefix, limit) => command.call(redis, key, prefix, limit);
}

// --- measuring: CALLERS concurrent callers, peers in alternating rounds -------------------------

interface Peer {
  label: string;
  /** Queries per measured round. */
  ops: number;
  /** One query; `task` numbers the queries of a round, so every peer asks the same sequence. */
  query: (caller: number, task: number) => Promise<Outcome>;
  /** The command whose usec_per_call is shown (section 4). */
  statCommand?: string;
}

interface RoundResult extends Sample, Outcome {
  /** Calls and µs of the peer's statCommand (INFO commandstats). */
  statCalls: number;
  statUsec: number;
}

async function round(peer: Peer, admin: Redis, ops: number): Promise<RoundResult> {
  const totals = { found: 0, retries: 0 };
  const sample = await measure(
    ops,
    () =>
      inParallel(ops, CALLERS, async (task, caller) => {
        const outcome = await peer.query(caller, task);
        totals.found += outcome.found;
        totals.retries += outcome.retries;
      }),
    { admin },
  );
  const stats = await admin.info('commandstats');
  const stat = new RegExp(`^cmdstat_${peer.statCommand}:calls=(\\d+),usec=(\\d+)`, 'm').exec(stats);
  return { ...sample, ...totals, statCalls: Number(stat?.[1] ?? 0), statUsec: Number(stat?.[2] ?? 0) };
}

/** A peer's measured rounds: per query over all of them, and per round for medians and ratios. */
interface Summary {
  label: string;
  statCommand: string;
  found: number;
  trips: number;
  retries: number;
  executed: number;
  cpuMicros: number;
  statUsecPerCall: number;
  rates: number[];
  cpuPerRound: number[];
}

/** One warm-up round per peer (a quarter of its queries), then ROUNDS rounds, peers taking turns. */
async function alternatePeers(title: string, peers: Peer[], admin: Redis, steps: Steps): Promise<Summary[]> {
  console.log(`${title}: ${peers.map((p) => `${p.label} ${p.ops}`).join(', ')} queries per round; ${CALLERS} callers`);
  const { measured } = await alternate({
    peers: peers.map((p) => p.label),
    rounds: ROUNDS,
    quiet: true,
    steps,
    label: title.trim(),
    async run(label, at) {
      const peer = peers.find((p) => p.label === label)!;
      const r = await round(peer, admin, at.size(peer.ops));
      const retries = r.retries ? `, ${(r.retries / r.ops).toFixed(2)} WATCH retries/query` : '';
      const cpu = `redis CPU ${((r.redisCpu * 1e6) / r.ops).toFixed(1)} µs/query`;
      if (!at.warm) console.log(`    ${label.padEnd(22)} ${r.rate.toFixed(0).padStart(7)}/s  ${cpu}${retries}`);
      return r;
    },
  });
  return peers.map(({ label, statCommand = '' }) => {
    const rounds = measured[label];
    const per = (pick: (r: RoundResult) => number): number => sumOf(rounds, pick) / sumOf(rounds, (r) => r.ops);
    return {
      label,
      statCommand,
      found: per((r) => r.found),
      trips: perOp(rounds),
      retries: per((r) => r.retries),
      executed: per((r) => r.executed),
      cpuMicros: per((r) => r.redisCpu) * 1e6,
      statUsecPerCall:
        sumOf(rounds, (r) => r.statUsec) /
        Math.max(
          1,
          sumOf(rounds, (r) => r.statCalls),
        ),
      rates: rates(rounds),
      cpuPerRound: rounds.map((r) => (r.redisCpu * 1e6) / r.ops),
    };
  });
}

const fixed = (value: number, digits = 2): string => value.toFixed(digits);
const count = (n: number): string => n.toLocaleString('en-US');
const rate = (s: Summary): number => median(s.rates);

/** Redis memory taken by `fill`: used_memory growth, MEMORY USAGE of each key, the first key's encoding. */
async function memoryOf(redis: Redis, keys: string[], fill: () => Promise<unknown>) {
  const before = await usedMemory(redis);
  const t0 = performance.now();
  await fill();
  const seconds = (performance.now() - t0) / 1000;
  const used = (await usedMemory(redis)) - before;
  const sizes: number[] = [];
  for (const key of keys) sizes.push(await keyBytes(redis, key));
  return { used, sizes, seconds, encoding: String(await redis.object('ENCODING', keys[0])) };
}

// --- sections 1 and 3: guilds ------------------------------------------------------------------

interface Connections {
  /** db 0, ours: the one command connection, scripts defined. */
  ours: Redis;
  /** db 1, the book's, for loading and reading; and one per book caller, for WATCH. */
  book: Redis;
  bookCallers: Redis[];
}

/** ZADDs of LOAD_BATCH members, 8 in flight (the progress bar shows the load as one step). */
async function loadZset(redis: Redis, key: string, members: string[], label: string): Promise<void> {
  await inParallel(Math.ceil(members.length / LOAD_BATCH), 8, async (batch) => {
    const slice = members.slice(batch * LOAD_BATCH, (batch + 1) * LOAD_BATCH);
    await redis.zadd(key, ...slice.flatMap((member) => [0, member]));
  });
  const loaded = await redis.zcard(key);
  if (loaded !== members.length) throw new Error(`${label}: ${loaded} members loaded, expected ${members.length}`);
}

interface MemoryRow {
  size: number;
  names: string;
  layout: string;
  entryBytes: number;
  perMember: number;
  usedPerMember: number;
  encoding: string;
}

/** Loads a layout into a zset and measures it; the zset stays for the caller to use and drop. */
async function measureZset(redis: Redis, key: string, entries: string[], names: string, layout: string) {
  const m = await memoryOf(redis, [key], () => loadZset(redis, key, entries, `${names} names, ${layout}`));
  const [size, perEntry] = [entries.length, (n: number) => n / entries.length];
  const entryBytes = perEntry(sumOf(entries, utf8));
  return {
    size,
    names,
    layout,
    entryBytes,
    perMember: perEntry(m.sizes[0]),
    usedPerMember: perEntry(m.used),
    encoding: m.encoding,
  };
}

/** Section 3 (a): the same mixed names in both layouts. */
async function mixedNameMemory(connections: Connections, size: number): Promise<MemoryRow[]> {
  const names = uniqueNames(size, mixedName, SEED + size + 1);
  const key = guildKeys.members(`bench-mixed-${size}`);
  const changed = names.filter((name) => guildEntry(name) !== name).length;
  const share = ((100 * changed) / size).toFixed(1);
  console.log(`  ${count(size)} mixed names: case folding changes ${share}% of them (stored twice by ours)`);
  const rows = [
    await measureZset(connections.ours, key, names.map(guildEntry), 'mixed', 'ours (guildEntry)'),
    await measureZset(connections.book, key, names, 'mixed', 'book (plain name)'),
  ];
  await Promise.all([connections.ours.del(key), connections.book.del(key)]);
  return rows;
}

function guildPeers(connections: Connections, guild: string, names: string[], prefixes: string[]): Peer[] {
  const guilds = new GuildRepository(connections.ours, { maxGuildMembers: names.length * 2, maxGuildsPerUser: 1 });
  const prefixOf = (task: number): string => prefixes[task % prefixes.length];
  const ours = (label: string, asMember?: (task: number) => string): Peer => ({
    label,
    ops: GUILD_OPS,
    query: async (_, task) => ({
      found: (await guilds.search(guild, prefixOf(task), LIMIT, asMember?.(task))).length,
      retries: 0,
    }),
  });
  const book = (caller: number, task: number) =>
    bookAutocompleteOnPrefix(connections.bookCallers[caller], guildKeys.members(guild), prefixOf(task));
  return [
    ours('ours (service)'),
    ours('ours (asMember)', (task) => names[(task * 7919) % names.length]),
    { label: 'book', ops: GUILD_BOOK_OPS, query: async (caller, task) => (await book(caller, task)).outcome },
  ];
}

/** Before timing anything: both must return the same members for the same prefixes. */
async function checkGuildAgreement(connections: Connections, guild: string, prefixes: string[]): Promise<void> {
  const guilds = new GuildRepository(connections.ours, { maxGuildMembers: 1, maxGuildsPerUser: 1 });
  const sample = prefixes.slice(0, 200);
  let agreed = 0;
  for (const prefix of sample) {
    const ours = await guilds.search(guild, prefix, LIMIT);
    const book = await bookAutocompleteOnPrefix(connections.bookCallers[0], guildKeys.members(guild), prefix);
    if (ours.join('\n') === book.items.join('\n')) agreed++;
  }
  console.log(`  results agree on ${agreed}/${sample.length} prefixes (run one at a time)`);
  if (agreed !== sample.length) throw new Error('ours and the book disagree on a guild prefix search');
}

/** Sections 1 and 3 (b) for one size: one lower-case zset per layout, identical content. */
async function lowercaseGuild(connections: Connections, size: number, admin: Redis, steps: Steps) {
  const names = uniqueNames(size, lowercaseName, SEED + size);
  if (names.some((name) => guildEntry(name) !== name)) throw new Error('a lower-case name has an entry of its own');
  const guild = `bench-lower-${size}`;
  const key = guildKeys.members(guild);
  const memory = [
    await measureZset(connections.ours, key, names, 'a-z', 'ours (guildEntry)'),
    await measureZset(connections.book, key, names, 'a-z', 'book (plain name)'),
  ];
  // 1-3 letter prefixes cut from member names, as someone typing a member's name would start.
  const random = seeded(SEED + size + 2);
  const prefixes = Array.from({ length: 10_000 }, () => pick(random, names).slice(0, between(random, 1, 3)));
  await checkGuildAgreement(connections, guild, prefixes);
  const peers = guildPeers(connections, guild, names, prefixes);
  const speed = await alternatePeers(`  guild of ${count(size)}`, peers, admin, steps);
  await Promise.all([connections.ours.del(key), connections.book.del(key)]);
  return { memory, speed };
}

function printGuildSpeed(report: SuiteReport, results: Map<number, Summary[]>): void {
  const rows = [...results].flatMap(([size, summaries]) => {
    const book = summaries.find((s) => s.label === 'book')!;
    return summaries.map((s) => ({ size, s, book: s === book ? undefined : book }));
  });
  tableOf(
    report,
    `1. Guild prefix queries, limit ${LIMIT}, ${CALLERS} concurrent callers (medians of ${ROUNDS} rounds, per-query figures over all rounds)`,
    2,
    rows,
    [
      ['members', (r) => count(r.size)],
      ['peer', (r) => r.s.label],
      ['queries/s (min-max)', (r) => medianRange(r.s.rates)],
      ['ours/book', (r) => (r.book ? fixed(rate(r.s) / rate(r.book)) : '')],
      ['redis cmds/q', (r) => fixed(r.s.executed)],
      ['round trips/q', (r) => fixed(r.s.trips)],
      ['WATCH retries/q', (r) => fixed(r.s.retries, 3)],
      ['redis CPU µs/q', (r) => fixed(r.s.cpuMicros, 1)],
      ['book CPU/ours', (r) => (r.book ? fixed(r.book.cpuMicros / r.s.cpuMicros) : '')],
      ['results/q', (r) => fixed(r.s.found)],
    ],
  );
  report.note(
    'Guild search: ours is one EVALSHA (ZRANGEBYLEX, + ZSCORE with asMember) on one shared connection; the book ZADDs two markers, then per attempt WATCH, ZRANK, ZRANK, ' +
      'MULTI/ZREM/ZRANGE/EXEC, one connection per caller; round trips are counted as the clients sent them.',
  );
  report.note(
    'results/q: members returned; below 10 where a prefix matches fewer, and a little lower for the book, whose ZRANGE of 10 ranks also ' +
      "takes other callers' markers, which it then filters out.",
  );
}

function printGuildMemory(report: SuiteReport, rows: MemoryRow[]): void {
  // Rows come in pairs, ours then the book's.
  tableOf(
    report,
    '3. Memory per guild member (MEMORY USAGE key SAMPLES 0 / members; used_memory growth while loading / members)',
    3,
    rows.map((row, i) => ({ row, i })),
    [
      ['members, names', ({ row }) => `${count(row.size)} ${row.names}`],
      ['layout', ({ row }) => row.layout],
      ['encoding', ({ row }) => row.encoding],
      ['entry bytes', ({ row }) => fixed(row.entryBytes, 1)],
      ['bytes/member', ({ row }) => fixed(row.perMember, 1)],
      ['used_memory/member', ({ row }) => fixed(row.usedPerMember, 1)],
      ['ours/book', ({ row, i }) => (i % 2 ? '' : fixed(row.perMember / rows[i + 1].perMember))],
    ],
  );
}

// --- sections 2 and 4: recent contacts ---------------------------------------------------------

/**
 * One user's adds, oldest first: mostly new names, one in five a repeat that moves an earlier
 * name back to the front, until 110 different names were added (the list ends full, trimmed).
 */
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

interface ContactsMemory {
  label: string;
  encoding: string;
  perUser: number;
  min: number;
  max: number;
  usedPerUser: number;
  /** Adds per second while filling: one pass, informative only. */
  fillRate: number;
}

/** Each user's adds in order, users 50 at a time, then what the lists take. */
async function measureContacts(
  redis: Redis,
  label: string,
  plan: string[][],
  add: (user: string, contact: string) => Promise<unknown>,
) {
  const fill = () =>
    inParallel(plan.length, 50, async (user) => {
      for (const contact of plan[user]) await add(contactUser(user), contact);
    });
  const m = await memoryOf(
    redis,
    plan.map((_, user) => contactsKey(user)),
    fill,
  );
  const perUser = sumOf(m.sizes, (s) => s) / m.sizes.length;
  const [min, max, usedPerUser] = [Math.min(...m.sizes), Math.max(...m.sizes), m.used / plan.length];
  return { label, encoding: m.encoding, perUser, min, max, usedPerUser, fillRate: plan.flat().length / m.seconds };
}

async function contactsMemory(connections: Connections, plan: string[][]): Promise<ContactsMemory[]> {
  const contacts = new ContactsRepository(connections.ours, { maxContacts: MAX_CONTACTS });
  const adds = plan.flat().length;
  console.log(
    `recent contacts: ${count(plan.length)} users, ${count(adds)} adds (${(adds / plan.length).toFixed(0)} per user)`,
  );
  const rows = [
    await measureContacts(connections.ours, 'ours (string)', plan, (user, contact) => contacts.add(user, contact)),
    await measureContacts(connections.book, 'book (list)', plan, (user, contact) =>
      bookAddUpdateContact(connections.book, userKeys.contacts(user), contact),
    ),
  ];
  // Both stores must hold the same 100 names in the same order for every user.
  for (let user = 0; user < plan.length; user++) {
    const ours = await contacts.all(contactUser(user));
    const theirs = await connections.book.lrange(contactsKey(user), 0, -1);
    if (ours.length !== MAX_CONTACTS || ours.join('\n') !== theirs.join('\n'))
      throw new Error(`contacts of ${contactUser(user)} differ`);
  }
  console.log(
    `  both stores hold the same ${MAX_CONTACTS} names in the same order for all ${count(plan.length)} users`,
  );
  return rows;
}

function printContactsMemory(report: SuiteReport, rows: ContactsMemory[], names: string[][]): void {
  const [ours, book] = rows as [ContactsMemory, ContactsMemory];
  const nameBytes = sumOf(names.flat(), utf8) / names.length;
  tableOf(
    report,
    `2. Memory per user of a full ${MAX_CONTACTS}-entry recent-contacts list (${count(names.length)} users; the names themselves: ${nameBytes.toFixed(0)} bytes per user)`,
    2,
    rows,
    [
      ['layout', (r) => r.label],
      ['encoding', (r) => r.encoding],
      ['MEMORY USAGE bytes/user (min-max)', (r) => `${r.perUser.toFixed(0)} (${r.min}-${r.max})`],
      ['used_memory/user', (r) => r.usedPerUser.toFixed(0)],
      ['ours/book', (r) => (r === ours ? fixed(ours.perUser / book.perUser) : '')],
      ['fill adds/s (one pass)', (r) => r.fillRate.toFixed(0)],
    ],
  );
}

function filterPeers(connections: Connections, lists: string[][]): Peer[] {
  const contacts = new ContactsRepository(connections.ours, { maxContacts: MAX_CONTACTS });
  const filter = defineFilterScript(connections.ours);
  // A user and what they typed: the first 1-2 characters of one of their contacts, lower-cased.
  const random = seeded(SEED + 4);
  const tasks = Array.from({ length: 10_000 }, () => {
    const user = below(random, lists.length);
    const typed = [...pick(random, lists[user])].slice(0, between(random, 1, 2));
    return { user: contactUser(user), key: contactsKey(user), prefix: typed.join('').toLowerCase() };
  });
  type Task = (typeof tasks)[number];
  const peer = (label: string, statCommand: string, run: (t: Task) => Promise<string[]>): Peer => ({
    label,
    statCommand,
    ops: FILTER_OPS,
    query: async (_, n) => ({ found: (await run(tasks[n % tasks.length])).length, retries: 0 }),
  });
  return [
    peer('ours: GET + foldCase', 'get', (t) => contacts.find(t.user, t.prefix, LIMIT)),
    peer('Lua filter (ASCII)', 'evalsha', (t) => filter(t.key, t.prefix, LIMIT)),
    peer('book: LRANGE + filter', 'lrange', (t) => bookFetchAutocompleteList(connections.book, t.key, t.prefix)),
  ];
}

function printFiltering(report: SuiteReport, summaries: Summary[]): void {
  const [ours, lua] = summaries as [Summary, Summary];
  tableOf(
    report,
    `4. Recent-contacts prefix filtering, ${CALLERS} callers on one connection each way (medians of ${ROUNDS} rounds)`,
    1,
    summaries,
    [
      ['way', (s) => s.label],
      ['calls/s (min-max)', (s) => medianRange(s.rates)],
      ['ours/this', (s) => (s === ours ? '' : fixed(rate(ours) / rate(s)))],
      ['command', (s) => s.statCommand],
      ['usec_per_call', (s) => fixed(s.statUsecPerCall)],
      ['redis CPU µs/call', (s) => fixed(s.cpuMicros, 1)],
      ['matches/call', (s) => fixed(s.found)],
    ],
  );
  report.note(
    'Filtering: usec_per_call is INFO commandstats for the command alone (for evalsha the whole script); redis CPU is the server process, parsing and replies included.',
  );
  report.note(
    `Filtering: matches/call: the Lua filter finds fewer where a name starts with a non-ASCII capital (É, Ж) that string.lower cannot fold.`,
  );
  report.note(conclusion(ours, lua));
}

/** The decision, from this run's numbers: which way costs Redis, the shared resource, less CPU. */
function conclusion(ours: Summary, lua: Summary): string {
  const stat = lua.statUsecPerCall / ours.statUsecPerCall;
  const whole = lua.cpuMicros / ours.cpuMicros;
  const verdict = stat > 1 ? 'keep filtering in Node' : 'filter in Redis';
  const agreement = stat > 1 === whole > 1 ? 'same verdict' : 'the opposite verdict';
  const times = fixed(rate(ours) / rate(lua));
  const speed =
    rate(ours) >= rate(lua)
      ? `ours also serves ${times}x the calls/s`
      : `ours serves only ${times}x the Lua filter's calls/s here, held back by foldCase in Node on the same cores ` +
        '(Node CPU grows with more API processes; Redis has one thread for everyone)';
  return (
    `conclusion: ${verdict}. Per call the Lua filter costs Redis ${fixed(lua.statUsecPerCall)} µs against GET's ${fixed(ours.statUsecPerCall)} ` +
    `(${fixed(stat)}x, commandstats), and ${fixed(lua.cpuMicros, 1)} against ${fixed(ours.cpuMicros, 1)} µs of whole-server CPU ` +
    `(${fixed(whole)}x, ${agreement}), with ASCII-only folding; ${speed}.`
  );
}

// --- figures -----------------------------------------------------------------------------------

/** The claims of src/redis/contacts.ts and guild.ts, and the ratios against the book, as figures. */
function figures(
  report: SuiteReport,
  speeds: Map<number, Summary[]>,
  contacts: ContactsMemory[],
  memory: MemoryRow[],
  filtering: Summary[],
): void {
  for (const [size, summaries] of speeds) {
    const [service, asMember, book] = summaries as [Summary, Summary, Summary];
    const [id, guild] = [`autocomplete.guild${size}`, `guild of ${count(size)}`];
    report.ratio(`${id}.ours_vs_book`, `${guild}: prefix search, ours / book (queries/s)`, service.rates, book.rates);
    const asMemberLabel = `${guild}: prefix search as a member, ours / book (queries/s)`;
    report.ratio(`${id}.as_member_vs_book`, asMemberLabel, asMember.rates, book.rates);
    const cpuLabel = `${guild}: Redis CPU per query, book / ours`;
    report.ratio(`${id}.book_cpu_vs_ours`, cpuLabel, book.cpuPerRound, service.cpuPerRound);
    const trips = (who: string): string => `${guild}: ${who}, round trips per query`;
    report.value(`${id}.ours_round_trips`, trips('ours'), 'round trips', service.trips, { op: '<=', value: 1 });
    report.value(`${id}.book_round_trips`, trips('book'), 'round trips', book.trips);
  }
  const [ours, book] = contacts as [ContactsMemory, ContactsMemory];
  const bytesLabel = `recent contacts: ours, bytes per user of ${MAX_CONTACTS} names`;
  report.value('autocomplete.contacts.ours_bytes_per_user', bytesLabel, 'bytes', ours.perUser);
  // src/redis/contacts.ts chose a string over the book's list because it costs less memory per user.
  const memoryLabel = 'recent contacts: memory per user, ours / book';
  const perUser = ours.perUser / book.perUser;
  report.value('autocomplete.contacts.memory_ours_vs_book', memoryLabel, 'x', perUser, { op: '<=', value: 1 });
  for (let i = 0; i < memory.length; i += 2) {
    const [mine, theirs] = [memory[i], memory[i + 1]];
    if (mine.names !== 'mixed') continue;
    const label = `guild of ${count(mine.size)} mixed names: memory per member, ours / book`;
    report.value(`autocomplete.guild${mine.size}.memory_ours_vs_book`, label, 'x', mine.perMember / theirs.perMember);
  }
  const [node, lua] = filtering as [Summary, Summary];
  // src/redis/contacts.ts filters in Node because a GET costs Redis less than filtering in a script.
  const cpu = 'contacts prefix filter: Redis CPU per call, Lua filter / GET (ours)';
  const atLeastOne = { op: '>=', value: 1 } as const;
  report.ratio('autocomplete.filter.lua_vs_get_redis_cpu', cpu, lua.cpuPerRound, node.cpuPerRound, atLeastOne);
  const speed = 'contacts prefix filter: ours (GET + foldCase) / Lua filter (calls/s)';
  report.ratio('autocomplete.filter.ours_vs_lua', speed, node.rates, lua.rates);
}

/** Loading a guild of `size` members twice, counted in rounds of a speed test for the progress bar. */
const loadWeight = (size: number): number => Math.max(1, size / 100_000);

bench(
  { id: 'autocomplete', title: "Autocomplete (book 6.1): guild prefix search and recent contacts, against the book's" },
  async ({ admin, connect, report, steps: progress }) => {
    const connections: Connections = {
      ours: connect(),
      book: connect({ db: BOOK_DB }),
      bookCallers: Array.from({ length: CALLERS }, () => connect({ db: BOOK_DB })),
    };
    await Promise.all([connections.ours, connections.book, ...connections.bookCallers].map((client) => client.ping()));
    const started = performance.now();
    const loads = sumOf(GUILD_SIZES, loadWeight);
    const steps = progress(1 + stepsOf(3, ROUNDS, 'once') * (1 + GUILD_SIZES.length) + loads);
    console.log(
      `autocomplete benchmark: ours against the book's (section 6.1), same redis-server, ${CALLERS} concurrent callers, ` +
        `1 warm-up + ${ROUNDS} measured rounds per peer, alternating; the book's keys in db ${BOOK_DB} under our key names.`,
    );
    steps.step('recent contacts: memory');
    const pool = uniqueNames(CONTACT_POOL, mixedName, SEED + 3);
    const random = seeded(SEED + 5);
    const plan = Array.from({ length: CONTACT_USERS }, () => contactAdds(random, pool));
    const contactsRows = await contactsMemory(connections, plan);
    const contacts = new ContactsRepository(connections.ours, { maxContacts: MAX_CONTACTS });
    const lists = await Promise.all(plan.map((_, user) => contacts.all(contactUser(user))));
    const filtering = await alternatePeers('contacts prefix filtering', filterPeers(connections, lists), admin, steps);

    const speeds = new Map<number, Summary[]>();
    const memory: MemoryRow[] = [];
    for (const size of GUILD_SIZES) {
      console.log(`guild of ${count(size)} members`);
      steps.step(`guild of ${count(size)}: loading`, loadWeight(size));
      const lower = await lowercaseGuild(connections, size, admin, steps);
      speeds.set(size, lower.speed);
      memory.push(...(await mixedNameMemory(connections, size)), ...lower.memory);
    }

    console.log(`\nautocomplete summary (${((performance.now() - started) / 1000).toFixed(1)} s):`);
    printGuildSpeed(report, speeds);
    printContactsMemory(report, contactsRows, lists);
    printGuildMemory(report, memory);
    printFiltering(report, filtering);
    figures(report, speeds, contactsRows, memory, filtering);
  },
);
