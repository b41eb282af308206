/**
 * The stand-in CKB node's cell set and transaction pool checks. The live cells are derived from the
 * canonical chain by replaying its transactions (so a fork that drops a block brings its inputs back to
 * life), and a transaction sent to the pool is checked the way the node's tx-pool does, with the stand-in's
 * own verifier (ckbTxVerifier.ts), and refused with the node's error codes and wording
 * (nervosnetwork/ckb rpc/src/error.rs `from_submit_transaction_reject`, util/types/src/core/tx_pool.rs
 * `Reject`, util/types/src/core/error.rs `OutPointError` and `TransactionError`, script/src/error.rs).
 *
 * Simplified, said plainly: only secp256k1-blake160-sighash-all locks are run (the only lock the pool
 * spends); the fee rate is measured on the size alone (the node takes max(size, cycles × bytes per cycle),
 * and a sighash-all transaction's size is the larger); `since` must be 0; no RBF.
 */
import type { CkbJsonCellOutput, CkbJsonOutPoint, CkbJsonScript, CkbJsonTransaction } from '../ckb/types.js';
import { occupiedCapacity, SighashRefusal, sighashAllSigner, sizeInBlock, transactionHash } from './ckbTxVerifier.js';

/** The secp256k1-blake160 lock's type hash on mainnet and testnet (nervosnetwork/ckb docs/hashes.toml). */
export const SECP256K1_BLAKE160_CODE_HASH = '0x9bd7e06f3ecf4be0f2fcd2188b23f1b9fcc88e5d4b65a8637b17723bbda3cce8';

export interface LiveCell {
  out_point: CkbJsonOutPoint;
  output: CkbJsonCellOutput;
  output_data: string;
  block_number: number;
  tx_index: number;
}

export interface CommittedTx {
  tx: CkbJsonTransaction;
  blockHash: string;
  blockNumber: number;
  txIndex: number;
}

/** The cells and transactions of the canonical chain at one tip. */
export interface ChainCells {
  live: Map<string, LiveCell>;
  dead: Set<string>;
  committed: Map<string, CommittedTx>;
}

export const outPointKey = (o: CkbJsonOutPoint): string => `${o.tx_hash}:${BigInt(o.index)}`;

/** Replays the canonical blocks in order: every input kills a cell, every output makes one. */
export function replayChain(
  blocks: Iterable<{ hash: string; number: number; transactions: readonly CkbJsonTransaction[]; txHashes: string[] }>,
): ChainCells {
  const live = new Map<string, LiveCell>();
  const dead = new Set<string>();
  const committed = new Map<string, CommittedTx>();
  for (const block of blocks) {
    block.transactions.forEach((tx, txIndex) => {
      const hash = block.txHashes[txIndex] as string;
      committed.set(hash, { tx, blockHash: block.hash, blockNumber: block.number, txIndex });
      if (txIndex > 0) {
        for (const input of tx.inputs) {
          const key = outPointKey(input.previous_output);
          live.delete(key);
          dead.add(key);
        }
      }
      tx.outputs.forEach((output, index) => {
        const out_point = { tx_hash: hash, index: `0x${index.toString(16)}` };
        live.set(outPointKey(out_point), {
          out_point,
          output,
          output_data: tx.outputs_data[index] ?? '0x',
          block_number: block.number,
          tx_index: txIndex,
        });
      });
    });
  }
  return { live, dead, committed };
}

/** A refusal as the node sends it: JSON-RPC code, message, data. */
export class PoolRefusal extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: string,
  ) {
    super(message);
  }
}

const reject = (name: string, code: number, reason: string): PoolRefusal =>
  new PoolRefusal(code, `${name}: ${reason}`, reason);

/** OutPoint's Debug form in the node's messages: the packed bytes, tx hash then index as u32 LE. */
function outPointDebug(o: CkbJsonOutPoint): string {
  const index = Buffer.alloc(4);
  index.writeUInt32LE(Number(BigInt(o.index)));
  return `OutPoint(${o.tx_hash}${index.toString('hex')})`;
}

export interface PoolCheckOptions {
  /** tx_pool.min_fee_rate, shannons per 1000 bytes (ckb.toml default 1000). */
  minFeeRate: bigint;
  /** The out point of the chain's secp256k1 dep group, the cell dep a sighash-all spend needs. */
  secp256k1DepGroup: CkbJsonOutPoint;
}

/** What send_transaction's default checks (and `well_known_scripts_only`) accept, or a PoolRefusal. */
export function checkPoolTransaction(
  tx: CkbJsonTransaction,
  cells: ChainCells,
  pool: ReadonlyMap<string, { tx: CkbJsonTransaction }>,
  outputsValidator: 'passthrough' | 'well_known_scripts_only',
  options: PoolCheckOptions,
): { hash: string; fee: bigint } {
  const hash = transactionHash(tx);
  if (pool.has(hash)) {
    throw reject(
      'PoolRejectedDuplicatedTransaction',
      -1107,
      `Transaction(Byte32(${hash})) already exists in transaction_pool`,
    );
  }
  if (tx.inputs.length === 0 || tx.outputs.length === 0) {
    throw reject(
      'TransactionFailedToVerify',
      -302,
      `Verification failed Transaction(Empty(${tx.inputs.length === 0 ? 'Inputs' : 'Outputs'}))`,
    );
  }
  if (tx.outputs.length !== tx.outputs_data.length) {
    throw reject(
      'TransactionFailedToVerify',
      -302,
      'Verification failed Transaction(OutputsDataLengthMismatch: expected outputs data length (' +
        tx.outputs_data.length +
        ') = outputs length (' +
        tx.outputs.length +
        '))',
    );
  }
  if (outputsValidator === 'well_known_scripts_only') {
    tx.outputs.forEach((output, i) => {
      if (!isSighashAllLock(output.lock) || output.type !== null) {
        throw reject(
          'PoolRejectedTransactionByOutputsValidator',
          -1102,
          `The transaction is rejected by OutputsValidator set in params[1]: well_known_scripts_only. Please check the related information in https://github.com/nervosnetwork/ckb/wiki/Transaction-%C2%BB-Default-Outputs-Validator (output ${i})`,
        );
      }
    });
  }

  // Resolve: inputs live on the chain and not taken by another pool transaction, cell deps known.
  const spentInPool = new Set<string>();
  for (const entry of pool.values()) for (const i of entry.tx.inputs) spentInPool.add(outPointKey(i.previous_output));
  const inputs: LiveCell[] = [];
  for (const input of tx.inputs) {
    const key = outPointKey(input.previous_output);
    const cell = cells.live.get(key);
    if (cell === undefined || spentInPool.has(key)) {
      const state = cell !== undefined || cells.dead.has(key) ? 'Dead' : 'Unknown';
      throw reject(
        'TransactionFailedToResolve',
        -301,
        `Resolve failed ${state}(${outPointDebug(input.previous_output)})`,
      );
    }
    inputs.push(cell);
  }
  // A cell dep resolves to the chain's secp256k1 dep group or to a live cell.
  const depGroup = outPointKey(options.secp256k1DepGroup);
  for (const cellDep of tx.cell_deps) {
    const key = outPointKey(cellDep.out_point);
    const known = (cellDep.dep_type === 'dep_group' && key === depGroup) || cells.live.has(key);
    if (!known) {
      const state = cells.dead.has(key) ? 'Dead' : 'Unknown';
      throw reject('TransactionFailedToResolve', -301, `Resolve failed ${state}(${outPointDebug(cellDep.out_point)})`);
    }
  }
  const hasDepGroup = tx.cell_deps.some((d) => d.dep_type === 'dep_group' && outPointKey(d.out_point) === depGroup);

  // Capacity (TransactionError), in the node's order: each output covers itself, then the sums.
  tx.outputs.forEach((output, index) => {
    const occupied = occupiedCapacity(output, tx.outputs_data[index] as string);
    const capacity = BigInt(output.capacity);
    if (capacity < occupied) {
      throw reject(
        'TransactionFailedToVerify',
        -302,
        `Verification failed Transaction(InsufficientCellCapacity(Outputs[${index}]): expected occupied capacity (0x${occupied.toString(16)}) <= capacity (0x${capacity.toString(16)}))`,
      );
    }
  });
  const inSum = inputs.reduce((sum, c) => sum + BigInt(c.output.capacity), 0n);
  const outSum = tx.outputs.reduce((sum, o) => sum + BigInt(o.capacity), 0n);
  if (outSum > inSum) {
    throw reject(
      'TransactionFailedToVerify',
      -302,
      `Verification failed Transaction(OutputsSumOverflow: expected outputs capacity (0x${outSum.toString(16)}) <= inputs capacity (0x${inSum.toString(16)}))`,
    );
  }
  for (const input of tx.inputs) {
    if (BigInt(input.since) !== 0n) {
      throw reject(
        'TransactionFailedToVerify',
        -302,
        'Verification failed Transaction(Immature): the stand-in takes since = 0 only',
      );
    }
  }

  // Fee rate (Reject::LowFeeRate): min_fee_rate × size / 1000.
  const fee = inSum - outSum;
  const size = BigInt(sizeInBlock(tx));
  const minFee = (options.minFeeRate * size + 999n) / 1000n;
  if (fee < minFee) {
    throw reject(
      'PoolRejectedTransactionByMinFeeRate',
      -1104,
      `The min fee rate is ${options.minFeeRate} shannons/KW, requiring a transaction fee of at least ${minFee} shannons, but the fee provided is only ${fee}`,
    );
  }

  // Scripts: one run of the lock per group of inputs with the same lock (RFC 0022, "Lock script groups").
  const groups = new Map<string, { lock: CkbJsonScript; indexes: number[] }>();
  inputs.forEach((cell, index) => {
    const key = JSON.stringify(cell.output.lock);
    const group = groups.get(key) ?? { lock: cell.output.lock, indexes: [] };
    group.indexes.push(index);
    groups.set(key, group);
  });
  for (const { lock, indexes } of groups.values()) {
    const first = indexes[0] as number;
    if (!isSighashAllLock(lock)) {
      throw scriptFailure(first, lock, -1, 'the stand-in runs secp256k1-blake160-sighash-all locks only');
    }
    if (!hasDepGroup) {
      // Without the dep group the lock's code is not among the cell deps (script/src/error.rs ScriptNotFound).
      throw new PoolRefusal(
        -302,
        `TransactionFailedToVerify: Verification failed Script(TransactionScriptError { source: Inputs[${first}].Lock, cause: ScriptNotFound: code_hash: ${lock.code_hash} })`,
        'ScriptNotFound',
      );
    }
    try {
      const signer = sighashAllSigner(tx, indexes);
      if (signer !== lock.args.toLowerCase()) throw new SighashRefusal(-31, 'the signature is of another key');
    } catch (error) {
      if (error instanceof SighashRefusal) throw scriptFailure(first, lock, error.exitCode, error.message);
      throw error;
    }
  }
  return { hash, fee };
}

function scriptFailure(input: number, lock: CkbJsonScript, exitCode: number, why: string): PoolRefusal {
  const page = `https://nervosnetwork.github.io/ckb-script-error-codes/by-type-hash/${lock.code_hash.slice(2)}.html#${exitCode}`;
  return new PoolRefusal(
    -302,
    `TransactionFailedToVerify: Verification failed Script(TransactionScriptError { source: Inputs[${input}].Lock, cause: ValidationFailure: see error code ${exitCode} on page ${page} })`,
    `Script(TransactionScriptError { source: Inputs[${input}].Lock, cause: ValidationFailure(${exitCode}) }) — ${why}`,
  );
}

export function isSighashAllLock(lock: CkbJsonScript): boolean {
  return lock.code_hash === SECP256K1_BLAKE160_CODE_HASH && lock.hash_type === 'type' && lock.args.length === 42;
}
