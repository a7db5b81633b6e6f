// Lists with more bad items than graphql-js reports errors for. Variables stop at 50 coercion
// errors, then graphql-js adds an error of its own without a code, which Apollo answered as
// INTERNAL_SERVER_ERROR (with a stack and an error log line). Literals stop at 100 validation
// errors. Every transport must answer every error with a documented code, the same errors
// everywhere, and log nothing at error level.
import type { GraphQLFormattedError } from 'graphql';
import manifest from '../../src/generated/client/persisted-documents.json';
import { serverForThisFile } from '../support/fixture';
import { outcomeOf, overHttp, postBody, type Outcome, type Variables } from '../support/hostile';
import { closeRawSockets, rawSocket } from '../support/raw-ws';

const fixture = serverForThisFile({ ROW_CACHE: 'off' });
const api = () => fixture.api;

let logsBefore = 0;
beforeEach(() => {
  logsBefore = api().logs.length;
});
afterEach(() => {
  closeRawSockets();
  expect(
    api()
      .logs.slice(logsBefore)
      .filter((line) => Number(line.level) >= 50),
  ).toEqual([]);
});

const ENQUEUE = 'mutation ($q: String!, $t: [TaskInput!]!) { enqueueTasks(queue: $q, tasks: $t) { name } }';
const ROWS = 'query ($r: [ID!]!) { cachedRows(rowIds: $r) }';
const VARIABLES_CAPPED =
  'More than 50 variable values are invalid: the first 50 are reported, the rest were not checked';

/** The registered text of the operation named `name` (the project's manifest). */
function registeredText(name: string): string {
  const text = Object.values(manifest as Record<string, string>).find((t) => new RegExp(`mutation ${name}\\b`).test(t));
  if (!text) throw new Error(`${name} is not in the manifest`);
  return text;
}

/** Over express: a browser page on the server's own origin. */
const overExpress = (query: string, variables: Variables, token: string): Promise<Outcome> =>
  overHttp(api(), query, variables, token, { origin: new URL(api().url).origin });

async function overGet(query: string, variables: Variables, token: string): Promise<Outcome> {
  const url = `${api().url}?${new URLSearchParams({ query, variables: JSON.stringify(variables) }).toString()}`;
  return outcomeOf(
    await fetch(url, { headers: { authorization: `Bearer ${token}`, 'apollo-require-preflight': 'true' } }),
  );
}

/** One operation on a fresh socket: the errors of its first `next` or `error` frame. */
async function overWs(query: string, variables: Variables, token: string): Promise<GraphQLFormattedError[]> {
  const socket = await rawSocket(api().url);
  socket.send({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } });
  await socket.next((frame) => frame.type === 'connection_ack');
  socket.send({ type: 'subscribe', id: 'op', payload: { query, variables } });
  const frame = await socket.next((f) => f.id === 'op' && (f.type === 'next' || f.type === 'error'));
  if (frame.type === 'error') return frame.payload as GraphQLFormattedError[];
  return (frame.payload as { errors?: GraphQLFormattedError[] }).errors ?? [];
}

const codesOf = (errors: readonly GraphQLFormattedError[]) => errors.map((error) => error.extensions?.code);

/** 50 coercion errors naming the variable, then one saying the rest went unreported; all BAD_USER_INPUT. */
function expectCapped(errors: readonly GraphQLFormattedError[], variable: string): void {
  expect(codesOf(errors)).toEqual(Array.from({ length: 51 }, () => 'BAD_USER_INPUT'));
  for (const error of errors.slice(0, 50)) expect(error.message).toMatch(new RegExp(`^Variable "\\$${variable}" got`));
  expect(errors[50]).toEqual({ message: VARIABLES_CAPPED, extensions: { code: 'BAD_USER_INPUT' } });
}

describe('more than 50 bad items in one list variable', () => {
  it.each([51, 120])(
    'answers %i bad tasks with 50 errors and a last BAD_USER_INPUT over both HTTP paths, a registered document and WebSocket',
    async (count) => {
      const service = api().tokens.service;
      const variables = { q: 'q', t: Array.from({ length: count }, (_, i) => `task ${i}`) };
      const registered = { queue: 'q', tasks: variables.t };
      const answers = [
        await overHttp(api(), ENQUEUE, variables, service),
        await overExpress(ENQUEUE, variables, service),
        await postBody(
          api(),
          JSON.stringify({ query: registeredText('EnqueueTasks'), variables: registered }),
          service,
        ),
      ];
      for (const [i, answer] of answers.entries()) {
        expect(answer.status).toBe(400);
        expectCapped(answer.errors, i === 2 ? 'tasks' : 't');
        expect(answer.data).toBeUndefined();
      }
      // Byte for byte the same errors on the fast path and express.
      expect(answers[0].errors).toEqual(answers[1].errors);
      const ws = await overWs(ENQUEUE, variables, service);
      expectCapped(ws, 't');
      expect(ws).toEqual(answers[0].errors);
      expect(await api().redis.client.dbsize()).toBe(0);
    },
  );

  it('answers a query over GET alike (51 bad row ids)', async () => {
    const user = api().tokens.user;
    const variables = { r: Array.from({ length: 51 }, () => true) };
    const get = await overGet(ROWS, variables, user);
    expect(get.status).toBe(400);
    expectCapped(get.errors, 'r');
    const fast = await overHttp(api(), ROWS, variables, user);
    expect(fast.status).toBe(400);
    expect(fast.errors).toEqual(get.errors);
    expect(await overWs(ROWS, variables, user)).toEqual(get.errors);
  });

  it('reports 50 bad items without the last error, as before', async () => {
    const variables = { q: 'q', t: Array.from({ length: 50 }, (_, i) => `task ${i}`) };
    const answer = await overHttp(api(), ENQUEUE, variables, api().tokens.service);
    expect(answer.status).toBe(400);
    expect(codesOf(answer.errors)).toEqual(Array.from({ length: 50 }, () => 'BAD_USER_INPUT'));
  });

  it('counts errors across variables: 30 bad in one and 30 in another', async () => {
    const query =
      'mutation ($m: [ID!]!, $n: [ID!]!) { a: createChat(members: $m, message: "x") { id } b: createChat(members: $n, message: "y") { id } }';
    const variables = { m: Array.from({ length: 30 }, () => 1.5), n: Array.from({ length: 30 }, () => false) };
    const answer = await overHttp(api(), query, variables, api().tokens.user);
    expect(answer.status).toBe(400);
    expect(codesOf(answer.errors)).toEqual(Array.from({ length: 51 }, () => 'BAD_USER_INPUT'));
    expect(answer.errors.slice(0, 30).every((error) => error.message.startsWith('Variable "$m" got'))).toBe(true);
    expect(answer.errors.slice(30, 50).every((error) => error.message.startsWith('Variable "$n" got'))).toBe(true);
    expect(answer.errors[50].message).toBe(VARIABLES_CAPPED);
  });
});

describe('more than 100 bad items in one list literal', () => {
  it('answers 100 validation errors and graphql-js last one, all GRAPHQL_VALIDATION_FAILED, on every transport', async () => {
    const service = api().tokens.service;
    const items = Array.from({ length: 101 }, (_, i) => `"task ${i}"`).join(', ');
    const query = `mutation { enqueueTasks(queue: "q", tasks: [${items}]) { name } }`;
    const fast = await overHttp(api(), query, {}, service);
    const express = await overExpress(query, {}, service);
    for (const answer of [fast, express]) {
      expect(answer.status).toBe(400);
      expect(codesOf(answer.errors)).toEqual(Array.from({ length: 101 }, () => 'GRAPHQL_VALIDATION_FAILED'));
      expect(answer.errors[100].message).toBe('Too many validation errors, error limit reached. Validation aborted.');
    }
    expect(express.errors).toEqual(fast.errors);
    expect(await overWs(query, {}, service)).toEqual(fast.errors);
  });
});
