// The client type every repository takes, apart from connection.ts (which makes clients and
// defines their scripts on them), so scripts.ts can name it without an import cycle.
import type Redis from 'ioredis';
import type { Cluster } from 'ioredis';

/** Either client: every repository works on both, as every script keeps its keys in one slot. */
export type RedisClient = Redis | Cluster;
