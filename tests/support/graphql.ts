// Typed GraphQL calls over real HTTP and a real graphql-ws client.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print, type GraphQLFormattedError } from 'graphql';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

export interface HttpResult<R> {
  status: number;
  data?: R | null;
  errors?: GraphQLFormattedError[];
  headers: Headers;
}

export async function post<R, V>(
  url: string,
  document: TypedDocumentNode<R, V>,
  variables?: V,
  token?: string,
  headers: Record<string, string> = {},
): Promise<HttpResult<R>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: JSON.stringify({ query: print(document), variables }),
  });
  const body = (await response.json()) as { data?: R | null; errors?: GraphQLFormattedError[] };
  return { status: response.status, ...body, headers: response.headers };
}

/** Error codes in order, for terse assertions. */
export const codes = (result: { errors?: readonly GraphQLFormattedError[] }): unknown[] =>
  (result.errors ?? []).map((error) => error.extensions?.code);

export interface WsClient {
  client: Client;
  /** Resolves with the close event's code once the socket closes. */
  closed: Promise<number>;
  /** The same, with the reason the server gave. */
  closeEvent: Promise<{ code: number; reason: string }>;
  dispose(): Promise<void>;
}

export function connectWs(url: string, token: string | undefined): WsClient {
  let closedWith: (event: { code: number; reason: string }) => void = () => undefined;
  const closeEvent = new Promise<{ code: number; reason: string }>((resolve) => {
    closedWith = resolve;
  });
  const client = createClient({
    url: url.replace(/^http/, 'ws'),
    webSocketImpl: WebSocket,
    lazy: false,
    retryAttempts: 0,
    connectionParams: token ? { authorization: `Bearer ${token}` } : {},
    on: {
      closed: (event) => {
        const { code, reason } = event as { code: number; reason?: string };
        closedWith({ code, reason: String(reason ?? '') });
      },
    },
    onNonLazyError: () => undefined,
  });
  const closed = closeEvent.then((event) => event.code);
  return { client, closed, closeEvent, dispose: () => client.dispose() as Promise<void> };
}

/** Runs one operation over WebSocket and collects every result until it completes. */
export function wsOperation<R, V>(client: Client, document: TypedDocumentNode<R, V>, variables: V) {
  const results: { data?: R | null; errors?: readonly GraphQLFormattedError[] }[] = [];
  let waiters: (() => void)[] = [];
  let done = false;
  let failure: unknown;
  const unsubscribe = client.subscribe<R>(
    { query: print(document), variables: variables as Record<string, unknown> },
    {
      next: (value) => {
        results.push(value);
        waiters.forEach((wake) => wake());
      },
      error: (error) => {
        failure = error;
        done = true;
        waiters.forEach((wake) => wake());
      },
      complete: () => {
        done = true;
        waiters.forEach((wake) => wake());
      },
    },
  );
  const until = async (predicate: () => boolean, timeoutMs: number): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error(`timed out; results so far: ${JSON.stringify(results)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
      waiters = [];
    }
  };
  return {
    results,
    get failure() {
      return failure;
    },
    /** Waits until at least `count` results have arrived. */
    async take(count: number, timeoutMs = 5000) {
      await until(() => results.length >= count || done, timeoutMs);
      return results.slice(0, count);
    },
    async completion(timeoutMs = 5000) {
      await until(() => done, timeoutMs);
      return results;
    },
    unsubscribe,
  };
}

/** Polls `probe` until it returns true; for effects of background workers. */
export async function eventually(probe: () => Promise<boolean>, timeoutMs = 10_000, stepMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
}
