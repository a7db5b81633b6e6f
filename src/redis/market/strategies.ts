// Builds the market strategy that configuration names, for the server, the tests and bench/.
import type { RedisClient } from '../client/connection';
import type { Logger } from '../../common/logger';
import { connectRedis, type RedisTarget } from '../client/connection';
import { ConnectionPool } from '../client/connection-pool';
import type { LeaseAcquirer } from '../leases/acquirer';
import type { MarketStrategy, MarketStrategyName } from './repository';
import { LockStrategy } from './lock';
import { ScriptStrategy, type WriteSettings } from './script';
import { WatchStrategy } from './watch';

export interface StrategyParts {
  redis: RedisTarget;
  /** The shared command connection (SCRIPT and LOCK). */
  commands: RedisClient;
  logger: Logger;
  /** LOCK only: the lock acquirer, made only when needed (it listens on a connection of its own). */
  locks: () => LeaseAcquirer;
  commandTimeoutMs?: number;
}

export interface MarketStrategySettings extends WriteSettings {
  /** How listings and purchases are carried out: one Lua script, WATCH with retries, or locks. */
  strategy: MarketStrategyName;
  /** WATCH: connections for transactions, one per caller at a time. */
  watchConnections: number;
  /** WATCH and LOCK: how long one call retries or waits for others before CONFLICT. */
  contentionTimeoutMs: number;
  /** LOCK: longest a lock is held, in case its holder dies. */
  lockTtlMs: number;
}

export function createMarketStrategy(settings: MarketStrategySettings, parts: StrategyParts): MarketStrategy {
  switch (settings.strategy) {
    case 'SCRIPT':
      return new ScriptStrategy(parts.commands, settings);
    case 'WATCH': {
      const connect = () =>
        connectRedis(parts.redis, {
          name: 'ria:market-watch',
          logger: parts.logger,
          commandTimeoutMs: parts.commandTimeoutMs,
        });
      return new WatchStrategy(
        new ConnectionPool(connect, settings.watchConnections),
        settings.contentionTimeoutMs,
        settings,
        parts.logger,
      );
    }
    case 'LOCK':
      return new LockStrategy(
        parts.commands,
        parts.locks(),
        { ttlMs: settings.lockTtlMs, waitMs: settings.contentionTimeoutMs },
        settings,
      );
  }
}
