/**
 * A CKB payout transaction, built and signed with @ckb-ccc/core (molecule, ckbhash, secp256k1): plain
 * cells of the pool's secp256k1-blake160 lock in, one output per payout and a change cell to the pool
 * out, the sighash-all signature in witness 0. Pure: the cells, outputs and fee rate come from the caller.
 */
import { ccc } from '@ckb-ccc/core';
import type { CkbJsonScript, CkbJsonTransaction } from '../../ckb/types.js';

/** One CKByte, the capacity of one byte of a cell (RFC 0022, "Cell"). */
export const SHANNONS_PER_CKBYTE = 100_000_000n;

/**
 * The smallest cell a plain secp256k1-blake160 lock can have: its occupied capacity, one CKByte per byte
 * of 8 (capacity) + 32 (lock code hash) + 1 (hash type) + 20 (blake160 args) = 61 bytes, no type script
 * and no data (RFC 0022 "Cell"; ckb util/types `CellOutput::occupied_capacity`). A payout output and the
 * change cell both obey it.
 */
export const MIN_PLAIN_CELL = 61n * SHANNONS_PER_CKBYTE;

/**
 * The tx-pool refuses a transaction larger than this (nervosnetwork/ckb util/types/src/core/tx_pool.rs
 * `TRANSACTION_SIZE_LIMIT` = 512 × 1000, "it may cause the transaction to fail to be packed").
 */
export const TRANSACTION_SIZE_LIMIT = 512_000;

/**
 * Most payouts in one transaction. Each sighash-all output costs 109 bytes (a 97-byte CellOutput table
 * with its 4-byte offset, and 8 bytes for its empty data), so 1000 outputs are ~109 kB: a fifth of the
 * 512 kB pool limit and of the 597 kB block (spec/src/consensus.rs MAX_BLOCK_BYTES), which leaves room
 * for thousands of 44-byte inputs and keeps the transaction easy for a miner to include.
 */
export const MAX_PAYOUT_OUTPUTS = 1000;

/** The fee-rate floor nodes keep by default (ckb resource/ckb.toml `min_fee_rate = 1_000`, shannons per KB). */
export const MIN_FEE_RATE = 1000n;

/** A live plain cell (no type script, empty data) of the pool lock. */
export interface PlainCell {
  txHash: string;
  index: number;
  capacity: bigint;
}

export interface PayoutParams {
  cells: readonly PlainCell[];
  outputs: readonly { lock: CkbJsonScript; capacity: bigint }[];
  poolLock: CkbJsonScript;
  /** The chain's secp256k1 dep group cell (RFC 0024). */
  depGroup: { txHash: string; index: number };
  /** Shannons per 1000 bytes. */
  feeRate: bigint;
}

export interface UnsignedPayout {
  tx: ccc.Transaction;
  fee: bigint;
  inputs: readonly PlainCell[];
}

export class InsufficientCapacity extends Error {
  constructor(
    readonly needed: bigint,
    readonly available: bigint,
  ) {
    super(`needs at least ${needed} shannons, the pool lock has ${available} in plain cells`);
  }
}

export class TransactionTooLarge extends Error {}

/**
 * Picks inputs in the order given until they pay the outputs and the fee with a change cell of at least
 * 61 CKB. A change below 61 CKB cannot exist, so another input is taken (the surplus stays the pool's);
 * only when no cell is left does the surplus, under 61 CKB plus the fee, go to the miner as fee.
 */
export function buildPayout(params: PayoutParams): UnsignedPayout {
  const paid = params.outputs.reduce((sum, o) => sum + o.capacity, 0n);
  const available = params.cells.reduce((sum, c) => sum + c.capacity, 0n);
  const inputs: PlainCell[] = [];
  let inSum = 0n;
  for (const [i, cell] of params.cells.entries()) {
    inputs.push(cell);
    inSum += cell.capacity;
    if (inSum < paid) continue;
    const withChangeSize = sizeInBlock(assemble(params, inputs, MIN_PLAIN_CELL));
    const changeFee = feeAt(withChangeSize, params.feeRate);
    const change = inSum - paid - changeFee;
    if (change >= MIN_PLAIN_CELL) {
      // The change's capacity is a fixed eight bytes: the transaction has the size just measured, so one too large is
      // refused before it is built again (8,200 inputs take the better part of a second to serialize).
      checkSize(withChangeSize);
      return { tx: assemble(params, inputs, change), fee: changeFee, inputs };
    }
    const lastCell = i === params.cells.length - 1;
    if (lastCell) {
      const tx = assemble(params, inputs, undefined);
      const size = sizeInBlock(tx);
      if (inSum - paid >= feeAt(size, params.feeRate)) {
        checkSize(size);
        return { tx, fee: inSum - paid, inputs };
      }
    }
  }
  const fee = feeFor(assemble(params, params.cells, undefined), params.feeRate);
  throw new InsufficientCapacity(paid + fee, available);
}

/** The fee of a transaction at a rate (shannons per 1000 bytes), rounded up, on its size in a block. */
export function feeFor(tx: ccc.Transaction, feeRate: bigint): bigint {
  return feeAt(sizeInBlock(tx), feeRate);
}

function feeAt(size: number, feeRate: bigint): bigint {
  return (BigInt(size) * feeRate + 999n) / 1000n;
}

/** The molecule Transaction plus its 4-byte offset in a block (ckb `serialized_size_in_block`). */
export function sizeInBlock(tx: ccc.Transaction): number {
  return tx.toBytes().length + 4;
}

function checkSize(size: number): void {
  if (size > TRANSACTION_SIZE_LIMIT) {
    throw new TransactionTooLarge(
      `the transaction would be ${size} bytes, over the pool limit of ${TRANSACTION_SIZE_LIMIT}: too many small cells, consolidate them first`,
    );
  }
}

/** The transaction with a 65-byte zero signature in place, so its size is the signed size. */
function assemble(params: PayoutParams, inputs: readonly PlainCell[], change: bigint | undefined): ccc.Transaction {
  const script = (s: CkbJsonScript) => ccc.Script.from({ codeHash: s.code_hash, hashType: s.hash_type, args: s.args });
  const outputs = params.outputs.map((o) => ({ capacity: o.capacity, lock: script(o.lock) }));
  if (change !== undefined) outputs.push({ capacity: change, lock: script(params.poolLock) });
  return ccc.Transaction.from({
    version: 0,
    cellDeps: [{ outPoint: { txHash: params.depGroup.txHash, index: params.depGroup.index }, depType: 'depGroup' }],
    headerDeps: [],
    inputs: inputs.map((c) => ({ previousOutput: { txHash: c.txHash, index: c.index }, since: 0 })),
    outputs,
    outputsData: outputs.map(() => '0x'),
    witnesses: inputs.map((_, i) =>
      i === 0 ? ccc.hexFrom(ccc.WitnessArgs.from({ lock: new Uint8Array(65) }).toBytes()) : '0x',
    ),
  });
}

/**
 * The sighash-all message of a transaction whose inputs are all one lock group and whose witness 0 holds
 * the 65-byte zero placeholder: ckbhash of the tx hash, then each witness of the group and past the inputs
 * as u64 LE length and bytes (ckb-system-scripts c/secp256k1_blake160_sighash_all.c, header comment).
 */
export function sighashAllMessage(tx: ccc.Transaction): Uint8Array {
  const hasher = new ccc.HasherCkb();
  hasher.update(ccc.bytesFrom(tx.hash()));
  for (const witness of tx.witnesses) ccc.Transaction.hashWitnessToHasher(witness, hasher);
  return ccc.bytesFrom(hasher.digest());
}

/** Signs every input (one lock group: all the pool's lock); the signature r ‖ s ‖ recovery id goes in witness 0. */
export async function signPayout(tx: ccc.Transaction, signer: ccc.SignerCkbPrivateKey): Promise<ccc.Transaction> {
  const signature = await signer._signMessage(sighashAllMessage(tx));
  const signed = tx.clone();
  signed.witnesses[0] = ccc.hexFrom(ccc.WitnessArgs.from({ lock: signature }).toBytes());
  return signed;
}

/**
 * The transaction in the node's JSON form (nervosnetwork/ckb util/jsonrpc-types: snake case, uints as 0x
 * hex without leading zeros, an absent type script as null). Written out field by field: CCC's JSON-RPC
 * transformer leaves an absent type undefined, which JSON drops.
 */
export function toNodeJson(tx: ccc.Transaction): CkbJsonTransaction {
  const uint = (n: ccc.NumLike) => `0x${ccc.numFrom(n).toString(16)}`;
  const script = (s: ccc.Script): CkbJsonScript => ({
    code_hash: s.codeHash,
    hash_type: s.hashType as CkbJsonScript['hash_type'],
    args: s.args,
  });
  return {
    version: uint(tx.version),
    cell_deps: tx.cellDeps.map((d) => ({
      out_point: { tx_hash: d.outPoint.txHash, index: uint(d.outPoint.index) },
      dep_type: d.depType === 'depGroup' ? 'dep_group' : 'code',
    })),
    header_deps: [...tx.headerDeps],
    inputs: tx.inputs.map((i) => ({
      since: uint(i.since),
      previous_output: { tx_hash: i.previousOutput.txHash, index: uint(i.previousOutput.index) },
    })),
    outputs: tx.outputs.map((o) => ({
      capacity: uint(o.capacity),
      lock: script(o.lock),
      type: o.type ? script(o.type) : null,
    })),
    outputs_data: [...tx.outputsData],
    witnesses: [...tx.witnesses],
  };
}
