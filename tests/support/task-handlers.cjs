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
  const line = { event, id: context.id, name: context.name, attempt: context.attempt, pid: process.pid, at: Date.now() };
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
      await new Promise((_, reject) => context.signal.addEventListener('abort', () => reject(context.signal.reason), { once: true }));
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

  /** Runs until the file `args.release` exists, then completes. */
  async hold(args, context) {
    note(args, context, 'start');
    while (!fs.existsSync(args.release)) await sleep(20, context.signal);
    note(args, context, 'end');
    return { released: true, attempt: context.attempt };
  },
};
