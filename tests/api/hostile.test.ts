// Hostile clients against every entry point (issue 8): document limits over HTTP and WebSocket
// alike, production hiding the schema, bounded arguments generated from schema.graphql,
// WebSocket protocol abuse, HTTP transport abuse, rate limits and bad domain input. Each refusal
// is checked for its exact code and for Redis being exactly as it was before.
import fs from 'node:fs';
import path from 'node:path';
import {
  buildSchema,
  getNamedType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLFormattedError,
  type GraphQLObjectType,
} from 'graphql';
import jwt from 'jsonwebtoken';
import { serverForThisFile } from '../support/fixture';
import {
  expectNothingStored,
  expectRefused,
  ok,
  overHttp,
  overWs,
  postBody,
  send,
  TRANSPORTS,
  type Caller,
  type Variables,
} from '../support/hostile';
import { closeRawSockets, handshakeStatus, rawSocket, type Frame, type RawSocket } from '../support/raw-ws';
import { TEST_SECRET, type TestServer } from '../support/server';
import { snapshotRedis } from '../support/snapshot';
import { setTimeout as sleep } from 'node:timers/promises';

const ALLOWED_ORIGIN = 'https://app.example.com';
const WS_MAX_OPERATIONS = 3;
const MEGABYTE = 1024 * 1024;

/** A little of everything, so a refused request that wrote, took or deleted anything shows. */
const SEED: [string, Caller][] = [
  ['mutation { addRecentContact(contact: "bob") }', 'user'],
  ['mutation { sendDirectMessage(to: "alice", message: "hi alice") { id } }', 'other'],
  ['mutation { createChat(members: ["alice"], message: "hello") { id } }', 'other'],
  ['mutation { joinGuild(guild: "guild1") }', 'user'],
  ['mutation { updateCounter(name: "hits", count: 3) }', 'service'],
  [
    'mutation { enqueueTask(queue: "q", name: "t", args: { a: 1 }, idempotencyKey: "k1", delayMs: 60000) { id } }',
    'service',
  ],
  ['mutation { grantFunds(userId: "alice", amount: 100) }', 'service'],
  ['mutation { grantItem(userId: "alice", itemId: "sword") }', 'service'],
  ['mutation { grantItem(userId: "bob", itemId: "shield") }', 'service'],
  ['mutation { listItem(itemId: "shield", price: 50) }', 'other'],
  ['mutation { acquireLock(name: "l1", lockTimeoutMs: 600000) { token } }', 'service'],
  ['mutation { acquireSemaphore(name: "s1", limit: 2, timeoutMs: 600000) { id } }', 'service'],
  ['mutation { scheduleRowCache(rowId: "7", delaySeconds: 60) }', 'service'],
];

async function seed(api: TestServer): Promise<void> {
  for (const [query, caller] of SEED) await ok(api, query, {}, caller);
}

afterEach(() => closeRawSockets());

// ---------------------------------------------------------------------------------------------
// The development server (the one most tests use): document limits, bad input, protocol abuse.
// The refresher daemon is off: it is a background worker, not an entry point, and would only
// add writes of its own between two snapshots.
// ---------------------------------------------------------------------------------------------
describe('a development server', () => {
  const fixture = serverForThisFile({
    ROW_CACHE: 'off',
    ALLOWED_ORIGINS: ALLOWED_ORIGIN,
    WS_INIT_TIMEOUT_MS: '300',
    WS_MAX_OPERATIONS: String(WS_MAX_OPERATIONS),
  });
  let api: TestServer;
  beforeAll(() => {
    api = fixture.api;
  });
  beforeEach(async () => {
    await seed(api);
  });

  it('seeds data of every kind, so that a change to it would show', async () => {
    const snapshot = await snapshotRedis(api.redis.client);
    expect(snapshot.size).toBe(snapshot.keys.length);
    expect(snapshot.size).toBeGreaterThan(20);
    expect(new Set(snapshot.keys.map((k) => k.type))).toEqual(new Set(['string', 'hash', 'list', 'zset', 'set']));
  });

  describe.each(TRANSPORTS)('document limits over %s', (transport) => {
    const inline = (levels: number, inner: string, type: string) =>
      `${`... on ${type} { `.repeat(levels)}${inner}${' }'.repeat(levels)}`;
    const aliases = (count: number) =>
      Array.from({ length: count }, (_, i) => `a${i}: addRecentContact(contact: "mallory${i}")`).join(' ');
    const spreads = (name: string, count: number) => Array(count).fill(`...${name}`).join(' ');

    const argsList = (count: number) => Array.from({ length: count }, (_, i) => i).join(', ');
    // 19 tokens around the list, one per number: 981 numbers make exactly 1000 tokens.
    const tokens = (total: number) =>
      `mutation { enqueueTask(queue: "tokens", name: "t", args: [${argsList(total - 19)}]) { id } }`;

    // [what, expected code, document, message, caller]
    const refused: [string, string, string, RegExp, Caller][] = [
      // sendDirectMessage (1) + 18 inline fragments + id (1)
      [
        'a mutation 20 levels deep',
        'GRAPHQL_VALIDATION_FAILED',
        `mutation { sendDirectMessage(to: "bob", message: "deep") { ${inline(18, 'id', 'DirectMessage')} } }`,
        /depth limit of 8 exceeded, found 20/,
        'user',
      ],
      [
        'a mutation one level deeper than GRAPHQL_MAX_DEPTH (9)',
        'GRAPHQL_VALIDATION_FAILED',
        `mutation { sendDirectMessage(to: "bob", message: "deep") { ${inline(7, 'id', 'DirectMessage')} } }`,
        /depth limit of 8 exceeded, found 9/,
        'user',
      ],
      [
        '16 aliases of a mutation',
        'GRAPHQL_VALIDATION_FAILED',
        `mutation { ${aliases(16)} }`,
        /Aliases limit of 15 exceeded, found 16/,
        'user',
      ],
      [
        '500 aliases of a mutation (over the token limit first)',
        'GRAPHQL_PARSE_FAILED',
        `mutation { ${aliases(500)} }`,
        /token/i,
        'user',
      ],
      [
        '11 directives',
        'GRAPHQL_VALIDATION_FAILED',
        `mutation { ${Array(11).fill('... @include(if: true) { addRecentContact(contact: "mallory") }').join(' ')} }`,
        /Directives limit of 10 exceeded, found 11/,
        'user',
      ],
      [
        '1,000 repeated directives (over the token limit first)',
        'GRAPHQL_PARSE_FAILED',
        `mutation { addRecentContact(contact: "mallory") ${'@skip(if: false) '.repeat(1000)}}`,
        /token/i,
        'user',
      ],
      [
        'a page size that costs 15,000',
        'GRAPHQL_VALIDATION_FAILED',
        '{ market(first: 3000) { itemId sellerId } }',
        /Cost limit of 10000 exceeded/,
        'user',
      ],
      [
        'fragments that multiply the cost to ~12,000 within the depth limit',
        'GRAPHQL_VALIDATION_FAILED',
        `query { me { ...A2 } } fragment A2 on Account { ${spreads('A1', 12)} } fragment A1 on Account { ${spreads('A0', 12)} } fragment A0 on Account { funds items userId }`,
        /Cost limit of 10000 exceeded/,
        'user',
      ],
      [
        'a mutation of 1001 tokens, one over GRAPHQL_MAX_TOKENS',
        'GRAPHQL_PARSE_FAILED',
        tokens(1001),
        /token/i,
        'service',
      ],
      [
        'one field repeated 990 times',
        'GRAPHQL_VALIDATION_FAILED',
        `{ me { ${'funds '.repeat(990)}} }`,
        /Validation aborted/,
        'user',
      ],
      [
        'a document that does not parse',
        'GRAPHQL_PARSE_FAILED',
        'mutation { addRecentContact(contact: "mallory") ',
        /Syntax Error/,
        'user',
      ],
    ];

    it.each(refused)('refuses %s with %s', async (_what, code, query, message, caller) => {
      const outcome = await expectNothingStored(
        api,
        () => send(fixture, transport, query, undefined, caller),
        transport === 'ws' ? 50 : 0,
      );
      // A document may break more than one limit (20 levels also cost more than the cost limit): every error
      // has the code, and one of them names the limit.
      expect(outcome.codes.length).toBeGreaterThan(0);
      expect(outcome.codes).toEqual(outcome.codes.map(() => code));
      expect(outcome.errors.map((e) => e.message)).toContainEqual(expect.stringMatching(message));
      if (transport === 'http') expect(outcome.status).toBe(400);
    });

    const accepted: [string, string, Caller][] = [
      ['a query exactly GRAPHQL_MAX_DEPTH (8) deep', `{ me { ${inline(6, 'funds', 'Account')} } }`, 'user'],
      ['15 aliases', `{ ${Array.from({ length: 15 }, (_, i) => `a${i}: me { funds }`).join(' ')} }`, 'user'],
      ['10 directives', `{ ${Array(10).fill('... @include(if: true) { me { funds } }').join(' ')} }`, 'user'],
      ['a mutation of exactly GRAPHQL_MAX_TOKENS (1000) tokens', tokens(1000), 'service'],
    ];

    it.each(accepted)('accepts %s', async (_what, query, caller) => {
      const outcome = await send(fixture, transport, query, undefined, caller);
      expect(outcome.codes).toEqual([]);
      expect(outcome.data).toBeTruthy();
    });

    it('shows the "Did you mean" suggestion outside production (so the production test can fail)', async () => {
      const outcome = await send(fixture, transport, '{ mee { funds } }');
      expectRefused(outcome, 'GRAPHQL_VALIDATION_FAILED');
      expect(outcome.errors[0].message).toMatch(/Did you mean "me"\?/);
    });
  });

  describe('bounded size arguments, generated from schema.graphql', () => {
    // Every Int argument of a root field whose name says how many to return or hold.
    const SIZE_ARGUMENT = /^(limit|first|last|count|take|top|size|pageSize)$/;
    // Not a size: an increment, which may be negative; its bounds are among the domain cases.
    const NOT_A_SIZE = new Set(['Mutation.updateCounter.count']);
    // Fields only service callers may use; everything else is called as a signed-in user.
    const SERVICE_ONLY = new Set(['Mutation.acquireSemaphore', 'Query.rowCacheSchedule', 'Query.tasks']);
    // Values for other required arguments, so that only the size can be wrong.
    const FILLERS: Record<string, string> = {
      precision: '60',
      chatId: '"1"',
      guild: '"guild1"',
      name: '"s1"',
      prefix: '""',
      dataset: '"d1"',
      from: '"2011-10-10"',
      country: '"US"',
      region: '""',
      queue: '"q1"',
      state: 'WAITING',
      // Where a name means something else on another field: `field.argument`.
      'counterSeriesMany.from': '0',
      step: '60',
    };

    const schema = buildSchema(fs.readFileSync(path.join(__dirname, '..', '..', 'schema.graphql'), 'utf8'));
    const roots = [schema.getQueryType(), schema.getMutationType()].filter(
      (type): type is GraphQLObjectType => type !== null && type !== undefined,
    );
    const sized: { root: GraphQLObjectType; field: GraphQLField<unknown, unknown>; argument: string }[] = [];
    for (const root of roots) {
      for (const field of Object.values(root.getFields())) {
        for (const argument of field.args) {
          const key = `${root.name}.${field.name}.${argument.name}`;
          if (getNamedType(argument.type).name === 'Int' && SIZE_ARGUMENT.test(argument.name) && !NOT_A_SIZE.has(key)) {
            sized.push({ root, field, argument: argument.name });
          }
        }
      }
    }

    const call = (
      root: GraphQLObjectType,
      field: GraphQLField<unknown, unknown>,
      argument: string,
      value: string,
    ): string => {
      const others = field.args
        .filter((a) => a.name !== argument && isNonNullType(a.type) && a.defaultValue === undefined)
        .map((a) => {
          const filler = FILLERS[`${field.name}.${a.name}`] ?? FILLERS[a.name];
          if (filler === undefined) throw new Error(`no filler for ${field.name}.${a.name}: add one to FILLERS`);
          return `${a.name}: ${filler}`;
        });
      const selection = isObjectType(getNamedType(field.type)) ? ' { __typename }' : '';
      const operation = root.name === 'Mutation' ? 'mutation' : 'query';
      const variable = value.startsWith('$') ? '($size: Int!)' : '';
      return `${operation}${variable} { ${field.name}(${[...others, `${argument}: ${value}`].join(', ')})${selection} }`;
    };

    it('finds every known page size and limit', () => {
      expect(sized.map(({ root, field, argument }) => `${root.name}.${field.name}.${argument}`)).toEqual(
        expect.arrayContaining([
          'Query.counter.limit',
          'Query.counters.first',
          'Query.directMessages.limit',
          'Query.guildMembers.limit',
          'Query.inventory.first',
          'Query.market.first',
          'Query.pendingMessages.limit',
          'Query.recentContacts.limit',
          'Query.rowCacheSchedule.first',
          'Mutation.acquireSemaphore.limit',
          'Mutation.fetchDirectMessages.limit',
          'Mutation.fetchPendingMessages.limit',
        ]),
      );
    });

    // graphql-armor's cost rule multiplies the cost of a field with a selection set by a literal
    // `first` or `last`, so there a huge literal page size is refused before the resolver sees it.
    const COSTED = new Set(['first', 'last']);
    // [literal or variable, its value, expected code, whether the resolver names the argument]
    const values = (field: GraphQLField<unknown, unknown>, argument: string): [string, unknown, string, boolean][] => [
      COSTED.has(argument) && isObjectType(getNamedType(field.type))
        ? ['99999999', undefined, 'GRAPHQL_VALIDATION_FAILED', false]
        : ['99999999', undefined, 'BAD_USER_INPUT', true],
      ['-1', undefined, 'BAD_USER_INPUT', true],
      ['1.5', undefined, 'GRAPHQL_VALIDATION_FAILED', false],
      ['$size', 1.5, 'BAD_USER_INPUT', false],
      ['$size', 99999999, 'BAD_USER_INPUT', true],
    ];
    const cases = sized.flatMap(({ root, field, argument }) =>
      TRANSPORTS.flatMap((transport) =>
        values(field, argument).map(([value, variable, code, named]) => ({
          title: `${root.name}.${field.name}(${argument}: ${variable === undefined ? value : `$size = ${variable}`}) over ${transport} → ${code}`,
          transport,
          query: call(root, field, argument, value),
          variables: variable === undefined ? undefined : { size: variable },
          caller: SERVICE_ONLY.has(`${root.name}.${field.name}`) ? ('service' as const) : ('user' as const),
          code,
          argument: named ? argument : undefined,
        })),
      ),
    );

    it.each(cases)('$title', async ({ transport, query, variables, caller, code, argument }) => {
      const outcome = await expectNothingStored(api, () => send(fixture, transport, query, variables, caller));
      expectRefused(outcome, code, argument);
    });
  });

  describe.each(TRANSPORTS)('bad domain input over %s', (transport) => {
    const long = (length: number) => 'n'.repeat(length);
    const cursor = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
    const DM = 'mutation($m: String!) { sendDirectMessage(to: "bob", message: $m) { id } }';
    const JOIN = 'mutation($g: String!) { joinGuild(guild: $g) }';
    const SCHEDULE = 'mutation($r: ID!, $d: Float!) { scheduleRowCache(rowId: $r, delaySeconds: $d) }';
    const ENQUEUE =
      'mutation($n: String, $a: JSON, $d: Int, $p: TaskPriority) { enqueueTask(queue: "q", name: "t", idempotencyKey: $n, args: $a, delayMs: $d, priority: $p) { id } }';
    const LOCK =
      'mutation($t: Int, $w: Int) { acquireLock(name: "l2", lockTimeoutMs: $t, acquireTimeoutMs: $w) { token } }';

    // [what, query, variables, caller, code, argument]
    const cases: [string, string, Variables | undefined, Caller, string, string | undefined][] = [
      // Text
      [
        'a chat message one character over MESSAGE_MAX_LENGTH (4000)',
        'mutation($m: String!) { sendMessage(chatId: "1", message: $m) { id } }',
        { m: 'x'.repeat(4001) },
        'user',
        'BAD_USER_INPUT',
        'message',
      ],
      ['a message holding NUL', DM, { m: 'hi\u0000there' }, 'user', 'BAD_USER_INPUT', 'message'],
      [
        'a message holding an ANSI escape sequence',
        DM,
        { m: 'hi \u001b[2J there' },
        'user',
        'BAD_USER_INPUT',
        'message',
      ],
      ['a message holding a C1 control (CSI)', DM, { m: 'hi \u009b31m there' }, 'user', 'BAD_USER_INPUT', 'message'],
      [
        'a message holding a right-to-left override',
        DM,
        { m: 'invoice\u202Efdp.exe' },
        'user',
        'BAD_USER_INPUT',
        'message',
      ],
      ['a message holding a lone surrogate', DM, { m: 'hi \ud800 there' }, 'user', 'BAD_USER_INPUT', 'message'],
      ['a message of zero-width spaces only', DM, { m: '\u200b\u200b \u200b' }, 'user', 'BAD_USER_INPUT', 'message'],
      [
        'a recipient holding a bidi override',
        'mutation($t: ID!) { sendDirectMessage(to: $t, message: "hi") { id } }',
        { t: 'bob\u202E' },
        'user',
        'BAD_USER_INPUT',
        'to',
      ],
      [
        'a chat member id holding NUL',
        'mutation($m: [ID!]!) { createChat(members: $m, message: "hi") { id } }',
        { m: ['bob\u0000'] },
        'user',
        'BAD_USER_INPUT',
        'members',
      ],
      [
        'a clientMessageId holding ":"',
        'mutation { sendMessage(chatId: "1", message: "hi", clientMessageId: "a:b") { id } }',
        undefined,
        'user',
        'BAD_USER_INPUT',
        'clientMessageId',
      ],
      // Names that would reach a key name
      ...[':', '{', '}', '*', '?', '['].map((char): [string, string, Variables, Caller, string, string] => [
        `a guild name holding "${char}"`,
        JOIN,
        { g: `guild${char}x` },
        'user',
        'BAD_USER_INPUT',
        'guild',
      ]),
      ['a guild name of 129 characters', JOIN, { g: long(129) }, 'user', 'BAD_USER_INPUT', 'guild'],
      ['a guild name holding a bidi isolate', JOIN, { g: 'guild\u2066' }, 'user', 'BAD_USER_INPUT', 'guild'],
      [
        'a counter name holding a hash tag',
        'mutation { updateCounter(name: "hits{x}") }',
        undefined,
        'service',
        'BAD_USER_INPUT',
        'name',
      ],
      [
        'a recent contact of 129 characters',
        'mutation($c: String!) { addRecentContact(contact: $c) }',
        { c: long(129) },
        'user',
        'BAD_USER_INPUT',
        'contact',
      ],
      [
        'a lock name holding "*"',
        'mutation { acquireLock(name: "l*") { token } }',
        undefined,
        'service',
        'BAD_USER_INPUT',
        'name',
      ],
      [
        'a queue name holding ":"',
        'mutation { enqueueTask(queue: "q:x", name: "t") { id } }',
        undefined,
        'service',
        'BAD_USER_INPUT',
        'queue',
      ],
      [
        'an item id holding "?"',
        'mutation { grantItem(userId: "alice", itemId: "sw?rd") }',
        undefined,
        'service',
        'BAD_USER_INPUT',
        'itemId',
      ],
      ['a row id holding NUL', SCHEDULE, { r: '7\u0000', d: 1 }, 'service', 'BAD_USER_INPUT', 'rowId'],
      ['a row id holding a bidi isolate', SCHEDULE, { r: '7\u2066', d: 1 }, 'service', 'BAD_USER_INPUT', 'rowId'],
      ['a row id of 129 characters', SCHEDULE, { r: '7'.repeat(129), d: 1 }, 'service', 'BAD_USER_INPUT', 'rowId'],
      [
        'a task id whose queue holds "{"',
        'mutation { cancelTask(id: "q{x}:1") }',
        undefined,
        'service',
        'BAD_USER_INPUT',
        'id',
      ],
      [
        'a chat id that is not a number',
        'mutation { joinChat(chatId: "1 OR 1=1") { id } }',
        undefined,
        'user',
        'BAD_USER_INPUT',
        'chatId',
      ],
      ['a negative chat id', 'mutation { leaveChat(chatId: "-1") }', undefined, 'user', 'BAD_USER_INPUT', 'chatId'],
      [
        'a prefix holding NUL',
        'query($p: String!) { recentContacts(prefix: $p) }',
        { p: 'b\u0000' },
        'user',
        'BAD_USER_INPUT',
        'prefix',
      ],
      [
        'a prefix holding a bidi override',
        'query($p: String!) { guildMembers(guild: "guild1", prefix: $p) }',
        { p: '\u202E' },
        'user',
        'BAD_USER_INPUT',
        'prefix',
      ],
      [
        'a prefix of 129 characters',
        'query($p: String!) { recentContacts(prefix: $p) }',
        { p: long(129) },
        'user',
        'BAD_USER_INPUT',
        'prefix',
      ],
      [
        'a forged market cursor whose item holds "{"',
        'query($a: String) { market(after: $a) { itemId } }',
        { a: cursor('50:a{b}:bob') },
        'user',
        'BAD_USER_INPUT',
        'after',
      ],
      [
        'a market cursor that is not base64 of a listing',
        'query { market(after: "*") { itemId } }',
        undefined,
        'user',
        'BAD_USER_INPUT',
        'after',
      ],
      // Numbers
      [
        'NaN as a Float literal',
        'mutation { scheduleRowCache(rowId: "7", delaySeconds: NaN) }',
        undefined,
        'service',
        'GRAPHQL_VALIDATION_FAILED',
        undefined,
      ],
      ['"Infinity" for a Float variable', SCHEDULE, { r: '7', d: 'Infinity' }, 'service', 'BAD_USER_INPUT', undefined],
      [
        '"NaN" for an Int variable',
        'mutation($a: Int!) { grantFunds(userId: "alice", amount: $a) }',
        { a: 'NaN' },
        'service',
        'BAD_USER_INPUT',
        undefined,
      ],
      [
        '1e308 seconds as a row cache delay',
        'mutation { scheduleRowCache(rowId: "7", delaySeconds: 1e308) }',
        undefined,
        'service',
        'BAD_USER_INPUT',
        'delaySeconds',
      ],
      [
        '1e309 (Infinity once parsed) as a row cache delay',
        'mutation { scheduleRowCache(rowId: "7", delaySeconds: 1e309) }',
        undefined,
        'service',
        'BAD_USER_INPUT',
        'delaySeconds',
      ],
      [
        '-1e308 seconds as a row cache delay',
        'mutation { scheduleRowCache(rowId: "7", delaySeconds: -1e308) }',
        undefined,
        'service',
        'BAD_USER_INPUT',
        'delaySeconds',
      ],
      [
        'a row cache delay below 0.05 s',
        'mutation { scheduleRowCache(rowId: "7", delaySeconds: 0.001) }',
        undefined,
        'service',
        'BAD_USER_INPUT',
        'delaySeconds',
      ],
      [
        '1e308 as a counter time',
        'mutation { updateCounter(name: "hits", at: 1e308) }',
        undefined,
        'service',
        'BAD_USER_INPUT',
        'at',
      ],
      [
        'a negative counter time',
        'mutation { updateCounter(name: "hits", at: -1) }',
        undefined,
        'service',
        'BAD_USER_INPUT',
        'at',
      ],
      [
        '1e308 as an Int literal',
        'mutation { grantFunds(userId: "alice", amount: 1e308) }',
        undefined,
        'service',
        'GRAPHQL_VALIDATION_FAILED',
        undefined,
      ],
      [
        '2^31 as an Int literal',
        'mutation { enqueueTask(queue: "q", name: "t", delayMs: 2147483648) { id } }',
        undefined,
        'service',
        'GRAPHQL_VALIDATION_FAILED',
        undefined,
      ],
      [
        'a counter increment of 99999999',
        'mutation { updateCounter(name: "hits", count: 99999999) }',
        undefined,
        'service',
        'BAD_USER_INPUT',
        'count',
      ],
      [
        'a counter increment of 0',
        'mutation { updateCounter(name: "hits", count: 0) }',
        undefined,
        'service',
        'BAD_USER_INPUT',
        'count',
      ],
      [
        'a negative listing price',
        'mutation { listItem(itemId: "sword", price: -1) }',
        undefined,
        'user',
        'BAD_USER_INPUT',
        'price',
      ],
      [
        'a purchase at a negative price',
        'mutation { purchaseItem(itemId: "shield", sellerId: "bob", price: -50) { outcome } }',
        undefined,
        'user',
        'BAD_USER_INPUT',
        'price',
      ],
      [
        'a grant of no funds',
        'mutation { grantFunds(userId: "alice", amount: 0) }',
        undefined,
        'service',
        'BAD_USER_INPUT',
        'amount',
      ],
      [
        'a negative seen-id',
        'mutation { markSeen(chatId: "1", messageId: -1) }',
        undefined,
        'user',
        'BAD_USER_INPUT',
        'messageId',
      ],
      [
        'a negative acknowledgement id',
        'mutation { ackDirectMessages(upToId: -1) }',
        undefined,
        'user',
        'BAD_USER_INPUT',
        'upToId',
      ],
      // Delays and timeouts
      ['a negative task delay', ENQUEUE, { d: -1 }, 'service', 'BAD_USER_INPUT', 'delayMs'],
      [
        'a task delay of 2^31-1 ms (beyond TASK_MAX_DELAY_MS)',
        ENQUEUE,
        { d: 2 ** 31 - 1 },
        'service',
        'BAD_USER_INPUT',
        'delayMs',
      ],
      [
        'a negative reschedule delay',
        'mutation { rescheduleTask(id: "q:1", delayMs: -1) { id } }',
        undefined,
        'service',
        'BAD_USER_INPUT',
        'delayMs',
      ],
      [
        'a huge reschedule delay',
        'mutation { rescheduleTask(id: "q:1", delayMs: 2147483647) { id } }',
        undefined,
        'service',
        'BAD_USER_INPUT',
        'delayMs',
      ],
      ['a negative lock timeout', LOCK, { t: -1 }, 'service', 'BAD_USER_INPUT', 'lockTimeoutMs'],
      ['a lock timeout of 0', LOCK, { t: 0 }, 'service', 'BAD_USER_INPUT', 'lockTimeoutMs'],
      ['a lock timeout of 2^31-1 ms', LOCK, { t: 2 ** 31 - 1 }, 'service', 'BAD_USER_INPUT', 'lockTimeoutMs'],
      ['a negative lock wait', LOCK, { w: -1 }, 'service', 'BAD_USER_INPUT', 'acquireTimeoutMs'],
      ['a lock wait of 2^31-1 ms', LOCK, { w: 2 ** 31 - 1 }, 'service', 'BAD_USER_INPUT', 'acquireTimeoutMs'],
      [
        'a negative semaphore wait',
        'mutation { acquireSemaphore(name: "s2", limit: 1, waitMs: -5) { id } }',
        undefined,
        'service',
        'BAD_USER_INPUT',
        'waitMs',
      ],
      [
        'a semaphore timeout of 2e9 ms',
        'mutation { acquireSemaphore(name: "s2", limit: 1, timeoutMs: 2000000000) { id } }',
        undefined,
        'service',
        'BAD_USER_INPUT',
        'timeoutMs',
      ],
      [
        'a negative lock refresh',
        'mutation { refreshLock(name: "l1", token: "00000000000000000000000000000000", lockTimeoutMs: -1) { token } }',
        undefined,
        'service',
        'BAD_USER_INPUT',
        'lockTimeoutMs',
      ],
      // A reused idempotency key (the seed enqueued k1 with args {a: 1}, NORMAL, 60000 ms)
      [
        'a reused idempotency key with other args',
        ENQUEUE,
        { n: 'k1', a: { a: 2 }, d: 60000 },
        'service',
        'CONFLICT',
        'idempotencyKey',
      ],
      [
        'a reused idempotency key with another delay',
        ENQUEUE,
        { n: 'k1', a: { a: 1 }, d: 5 },
        'service',
        'CONFLICT',
        'idempotencyKey',
      ],
      [
        'a reused idempotency key with another priority',
        ENQUEUE,
        { n: 'k1', a: { a: 1 }, d: 60000, p: 'HIGH' },
        'service',
        'CONFLICT',
        'idempotencyKey',
      ],
      [
        'task args nested 40 deep',
        ENQUEUE,
        { a: JSON.parse(`${'['.repeat(40)}${']'.repeat(40)}`) },
        'service',
        'BAD_USER_INPUT',
        'args',
      ],
      // Variables of the wrong type
      [
        'an object where a String is expected',
        'mutation($c: String!) { addRecentContact(contact: $c) }',
        { c: { $gt: '' } },
        'user',
        'BAD_USER_INPUT',
        undefined,
      ],
      [
        'a list where a String is expected',
        'mutation($c: String!) { addRecentContact(contact: $c) }',
        { c: ['bob', 'eve'] },
        'user',
        'BAD_USER_INPUT',
        undefined,
      ],
      [
        'a numeric string where an Int is expected',
        'mutation($l: Int) { fetchDirectMessages(limit: $l) { id } }',
        { l: '5' },
        'user',
        'BAD_USER_INPUT',
        undefined,
      ],
      [
        'a String variable in an Int position',
        'mutation($l: String) { fetchDirectMessages(limit: $l) { id } }',
        { l: '5' },
        'user',
        'GRAPHQL_VALIDATION_FAILED',
        undefined,
      ],
      [
        'a required variable left out',
        'mutation($c: String!) { addRecentContact(contact: $c) }',
        {},
        'user',
        'BAD_USER_INPUT',
        undefined,
      ],
      [
        'an explicit null for a non-null argument with a default',
        'query($l: Int) { recentContacts(limit: $l) }',
        { l: null },
        'user',
        'BAD_USER_INPUT',
        undefined,
      ],
      ['an unknown enum value', ENQUEUE, { p: 'URGENT' }, 'service', 'BAD_USER_INPUT', undefined],
      // Roles
      [
        'a user enqueueing a task',
        'mutation { enqueueTask(queue: "q", name: "t") { id } }',
        undefined,
        'user',
        'FORBIDDEN',
        undefined,
      ],
      [
        'a user joining someone else to a guild',
        'mutation { joinGuild(guild: "guild1", user: "bob") }',
        undefined,
        'user',
        'FORBIDDEN',
        undefined,
      ],
      [
        'a user granting funds',
        'mutation { grantFunds(userId: "alice", amount: 5) }',
        undefined,
        'user',
        'FORBIDDEN',
        undefined,
      ],
    ];

    it.each(cases)('refuses %s', async (_what, query, variables, caller, code, argument) => {
      const outcome = await expectNothingStored(api, () => send(fixture, transport, query, variables, caller));
      expectRefused(outcome, code, argument);
    });

    it('takes every range-syntax character in a guild prefix literally', async () => {
      for (const member of ['-dash', 'alpha', 'zed', 'ÿes', 'x-ray', 'plus']) {
        await ok(api, 'mutation($u: String) { joinGuild(guild: "g2", user: $u) }', { u: member }, 'service');
      }
      const search = async (prefix: string) => {
        const outcome = await send(
          fixture,
          transport,
          'query($p: String!) { guildMembers(guild: "g2", prefix: $p, limit: 50) }',
          { p: prefix },
          'service',
        );
        expect(outcome.codes).toEqual([]);
        return (outcome.data as { guildMembers: string[] }).guildMembers;
      };
      await expectNothingStored(api, async () => {
        expect(await search('')).toEqual(['-dash', 'alpha', 'plus', 'x-ray', 'zed', 'ÿes']);
        expect(await search('[')).toEqual([]);
        expect(await search('(')).toEqual([]);
        expect(await search('-')).toEqual(['-dash']);
        expect(await search('+')).toEqual([]);
        expect(await search('[a')).toEqual([]);
        expect(await search('(a')).toEqual([]);
        expect(await search('\xff')).toEqual(['ÿes']);
        expect(await search('\uffff')).toEqual([]);
        expect(await search('x-')).toEqual(['x-ray']);
        expect(await search('*')).toEqual([]);
      });
    });

    it('takes every range-syntax character in a recent-contacts prefix literally', async () => {
      for (const contact of ['-dash', 'alpha', 'ÿes', 'x-ray'])
        await ok(api, 'mutation($c: String!) { addRecentContact(contact: $c) }', { c: contact });
      const find = async (prefix: string) => {
        const outcome = await send(
          fixture,
          transport,
          'query($p: String!) { recentContacts(prefix: $p, limit: 100) }',
          { p: prefix },
        );
        expect(outcome.codes).toEqual([]);
        return (outcome.data as { recentContacts: string[] }).recentContacts;
      };
      await expectNothingStored(api, async () => {
        expect(await find('')).toEqual(['x-ray', 'ÿes', 'alpha', '-dash', 'bob']);
        for (const prefix of ['[', '(', '+', '*', '?', '\uffff', '.*']) expect(await find(prefix)).toEqual([]);
        expect(await find('-')).toEqual(['-dash']);
        expect(await find('\xff')).toEqual(['ÿes']);
      });
    });

    it('takes range-syntax characters in a row-cache cursor literally', async () => {
      for (const rowId of ['-', '+', '[a', '(b', 'a'])
        await ok(api, 'mutation($r: ID!) { scheduleRowCache(rowId: $r, delaySeconds: 60) }', { r: rowId }, 'service');
      const after = async (cursor: string) => {
        const outcome = await send(
          fixture,
          transport,
          'query($a: ID) { rowCacheSchedule(after: $a) { rowId } }',
          { a: cursor },
          'service',
        );
        expect(outcome.codes).toEqual([]);
        return (outcome.data as { rowCacheSchedule: { rowId: string }[] }).rowCacheSchedule.map((row) => row.rowId);
      };
      await expectNothingStored(api, async () => {
        // Byte order: ( + - 7 [ a
        expect(await after('(')).toEqual(['(b', '+', '-', '7', '[a', 'a']);
        expect(await after('-')).toEqual(['7', '[a', 'a']);
        expect(await after('+')).toEqual(['-', '7', '[a', 'a']);
        expect(await after('[')).toEqual(['[a', 'a']);
        expect(await after('\uffff')).toEqual([]);
      });
    });
  });

  describe('HTTP transport abuse', () => {
    const MUTATION = 'mutation { addRecentContact(contact: "mallory") }';
    const body = JSON.stringify({ query: MUTATION });

    it('refuses a batch of 100 operations with 400 BAD_REQUEST', async () => {
      const batch = JSON.stringify(
        Array.from({ length: 100 }, (_, i) => ({ query: `mutation { addRecentContact(contact: "m${i}") }` })),
      );
      const outcome = await expectNothingStored(api, () => postBody(api, batch, api.tokens.user));
      expect(outcome.status).toBe(400);
      expectRefused(outcome, 'BAD_REQUEST');
    });

    it('refuses a 1 MB document with 413 PAYLOAD_TOO_LARGE', async () => {
      const query = `mutation { addRecentContact(contact: "mallory") ${' '.repeat(MEGABYTE)}}`;
      const outcome = await expectNothingStored(api, () => overHttp(api, query, undefined, api.tokens.user));
      expect(outcome.status).toBe(413);
      expectRefused(outcome, 'PAYLOAD_TOO_LARGE');
    });

    it('refuses a 1 MB chat message with 413 PAYLOAD_TOO_LARGE', async () => {
      const outcome = await expectNothingStored(api, () =>
        overHttp(
          api,
          'mutation($m: String!) { sendMessage(chatId: "1", message: $m) { id } }',
          { m: 'x'.repeat(MEGABYTE) },
          api.tokens.user,
        ),
      );
      expect(outcome.status).toBe(413);
      expectRefused(outcome, 'PAYLOAD_TOO_LARGE');
    });

    it.each(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'])(
      'refuses a %s POST without a preflight header with 400 BAD_REQUEST (CSRF)',
      async (contentType) => {
        const outcome = await expectNothingStored(api, () =>
          postBody(api, body, api.tokens.user, { 'content-type': contentType }),
        );
        expect(outcome.status).toBe(400);
        expectRefused(outcome, 'BAD_REQUEST');
      },
    );

    it.each([
      ['without a preflight header (CSRF)', {}, 400],
      ['with a preflight header (GET is for queries)', { 'apollo-require-preflight': 'true' }, 405],
    ])('refuses a mutation over GET %s with BAD_REQUEST', async (_what, extra: Record<string, string>, status) => {
      const response = await expectNothingStored(api, () =>
        fetch(`${api.url}?query=${encodeURIComponent(MUTATION)}`, {
          headers: { authorization: `Bearer ${api.tokens.user}`, ...extra },
        }),
      );
      expect(response.status).toBe(status);
      const { errors } = (await response.json()) as { errors: GraphQLFormattedError[] };
      expect(errors.map((e) => e.extensions?.code)).toEqual(['BAD_REQUEST']);
    });

    it('refuses a body that is not JSON with 400 BAD_REQUEST', async () => {
      const outcome = await expectNothingStored(api, () =>
        postBody(api, '{"query": "mutation { addRecentContact(contact: \\"m\\") }"', api.tokens.user),
      );
      expect(outcome.status).toBe(400);
      expectRefused(outcome, 'BAD_REQUEST');
    });

    it('refuses 1e309 (Infinity once JSON-parsed) in a Float variable with BAD_USER_INPUT', async () => {
      const raw = `{"query": "mutation($d: Float!) { scheduleRowCache(rowId: \\"7\\", delaySeconds: $d) }", "variables": {"d": 1e309}}`;
      const outcome = await expectNothingStored(api, () => postBody(api, raw, api.tokens.service));
      expectRefused(outcome, 'BAD_USER_INPUT');
    });

    it.each([
      ['a foreign origin', 'https://evil.example'],
      ['an origin that only starts like an allowed one', 'https://app.example.com.evil.example'],
      ['the opaque origin "null"', 'null'],
      ['an allowed origin over another scheme', 'http://app.example.com'],
    ])('refuses %s with 403 FORBIDDEN and no CORS headers, preflight included', async (_what, origin) => {
      const outcome = await expectNothingStored(api, () => postBody(api, body, api.tokens.user, { origin }));
      expect(outcome.status).toBe(403);
      expectRefused(outcome, 'FORBIDDEN');
      expect(outcome.headers!.get('access-control-allow-origin')).toBeNull();
      const preflight = await fetch(api.url, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST' },
      });
      expect(preflight.status).toBe(403);
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    });

    it('answers an allowed origin with its CORS headers, and its preflight with 204', async () => {
      const outcome = await overHttp(api, '{ me { funds } }', undefined, api.tokens.user, { origin: ALLOWED_ORIGIN });
      expect(outcome.status).toBe(200);
      expect(outcome.data).toEqual({ me: { funds: 100 } });
      expect(outcome.headers!.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
      expect(outcome.headers!.get('vary')).toMatch(/Origin/);
      const preflight = await fetch(api.url, {
        method: 'OPTIONS',
        headers: {
          origin: ALLOWED_ORIGIN,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type',
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
      expect(preflight.headers.get('access-control-allow-headers')).toMatch(/authorization/);
    });

    it('serves its own origin and clients without an Origin, without CORS headers', async () => {
      const own = new URL(api.url).origin;
      const variants: Record<string, string>[] = [{ origin: own }, {}];
      for (const headers of variants) {
        const outcome = await overHttp(api, '{ me { funds } }', undefined, api.tokens.user, headers);
        expect(outcome.status).toBe(200);
        expect(outcome.data).toEqual({ me: { funds: 100 } });
        expect(outcome.headers!.get('access-control-allow-origin')).toBeNull();
      }
    });

    it.each([
      ['an expired token', () => jwt.sign({ sub: 'alice', exp: Math.floor(Date.now() / 1000) - 60 }, TEST_SECRET)],
      ['a token signed with another secret', () => jwt.sign({ sub: 'alice' }, 'x'.repeat(40))],
      ['an unsigned token (alg none)', () => jwt.sign({ sub: 'alice' }, '', { algorithm: 'none' })],
      ['a token of 5000 characters', () => 'a'.repeat(5000)],
    ])('refuses %s with 401 UNAUTHENTICATED', async (_what, token) => {
      const outcome = await expectNothingStored(api, () => postBody(api, body, token()));
      expect(outcome.status).toBe(401);
      expectRefused(outcome, 'UNAUTHENTICATED');
    });
  });

  describe('WebSocket protocol abuse', () => {
    const init = (token: string): Frame => ({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } });
    const subscribe = (id: string, query: string, variables?: Variables): Frame => ({
      id,
      type: 'subscribe',
      payload: { query, variables },
    });
    const MUTATION = 'mutation { addRecentContact(contact: "mallory") }';
    const INBOX = 'subscription { inboxChanged { mailbox } }';

    async function initialised(token = api.tokens.user): Promise<RawSocket> {
      const socket = await rawSocket(api.url);
      socket.send(init(token));
      await socket.next((frame) => frame.type === 'connection_ack');
      return socket;
    }

    it('closes a socket that never sends connection_init with 4408', async () => {
      const socket = await rawSocket(api.url);
      expect((await socket.closedWithin()).code).toBe(4408);
    });

    it('closes a socket that subscribes before connection_init with 4401, running nothing', async () => {
      const closed = await expectNothingStored(api, async () => {
        const socket = await rawSocket(api.url);
        socket.send(subscribe('1', MUTATION));
        return socket.closedWithin();
      });
      expect(closed.code).toBe(4401);
    });

    it('closes a socket that subscribes right behind connection_init, before the ack, with 4401, running nothing', async () => {
      const closed = await expectNothingStored(api, async () => {
        const socket = await rawSocket(api.url);
        // In one TCP write, so the subscribe is read while the init is still being handled.
        socket.sendTogether([init(api.tokens.user), subscribe('1', MUTATION)]);
        return socket.closedWithin();
      });
      expect(closed.code).toBe(4401);
    });

    it('closes a socket that sends connection_init twice with 4429', async () => {
      const socket = await initialised();
      socket.send(init(api.tokens.user));
      expect((await socket.closedWithin()).code).toBe(4429);
    });

    it('closes a socket that reuses a running subscription id with 4409, running nothing', async () => {
      const socket = await initialised();
      socket.send(subscribe('dup', INBOX));
      await sleep(100);
      const closed = await expectNothingStored(api, async () => {
        socket.send(subscribe('dup', MUTATION));
        return socket.closedWithin();
      });
      expect(closed.code).toBe(4409);
    });

    it('closes a socket that sends a 1 MB frame with 1009, running nothing', async () => {
      const socket = await initialised();
      const closed = await expectNothingStored(api, async () => {
        socket.send(
          subscribe('big', 'mutation($m: String!) { sendMessage(chatId: "1", message: $m) { id } }', {
            m: 'x'.repeat(MEGABYTE),
          }),
        );
        return socket.closedWithin();
      });
      expect(closed.code).toBe(1009);
    });

    it('closes a socket that sends something other than a graphql-ws message with 4400', async () => {
      const socket = await initialised();
      socket.send('{"type": "subscribe", "id": 1, "payload": "mutation { addRecentContact(contact: \\"m\\") }"');
      expect((await socket.closedWithin()).code).toBe(4400);
    });

    it('closes a socket that names no graphql-transport-ws subprotocol with 4406', async () => {
      const socket = await rawSocket(api.url, { protocol: null });
      expect((await socket.closedWithin()).code).toBe(4406);
    });

    it(`refuses the (WS_MAX_OPERATIONS + 1)th running operation with CONFLICT, and frees a slot on complete`, async () => {
      const socket = await initialised();
      for (let i = 0; i < WS_MAX_OPERATIONS; i++) socket.send(subscribe(`s${i}`, INBOX));
      await sleep(150);
      await expectNothingStored(api, async () => {
        socket.send(subscribe('one-more', MUTATION));
        const refused = await socket.next((frame) => frame.id === 'one-more');
        expect(refused.type).toBe('error');
        expect((refused.payload as GraphQLFormattedError[]).map((e) => e.extensions?.code)).toEqual(['CONFLICT']);
      });
      socket.send({ id: 's0', type: 'complete' });
      await sleep(100);
      socket.send(subscribe('after-complete', '{ me { funds } }'));
      const answered = await socket.next((frame) => frame.id === 'after-complete');
      expect(answered).toEqual({ id: 'after-complete', type: 'next', payload: { data: { me: { funds: 100 } } } });
    });

    it('holds the operation cap when the operations arrive all at once', async () => {
      const socket = await initialised();
      await expectNothingStored(
        api,
        async () => {
          for (let i = 0; i < WS_MAX_OPERATIONS; i++) socket.send(subscribe(`s${i}`, INBOX));
          socket.send(subscribe('one-more', MUTATION));
          const answer = await socket.next((frame) => frame.id === 'one-more');
          expect(answer.type).toBe('error');
          expect((answer.payload as GraphQLFormattedError[]).map((e) => e.extensions?.code)).toEqual(['CONFLICT']);
        },
        100,
      );
    });

    it.each([
      ['a foreign origin', 403, 'https://evil.example'],
      ['an origin that only starts like an allowed one', 403, 'https://app.example.com.evil.example'],
      ['the opaque origin "null"', 403, 'null'],
      ['the allowed origin', 101, ALLOWED_ORIGIN],
    ])('answers a handshake from %s with HTTP %s', async (_what, status, origin) => {
      expect(await handshakeStatus(api.url, { origin })).toBe(status);
    });

    it('accepts a handshake from its own origin and from a client without an Origin', async () => {
      expect(await handshakeStatus(api.url, { origin: new URL(api.url).origin })).toBe(101);
      expect(await handshakeStatus(api.url)).toBe(101);
    });

    it('refuses a token that expired a minute ago with 4403', async () => {
      const expired = jwt.sign({ sub: 'alice', exp: Math.floor(Date.now() / 1000) - 60 }, TEST_SECRET);
      const closed = await expectNothingStored(api, async () => {
        const socket = await rawSocket(api.url);
        socket.send(init(expired));
        return socket.closedWithin();
      });
      expect(closed.code).toBe(4403);
    });

    it('closes a socket with 4403 when its token expires, ending its subscriptions', async () => {
      // Expires one to two seconds from now (`exp` is in whole seconds).
      const shortLived = api.server.verifier.sign('alice', [], 2);
      const socket = await initialised(shortLived);
      socket.send(subscribe('me', '{ me { funds } }'));
      expect(await socket.next((frame) => frame.id === 'me' && frame.type === 'next')).toMatchObject({
        payload: { data: { me: { funds: 100 } } },
      });
      socket.send(subscribe('inbox', INBOX));
      const closed = await expectNothingStored(api, () => socket.closedWithin());
      expect(closed.code).toBe(4403);
      expect(socket.frames.filter((frame) => frame.id === 'inbox')).toEqual([]);
    });
  });

  describe('the same limits over both transports', () => {
    it('accepts task args of TASK_MAX_ARGS_BYTES over WebSocket as over HTTP', async () => {
      // 65,534 characters of JSON string plus its quotes: exactly TASK_MAX_ARGS_BYTES (64 KiB).
      const args = 'x'.repeat(64 * 1024 - 2);
      const query = 'mutation($a: JSON) { enqueueTask(queue: "big", name: "t", args: $a) { id } }';
      const http = await send(fixture, 'http', query, { a: args }, 'service');
      expect(http.codes).toEqual([]);
      const ws = await send(fixture, 'ws', query, { a: args }, 'service');
      expect(ws.codes).toEqual([]);
      expect(ws.data).toEqual({ enqueueTask: { id: 'big:2' } });
    });

    it('refuses task args one byte over TASK_MAX_ARGS_BYTES with BAD_USER_INPUT over both', async () => {
      const args = 'x'.repeat(64 * 1024 - 1);
      const query = 'mutation($a: JSON) { enqueueTask(queue: "big", name: "t", args: $a) { id } }';
      for (const transport of TRANSPORTS) {
        const outcome = await expectNothingStored(api, () => send(fixture, transport, query, { a: args }, 'service'));
        expectRefused(outcome, 'BAD_USER_INPUT', 'args');
      }
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Production: no introspection and no suggestions, on both transports.
// ---------------------------------------------------------------------------------------------
describe('a production server', () => {
  const fixture = serverForThisFile({ NODE_ENV: 'production', HOST: '127.0.0.1', ROW_CACHE: 'off' });
  beforeEach(async () => {
    await ok(fixture.api, 'mutation { addRecentContact(contact: "bob") }');
  });

  describe.each(TRANSPORTS)('over %s', (transport) => {
    it.each([
      ['__schema', '{ __schema { queryType { name } } }'],
      ['__type', '{ __type(name: "Mutation") { fields { name } } }'],
      [
        '__schema beside a mutation in one document',
        'mutation M { addRecentContact(contact: "mallory") } query Q { __schema { types { name } } }',
      ],
    ])('refuses introspection through %s with GRAPHQL_VALIDATION_FAILED', async (_what, query) => {
      const outcome = await expectNothingStored(fixture.api, () => send(fixture, transport, query));
      expect(outcome.codes.length).toBeGreaterThan(0);
      expect(new Set(outcome.codes)).toEqual(new Set(['GRAPHQL_VALIDATION_FAILED']));
      expect(outcome.data ?? null).toBeNull();
    });

    it.each([
      [
        'a misspelled field',
        '{ mee { funds } }',
        {},
        'GRAPHQL_VALIDATION_FAILED',
        /^Cannot query field "mee" on type "Query"\.$/,
      ],
      [
        'a misspelled argument',
        '{ recentContacts(limt: 5) }',
        {},
        'GRAPHQL_VALIDATION_FAILED',
        /^Unknown argument "limt"/,
      ],
      [
        'a misspelled mutation',
        'mutation { addRecentContacts(contact: "mallory") }',
        {},
        'GRAPHQL_VALIDATION_FAILED',
        /^Cannot query field "addRecentContacts"/,
      ],
      [
        'a misspelled type condition',
        '{ ... on Quer { me { funds } } }',
        {},
        'GRAPHQL_VALIDATION_FAILED',
        /^Unknown type "Quer"\.$/,
      ],
      [
        'a misspelled enum literal',
        'mutation { enqueueTask(queue: "q", name: "t", priority: HIG) { id } }',
        {},
        'GRAPHQL_VALIDATION_FAILED',
        /^Value "HIG" does not exist/,
      ],
      [
        'a misspelled enum value in a variable',
        'mutation($p: TaskPriority!) { enqueueTask(queue: "q", name: "t", priority: $p) { id } }',
        { p: 'HIG' },
        'BAD_USER_INPUT',
        /does not exist in "TaskPriority" enum/,
      ],
    ])('answers %s without a suggestion', async (_what, query, variables, code, message) => {
      const outcome = await expectNothingStored(fixture.api, () =>
        send(fixture, transport, query, variables, 'service'),
      );
      expectRefused(outcome, code);
      expect(outcome.errors[0].message).toMatch(message);
      expect(outcome.errors[0].message).not.toMatch(/Did you mean|HIGH|"me"|"limit"|"addRecentContact"|"Query"\?/);
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Rate limits: real, low limits on servers of their own (the other servers allow millions).
// ---------------------------------------------------------------------------------------------
describe('a server with a user limit of 5 a minute', () => {
  const fixture = serverForThisFile({
    ROW_CACHE: 'off',
    RATE_LIMIT_USER_PER_MINUTE: '5',
    RATE_LIMIT_IP_PER_MINUTE: '1000',
  });
  // A user of its own per test, as counts last a minute and the tests share the server.
  const tokenFor = (user: string) => fixture.api.server.verifier.sign(user, [], 3600);
  const add = (contact: string) => `mutation { addRecentContact(contact: "${contact}") }`;

  it('refuses the 6th request of a user with 429 RATE_LIMITED and Retry-After, while others pass', async () => {
    const api = fixture.api;
    const token = tokenFor('rl-http');
    for (let i = 0; i < 5; i++) expect((await overHttp(api, add(`c${i}`), undefined, token)).codes).toEqual([]);
    const sixth = await expectNothingStored(api, () => overHttp(api, add('c5'), undefined, token));
    expect(sixth.status).toBe(429);
    expectRefused(sixth, 'RATE_LIMITED');
    const retryAfterMs = sixth.errors[0].extensions?.retryAfterMs as number;
    expect(retryAfterMs).toBeGreaterThan(0);
    expect(retryAfterMs).toBeLessThanOrEqual(60_000);
    expect(Number(sixth.headers!.get('retry-after'))).toBe(Math.ceil(retryAfterMs / 1000));

    const other = await overHttp(api, add('c0'), undefined, tokenFor('rl-http-other'));
    expect(other.status).toBe(200);
    expect(other.data).toEqual({ addRecentContact: true });
  });

  it('does not limit service callers', async () => {
    for (let i = 0; i < 12; i++) {
      expect(
        (await overHttp(fixture.api, 'mutation { updateCounter(name: "hits") }', undefined, fixture.api.tokens.service))
          .codes,
      ).toEqual([]);
    }
  });

  it('refuses the 6th operation over WebSocket with RATE_LIMITED', async () => {
    const api = fixture.api;
    const token = tokenFor('rl-ws');
    for (let i = 0; i < 5; i++) expect((await overWs(fixture, add(`c${i}`), undefined, token)).codes).toEqual([]);
    const sixth = await expectNothingStored(api, () => overWs(fixture, add('c5'), undefined, token));
    expectRefused(sixth, 'RATE_LIMITED');
    expect(sixth.errors[0].extensions?.retryAfterMs).toBeGreaterThan(0);
  });

  it('counts HTTP requests and WebSocket operations against one limit', async () => {
    const api = fixture.api;
    const token = tokenFor('rl-mixed');
    for (let i = 0; i < 3; i++) expect((await overHttp(api, add(`h${i}`), undefined, token)).codes).toEqual([]);
    for (let i = 0; i < 2; i++) expect((await overWs(fixture, add(`w${i}`), undefined, token)).codes).toEqual([]);
    await expectNothingStored(api, async () => {
      expectRefused(await overWs(fixture, add('w2'), undefined, token), 'RATE_LIMITED');
      const http = await overHttp(api, add('h3'), undefined, token);
      expect(http.status).toBe(429);
      expectRefused(http, 'RATE_LIMITED');
    });
  });
});

describe('a server with an address limit of 10 a minute', () => {
  const fixture = serverForThisFile({
    ROW_CACHE: 'off',
    RATE_LIMIT_USER_PER_MINUTE: '1000',
    RATE_LIMIT_IP_PER_MINUTE: '10',
  });

  it('refuses the 11th request from one address, any user, and its WebSocket handshakes, but not service callers', async () => {
    const api = fixture.api;
    for (let i = 0; i < 10; i++) {
      const outcome = await overHttp(api, '{ me { funds } }', undefined, api.server.verifier.sign(`ip${i}`, [], 3600));
      expect(outcome.codes).toEqual([]);
    }
    await expectNothingStored(api, async () => {
      const user = await overHttp(
        api,
        'mutation { addRecentContact(contact: "bob") }',
        undefined,
        api.server.verifier.sign('ip10', [], 3600),
      );
      expect(user.status).toBe(429);
      expectRefused(user, 'RATE_LIMITED');
      const anonymous = await overHttp(api, '{ __typename }');
      expect(anonymous.status).toBe(429);
      expectRefused(anonymous, 'RATE_LIMITED');
      expect(await handshakeStatus(api.url)).toBe(429);
    });
    const service = await overHttp(api, 'mutation { updateCounter(name: "hits") }', undefined, api.tokens.service);
    expect(service.status).toBe(200);
    expect(service.data).toEqual({ updateCounter: true });
  });
});
