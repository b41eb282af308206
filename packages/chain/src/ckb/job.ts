import { ccc } from '@ckb-ccc/core';
import { type CkbRawHeader, ckbBlockHash, ckbPowHash, encodeCkbRawHeader } from '@lodestone/pow';
import type { WorkJob } from '../job.js';
import { extraHash, proposalsHash, transactionHashes, transactionsRoot, unclesHash } from './hashes.js';
import { headerHash, parseScript } from './parse.js';
import { ckbTargetFromCompact } from './target.js';
import type { CkbJsonBlock, CkbJsonBlockTemplate, CkbJsonHeader, CkbJsonScript } from './types.js';
import { bytesToCkbHex, ckbHexToBytes, nonceFromBytes, parseCkbUint, parseCkbUint32, toCkbUint } from './uint.js';

/**
 * A unit of CKB work: the header of a block template with its roots computed, waiting for a nonce. The
 * stratum dialect sends `powHash`, `height`, `parentHash` and the job id, and turns the 16 nonce bytes
 * a miner found into the block to submit with `block()`.
 */
export interface CkbJob extends WorkJob {
  readonly algorithm: 'eaglesong';
  /** Block number of the block this job makes. */
  readonly height: number;
  /** Parent block hash, 0x-hex as the RPC shows it. */
  readonly parentHash: string;
  /** pow_hash = ckbhash(192-byte raw header): what mining.notify sends. Constant for the job. */
  readonly powHash: Uint8Array;
  /** The raw header every share of this job shares (transactions_root, proposals_hash, extra_hash set). */
  readonly rawHeader: Readonly<CkbRawHeader>;
  readonly compactTarget: number;
  /** The template's work_id (a CKB uint string), sent back with submit_block. */
  readonly workId: string;
  /**
   * An estimate only: the cellbase's output capacity, which is the full reward (primary + secondary
   * issuance share, committed fees share, proposal reward) of the block finalized now, eleven blocks
   * back, paid to that block's miner. Zero while the chain is younger than twelve blocks. The real value
   * of a block the pool finds is `get_block_economic_state` eleven blocks after it (`ckbBlockStatus`).
   */
  readonly coinbaseValue: bigint;
  /** The lock the node's [block_assembler] puts in the cellbase witness: where this block's reward goes. */
  readonly payoutLock: CkbJsonScript;
  readonly template: CkbJsonBlockTemplate;
  /** The 48-byte Eaglesong input for 16 nonce bytes: pow_hash ‖ nonce bytes (verbatim). */
  powMessage(nonce16: Uint8Array): Uint8Array;
  /** The block hash (0x-hex) the block for these nonce bytes will have. */
  blockHash(nonce16: Uint8Array): string;
  /** The block for submit_block; the header nonce is the 16 bytes read little-endian as a u128. */
  block(nonce16: Uint8Array): CkbJsonBlock;
}

export interface CkbJobOptions {
  /** Job id (unique per source). */
  id: string;
  /** Ticker, CKB by default. */
  coin?: string;
  /** True when the parent changed: miners must drop older jobs. */
  cleanJobs: boolean;
  /** Epoch ms; now by default. */
  createdAt?: number;
}

/** A template the pool cannot build a block from (its hashes disagree with its contents, no cellbase witness…). */
export class CkbTemplateError extends Error {
  override readonly name = 'CkbTemplateError';
}

/**
 * Builds the job for a checked template (`parseBlockTemplate`): every transaction serialized and hashed
 * (the template gives tx hashes but no witness hashes; each given hash is checked against ours),
 * transactions_root, proposals_hash, extra_hash (uncles and extension) and pow_hash.
 */
export function createCkbJob(template: CkbJsonBlockTemplate, options: CkbJobOptions): CkbJob {
  return new TemplateCkbJob(template, options);
}

/**
 * CKB retargets every epoch so that an epoch lasts four hours (RFC 0020, "Epoch duration target",
 * EPOCH_DURATION_TARGET = 14,400 s on the main and test networks), by changing how many blocks it
 * holds (300 to 1,800): the epoch's mean block interval is that duration over its length.
 */
const CKB_EPOCH_SECONDS = 14_400;

/**
 * The mean block interval, in seconds, of the epoch a header's `epoch` field names: the field packs
 * the epoch number (bits 0–23), the block's index in it (24–39) and the epoch's length (40–55).
 */
export function epochBlockSeconds(epoch: bigint): number {
  const length = Number((epoch >> 40n) & 0xffffn);
  if (length === 0) throw new CkbTemplateError(`epoch ${epoch} has no length`);
  return CKB_EPOCH_SECONDS / length;
}

class TemplateCkbJob implements CkbJob {
  readonly id: string;
  readonly algorithm = 'eaglesong' as const;
  readonly coin: string;
  readonly height: number;
  readonly parentHash: string;
  readonly parentKey: string;
  readonly powHash: Uint8Array;
  readonly rawHeader: Readonly<CkbRawHeader>;
  readonly compactTarget: number;
  readonly networkTarget: bigint;
  readonly blockSeconds: number;
  readonly workId: string;
  readonly coinbaseValue: bigint;
  readonly payoutLock: CkbJsonScript;
  readonly cleanJobs: boolean;
  readonly createdAt: number;
  readonly workKey: string;
  readonly template: CkbJsonBlockTemplate;
  private readonly encodedRawHeader: Uint8Array;
  private readonly headerFields: Omit<CkbJsonHeader, 'nonce'>;

  constructor(template: CkbJsonBlockTemplate, options: CkbJobOptions) {
    this.template = template;
    this.id = options.id;
    this.coin = options.coin ?? 'CKB';
    this.cleanJobs = options.cleanJobs;
    this.createdAt = options.createdAt ?? Date.now();
    const number = parseCkbUint(template.number, 'number');
    if (number > BigInt(Number.MAX_SAFE_INTEGER))
      throw new CkbTemplateError(`block number ${template.number} is too large`);
    this.height = Number(number);
    this.parentHash = template.parent_hash;
    this.parentKey = template.parent_hash;
    this.workId = template.work_id;
    this.compactTarget = parseCkbUint32(template.compact_target, 'compact_target');
    try {
      this.networkTarget = ckbTargetFromCompact(this.compactTarget);
    } catch (error) {
      throw new CkbTemplateError(`template compact_target: ${(error as Error).message}`);
    }

    this.blockSeconds = epochBlockSeconds(parseCkbUint(template.epoch, 'epoch'));

    const cellbase = template.cellbase.data;
    this.payoutLock = cellbaseLock(cellbase.witnesses);
    this.coinbaseValue = cellbase.outputs.reduce((sum, o) => sum + parseCkbUint(o.capacity, 'capacity'), 0n);

    const hashes = [cellbase, ...template.transactions.map((t) => t.data)].map((tx) => transactionHashes(tx));
    const given = [template.cellbase.hash, ...template.transactions.map((t) => t.hash)];
    hashes.forEach((h, i) => {
      if (h.hash !== given[i]) {
        const which = i === 0 ? 'the cellbase' : `transaction ${i - 1}`;
        throw new CkbTemplateError(`${which} hashes to ${h.hash}, the template says ${given[i]}`);
      }
    });
    const uncleHashes = template.uncles.map((u, i) => {
      const hash = headerHash(u.header);
      if (hash !== u.hash) throw new CkbTemplateError(`uncle ${i} hashes to ${hash}, the template says ${u.hash}`);
      return hash;
    });

    this.rawHeader = Object.freeze({
      version: parseCkbUint32(template.version, 'version'),
      compactTarget: this.compactTarget,
      timestamp: parseCkbUint(template.current_time, 'current_time'),
      number,
      epoch: parseCkbUint(template.epoch, 'epoch'),
      parentHash: ckbHexToBytes(template.parent_hash),
      transactionsRoot: transactionsRoot(hashes),
      proposalsHash: proposalsHash(template.proposals),
      extraHash: extraHash(unclesHash(uncleHashes), template.extension),
      dao: ckbHexToBytes(template.dao),
    });
    this.encodedRawHeader = encodeCkbRawHeader(this.rawHeader);
    this.powHash = ckbPowHash(this.encodedRawHeader);
    // A share hashes pow_hash ‖ its 16 nonce bytes: nothing else of the header reaches Eaglesong.
    this.workKey = bytesToCkbHex(this.powHash);
    this.headerFields = {
      version: template.version,
      compact_target: template.compact_target,
      timestamp: template.current_time,
      number: template.number,
      epoch: template.epoch,
      parent_hash: template.parent_hash,
      transactions_root: bytesToCkbHex(this.rawHeader.transactionsRoot),
      proposals_hash: bytesToCkbHex(this.rawHeader.proposalsHash),
      extra_hash: bytesToCkbHex(this.rawHeader.extraHash),
      dao: template.dao,
    };
  }

  powMessage(nonce16: Uint8Array): Uint8Array {
    if (nonce16.length !== 16) throw new RangeError(`a CKB nonce is 16 bytes, got ${nonce16.length}`);
    const message = new Uint8Array(48);
    message.set(this.powHash);
    message.set(nonce16, 32);
    return message;
  }

  blockHash(nonce16: Uint8Array): string {
    return bytesToCkbHex(ckbBlockHash(this.encodedRawHeader, nonceFromBytes(nonce16)));
  }

  block(nonce16: Uint8Array): CkbJsonBlock {
    const t = this.template;
    const block: CkbJsonBlock = {
      header: { ...this.headerFields, nonce: toCkbUint(nonceFromBytes(nonce16), 128) },
      uncles: t.uncles.map((u) => ({ header: u.header, proposals: u.proposals })),
      transactions: [t.cellbase.data, ...t.transactions.map((tx) => tx.data)],
      proposals: t.proposals,
    };
    if (t.extension !== undefined) block.extension = t.extension;
    return block;
  }
}

const CELLBASE_WITNESS = ccc.mol.table({ lock: ccc.Script, message: ccc.mol.Bytes });

/**
 * The lock in the cellbase witness (molecule `CellbaseWitness { lock: Script, message: Bytes }`): the
 * node's [block_assembler] lock, which this block's reward will pay eleven blocks later.
 */
export function cellbaseLock(witnesses: readonly string[]): CkbJsonScript {
  const witness = witnesses[0];
  if (witnesses.length !== 1 || witness === undefined) {
    throw new CkbTemplateError(`the cellbase has ${witnesses.length} witnesses, not 1`);
  }
  try {
    const { lock } = CELLBASE_WITNESS.decode(witness);
    return parseScript(
      { code_hash: lock.codeHash, hash_type: lock.hashType, args: lock.args },
      'cellbase witness lock',
    );
  } catch (error) {
    throw new CkbTemplateError(`the cellbase witness is not a CellbaseWitness: ${(error as Error).message}`);
  }
}
