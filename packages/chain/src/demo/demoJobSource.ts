import { randomBytes } from 'node:crypto';
import type { MergedChainWork, MergedMining } from '../auxpow/merged.js';
import { addressToScript, encodeSegwitAddress, p2pkhAddress } from '../bitcoin/address.js';
import { parseBlock } from '../bitcoin/block.js';
import { hashToRpcHex, hexToBytes } from '../bitcoin/bytes.js';
import { sha256 } from '../bitcoin/hash.js';
import { bitsToHex } from '../bitcoin/header.js';
import { merkleRoot } from '../bitcoin/merkle.js';
import { type ChainNetwork, NETWORKS } from '../bitcoin/networks.js';
import type { BitcoinJob, JobSource, SubmitBlockResult } from '../job.js';
import { PublishingJobSource } from '../jobs/publishingJobSource.js';
import type { TemplateJob } from '../jobs/templateJob.js';
import type { ChainLogger } from '../logger.js';
import { type BitcoinAlgorithm, bitsFromTarget, meetsTarget, powHash, targetFromBits } from '../pow.js';
import type { BlockTemplate } from '../rpc/template.js';
import { AsertSchedule } from './asert.js';

export interface DemoJobSourceOptions {
  algorithm: BitcoinAlgorithm;
  /** Ticker shown for the demo coin; BTC / LTC / DASH by algorithm unless set. */
  coin?: string;
  /**
   * How many hashes a block takes on average at the start: the first target is 2^256 / this, and the
   * easiest the chain ever gets (its POW limit). The default, 2^22 (about 4.2 million), lets a demo
   * fleet of a few workers find a block every few minutes.
   */
  expectedHashesPerBlock?: bigint;
  /**
   * The block interval the chain retargets to (seconds, default 600). Every block sets the next
   * one's target by ASERT (./asert.ts), so a miner who joins with a thousand times the fleet's
   * hashrate finds a few quick blocks and then one every interval, as on a real chain — not a block a
   * second, which turned most of its shares stale.
   */
  blockSeconds?: number;
  /** ASERT's half-life (seconds, default `blockSeconds`): a block one interval early halves the target. */
  halfLifeSeconds?: number;
  /**
   * The difficulty shares are valued at (BitcoinJob.valuationTarget). `reference` (default): the
   * real coin's, DEMO_REFERENCE_DIFFICULTY, so PPS pays per hash what the real coin would and the
   * profit per TH/s is of the real coin's order; blocks are still found at the easy target.
   * `chain`: the demo chain's own easy start difficulty, so balances grow by whole coins within
   * minutes (to try payouts); the profit figures are then millions of times a real coin's. It stays
   * at the start difficulty when the chain retargets, so that a newcomer who points a real miner at
   * the demo still sees a payout within minutes.
   */
  valuation?: DemoValuation;
  /**
   * The rest of the demo "network" finds a block this long after the last one (ms, default twice
   * `blockSeconds`): a clean job. Longer than the interval the chain aims at, so that while nobody
   * mines the target eases block by block back to the start, and while the fleet mines it finds most
   * blocks.
   */
  blockIntervalMs?: number;
  /** A fresh (not clean) job with a new time this often (ms, default 30 s). */
  refreshIntervalMs?: number;
  /** Address the demo coinbase pays; a fixed demo address of the coin's regtest network by default. */
  payoutAddress?: string;
  /** Network of `payoutAddress`. */
  network?: ChainNetwork;
  coinbaseValue?: bigint;
  startHeight?: number;
  extranonceSize?: number;
  poolTag?: string;
  /**
   * The demo's merged mining (SCRYPT: demo Dogecoin and Bellscoin chains), opened at start — their
   * nodes are started then — and closed at stop; the jobs commit to them as on a real parent.
   */
  merged?: () => Promise<OpenedMerged>;
  logger?: ChainLogger;
  /** Epoch ms clock, for tests. */
  now?: () => number;
}

/** Merged mining as a demo source runs it: the aux chains, and how to stop their nodes. */
export interface OpenedMerged {
  merged: MergedMining;
  close(): Promise<void>;
}

export const DEFAULT_DEMO_HASHES_PER_BLOCK = 1n << 22n;

/** The block interval a demo chain aims at, seconds. */
export const DEMO_BLOCK_SECONDS = 600;

export type DemoValuation = 'reference' | 'chain';

/**
 * The network difficulty each demo coin's shares are valued at: a real coin's, in its daemon's
 * `getdifficulty` convention (difficulty 1 = target 0xffff × 2^208, about 2^32 hashes per block).
 * Round orders of magnitude of 2025, written from memory, not market data; with the demo block
 * rewards below and the default static prices they give (docs/money.md, "Demo economics"):
 * - SHA256, Bitcoin ≈ 120 T: 3.125 BTC blocks → ≈ 0.0005 BTC per PH/s per day;
 * - SCRYPT, Litecoin ≈ 50 M: 6.25 LTC blocks → ≈ 0.0025 BTC per TH/s per day for LTC alone (the
 *   demo's merge-mined Dogecoin and Bellscoin add theirs: apps/server/src/chains/bitcoin/demoMerged.ts);
 * - X11, Dash ≈ 400 M with the demo's 1.8 DASH blocks → ≈ 0.00005 BTC per TH/s per day (a few
 *   dollars per TH/s, the order X11 miners earn; Dash pays miners a smaller part of a block at a lower
 *   difficulty, and only the ratio matters here).
 */
export const DEMO_REFERENCE_DIFFICULTY: Readonly<Record<BitcoinAlgorithm, bigint>> = {
  sha256: 120_000_000_000_000n,
  scrypt: 50_000_000n,
  x11: 400_000_000n,
};

/** Difficulty 1 of the bitcoin family's `getdifficulty`: the target 0xffff × 2^208. */
const DIFFICULTY_1_TARGET = 0xffffn << 208n;

/** The target of a `getdifficulty` difficulty (at least 1). */
export function targetForNetworkDifficulty(difficulty: bigint): bigint {
  if (difficulty < 1n) throw new RangeError('network difficulty must be at least 1');
  return DIFFICULTY_1_TARGET / difficulty;
}

const DEMO_DEFAULTS: Record<BitcoinAlgorithm, { coin: string; network: ChainNetwork; coinbaseValue: bigint }> = {
  sha256: { coin: 'BTC', network: NETWORKS['bitcoin-regtest'], coinbaseValue: 312_500_000n },
  scrypt: { coin: 'LTC', network: NETWORKS['litecoin-regtest'], coinbaseValue: 625_000_000n },
  x11: { coin: 'DASH', network: NETWORKS['dash-testnet'], coinbaseValue: 180_000_000n },
};

/** The demo payout address of an algorithm's demo coin: a key hash nobody holds, derived from a label. */
export function demoPayoutAddress(algorithm: BitcoinAlgorithm): { address: string; network: ChainNetwork } {
  const { network } = DEMO_DEFAULTS[algorithm];
  const hash = sha256(Buffer.from(`lodestone demo payout ${algorithm}`)).subarray(0, 20);
  const address = network.bech32 ? encodeSegwitAddress(network.bech32, 0, hash) : p2pkhAddress(hash, network);
  return { address, network };
}

/** The network target for an average number of hashes per block, rounded to what compact bits can say. */
export function demoTarget(expectedHashesPerBlock: bigint): { bits: number; target: bigint } {
  if (expectedHashesPerBlock < 1n) throw new RangeError('expected hashes per block must be at least 1');
  const wanted = (1n << 256n) / expectedHashesPerBlock - 1n;
  const bits = bitsFromTarget(wanted > 0n ? wanted : 1n);
  return { bits, target: targetFromBits(bits) };
}

/**
 * The demo network of one algorithm: jobs with the real header and coinbase layout at an easy target.
 * A block submitted with a valid proof of work is accepted and extends the demo chain; the rest of the
 * "network" finds a block every `blockIntervalMs`. Shares are valued at a real coin's difficulty
 * (`valuation`), not at the easy target: a CPU finds demo blocks, yet earns what a CPU would on the
 * real coin. Nothing here touches a real coin.
 */
export class DemoJobSource extends PublishingJobSource implements JobSource {
  readonly demo = true;
  /** What shares are valued at (BitcoinJob.valuationTarget): the reference coin's or the start target. */
  readonly valuationTarget: bigint;
  private readonly options: DemoJobSourceOptions;
  private readonly retarget: AsertSchedule;
  /** The compact target of the block on the current tip. */
  private nextBits: number;
  /** Unix seconds of the current tip. */
  private tipTime: number;
  private readonly payoutScript: Buffer;
  private readonly now: () => number;
  private height: number;
  /** Hash of the current tip, RPC hex. */
  private tip: string;
  private blockTimer: NodeJS.Timeout | undefined;
  private refreshTimer: NodeJS.Timeout | undefined;
  private running = false;
  private blocksFound = 0;
  private merged: OpenedMerged | undefined;
  private stopMerged: (() => void) | undefined;

  constructor(options: DemoJobSourceOptions) {
    const defaults = DEMO_DEFAULTS[options.algorithm];
    const { algorithm, extranonceSize, poolTag, logger } = options;
    super({ coin: options.coin ?? defaults.coin, algorithm, extranonceSize, poolTag, logger });
    this.options = options;
    this.now = options.now ?? Date.now;
    const { bits, target } = demoTarget(options.expectedHashesPerBlock ?? DEFAULT_DEMO_HASHES_PER_BLOCK);
    this.nextBits = bits;
    const spacingSeconds = options.blockSeconds ?? DEMO_BLOCK_SECONDS;
    this.retarget = new AsertSchedule({
      spacingSeconds,
      halfLifeSeconds: options.halfLifeSeconds ?? spacingSeconds,
      powLimit: target,
    });
    this.valuationTarget =
      (options.valuation ?? 'reference') === 'chain'
        ? target
        : targetForNetworkDifficulty(DEMO_REFERENCE_DIFFICULTY[options.algorithm]);
    const payout =
      options.payoutAddress === undefined
        ? demoPayoutAddress(options.algorithm)
        : { address: options.payoutAddress, network: options.network ?? defaults.network };
    this.payoutScript = addressToScript(payout.address, payout.network);
    this.height = (options.startHeight ?? 1) - 1;
    this.tip = hashToRpcHex(randomBytes(32));
    this.tipTime = Math.floor(this.now() / 1000);
    // The start tip anchors the schedule: its successor keeps the start target.
    this.retarget.next({ height: this.height, time: this.tipTime });
  }

  /** The compact target of the next block. */
  get bits(): number {
    return this.nextBits;
  }

  /** The target of the next block. */
  get networkTarget(): bigint {
    return targetFromBits(this.nextBits);
  }

  /** Blocks the pool found on the demo network since start. */
  get blocksAccepted(): number {
    return this.blocksFound;
  }

  async start(): Promise<void> {
    if (this.running) return;
    if (this.options.merged) {
      this.merged = await this.options.merged();
      await this.merged.merged.start();
      this.stopMerged = this.merged.merged.onChange(() => {
        if (this.running) this.emit(false, 'aux chains changed');
      });
    }
    this.running = true;
    this.publishTip('start');
  }

  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.blockTimer);
    clearTimeout(this.refreshTimer);
    this.stopMerged?.();
    const merged = this.merged;
    this.merged = undefined;
    if (merged) {
      await merged.merged.stop();
      await merged.close();
    }
  }

  /** Submits a solved block of a demo aux chain to its node. */
  submitAuxBlock(chain: MergedChainWork, auxpowHex: string): Promise<SubmitBlockResult> {
    if (!this.merged) return Promise.resolve({ accepted: false, hash: chain.hash, reason: 'no aux chains are mined' });
    return this.merged.merged.submit(chain, auxpowHex);
  }

  async submitBlock(job: BitcoinJob, blockHex: string): Promise<SubmitBlockResult> {
    let block: ReturnType<typeof parseBlock>;
    try {
      block = parseBlock(hexToBytes(blockHex, 'block'));
    } catch (error) {
      return { accepted: false, hash: '', reason: `bad-blk: ${(error as Error).message}` };
    }
    const hash = (this.jobs.current() ?? (job as TemplateJob)).blockHash(block.headerBytes);
    const refuse = (reason: string): SubmitBlockResult => ({ accepted: false, hash, reason });
    if (hashToRpcHex(block.header.prevHash) !== this.tip) return refuse('stale-prevblk');
    if (block.header.bits !== this.bits) return refuse('bad-diffbits');
    if (!merkleRoot(block.transactions.map((tx) => tx.txid)).equals(block.header.merkleRoot)) {
      return refuse('bad-txnmrklroot');
    }
    if (!meetsTarget(this.algorithm, powHash(this.algorithm, block.headerBytes), this.networkTarget)) {
      return refuse('high-hash');
    }
    this.blocksFound += 1;
    this.options.logger?.info({ coin: this.coin, height: this.height, hash }, 'demo block found');
    this.advance(hash, 'block found');
    return { accepted: true, hash };
  }

  /** Moves the demo chain to a new tip found now; the next block's target follows by ASERT. */
  private advance(tip: string, reason: string): void {
    const tipHeight = this.height;
    this.tipTime = Math.max(this.tipTime, Math.floor(this.now() / 1000));
    this.nextBits = bitsFromTarget(this.retarget.next({ height: tipHeight, time: this.tipTime }));
    this.tip = tip;
    this.publishTip(reason);
  }

  /** Emits the clean job on the current tip and arms the rest of the network's block. */
  private publishTip(reason: string): void {
    this.height += 1;
    this.emit(true, reason);
    clearTimeout(this.blockTimer);
    if (!this.running) return;
    this.blockTimer = setTimeout(
      () => this.advance(hashToRpcHex(randomBytes(32)), 'demo network block'),
      this.options.blockIntervalMs ?? 2 * this.retarget.params.spacingSeconds * 1000,
    ).unref();
  }

  private emit(clean: boolean, reason: string): void {
    const nowMs = this.now();
    const curtime = Math.floor(nowMs / 1000);
    const template: BlockTemplate = {
      version: 0x20000000,
      previousBlockHash: this.tip,
      transactions: [],
      coinbaseValue: this.options.coinbaseValue ?? DEMO_DEFAULTS[this.algorithm].coinbaseValue,
      bits: bitsToHex(this.nextBits),
      curtime,
      mintime: curtime - 3600,
      height: this.height,
      rules: [],
      coinbaseAux: '',
    };
    const job = this.jobs.publish(template, {
      payoutScript: this.payoutScript,
      clean,
      createdAt: nowMs,
      valuationTarget: this.valuationTarget,
      merged: this.merged?.merged.current(),
    });
    this.options.logger?.info({ coin: this.coin, height: job.height, job: job.id, clean, reason }, 'new demo job');
    clearTimeout(this.refreshTimer);
    if (!this.running) return;
    this.refreshTimer = setTimeout(() => this.emit(false, 'refresh'), this.options.refreshIntervalMs ?? 30_000).unref();
  }
}
