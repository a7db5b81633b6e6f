// One progress line on stderr. On a terminal it is redrawn in place (at most every 100 ms); in CI
// (stderr not a TTY) it prints a plain line at every tenth of the whole run, so logs stay short.

/** `overall`: the whole run, 0..1; `index`: 1-based, of `count`; `elapsed`: seconds since the run started. */
export type ProgressState = Record<'overall' | 'index' | 'count' | 'elapsed' | 'suiteElapsed', number> &
  Record<'suite' | 'label', string>;

export const clock = (seconds: number): string =>
  `${Math.floor(seconds / 60)}:${String(Math.floor(seconds) % 60).padStart(2, '0')}`;

const BAR_WIDTH = 24;

export class ProgressBar {
  private readonly stream = process.stderr;
  private readonly tty = this.stream.isTTY === true;
  private shown = false;
  private lastTenth = 0;
  private lastDraw = 0;
  private state: ProgressState | undefined;
  private pending: NodeJS.Timeout | undefined;

  update(state: ProgressState): void {
    this.state = state;
    if (this.tty) {
      const wait = 100 - (Date.now() - this.lastDraw);
      if (wait <= 0) this.draw();
      // Drawn a moment later instead, so the last state of a burst is not lost.
      else this.pending ??= setTimeout(() => this.draw(), wait).unref();
    } else if (Math.floor(state.overall * 10) > this.lastTenth) {
      this.lastTenth = Math.floor(state.overall * 10);
      this.stream.write(`${this.text(state)}\n`);
    }
  }

  /** A line of its own above the bar (suite started or ended, a failure's log tail). */
  log(line: string): void {
    this.clear();
    this.stream.write(`${line}\n`);
    if (this.tty && this.state) this.draw();
  }

  /** Takes the bar off the screen, before the summary is printed. */
  clear(): void {
    clearTimeout(this.pending);
    this.pending = undefined;
    if (this.tty && this.shown) this.stream.write('\r\x1b[K');
    this.shown = false;
  }

  private draw(): void {
    this.clear();
    if (!this.state) return;
    const columns = this.stream.columns || 100;
    const line = this.text(this.state);
    this.stream.write(`\r\x1b[K${line.length >= columns ? `${line.slice(0, columns - 2)}…` : line}`);
    this.shown = true;
    this.lastDraw = Date.now();
  }

  private text(state: ProgressState): string {
    const filled = Math.round(state.overall * BAR_WIDTH);
    const bar = this.tty ? `${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)} ` : '';
    const percent = `${Math.floor(state.overall * 100)}%`.padStart(4);
    return `${bar}${percent}  ${clock(state.elapsed)}  ${state.suite} (${state.index}/${state.count}, ${clock(state.suiteElapsed)}): ${state.label}`;
  }
}
