// The soak's task handler, loaded by the worker process (TASK_HANDLERS). Each run appends a line
// when it starts and one when it ends to the file in SOAK_TASK_LOG, so the soak can tell which
// process ran which attempt, and which runs a killed worker left unfinished.
'use strict';
const fs = require('node:fs');
const { setTimeout: sleep } = require('node:timers/promises');

const note = (event, { id, attempt }) =>
  fs.appendFileSync(
    process.env.SOAK_TASK_LOG,
    `${JSON.stringify({ event, id, attempt, pid: process.pid, at: Date.now() })}\n`,
  );

exports.handlers = {
  /** Works for `args.ms` (stopping early if the run is aborted), then returns who ran it. */
  async soak(args, context) {
    note('start', context);
    await sleep(Number(args && args.ms) || 0, undefined, { signal: context.signal });
    note('end', context);
    return { pid: process.pid, attempt: context.attempt };
  },
};
