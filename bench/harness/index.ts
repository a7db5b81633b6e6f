// The benchmark harness: what every suite shares, so a suite file holds only its scenario.
//
// A suite (bench/<name>.ts, built to dist-bench/bench/<name>.js, listed in bench/run.ts SUITES):
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
//     report.table(title, header, rows, textColumns);  // printed to the log and kept for latest.md
//     report.note('One sentence of method or caveat.');
//   });
//
// - bench(): starts the suite's own redis-server; `admin` is an uncounted connection for INFO,
//   CONFIG, FLUSHDB and seeding; connect(), server(startProduct(url)) and defer() are cleaned up
//   however the suite ends; the result goes to `npm run bench` (or BENCH_RESULT_FILE).
// - alternate(): warm-up ('once': round 0, the default; 'none'; or a Steady rule: warm rounds until
//   the rate holds), then the measured rounds with the peers taking turns (rotate: true rotates the
//   order each round). Returns { measured, warm } per peer. Figures are medians of the rounds, a
//   ratio is taken round by round (report.ratio / pairedRatio).
// - measure(ops, work, { admin, label }): wall time, rate, round trips (requests) and commands the
//   process sent, its CPU; with admin also commands Redis executed, scripts, µs in them and its CPU.
// - Servers: startProduct(url, env, cpus) runs the built product (dist-bench/src/main.js);
//   startServerProcess for any other script; pin()/redisPid() keep load and server on separate CPUs;
//   benchTokens signs tokens the product accepts. HTTP load: Connection, post, runLoad.
// - Quick vs full: isQuick() (also `--quick`, BENCH_QUICK=1); size() picks the default by it.
// - Progress: steps(total).step(label) per round, or progress(fraction, label).
export { bench, type Bench } from './bench';
export { Connection, post, runLoad, type Answer, type LoadResult } from './http-load';
export {
  inParallel,
  within,
  alternate,
  size,
  stepsOf,
  untilSteady,
  type Alternated,
  type Round,
  type Steady,
} from './rounds';
export { measure, medianRange, perOp, rates, scriptStats, type Sample } from './measure';
export { isQuick, progress, summarize, type Figure, type Table } from './report';
export { countOn, countTraffic, since, snapshot, uncounted, type Traffic } from './round-trips';
export {
  benchTokens,
  BENCH_JWT_SECRET,
  pin,
  pinnable,
  PRODUCT_ENV,
  redisPid,
  startProduct,
  startServerProcess,
  type ServerProcess,
} from './server-process';
export { pairedRatio, Steps, tableOf, type SuiteReport } from './suite';
export {
  commandCount,
  infoField,
  keyBytes,
  mean,
  median,
  percentile,
  printTable,
  redisCpuSeconds,
  seeded,
  sumOf,
  usedMemory,
} from './support';
