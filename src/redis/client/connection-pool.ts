// Connections lent to one caller at a time. WATCH belongs to a connection: two callers sharing
// one would see each other's writes as conflicts, or miss them, so each transaction borrows a
// connection of its own for its whole length.
import type { RedisClient } from './connection';
import { AppError, conflict } from '../../common/errors';
import { closeRedis } from './connection';

type Hand = (client: RedisClient | undefined, error?: unknown) => void;

export class ConnectionPool {
  private readonly idle: RedisClient[] = [];
  private readonly waiting: Hand[] = [];
  private readonly open = new Set<RedisClient>();
  private opening = 0;
  private closed = false;

  constructor(
    private readonly connect: () => Promise<RedisClient>,
    private readonly size: number,
  ) {}

  /** Connections open or being opened (for tests and logs). */
  get connections(): number {
    return this.open.size + this.opening;
  }

  /**
   * Runs `work` on a connection of its own, waiting for one until `deadline` (performance.now()
   * time) or until `signal` aborts: CONFLICT then. A connection whose work failed other than with
   * an AppError (thrown only after the work tidied up) is closed, since it may still hold a WATCH.
   */
  async use<T>(work: (client: RedisClient) => Promise<T>, deadline: number, signal?: AbortSignal): Promise<T> {
    const client = await this.borrow(deadline, signal);
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

  private async borrow(deadline: number, signal?: AbortSignal): Promise<RedisClient> {
    if (this.closed) throw closedError();
    const idle = this.idle.pop();
    if (idle) return idle;
    if (this.connections < this.size) return this.openOne();
    return new Promise<RedisClient>((resolve, reject) => {
      let settled = false;
      const give = (): void => {
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', give);
        const at = this.waiting.indexOf(hand);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(conflict('the market is busy; try again'));
      };
      const hand: Hand = (client, error) => {
        if (settled) {
          // Gave up waiting while a connection was on its way: pass it on.
          if (client) this.giveBack(client);
          return;
        }
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', give);
        if (client) resolve(client);
        else reject(error instanceof Error ? error : closedError());
      };
      const timer = setTimeout(give, Math.max(0, deadline - performance.now()));
      signal?.addEventListener('abort', give, { once: true });
      this.waiting.push(hand);
    });
  }

  private async openOne(): Promise<RedisClient> {
    this.opening += 1;
    let client: RedisClient;
    try {
      client = await this.connect();
    } finally {
      this.opening -= 1;
    }
    if (this.closed) {
      await closeRedis(client);
      throw closedError();
    }
    this.open.add(client);
    return client;
  }

  private giveBack(client: RedisClient): void {
    if (this.closed) {
      this.discard(client);
      return;
    }
    const next = this.waiting.shift();
    if (next) next(client);
    else this.idle.push(client);
  }

  private discard(client: RedisClient): void {
    this.open.delete(client);
    void closeRedis(client).catch(() => undefined);
    // A caller waiting for a connection may now have one opened for it.
    const next = this.waiting.shift();
    if (next) this.openOne().then(next, (error: unknown) => next(undefined, error));
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const hand of this.waiting.splice(0)) hand(undefined);
    this.idle.length = 0;
    await Promise.all([...this.open].map((client) => closeRedis(client)));
    this.open.clear();
  }
}

const closedError = (): Error => new Error('the connection pool is closed');
