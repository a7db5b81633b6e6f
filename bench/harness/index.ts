// The benchmark harness: what every suite shares, so a suite file holds only its scenario.
// A suite is bench/<name>.ts (built to dist-bench/bench/<name>.js, listed in bench/run.ts SUITES):
//
//   import { alternate, bench, inParallel, measure, perOp, rates, size } from './harness';
//
//   const OPS = size('BENCH_FOO_OPS', 500, 5_000);      // env, else the quick / the full default
//   const ROUNDS = size('BENCH_FOO_ROUNDS', 3, 5);
//
//   bench({ id: 'foo', title: 'Foo: ours beside the book' }, async ({ admin, connect, report, steps }) => {
//     const redis = connect();                          // counted, scripts defined, closed at the end
//     const { measured } = await alternate({
//       peers: ['book', 'ours'] as const,
//       rounds: ROUNDS,                                 // round 0 warms up (round.size(n) = n/4)
//       steps: steps(2 * (ROUNDS + 1)),                 // stepsOf(peers, rounds, 'once') gives that
//       run: (peer, round) => measure(round.size(OPS), () => inParallel(round.size(OPS), 50, ...), { admin }),
//     });
//     report.ratio('foo.ours_vs_book', 'foo: ours / book (ops/s)', rates(measured.ours), rates(measured.book));
//     report.median('foo.ours_rate', 'foo: ours', 'ops/s', rates(measured.ours));
//     report.value('foo.ours_round_trips', 'foo: round trips per op', 'round trips', perOp(measured.ours),
//       { op: '<=', value: 1 });
//     report.table(title, header, rows, textColumns);  // or tableOf(report, title, textColumns, items, columns)
//     report.note('One sentence of method or caveat.');
//   });
//
// - bench(): the suite's own redis-server; `admin` is an uncounted connection for INFO, CONFIG,
//   FLUSHDB and seeding; connect(), server(startProduct(url)) and defer() are cleaned up however the
//   suite ends; the result goes to `npm run bench` (or BENCH_RESULT_FILE). Quick: isQuick().
// - alternate(): warm-up ('once', the default; 'none'; or a Steady rule), then the measured rounds
//   with the peers taking turns. Figures are medians of the rounds, a ratio is taken round by round.
// - measure(): wall time, rate, round trips and commands sent, CPU; with admin, Redis's side too.
// - Servers: startProduct / startServerProcess, pin() and redisPid() to keep load and server on
//   separate CPUs, benchTokens. HTTP load: Connection, runLoad. Progress: steps(total) or progress().
export { bench, type Bench } from './bench';
export { Connection, runLoad } from './http-load';
export { inParallel, within, alternate, size, stepsOf, untilSteady, type Steady } from './rounds';
export { measure, medianRange, perOp, rates, type Sample } from './measure';
export { countOn, type Traffic } from './round-trips';
export { benchTokens, pin, pinnable, PRODUCT_ENV, redisPid, startProduct, startServerProcess } from './server-process';
export { type ServerProcess } from './server-process';
export { isQuick, pairedRatio, progress, Steps, summarize, tableOf, type Figure, type SuiteReport } from './suite';
export { type Table } from './suite';
export { commandCount, keyBytes, mean, median, percentile, redisCpuSeconds, scriptStats, seeded } from './support';
export { sumOf, usedMemory } from './support';
