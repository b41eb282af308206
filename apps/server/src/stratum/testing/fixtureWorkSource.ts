import type { SubmitBlockResult, WorkJob, WorkSource } from '@lodestone/chain';

/**
 * What every job source for tests shares: no node behind it, so start and stop do nothing, and the jobs
 * the test makes reach the listeners (a job manager) as a node's new templates would. Each fixture (the
 * bitcoin family's FixtureJobSource, chains/<family>/testing.ts) makes its jobs and records the blocks
 * it is asked to submit.
 */
export abstract class FixtureWorkSource<J extends WorkJob, S> implements WorkSource<J, S> {
  abstract readonly algorithm: J['algorithm'];
  readonly demo = false;
  protected job: J | undefined;
  private readonly listeners = new Set<(job: J) => void>();

  async start(): Promise<void> {}
  async stop(): Promise<void> {}

  current(): J | undefined {
    return this.job;
  }

  onJob(listener: (job: J) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Makes `job` the current one and hands it to every listener. */
  publish(job: J): J {
    this.job = job;
    for (const listener of this.listeners) listener(job);
    return job;
  }

  abstract submitBlock(job: J, solution: S): Promise<SubmitBlockResult>;
}
