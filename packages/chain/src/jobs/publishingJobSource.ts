import type { BitcoinJob } from '../job.js';
import type { BitcoinAlgorithm } from '../pow.js';
import { JobPublisher, type JobPublisherOptions } from './jobPublisher.js';

/**
 * What the bitcoin-family job sources (coin daemons, the demo network) share: the coin and algorithm
 * they make jobs for, and the JobPublisher that numbers those jobs, holds the current one and tells
 * the listeners.
 */
export abstract class PublishingJobSource {
  readonly algorithm: BitcoinAlgorithm;
  readonly coin: string;
  protected readonly jobs: JobPublisher;

  constructor(publisher: JobPublisherOptions) {
    this.algorithm = publisher.algorithm;
    this.coin = publisher.coin;
    this.jobs = new JobPublisher(publisher);
  }

  current(): BitcoinJob | undefined {
    return this.jobs.current();
  }

  onJob(listener: (job: BitcoinJob) => void): () => void {
    return this.jobs.onJob(listener);
  }
}
