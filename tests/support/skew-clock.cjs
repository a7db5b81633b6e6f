// Preloaded with `node --require` to run a server whose wall clock is off by CLOCK_SKEW_MS, as an
// API instance on a badly synchronised machine would be. Monotonic timers are left alone.
const skew = Number(process.env.CLOCK_SKEW_MS || 0);
const RealDate = Date;
const realNow = RealDate.now.bind(RealDate);

class SkewedDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(realNow() + skew);
    else super(...args);
  }

  static now() {
    return realNow() + skew;
  }
}

globalThis.Date = SkewedDate;
