// What the raw node:http and bare Apollo peers run on: the product's own parts (src/app/parts.ts,
// built from the same configuration: connections, token verifier, repositories, notifications),
// so that each peer does the product's work and differs from it only in what sits in front.
import 'reflect-metadata';
import pino from 'pino';
import { SERVICE_ROLE, type Principal } from '../../src/security/auth';
import { loadConfig } from '../../src/config';
import { badInput, forbidden, unauthenticated } from '../../src/common/errors';
import type { ChatMessage as StoredMessage } from '../../src/redis/chat';
import { holdTime, leaseName, leaseSecret, waitTime } from '../../src/resolvers/leases/args';
import { unixSeconds } from '../../src/common/time';
import { intInRange, validId, validName, validPrefix, validText } from '../../src/common/validation';
import { buildParts } from '../../src/app/parts';
import { Teardown } from '../../src/app/teardown';

export type Backend = Awaited<ReturnType<typeof openBackend>>;
/** One of the operations: the caller's principal (null without a token) and the GraphQL arguments. */
export type Operation = (caller: Caller, args: never) => Promise<unknown>;
type Caller = Principal | null;

export async function openBackend() {
  const config = loadConfig(process.env);
  const logger = pino({ level: 'warn' });
  const teardown = new Teardown(logger);
  const built = await buildParts(config, logger, teardown);
  const { chats, counters, guilds, semaphores, inbox } = built.domain;

  const signedIn = (caller: Caller): Principal => {
    if (!caller) throw unauthenticated();
    return caller;
  };
  const service = (caller: Caller): Principal => {
    if (!signedIn(caller).isService)
      throw forbidden(`This operation is for service callers (a token whose roles include "${SERVICE_ROLE}")`);
    return caller!;
  };
  const toMessage = (message: StoredMessage) => ({ ...message, ts: message.ts / 1000 });

  /** The six operations as the product's resolvers do them, minus GraphQL. */
  const operations = {
    async sendMessage(caller: Caller, args: { chatId: string; message: string; clientMessageId?: string | null }) {
      const user = signedIn(caller).userId;
      const id = validId(args.chatId, 'chatId');
      const text = validText(args.message, 'message', config.messaging.maxMessageLength);
      const { clientMessageId: given } = args;
      const clientId = given === null || given === undefined ? undefined : validName(given, 'clientMessageId');
      const sent = await chats.send(id, user, text, clientId, inbox.forSendScript(id));
      if (!sent.told) inbox.chat(sent.members, id, sent.message.id);
      return toMessage(sent.message);
    },
    async fetchPendingMessages(caller: Caller, { limit }: { limit?: number | null }) {
      const user = signedIn(caller).userId;
      const max = config.messaging.maxFetch;
      const count = limit === null || limit === undefined ? max : intInRange(limit, 'limit', 1, max);
      const pending = await chats.pending(user, count, true);
      return pending.map(({ chatId, remaining, messages }) => ({
        chatId,
        remaining,
        messages: messages.map(toMessage),
      }));
    },
    async updateCounter(caller: Caller, { name, count = 1 }: { name: string; count?: number }) {
      service(caller);
      const counter = validName(name, 'name');
      if (count === 0) throw badInput('count must not be zero', 'count');
      intInRange(count, 'count', -config.counters.maxIncrement, config.counters.maxIncrement);
      await counters.update(counter, count);
      return true;
    },
    async acquireSemaphore(caller: Caller, args: { name: string; limit: number; timeoutMs?: number; waitMs?: number }) {
      const owner = service(caller).userId;
      const name = leaseName(args.name);
      const limit = intInRange(args.limit, 'limit', 1, config.leases.maxLimit);
      const ttlMs = holdTime(args.timeoutMs ?? 10_000, 'timeoutMs', config.leases);
      const waitMs = waitTime(args.waitMs ?? 0, 'waitMs', config.leases);
      const lease = await semaphores.acquire({ name, limit, ttlMs, waitMs, owner });
      if (!lease) return null;
      return {
        name: lease.name,
        id: lease.id,
        fencingToken: lease.fencingToken,
        expiresAt: unixSeconds(lease.expiresAt),
      };
    },
    async releaseSemaphore(caller: Caller, args: { name: string; id: string }) {
      service(caller);
      return semaphores.repository.release(leaseName(args.name), leaseSecret(args.id, 'id'));
    },
    async guildMembers(
      caller: Caller,
      { guild, prefix, limit = 10 }: { guild: string; prefix: string; limit?: number },
    ) {
      const principal = signedIn(caller);
      const name = validName(guild, 'guild');
      const wanted = validPrefix(prefix, 'prefix');
      const count = intInRange(limit, 'limit', 1, config.autocomplete.maxGuildSearch);
      return guilds.search(name, wanted, count, principal.isService ? undefined : principal.userId);
    },
  };

  return {
    config,
    verifier: built.verifier,
    parts: built.domain,
    operations: operations as Record<keyof typeof operations, Operation>,
  };
}
