/**
 * Tests run against real redis-server processes that the tests start themselves: one Redis by
 * default, a local Redis Cluster with TEST_REDIS=cluster (`npm test` runs both passes).
 * `*.cluster.test.ts` files only make sense on a cluster; `*.single.test.ts` files only on one
 * Redis (they kill it, or check what only one Redis shows); files that use no Redis at all run
 * in the single pass only.
 */
const cluster = process.env.TEST_REDIS === 'cluster';

const WITHOUT_REDIS = ['config', 'fold', 'timeout', 'scripts', 'auth', 'document-cache', 'ioredis-patches', 'soak-checks', 'request-gate'];

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/tests'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: cluster
    ? ['/node_modules/', '\\.single\\.test\\.ts$', ...WITHOUT_REDIS.map((name) => `/tests/${name}\\.test\\.ts$`)]
    : ['/node_modules/', '\\.cluster\\.test\\.ts$'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  setupFiles: ['reflect-metadata'],
  testTimeout: 30000,
  maxWorkers: 2,
};
