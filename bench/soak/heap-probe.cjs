// Preloaded into the soak's API processes only (`node --require`): every 30 s it forces a full
// garbage collection and writes one line to stderr with the V8 heap used after it (what a leak
// raises; without a collection it swings by tens of MB) and the resident memory.
'use strict';
const v8 = require('node:v8');
const vm = require('node:vm');

// `gc` without --expose-gc on the command line (which NODE_OPTIONS refuses in Node 20).
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

const timer = setInterval(() => {
  gc();
  const { heapUsed, rss } = process.memoryUsage();
  process.stderr.write(`${JSON.stringify({ soakHeap: { heapUsed, rss, at: Date.now() } })}\n`);
}, 30_000);
timer.unref();
