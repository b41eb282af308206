import type { MergedWork } from '../auxpow/merged.js';
import type { BitcoinJob } from '../job.js';
import type { ChainLogger } from '../logger.js';
import type { BitcoinAlgorithm } from '../pow.js';
import type { BlockTemplate } from '../rpc/template.js';
import {
  createTemplateJob,
  DEFAULT_EXTRANONCE_SIZE,
  type TemplateJob,
  type TemplateJobOptions,
} from './templateJob.js';

export interface JobPublisherOptions {
  coin: string;
  algorithm: BitcoinAlgorithm;
  /** Bytes of extranonce1 + extranonce2 (default 8). */
  extranonceSize?: number;
  /** Text in every coinbase, e.g. `/lodestone/`. */
  poolTag?: string;
  /** Where a throwing listener is reported. */
  logger?: ChainLogger;
}

export interface PublishOptions {
  /** scriptPubKey the coinbase pays. */
  payoutScript: Uint8Array;
  /** True when the previous block changed (miners drop older jobs). */
  clean: boolean;
  /** Epoch ms the job is stamped with. */
  createdAt: number;
  /** See BitcoinJob.valuationTarget (the demo network sets it; daemon jobs leave it to the template's target). */
  valuationTarget?: bigint;
  /** The aux chains the job is merge-mined with. */
  merged?: MergedWork | undefined;
  /** Called with the new job once it is current, before any listener hears of it. */
  beforeNotify?: (job: TemplateJob) => void;
}

/**
 * What every job source shares: the job id counter (hex, 32-bit, wrapping), the current job and the
 * job listeners, each called in turn with its errors logged rather than passed on.
 */
export class JobPublisher {
  private readonly options: JobPublisherOptions;
  private readonly listeners = new Set<(job: BitcoinJob) => void>();
  private job: TemplateJob | undefined;
  private counter = 0;

  constructor(options: JobPublisherOptions) {
    this.options = options;
  }

  current(): TemplateJob | undefined {
    return this.job;
  }

  onJob(listener: (job: BitcoinJob) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Builds the next job from a template, makes it current and tells every listener. */
  publish(
    template: BlockTemplate,
    { payoutScript, clean, createdAt, beforeNotify, valuationTarget, merged }: PublishOptions,
  ): TemplateJob {
    this.counter = (this.counter + 1) >>> 0;
    const jobOptions: TemplateJobOptions = {
      id: this.counter.toString(16),
      coin: this.options.coin,
      algorithm: this.options.algorithm,
      payoutScript,
      extranonceSize: this.options.extranonceSize ?? DEFAULT_EXTRANONCE_SIZE,
      cleanJobs: clean,
      createdAt,
    };
    if (this.options.poolTag) jobOptions.poolTag = this.options.poolTag;
    if (valuationTarget !== undefined) jobOptions.valuationTarget = valuationTarget;
    const job =
      merged === undefined ? createTemplateJob(template, jobOptions) : this.mergedJob(template, jobOptions, merged);
    this.job = job;
    beforeNotify?.(job);
    for (const listener of this.listeners) {
      try {
        listener(job);
      } catch (error) {
        this.options.logger?.error({ err: error, coin: this.options.coin }, 'job listener failed');
      }
    }
    return job;
  }

  /**
   * The job with the aux chains' commitment, or — when the commitment cannot be built into this
   * template's coinbase (its script would pass 100 bytes) — the job without them: the parent chain is
   * never left without work for its aux chains' sake.
   */
  private mergedJob(template: BlockTemplate, options: TemplateJobOptions, merged: MergedWork): TemplateJob {
    try {
      return createTemplateJob(template, { ...options, merged });
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      this.options.logger?.error(
        { err: error, coin: this.options.coin, merged: merged.chains.map((c) => c.coin) },
        'the merged-mining commitment does not fit the coinbase: mining without the aux chains',
      );
      return createTemplateJob(template, options);
    }
  }
}
