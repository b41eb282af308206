import { readFileSync } from 'node:fs';
import { ccc } from '@ckb-ccc/core';
import { cccA } from '@ckb-ccc/core/advanced';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { describe, expect, it } from 'vitest';
import type { CkbJsonScript, CkbJsonTransaction } from '../../ckb/types.js';
import { sighashAllSigner, sizeInBlock as standInSize, transactionHash } from '../../testing/ckbTxVerifier.js';
import {
  buildPayout,
  InsufficientCapacity,
  MIN_PLAIN_CELL,
  type PlainCell,
  sighashAllMessage,
  signPayout,
  sizeInBlock,
  TransactionTooLarge,
  toNodeJson,
} from './ckbPayout.js';

// A real signed mainnet transaction (packages/chain/src/testing/fixtures/README.md).
const real = JSON.parse(
  readFileSync(new URL('../../testing/fixtures/ckb-mainnet-tx-79238be9.json', import.meta.url), 'utf8'),
) as { hash: string; input_cells: { lock: { args: string } }[]; transaction: CkbJsonTransaction };

const CKB = 100_000_000n;
const SIGHASH = '0x9bd7e06f3ecf4be0f2fcd2188b23f1b9fcc88e5d4b65a8637b17723bbda3cce8';
const lock = (byte: string): CkbJsonScript => ({ code_hash: SIGHASH, hash_type: 'type', args: `0x${byte.repeat(20)}` });
const POOL = lock('aa');
const DEP = { txHash: `0x${'de'.repeat(32)}`, index: 0 };
const cell = (n: number, ckb: bigint): PlainCell => ({
  txHash: `0x${n.toString(16).padStart(64, '0')}`,
  index: 0,
  capacity: ckb * CKB,
});
const client = new ccc.ClientPublicTestnet({ url: 'http://127.0.0.1:9/', fallbacks: [] });
const KEY = '0x4c5b5b5f6e0b2a7b1d0c9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f1a2b';

describe('CKB payout transactions (@ckb-ccc/core) on a real mainnet transaction', () => {
  const tx = ccc.Transaction.from(cccA.JsonRpcTransformers.transactionTo(real.transaction as cccA.JsonRpcTransaction));

  it('hashes it to its published hash and writes it back in the node JSON form unchanged', () => {
    expect(tx.hash()).toBe(real.hash);
    expect(toNodeJson(tx)).toEqual(real.transaction);
    expect(sizeInBlock(tx)).toBe(standInSize(real.transaction));
  });

  it('computes the sighash-all message its signature was made over', () => {
    const witness = ccc.WitnessArgs.fromBytes(tx.witnesses[0] as string);
    const signature = ccc.bytesFrom(witness.lock as string);
    const placeholder = tx.clone();
    placeholder.witnesses[0] = ccc.hexFrom(ccc.WitnessArgs.from({ lock: new Uint8Array(65) }).toBytes());
    const message = sighashAllMessage(placeholder);
    const publicKey = secp256k1.Signature.fromBytes(
      Uint8Array.of(signature[64] as number, ...signature.subarray(0, 64)),
      'recovered',
    )
      .recoverPublicKey(message)
      .toBytes(true);
    expect(ccc.hashCkb(publicKey).slice(0, 42)).toBe(real.input_cells[0]?.lock.args);
  });
});

describe('buildPayout and signPayout', () => {
  const outputs = [
    { lock: lock('01'), capacity: 100n * CKB },
    { lock: lock('02'), capacity: 61n * CKB },
  ];
  const base = { outputs, poolLock: POOL, depGroup: DEP, feeRate: 1000n };

  it('pays every output with a change cell to the pool and a fee of the rate times the size', () => {
    const built = buildPayout({ ...base, cells: [cell(1, 500n)] });
    const json = toNodeJson(built.tx);
    expect(json.outputs.map((o) => o.lock.args)).toEqual([lock('01').args, lock('02').args, POOL.args]);
    expect(BigInt(json.outputs[2]?.capacity as string)).toBe(500n * CKB - 161n * CKB - built.fee);
    expect(built.fee).toBe((BigInt(standInSize(json)) * 1000n + 999n) / 1000n);
    expect(json.cell_deps).toEqual([{ out_point: { tx_hash: DEP.txHash, index: '0x0' }, dep_type: 'dep_group' }]);
  });

  it('takes another input when the change would be under 61 CKB, and folds it into the fee only with no cell left', () => {
    const twoCells = buildPayout({ ...base, cells: [cell(1, 200n), cell(2, 100n)] });
    expect(twoCells.inputs).toHaveLength(2);
    const oneCell = buildPayout({ ...base, cells: [cell(1, 200n)] });
    expect(oneCell.inputs).toHaveLength(1);
    expect(toNodeJson(oneCell.tx).outputs).toHaveLength(2);
    expect(oneCell.fee).toBe(39n * CKB); // 200 − 161: no change cell can hold 39 CKB
  });

  it('refuses when the cells cannot pay the outputs and the fee', () => {
    expect(() => buildPayout({ ...base, cells: [cell(1, 161n)] })).toThrow(InsufficientCapacity);
    expect(() => buildPayout({ ...base, cells: [] })).toThrow(InsufficientCapacity);
  });

  it('refuses a transaction over the pool size limit', () => {
    // 1000 payouts of 500 CKB from 61-CKB cells: ~8200 inputs of 52 bytes (input and empty witness) and
    // 109 kB of outputs come to ~535 kB.
    const dust = Array.from({ length: 8_300 }, (_, i) => cell(i + 1, 61n));
    const many = Array.from({ length: 1000 }, () => ({ lock: lock('03'), capacity: 500n * CKB }));
    expect(() => buildPayout({ ...base, outputs: many, cells: dust })).toThrow(TransactionTooLarge);
  });

  it('signs so that an independent sighash-all check recovers the pool key, the same bytes every time', async () => {
    const signer = new ccc.SignerCkbPrivateKey(client, KEY);
    const args = ccc.hashCkb(signer.publicKey).slice(0, 42);
    const built = buildPayout({ ...base, poolLock: { ...POOL, args }, cells: [cell(1, 100n), cell(2, 100n)] });
    const signed = await signPayout(built.tx, signer);
    const json = toNodeJson(signed);
    expect(transactionHash(json)).toBe(signed.hash());
    expect(sighashAllSigner(json, [0, 1])).toBe(args);
    expect(json.witnesses[1]).toBe('0x');
    expect(toNodeJson(await signPayout(built.tx, signer))).toEqual(json);
    expect(MIN_PLAIN_CELL).toBe(6_100_000_000n);
  });
});
