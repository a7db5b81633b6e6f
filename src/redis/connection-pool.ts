// Connections lent to one caller at a time. WATCH belongs to a connection: two callers sharing
// one would see each other's writes as conflicts, or miss them, so each transaction borrows a
// connection of its own for its whole length.
import type Redis from 'ioredis';
import { AppError, conflict } from '../errors';
import { closeRedis } from './connection';

export class ConnectionPool {
  private readonly idle: Redis[] = [];
  private readonly waiting: ((client: Redis | undefined) => void)[] = [];
  private readonly open = new Set<Redis>();
  private opening = 0;
  private closed = false;

  constructor(
    private readonly connect: () => Promise<Redis>,
    private readonly size: number,
    /** How long a caller waits for a connection before CONFLICT. */
    private readonly waitMs: number,
  ) {}

  /**
   * Runs `work` on a connection of its own. A connection whose work failed other than with an
   * AppError (thrown only after the work tidied up) is closed, since it may still hold a WATCH.
   */
  async use<T>(work: (client: Redis) => Promise<T>): Promise<T> {
    const client = await this.borrow();
    let reusable = false;
    try {
      const result = await work(client);
      reusable = true;
      return result;
    } catch (error) {
      reusable = error instanceof AppError;
      throw error;
    } finally {
      if (reusable) this.giveBack(client);
      else this.discard(client);
    }
  }

  private async borrow(): Promise<Redis> {
    if (this.closed) throw new Error('the connection pool is closed');
    const idle = this.idle.pop();
    if (idle) return idle;
    if (this.open.size + this.opening < this.size) {
      this.opening += 1;
      try {
        const client = await this.connect();
        this.open.add(client);
        return client;
      } finally {
        this.opening -= 1;
      }
    }
    return new Promise<Redis>((resolve, reject) => {
      let settled = false;
      const timer = setTimeout(() => {
        settled = true;
        const at = this.waiting.indexOf(hand);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(conflict('the market is busy; try again'));
      }, this.waitMs);
      const hand = (client: Redis | undefined): void => {
        clearTimeout(timer);
        if (settled) {
          // Gave up waiting while a connection was being opened for it: pass that one on.
          if (client) this.giveBack(client);
          return;
        }
        settled = true;
        if (client) resolve(client);
        else reject(new Error('the connection pool is closed'));
      };
      this.waiting.push(hand);
    });
  }

  private giveBack(client: Redis): void {
    const next = this.waiting.shift();
    if (next) next(client);
    else this.idle.push(client);
  }

  private discard(client: Redis): void {
    this.open.delete(client);
    void closeRedis(client).catch(() => undefined);
    // A caller waiting for a connection may now open one.
    const next = this.waiting.shift();
    if (next) {
      this.borrow().then(next, () => next(undefined));
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const hand of this.waiting.splice(0)) hand(undefined);
    this.idle.length = 0;
    await Promise.all([...this.open].map((client) => closeRedis(client)));
    this.open.clear();
  }
}
