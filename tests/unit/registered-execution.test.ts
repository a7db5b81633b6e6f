// src/transports/http-registered.ts against Apollo Server itself: the same schema and documents,
// resolvers that fail in every way a resolver can, and the answers compared status, headers and
// bytes. The API tests compare the two over real HTTP with the product's own resolvers; these
// reach the cases its resolvers never produce (an error's extensions.http, values that are not
// Errors, a result JSON cannot hold).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ApolloServer, HeaderMap } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import { buildSchema, GraphQLError, parse, validate } from 'graphql';
import pino from 'pino';
import { createErrorFormatter } from '../../src/schema/format-error';
import { loadTrustedDocuments } from '../../src/security/trusted-documents';
import { registeredExecution } from '../../src/transports/http-registered';

const typeDefs = `
  type Query {
    ok: String
    fails(how: String!): String
    required: String!
    big: Raw
  }
  scalar Raw
`;

const fail = (how: string): never => {
  switch (how) {
    case 'error':
      throw new Error('plain error');
    case 'string':
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- what a careless resolver does
      throw 'a string';
    case 'status':
      throw new GraphQLError('teapot', { extensions: { code: 'TEAPOT', http: { status: 418 } } });
    case 'headers':
      throw new GraphQLError('slow down', {
        extensions: { code: 'RATE_LIMITED', http: { status: 429, headers: new HeaderMap([['retry-after', '3']]) } },
      });
    case 'zero':
      throw new GraphQLError('zero', { extensions: { code: 'ZERO', http: { status: 0 } } });
    case 'odd':
      throw new GraphQLError('odd', { extensions: { code: 'ODD', http: { status: 401, headers: { a: 'b' } } } });
    default:
      throw new GraphQLError('coded', { extensions: { code: 'SOMETHING' } });
  }
};

const schema = buildSchema(typeDefs);
const resolvers: Record<string, (source: unknown, args: { how: string }) => unknown> = {
  ok: () => 'fine',
  fails: (_source, { how }) => fail(how),
  required: () => null,
  big: () => BigInt(1),
};
for (const [name, field] of Object.entries(schema.getQueryType()!.getFields())) field.resolve = resolvers[name];

const texts = {
  ok: 'query Ok { ok }',
  fails: 'query Fails($how: String!) { ok fails(how: $how) }',
  required: 'query Required { ok required }',
  big: 'query Big { big }',
};

const logger = pino({ level: 'silent' });

function setUp(isProduction: boolean) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ria-registered-')), 'manifest.json');
  const manifest = Object.fromEntries(
    Object.values(texts).map((text) => [`sha256:${createHash('sha256').update(text).digest('hex')}`, text]),
  );
  fs.writeFileSync(file, JSON.stringify(manifest));
  const trusted = loadTrustedDocuments(
    { mode: 'allow', file },
    { parse: (text) => parse(text), validate: (document) => validate(schema, document), limitErrors: () => [] },
    () => undefined,
  );
  const formatError = createErrorFormatter({ isProduction, logger });
  const direct = registeredExecution({
    schema,
    trusted,
    formatError,
    includeStacktrace: !isProduction,
    isDraining: () => false,
  });
  const apollo = new ApolloServer({
    schema,
    formatError,
    includeStacktraceInErrorResponses: !isProduction,
    plugins: [ApolloServerPluginCacheControlDisabled()],
    logger,
  });
  return { direct, apollo };
}

describe.each([true, false])('registered execution answers as Apollo (production: %p)', (isProduction) => {
  const { direct, apollo } = setUp(isProduction);
  beforeAll(() => apollo.start());
  afterAll(() => apollo.stop());

  async function both(body: Record<string, unknown>) {
    const report = { requestId: 'r', principal: null };
    const ours = await direct(body, undefined, report, () => Promise.resolve({}));
    const theirs = await apollo.executeHTTPGraphQLRequest({
      httpGraphQLRequest: {
        method: 'POST',
        headers: new HeaderMap([['content-type', 'application/json']]),
        search: '',
        body,
      },
      context: () => Promise.resolve({}),
    });
    if (theirs.body.kind !== 'complete') throw new Error('Apollo answered in chunks');
    const headers = new Map([...theirs.headers].filter(([name]) => name !== 'content-type'));
    return {
      ours: ours && { ...ours, body: comparable(ours.body) },
      theirs: { status: theirs.status ?? 200, headers, body: comparable(theirs.body.string) },
      report,
    };
  }

  /**
   * The body as sent in production; outside it, without the stack traces, whose frames name the
   * caller of graphql-js's execute (Apollo's pipeline or http-registered.ts) and so differ.
   */
  function comparable(body: string): string {
    if (isProduction) return body;
    const parsed = JSON.parse(body) as { errors?: { extensions?: Record<string, unknown> }[] };
    for (const error of parsed.errors ?? []) delete error.extensions?.stacktrace;
    expect(body.endsWith('}\n')).toBe(true);
    return JSON.stringify(parsed);
  }

  it.each(['error', 'string', 'status', 'headers', 'zero', 'odd', 'coded'])(
    'a resolver that throws: %s',
    async (how) => {
      const { ours, theirs, report } = await both({ query: texts.fails, variables: { how } });
      expect(ours).toEqual(theirs);
      expect(report).toMatchObject({ operation: 'Fails', errorCodes: [expect.any(String)] });
    },
  );

  it('a success, and a non-null field that bubbles up to null data', async () => {
    for (const query of [texts.ok, texts.required]) {
      const { ours, theirs } = await both({ query });
      expect(ours).toEqual(theirs);
    }
  });

  it('a result that JSON cannot hold', async () => {
    const { ours, theirs } = await both({ query: texts.big });
    expect(ours).toEqual(theirs);
    expect(ours?.status).toBe(500);
  });

  it('leaves to Apollo what it does not answer itself', async () => {
    const report = { requestId: 'r', principal: null };
    const context = () => Promise.resolve({});
    expect(await direct({ query: texts.fails, variables: { how: 5 } }, undefined, report, context)).toBeUndefined();
    expect(await direct({ query: 'query Other { ok }' }, undefined, report, context)).toBeUndefined();
    expect(await direct({ query: texts.ok }, 'application/graphql-response+json', report, context)).toBeUndefined();
    expect(await direct({ query: texts.ok, batch: true }, undefined, report, context)).toBeUndefined();
    expect(
      await direct({ query: texts.ok }, undefined, report, () => Promise.reject(new Error('no context'))),
    ).toBeUndefined();
  });
});
