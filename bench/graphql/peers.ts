// The peers beside the product, run by BENCH_PEER: "raw" (node:http, nothing in front of the
// product's resolvers: POST /op/<operation> with the variables as the JSON body, the result as JSON;
// the limit for this work in one Node process), "apollo" (@apollo/server's standalone server with the
// product's schema as SDL and plain resolvers calling the same resolver methods), "yoga" (GraphQL Yoga
// on node:http) and "mercurius" (on fastify, with graphql-jit) with the same SDL, resolvers and
// context, and "apollo+tg" (Apollo with the product's type-graphql schema): the difference between
// it and "apollo" is type-graphql's cost. All run on the product's own parts (src/app/parts.ts).
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { GraphQLError, printSchema } from 'graphql';
import { SafeIntResolver } from 'graphql-scalars';
import pino from 'pino';
import fastify, { type FastifyRequest } from 'fastify';
import mercurius, { type IResolvers } from 'mercurius';
import { authorize, bearerToken, SERVICE_ROLE, type Principal } from '../../src/security/auth';
import { AppError } from '../../src/common/errors';
import { loadConfig } from '../../src/config';
import { ChatResolver } from '../../src/resolvers/chat';
import { CounterResolver } from '../../src/resolvers/counter';
import { GuildResolver } from '../../src/resolvers/guild';
import { InboxResolver } from '../../src/resolvers/inbox';
import { SemaphoreResolver } from '../../src/resolvers/leases/semaphore';
import type { GraphQLContext } from '../../src/schema/context';
import { buildAppSchema } from '../../src/app/schema';
import { buildParts } from '../../src/app/parts';
import { Teardown } from '../../src/app/teardown';

/** One operation without GraphQL: the caller's principal (null without a token) and the arguments. */
type Operation = (caller: Principal | null, args: object) => Promise<unknown>;

/** An operation as an Apollo resolver, the product's AppErrors turned into GraphQL errors as its formatter does. */
const resolver = (operation: Operation) => (_: unknown, args: object, context: GraphQLContext) =>
  operation(context.principal, args).catch((error: unknown) => {
    if (error instanceof AppError) throw new GraphQLError(error.message, { extensions: { code: error.code } });
    throw error;
  });

function reply(res: http.ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const logger = pino({ level: 'warn' });
  const built = await buildParts(config, logger, new Teardown(logger));
  const { chats, counters, guilds, semaphores, inbox, pubSub } = built.domain;
  const chat = new ChatResolver(chats, config.messaging, inbox);
  const counter = new CounterResolver(counters, config.counters);
  const semaphore = new SemaphoreResolver(semaphores, config.leases);
  const guild = new GuildResolver(guilds, config.autocomplete);
  /** The resolver's method behind its @Authorized(roles) check, with the schema's defaults for arguments left out. */
  const operation =
    <A>(roles: string[], resolve: (args: A, context: GraphQLContext) => Promise<unknown>, defaults = {}): Operation =>
    async (principal, args) => {
      authorize(principal, roles);
      return resolve({ ...defaults, ...args } as A, { principal, requestId: '', logger });
    };
  const service = [SERVICE_ROLE];
  const operations: Record<string, Operation> = {
    sendMessage: operation([], chat.sendMessage.bind(chat)),
    fetchPendingMessages: operation([], chat.fetchPendingMessages.bind(chat)),
    updateCounter: operation(service, counter.updateCounter.bind(counter), { count: 1 }),
    acquireSemaphore: operation(service, semaphore.acquireSemaphore.bind(semaphore), { timeoutMs: 10_000, waitMs: 0 }),
    releaseSemaphore: operation(service, semaphore.releaseSemaphore.bind(semaphore)),
    guildMembers: operation([], guild.guildMembers.bind(guild), { limit: 10 }),
  };
  /** The caller of a request with this Authorization header; throws the product's AppError for a bad token. */
  const principalOf = async (authorization: string | undefined): Promise<Principal | null> => {
    const token = bearerToken(authorization);
    return token === undefined ? null : built.verifier.verify(token);
  };
  const port = Number(process.env.PORT);

  if (process.env.BENCH_PEER === 'raw') {
    const server = http.createServer((req, res) => {
      const name = req.method === 'POST' && req.url?.startsWith('/op/') ? req.url.slice(4) : '';
      if (!Object.hasOwn(operations, name)) return reply(res, 404, { error: 'NOT_FOUND' });
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        (async () => {
          const args = JSON.parse(Buffer.concat(chunks).toString()) as object;
          reply(res, 200, { data: await operations[name](await principalOf(req.headers.authorization), args) });
        })().catch((error: unknown) => {
          if (error instanceof AppError) reply(res, 400, { error: error.code, message: error.message });
          else reply(res, 500, { error: 'INTERNAL_SERVER_ERROR', message: String(error) });
        });
      });
    });
    server.keepAliveTimeout = 60_000;
    // Node's default on SIGTERM (ServerProcess.stop) ends the process at once.
    return void server.listen(port, '127.0.0.1');
  }

  const { guildMembers, ...mutations } = operations;
  // The product's schema over these resolvers only (its container refuses the others if they ever
  // were asked for); the GraphQL peers but apollo+tg take it as SDL with one plain resolver map.
  const product = await buildAppSchema([chat, counter, semaphore, guild, new InboxResolver()], pubSub);
  const typeDefs = printSchema(product);
  const resolvers = {
    SafeInt: SafeIntResolver,
    Query: { guildMembers: resolver(guildMembers) },
    Mutation: Object.fromEntries(Object.entries(mutations).map(([name, call]) => [name, resolver(call)])),
  };
  const contextOf = async (authorization: string | undefined): Promise<GraphQLContext> => {
    try {
      return { principal: await principalOf(authorization), requestId: randomUUID(), logger };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      throw new GraphQLError(error.message, { extensions: { code: error.code, http: { status: 401 } } });
    }
  };

  if (process.env.BENCH_PEER === 'yoga') {
    // Yoga's typings bring in the DOM library, which retypes fetch for the whole program, so it
    // comes in untyped. Its parse and validation cache is on unless parserAndValidationCache is false.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { createSchema, createYoga } = require('graphql-yoga') as {
      createSchema(definition: object): object;
      createYoga(options: object): http.RequestListener;
    };
    type YogaContext = { request: { headers: { get(name: string): string | null } } };
    const context = ({ request }: YogaContext) => contextOf(request.headers.get('authorization') ?? undefined);
    const yoga = createYoga({ schema: createSchema({ typeDefs, resolvers }), context, graphiql: false });
    return void http.createServer(yoga).listen(port, '127.0.0.1');
  }
  if (process.env.BENCH_PEER === 'mercurius') {
    const app = fastify({ logger: false });
    // Mercurius caches parse and validation per text unless cache is false; jit: 1 compiles a
    // document with graphql-jit when it comes the second time.
    const context = (request: FastifyRequest) => contextOf(request.headers.authorization);
    await app.register(mercurius, { schema: typeDefs, resolvers: resolvers as IResolvers, jit: 1, context });
    return void (await app.listen({ port, host: '127.0.0.1' }));
  }
  // Without the cache-control plugin, as the product runs: it wraps every resolver to compute a
  // policy nothing here sets, and a peer paying for it would flatter the product.
  const plugins = [ApolloServerPluginCacheControlDisabled()];
  const schema = process.env.BENCH_PEER === 'apollo+tg' ? { schema: product } : { typeDefs, resolvers };
  // Apollo stops the server on SIGTERM and ends the process.
  await startStandaloneServer(new ApolloServer<GraphQLContext>({ ...schema, plugins }), {
    listen: { port, host: '127.0.0.1' },
    context: ({ req }) => contextOf(req.headers.authorization),
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
