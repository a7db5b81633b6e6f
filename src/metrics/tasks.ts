// Task queues, read at each scrape: tasks by state, how long the longest-due task has waited for
// a worker (worker lag), and whether the queue is paused. Only the queues named in the
// configuration (METRICS_QUEUES), so a scrape costs a bounded number of reads.
import { Gauge, type Registry } from 'prom-client';
import type { QueueDepth } from '../redis/task';
import type { ScrapeReads } from './scrape-reads';

export interface QueueReader {
  depth(queue: string): Promise<QueueDepth>;
}

export function watchQueues(registry: Registry, reads: ScrapeReads, repository: QueueReader, queues: string[]): void {
  if (queues.length === 0) return;
  const read = reads.shared('task_queues', () => Promise.all(queues.map((queue) => repository.depth(queue))));
  new Gauge({
    name: 'ria_task_queue_tasks',
    help: 'Tasks in a queue by state: waiting (due, not taken), delayed (not due yet), active (taken by a worker)',
    labelNames: ['queue', 'state'],
    registers: [registry],
    async collect() {
      const depths = await read();
      this.reset();
      depths?.forEach((depth, i) => {
        for (const state of ['waiting', 'delayed', 'active'] as const)
          this.set({ queue: queues[i], state }, depth[state]);
      });
    },
  });
  new Gauge({
    name: 'ria_task_queue_lag_seconds',
    help: 'How long the longest-due task of a queue has waited to be taken (0: none waiting)',
    labelNames: ['queue'],
    registers: [registry],
    async collect() {
      const depths = await read();
      this.reset();
      depths?.forEach((depth, i) => this.set({ queue: queues[i] }, depth.lagMs / 1000));
    },
  });
  new Gauge({
    name: 'ria_task_queue_paused',
    help: '1 while a queue is paused (pauseQueue): its workers take nothing and its lag grows',
    labelNames: ['queue'],
    registers: [registry],
    async collect() {
      const depths = await read();
      this.reset();
      depths?.forEach((depth, i) => this.set({ queue: queues[i] }, depth.paused ? 1 : 0));
    },
  });
}
