// Peers "bare Apollo" (BENCH_SCHEMA=sdl: a hand-written schema, plain resolvers over the same
// repositories) and "Apollo + type-graphql" (the product's resolver classes): @apollo/server's
// standalone server, no product middleware. The difference between the two is type-graphql's cost.
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { GraphQLError } from 'graphql';
import { SafeIntResolver } from 'graphql-scalars';
import { AppError } from '../../src/common/errors';
import type { GraphQLContext } from '../../src/schema/context';
import { openBackend, type Operation } from './backend';

const SDL = /* GraphQL */ `
  scalar SafeInt
  type ChatMessage {
    chatId: ID!
    id: Int!
    message: String!
    sender: ID!
    ts: Float!
  }
  type PendingChat {
    chatId: ID!
    messages: [ChatMessage!]!
    remaining: Int!
  }
  type SemaphoreLease {
    expiresAt: Float!
    fencingToken: SafeInt!
    id: String!
    name: String!
  }
  type Query {
    guildMembers(guild: String!, prefix: String!, limit: Int! = 10): [String!]!
  }
  type Mutation {
    sendMessage(chatId: ID!, message: String!, clientMessageId: ID): ChatMessage!
    fetchPendingMessages(limit: Int): [PendingChat!]!
    updateCounter(name: String!, count: Int! = 1, at: Float): Boolean!
    acquireSemaphore(name: String!, limit: Int!, timeoutMs: Int! = 10000, waitMs: Int! = 0): SemaphoreLease
    releaseSemaphore(name: String!, id: String!): Boolean!
  }
`;

/** A backend operation as a resolver, the product's AppErrors turned into GraphQL errors as its formatter does. */
const resolver = (operation: Operation) => (_: unknown, args: object, context: GraphQLContext) =>
  operation(context.principal, args).catch((error: unknown) => {
    if (error instanceof AppError) throw new GraphQLError(error.message, { extensions: { code: error.code } });
    throw error;
  });

async function main(): Promise<void> {
  const backend = await openBackend();
  // Without the cache-control plugin, as the product runs: it wraps every resolver to compute a
  // policy nothing here sets, and a peer paying for it would flatter the product.
  const plugins = [ApolloServerPluginCacheControlDisabled()];
  // Apollo's own way of taking a schema as SDL and a resolver map, or the product's schema.
  const { guildMembers, ...mutations } = backend.operations;
  const schema =
    process.env.BENCH_SCHEMA === 'type-graphql'
      ? { schema: await backend.schema() }
      : {
          typeDefs: SDL,
          resolvers: {
            SafeInt: SafeIntResolver,
            Query: { guildMembers: resolver(guildMembers) },
            Mutation: Object.fromEntries(
              Object.entries(mutations).map(([name, operation]) => [name, resolver(operation)]),
            ),
          },
        };
  // Apollo stops the server on SIGTERM and ends the process.
  await startStandaloneServer(new ApolloServer<GraphQLContext>({ ...schema, plugins }), {
    listen: { port: Number(process.env.PORT), host: '127.0.0.1' },
    context: async ({ req }) => {
      try {
        return {
          principal: backend.principalOf(req.headers.authorization),
          requestId: randomUUID(),
          logger: backend.logger,
        };
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        throw new GraphQLError(error.message, { extensions: { code: error.code, http: { status: 401 } } });
      }
    },
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
