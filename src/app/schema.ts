// Builds the executable schema once, wiring each resolver class to the instance the composition
// root made for it (type-graphql asks the container for resolver instances).
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { buildSchema, type ContainerType, type PubSub } from 'type-graphql';
import { ChatResolver } from '../resolvers/chat';
import { ChatChangesResolver } from '../resolvers/chat-changes';
import { ContactsResolver } from '../resolvers/contacts';
import { CounterResolver } from '../resolvers/counter';
import { GuildResolver } from '../resolvers/guild';
import { InboxResolver } from '../resolvers/inbox';
import { LockResolver } from '../resolvers/leases/lock';
import { MailboxResolver } from '../resolvers/mailbox';
import { MarketResolver } from '../resolvers/market';
import { PushResolver } from '../resolvers/push';
import { RowCacheResolver } from '../resolvers/row-cache';
import { SemaphoreResolver } from '../resolvers/leases/semaphore';
import { TaskResolver } from '../resolvers/task';
import { TaskScheduleResolver } from '../resolvers/task-schedule';
import { LocationResolver } from '../resolvers/location';
import { ViewerResolver } from '../resolvers/viewer';
import { authChecker } from '../schema/context';

export const RESOLVERS = [
  CounterResolver,
  ChatResolver,
  ChatChangesResolver,
  MailboxResolver,
  InboxResolver,
  LockResolver,
  SemaphoreResolver,
  ContactsResolver,
  GuildResolver,
  TaskResolver,
  TaskScheduleResolver,
  MarketResolver,
  RowCacheResolver,
  LocationResolver,
  PushResolver,
  ViewerResolver,
] as const;

type ResolverClass = (typeof RESOLVERS)[number];
type ResolverInstance = InstanceType<ResolverClass>;

export async function buildAppSchema(resolvers: ResolverInstance[], pubSub: PubSub): Promise<GraphQLSchema> {
  const byClass = new Map<unknown, ResolverInstance>(resolvers.map((instance) => [instance.constructor, instance]));
  const container: ContainerType = {
    get(someClass: unknown) {
      const instance = byClass.get(someClass);
      if (!instance) throw new Error(`No instance was provided for resolver ${String(someClass)}`);
      return instance;
    },
  };
  const schema = await buildSchema({ resolvers: RESOLVERS, container, authChecker, pubSub, validate: false });
  for (const instance of resolvers) if (instance instanceof ChatChangesResolver) instance.serve(schema);
  return schema;
}

/** The SDL as committed in schema.graphql, sorted so that it only changes when the schema does. */
export function schemaSdl(schema: GraphQLSchema): string {
  return `# Generated from the type-graphql classes by \`npm run schema\`; do not edit.\n\n${printSchema(lexicographicSortSchema(schema))}\n`;
}
