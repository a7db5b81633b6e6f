// Sends one GraphQL operation over HTTP or a fresh graphql-ws connection and reports the outcome
// in one shape, so hostile cases can run over both transports and expect the same code; and the
// assertions those cases share: the exact code, never a 5xx, and Redis left exactly as it was.
import type { GraphQLFormattedError } from 'graphql';
import type { ServerFixture } from './fixture';
import type { TestServer } from './server';
import { snapshotRedis } from './snapshot';
import { setTimeout as sleep } from 'node:timers/promises';

export type Transport = 'http' | 'ws';
export type Caller = 'user' | 'other' | 'service' | 'anonymous';
export type Variables = Record<string, unknown>;

export const TRANSPORTS: Transport[] = ['http', 'ws'];

export interface Outcome {
  /** HTTP only. */
  status?: number;
  headers?: Headers;
  /** extensions.code of each error; `socket closed <code>` when a WebSocket closed instead. */
  codes: unknown[];
  errors: GraphQLFormattedError[];
  data?: unknown;
}

export function tokenOf(api: TestServer, caller: Caller): string | undefined {
  return caller === 'anonymous' ? undefined : api.tokens[caller];
}

export async function overHttp(
  api: TestServer,
  query: string,
  variables?: Variables,
  token?: string,
  headers: Record<string, string> = {},
): Promise<Outcome> {
  return postBody(api, JSON.stringify({ query, variables }), token, headers);
}

export async function postBody(
  api: TestServer,
  body: string,
  token?: string,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<Outcome> {
  const response = await fetch(api.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body,
    signal,
  });
  return outcomeOf(response);
}

/** Any HTTP answer as an Outcome; a body that is not JSON becomes an error without a code. */
export async function outcomeOf(response: Response): Promise<Outcome> {
  const text = await response.text();
  let parsed: { data?: unknown; errors?: GraphQLFormattedError[] };
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = { errors: [{ message: `not JSON: ${text.slice(0, 200)}` }] };
  }
  const errors = parsed.errors ?? [];
  return {
    status: response.status,
    headers: response.headers,
    codes: errors.map((e) => e.extensions?.code),
    errors,
    data: parsed.data,
  };
}

/** One operation on a fresh graphql-ws connection (disposed by the fixture after the test). */
export async function overWs(
  fixture: ServerFixture,
  query: string,
  variables: Variables | undefined,
  token: string,
): Promise<Outcome> {
  const { client } = fixture.connect(token);
  return new Promise<Outcome>((resolve) => {
    const errors: GraphQLFormattedError[] = [];
    let data: unknown;
    const finish = (extra: unknown[] = []) => {
      clearTimeout(timer);
      resolve({ codes: [...errors.map((e) => e.extensions?.code), ...extra], errors, data });
    };
    const timer = setTimeout(() => finish(['no answer in time']), 5000);
    client.subscribe(
      { query, variables },
      {
        next: (value) => {
          if (value.data !== undefined) data = value.data;
          errors.push(...((value.errors as GraphQLFormattedError[] | undefined) ?? []));
        },
        error: (error) => {
          if (Array.isArray(error)) {
            errors.push(...(error as GraphQLFormattedError[]));
            finish();
          } else {
            finish([`socket closed ${(error as { code?: number }).code}`]);
          }
        },
        complete: () => finish(),
      },
    );
  });
}

export function send(
  fixture: ServerFixture,
  transport: Transport,
  query: string,
  variables?: Variables,
  caller: Caller = 'user',
): Promise<Outcome> {
  const api = fixture.api;
  const token = tokenOf(api, caller);
  if (transport === 'http') return overHttp(api, query, variables, token);
  if (!token) throw new Error('every WebSocket operation needs a token');
  return overWs(fixture, query, variables, token);
}

/** Exactly one error with this code (and argument), and over HTTP never a 5xx. */
export function expectRefused(outcome: Outcome, code: string, argument?: string): void {
  expect(outcome.codes).toEqual([code]);
  if (argument !== undefined) expect(outcome.errors[0].extensions?.argument).toBe(argument);
  if (outcome.status !== undefined) expect(outcome.status).toBeLessThan(500);
}

/** Runs `act` and asserts that every key of Redis (type, expiry, content) is as it was before. */
export async function expectNothingStored<T>(api: TestServer, act: () => Promise<T>, settleMs = 0): Promise<T> {
  const before = await snapshotRedis(api.redis.client);
  const result = await act();
  if (settleMs > 0) await sleep(settleMs);
  expect(await snapshotRedis(api.redis.client)).toEqual(before);
  return result;
}

export async function ok(
  api: TestServer,
  query: string,
  variables: Variables = {},
  caller: Caller = 'user',
): Promise<Record<string, unknown>> {
  const outcome = await overHttp(api, query, variables, tokenOf(api, caller));
  expect(outcome.errors).toEqual([]);
  return outcome.data as Record<string, unknown>;
}
