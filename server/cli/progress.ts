import cliProgress from 'cli-progress';

/** One bar: a file's upload in bytes, or a job's progress in hundredths. */
export interface Bar {
  update(value: number, detail?: string): void;
  /** Takes the bar off the screen; what it measured is reported as a line by the caller. */
  done(): void;
}

/** How a command shows what it is doing: bars on a terminal, plain lines anywhere else (pipes, CI logs, tests). */
export interface Progress {
  /** A line that stays: printed above the bars on a terminal, on stdout otherwise. */
  line(text: string): void;
  bar(label: string, total: number, unit: 'bytes' | 'percent'): Bar;
  /** Clears the bars; call before printing a summary. */
  stop(): void;
}

/** 12.3 kB, 4.5 MB: decimal units, as file managers show sizes. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** Progress for this process's stdout: bars when it is a terminal and bars are wanted, plain lines otherwise. */
export function progressFor(stdout: NodeJS.WriteStream, wantBars: boolean): Progress {
  return wantBars && stdout.isTTY ? new TerminalProgress(stdout) : new PlainProgress(stdout);
}

class PlainProgress implements Progress {
  constructor(private readonly out: NodeJS.WritableStream) {}

  line(text: string): void {
    this.out.write(`${text}\n`);
  }

  bar(): Bar {
    return { update: () => {}, done: () => {} };
  }

  stop(): void {}
}

/** cli-progress's MultiBar: one bar per running upload or job, and the lines that stay printed above them. */
class TerminalProgress implements Progress {
  private readonly bars: cliProgress.MultiBar;
  private shown = 0;
  private stopped = false;

  /** Ctrl-C: give the terminal its cursor back, then end as an interrupted process does. */
  private readonly interrupted = () => {
    this.stop();
    process.exit(130);
  };

  constructor(private readonly out: NodeJS.WriteStream) {
    this.bars = new cliProgress.MultiBar(
      { stream: out, format: ' {bar} {percentage}% | {label} {detail}', hideCursor: true, clearOnComplete: true, autopadding: true },
      cliProgress.Presets.shades_classic,
    );
    process.once('SIGINT', this.interrupted);
  }

  line(text: string): void {
    // With no bar on screen MultiBar does not redraw, so its log buffer would wait for the next bar.
    if (this.shown === 0) this.out.write(`${text}\n`);
    else this.bars.log(`${text}\n`);
  }

  bar(label: string, total: number, unit: 'bytes' | 'percent'): Bar {
    const detailOf = (value: number) => (unit === 'bytes' ? `${formatBytes(value)}/${formatBytes(total)}` : '');
    const bar = this.bars.create(Math.max(total, 1), 0, { label, detail: detailOf(0) });
    this.shown += 1;
    // Drawn at once, not at the next redraw tick: a short upload still shows its bar.
    this.bars.update();
    let removed = false;
    return {
      update: (value, detail) => bar.update(value, { detail: detail ?? detailOf(value) }),
      done: () => {
        if (removed) return;
        removed = true;
        this.shown -= 1;
        this.bars.remove(bar);
        // Flush lines logged while this bar was the last one.
        if (this.shown === 0) this.bars.update();
      },
    };
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    process.off('SIGINT', this.interrupted);
    if (this.shown > 0) this.bars.update();
    this.shown = 0;
    this.bars.stop();
  }
}
