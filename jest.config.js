/**
 * Tests run against real redis-server processes that the tests start themselves: one Redis by
 * default, a local Redis Cluster with TEST_REDIS=cluster (`npm test` runs both passes).
 * `*.cluster.test.ts` files only make sense on a cluster; `*.single.test.ts` files only on one
 * Redis (they kill it, or check what only one Redis shows); tests/unit uses no Redis at all and
 * runs in the single pass only.
 */
const cluster = process.env.TEST_REDIS === 'cluster';

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/tests'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: cluster
    ? ['/node_modules/', '\\.single\\.test\\.ts$', '/tests/unit/']
    : ['/node_modules/', '\\.cluster\\.test\\.ts$'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  setupFiles: ['reflect-metadata'],
  // A ceiling, not a deadline the tests rely on (they wait on events): on a shared machine beside
  // CPU burners a test of many round trips to a cluster took more than 30 s.
  testTimeout: 60000,
  maxWorkers: 2,
};
