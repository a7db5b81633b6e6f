// One progress line on stderr for the command-line tools: redrawn in place on a terminal, a
// plain line every tenth of the way otherwise (so CI logs stay short).

const WIDTH = 28;

export class ProgressLine {
  private lastTenth = -1;
  private lastDraw = 0;
  private readonly tty = process.stderr.isTTY === true;

  /** `done` of `total` (0..1 when total is 0), with a label after the bar. */
  show(done: number, total: number, label: string, force = false): void {
    const share = total > 0 ? Math.min(1, done / total) : 0;
    if (this.tty) {
      if (!force && Date.now() - this.lastDraw < 100) return;
      this.lastDraw = Date.now();
      const filled = Math.round(share * WIDTH);
      const bar = '#'.repeat(filled) + '-'.repeat(WIDTH - filled);
      process.stderr.write(`\r[${bar}] ${(share * 100).toFixed(0).padStart(3)}% ${label}\u001b[K`);
      return;
    }
    const tenth = Math.floor(share * 10);
    if (tenth === this.lastTenth && !force) return;
    this.lastTenth = tenth;
    process.stderr.write(`${(share * 100).toFixed(0).padStart(3)}% ${label}\n`);
  }

  end(): void {
    if (this.tty) process.stderr.write('\n');
  }
}
