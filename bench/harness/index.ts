// The benchmark harness: what every suite shares, so a suite file (bench/<name>.ts, listed in
// bench/run.ts SUITES) holds only its scenario:
//
//   bench({ id: 'foo', title: 'Foo: ours beside the book' }, async ({ admin, connect, report, steps }) => {
//     const redis = connect();                          // counted, scripts defined, closed at the end
//     const { measured } = await alternate({
//       peers: ['book', 'ours'] as const,
//       rounds: size('BENCH_FOO_ROUNDS', 3, 5),        // env, else the quick / the full default
//       steps: steps(stepsOf(2, 3, 'once')),            // round 0 warms up, round.size(n) = n/4
//       run: (peer, round) => measure(round.size(OPS), () => inParallel(round.size(OPS), 50, ...), { admin }),
//     });
//     report.ratio('foo.ours_vs_book', 'foo: ours / book (ops/s)', rates(measured.ours), rates(measured.book));
//     report.value('foo.ours_round_trips', 'foo: round trips per op', 'round trips', perOp(measured.ours),
//       { op: '<=', value: 1 });                        // also report.median, tableOf(report, ...), report.note
//   });
//
// `admin` is uncounted (INFO, CONFIG, seeding); connect(), server(startProduct(url)) and defer() are
// undone however the suite ends. alternate() warms up ('once', 'none' or a Steady rule), then the
// peers take turns in each measured round; figures are medians of the rounds, ratios taken round by
// round. measure() counts time, round trips, commands and CPU, with admin Redis's side too.
export * from './bench';
export { Connection, post, runLoad } from './http-load';
export * from './measure';
export { countOn, type Traffic } from './round-trips';
export * from './rounds';
export * from './server-process';
export * from './suite';
export * from './support';
