// The parts of the API, built once from the configuration: Redis connections, repositories,
// resolvers and the schema, background workers. Each part that must be closed is added to the
// teardown as it is made, so a failure half-way closes what was already open.
import type { GraphQLSchema } from 'graphql';
import type { TokenVerifier } from '../security/auth';
import { createTokenVerifier } from '../security/tokens';
import type { Config } from '../config';
import type { SqlRowSource } from '../db/row-source';
import { createRowSource } from './row-source';
import type { Logger } from '../common/logger';
import {
  closeRedis,
  connectRedis,
  isCluster,
  warnIfEvicting,
  warnIfTooFewReplicas,
  type RedisTarget,
} from '../redis/client/connection';
import type { RedisClient } from '../redis/client/redis-client';
import { ChatRepository } from '../redis/chat';
import { ContactsRepository } from '../redis/contacts';
import { CounterRepository } from '../redis/counter';
import { EmbeddedRedis } from '../redis/client/embedded';
import { GuildRepository } from '../redis/guild';
import { LeaseRepository } from '../redis/leases/repository';
import { LeaseSignals } from '../redis/leases/signals';
import { LeaseAcquirer } from '../redis/leases/acquirer';
import { MailboxRepository } from '../redis/mailbox';
import { MarketRepository } from '../redis/market/repository';
import { PushTargets } from '../redis/push/targets';
import { createMarketStrategy } from '../redis/market/strategies';
import { RowCacheRepository } from '../redis/row-cache';
import { TaskRepository } from '../redis/task';
import { TaskScheduleRepository } from '../redis/task-schedule';
import { LocationRepository } from '../redis/location/repository';
import { lazyLocator } from '../geo/ip-locator';
import { LocationResolver } from '../resolvers/location';
import { ViewerResolver } from '../resolvers/viewer';
import { LocationAggregator } from '../workers/location-aggregator';
import { ChatResolver } from '../resolvers/chat';
import { ChatChangesResolver } from '../resolvers/chat-changes';
import { ContactsResolver } from '../resolvers/contacts';
import { CounterResolver } from '../resolvers/counter';
import { GuildResolver } from '../resolvers/guild';
import { InboxNotifier, InboxResolver } from '../resolvers/inbox';
import { LockResolver } from '../resolvers/leases/lock';
import { MailboxResolver } from '../resolvers/mailbox';
import { MarketResolver } from '../resolvers/market';
import { PushResolver } from '../resolvers/push';
import { RowCacheResolver } from '../resolvers/row-cache';
import { SemaphoreResolver } from '../resolvers/leases/semaphore';
import { TaskResolver } from '../resolvers/task';
import { TaskScheduleResolver } from '../resolvers/task-schedule';
import { buildAppSchema } from './schema';
import { createRedisPubSub } from '../schema/pubsub';
import { channels, TOPICS } from '../schema/topics';
import type { Teardown } from './teardown';
import { CounterCleanupWorker } from '../workers/counter-cleanup';
import { RowCacheRefresher } from '../workers/row-cache-refresher';
import { loadHandlers } from '../workers/task-handlers';
import { startTaskRunner } from '../workers/task-runner';
import { TaskScheduler } from '../workers/task-scheduler';
import type { ApiMetrics } from '../metrics';
import { timeCommands } from '../redis/client/command-timing';

const COMMAND_TIMEOUT_MS = 5000;

export interface Parts {
  schema: GraphQLSchema;
  verifier: TokenVerifier;
  /** True when JWT_SECRET was unset and a development secret is in use. */
  usesDevelopmentSecret: boolean;
  /** The connection for commands, shared by every repository. */
  commands: RedisClient;
  /** Set when the server runs its own redis-server. */
  embeddedRedis: EmbeddedRedis | undefined;
  /** The database the row cache reads (opened on first use). */
  rowSource: SqlRowSource;
  /** Ends every wait for a lock or semaphore slot (with null): aborted before the HTTP drain. */
  stopWaiting: AbortController;
  /** Location datasets: the HTTP log upload appends to them. */
  locations: LocationRepository;
  /**
   * What the chat, counter, semaphore and guild resolvers were built on: the benchmark's raw and
   * bare-Apollo peers (bench/graphql/backend.ts) serve the same operations from these.
   */
  domain: {
    chats: ChatRepository;
    counters: CounterRepository;
    guilds: GuildRepository;
    semaphores: LeaseAcquirer;
    inbox: InboxNotifier;
    pubSub: ReturnType<typeof createRedisPubSub>;
  };
}

interface Worker {
  start(): void;
  stop(): Promise<void>;
}

export async function buildParts(
  config: Config,
  logger: Logger,
  teardown: Teardown,
  metrics?: ApiMetrics,
): Promise<Parts> {
  let embeddedRedis: EmbeddedRedis | undefined;
  let redis: RedisTarget | undefined = config.redisCluster ?? config.redisUrl;
  if (redis === undefined) {
    const started = await EmbeddedRedis.start({ dataDir: config.dataDir, logger });
    teardown.add(() => started.stop());
    embeddedRedis = started;
    redis = started.url;
  }

  const commands = await connectRedis(redis, {
    name: 'ria:commands',
    logger,
    commandTimeoutMs: COMMAND_TIMEOUT_MS,
    replicaWait: config.redisWait,
  });
  teardown.add(() => closeRedis(commands));
  if (metrics) timeCommands(commands, metrics.redis);
  await warnIfEvicting(commands, logger);
  await warnIfTooFewReplicas(commands, config.redisWait, logger);
  const subscriber = await connectRedis(redis, { name: 'ria:subscriber', logger, shardedSubscriber: true });
  teardown.add(() => closeRedis(subscriber));
  // Waiters for locks and semaphores listen on their own connection, so their SUBSCRIBEs do
  // not interleave with the GraphQL subscriptions' ones.
  const leaseSubscriber = await connectRedis(redis, { name: 'ria:lease-signals', logger, shardedSubscriber: true });
  teardown.add(() => closeRedis(leaseSubscriber));
  const leaseSignals = new LeaseSignals(leaseSubscriber, logger);
  teardown.add(async () => leaseSignals.close());
  const stopWaiting = new AbortController();
  const acquirer = (kind: 'lock' | 'semaphore'): LeaseAcquirer =>
    new LeaseAcquirer(new LeaseRepository(commands, kind, config.leases), leaseSignals, stopWaiting.signal);

  const usesDevelopmentSecret = config.jwtSecret === undefined && !config.isProduction;
  const verifier = createTokenVerifier(config, logger);

  const pubSub = createRedisPubSub({
    publisher: commands,
    subscriber,
    channelOf: channels({ rowCacheTable: config.rowCache.table }),
    logger,
    observer: metrics?.notifications,
  });
  const counters = new CounterRepository(commands, config.counters, TOPICS.counterUpdated.channel);
  const inbox = new InboxNotifier(pubSub, !isCluster(commands));
  const pushTargets = new PushTargets(commands, config.messaging);
  const chats = new ChatRepository(commands, config.messaging, pushTargets);
  const guilds = new GuildRepository(commands, config.autocomplete);
  const semaphores = acquirer('semaphore');
  const tasks = new TaskRepository(commands, config.tasks);
  const taskSchedules = new TaskScheduleRepository(commands, config.tasks);
  const marketStrategy = createMarketStrategy(
    { ...config.market, taskMaxAttempts: config.tasks.maxAttempts },
    {
      redis,
      commands,
      logger,
      locks: () => acquirer('lock'),
      commandTimeoutMs: COMMAND_TIMEOUT_MS,
    },
  );
  teardown.add(() => marketStrategy.close());
  const rowCache = new RowCacheRepository(commands, config.rowCache);
  const locations = new LocationRepository(commands, config.location, metrics?.location);
  metrics?.watchLocationBacklog(locations);
  metrics?.watchQueues(tasks, config.metrics.queues);
  const locator = lazyLocator(config.location.databases);
  // Opened only when the refresher first has a due row; closed after the workers stopped.
  const rowSource = createRowSource(config, logger);
  teardown.add(() => rowSource.close());
  const schema = await buildAppSchema(
    [
      new CounterResolver(counters, config.counters),
      new ChatResolver(chats, config.messaging, inbox),
      new ChatChangesResolver(chats, pubSub),
      new MailboxResolver(new MailboxRepository(commands, config.messaging), config.messaging, inbox),
      new InboxResolver(),
      new LockResolver(acquirer('lock'), config.leases),
      new SemaphoreResolver(semaphores, config.leases),
      new ContactsResolver(new ContactsRepository(commands, config.autocomplete), config.autocomplete),
      new GuildResolver(guilds, config.autocomplete),
      new TaskResolver(tasks, config.tasks),
      new TaskScheduleResolver(taskSchedules, config.tasks),
      new MarketResolver(new MarketRepository(commands, marketStrategy, config.market), config.market, inbox),
      new RowCacheResolver(rowCache, config.rowCache),
      new LocationResolver(locations, config.location, locator),
      new PushResolver(pushTargets, config.push),
      new ViewerResolver(),
    ],
    pubSub,
  );

  const workers: Worker[] = [];
  if (config.counters.cleanup) {
    workers.push(new CounterCleanupWorker({ repository: counters, ...config.counters, logger }));
  }
  if (config.rowCache.enabled) {
    workers.push(new RowCacheRefresher({ repository: rowCache, source: rowSource, logger, ...config.rowCache }));
  }
  if (config.location.aggregate) {
    workers.push(
      new LocationAggregator({
        repository: locations,
        locator,
        logger,
        ...config.location,
        onChunk: metrics?.location.chunk,
      }),
    );
  }
  for (const worker of workers) worker.start();
  teardown.add(async () => {
    await Promise.all(workers.map((worker) => worker.stop()));
  });
  if (config.worker.inApi) {
    const runner = await startTaskRunner({
      redis,
      commands,
      repository: tasks,
      handlers: await loadHandlers(config.worker.handlersModule!),
      tasks: config.tasks,
      worker: config.worker,
      logger,
    });
    teardown.add(() => runner.stop(config.shutdownTimeoutMs / 2));
    // Repeating tasks are enqueued wherever their queue's pollers run.
    const scheduler = new TaskScheduler({ queues: config.worker.queues, repository: taskSchedules, logger });
    scheduler.start();
    teardown.add(() => scheduler.stop());
  }

  return {
    schema,
    verifier,
    usesDevelopmentSecret,
    commands,
    embeddedRedis,
    rowSource,
    stopWaiting,
    locations,
    domain: { chats, counters, guilds, semaphores, inbox, pubSub },
  };
}
