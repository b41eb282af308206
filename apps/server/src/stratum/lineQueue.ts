/**
 * Runs a handler over lines strictly one after the other, in arrival order, even when a handler
 * awaits (the STYLE rule against `lines.forEach(async …)`). Synchronous handlers run without a
 * microtask hop. When too many lines wait, reading from the socket is paused until the queue drains.
 */
export class LineQueue {
  private readonly lines: string[] = [];
  private running = false;
  private paused = false;
  private stopped = false;

  constructor(
    private readonly options: {
      handle(line: string): Promise<void> | undefined;
      onError(error: unknown): void;
      setReadPaused(paused: boolean): void;
      maxQueued: number;
    },
  ) {}

  push(line: string): void {
    if (this.stopped) return;
    this.lines.push(line);
    if (this.lines.length >= this.options.maxQueued && !this.paused) {
      this.paused = true;
      this.options.setReadPaused(true);
    }
    if (!this.running) void this.run();
  }

  /** Drops waiting lines; nothing more runs. */
  stop(): void {
    this.stopped = true;
    this.lines.length = 0;
  }

  private async run(): Promise<void> {
    this.running = true;
    try {
      for (let line = this.lines.shift(); line !== undefined && !this.stopped; line = this.lines.shift()) {
        try {
          const pending = this.options.handle(line);
          if (pending) await pending;
        } catch (error) {
          this.options.onError(error);
        }
      }
    } finally {
      this.running = false;
      if (this.paused && !this.stopped) {
        this.paused = false;
        this.options.setReadPaused(false);
      }
    }
  }
}
