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
  const extranonceSize = options.extranonceSize ?? DEFAULT_EXTRANONCE_SIZE;
  const createdAt = options.createdAt ?? Date.now();
  const bitsValue = parseBits(template.bits);
  const networkTarget = targetFromBits(bitsValue);
  const prevHash = hashFromRpcHex(template.previousBlockHash, 'previousblockhash');

  const transactionData = template.transactions.map((tx, i) => hexToBytes(tx.data, `transactions[${i}].data`));
  const last = transactionData[transactionData.length - 1];
  const lastIsHogEx = last !== undefined && isHogExData(last);
  if (template.mweb !== undefined && !lastIsHogEx) {
    throw new UnsupportedTemplateError('template has an MWEB block but its last transaction is not the HogEx');
  }
  if (template.mweb === undefined && lastIsHogEx) {
    throw new UnsupportedTemplateError('template ends with a HogEx transaction but carries no MWEB block');
  }
  const mwebData = template.mweb === undefined ? undefined : hexToBytes(template.mweb, 'mweb');

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
  const coinbaseValue = template.coinbaseValue - paid;
  const outputs: TxOutput[] = [{ value: coinbaseValue, script: options.payoutScript }, ...payees];
  const hasWitnessCommitment = template.defaultWitnessCommitment !== undefined;
  if (template.defaultWitnessCommitment !== undefined) {
    if (required?.extraPayload !== undefined) {
      throw new UnsupportedTemplateError(
        'a template with both a witness commitment and a coinbase payload is not supported',
      );
    }
    outputs.push({ value: 0n, script: hexToBytes(template.defaultWitnessCommitment, 'default_witness_commitment') });
  }
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
  const cb1 = parts.coinbase1;
  // A payload follows the lock time and is part of the transaction the txid (and merkle root) covers.
  const cb2 =
    required?.extraPayload === undefined
      ? parts.coinbase2
      : withExtraPayload(parts.coinbase2, hexToBytes(required.extraPayload, 'coinbase payload'));
  /** Reused for each share's coinbase; header() never yields, so sharing it is safe. */
  const scratch = Buffer.allocUnsafe(cb1.length + extranonceSize + cb2.length);
  cb1.copy(scratch, 0);
  cb2.copy(scratch, cb1.length + extranonceSize);
  const pair = Buffer.allocUnsafe(64);

  const branch = coinbaseMerkleBranch(template.transactions.map((tx) => hashFromRpcHex(tx.txid, 'txid')));
  /** What the miner hashes besides its own fields, as mining.notify sends it: what the work key covers. */
  const work = {
    prevHashNotify: prevHashToNotify(template.previousBlockHash),
    coinbase1: cb1.toString('hex'),
    coinbase2: cb2.toString('hex'),
    merkleBranch: branch.map((h) => h.toString('hex')),
    version: template.version >>> 0,
    bits: template.bits,
  };

  function fillCoinbase(extranonce1: Uint8Array, extranonce2: Uint8Array): void {
    if (extranonce1.length + extranonce2.length !== extranonceSize) {
      throw new RangeError(
        `extranonce1 (${extranonce1.length} bytes) + extranonce2 (${extranonce2.length} bytes) must be ${extranonceSize} bytes`,
      );
    }
    scratch.set(extranonce1, cb1.length);
    scratch.set(extranonce2, cb1.length + extranonce1.length);
  }

  const coinbase: TemplateJob['coinbase'] = (extranonce1, extranonce2) => {
    fillCoinbase(extranonce1, extranonce2);
    return Buffer.from(scratch);
  };

  const header: TemplateJob['header'] = (extranonce1, extranonce2, ntime, nonce, version) => {
    fillCoinbase(extranonce1, extranonce2);
    let root = sha256d(scratch);
    for (const node of branch) {
      root.copy(pair, 0);
      node.copy(pair, 32);
      root = sha256d(pair);
    }
    const out = Buffer.allocUnsafe(HEADER_SIZE);
    writeHeader(out, version, prevHash, root, ntime, bitsValue, nonce);
    return out;
  };

  const block: TemplateJob['block'] = (extranonce1, extranonce2, ntime, nonce, version) => {
    const blockHeader = header(extranonce1, extranonce2, ntime, nonce, version);
    const legacy = coinbase(extranonce1, extranonce2);
    const blockParts: Parameters<typeof serializeBlock>[0] = {
      header: blockHeader,
      coinbase: hasWitnessCommitment ? coinbaseWithWitness(legacy) : legacy,
      transactions: transactionData,
    };
    if (mwebData !== undefined) blockParts.mweb = mwebData;
    return bytesToHex(serializeBlock(blockParts));
  };

  return {
    id: options.id,
    algorithm: options.algorithm,
    coin: options.coin,
    height: template.height,
    ...work,
    parentKey: work.prevHashNotify,
    extranonceSize,
    curtime: template.curtime,
    mintime: template.mintime,
    networkTarget,
    valuationTarget: options.valuationTarget ?? networkTarget,
    coinbaseValue,
    ...(payees.length === 0 && { fees: transactionFees(template) }),
    cleanJobs: options.cleanJobs,
    createdAt,
    workKey: bitcoinWorkKey(work),
    previousBlockHash: template.previousBlockHash,
    template,
    hasWitnessCommitment,
    hasMweb: mwebData !== undefined,
    merged: options.merged,
    coinbase,
    header,
    block,
    blockHash: (blockHeader) => blockHashHex(options.algorithm, blockHeader),
  };
}

/** coinbase2 ‖ CompactSize(payload length) ‖ payload: a byte vector after the lock time (Dash DIP2's vExtraPayload). */
function withExtraPayload(coinbase2: Buffer, payload: Uint8Array): Buffer {
  return Buffer.concat([coinbase2, encodeVarInt(payload.length), payload]);
}

/**
 * Σ the template's transaction fees; undefined when it left any out (BIP22 makes `fee` optional) or
 * they would not fit in its coinbase value (a node's error: the shares are then valued as PPS does).
 */
function transactionFees(template: BlockTemplate): bigint | undefined {
  let sum = 0n;
  for (const tx of template.transactions) {
    if (tx.fee === undefined || !Number.isSafeInteger(tx.fee) || tx.fee < 0) return undefined;
    sum += BigInt(tx.fee);
  }
  return sum <= template.coinbaseValue ? sum : undefined;
}
