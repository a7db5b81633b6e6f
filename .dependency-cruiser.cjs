// `npm run check:deps` (in `npm test`): the import rules of src/, so cycles and imports against the
// direction of the code (transports -> resolvers -> repositories -> Redis) cannot come back.
/** The process entry points, the composition root and the transports: the top of src/. */
const TOP = '^src/((main|worker)\\.ts$|app/|transports/)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules import each other, directly or round a loop: move what both need into a module of its own.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'repositories-stay-below',
      severity: 'error',
      comment:
        'src/redis and src/db are called by resolvers and workers, never the other way round (the transports: next rule).',
      from: { path: '^src/(redis|db)/' },
      to: { path: '^src/((resolvers|schema|security|workers)/|config)' },
    },
    {
      name: 'transports-stay-on-top',
      severity: 'error',
      comment: 'The transports and the entry points call into the rest; nothing below them imports them.',
      from: { path: '^src/', pathNot: TOP },
      to: { path: TOP },
    },
    {
      name: 'common-knows-nothing-else',
      severity: 'error',
      comment:
        'src/common (errors, logger, timeouts, input checks) is used by everything, so it imports nothing else of the app.',
      from: { path: '^src/common/' },
      to: { path: '^src/', pathNot: '^src/common/' },
    },
    {
      name: 'schema-types-below-resolvers',
      severity: 'error',
      comment:
        'GraphQL types in src/schema are used by resolvers, not the other way round (src/app builds the schema from both).',
      from: { path: '^src/schema/' },
      to: { path: '^src/resolvers/' },
    },
    {
      name: 'metrics-told-through-observers',
      severity: 'error',
      comment:
        'src/metrics is handed, by the composition root, to observers the lower layers define (redis/client/command-timing, schema/pubsub, the location repository); they never import it.',
      from: { path: '^src/(redis|db|schema|security|resolvers|workers|common|geo)/' },
      to: { path: '^src/metrics/' },
    },
    {
      name: 'no-tests-in-src',
      severity: 'error',
      comment: 'The product does not import its tests or benchmarks.',
      from: { path: '^src/' },
      to: { path: '^(tests|bench)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a cycle through types is still a cycle for a reader.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(dist|dist-bench|node_modules)/' },
  },
};
