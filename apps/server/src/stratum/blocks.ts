import { randomUUID } from 'node:crypto';
import type { SubmitBlockResult } from '@lodestone/chain';
import type { FoundBlock } from '@lodestone/domain';
import type { ShareBus } from '../bus/types.js';
import type { SolvedBlock } from './dialects/dialect.js';
import type { StratumLog } from './log.js';
import type { StratumMetrics } from './metrics.js';

export interface BlockCandidate {
  /** The solved job, its hash and how to submit it (built by the connection's dialect). */
  block: SolvedBlock;
  account: string;
  worker: string;
  difficulty: number;
}

export interface BlockSubmitterOptions {
  node: string;
  bus: Pick<ShareBus, 'publishFoundBlock'>;
  log: StratumLog;
  metrics: StratumMetrics;
  now?: () => number;
  /** Delays between attempts to publish a found block; default 1 s, 5 s, 30 s. */
  publishRetryDelaysMs?: readonly number[];
}

/**
 * Submits block candidates to the coin daemon at once, then reports each as a FoundBlock on the
 * bus with the daemon's answer. Runs beside the share answer: the miner never waits for it.
 */
export class BlockSubmitter {
  private readonly inFlight = new Set<Promise<void>>();
  private readonly now: () => number;

  constructor(private readonly options: BlockSubmitterOptions) {
    this.now = options.now ?? Date.now;
  }

  submit(candidate: BlockCandidate): void {
    const run = this.run(candidate).catch((error: unknown) => {
      this.options.log.error({ err: error, job: candidate.block.job.id }, 'block candidate handling failed');
    });
    this.inFlight.add(run);
    void run.finally(() => this.inFlight.delete(run));
  }

  /** Waits for submissions in flight (at most `timeoutMs`). */
  async drain(timeoutMs = 10_000): Promise<void> {
    if (this.inFlight.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    await Promise.race([Promise.all(this.inFlight), timeout]);
    clearTimeout(timer);
  }

  private async run(candidate: BlockCandidate): Promise<void> {
    const { job, hash } = candidate.block;
    const { log } = this.options;
    const foundAt = this.now();
    let result: SubmitBlockResult;
    try {
      result = await candidate.block.submit();
    } catch (error) {
      result = { accepted: false, hash, reason: error instanceof Error ? error.message : String(error) };
    }
    this.options.metrics.block(job.algorithm, result.accepted);
    const fields = { algorithm: job.algorithm, coin: job.coin, height: job.height, hash: result.hash || hash };
    if (result.accepted) log.info({ ...fields, account: candidate.account, worker: candidate.worker }, 'block found');
    else log.warn({ ...fields, reason: result.reason }, 'block candidate refused by the daemon');

    const block: FoundBlock = {
      id: randomUUID(),
      node: this.options.node,
      algorithm: job.algorithm,
      coin: job.coin,
      height: job.height,
      hash: result.hash || hash,
      reward: job.coinbaseValue.toString(),
      account: candidate.account,
      worker: candidate.worker,
      difficulty: candidate.difficulty,
      foundAt,
      submitResult: result.accepted ? { accepted: true } : { accepted: false, reason: result.reason },
    };
    await this.publish(block);
  }

  private async publish(block: FoundBlock): Promise<void> {
    const delays = this.options.publishRetryDelaysMs ?? [1000, 5000, 30_000];
    for (let attempt = 0; ; attempt++) {
      try {
        await this.options.bus.publishFoundBlock(block);
        return;
      } catch (error) {
        const delay = delays[attempt];
        if (delay === undefined) {
          this.options.log.error({ err: error, block }, 'found block could not be published; record it by hand');
          return;
        }
        this.options.log.warn(
          { err: error, block: block.id, attempt: attempt + 1 },
          'publishing a found block failed; retrying',
        );
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }
}
