// The benchmark harness: what every suite shares, so a suite file (bench/<name>.ts, listed in
// bench/run.ts SUITES) holds only its scenario, in one call of bench(); bench/counters.ts is the
// smallest, and the example to start from. `admin` is uncounted (INFO, CONFIG, seeding); connect(),
// server(startProduct(url)) and defer() are undone however the suite ends. alternate() warms up
// ('once', 'none' or a Steady rule), then the peers take turns in each measured round; figures are
// medians of the rounds, ratios taken round by round. measure() counts time, round trips, commands
// and CPU, with admin Redis's side too; size() is an env override, else the quick or the full default.
export * from './bench';
export { Connection, post, runLoad } from './http-load';
export * from './measure';
export { countOn, type Traffic } from './round-trips';
export * from './rounds';
export * from './server-process';
export * from './suite';
export * from './support';
