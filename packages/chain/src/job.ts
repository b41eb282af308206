import { hash } from 'node:crypto';
import type { AlgorithmKey } from '@lodestone/domain';
import type { MergedChainWork, MergedWork } from './auxpow/merged.js';

/**
 * What every algorithm's work has in common, whatever its stratum dialect: what the share pipeline,
 * vardiff, statistics, PPS pricing and block records need. Bitcoin-family jobs carry a coinbase and a
 * merkle branch; CKB, Kaspa and Kadena jobs (issue 17) carry a header hash or a whole work header
 * instead, each in its own module, and extend this.
 */
export interface WorkJob {
  /** Job id as the coin's dialect sends it (unique per source). */
  readonly id: string;
  readonly algorithm: AlgorithmKey;
  /** Ticker of the coin mined, e.g. CKB. */
  readonly coin: string;
  /** Height of the block this job would make (Kaspa: its DAA score; Kadena: the height on its chain). */
  readonly height: number;
  /**
   * A share whose hash value — the hash read in the algorithm's byte order (packages/pow:
   * `POW[algorithm].hashValue`) — is ≤ this is a block.
   */
  readonly networkTarget: bigint;
  /** The block reward the pool expects, in the coin's smallest unit (PPS prices shares with it). */
  readonly coinbaseValue: bigint;
  /**
   * The fees of the template's transactions inside `coinbaseValue`, when the node gave every one of
   * them and the coinbase pays no one else: FPPS takes them out for the network's average
   * (docs/money.md, "FPPS"). Absent otherwise.
   */
  readonly fees?: bigint;
  /**
   * The target whose difficulty shares are valued at, when it is not `networkTarget` (the demo
   * network: BitcoinJob.valuationTarget).
   */
  readonly valuationTarget?: bigint;
  /**
   * The chain's mean block interval now, in seconds, where it is not a fixed property of the coin
   * (CKB: its epoch's duration target over the epoch's length): what its network hashrate is worked
   * out with. Absent for chains with a fixed interval (the coin catalogue's `block_seconds`).
   */
  readonly blockSeconds?: number;
  /**
   * What the job builds on (bitcoin family: the previous block; Kadena: its chain and parent): a job
   * with another parent key makes every older job stale.
   */
  readonly parentKey: string;
  /** True when the parent changed: miners must drop older jobs. */
  readonly cleanJobs: boolean;
  /** Epoch ms when the job was made. */
  readonly createdAt: number;
  /**
   * Everything the miner hashes except its own fields (nonces, extranonces, rolled ntime and version
   * bits), as one string: two jobs with the same work key turn the same share into the same header.
   * A template refresh that changed nothing hashed is a new job id over the same work, so stratum keeps
   * one duplicate set per work key and a share re-sent under the refreshed job id is a duplicate.
   */
  readonly workKey: string;
  /** The aux chains merge-mined with this job (SCRYPT with Dogecoin, Bellscoin), when there are any. */
  readonly merged?: MergedWork | undefined;
}

/**
 * A stream of jobs of one algorithm, from coin nodes or the demo network. `S` is what a solved block
 * is submitted as (bitcoin family: the block's hex; CKB: the block JSON; Kadena: the 286 solved
 * bytes; Kaspa: the block object).
 */
export interface WorkSource<J extends WorkJob, S> {
  readonly algorithm: J['algorithm'];
  readonly demo: boolean;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** The newest job, once the first template arrived. */
  current(): J | undefined;
  /** Called for each new job; returns a function that removes the listener. */
  onJob(listener: (job: J) => void): () => void;
  /** Submits a solved block at once (to every configured node). */
  submitBlock(job: J, solution: S): Promise<SubmitBlockResult>;
}

/**
 * A unit of bitcoin-family work (SHA256, SCRYPT, X11) as stratum hands it to miners, built from a
 * daemon's block template or by the demo network. It carries what `mining.notify` sends and can
 * rebuild the header and the whole block for any share a miner submits.
 */
export interface BitcoinJob extends WorkJob {
  /** Job id sent in mining.notify (hex, unique per source). */
  readonly id: string;
  readonly algorithm: Extract<AlgorithmKey, 'sha256' | 'scrypt' | 'x11'>;
  /** Ticker of the coin mined, e.g. LTC. */
  readonly coin: string;
  readonly height: number;
  /** Previous block hash in mining.notify's word order (hex). */
  readonly prevHashNotify: string;
  /** Hex; the coinbase is coinbase1 ‖ extranonce1 ‖ extranonce2 ‖ coinbase2 (no witness). */
  readonly coinbase1: string;
  readonly coinbase2: string;
  /** Bytes reserved in the coinbase for extranonce1 + extranonce2. */
  readonly extranonceSize: number;
  /** Merkle branch for the coinbase, hex, in mining.notify order. */
  readonly merkleBranch: readonly string[];
  /** Block version (uint32) before any version rolling. */
  readonly version: number;
  /** Compact target as hex, as mining.notify sends it. */
  readonly bits: string;
  /** Template time and the earliest allowed ntime (uint32 seconds). */
  readonly curtime: number;
  readonly mintime: number;
  /** The network target: a share whose hash value is ≤ this is a block. */
  readonly networkTarget: bigint;
  /**
   * The target whose difficulty shares are valued at (PPS: a share of difficulty d is worth
   * d ÷ that difficulty × coinbase value). On a chain from coin daemons it is `networkTarget`: what a
   * share is worth is its chance of being a block. The demo network finds its blocks at an easy
   * `networkTarget` but values shares at a real coin's difficulty (docs/decisions.md, "demo economics").
   */
  readonly valuationTarget: bigint;
  /**
   * What the block pays the pool, in the coin's smallest unit: the coinbase value less the outputs the
   * coin's rules pay to others (Dash masternodes and superblocks).
   */
  readonly coinbaseValue: bigint;
  /** True when the previous block changed: miners must drop older jobs. */
  readonly cleanJobs: boolean;
  /** Epoch ms when the job was made. */
  readonly createdAt: number;

  /** The 80-byte header for a share (version already merged with the miner's rolled bits). */
  header(extranonce1: Uint8Array, extranonce2: Uint8Array, ntime: number, nonce: number, version: number): Uint8Array;
  /** The complete serialized block (hex) for a share whose header meets the network target. */
  block(extranonce1: Uint8Array, extranonce2: Uint8Array, ntime: number, nonce: number, version: number): string;
}

/**
 * A bitcoin-family job's work key (WorkJob.workKey): the header is version ‖ previous block ‖ merkle
 * root ‖ ntime ‖ bits ‖ nonce, and the merkle root follows from the coinbase split and the branch.
 */
export function bitcoinWorkKey(
  job: Pick<BitcoinJob, 'prevHashNotify' | 'coinbase1' | 'coinbase2' | 'merkleBranch' | 'version' | 'bits'>,
): string {
  const fields = [job.prevHashNotify, job.coinbase1, job.coinbase2, job.merkleBranch.join(','), job.version, job.bits];
  return hash('sha256', fields.join('|'), 'hex');
}

export type SubmitBlockResult = { accepted: true; hash: string } | { accepted: false; hash: string; reason: string };

/**
 * A stream of bitcoin-family jobs (SHA256, SCRYPT, X11): from coin daemons (with failover) or the demo
 * network; a source whose jobs are merge-mined also submits solved aux blocks (AuxPoW hex) to their chains.
 */
export interface JobSource extends WorkSource<BitcoinJob, string> {
  submitAuxBlock?(chain: MergedChainWork, auxpowHex: string): Promise<SubmitBlockResult>;
}
