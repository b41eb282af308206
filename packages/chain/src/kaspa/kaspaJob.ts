import { type KaspaHeader, kaspaBlockHash, kaspaPowInput, kaspaPrePowHash, kaspaTargetFromBits } from '@lodestone/pow';
import { bytesToHex, hexToBytes } from '../bitcoin/bytes.js';
import type { WorkJob } from '../job.js';
import { readCoinbasePayload } from './coinbase.js';
import type { KaspaRawBlock, KaspaRawHeader } from './wire.js';

/** The block object a solved job is submitted as (the template's block with `header.nonce` set). */
export type KaspaBlockSubmission = Record<string, unknown>;

/**
 * A unit of Kaspa work, from one getBlockTemplate. A stratum dialect sends `prePowHash` and
 * `timestamp` (each miner hashes pre_pow_hash ‖ timestamp ‖ 32 zero bytes ‖ nonce with kHeavyHash), and
 * turns a miner's u64 nonce into the block with `block(nonce)`.
 */
export interface KaspaJob extends WorkJob {
  readonly algorithm: 'kheavyhash';
  /** The DAA score as a number (it stays far below 2^53). */
  readonly height: number;
  /** The template's header as kaspad sent it (nonce 0). */
  readonly header: Readonly<KaspaRawHeader>;
  /** Blake2b-256("BlockHash") of the header with timestamp and nonce 0: 32 bytes. */
  readonly prePowHash: Uint8Array;
  /** Milliseconds since the epoch (u64), hashed into every share and kept in the block. */
  readonly timestamp: bigint;
  readonly bits: number;
  readonly daaScore: bigint;
  readonly blueScore: bigint;
  /**
   * What makes older jobs stale when it changes (WorkJob.parentKey). By default the direct parents
   * (level 0), sorted and joined; KaspaJobSource gives a key that changes only when earlier work became
   * worthless (see there): at 10 blocks a second the parents change with every job, yet a share of the
   * job before is still good work.
   */
  readonly parentKey: string;
  /**
   * This block's own reward if it ends up blue: the subsidy kaspad wrote in the template's coinbase
   * payload (sompi). Fees of its transactions are added by the merging block and are not known here.
   * The template coinbase's outputs pay the blocks it merges (the pool's earlier blocks among them) and
   * are not counted, so that no reward is counted twice.
   */
  readonly coinbaseValue: bigint;
  /** The script the reward goes to (version ‖ script, hex), from the coinbase payload. */
  readonly payScript: string;
  /** The 80-byte kHeavyHash input for a nonce. */
  powInput(nonce: bigint): Uint8Array;
  /** The block hash (hex) for a nonce. */
  blockHash(nonce: bigint): string;
  /** The block object for submitBlock: the template's block with `header.nonce = nonce`. */
  block(nonce: bigint): KaspaBlockSubmission;
}

export interface KaspaJobOptions {
  id: string;
  /** Ticker, KAS unless set. */
  coin?: string;
  cleanJobs: boolean;
  createdAt: number;
  /** The job's parentKey (default: its direct parents, `parentKey(header)`). */
  parentKey?: string;
}

/** The header in the form packages/pow hashes. */
export function toPowHeader(header: KaspaRawHeader): KaspaHeader {
  return {
    version: header.version,
    parents: header.parentsByLevel.map((level) => level.map((hash) => hexToBytes(hash, 'parent hash'))),
    hashMerkleRoot: hexToBytes(header.hashMerkleRoot, 'hashMerkleRoot'),
    acceptedIdMerkleRoot: hexToBytes(header.acceptedIdMerkleRoot, 'acceptedIdMerkleRoot'),
    utxoCommitment: hexToBytes(header.utxoCommitment, 'utxoCommitment'),
    timestamp: header.timestamp,
    bits: header.bits,
    nonce: header.nonce,
    daaScore: header.daaScore,
    blueScore: header.blueScore,
    blueWork: header.blueWork,
    pruningPoint: hexToBytes(header.pruningPoint, 'pruningPoint'),
  };
}

/** The direct parents, sorted and joined: the same key is the same parent set. */
export function parentKey(header: KaspaRawHeader): string {
  return [...(header.parentsByLevel[0] ?? [])].sort().join(',');
}

/** A job from a template's block. Throws a RangeError when the coinbase payload cannot be read. */
export function createKaspaJob(template: KaspaRawBlock, options: KaspaJobOptions): KaspaJob {
  const header = template.header;
  const powHeader = toPowHeader(header);
  const prePowHash = kaspaPrePowHash(powHeader);
  const coinbase = template.transactions[0];
  if (coinbase === undefined) throw new RangeError('the template has no coinbase transaction');
  const payload = readCoinbasePayload(coinbase.payload);
  const rawHeader = template.raw.header as Record<string, unknown>;
  return {
    id: options.id,
    algorithm: 'kheavyhash',
    coin: options.coin ?? 'KAS',
    height: Number(header.daaScore),
    networkTarget: kaspaTargetFromBits(header.bits),
    coinbaseValue: payload.subsidy,
    cleanJobs: options.cleanJobs,
    createdAt: options.createdAt,
    // kHeavyHash reads pre_pow_hash ‖ timestamp ‖ 32 zero bytes ‖ nonce.
    workKey: `${bytesToHex(prePowHash)}:${header.timestamp}`,
    header,
    prePowHash,
    timestamp: header.timestamp,
    bits: header.bits,
    daaScore: header.daaScore,
    blueScore: header.blueScore,
    parentKey: options.parentKey ?? parentKey(header),
    payScript: payload.scriptPublicKey,
    powInput: (nonce) => kaspaPowInput(prePowHash, header.timestamp, nonce),
    blockHash: (nonce) => bytesToHex(kaspaBlockHash({ ...powHeader, nonce: BigInt.asUintN(64, nonce) })),
    block: (nonce) => ({ ...template.raw, header: { ...rawHeader, nonce: BigInt.asUintN(64, nonce) } }),
  };
}
