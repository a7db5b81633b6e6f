// Task handlers for the task-queue tests, loaded as users load theirs (TASK_HANDLERS), by the
// worker process (`node dist/worker.js`) and by the API process with TASK_WORKER=on.
//
// A handler whose args hold `log` (a file path) appends one JSON line per event to that file:
// { event: 'start' | 'end', id, name, attempt, pid, at }, so a test can see which process ran
// which attempt of which task, in what order and when, without sharing memory with the worker.
'use strict';
const fs = require('node:fs');

function note(args, context, event) {
  if (args === null || typeof args !== 'object' || typeof args.log !== 'string') return;
  const line = {
    event,
    id: context.id,
    name: context.name,
    attempt: context.attempt,
    pid: process.pid,
    at: Date.now(),
  };
  fs.appendFileSync(args.log, `${JSON.stringify(line)}\n`);
}

/** Resolves after `ms`, or rejects with the signal's reason once it is aborted. */
function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal && signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    if (signal) {
      signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          reject(signal.reason);
        },
        { once: true },
      );
    }
  });
}

exports.handlers = {
  /** Returns what it was given and how it was called. */
  echo(args, context) {
    note(args, context, 'start');
    return { args, id: context.id, name: context.name, attempt: context.attempt };
  },

  /** Takes `args.ms` (default 0), then returns the task id and attempt. */
  async work(args, context) {
    note(args, context, 'start');
    await sleep((args && args.ms) || 0, context.signal);
    note(args, context, 'end');
    return { id: context.id, attempt: context.attempt };
  },

  /** Always fails, naming the attempt. */
  async fail(args, context) {
    note(args, context, 'start');
    note(args, context, 'end');
    throw new Error(`boom on attempt ${context.attempt}`);
  },

  /**
   * Never returns on attempts up to `args.stallAttempts` (only an abort ends it: the run timed out,
   * its lease was lost or the worker is stopping); later attempts complete at once.
   */
  async stall(args, context) {
    note(args, context, 'start');
    if (context.attempt <= args.stallAttempts) {
      await new Promise((_, reject) =>
        context.signal.addEventListener('abort', () => reject(context.signal.reason), { once: true }),
      );
    }
    note(args, context, 'end');
    return { attempt: context.attempt };
  },

  /**
   * Blocks the worker's event loop for `args.ms` on attempts up to `args.spinAttempts` (so it
   * can renew no lease meanwhile), then returns the attempt.
   */
  spin(args, context) {
    note(args, context, 'start');
    if (context.attempt <= args.spinAttempts) {
      const until = Date.now() + args.ms;
      while (Date.now() < until) {
        // busy: no timers, no I/O
      }
    }
    note(args, context, 'end');
    return { attempt: context.attempt, pid: process.pid };
  },

  /** Fails on attempts up to `args.failAttempts`, naming the attempt; later attempts return it. */
  async flaky(args, context) {
    note(args, context, 'start');
    note(args, context, 'end');
    if (context.attempt <= args.failAttempts) throw new Error(`flaky on attempt ${context.attempt}`);
    return { attempt: context.attempt };
  },

  /**
   * Reports `{ step: i }` for i = 1..`args.steps` (waiting `args.ms` between reports, if given),
   * each report awaited, then returns the steps. With `args.bytes`, first reports a string of
   * that many characters (a report too large fails the run).
   */
  async progress(args, context) {
    note(args, context, 'start');
    if (args.bytes) await context.progress('x'.repeat(args.bytes));
    for (let step = 1; step <= args.steps; step++) {
      await context.progress({ step });
      if (args.ms) await sleep(args.ms, context.signal);
    }
    note(args, context, 'end');
    return { steps: args.steps };
  },

  /** Runs until the file `args.release` exists, then completes. */
  async hold(args, context) {
    note(args, context, 'start');
    while (!fs.existsSync(args.release)) await sleep(20, context.signal);
    note(args, context, 'end');
    return { released: true, attempt: context.attempt };
  },

  /**
   * Throws or returns an odd value, chosen by `args.kind`: what a careless or hostile handler
   * may do. The worker must record every one as a run's outcome and stay up.
   */
  odd(args, context) {
    note(args, context, 'start');
    const kinds = {
      'null-prototype': () => {
        throw Object.create(null);
      },
      'message-undefined': () => {
        const error = new Error('x');
        error.message = undefined;
        throw error;
      },
      'message-number': () => {
        const error = new Error('x');
        error.message = 42;
        throw error;
      },
      'to-string-throws': () => {
        throw {
          toString() {
            throw new Error('no text for you');
          },
        };
      },
      'message-getter-throws': () => {
        const error = new Error('x');
        Object.defineProperty(error, 'message', {
          get() {
            throw new Error('no message for you');
          },
        });
        throw error;
      },
      'revoked-proxy': () => {
        const { proxy, revoke } = Proxy.revocable({}, {});
        revoke();
        throw proxy;
      },
      'throws-null': () => {
        throw null;
      },
      'long-message': () => {
        throw new Error('\u{1F600}'.repeat(3000));
      },
      'rejects-symbol': () => Promise.reject(Symbol('odd')),
      'bigint-result': () => ({ big: 10n }),
      'cyclic-result': () => {
        const result = {};
        result.self = result;
        return result;
      },
      'to-json-throws': () => ({
        toJSON() {
          throw new Error('cannot serialise');
        },
      }),
      'function-result': () => () => 1,
      'deep-result': () => JSON.parse('['.repeat(33) + ']'.repeat(33)),
      'then-getter-throws': () =>
        Object.defineProperty({}, 'then', {
          get() {
            throw new Error('then getter');
          },
        }),
      // Starts a promise nobody awaits, which rejects after the run has completed.
      'stray-rejection': () => {
        new Promise((_, reject) => setTimeout(() => reject(new Error('stray rejection')), 20));
        return { done: true };
      },
    };
    return kinds[args.kind]();
  },
};
