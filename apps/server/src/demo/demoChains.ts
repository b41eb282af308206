/**
 * The demo network of CKB, Kaspa and Kadena: the real job sources (CkbJobSource, KaspaJobSource,
 * KadenaJobSource) against in-process demo nodes (`@lodestone/chain/demo-nodes`), started with the
 * source and stopped with it. The node's target is sized to the demo fleet, so the fleet finds blocks;
 * the fleet is the whole demo network (the nodes' own "other miners" would grind real proof of work at
 * that target on the server's thread), so each chain moves on when the fleet finds a block.
 *
 * Shares are valued as on the other demo chains (docs/money.md, "Demo economics"): at a real coin's
 * network difficulty and block reward (DEMO_REFERENCE below), not at the easy target.
 */
import { createHash } from 'node:crypto';
import {
  AsertSchedule,
  type ChainLogger,
  CkbJobSource,
  type CkbJsonScript,
  ckbCompactFromTarget,
  DEMO_BLOCK_SECONDS,
  type DemoValuation,
  demoTarget,
  KadenaJobSource,
  KaspaJobSource,
  type WorkJob,
  type WorkSource,
} from '@lodestone/chain';
import {
  CHAINWEB_DEMO_MINER,
  KaspaDemoNode,
  SECP256K1_BLAKE160_CODE_HASH,
  startChainwebDemoNode,
  startCkbDemoNode,
} from '@lodestone/chain/demo-nodes';
import { bitsFromTarget, POW } from '@lodestone/pow';

export type DemoChainAlgorithm = 'eaglesong' | 'kheavyhash' | 'blake2s';

export function isDemoChainAlgorithm(algorithm: string): algorithm is DemoChainAlgorithm {
  return algorithm === 'eaglesong' || algorithm === 'kheavyhash' || algorithm === 'blake2s';
}

/** The demo CKB node's issuance a block, shannons (see DEMO_REFERENCE). */
const CKB_PRIMARY = 53_272_451_045n;
const CKB_SECONDARY = 398_013_957n;

/**
 * A real coin's network difficulty (in the algorithm's share convention: POW[algorithm].diff1Target)
 * and block reward, that demo shares are valued at. Round orders of magnitude of 2025 written from
 * memory — no market data was looked up — like DEMO_REFERENCE_DIFFICULTY of the bitcoin family:
 * - CKB: a few hundred PH/s (≈ 300 PH/s) with a block about every 8 s → 2.4 × 10^18 hashes a block;
 *   the reward is the primary issuance after the November 2023 halving (half the stand-in's default,
 *   which is the first era's 1 917 808 CKB an epoch over 1 800 blocks) plus the stand-in's secondary
 *   share: ≈ 536.7 CKB.
 * - Kaspa: ≈ 1 EH/s at 10 blocks a second → 10^17 hashes a block, difficulty 10^17 ÷ 2^32; the reward
 *   is the emission of 440 KAS/s at the start of the deflationary phase (May 2022) halved each year,
 *   ≈ 55 KAS/s in 2025, ÷ 10 blocks a second = 5.5 KAS.
 * - Kadena: ≈ 200 PH/s over 20 chains, a block per chain every 30 s → 3 × 10^17 hashes a block; the
 *   reward is the node's own (the miner reward table at the demo chain's height, ≈ 1.08 KDA).
 */
export const DEMO_REFERENCE: Readonly<Record<DemoChainAlgorithm, { difficulty: bigint; reward?: bigint }>> = {
  eaglesong: { difficulty: 2_400_000_000_000_000_000n, reward: CKB_PRIMARY + CKB_SECONDARY },
  kheavyhash: { difficulty: 100_000_000_000_000_000n / 2n ** 32n, reward: 550_000_000n },
  blake2s: { difficulty: 300_000_000_000_000_000n },
};

/** The lock the demo CKB node pays: a key hash nobody holds, derived from a label. */
export const DEMO_CKB_LOCK: CkbJsonScript = {
  code_hash: SECP256K1_BLAKE160_CODE_HASH,
  hash_type: 'type',
  args: `0x${createHash('sha256').update('lodestone demo payout eaglesong').digest('hex').slice(0, 40)}`,
};

/**
 * The demo Kaspa pay address: a devnet Schnorr key nobody holds (bytes 0, 7, 14, …), the same as the
 * chain package's Kaspa job source tests use.
 */
export const DEMO_KASPA_ADDRESS = 'kaspadev:qqqqwrs4rs3j5vfc8ary64zmvf5hqam7skxf8x4p4zhmd0wye0fdjdvq62sxf';

export interface DemoChainOptions {
  algorithm: DemoChainAlgorithm;
  /** Average hashes a block takes: the node's target is 2^256 ÷ this. */
  expectedHashesPerBlock: bigint;
  /** `reference`: shares valued at DEMO_REFERENCE; `chain`: at the demo node's own easy target. */
  valuation: DemoValuation;
  logger?: ChainLogger;
}

/** What runs while the demo chain is started: the node and the real job source on it. */
interface Running<J extends WorkJob, S> {
  source: WorkSource<J, S>;
  close(): Promise<void>;
}

/**
 * A demo chain of CKB, Kaspa or Kadena as one work source: `start()` starts the demo node and the
 * real job source on it, `stop()` stops both. Its jobs are the source's, with the valuation target
 * (and for CKB the block reward) of the demo economics; it says `demo: true` so that share batches and
 * found blocks are booked as the demo network's.
 */
export class DemoChainSource implements WorkSource<WorkJob, unknown> {
  readonly demo = true;
  readonly algorithm: DemoChainAlgorithm;
  /** The node's network target. */
  readonly networkTarget: bigint;
  /** The node's start target, as its compact form says it (Kaspa's bits round it): the easiest it gets. */
  private readonly startTarget: bigint;
  private readonly options: DemoChainOptions;
  private readonly listeners = new Set<(job: WorkJob) => void>();
  private readonly adjusted = new WeakMap<WorkJob, WorkJob>();
  private running: Running<WorkJob, unknown> | undefined;
  private stopped: Running<WorkJob, unknown> | undefined;
  private starting: Promise<void> | undefined;

  constructor(options: DemoChainOptions) {
    this.options = options;
    this.algorithm = options.algorithm;
    if (options.expectedHashesPerBlock < 1n) throw new RangeError('expected hashes per block must be at least 1');
    const wanted = (1n << 256n) / options.expectedHashesPerBlock - 1n;
    this.networkTarget = wanted > 0n ? wanted : 1n;
    this.startTarget =
      options.algorithm === 'kheavyhash' ? demoTarget(options.expectedHashesPerBlock).target : this.networkTarget;
  }

  /** The newest job (after stop, the last one, as the other demo sources keep it). */
  current(): WorkJob | undefined {
    const job = (this.running ?? this.stopped)?.source.current();
    return job && this.adjust(job);
  }

  onJob(listener: (job: WorkJob) => void): () => void {
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

  submitBlock(job: WorkJob, solution: unknown) {
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
  private async open(): Promise<Running<WorkJob, unknown>> {
    // Warnings and errors of the demo nodes' sources are logged; their per-job notes are not (the
    // Kadena source re-issues its job every second, the bitcoin-family demo logs nothing either).
    const { logger } = this.options;
    const quiet = logger && { logger: { info() {}, warn: logger.warn.bind(logger), error: logger.error.bind(logger) } };
    switch (this.algorithm) {
      case 'eaglesong': {
        const compactTarget = ckbCompactFromTarget(this.networkTarget);
        const schedule = this.schedule();
        const node = await startCkbDemoNode({
          blockAssembler: { lock: DEMO_CKB_LOCK },
          compactTarget,
          retarget: (parent, at) =>
            ckbCompactFromTarget(
              schedule.next({ height: parent.number, time: seconds(parent.timestampMs) }, 0, seconds(at)),
            ),
          primaryReward: CKB_PRIMARY,
          secondaryReward: CKB_SECONDARY,
        });
        const source = new CkbJobSource({ nodes: [node.url], payoutLock: DEMO_CKB_LOCK, ...quiet });
        return { source: source as unknown as WorkSource<WorkJob, unknown>, close: () => node.close() };
      }
      case 'kheavyhash': {
        const { bits } = demoTarget(this.options.expectedHashesPerBlock);
        const schedule = this.schedule();
        const node = await KaspaDemoNode.start({
          prefix: 'kaspadev',
          bits,
          retarget: (parent, at) =>
            bitsFromTarget(
              schedule.next({ height: parent.blueScore, time: seconds(parent.timestampMs) }, 0, seconds(at)),
            ),
          subsidy: DEMO_REFERENCE.kheavyhash.reward as bigint,
        });
        const source = new KaspaJobSource({
          nodes: [node.url],
          payAddress: DEMO_KASPA_ADDRESS,
          extraData: '/lodestone demo/',
          ...quiet,
        });
        return { source: source as unknown as WorkSource<WorkJob, unknown>, close: () => node.close() };
      }
      case 'blake2s': {
        const schedule = this.schedule();
        const node = await startChainwebDemoNode({
          target: this.networkTarget,
          miners: [CHAINWEB_DEMO_MINER],
          // Each chain of the braid aims at the interval on its own.
          retarget: (chain, parent, at) =>
            schedule.next({ height: parent.height, time: seconds(parent.timeMs) }, chain, seconds(at)),
        });
        const source = new KadenaJobSource({ nodes: [node.url], miner: CHAINWEB_DEMO_MINER, ...quiet });
        return { source: source as unknown as WorkSource<WorkJob, unknown>, close: () => node.close() };
      }
    }
  }

  /**
   * The node's retargeting: ASERT to DEMO_BLOCK_SECONDS from the fleet-sized start target, which is also
   * the easiest target; a block late by more than an interval eases it, since these nodes have no
   * other miners to move the chain after a big miner left. A new schedule for each start of the node.
   */
  private schedule(): AsertSchedule {
    return new AsertSchedule({
      spacingSeconds: DEMO_BLOCK_SECONDS,
      halfLifeSeconds: DEMO_BLOCK_SECONDS,
      powLimit: this.startTarget,
    });
  }

  /** The job with the demo valuation: the same object for the same job, so job ids and identity hold. */
  private adjust(job: WorkJob): WorkJob {
    const known = this.adjusted.get(job);
    if (known) return known;
    const reference = DEMO_REFERENCE[this.algorithm];
    const overrides: Record<string, bigint> = {};
    // `chain`: the start target, not the retargeted one (as DemoJobSource: payouts within minutes).
    overrides.valuationTarget =
      this.options.valuation === 'reference'
        ? POW[this.algorithm].diff1Target / reference.difficulty
        : this.startTarget;
    // A CKB cellbase pays the block eleven back (zero on a young chain): value shares at the reward
    // the demo node pays a block instead.
    if (this.algorithm === 'eaglesong' && reference.reward !== undefined) overrides.coinbaseValue = reference.reward;
    const shown =
      Object.getPrototypeOf(job) === Object.prototype
        ? Object.freeze({ ...job, ...overrides })
        : (Object.create(
            job,
            Object.fromEntries(Object.entries(overrides).map(([k, value]) => [k, { value, enumerable: true }])),
          ) as WorkJob);
    this.adjusted.set(job, shown);
    return shown;
  }
}

const seconds = (ms: number) => Math.floor(ms / 1000);
