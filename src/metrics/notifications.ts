// Subscription notifications by topic (schema/topics.ts): published by this process, received
// from Redis on the channels its subscribers listen to, and handed to those subscribers.
import type { Registry } from 'prom-client';
import type { NotificationObserver } from '../schema/pubsub';
import { TOPICS } from '../schema/topics';
import { OTHER } from './labels';
import { FastCounter, type CounterChild } from './fast';

export class NotificationMetrics implements NotificationObserver {
  private readonly publishedBy = new Map<string, CounterChild>();
  private readonly receivedBy = new Map<string, CounterChild>();
  private readonly deliveredBy = new Map<string, CounterChild>();
  private readonly caughtUpBy = new Map<string, CounterChild>();

  constructor(registry: Registry) {
    const published = new FastCounter(
      'ria_notifications_published_total',
      'Notifications this process published, by topic (most are published by Lua scripts: see received)',
      ['topic'],
      registry,
    );
    const received = new FastCounter(
      'ria_notifications_received_total',
      'Notifications Redis delivered to this process on channels its subscribers listen to, by topic',
      ['topic'],
      registry,
    );
    const delivered = new FastCounter(
      'ria_notifications_delivered_total',
      'Notifications handed to subscriptions of this process, by topic (one per subscriber)',
      ['topic'],
      registry,
    );
    const caughtUp = new FastCounter(
      'ria_notifications_catch_up_total',
      'Catch-up notices handed to subscriptions of this process after its subscriber connection came back, by topic',
      ['topic'],
      registry,
    );
    // Every topic from the start, so a rate reads 0 rather than nothing.
    for (const topic of [...Object.values(TOPICS).map((spec) => spec.name), OTHER]) {
      this.publishedBy.set(topic, published.child(topic));
      this.receivedBy.set(topic, received.child(topic));
      this.deliveredBy.set(topic, delivered.child(topic));
      this.caughtUpBy.set(topic, caughtUp.child(topic));
    }
  }

  published(topic: string): void {
    (this.publishedBy.get(topic) ?? this.publishedBy.get(OTHER)!).inc();
  }

  received(topic: string, subscribers: number): void {
    (this.receivedBy.get(topic) ?? this.receivedBy.get(OTHER)!).inc();
    (this.deliveredBy.get(topic) ?? this.deliveredBy.get(OTHER)!).inc(subscribers);
  }

  caughtUp(topic: string, subscribers: number): void {
    (this.caughtUpBy.get(topic) ?? this.caughtUpBy.get(OTHER)!).inc(subscribers);
  }
}
