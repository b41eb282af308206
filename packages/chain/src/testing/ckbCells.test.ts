import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CkbJsonCellOutput, CkbJsonTransaction } from '../ckb/types.js';
import { type ChainCells, checkPoolTransaction, outPointKey, PoolRefusal, replayChain } from './ckbCells.js';

// The real mainnet transaction of fixtures/README.md, checked against a chain holding its input cells.
const real = JSON.parse(readFileSync(new URL('./fixtures/ckb-mainnet-tx-79238be9.json', import.meta.url), 'utf8')) as {
  hash: string;
  input_cells: { capacity: string; lock: CkbJsonCellOutput['lock'] }[];
  transaction: CkbJsonTransaction;
};
const tx = real.transaction;
const MAINNET_DEP_GROUP = tx.cell_deps[0]?.out_point as { tx_hash: string; index: string };
const DAO_CODE = tx.cell_deps[1]?.out_point as { tx_hash: string; index: string };

/** A chain whose live cells are the transaction's inputs and the Nervos DAO code cell. */
function chainWithInputs(): ChainCells {
  const live = new Map();
  tx.inputs.forEach((input, i) => {
    const cell = real.input_cells[i] as (typeof real.input_cells)[number];
    live.set(outPointKey(input.previous_output), {
      out_point: input.previous_output,
      output: { capacity: cell.capacity, lock: cell.lock, type: null },
      output_data: '0x',
      block_number: 1,
      tx_index: 1,
    });
  });
  live.set(outPointKey(DAO_CODE), {
    out_point: DAO_CODE,
    output: { capacity: '0x0', lock: real.input_cells[0]?.lock, type: null },
    output_data: '0x',
    block_number: 0,
    tx_index: 0,
  });
  return { live, dead: new Set(), committed: new Map() };
}

const options = { minFeeRate: 1000n, secp256k1DepGroup: MAINNET_DEP_GROUP };
const check = (t: CkbJsonTransaction, cells = chainWithInputs(), pool = new Map()) =>
  checkPoolTransaction(t, cells, pool, 'passthrough', options);
const refusal = (run: () => unknown): PoolRefusal => {
  try {
    run();
  } catch (error) {
    if (error instanceof PoolRefusal) return error;
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('the stand-in pool checks on a real mainnet transaction', () => {
  it('accepts it as the chain did, with its hash and fee', () => {
    expect(check(tx)).toEqual({ hash: real.hash, fee: 3684n });
  });

  it('refuses it in the node words once a byte changes, an input is gone or already taken', () => {
    const outputs = tx.outputs.map((o, i) => (i === 1 ? { ...o, capacity: '0x17a90e05d0' } : o));
    expect(refusal(() => check({ ...tx, outputs })).message).toMatch(
      /^TransactionFailedToVerify: Verification failed Script\(TransactionScriptError \{ source: Inputs\[0\]\.Lock, cause: ValidationFailure: see error code -31 on page https:\/\/nervosnetwork\.github\.io\/ckb-script-error-codes\/by-type-hash\/9bd7e06f3ecf4be0f2fcd2188b23f1b9fcc88e5d4b65a8637b17723bbda3cce8\.html#-31 \}\)$/,
    );
    const spent = chainWithInputs();
    const first = outPointKey(tx.inputs[0]?.previous_output as never);
    spent.live.delete(first);
    spent.dead.add(first);
    const dead = refusal(() => check(tx, spent));
    expect(dead.code).toBe(-301);
    expect(dead.message).toBe(
      'TransactionFailedToResolve: Resolve failed Dead(OutPoint(0x5f0cec7e77478158a60242f02768c94db075de90b93735dd413241e3ac9dfd2100000000))',
    );
    const other = { ...tx, witnesses: ['0x', '0x'] };
    const pool = new Map([['0xother', { tx: other }]]);
    expect(refusal(() => check(tx, chainWithInputs(), pool)).code).toBe(-301);
    expect(refusal(() => check(tx, chainWithInputs(), new Map([[real.hash, { tx }]]))).code).toBe(-1107);
  });

  it('refuses it below a higher minimum fee rate, and an output under its occupied capacity', () => {
    const low = refusal(() =>
      checkPoolTransaction(tx, chainWithInputs(), new Map(), 'passthrough', { ...options, minFeeRate: 10_000n }),
    );
    expect(low.code).toBe(-1104);
    expect(low.message).toMatch(
      /^PoolRejectedTransactionByMinFeeRate: The min fee rate is 10000 shannons\/KW, requiring a transaction fee of at least \d+ shannons, but the fee provided is only 3684$/,
    );
    const outputs = tx.outputs.map((o, i) => (i === 1 ? { ...o, capacity: `0x${(6_099_999_999).toString(16)}` } : o));
    expect(refusal(() => check({ ...tx, outputs })).message).toBe(
      'TransactionFailedToVerify: Verification failed Transaction(InsufficientCellCapacity(Outputs[1]): expected occupied capacity (0x16b969d00) <= capacity (0x16b969cff))',
    );
    // The DAO deposit has a type script: the well-known-scripts validator of a payout wallet refuses it.
    const validator = refusal(() =>
      checkPoolTransaction(tx, chainWithInputs(), new Map(), 'well_known_scripts_only', options),
    );
    expect(validator.code).toBe(-1102);
  });

  it('replays a chain into live and dead cells', () => {
    const cells = replayChain([
      { hash: '0xb1', number: 1, transactions: [{ ...tx, inputs: [] }, tx], txHashes: ['0xc1', real.hash] },
    ]);
    expect(cells.live.has(`${real.hash}:1`)).toBe(true);
    expect(cells.dead.has(outPointKey(tx.inputs[1]?.previous_output as never))).toBe(true);
    expect(cells.committed.get(real.hash)).toMatchObject({ blockNumber: 1, txIndex: 1 });
  });
});
