// Preloaded into the soak's API processes only (`node --require`): every SOAK_HEAP_EVERY_MS it
// forces a full garbage collection and writes one line to stderr with the V8 heap used after it
// and the resident memory. Heap used after a full collection is what a leak raises; RSS and heap
// used without one swing by tens of MB with the collector's timing and hide a slow leak.
'use strict';
const v8 = require('node:v8');
const vm = require('node:vm');

// `gc` without --expose-gc on the command line (which NODE_OPTIONS refuses in Node 20).
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');
const every = Number(process.env.SOAK_HEAP_EVERY_MS || 30_000);

const timer = setInterval(() => {
  gc();
  const { heapUsed, rss } = process.memoryUsage();
  process.stderr.write(`${JSON.stringify({ soakHeap: { heapUsed, rss, at: Date.now() } })}\n`);
}, every);
timer.unref();
