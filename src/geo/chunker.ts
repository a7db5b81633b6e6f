// Cuts a stream of log bytes into chunks at line ends, as they arrive, so a file can be counted
// before it has all been sent. Memory is bounded whatever comes in: a "line" without an end
// (binary garbage, a file with no newlines) is kept only up to LINE_MAX bytes, and the rest of
// it is dropped; the aggregator then refuses it as too long, and it still counts as one line.

/** Longest line kept; a line this long or longer is refused as too long. */
export const LINE_MAX = 4096;
const NEWLINE = 0x0a;

export interface Chunk {
  /** Complete lines, each ending in a newline, except the last line of a file without one. */
  data: Buffer;
  lines: number;
}

export function countLines(data: Buffer): number {
  let lines = 0;
  for (let at = data.indexOf(NEWLINE); at !== -1; at = data.indexOf(NEWLINE, at + 1)) lines += 1;
  if (data.length > 0 && data[data.length - 1] !== NEWLINE) lines += 1;
  return lines;
}

export class LineChunker {
  private readonly ready: Buffer[] = [];
  private readySize = 0;
  /** The line being received: no newline yet. */
  private carry: Buffer[] = [];
  private carrySize = 0;
  /** The line being received is past LINE_MAX: its bytes are dropped until its newline. */
  private dropping = false;

  constructor(private readonly chunkBytes: number) {}

  /** The chunks that `bytes` completes (usually none). */
  push(bytes: Buffer): Chunk[] {
    let rest = bytes;
    if (this.dropping) {
      const end = rest.indexOf(NEWLINE);
      if (end === -1) return [];
      this.dropping = false;
      this.keepLine(Buffer.from([NEWLINE]));
      rest = rest.subarray(end + 1);
    }
    const last = rest.lastIndexOf(NEWLINE);
    if (last === -1) {
      this.extendCarry(rest);
      return this.cut(false);
    }
    const complete = rest.subarray(0, last + 1);
    this.keepLine(complete);
    this.extendCarry(rest.subarray(last + 1));
    return this.cut(false);
  }

  /**
   * The rest, once the input has ended. At the end of a file (`final`) its last line may lack a
   * newline and is a line; otherwise such an unfinished line is dropped, to be sent again whole.
   */
  end(final = true): Chunk[] {
    if (!final) {
      this.carry = [];
      this.carrySize = 0;
    }
    if (this.carrySize > 0) {
      this.ready.push(...this.carry);
      this.readySize += this.carrySize;
      this.carry = [];
      this.carrySize = 0;
    }
    this.dropping = false;
    return this.cut(true);
  }

  /** Joins the line in progress with `complete`, which starts with that line's remainder. */
  private keepLine(complete: Buffer): void {
    if (this.carrySize > 0) {
      this.ready.push(...this.carry);
      this.readySize += this.carrySize;
      this.carry = [];
      this.carrySize = 0;
    }
    this.ready.push(complete);
    this.readySize += complete.length;
  }

  private extendCarry(bytes: Buffer): void {
    if (bytes.length === 0) return;
    const room = LINE_MAX - this.carrySize;
    if (bytes.length > room) {
      if (room > 0) this.carry.push(Buffer.from(bytes.subarray(0, room)));
      this.carrySize = LINE_MAX;
      this.dropping = true;
      return;
    }
    // Copied: the caller's buffer may be reused once push returns.
    this.carry.push(Buffer.from(bytes));
    this.carrySize += bytes.length;
  }

  /** Chunks of about chunkBytes from what is ready, each ending at a line end; the rest waits unless final. */
  private cut(final: boolean): Chunk[] {
    if (this.readySize === 0 || (!final && this.readySize < this.chunkBytes)) return [];
    let data = Buffer.concat(this.ready, this.readySize);
    this.ready.length = 0;
    this.readySize = 0;
    const chunks: Chunk[] = [];
    while (data.length >= this.chunkBytes) {
      // The last line end within chunkBytes; a line longer than that ends the chunk where it ends.
      let end = data.lastIndexOf(NEWLINE, this.chunkBytes - 1);
      if (end === -1) end = data.indexOf(NEWLINE, this.chunkBytes);
      if (end === -1) break; // only the final line can lack its newline
      const piece = data.subarray(0, end + 1);
      chunks.push({ data: piece, lines: countLines(piece) });
      data = data.subarray(end + 1);
    }
    if (data.length > 0) {
      if (final) {
        chunks.push({ data, lines: countLines(data) });
      } else {
        this.ready.push(data);
        this.readySize = data.length;
      }
    }
    return chunks;
  }
}
