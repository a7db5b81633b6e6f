// The benchmark harness: what every suite shares, so a suite file holds only its scenario.
// A suite is bench/<name>.ts (built to dist-bench/bench/<name>.js, listed in bench/run.ts SUITES):
//
//   const OPS = size('BENCH_FOO_OPS', 500, 5_000);      // env, else the quick / the full default
//   const ROUNDS = size('BENCH_FOO_ROUNDS', 3, 5);
//
//   bench({ id: 'foo', title: 'Foo: ours beside the book' }, async ({ admin, connect, report, steps }) => {
//     const redis = connect();                          // counted, scripts defined, closed at the end
//     const { measured } = await alternate({
//       peers: ['book', 'ours'] as const,
//       rounds: ROUNDS,                                 // round 0 warms up (round.size(n) = n/4)
//       steps: steps(stepsOf(2, ROUNDS, 'once')),
//       run: (peer, round) => measure(round.size(OPS), () => inParallel(round.size(OPS), 50, ...), { admin }),
//     });
//     report.ratio('foo.ours_vs_book', 'foo: ours / book (ops/s)', rates(measured.ours), rates(measured.book));
//     report.median('foo.ours_rate', 'foo: ours', 'ops/s', rates(measured.ours));
//     report.value('foo.ours_round_trips', 'foo: round trips per op', 'round trips', perOp(measured.ours),
//       { op: '<=', value: 1 });
//     tableOf(report, title, textColumns, items, columns);  // printed to the log and kept for latest.md
//     report.note('One sentence of method or caveat.');
//   });
//
// bench() starts the suite's own redis-server; `admin` is uncounted (INFO, CONFIG, seeding);
// connect(), server(startProduct(url)) and defer() are undone however the suite ends. alternate()
// warms up ('once', 'none' or a Steady rule), then runs the measured rounds with the peers taking
// turns; figures are medians of the rounds, ratios taken round by round. measure() counts round
// trips, commands and CPU, with admin on the Redis side too. pin() and redisPid() keep load and
// server on separate CPUs; Connection and runLoad generate HTTP load.
export * from './bench';
export { Connection, runLoad } from './http-load';
export * from './measure';
export { countOn, type Traffic } from './round-trips';
export * from './rounds';
export * from './server-process';
export * from './suite';
export * from './support';
