// Documents and arguments that once crashed the request or the socket (issue 20): @skip/@include
// on a subscription's root field, a JSON argument nested far deeper than its limit, an unknown
// operation name, an oversized WebSocket frame. Each gets a documented code, the same over HTTP
// (both paths) and WebSocket; the socket and its other operations live on; nothing is written
// to stderr and nothing is logged as an error.
import { closeRawSockets, rawSocket, type RawSocket } from '../support/raw-ws';
import { serverForThisFile } from '../support/fixture';
import { expectNothingStored, overHttp, postBody, type Outcome, type Variables } from '../support/hostile';
import { setTimeout as sleep } from 'node:timers/promises';

const fixture = serverForThisFile();
const api = () => fixture.api;

// graphql-ws's own adapter wrote stack traces with console.error; the server's logger is captured
// by the fixture, so anything on stderr now comes from somewhere that bypasses it.
let stderr: string[] = [];
let logsBefore = 0;
const consoleError = console.error;
const consoleWarn = console.warn;
beforeEach(() => {
  stderr = [];
  logsBefore = api().logs.length;
  console.error = (...args: unknown[]) => void stderr.push(args.map(String).join(' '));
  console.warn = (...args: unknown[]) => void stderr.push(args.map(String).join(' '));
});
afterEach(() => {
  console.error = consoleError;
  console.warn = consoleWarn;
  closeRawSockets();
  expect(stderr).toEqual([]);
  expect(
    api()
      .logs.slice(logsBefore)
      .filter((line) => Number(line.level) >= 50),
  ).toEqual([]);
});

const init = (token: string) => ({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } });
const subscribe = (id: string, query: string, variables?: Variables, operationName?: string) => ({
  type: 'subscribe',
  id,
  payload: { query, variables, operationName },
});

async function initialised(token = api().tokens.user): Promise<RawSocket> {
  const socket = await rawSocket(api().url);
  socket.send(init(token));
  await socket.next((frame) => frame.type === 'connection_ack');
  return socket;
}

/** Over the express path: a browser on the server's own origin. */
const overExpress = (query: string, variables?: Variables, token?: string): Promise<Outcome> =>
  overHttp(api(), query, variables, token, { origin: new URL(api().url).origin });

/** One frame's error answer on a socket that stays open. */
async function refusedOnSocket(
  socket: RawSocket,
  id: string,
  query: string,
  variables?: Variables,
  operationName?: string,
) {
  socket.send(subscribe(id, query, variables, operationName));
  const frame = await socket.next((f) => f.id === id && (f.type === 'error' || f.type === 'next'));
  expect(frame.type).toBe('error');
  return frame.payload as { message: string; extensions?: { code?: string } }[];
}

describe('@skip and @include on a subscription root field', () => {
  const SKIP_VARIABLE = 'subscription ($x: Boolean!) { inboxChanged @skip(if: $x) { mailbox } }';
  const SKIP_LITERAL = 'subscription { inboxChanged @skip(if: true) { mailbox } }';
  const INCLUDE_IN_FRAGMENT =
    'subscription { ...F } fragment F on Subscription { inboxChanged @include(if: false) { mailbox } }';
  const ROOT_MESSAGE = 'Anonymous Subscription must not use @skip or @include in its top level selection.';

  it.each([
    ['without `if`, anonymous', 'subscription { __typename @skip }', undefined, undefined],
    ['with a variable', SKIP_VARIABLE, { x: false }, 'user'],
    ['with a literal', SKIP_LITERAL, undefined, 'user'],
    ['in a fragment at the root', INCLUDE_IN_FRAGMENT, undefined, 'user'],
  ] as const)(
    'answers 400 GRAPHQL_VALIDATION_FAILED over both HTTP paths (%s)',
    async (_, query, variables, caller) => {
      const token = caller ? api().tokens[caller] : undefined;
      for (const outcome of [
        await overHttp(api(), query, variables, token),
        await overExpress(query, variables, token),
      ]) {
        expect(outcome.status).toBe(400);
        expect(outcome.codes.length).toBeGreaterThan(0);
        expect(new Set(outcome.codes)).toEqual(new Set(['GRAPHQL_VALIDATION_FAILED']));
        expect(outcome.errors.map((error) => error.message)).toContain(ROOT_MESSAGE);
      }
    },
  );

  it('refuses the operation over WebSocket and leaves the socket and its other subscriptions running', async () => {
    const socket = await initialised();
    socket.send(subscribe('inbox', 'subscription { inboxChanged { mailbox chatId } }'));
    await sleep(100);
    for (const [id, query, variables] of [
      ['a', SKIP_VARIABLE, { x: false }],
      ['b', SKIP_VARIABLE, { x: true }],
      ['c', SKIP_LITERAL, undefined],
      ['d', INCLUDE_IN_FRAGMENT, undefined],
      ['e', 'subscription { inboxChanged @skip { mailbox } }', undefined],
    ] as const) {
      const errors = await refusedOnSocket(socket, id, query, variables);
      expect(errors.map((error) => error.extensions?.code)).toContain('GRAPHQL_VALIDATION_FAILED');
      expect(errors.map((error) => error.message)).toContain(ROOT_MESSAGE);
    }
    // Still open, and the first subscription is still told of a message sent to alice.
    await overHttp(
      api(),
      'mutation { createChat(members: ["alice"], message: "still there?") { id } }',
      undefined,
      api().tokens.other,
    );
    const notice = await socket.next((frame) => frame.id === 'inbox' && frame.type === 'next');
    expect(notice.payload).toEqual({ data: { inboxChanged: { mailbox: false, chatId: '1' } } });
    expect((await socket.closedWithin(200)).code).toBe(-1);
  });

  it('still refuses two root fields and an introspection root field, as graphql-js did', async () => {
    const two = await overHttp(
      api(),
      'subscription { inboxChanged { mailbox } lockReleased(name: "a") { name } }',
      undefined,
      api().tokens.user,
    );
    expect(two.status).toBe(400);
    expect(two.errors.map((error) => error.message)).toEqual([
      'Anonymous Subscription must select only one top level field.',
    ]);
    const socket = await initialised();
    const errors = await refusedOnSocket(socket, 'i', 'subscription Peek { __typename }');
    expect(errors).toEqual([
      expect.objectContaining({
        message: 'Subscription "Peek" must not select an introspection top level field.',
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
      }),
    ]);
  });

  it('serves a subscription with directives below its root field as before', async () => {
    const socket = await initialised();
    socket.send(
      subscribe('inbox', 'subscription ($x: Boolean!) { inboxChanged { mailbox chatId @include(if: $x) } }', {
        x: true,
      }),
    );
    await sleep(100);
    await overHttp(
      api(),
      'mutation { createChat(members: ["alice"], message: "hi") { id } }',
      undefined,
      api().tokens.other,
    );
    const notice = await socket.next((frame) => frame.id === 'inbox' && frame.type === 'next');
    expect(notice.payload).toEqual({ data: { inboxChanged: { mailbox: false, chatId: '1' } } });
  });
});

describe('JSON arguments nested beyond their limit', () => {
  const ENQUEUE = 'mutation ($args: JSON) { enqueueTask(queue: "deep", name: "n", args: $args) { id } }';
  const nested = (depth: number): unknown => JSON.parse('['.repeat(depth) + ']'.repeat(depth));
  const MESSAGE = 'args may be nested at most 32 deep';

  it('answers BAD_USER_INPUT for an array nested 45,000 deep over both HTTP paths and WebSocket, storing nothing', async () => {
    // Written as text: JSON.stringify itself recurses, and would overflow on this value.
    const deep = '['.repeat(45_000) + ']'.repeat(45_000);
    const body = `{"query": ${JSON.stringify(ENQUEUE)}, "variables": {"args": ${deep}}}`;
    expect(Buffer.byteLength(body)).toBeLessThan(api().config.bodyLimitBytes);
    await expectNothingStored(api(), async () => {
      for (const outcome of [
        await postBody(api(), body, api().tokens.service),
        await postBody(api(), body, api().tokens.service, { origin: new URL(api().url).origin }),
      ]) {
        expect(outcome.status).toBe(200);
        expect(outcome.codes).toEqual(['BAD_USER_INPUT']);
        expect(outcome.errors[0]).toMatchObject({ message: MESSAGE, extensions: { argument: 'args' } });
      }
      const socket = await initialised(api().tokens.service);
      socket.send(
        `{"type": "subscribe", "id": "deep", "payload": {"query": ${JSON.stringify(ENQUEUE)}, "variables": {"args": ${deep}}}}`,
      );
      const frame = await socket.next((f) => f.id === 'deep' && f.type === 'next');
      const errors = (frame.payload as { errors: { message: string; extensions: { code: string } }[] }).errors;
      expect(errors.map((error) => error.extensions.code)).toEqual(['BAD_USER_INPUT']);
      expect(errors[0]).toMatchObject({ message: MESSAGE, extensions: { argument: 'args' } });
      expect((await socket.closedWithin(200)).code).toBe(-1);
    });
  });

  it('refuses 33 levels and takes 32, as variables and as literals', async () => {
    const service = api().tokens.service;
    const refused = await overHttp(api(), ENQUEUE, { args: nested(33) }, service);
    expect(refused.codes).toEqual(['BAD_USER_INPUT']);
    expect(refused.errors[0].extensions?.argument).toBe('args');
    const literal = await overHttp(
      api(),
      `mutation { enqueueTask(queue: "deep", name: "n", args: ${'['.repeat(33)}${']'.repeat(33)}) { id } }`,
      undefined,
      service,
    );
    expect(literal.codes).toEqual(['BAD_USER_INPUT']);
    expect(literal.errors[0].extensions?.argument).toBe('args');
    const taken = await overHttp(api(), ENQUEUE, { args: nested(32) }, service);
    expect(taken.errors).toEqual([]);
    expect(taken.data).toEqual({ enqueueTask: { id: 'deep:1' } });
    const read = await overHttp(api(), 'query { task(id: "deep:1") { args } }', undefined, service);
    expect(JSON.stringify((read.data as { task: { args: unknown } }).task.args)).toBe('['.repeat(32) + ']'.repeat(32));
  });

  it('refuses a deep variable placed inside a literal (an object and a list around it), storing nothing', async () => {
    const service = api().tokens.service;
    await expectNothingStored(api(), async () => {
      for (const [shape, depth] of [
        ['{a: $x}', 33],
        ['[$x]', 33],
        ['{a: [1, {b: $x}]}', 45_000],
      ] as const) {
        const deep = '['.repeat(depth) + ']'.repeat(depth);
        const body = `{"query": ${JSON.stringify(`mutation ($x: JSON) { enqueueTask(queue: "deep", name: "n", args: ${shape}) { id } }`)}, "variables": {"x": ${deep}}}`;
        const outcome = await postBody(api(), body, service);
        expect(outcome.status).toBe(200);
        expect(outcome.codes).toEqual(['BAD_USER_INPUT']);
        expect(outcome.errors[0]).toMatchObject({ message: MESSAGE, extensions: { argument: 'args' } });
      }
    });
    // 31 levels inside one of the literal's: 32 in all, taken.
    const taken = await overHttp(
      api(),
      'mutation ($x: JSON) { enqueueTask(queue: "deep", name: "n", args: [$x]) { id } }',
      { x: nested(31) },
      service,
    );
    expect(taken.errors).toEqual([]);
  });
});

describe('an operation name the document does not have', () => {
  const DOCUMENT = 'query A { __typename } query B { __typename }';

  it.each([
    ['an unknown name', 'C', 'Unknown operation named "C".'],
    ['no name for two operations', undefined, 'Must provide operation name if query contains multiple operations.'],
  ])('answers OPERATION_RESOLUTION_FAILURE over HTTP and WebSocket alike (%s)', async (_, operationName, message) => {
    const body = JSON.stringify({ query: DOCUMENT, operationName });
    const http = await postBody(api(), body, api().tokens.user);
    const express = await postBody(api(), body, api().tokens.user, { origin: new URL(api().url).origin });
    const socket = await initialised();
    const ws = await refusedOnSocket(socket, 'op', DOCUMENT, undefined, operationName);
    for (const outcome of [http, express]) {
      expect(outcome.status).toBe(400);
      expect(outcome.errors).toEqual([{ message, extensions: { code: 'OPERATION_RESOLUTION_FAILURE' } }]);
    }
    expect(ws).toEqual([{ message, extensions: { code: 'OPERATION_RESOLUTION_FAILURE' } }]);
  });
});

describe('a WebSocket frame over the size limit', () => {
  it('closes that socket with 1009 and says so in one JSON log line, with nothing on stderr', async () => {
    const socket = await initialised();
    const before = api().logs.length;
    socket.send(
      subscribe('big', 'mutation($m: String!) { sendMessage(chatId: "1", message: $m) { id } }', {
        m: 'x'.repeat(api().config.security.wsMaxPayloadBytes),
      }),
    );
    expect((await socket.closedWithin()).code).toBe(1009);
    await sleep(50);
    const lines = api()
      .logs.slice(before)
      .filter((line) => line.msg === 'websocket closed on a protocol error');
    expect(lines).toEqual([
      expect.objectContaining({ level: 30, code: 'WS_PAYLOAD_TOO_LARGE', wsCode: 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' }),
    ]);
  });
});

describe('a close reason that would name a long operation id', () => {
  // A close frame carries at most 123 bytes of reason, and `ws` throws on more: graphql-ws's
  // "Subscriber for <id> already exists" with a 200-character id became a 4500 and an error line.
  const ID = `${'é'.repeat(100)}${'x'.repeat(100)}`;
  const INBOX = 'subscription { inboxChanged { mailbox } }';

  it('closes with 4409 a socket that subscribes twice under a long id, its reason cut to fit', async () => {
    const socket = await initialised();
    socket.send(subscribe(ID, INBOX));
    await sleep(100);
    socket.send(subscribe(ID, INBOX));
    const closed = await socket.closedWithin(2000);
    expect(closed.code).toBe(4409);
    expect(Buffer.byteLength(closed.reason)).toBeLessThanOrEqual(123);
    expect(closed.reason).toMatch(/^Subscriber for é+…$/);
  });

  it('does the same for an id reused right after its completion', async () => {
    const socket = await initialised();
    socket.send(subscribe(ID, INBOX));
    await sleep(100);
    socket.sendTogether([{ type: 'complete', id: ID }, subscribe(ID, INBOX)]);
    const closed = await socket.closedWithin(2000);
    expect(closed.code).toBe(4409);
    expect(closed.reason).toMatch(/^Subscriber for é+…$/);
  });
});
