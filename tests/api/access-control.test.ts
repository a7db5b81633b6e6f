// Who may call each operation, for every root field at once and over both transports. RULES is
// the access matrix: the schema the server builds must match it exactly, so a new operation or a
// changed rule is a visible diff here. Every field is then called anonymously and, when it is for
// service callers, as a user, over HTTP and WebSocket, from arguments generated from the schema.
// Last, the per-domain rules that the API tests check over one transport only, over both.
// Tests marked it.failing record gaps in src/ found by this audit; each says what would fix it.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import {
  getNamedType,
  isCompositeType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  parse,
  type GraphQLFormattedError,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import { getMetadataStorage, type AuthCheckerFn, type ResolverData } from 'type-graphql';
import { SERVICE_ROLE, type Principal } from '../../src/security/auth';
import { authChecker, type GraphQLContext } from '../../src/schema/context';
import { buildAppSchema, RESOLVERS } from '../../src/app/schema';
import { createLocalPubSub } from '../../src/schema/pubsub';
import {
  AckDirectMessagesDocument,
  AcquireLockDocument,
  AcquireSemaphoreDocument,
  DirectMessagesDocument,
  FetchDirectMessagesDocument,
  GuildMembersDocument,
  JoinGuildDocument,
  LeaveGuildDocument,
  LockStateDocument,
  MailboxDocument,
  RefreshLockDocument,
  RefreshSemaphoreDocument,
  ReleaseLockDocument,
  ReleaseSemaphoreDocument,
  SendDirectMessageDocument,
} from '../../src/generated/client/graphql';
import { serverForThisFile } from '../support/fixture';
import { codes, connectWs, post, wsOperation, type WsClient } from '../support/graphql';
import type { TestServer } from '../support/server';

type Role = 'signed-in' | 'service';

/** The access matrix: each root field's @Authorized role, and the finer rule its domain enforces. */
const RULES: Record<string, [Role, string]> = {
  'Mutation.ackDirectMessages': ['signed-in', "the caller's own mailbox"],
  'Mutation.acquireLock': ['service', 'any service caller'],
  'Mutation.acquireSemaphore': ['service', 'any service caller'],
  'Mutation.addChatMembers': ['signed-in', 'chat members'],
  'Mutation.addRecentContact': ['signed-in', "the caller's own list"],
  'Mutation.appendLocationLines': ['service', 'any service caller'],
  'Mutation.cancelTask': ['service', 'any service caller'],
  'Mutation.createChat': ['signed-in', 'anyone; the caller becomes a member'],
  'Mutation.deleteCounter': ['service', 'any service caller'],
  'Mutation.deleteMessage': ['signed-in', "the sender's own messages"],
  'Mutation.editMessage': ['signed-in', "the sender's own messages"],
  'Mutation.createLocationDataset': ['service', 'any service caller'],
  'Mutation.delistItem': ['signed-in', "as oneself, one's own listing"],
  'Mutation.enqueueTask': ['service', 'any service caller'],
  'Mutation.enqueueTasks': ['service', 'any service caller'],
  'Mutation.fetchDirectMessages': ['signed-in', "the caller's own mailbox"],
  'Mutation.fetchPendingMessages': ['signed-in', "the caller's own chats"],
  'Mutation.forgetLocationDays': ['service', 'any service caller'],
  'Mutation.grantFunds': ['service', 'any service caller'],
  'Mutation.grantItem': ['service', 'any service caller'],
  'Mutation.joinChat': ['signed-in', 'anyone for an open chat, members otherwise'],
  'Mutation.joinGuild': ['signed-in', 'oneself; service callers for anyone'],
  'Mutation.leaveChat': ['signed-in', 'oneself'],
  'Mutation.leaveGuild': ['signed-in', 'oneself; service callers for anyone'],
  'Mutation.listItem': ['signed-in', "as oneself, from one's own inventory"],
  'Mutation.markSeen': ['signed-in', 'chat members'],
  'Mutation.pauseQueue': ['service', 'any service caller'],
  'Mutation.purchaseItem': ['signed-in', "as oneself, with one's own funds"],
  'Mutation.refreshLock': ['service', 'whoever holds the token'],
  'Mutation.refreshSemaphore': ['service', 'whoever holds the lease id'],
  'Mutation.releaseLock': ['service', 'whoever holds the token'],
  'Mutation.releaseSemaphore': ['service', 'whoever holds the lease id'],
  'Mutation.removeChatMember': ['signed-in', 'chat owners; service callers any chat'],
  'Mutation.removePushTarget': ['signed-in', "the caller's own devices"],
  'Mutation.removeRecentContact': ['signed-in', "the caller's own list"],
  'Mutation.removeTask': ['service', 'any service caller'],
  'Mutation.removeTaskSchedule': ['service', 'any service caller'],
  'Mutation.repriceItem': ['signed-in', "as oneself, one's own listing"],
  'Mutation.rescheduleTask': ['service', 'any service caller'],
  'Mutation.resumeQueue': ['service', 'any service caller'],
  'Mutation.retryTask': ['service', 'any service caller'],
  'Mutation.scheduleRowCache': ['service', 'any service caller'],
  'Mutation.sendDirectMessage': ['signed-in', 'anyone, to anyone'],
  'Mutation.sendMessage': ['signed-in', 'chat members'],
  'Mutation.setChatOwner': ['signed-in', 'chat owners; service callers any chat'],
  'Mutation.setChatRetention': ['signed-in', 'chat owners; service callers any chat'],
  'Mutation.setPushTarget': ['signed-in', "the caller's own live devices"],
  'Mutation.setTyping': ['signed-in', 'chat members'],
  'Mutation.updateCounter': ['service', 'any service caller'],
  'Mutation.upsertTaskSchedule': ['service', 'any service caller'],
  'Query.cachedRow': ['signed-in', 'anyone (public shop data)'],
  'Query.cachedRows': ['signed-in', 'anyone (public shop data)'],
  'Query.chat': ['signed-in', 'chat members (null to others)'],
  'Query.chatDevices': ['signed-in', "the caller's own devices"],
  'Query.chats': ['signed-in', "the caller's own chats"],
  'Query.counter': ['signed-in', 'anyone'],
  'Query.counterSeries': ['signed-in', 'anyone'],
  'Query.counterSeriesMany': ['signed-in', 'anyone'],
  'Query.counters': ['signed-in', 'anyone'],
  'Query.directMessages': ['signed-in', "the caller's own mailbox"],
  'Query.guildMemberPage': ['signed-in', 'guild members; service callers any guild'],
  'Query.guildMembers': ['signed-in', 'guild members; service callers any guild'],
  'Query.ipLocation': ['signed-in', 'anyone'],
  'Query.inventory': ['signed-in', "the caller's own"],
  'Query.lock': ['service', 'any service caller'],
  'Query.locationDatasets': ['signed-in', 'anyone (visits by place, no addresses)'],
  'Query.locationDays': ['signed-in', 'anyone'],
  'Query.locationTotals': ['signed-in', 'anyone'],
  'Query.locationUpload': ['service', 'any service caller (refused samples are log lines)'],
  'Query.mailbox': ['signed-in', "anyone sees a mailbox's size"],
  'Query.market': ['signed-in', 'anyone'],
  'Query.me': ['signed-in', "the caller's own"],
  'Query.messages': ['signed-in', 'chat members, from their joining on'],
  'Query.myGuilds': ['signed-in', 'oneself; service callers for anyone'],
  'Query.mySales': ['signed-in', "the caller's own sales"],
  'Query.placeVisits': ['signed-in', 'anyone'],
  'Query.pushProviders': ['signed-in', 'anyone (the kinds set up, the VAPID public key)'],
  'Query.pushTargets': ['signed-in', "the caller's own devices"],
  'Query.pendingMessages': ['signed-in', "the caller's own chats"],
  'Query.queue': ['service', 'any service caller'],
  'Query.recentContacts': ['signed-in', "the caller's own list"],
  'Query.rowCacheSchedule': ['service', 'any service caller'],
  'Query.semaphore': ['service', 'any service caller'],
  'Query.task': ['service', 'any service caller'],
  'Query.taskSchedules': ['service', 'any service caller'],
  'Query.tasks': ['service', 'any service caller'],
  'Query.topCities': ['signed-in', 'anyone'],
  'Query.topCountries': ['signed-in', 'anyone'],
  'Query.topRegions': ['signed-in', 'anyone'],
  'Query.viewer': ['signed-in', "the caller's own token, as read"],
  'Subscription.chatChanged': ['signed-in', 'chat members, until they leave or are removed'],
  'Subscription.counterUpdated': ['signed-in', 'anyone'],
  'Subscription.inboxChanged': ['signed-in', "the caller's own inbox"],
  'Subscription.locationTotalsChanged': ['signed-in', 'anyone'],
  'Subscription.locationUploadChanged': ['service', 'any service caller'],
  'Subscription.lockReleased': ['service', 'any service caller'],
  'Subscription.marketChanged': ['signed-in', 'anyone (ids and prices, as the market query shows them)'],
  'Subscription.rowCacheUpdated': ['signed-in', 'anyone'],
  'Subscription.semaphoreReleased': ['service', 'any service caller'],
  'Subscription.taskChanged': ['service', 'any service caller'],
};

const ROOT_TYPES = ['Query', 'Mutation', 'Subscription'] as const;
type RootType = (typeof ROOT_TYPES)[number];

interface RootField {
  /** `Query.chat` */
  key: string;
  root: RootType;
  name: string;
}

const rootType = (schema: GraphQLSchema, root: RootType) =>
  ({ Query: schema.getQueryType(), Mutation: schema.getMutationType(), Subscription: schema.getSubscriptionType() })[
    root
  ];

function rootFields(schema: GraphQLSchema): RootField[] {
  return ROOT_TYPES.flatMap((root) =>
    Object.keys(rootType(schema, root)?.getFields() ?? {}).map((name) => ({ key: `${root}.${name}`, root, name })),
  );
}

/** A literal of the type for a required argument; a scalar without one fails loudly, to be added here. */
function placeholder(type: GraphQLInputType): string {
  if (isNonNullType(type)) return placeholder(type.ofType);
  if (isListType(type)) return `[${placeholder(type.ofType)}]`;
  if (isEnumType(type)) return type.getValues()[0].name;
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields()).filter(
      (field) => isNonNullType(field.type) && field.defaultValue === undefined,
    );
    return `{ ${fields.map((field) => `${field.name}: ${placeholder(field.type)}`).join(', ')} }`;
  }
  const scalars: Record<string, string> = {
    String: '"x"',
    ID: '"1"',
    Int: '1',
    SafeInt: '1',
    Float: '1',
    Boolean: 'true',
    JSON: '{}',
  };
  const literal = scalars[type.name];
  if (literal === undefined)
    throw new Error(`no placeholder literal for the scalar ${type.name}: add one to placeholder()`);
  return literal;
}

/** The field alone, with its required arguments (from `given` by `field.argument`, else placeholders). */
function operationText(schema: GraphQLSchema, field: RootField, given: Record<string, string> = {}): string {
  const definition = rootType(schema, field.root)!.getFields()[field.name];
  const args = definition.args
    .filter((arg) => isNonNullType(arg.type) && arg.defaultValue === undefined)
    .map((arg) => `${arg.name}: ${given[`${field.name}.${arg.name}`] ?? placeholder(arg.type)}`);
  const selection = isCompositeType(getNamedType(definition.type)) ? ' { __typename }' : '';
  return `${field.root.toLowerCase()} { ${field.name}${args.length > 0 ? `(${args.join(', ')})` : ''}${selection} }`;
}

const documentOf = (text: string) => parse(text) as TypedDocumentNode<Record<string, unknown>, Record<string, never>>;

let schema: GraphQLSchema;
let fields: RootField[];

beforeAll(async () => {
  // As the server builds it (src/app/parts.ts), minus the resolver instances, which only execution needs.
  schema = await buildAppSchema([], createLocalPubSub());
  fields = rootFields(schema);
});

describe('the access matrix', () => {
  it('gives every Query, Mutation and Subscription field an @Authorized rule with the role in RULES', () => {
    // A resolver's operations may be declared on a superclass of it (ChatResolver's are): type-graphql
    // serves them as the resolver's own, and its global metadata keeps them under the superclass.
    const served = (target: unknown) =>
      RESOLVERS.some((resolver) => resolver === target || Object.prototype.isPrototypeOf.call(target, resolver));
    const storage = getMetadataStorage();
    const handlers = { Query: storage.queries, Mutation: storage.mutations, Subscription: storage.subscriptions };
    const actual: Record<string, string> = {};
    for (const field of fields) {
      const matching = handlers[field.root].filter(
        (handler) => handler.schemaName === field.name && served(handler.target),
      );
      expect(matching).toHaveLength(1);
      const roles: unknown[] | undefined = matching[0].roles;
      actual[field.key] =
        roles === undefined
          ? 'no @Authorized'
          : roles.length === 0
            ? 'signed-in'
            : roles.length === 1 && roles[0] === SERVICE_ROLE
              ? 'service'
              : `roles ${JSON.stringify(roles)}`;
    }
    const expected = Object.fromEntries(Object.entries(RULES).map(([key, [role]]) => [key, role]));
    expect(actual).toEqual(expected);
  });

  it('has an authChecker that refuses a role it does not know instead of treating it as "signed-in"', () => {
    // A checker that only looked for SERVICE_ROLE would let every signed-in user through @Authorized('admin').
    const user: Principal = { userId: 'alice', roles: [], isService: false, expiresAt: undefined };
    const data = { context: { principal: user } as GraphQLContext } as ResolverData<GraphQLContext>;
    const check = authChecker as AuthCheckerFn<GraphQLContext>;
    expect(check(data, [])).toBe(true);
    let refused: unknown;
    try {
      refused = check(data, ['admin']);
    } catch (error) {
      refused = (error as { code?: string }).code;
    }
    expect(refused).toBe('FORBIDDEN');
  });
});

// ROW_CACHE off: no refresher, so a scheduled row stays exactly as scheduled between snapshots.
const fixture = serverForThisFile({ ROW_CACHE: 'off' });
let api: TestServer;

beforeAll(() => {
  api = fixture.api;
});

/** Every key with its serialised value, and the key count. */
async function snapshot(): Promise<{ size: number; keys: Record<string, string> }> {
  const redis = api.redis.client;
  const keys: Record<string, string> = {};
  for (const key of (await redis.keys('*')).sort())
    keys[key] = (await redis.dumpBuffer(key))?.toString('hex') ?? 'gone';
  return { size: await redis.dbsize(), keys };
}

interface Outcome {
  data?: Record<string, unknown> | null;
  errors?: readonly GraphQLFormattedError[];
}

/** The one result of an operation over WebSocket. */
async function overWs(client: WsClient, text: string): Promise<Outcome> {
  const results = await wsOperation(client.client, documentOf(text), {}).completion();
  if (results.length !== 1) return { errors: [{ message: `${results.length} results: ${JSON.stringify(results)}` }] };
  return results[0];
}

const valueOf = (outcome: Outcome, field: string): unknown => outcome.data?.[field] ?? null;

describe('every root field', () => {
  // Subscriptions are refused over HTTP before anything else (BAD_REQUEST: wrong transport); over
  // WebSocket, where they run, the tests below check their access rules.
  const overHttp = (field: { root: string }, code: string): string[] => [
    field.root === 'Subscription' ? 'BAD_REQUEST' : code,
  ];

  it('answers a caller without a token with UNAUTHENTICATED over HTTP, and no data', async () => {
    await api.redis.client.set('seen', '1');
    const before = await snapshot();
    const answers: Record<string, unknown> = {};
    for (const field of fields) {
      const result = await post(api.url, documentOf(operationText(schema, field)), {});
      answers[field.key] = { codes: codes(result), data: valueOf(result, field.name) };
    }
    expect(answers).toEqual(
      Object.fromEntries(fields.map((field) => [field.key, { codes: overHttp(field, 'UNAUTHENTICATED'), data: null }])),
    );
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a WebSocket without a token (4403) before any operation runs', async () => {
    await api.redis.client.set('seen', '1');
    const before = await snapshot();
    const answers = await Promise.all(
      fields.map(async (field) => {
        const socket = connectWs(api.url, undefined);
        try {
          const attempt = wsOperation(socket.client, documentOf(operationText(schema, field)), {});
          const closed = await socket.closed;
          const results = await attempt.completion();
          return [field.key, { closed, results: results.length, failed: attempt.failure !== undefined }] as const;
        } finally {
          await socket.dispose();
        }
      }),
    );
    expect(Object.fromEntries(answers)).toEqual(
      Object.fromEntries(fields.map((field) => [field.key, { closed: 4403, results: 0, failed: true }])),
    );
    expect(await snapshot()).toEqual(before);
  });

  it('answers a user on every service-only field with FORBIDDEN over HTTP and WebSocket, and changes nothing', async () => {
    // Something real for each service field to act on, so an operation let through would show.
    const service = api.tokens.service;
    const seed = async (text: string): Promise<Record<string, unknown>> => {
      const result = await post(api.url, documentOf(text), {}, service);
      expect(result.errors).toBeUndefined();
      return result.data!;
    };
    const task = (await seed('mutation { enqueueTask(queue: "x", name: "x", delayMs: 60000) { id } }')).enqueueTask as {
      id: string;
    };
    const lock = (
      await seed('mutation { acquireLock(name: "x", acquireTimeoutMs: 0, lockTimeoutMs: 60000) { token } }')
    ).acquireLock as { token: string };
    const lease = (await seed('mutation { acquireSemaphore(name: "x", limit: 1, timeoutMs: 60000) { id } }'))
      .acquireSemaphore as { id: string };
    await seed('mutation { scheduleRowCache(rowId: "1", delaySeconds: 600) }');
    await seed('mutation { updateCounter(name: "x") }');
    await seed('mutation { grantFunds(userId: "1", amount: 5) }');
    await seed('mutation { upsertTaskSchedule(queue: "x", name: "x", task: "x", everySeconds: 3600) { name } }');
    const given: Record<string, string> = {
      'task.id': JSON.stringify(task.id),
      'cancelTask.id': JSON.stringify(task.id),
      'rescheduleTask.id': JSON.stringify(task.id),
      'retryTask.id': JSON.stringify(task.id),
      'removeTask.id': JSON.stringify(task.id),
      'tasks.queue': JSON.stringify('x'),
      'pauseQueue.name': JSON.stringify('x'),
      'resumeQueue.name': JSON.stringify('x'),
      'taskChanged.id': JSON.stringify(task.id),
      'releaseLock.token': JSON.stringify(lock.token),
      'refreshLock.token': JSON.stringify(lock.token),
      'releaseSemaphore.id': JSON.stringify(lease.id),
      'refreshSemaphore.id': JSON.stringify(lease.id),
    };
    const serviceOnly = fields.filter((field) => RULES[field.key]?.[0] === 'service');
    expect(serviceOnly.length).toBe(36);

    const before = await snapshot();
    const socket = fixture.connect(api.tokens.user);
    const answers: Record<string, unknown> = {};
    for (const field of serviceOnly) {
      const text = operationText(schema, field, given);
      const http = await post(api.url, documentOf(text), {}, api.tokens.user);
      const ws = await overWs(socket, text);
      answers[field.key] = {
        http: codes(http),
        httpData: valueOf(http, field.name),
        ws: codes(ws),
        wsData: valueOf(ws, field.name),
      };
    }
    const refused = (field: (typeof serviceOnly)[number]) => ({
      http: overHttp(field, 'FORBIDDEN'),
      httpData: null,
      ws: ['FORBIDDEN'],
      wsData: null,
    });
    expect(answers).toEqual(Object.fromEntries(serviceOnly.map((field) => [field.key, refused(field)])));
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a subscription sent over HTTP without running it (subscriptions are WebSocket only)', async () => {
    // Apollo would execute a subscription over HTTP like a query, its resolver running without an
    // event: INTERNAL_SERVER_ERROR (with a stack trace outside production) and a log line per request.
    const logged = api.logs.length;
    const subscriptions = fields.filter((field) => field.root === 'Subscription');
    const answers: Record<string, unknown> = {};
    for (const field of subscriptions) {
      const token = RULES[field.key]?.[0] === 'service' ? api.tokens.service : api.tokens.user;
      const result = await post(
        api.url,
        documentOf(operationText(schema, field, { 'taskChanged.id': '"x:1"' })),
        {},
        token,
      );
      answers[field.key] = { codes: codes(result), data: result.data ?? null };
    }
    expect(answers).toEqual(
      Object.fromEntries(subscriptions.map((field) => [field.key, { codes: ['BAD_REQUEST'], data: null }])),
    );
    expect(api.logs.slice(logged).filter((line) => line.msg === 'unexpected error')).toEqual([]);
  });
});

type Transport = 'HTTP' | 'WebSocket';
const TRANSPORTS: Transport[] = ['HTTP', 'WebSocket'];

/** One operation over the given transport, with its one result. */
async function call<R, V>(transport: Transport, token: string, document: TypedDocumentNode<R, V>, variables: V) {
  if (transport === 'HTTP') {
    const result = await post(api.url, document, variables, token);
    return { data: result.data, errors: result.errors };
  }
  const operation = wsOperation(fixture.connect(token).client, document, variables);
  const results = await operation.completion();
  // A document refused before it runs (validation) arrives as graphql-ws's `error` message.
  if (results.length === 0 && Array.isArray(operation.failure))
    return { errors: operation.failure as GraphQLFormattedError[] };
  expect(results).toHaveLength(1);
  return results[0];
}

describe('mailboxes: only the recipient reads, takes or acknowledges its messages', () => {
  it.each(TRANSPORTS)(
    'over %s, another user finds nothing of them, changes nothing, and cannot name the mailbox',
    async (transport) => {
      for (const message of ['one', 'two']) {
        expect(
          (await post(api.url, SendDirectMessageDocument, { to: 'bob', message }, api.tokens.user)).errors,
        ).toBeUndefined();
      }
      const before = await snapshot();
      const alice = api.tokens.user;
      expect((await call(transport, alice, DirectMessagesDocument, { limit: 10 })).data).toEqual({
        directMessages: [],
      });
      expect((await call(transport, alice, FetchDirectMessagesDocument, { limit: 10 })).data).toEqual({
        fetchDirectMessages: [],
      });
      expect((await call(transport, alice, AckDirectMessagesDocument, { upToId: 1000 })).data).toEqual({
        ackDirectMessages: 0,
      });
      // What anyone may see: how many wait (docs/chats.md, mailboxes).
      const status = await call(transport, alice, MailboxDocument, { user: 'bob' });
      expect(status.data?.mailbox).toMatchObject({ user: 'bob', waiting: 2 });
      for (const text of [
        'query { directMessages(user: "bob") { id } }',
        'mutation { fetchDirectMessages(user: "bob") { id } }',
      ]) {
        const refused = await call(transport, alice, documentOf(text), {});
        expect(codes(refused)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
      }
      expect(await snapshot()).toEqual(before);

      // The recipient does get them, over the same transport.
      const taken = await call(transport, api.tokens.other, FetchDirectMessagesDocument, { limit: 10 });
      expect(taken.data?.fetchDirectMessages.map((message) => [message.sender, message.message])).toEqual([
        ['alice', 'one'],
        ['alice', 'two'],
      ]);
    },
  );

  it("shows another user's mailbox as docs/chats.md documents it (waiting, oldestTs), without its message ids", async () => {
    // latestMessageId is how many messages the user ever received: for the owner only.
    await post(api.url, SendDirectMessageDocument, { to: 'bob', message: 'hi' }, api.tokens.user);
    await post(api.url, FetchDirectMessagesDocument, {}, api.tokens.other);
    await post(api.url, SendDirectMessageDocument, { to: 'bob', message: 'again' }, api.tokens.user);
    const seen = await post(api.url, MailboxDocument, { user: 'bob' }, api.tokens.user);
    expect(seen.data?.mailbox).toMatchObject({ user: 'bob', waiting: 1 });
    expect(seen.data?.mailbox.latestMessageId ?? null).toBeNull();
  });
});

describe('locks and semaphores: only whoever holds the token or lease id refreshes or releases it', () => {
  it.each(TRANSPORTS)(
    'over %s, another service caller with a wrong token, or the token of another name, changes nothing',
    async (transport) => {
      const holder = api.tokens.service;
      const lock = (
        await post(api.url, AcquireLockDocument, { name: 'orders', acquireTimeoutMs: 0, lockTimeoutMs: 60_000 }, holder)
      ).data!.acquireLock!;
      const lease = (
        await post(api.url, AcquireSemaphoreDocument, { name: 'exports', limit: 2, timeoutMs: 60_000 }, holder)
      ).data!.acquireSemaphore!;
      const before = await snapshot();
      const stranger = api.server.verifier.sign('reports-service', ['service'], 3600);
      const wrong = 'f'.repeat(32);

      const answers = [
        (await call(transport, stranger, ReleaseLockDocument, { name: 'orders', token: wrong })).data,
        (await call(transport, stranger, RefreshLockDocument, { name: 'orders', token: wrong, lockTimeoutMs: 1 })).data,
        (await call(transport, stranger, ReleaseLockDocument, { name: 'invoices', token: lock.token })).data,
        (await call(transport, stranger, RefreshLockDocument, { name: 'invoices', token: lock.token })).data,
        (await call(transport, stranger, ReleaseSemaphoreDocument, { name: 'exports', id: wrong })).data,
        (await call(transport, stranger, RefreshSemaphoreDocument, { name: 'exports', id: wrong })).data,
        (await call(transport, stranger, ReleaseSemaphoreDocument, { name: 'exports', id: lock.token })).data,
        (await call(transport, stranger, ReleaseLockDocument, { name: 'exports', token: lease.id })).data,
      ];
      expect(answers).toEqual([
        { releaseLock: false },
        { refreshLock: null },
        { releaseLock: false },
        { refreshLock: null },
        { releaseSemaphore: false },
        { refreshSemaphore: null },
        { releaseSemaphore: false },
        { releaseLock: false },
      ]);
      expect(await snapshot()).toEqual(before);
      expect((await post(api.url, LockStateDocument, { name: 'orders' }, holder)).data!.lock.holder).toMatchObject({
        fencingToken: 1,
      });

      // The token itself works, over the same transport.
      expect(
        (await call(transport, holder, RefreshLockDocument, { name: 'orders', token: lock.token })).data?.refreshLock,
      ).toMatchObject({ fencingToken: 1 });
      expect((await call(transport, holder, ReleaseLockDocument, { name: 'orders', token: lock.token })).data).toEqual({
        releaseLock: true,
      });
      expect((await call(transport, holder, ReleaseSemaphoreDocument, { name: 'exports', id: lease.id })).data).toEqual(
        { releaseSemaphore: true },
      );
    },
  );
});

describe('guilds: a user joins and leaves only for themselves (over WebSocket; HTTP is in autocomplete-api)', () => {
  it('refuses a user acting for someone else with FORBIDDEN, changing nothing, and lets a service caller do it', async () => {
    const service = api.tokens.service;
    expect((await post(api.url, JoinGuildDocument, { guild: 'raiders' }, api.tokens.user)).data).toEqual({
      joinGuild: true,
    });
    expect((await post(api.url, JoinGuildDocument, { guild: 'raiders', user: 'carol' }, service)).data).toEqual({
      joinGuild: true,
    });
    const before = await snapshot();
    const refused = [
      await call('WebSocket', api.tokens.user, JoinGuildDocument, { guild: 'raiders', user: 'bob' }),
      await call('WebSocket', api.tokens.user, LeaveGuildDocument, { guild: 'raiders', user: 'carol' }),
      await call('WebSocket', api.tokens.other, LeaveGuildDocument, { guild: 'raiders', user: 'alice' }),
    ];
    expect(refused.map(codes)).toEqual([['FORBIDDEN'], ['FORBIDDEN'], ['FORBIDDEN']]);
    expect(refused.map((result) => result.data ?? null)).toEqual([null, null, null]);
    expect(await snapshot()).toEqual(before);

    expect((await call('WebSocket', service, JoinGuildDocument, { guild: 'raiders', user: 'bob' })).data).toEqual({
      joinGuild: true,
    });
    expect((await call('WebSocket', service, LeaveGuildDocument, { guild: 'raiders', user: 'carol' })).data).toEqual({
      leaveGuild: true,
    });
    const members = await call('WebSocket', api.tokens.other, GuildMembersDocument, {
      guild: 'raiders',
      prefix: '',
      limit: 10,
    });
    expect(members.data).toEqual({ guildMembers: ['alice', 'bob'] });
  });
});
