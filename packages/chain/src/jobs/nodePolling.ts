import type { ChainLogger } from '../logger.js';

export interface NodePollingOptions {
  /** Pause between the end of one poll and the start of the next. */
  intervalMs: number;
  /** One poll: asks the node what changed and refreshes when needed; a throw is reported. */
  poll(): Promise<void>;
  logger?: ChainLogger | undefined;
  /** Fields on every log line (e.g. `{ coin }`). */
  fields: Record<string, unknown>;
  /** What is polled, in the log messages: "coin daemon", "CKB node". */
  what: string;
  /** The level of a failure (default warn): e.g. error for a reply that breaks the node's own encoding. */
  levelOf?: (error: unknown) => 'warn' | 'error';
}

/**
 * The polling half of a job source that follows a node: a poll every `intervalMs` while running, never
 * two at once; the templates it finds considered one after another, in order (`serial`), so a late
 * answer never overtakes a newer one; and a failure that persists logged once, not every second, with
 * one line when it recovers. `stop` waits for the poll and the considering in flight.
 */
export class NodePolling {
  private running = false;
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private lastFailure: string | undefined;

  constructor(private readonly options: NodePollingOptions) {}

  get active(): boolean {
    return this.running;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule();
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.inFlight;
    await this.queue;
  }

  /** Runs `task` after every task given before it; a failed task does not stop the ones after it. */
  serial<T>(task: () => T | Promise<T>): Promise<T> {
    const run = this.queue.then(task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Runs `work` now (outside the schedule, e.g. right after a block), reporting a failure like a poll's. */
  async soon(work: () => Promise<void>): Promise<void> {
    try {
      await work();
      this.succeeded();
    } catch (error) {
      this.failed(error);
    }
  }

  failed(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    if (message === this.lastFailure) return;
    const level = this.options.levelOf?.(error) ?? 'warn';
    this.options.logger?.[level]({ ...this.options.fields, err: error }, `${this.options.what} polling failed`);
    this.lastFailure = message;
  }

  private succeeded(): void {
    if (this.lastFailure === undefined) return;
    this.options.logger?.info({ ...this.options.fields }, `${this.options.what} polling recovered`);
    this.lastFailure = undefined;
  }

  private schedule(): void {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.inFlight = this.pollOnce();
    }, this.options.intervalMs);
  }

  private async pollOnce(): Promise<void> {
    if (!this.running) return;
    try {
      await this.options.poll();
      this.succeeded();
    } catch (error) {
      this.failed(error);
    } finally {
      this.schedule();
    }
  }
}
