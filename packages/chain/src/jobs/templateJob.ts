import type { MergedWork } from '../auxpow/merged.js';
import { serializeBlock } from '../bitcoin/block.js';
import { bytesToHex, concatBytes, hashFromRpcHex, hexToBytes } from '../bitcoin/bytes.js';
import { buildCoinbase, coinbaseWithWitness, type TxOutput } from '../bitcoin/coinbase.js';
import { sha256d } from '../bitcoin/hash.js';
import { HEADER_SIZE, parseBits, prevHashToNotify, writeHeader } from '../bitcoin/header.js';
import { coinbaseMerkleBranch } from '../bitcoin/merkle.js';
import { encodeVarInt, pushData } from '../bitcoin/serialize.js';
import { type BitcoinJob, bitcoinWorkKey } from '../job.js';
import { type BitcoinAlgorithm, blockHashHex, targetFromBits } from '../pow.js';
import { type BlockTemplate, UnsupportedTemplateError } from '../rpc/template.js';

export const DEFAULT_EXTRANONCE_SIZE = 8;

export interface TemplateJobOptions {
  /** Job id for mining.notify (hex, unique per source). */
  id: string;
  /** Ticker, e.g. `LTC`. */
  coin: string;
  algorithm: BitcoinAlgorithm;
  /** scriptPubKey of the pool's payout address; the coinbase value, less the template's required payees, goes to it. */
  payoutScript: Uint8Array;
  /** Bytes for extranonce1 ‖ extranonce2 (default 8: 4 per session + 4 for the miner). */
  extranonceSize?: number;
  /** Text put in every coinbase after the extranonce, e.g. `/lodestone/`. */
  poolTag?: string;
  /** True when the previous block changed (miners drop older jobs). */
  cleanJobs: boolean;
  /** Epoch ms; now by default. */
  createdAt?: number;
  /** See BitcoinJob.valuationTarget; the template's own network target unless set (only the demo sets it). */
  valuationTarget?: bigint;
  /** The aux chains merge-mined with this job: their commitment goes into the coinbase script. */
  merged?: MergedWork | undefined;
}

/** A BitcoinJob built from a block template, with what the job source needs besides. */
export interface TemplateJob extends BitcoinJob {
  /** Previous block hash, RPC hex. */
  readonly previousBlockHash: string;
  readonly template: BlockTemplate;
  /** The block carries a BIP141 witness commitment, so its coinbase is witness-serialized. */
  readonly hasWitnessCommitment: boolean;
  /** Litecoin: the block carries an MWEB extension (the template's last transaction is the HogEx). */
  readonly hasMweb: boolean;
  /** The coinbase (legacy serialization) for a share: coinbase1 ‖ extranonce1 ‖ extranonce2 ‖ coinbase2. */
  coinbase(extranonce1: Uint8Array, extranonce2: Uint8Array): Buffer;
  /** The block's identity hash (RPC hex) for a header this job built. */
  blockHash(header: Uint8Array): string;
}

/** True when a serialized transaction carries Litecoin's MWEB flag (8) — the HogEx in a template. */
export function isHogExData(data: Uint8Array): boolean {
  return data.length > 6 && data[4] === 0x00 && ((data[5] ?? 0) & 0x08) !== 0;
}

/**
 * Builds the job for a template: coinbase paying the coinbase value to the pool — less the payees the
 * coin's template requires (Dash masternodes and superblocks), which follow the pool's output — plus the
 * template's witness commitment output or the coin's coinbase payload (Dash CbTx), the coinbase merkle branch, and the parts of the header and
 * block that do not depend on the share. `header()` then costs one coinbase hash, one sha256d per
 * branch level and an 80-byte write.
 */
export function createTemplateJob(template: BlockTemplate, options: TemplateJobOptions): TemplateJob {
  return new TemplateBitcoinJob(template, options);
}

class TemplateBitcoinJob implements TemplateJob {
  readonly id: string;
  readonly algorithm: BitcoinAlgorithm;
  readonly coin: string;
  readonly height: number;
  readonly prevHashNotify: string;
  readonly parentKey: string;
  readonly coinbase1: string;
  readonly coinbase2: string;
  readonly extranonceSize: number;
  readonly merkleBranch: readonly string[];
  readonly version: number;
  readonly bits: string;
  readonly curtime: number;
  readonly mintime: number;
  readonly networkTarget: bigint;
  readonly valuationTarget: bigint;
  readonly coinbaseValue: bigint;
  readonly cleanJobs: boolean;
  readonly createdAt: number;
  readonly workKey: string;
  readonly previousBlockHash: string;
  readonly template: BlockTemplate;
  readonly hasWitnessCommitment: boolean;
  readonly hasMweb: boolean;
  readonly merged: MergedWork | undefined;

  private readonly cb1: Buffer;
  private readonly cb2: Buffer;
  private readonly branch: readonly Buffer[];
  private readonly prevHash: Buffer;
  private readonly bitsValue: number;
  private readonly transactionData: readonly Buffer[];
  private readonly mwebData: Buffer | undefined;
  /** Reused for each share's coinbase; header() never yields, so sharing it is safe. */
  private readonly scratch: Buffer;
  private readonly pair = Buffer.allocUnsafe(64);

  constructor(template: BlockTemplate, options: TemplateJobOptions) {
    const extranonceSize = options.extranonceSize ?? DEFAULT_EXTRANONCE_SIZE;
    this.template = template;
    this.id = options.id;
    this.coin = options.coin;
    this.algorithm = options.algorithm;
    this.height = template.height;
    this.version = template.version >>> 0;
    this.bits = template.bits;
    this.bitsValue = parseBits(template.bits);
    this.networkTarget = targetFromBits(this.bitsValue);
    this.valuationTarget = options.valuationTarget ?? this.networkTarget;
    this.curtime = template.curtime;
    this.mintime = template.mintime;
    this.cleanJobs = options.cleanJobs;
    this.createdAt = options.createdAt ?? Date.now();
    this.previousBlockHash = template.previousBlockHash;
    this.prevHash = hashFromRpcHex(template.previousBlockHash, 'previousblockhash');
    this.prevHashNotify = prevHashToNotify(template.previousBlockHash);
    this.parentKey = this.prevHashNotify;

    this.transactionData = template.transactions.map((tx, i) => hexToBytes(tx.data, `transactions[${i}].data`));
    const last = this.transactionData[this.transactionData.length - 1];
    const lastIsHogEx = last !== undefined && isHogExData(last);
    if (template.mweb !== undefined && !lastIsHogEx) {
      throw new UnsupportedTemplateError('template has an MWEB block but its last transaction is not the HogEx');
    }
    if (template.mweb === undefined && lastIsHogEx) {
      throw new UnsupportedTemplateError('template ends with a HogEx transaction but carries no MWEB block');
    }
    this.mwebData = template.mweb === undefined ? undefined : hexToBytes(template.mweb, 'mweb');
    this.hasMweb = this.mwebData !== undefined;

    const required = template.coinbase;
    const payees: TxOutput[] = (required?.payees ?? []).map((p, i) => ({
      value: p.value,
      script: hexToBytes(p.script, `${p.kind} payee ${i} script`),
    }));
    const paid = payees.reduce((sum, p) => sum + p.value, 0n);
    if (paid > template.coinbaseValue) {
      throw new UnsupportedTemplateError(
        `the template's payees take ${paid} of a coinbase value of ${template.coinbaseValue}`,
      );
    }
    // What the block earns the pool: the coinbase value less what the coin's rules pay to others.
    this.coinbaseValue = template.coinbaseValue - paid;
    const outputs: TxOutput[] = [{ value: this.coinbaseValue, script: options.payoutScript }, ...payees];
    this.hasWitnessCommitment = template.defaultWitnessCommitment !== undefined;
    if (template.defaultWitnessCommitment !== undefined) {
      if (required?.extraPayload !== undefined) {
        throw new UnsupportedTemplateError(
          'a template with both a witness commitment and a coinbase payload is not supported',
        );
      }
      outputs.push({ value: 0n, script: hexToBytes(template.defaultWitnessCommitment, 'default_witness_commitment') });
    }
    this.merged = options.merged;
    const coinbaseAux = hexToBytes(template.coinbaseAux, 'coinbaseaux');
    const coinbaseOptions: Parameters<typeof buildCoinbase>[0] = {
      height: template.height,
      outputs,
      extranonceSize,
      // The aux chains' commitment (magic, root, size, nonce) as one push before the extranonce, where
      // each aux daemon's CAuxPow::check finds it (packages/chain/src/auxpow/auxpow.ts).
      auxData: options.merged ? concatBytes([coinbaseAux, pushData(options.merged.commitment)]) : coinbaseAux,
    };
    if (options.poolTag) coinbaseOptions.poolTag = options.poolTag;
    if (required?.txVersion !== undefined) coinbaseOptions.version = required.txVersion;
    const parts = buildCoinbase(coinbaseOptions);
    this.cb1 = parts.coinbase1;
    // A payload follows the lock time and is part of the transaction the txid (and merkle root) covers.
    this.cb2 =
      required?.extraPayload === undefined
        ? parts.coinbase2
        : withExtraPayload(parts.coinbase2, hexToBytes(required.extraPayload, 'coinbase payload'));
    this.coinbase1 = this.cb1.toString('hex');
    this.coinbase2 = this.cb2.toString('hex');
    this.extranonceSize = extranonceSize;
    this.scratch = Buffer.allocUnsafe(this.cb1.length + extranonceSize + this.cb2.length);
    this.cb1.copy(this.scratch, 0);
    this.cb2.copy(this.scratch, this.cb1.length + extranonceSize);

    this.branch = coinbaseMerkleBranch(template.transactions.map((tx) => hashFromRpcHex(tx.txid, 'txid')));
    this.merkleBranch = this.branch.map((h) => h.toString('hex'));
    this.workKey = bitcoinWorkKey(this);
  }

  coinbase(extranonce1: Uint8Array, extranonce2: Uint8Array): Buffer {
    this.fillCoinbase(extranonce1, extranonce2);
    return Buffer.from(this.scratch);
  }

  header(extranonce1: Uint8Array, extranonce2: Uint8Array, ntime: number, nonce: number, version: number): Uint8Array {
    this.fillCoinbase(extranonce1, extranonce2);
    let root = sha256d(this.scratch);
    for (const node of this.branch) {
      root.copy(this.pair, 0);
      node.copy(this.pair, 32);
      root = sha256d(this.pair);
    }
    const out = Buffer.allocUnsafe(HEADER_SIZE);
    writeHeader(out, version, this.prevHash, root, ntime, this.bitsValue, nonce);
    return out;
  }

  block(extranonce1: Uint8Array, extranonce2: Uint8Array, ntime: number, nonce: number, version: number): string {
    const header = this.header(extranonce1, extranonce2, ntime, nonce, version);
    const legacy = this.coinbase(extranonce1, extranonce2);
    const parts: Parameters<typeof serializeBlock>[0] = {
      header,
      coinbase: this.hasWitnessCommitment ? coinbaseWithWitness(legacy) : legacy,
      transactions: this.transactionData,
    };
    if (this.mwebData !== undefined) parts.mweb = this.mwebData;
    return bytesToHex(serializeBlock(parts));
  }

  blockHash(header: Uint8Array): string {
    return blockHashHex(this.algorithm, header);
  }

  private fillCoinbase(extranonce1: Uint8Array, extranonce2: Uint8Array): void {
    if (extranonce1.length + extranonce2.length !== this.extranonceSize) {
      throw new RangeError(
        `extranonce1 (${extranonce1.length} bytes) + extranonce2 (${extranonce2.length} bytes) must be ${this.extranonceSize} bytes`,
      );
    }
    this.scratch.set(extranonce1, this.cb1.length);
    this.scratch.set(extranonce2, this.cb1.length + extranonce1.length);
  }
}

/** coinbase2 ‖ CompactSize(payload length) ‖ payload: a byte vector after the lock time (Dash DIP2's vExtraPayload). */
function withExtraPayload(coinbase2: Buffer, payload: Uint8Array): Buffer {
  return Buffer.concat([coinbase2, encodeVarInt(payload.length), payload]);
}
