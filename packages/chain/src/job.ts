import type { AlgorithmKey } from '@lodestone/domain';

/**
 * A unit of bitcoin-family work (SHA256, SCRYPT, X11) as stratum hands it to miners, built from a
 * daemon's block template or by the demo network. It carries what `mining.notify` sends and can
 * rebuild the header and the whole block for any share a miner submits.
 */
export interface BitcoinJob {
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
  /** Coinbase value in the coin's smallest unit. */
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

export type SubmitBlockResult = { accepted: true; hash: string } | { accepted: false; hash: string; reason: string };

/** A stream of jobs for one algorithm: from coin daemons (with failover) or the demo network. */
export interface JobSource {
  readonly algorithm: BitcoinJob['algorithm'];
  readonly demo: boolean;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** The newest job, once the first template arrived. */
  current(): BitcoinJob | undefined;
  /** Called for each new job; returns a function that removes the listener. */
  onJob(listener: (job: BitcoinJob) => void): () => void;
  /** Submits a solved block at once (to every configured daemon). */
  submitBlock(job: BitcoinJob, blockHex: string): Promise<SubmitBlockResult>;
}
