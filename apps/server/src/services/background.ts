import type { ServiceLog } from './log.js';

/**
 * Work a request starts but does not wait for (sending an e-mail, so that the answer takes the same
 * time whatever the outcome). Failures are logged as errors; `idle()` waits for everything started,
 * which the app does before it closes.
 */
export class BackgroundTasks {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly log: ServiceLog) {}

  run(name: string, work: () => Promise<void>): void {
    const task = work()
      .catch((error: unknown) => this.log.error({ err: error, task: name }, 'background task failed'))
      .finally(() => this.running.delete(task));
    this.running.add(task);
  }

  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }
}
