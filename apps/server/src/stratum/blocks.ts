import { randomUUID } from 'node:crypto';
import type { SubmitBlockResult } from '@lodestone/chain';
import { type FoundBlock, networkDifficulty } from '@lodestone/domain';
import type { ShareBus } from '../bus/types.js';
import type { SolvedBlock } from './dialects/dialect.js';
import type { StratumLog } from './log.js';
import type { StratumMetrics } from './metrics.js';
import { powFor } from './pow.js';
import type { ShareJournal } from './shareJournal.js';

/** The recorded reason of a block whose submission a stop or a crash cut short: its outcome is not known here. */
export const SUBMISSION_CUT_SHORT =
  'the stratum node stopped while submitting it; whether a daemon took it is not known (look the hash up on the chain)';

export interface BlockCandidate {
  /** The solved job, its hash and how to submit it (built by the connection's dialect). */
  block: SolvedBlock;
  account: string;
  worker: string;
  difficulty: number;
  /** Found on a solo port: the block is its finder's (docs/solo.md). */
  solo?: boolean;
}

export interface BlockSubmitterOptions {
  node: string;
  bus: Pick<ShareBus, 'publishFoundBlock'>;
  log: StratumLog;
  metrics: StratumMetrics;
  now?: () => number;
  /**
   * Delays between attempts to publish a found block (default 1 s, 5 s, then 30 s); the last repeats
   * until the bus takes it or the submitter stops.
   */
  publishRetryDelaysMs?: readonly number[];
  /** Where found blocks are kept until the bus takes them (the share journal): a restart publishes them again. */
  journal?: Pick<ShareJournal, 'foundBlock' | 'delivered'>;
}

/**
 * Submits block candidates to the coin daemon at once, then reports each as a FoundBlock on the
 * bus with the daemon's answer. Runs beside the share answer: the miner never waits for it. The found
 * block is written to the journal before it is published, and published until the bus takes it:
 * a bus outage or a kill while it waits loses no block (the next start publishes it again).
 */
export class BlockSubmitter {
  private readonly inFlight = new Set<Promise<void>>();
  private readonly now: () => number;
  private stopping = false;
  private readonly wakeUp = new Set<() => void>();

  constructor(private readonly options: BlockSubmitterOptions) {
    this.now = options.now ?? Date.now;
  }

  submit(candidate: BlockCandidate): void {
    this.track(
      this.run(candidate).catch((error: unknown) => {
        this.options.log.error({ err: error, job: candidate.block.job.id }, 'block candidate handling failed');
      }),
    );
  }

  private track(run: Promise<void>): void {
    this.inFlight.add(run);
    void run.finally(() => this.inFlight.delete(run));
  }

  /** Publishes found blocks an earlier run kept in the journal, as they were (same ids). */
  resend(blocks: readonly FoundBlock[]): void {
    for (const block of blocks) this.track(this.publish(block));
  }

  /**
   * Waits for submissions in flight (at most `timeoutMs`), then stops retrying publishes: a block still
   * unpublished stays in the journal for the next start.
   */
  async drain(timeoutMs = 10_000): Promise<void> {
    this.stopping = true;
    for (const wake of this.wakeUp) wake();
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
    const found: FoundBlock = {
      id: randomUUID(),
      node: this.options.node,
      algorithm: job.algorithm,
      coin: job.coin,
      height: job.height,
      hash,
      reward: job.coinbaseValue.toString(),
      account: candidate.account,
      worker: candidate.worker,
      difficulty: candidate.difficulty,
      networkDifficulty: networkDifficulty(job.networkTarget, powFor(job.algorithm).hashesPerDifficulty),
      foundAt: this.now(),
      submitResult: { accepted: false, reason: SUBMISSION_CUT_SHORT },
    };
    if (candidate.block.chain !== undefined) found.chain = candidate.block.chain;
    if (candidate.solo) found.solo = true;
    // Journaled before the daemon is asked (a submission can take minutes while a daemon is out of
    // reach): a kill meanwhile leaves the record for the next start, which reports it as cut short.
    this.options.journal?.foundBlock(found);
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
      ...found,
      hash: result.hash || hash,
      submitResult: result.accepted ? { accepted: true } : { accepted: false, reason: result.reason },
    };
    // The same id again: the journal keeps the newer record.
    this.options.journal?.foundBlock(block);
    await this.publish(block);
  }

  private async publish(block: FoundBlock): Promise<void> {
    const delays = this.options.publishRetryDelaysMs ?? [1000, 5000, 30_000];
    for (let attempt = 0; ; attempt++) {
      try {
        await this.options.bus.publishFoundBlock(block);
        this.options.journal?.delivered(block.id);
        return;
      } catch (error) {
        const kept = this.options.journal ? 'kept in the share journal for the next start' : 'not kept: no journal';
        if (this.stopping) {
          this.options.log.error({ err: error, block }, `found block not published before the stop; ${kept}`);
          return;
        }
        const delay = delays[Math.min(attempt, delays.length - 1)] ?? 30_000;
        const log = attempt === delays.length - 1 ? this.options.log.error : this.options.log.warn;
        log.call(
          this.options.log,
          { err: error, block: block.id, attempt: attempt + 1 },
          'publishing a found block failed; retrying until the bus takes it',
        );
        await this.pause(delay);
      }
    }
  }

  /** A wait that the stop cuts short. */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.wakeUp.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.wakeUp.add(wake);
    });
  }
}
