// Trusted documents (src/security/trusted-documents.ts): the project's registered operations
// run by hash over both HTTP paths and WebSocket, and with TRUSTED_DOCUMENTS=require a user may
// run registered documents only. Hashes come from the manifest `npm run schema` writes.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { GraphQLFormattedError } from 'graphql';
import manifest from '../../src/generated/client/persisted-documents.json';
import webAppManifest from '../../src/generated/web/persisted-documents.json';
import { serverForThisFile, type ServerFixture } from '../support/fixture';
import { startTestServer } from '../support/server';

const entries = Object.entries(manifest as Record<string, string>);

/** The registered text and bare hash of the operation named `name`. */
function registered(name: string): { text: string; hash: string } {
  const found = entries.find(([, text]) => new RegExp(`(query|mutation|subscription) ${name}\\b`).test(text));
  if (!found) throw new Error(`${name} is not in the manifest`);
  return { text: found[1], hash: found[0].replace(/^sha256:/, '') };
}

const byHash = (hash: string) => ({ persistedQuery: { version: 1, sha256Hash: hash } });

interface Answer {
  status: number;
  text: string;
  body: { data?: Record<string, unknown> | null; errors?: GraphQLFormattedError[] };
}

/** A POST over the fast path, or (`viaExpress`) with a same-origin Origin, through express. */
async function send(
  fixture: ServerFixture,
  body: Record<string, unknown>,
  token: string | undefined,
  viaExpress = false,
): Promise<Answer> {
  const response = await fetch(fixture.api.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(viaExpress ? { origin: new URL(fixture.api.url).origin } : {}),
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, text, body: JSON.parse(text) as Answer['body'] };
}

const codesOf = (answer: { errors?: readonly GraphQLFormattedError[] }): unknown[] =>
  (answer.errors ?? []).map((error) => error.extensions?.code);

/** Runs one WebSocket operation to its end: its results, or the errors it was refused with. */
function overSocket(fixture: ServerFixture, token: string, payload: Record<string, unknown>) {
  const { client } = fixture.connect(token);
  return new Promise<{ data?: unknown; errors?: readonly GraphQLFormattedError[] }>((resolve) => {
    let last: { data?: unknown } = {};
    client.subscribe(payload as never, {
      next: (value) => {
        last = value;
      },
      error: (errors) => resolve({ errors: errors as readonly GraphQLFormattedError[] }),
      complete: () => resolve(last),
    });
  });
}

describe('trusted documents, allowed (the default)', () => {
  const fixture = serverForThisFile({ COUNTER_CLEANUP: 'off', ROW_CACHE: 'off' });
  const counter = registered('UpdateCounter');
  const read = registered('Counter');

  it('loads the manifest, every document checked against its hash', () => {
    expect(entries.length).toBeGreaterThan(40);
    for (const [key, text] of entries) expect(key).toBe(`sha256:${createHash('sha256').update(text).digest('hex')}`);
    expect(fixture.api.logs).toContainEqual(
      expect.objectContaining({
        msg: 'trusted documents loaded',
        documents: entries.length + Object.keys(webAppManifest).length,
        mode: 'allow',
      }),
    );
  });

  it.each([false, true])('runs a registered document by its hash alone (express: %p)', async (viaExpress) => {
    const { service, user } = fixture.api.tokens;
    const written = await send(
      fixture,
      { extensions: byHash(counter.hash), variables: { name: 'hits', count: 3 } },
      service,
      viaExpress,
    );
    expect(written.status).toBe(200);
    expect(written.body).toEqual({ data: { updateCounter: true } });
    // With the "sha256:" prefix the client preset writes too, and with the text beside its hash.
    const prefixed = await send(
      fixture,
      { extensions: byHash(`sha256:${read.hash}`), variables: { name: 'hits', precision: 1 } },
      user,
      viaExpress,
    );
    const withText = await send(
      fixture,
      { query: read.text, extensions: byHash(read.hash), variables: { name: 'hits', precision: 1 } },
      user,
      viaExpress,
    );
    const asText = await send(fixture, { query: read.text, variables: { name: 'hits', precision: 1 } }, user);
    expect(prefixed.body.data).toEqual({ counter: [{ count: 3, time: expect.any(Number) }] });
    expect(withText.text).toBe(prefixed.text);
    expect(asText.text).toBe(prefixed.text);
  });

  it.each([false, true])('answers a hash it does not hold as Apollo does (express: %p)', async (viaExpress) => {
    const unknown = await send(fixture, { extensions: byHash('ab'.repeat(32)) }, fixture.api.tokens.user, viaExpress);
    expect(unknown.status).toBe(200);
    expect(unknown.body.errors).toEqual([
      expect.objectContaining({ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }),
    ]);
    expect(unknown.body.data).toBeUndefined();
  });

  it.each([
    ['a text that is not its hash', { query: '{ me { userId } }', extensions: byHash('cd'.repeat(32)) }],
    ['another version', { extensions: { persistedQuery: { version: 2, sha256Hash: 'cd'.repeat(32) } } }],
    ['a hash that is not 64 hex digits', { extensions: byHash('xyz') }],
    ['a persistedQuery that is not an object', { extensions: { persistedQuery: 'yes' } }],
    ['a persistedQuery of null', { extensions: { persistedQuery: null } }],
    ['a persistedQuery of false', { extensions: { persistedQuery: false } }],
  ])('refuses %s with BAD_REQUEST over both paths, writing nothing', async (_name, body) => {
    for (const viaExpress of [false, true]) {
      const answer = await send(fixture, body, fixture.api.tokens.service, viaExpress);
      expect([answer.status, codesOf(answer.body)]).toEqual([400, ['BAD_REQUEST']]);
    }
    expect(await fixture.api.redis.client.dbsize()).toBe(0);
  });

  it('logs the refused request with its code', async () => {
    const response = await fetch(fixture.api.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'trusted-unknown-1' },
      body: JSON.stringify({ extensions: byHash('ef'.repeat(32)) }),
    });
    expect(response.status).toBe(200);
    const lines = fixture.api.logs.filter((line) => line.reqId === 'trusted-unknown-1');
    expect(lines).toEqual([expect.objectContaining({ msg: 'request', errors: ['PERSISTED_QUERY_NOT_FOUND'] })]);
  });

  it('runs a registered subscription by hash over WebSocket, and refuses an unknown hash there', async () => {
    const { service, user } = fixture.api.tokens;
    const updated = registered('CounterUpdated');
    const { client } = fixture.connect(user);
    const events: unknown[] = [];
    const subscribed = new Promise<void>((resolve) => {
      client.subscribe(
        { query: '', extensions: byHash(updated.hash), variables: { name: 'ws-hits' } },
        { next: (value) => void events.push(value.data), error: () => undefined, complete: () => undefined },
      );
      setTimeout(resolve, 300);
    });
    await subscribed;
    await send(fixture, { extensions: byHash(counter.hash), variables: { name: 'ws-hits', count: 1 } }, service);
    const deadline = Date.now() + 5000;
    while (events.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(events).toEqual([{ counterUpdated: { name: 'ws-hits', time: expect.any(Number) } }]);

    const unknown = await overSocket(fixture, user, { query: '', extensions: byHash('ab'.repeat(32)) });
    expect(codesOf(unknown)).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
    const otherText = await overSocket(fixture, user, { query: '{ me { userId } }', extensions: byHash(updated.hash) });
    expect(codesOf(otherText)).toEqual(['BAD_REQUEST']);
    // Logged with the name its registered document gives, as over HTTP.
    expect(fixture.api.logs).toContainEqual(
      expect.objectContaining({ msg: 'websocket operation', operation: 'CounterUpdated' }),
    );
  });
});

describe('trusted documents, required (TRUSTED_DOCUMENTS=require)', () => {
  const fixture = serverForThisFile({ COUNTER_CLEANUP: 'off', ROW_CACHE: 'off', TRUSTED_DOCUMENTS: 'require' });
  const counter = registered('UpdateCounter');
  const read = registered('Counter');
  const unlisted = 'mutation Mine { joinGuild(guild: "g1") }';

  it.each([false, true])('refuses a user document that is not registered (express: %p)', async (viaExpress) => {
    const answer = await send(fixture, { query: unlisted }, fixture.api.tokens.user, viaExpress);
    expect([answer.status, codesOf(answer.body)]).toEqual([400, ['PERSISTED_QUERY_NOT_IN_LIST']]);
    // Its text sent beside its own (correct) hash is not registered either.
    const hash = createHash('sha256').update(unlisted).digest('hex');
    const withHash = await send(fixture, { query: unlisted, extensions: byHash(hash) }, fixture.api.tokens.user);
    expect(codesOf(withHash.body)).toEqual(['PERSISTED_QUERY_NOT_IN_LIST']);
    const anonymous = await send(fixture, { query: '{ __typename }' }, undefined, viaExpress);
    expect(codesOf(anonymous.body)).toEqual(['PERSISTED_QUERY_NOT_IN_LIST']);
    expect(await fixture.api.redis.client.dbsize()).toBe(0);
  });

  it('runs registered documents for users, by hash or by their exact text, and anything for services', async () => {
    const { service, user } = fixture.api.tokens;
    const joined = await send(fixture, { query: unlisted }, service);
    expect(joined.body).toEqual({ data: { joinGuild: true } });
    const counted = await send(fixture, { query: counter.text, variables: { name: 'x', count: 2 } }, service);
    expect(counted.body).toEqual({ data: { updateCounter: true } });
    const byItsHash = await send(
      fixture,
      { extensions: byHash(read.hash), variables: { name: 'x', precision: 1 } },
      user,
    );
    const byItsText = await send(fixture, { query: read.text, variables: { name: 'x', precision: 1 } }, user);
    expect(byItsHash.body.data).toEqual({ counter: [{ count: 2, time: expect.any(Number) }] });
    expect(byItsText.text).toBe(byItsHash.text);
    // A registered document's text reformatted is another document: not registered.
    const reformatted = await send(fixture, { query: `${read.text}\n`, variables: { name: 'x', precision: 1 } }, user);
    expect(codesOf(reformatted.body)).toEqual(['PERSISTED_QUERY_NOT_IN_LIST']);
  });

  it('holds over GET: by hash it runs, an unregistered text is refused', async () => {
    const get = async (params: Record<string, string>) => {
      const url = new URL(fixture.api.url);
      for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
      const response = await fetch(url, {
        headers: { authorization: `Bearer ${fixture.api.tokens.user}`, 'apollo-require-preflight': 'true' },
      });
      return { status: response.status, body: (await response.json()) as Answer['body'] };
    };
    const unlistedGet = await get({ query: '{ me { userId } }' });
    expect([unlistedGet.status, codesOf(unlistedGet.body)]).toEqual([400, ['PERSISTED_QUERY_NOT_IN_LIST']]);
    const me = registered('Me');
    const byItsHash = await get({ extensions: JSON.stringify(byHash(me.hash)) });
    expect(byItsHash).toEqual({ status: 200, body: { data: { me: { userId: 'alice', funds: 0, items: 0 } } } });
  });

  it('holds over WebSocket: an unregistered user document is refused, a registered hash runs', async () => {
    const { user, service } = fixture.api.tokens;
    const refused = await overSocket(fixture, user, { query: 'query Mine { me { userId } }' });
    expect(codesOf(refused)).toEqual(['PERSISTED_QUERY_NOT_IN_LIST']);
    const me = registered('Me');
    const ran = await overSocket(fixture, user, { query: '', extensions: byHash(me.hash) });
    expect(ran).toEqual({ data: { me: { userId: 'alice', funds: 0, items: 0 } } });
    const asService = await overSocket(fixture, service, { query: 'query Mine { __typename }' });
    expect(asService).toEqual({ data: { __typename: 'Query' } });
  });
});

describe("registered documents over this server's document limits", () => {
  it('are left out with a warning where any document may run, and stop the start where only they may', async () => {
    const deep = registered('LocationUpload');
    const api = await startTestServer({ GRAPHQL_MAX_DEPTH: '2' });
    try {
      const warned = api.logs.filter((line) => String(line.msg).includes('over a GRAPHQL_MAX_* limit'));
      expect(warned.length).toBeGreaterThan(0);
      const loaded = api.logs.find((line) => line.msg === 'trusted documents loaded');
      expect(loaded?.documents).toBe(entries.length + Object.keys(webAppManifest).length - warned.length);
      const response = await fetch(api.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${api.tokens.service}` },
        body: JSON.stringify({ extensions: byHash(deep.hash), variables: { dataset: 'd', upload: 'u' } }),
      });
      expect(codesOf((await response.json()) as Answer['body'])).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
    } finally {
      await api.stop();
    }
    await expect(startTestServer({ GRAPHQL_MAX_DEPTH: '2', TRUSTED_DOCUMENTS: 'require' })).rejects.toThrow(
      /over a GRAPHQL_MAX_\* limit: .*Query depth limit of 2 exceeded/,
    );
  });
});

describe('a manifest that is not what it says', () => {
  const entry = (text: string) => ({ [`sha256:${createHash('sha256').update(text).digest('hex')}`]: text });
  it.each([
    [
      'a hash that is not its document',
      { ['sha256:' + '0'.repeat(64)]: 'query A { __typename }' },
      {},
      /not the sha256/,
    ],
    ['not an object', ['query A { __typename }'], {}, /not an object/],
    ['a document that does not validate', entry('query A { nope }'), {}, /is refused: Cannot query field "nope"/],
    ['a document that does not parse', entry('query A {'), {}, /is refused: Syntax Error/],
    [
      'introspection where it is off (not a limit to raise)',
      entry('query P { __schema { queryType { name } } }'),
      { INTROSPECTION: 'off' },
      /is refused: GraphQL introspection has been disabled/,
    ],
    [
      'a subscription that skips its root field',
      entry('subscription S { inboxChanged @skip(if: true) { chatId } }'),
      {},
      /is refused: .*@skip/,
    ],
  ])('fails the start: %s', async (_name, content, env, message) => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ria-trusted-')), 'manifest.json');
    fs.writeFileSync(file, JSON.stringify(content));
    await expect(startTestServer({ ...env, TRUSTED_DOCUMENTS_FILE: file })).rejects.toThrow(message);
  });
});
