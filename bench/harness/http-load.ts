// A small HTTP/1.1 keep-alive load generator: each connection sends its next prebuilt request as
// soon as the last answer (read by Content-Length) arrived, so it spends little CPU next to the
// servers it measures (node:http's client costs about as much as a small server).
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { inParallel } from './rounds';

type Answer = { status: number; body: Buffer };

export class Connection {
  private buffered: Buffer = Buffer.alloc(0);
  private waiting: { resolve: (answer: Answer) => void; reject: (error: Error) => void } | undefined;
  private failure: Error | undefined;

  private constructor(private readonly socket: net.Socket) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      this.buffered = this.buffered.length ? Buffer.concat([this.buffered, chunk]) : chunk;
      this.take();
    });
    const fail = (error: Error): void => {
      this.failure ??= error;
      this.waiting?.reject(error);
      this.waiting = undefined;
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('connection closed by the server')));
  }

  static open(port: number): Promise<Connection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(new Connection(socket)));
      socket.once('error', reject);
    });
  }

  /** Sends one prebuilt request and resolves with the answer. One request at a time. */
  send(request: Buffer): Promise<Answer> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.socket.write(request);
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private take(): void {
    const { waiting } = this;
    const end = this.buffered.indexOf('\r\n\r\n');
    if (end < 0 || !waiting) return;
    const head = this.buffered.subarray(0, end).toString('latin1');
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    const total = end + 4 + Number(length?.[1] ?? 0);
    if (length && this.buffered.length < total) return;
    this.waiting = undefined;
    if (!length) return waiting.reject(new Error(`answer without Content-Length: ${head.slice(0, 200)}`));
    waiting.resolve({ status: Number(head.slice(9, 12)), body: this.buffered.subarray(end + 4, total) });
    this.buffered = this.buffered.subarray(total);
  }
}

/** A POST of a JSON body, as bytes. */
export function post(path: string, body: unknown, headers: Record<string, string> = {}): Buffer {
  const payload = Buffer.from(JSON.stringify(body));
  const head = { host: '127.0.0.1', 'content-type': 'application/json', 'content-length': payload.length, ...headers };
  const lines = [`POST ${path} HTTP/1.1`, ...Object.entries(head).map(([name, value]) => `${name}: ${value}`)];
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), payload]);
}

type Operation = (connection: Connection, n: number, slot: number) => Promise<void>;

/** `total` operations over `connections`, each taking the next when done; one that throws stops the run. */
export async function runLoad(connections: Connection[], total: number, operation: Operation) {
  const latencies = new Float64Array(total);
  const started = performance.now();
  await inParallel(total, connections.length, async (n, slot) => {
    const begun = performance.now();
    await operation(connections[slot], n, slot);
    latencies[n] = performance.now() - begun;
  });
  const seconds = (performance.now() - started) / 1000;
  latencies.sort();
  return { operations: total, seconds, latencies };
}
