/**
 * The demo network of the chains whose real job source runs against an in-process demo node (CKB,
 * Kaspa, Kadena: `@lodestone/chain/demo-nodes`), started with the source and stopped with it. Each
 * chain module says how its node starts (chains/<family>/demo.ts); this wrapper is what they share.
 * The node's target is sized to the demo fleet, so the fleet finds blocks; the fleet is the whole demo
 * network (the nodes' own "other miners" would grind real proof of work at that target on the server's
 * thread), so each chain moves on when the fleet finds a block.
 *
 * Shares are valued as on the other demo chains (docs/money.md, "Demo economics"): at a real coin's
 * network difficulty and block reward (each chain's `reference`), not at the easy target.
 */
import {
  AsertSchedule,
  type ChainLogger,
  DEMO_BLOCK_SECONDS,
  type DemoValuation,
  type WorkJob,
  type WorkSource,
} from '@lodestone/chain';
import { POW } from '@lodestone/pow';

/**
 * A real coin's network difficulty (in the algorithm's share convention: POW[algorithm].diff1Target)
 * that demo shares are valued at, and for a chain whose coinbase does not show it, the block reward.
 */
export interface DemoReference {
  difficulty: bigint;
  /** Shares are valued at this reward instead of the job's coinbase value. */
  coinbaseValue?: bigint;
}

/** How a chain's demo node starts, and what the demo values its shares at. */
export interface DemoChainNode<J extends WorkJob, S> {
  readonly algorithm: J['algorithm'];
  readonly reference: DemoReference;
  /** The start target as the node's compact form writes it (Kaspa's bits round it); default: the target. */
  startTarget?(expectedHashesPerBlock: bigint, networkTarget: bigint): bigint;
  /** Starts the node at `networkTarget`, retargeting by `schedule`, and the real job source on it. */
  open(start: DemoNodeStart): Promise<Running<J, S>>;
}

/** What a demo node is started with. */
export interface DemoNodeStart {
  networkTarget: bigint;
  expectedHashesPerBlock: bigint;
  /**
   * The node's retargeting: ASERT to DEMO_BLOCK_SECONDS from the fleet-sized start target, which is also
   * the easiest target; a block late by more than an interval eases it, since these nodes have no other
   * miners to move the chain after a big miner left. A new schedule for each start of the node.
   */
  schedule(): AsertSchedule;
  /** Warnings and errors only: the sources' per-job notes are not logged. */
  logger: ChainLogger | undefined;
}

export interface DemoChainOptions<J extends WorkJob, S> {
  node: DemoChainNode<J, S>;
  /** Average hashes a block takes: the node's target is 2^256 ÷ this. */
  expectedHashesPerBlock: bigint;
  /** `reference`: shares valued at the chain's reference; `chain`: at the demo node's own easy target. */
  valuation: DemoValuation;
  logger?: ChainLogger | undefined;
}

/** What runs while the demo chain is started: the node and the real job source on it. */
export interface Running<J extends WorkJob, S> {
  source: WorkSource<J, S>;
  close(): Promise<void>;
}

/**
 * A demo chain as one work source: `start()` starts the demo node and the real job source on it,
 * `stop()` stops both. Its jobs are the source's, with the valuation target
 * (and for CKB the block reward) of the demo economics; it says `demo: true` so that share batches and
 * found blocks are booked as the demo network's.
 */
export class DemoChainSource<J extends WorkJob, S> implements WorkSource<J, S> {
  readonly demo = true;
  readonly algorithm: J['algorithm'];
  /** The node's network target. */
  readonly networkTarget: bigint;
  /** The node's start target, as its compact form says it (Kaspa's bits round it): the easiest it gets. */
  private readonly startTarget: bigint;
  private readonly options: DemoChainOptions<J, S>;
  private readonly listeners = new Set<(job: J) => void>();
  private readonly adjusted = new WeakMap<J, J>();
  private running: Running<J, S> | undefined;
  private stopped: Running<J, S> | undefined;
  private starting: Promise<void> | undefined;

  constructor(options: DemoChainOptions<J, S>) {
    this.options = options;
    this.algorithm = options.node.algorithm;
    if (options.expectedHashesPerBlock < 1n) throw new RangeError('expected hashes per block must be at least 1');
    const wanted = (1n << 256n) / options.expectedHashesPerBlock - 1n;
    this.networkTarget = wanted > 0n ? wanted : 1n;
    this.startTarget =
      options.node.startTarget?.(options.expectedHashesPerBlock, this.networkTarget) ?? this.networkTarget;
  }

  /** The newest job (after stop, the last one, as the other demo sources keep it). */
  current(): J | undefined {
    const job = (this.running ?? this.stopped)?.source.current();
    return job && this.adjust(job);
  }

  onJob(listener: (job: J) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.starting ??= this.launch().finally(() => {
      this.starting = undefined;
    });
    await this.starting;
  }

  async stop(): Promise<void> {
    await this.starting?.catch(() => undefined);
    const running = this.running;
    this.running = undefined;
    if (!running) return;
    this.stopped = running;
    try {
      await running.source.stop();
    } finally {
      await running.close();
    }
  }

  submitBlock(job: J, solution: S) {
    const running = this.running;
    if (!running) return Promise.resolve({ accepted: false as const, hash: '', reason: 'the demo chain is stopped' });
    // The adjusted job has the source's job as prototype (or is a copy of a plain one): the source reads
    // only the fields it made.
    return running.source.submitBlock(job, solution);
  }

  private async launch(): Promise<void> {
    const running = await this.open();
    running.source.onJob((job) => {
      const shown = this.adjust(job);
      for (const listener of this.listeners) {
        // A listener's failure is its own: the source goes on, and so do the other listeners.
        try {
          listener(shown);
        } catch (error) {
          this.options.logger?.error({ algorithm: this.algorithm, err: error }, 'a demo chain job listener failed');
        }
      }
    });
    // Running before the first job arrives, so that current() answers as soon as a listener hears of it.
    this.running = running;
    try {
      await running.source.start();
    } catch (error) {
      this.running = undefined;
      await running.close();
      throw error;
    }
  }

  /** Starts the demo node at the easy target and makes the real job source on it. */
  private open(): Promise<Running<J, S>> {
    const { logger, node, expectedHashesPerBlock } = this.options;
    const quiet = logger && { info() {}, warn: logger.warn.bind(logger), error: logger.error.bind(logger) };
    return node.open({
      networkTarget: this.networkTarget,
      expectedHashesPerBlock,
      schedule: () =>
        new AsertSchedule({
          spacingSeconds: DEMO_BLOCK_SECONDS,
          halfLifeSeconds: DEMO_BLOCK_SECONDS,
          powLimit: this.startTarget,
        }),
      logger: quiet,
    });
  }

  /** The job with the demo valuation: the same object for the same job, so job ids and identity hold. */
  private adjust(job: J): J {
    const known = this.adjusted.get(job);
    if (known) return known;
    const { reference } = this.options.node;
    const overrides: Record<string, bigint> = {};
    // `chain`: the start target, not the retargeted one (as DemoJobSource: payouts within minutes).
    overrides.valuationTarget =
      this.options.valuation === 'reference'
        ? POW[this.algorithm].diff1Target / reference.difficulty
        : this.startTarget;
    if (reference.coinbaseValue !== undefined) overrides.coinbaseValue = reference.coinbaseValue;
    const shown =
      Object.getPrototypeOf(job) === Object.prototype
        ? Object.freeze({ ...job, ...overrides })
        : (Object.create(
            job,
            Object.fromEntries(Object.entries(overrides).map(([k, value]) => [k, { value, enumerable: true }])),
          ) as J);
    this.adjusted.set(job, shown);
    return shown;
  }
}

/** Unix seconds of a node's millisecond time, as the retargeting schedule counts. */
export const seconds = (ms: number) => Math.floor(ms / 1000);
