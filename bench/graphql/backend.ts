// What the raw node:http and bare Apollo peers run on: the product's own parts (src/app/parts.ts,
// built from the same configuration) and its own resolvers, called without GraphQL, so that each
// peer does the product's work and differs from it only in what sits in front.
import 'reflect-metadata';
import pino from 'pino';
import { authorize, bearerToken, SERVICE_ROLE, type Principal } from '../../src/security/auth';
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

/** One of the operations: the caller's principal (null without a token) and the GraphQL arguments. */
export type Operation = (caller: Principal | null, args: object) => Promise<unknown>;

export async function openBackend() {
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

  return {
    logger,
    /** The caller of a request with this Authorization header; throws the product's AppError for a bad token. */
    principalOf(authorization: string | undefined): Principal | null {
      const token = bearerToken(authorization);
      return token === undefined ? null : built.verifier.verify(token);
    },
    operations: {
      sendMessage: operation([], chat.sendMessage.bind(chat)),
      fetchPendingMessages: operation([], chat.fetchPendingMessages.bind(chat)),
      updateCounter: operation(service, counter.updateCounter.bind(counter), { count: 1 }),
      acquireSemaphore: operation(service, semaphore.acquireSemaphore.bind(semaphore), {
        timeoutMs: 10_000,
        waitMs: 0,
      }),
      releaseSemaphore: operation(service, semaphore.releaseSemaphore.bind(semaphore)),
      guildMembers: operation([], guild.guildMembers.bind(guild), { limit: 10 }),
    },
    /** The product's schema over these resolvers only: the container refuses the others if they ever were asked for. */
    schema: () => buildAppSchema([chat, counter, semaphore, guild, new InboxResolver()], pubSub),
  };
}
