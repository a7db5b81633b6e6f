// What the tests' push services share: the list of what each received, waited on by count (so a
// test waits for deliveries, never for a guessed delay), and the outage a test switches on.
import { EventEmitter } from 'node:events';

/**
 * How a service answers while a test has it out: `true` is 503, `'throttled'` is 429 (both with
 * Retry-After where the real service sends one), `'slow'` holds each request 30 s and then answers
 * 503 without taking it, as a hung service would (close() ends the held ones at once).
 */
export type Outage = boolean | 'slow' | 'throttled';

const SLOW_ANSWER_MS = 30_000;

export class Recorder<T> {
  private readonly items: T[] = [];
  private readonly events = new EventEmitter();

  add(item: T): void {
    this.items.push(item);
    this.events.emit('added');
  }

  list(): T[] {
    return [...this.items];
  }

  /** The first `n` items once there are at least `n`; rejects naming the count after `timeoutMs`. */
  waitFor(n: number, timeoutMs: number, what: string): Promise<T[]> {
    if (this.items.length >= n) return Promise.resolve(this.items.slice(0, n));
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.items.length < n) return;
        clearTimeout(timer);
        this.events.off('added', check);
        resolve(this.items.slice(0, n));
      };
      const timer = setTimeout(() => {
        this.events.off('added', check);
        reject(new Error(`${what}: waited ${timeoutMs} ms for ${n}, got ${this.items.length}`));
      }, timeoutMs);
      this.events.on('added', check);
    });
  }
}

/** Requests held by a 'slow' outage, so close() can end them instead of waiting 30 s. */
export class HeldRequests {
  private readonly held = new Map<NodeJS.Timeout, { answer: () => void; end: () => void }>();

  hold(answer: () => void, end: () => void): void {
    const timer = setTimeout(() => {
      this.held.delete(timer);
      answer();
    }, SLOW_ANSWER_MS);
    this.held.set(timer, { answer, end });
  }

  /** Answers every held request now. */
  answerAll(): void {
    const all = [...this.held];
    this.held.clear();
    for (const [timer, { answer }] of all) {
      clearTimeout(timer);
      answer();
    }
  }

  /** Ends every held request unanswered. */
  endAll(): void {
    const all = [...this.held];
    this.held.clear();
    for (const [timer, { end }] of all) {
      clearTimeout(timer);
      end();
    }
  }
}

/** A request's body, at most `limit` bytes; undefined when larger (the rest is read and dropped). */
export async function readBody(stream: AsyncIterable<Buffer | string>, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += bytes.length;
    if (size <= limit) chunks.push(bytes);
  }
  return size <= limit ? Buffer.concat(chunks) : undefined;
}
