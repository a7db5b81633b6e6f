// `npm run check:deps` (in `npm test`): the import rules of src/, so cycles and imports against the
// direction of the code (transports -> resolvers -> repositories -> Redis) cannot come back.
/** The transports and the process entry points: the top of src/. */
const TOP = '(server|main|worker|http|graphql-http|ws|ws-transport)\\.ts$';

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
      comment: 'src/redis and src/db are called by resolvers and workers, never the other way round (the transports: next rule).',
      from: { path: '^src/(redis|db)/' },
      to: { path: '^src/(resolvers|schema|security|workers)/' },
    },
    {
      name: 'transports-stay-on-top',
      severity: 'error',
      comment: 'The transports and the entry points call into the rest; nothing below them imports them.',
      from: { path: '^src/(resolvers|schema|security|workers|redis|db)/' },
      to: { path: `^src/${TOP}` },
    },
    {
      name: 'infrastructure-knows-no-config',
      severity: 'error',
      comment: 'The logger, errors and timeouts are used by everything, so they import nothing of the app.',
      from: { path: '^src/(logger|errors|timeout)\\.ts$' },
      to: { path: '^src/', pathNot: '^src/(logger|errors|timeout)\\.ts$' },
    },
    {
      name: 'schema-types-below-resolvers',
      severity: 'error',
      comment:
        'GraphQL types in src/schema are used by resolvers, not the other way round. The two files that build and print the whole schema from the resolvers are the exception until the composition root has a folder of its own (issue 21).',
      from: { path: '^src/schema/', pathNot: '^src/schema/(index|emit)\\.ts$' },
      to: { path: '^src/resolvers/' },
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
