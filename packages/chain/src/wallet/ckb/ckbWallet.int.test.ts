import { ccc } from '@ckb-ccc/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { CkbJsonScript, CkbJsonTransaction } from '../../ckb/types.js';
import { type CkbStandInNode, STAND_IN_SECP256K1_DEP_GROUP, startCkbNode } from '../../testing/ckbNode.js';
import type { SignedTransaction } from '../signingWallet.js';
import { WalletError } from '../wallet.js';
import { CkbWallet, type CkbWalletOptions } from './ckbWallet.js';

const CKB = 100_000_000n;
const KEY = '0x4c5b5b5f6e0b2a7b1d0c9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f1a2b';
const SIGHASH = '0x9bd7e06f3ecf4be0f2fcd2188b23f1b9fcc88e5d4b65a8637b17723bbda3cce8';

const payee = (n: number): { address: string; lock: CkbJsonScript } => {
  const args = `0x${n.toString(16).padStart(2, '0').repeat(20)}`;
  const address = ccc.Address.from({ script: { codeHash: SIGHASH, hashType: 'type', args }, prefix: 'ckt' }).toString();
  return { address, lock: { code_hash: SIGHASH, hash_type: 'type', args } };
};

const nodes: CkbStandInNode[] = [];
afterEach(async () => {
  await Promise.all(nodes.splice(0).map((n) => n.close()));
});

async function setup(
  funds: readonly bigint[],
  nodeOptions: Parameters<typeof startCkbNode>[0] = {},
  walletOptions: Partial<CkbWalletOptions> = {},
) {
  const node = await startCkbNode({ transactions: 0, ...nodeOptions });
  nodes.push(node);
  const wallet = new CkbWallet({
    coin: 'CKB',
    rpcUrl: node.url,
    privateKey: KEY,
    network: 'ckt',
    confirmations: 3,
    secp256k1CellDep: { txHash: STAND_IN_SECP256K1_DEP_GROUP.tx_hash, index: 0 },
    timeoutMs: 2000,
    ...walletOptions,
  });
  const funded = funds.length > 0 ? node.fund(wallet.lock, funds) : [];
  return { node, wallet, funded };
}

const capacityOf = (node: CkbStandInNode, lock: CkbJsonScript) =>
  node.liveCells(lock).reduce((sum, c) => sum + BigInt(c.output.capacity), 0n);

async function rejection(promise: Promise<unknown>): Promise<WalletError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(WalletError);
    return error as WalletError;
  }
  throw new Error('expected a WalletError');
}

describe('CkbWallet against the stand-in CKB node', () => {
  it('pays several payouts in one transaction, which is committed and gains confirmations', async () => {
    const { node, wallet } = await setup([1000n * CKB, 500n * CKB]);
    expect(wallet.address.startsWith('ckt1q')).toBe(true);
    expect(await wallet.balance()).toBe(1500n * CKB);
    const outputs = [
      { address: payee(1).address, amount: 100n * CKB },
      { address: payee(2).address, amount: 1200n * CKB },
      { address: payee(3).address, amount: 61n * CKB },
    ];
    const tx = await wallet.sign(outputs, []);
    const json = JSON.parse(tx.raw) as CkbJsonTransaction;
    expect(json.outputs).toHaveLength(4); // three payouts and the change
    expect(tx.spends).toHaveLength(2);
    expect(json.outputs[0]?.capacity).toBe(`0x${(100n * CKB).toString(16)}`);
    expect(tx.fee).toBeGreaterThan(0n);
    expect(tx.fee).toBeLessThan(10_000n); // 1000 shannons/KB over < 1 kB
    expect(await wallet.feeEstimate(3)).toBeGreaterThanOrEqual(tx.fee);

    expect(await wallet.state(tx)).toEqual({ state: 'unknown' });
    await wallet.broadcast(tx);
    expect(node.pendingTransactions()).toEqual([tx.txid]);
    expect(await wallet.state(tx)).toEqual({ state: 'pending' });

    node.mine(1);
    expect(await wallet.state(tx)).toEqual({ state: 'mined', confirmations: 1, fee: tx.fee });
    node.mine(2);
    expect(await wallet.state(tx)).toEqual({ state: 'mined', confirmations: 3, fee: tx.fee });

    expect(capacityOf(node, payee(1).lock)).toBe(100n * CKB);
    expect(capacityOf(node, payee(2).lock)).toBe(1200n * CKB);
    expect(capacityOf(node, payee(3).lock)).toBe(61n * CKB);
    expect(await wallet.balance()).toBe(1500n * CKB - 1361n * CKB - tx.fee);
  });

  it('signs two transactions back to back on different inputs, both committed', async () => {
    const { node, wallet } = await setup([300n * CKB, 300n * CKB, 300n * CKB], {}, { indexerPageSize: 2 });
    const first = await wallet.sign([{ address: payee(4).address, amount: 200n * CKB }], []);
    const second = await wallet.sign([{ address: payee(5).address, amount: 200n * CKB }], [first]);
    expect(first.spends.filter((s) => second.spends.includes(s))).toEqual([]);
    await wallet.broadcast(first);
    await wallet.broadcast(second);
    node.mine(1);
    expect((await wallet.state(first)).state).toBe('mined');
    expect((await wallet.state(second)).state).toBe('mined');
    // Without the first in flight the second would have taken the same cell, and the node refuses that.
    const third = await wallet.sign([{ address: payee(6).address, amount: 70n * CKB }], []);
    expect(third.spends.some((s) => first.spends.includes(s) || second.spends.includes(s))).toBe(false);
  });

  it('takes another input rather than leave a change cell under 61 CKB', async () => {
    const { wallet } = await setup([150n * CKB, 100n * CKB]);
    // 150 CKB pays 100 CKB with 50 CKB left: too little for a change cell, so the second cell joins.
    const tx = await wallet.sign([{ address: payee(7).address, amount: 100n * CKB }], []);
    expect(tx.spends).toHaveLength(2);
    const json = JSON.parse(tx.raw) as CkbJsonTransaction;
    expect(BigInt(json.outputs[1]?.capacity as string)).toBe(150n * CKB - tx.fee);
  });

  it('never spends or counts a cell of the pool lock that holds data or a type script', async () => {
    const { node, wallet } = await setup([100n * CKB]);
    node.fund(wallet.lock, [1000n * CKB], { data: '0x00' });
    node.fund(wallet.lock, [1000n * CKB], { type: { code_hash: SIGHASH, hash_type: 'type', args: '0x' } });
    expect(capacityOf(node, wallet.lock)).toBe(2100n * CKB);
    expect(await wallet.balance()).toBe(100n * CKB);
    const error = await rejection(wallet.sign([{ address: payee(1).address, amount: 200n * CKB }], []));
    expect(error.kind).toBe('insufficient-funds');
    const tx = await wallet.sign([{ address: payee(1).address, amount: 61n * CKB }], []);
    expect(tx.spends).toHaveLength(1);
  });

  it('refuses what the pool lock cannot cover, counting cells held by transactions in flight', async () => {
    const { wallet } = await setup([100n * CKB]);
    const error = await rejection(wallet.sign([{ address: payee(8).address, amount: 200n * CKB }], []));
    expect(error.kind).toBe('insufficient-funds');
    expect(error.mayHaveSent).toBe(false);
    const held = await wallet.sign([{ address: payee(8).address, amount: 61n * CKB }], []);
    const again = await rejection(wallet.sign([{ address: payee(9).address, amount: 61n * CKB }], [held]));
    expect(again.kind).toBe('insufficient-funds');
    expect(again.message).toMatch(/held by transactions in flight/);
  });

  it('refuses an invalid address and a lock it cannot pay safely', async () => {
    const { wallet } = await setup([100n * CKB]);
    const mainnet = ccc.Address.from({
      script: { codeHash: SIGHASH, hashType: 'type', args: `0x${'01'.repeat(20)}` },
      prefix: 'ckb',
    }).toString();
    const otherLock = ccc.Address.from({
      script: { codeHash: `0x${'ab'.repeat(32)}`, hashType: 'type', args: `0x${'01'.repeat(20)}` },
      prefix: 'ckt',
    }).toString();
    expect(await wallet.validateAddress(payee(1).address)).toBe(true);
    for (const address of [mainnet, otherLock, 'ckt1qnotanaddress', payee(1).address.slice(0, -1)]) {
      expect(await wallet.validateAddress(address)).toBe(false);
      const error = await rejection(wallet.sign([{ address, amount: 100n * CKB }], []));
      expect(error.kind).toBe('invalid-address');
    }
    const error = await rejection(wallet.sign([{ address: otherLock, amount: 100n * CKB }], []));
    expect(error.message).toMatch(/not secp256k1-blake160-sighash-all/);
  });

  it('refuses an output below 61 CKB, the occupied capacity of its cell', async () => {
    const { wallet } = await setup([1000n * CKB]);
    const error = await rejection(wallet.sign([{ address: payee(1).address, amount: 61n * CKB - 1n }], []));
    expect(error.kind).toBe('rejected');
    expect(error.message).toMatch(/below 6100000000/);
  });

  it('is refused by the node when the signature or what it signs was tampered with', async () => {
    const { node, wallet } = await setup([1000n * CKB]);
    const tx = await wallet.sign([{ address: payee(1).address, amount: 100n * CKB }], []);
    const json = JSON.parse(tx.raw) as CkbJsonTransaction;
    const witness = json.witnesses[0] as string;
    const flipped = `${witness.slice(0, 50)}${witness[50] === 'a' ? 'b' : 'a'}${witness.slice(51)}`;
    const badSignature: SignedTransaction = { ...tx, raw: JSON.stringify({ ...json, witnesses: [flipped] }) };
    const error = await rejection(wallet.broadcast(badSignature));
    expect(error.kind).toBe('rejected');
    expect(error.rpcCode).toBe(-302);
    expect(error.message).toMatch(/TransactionFailedToVerify: .*ValidationFailure: see error code -(31|11)/);

    // Paying itself more out of the change: the signature no longer covers the transaction.
    const outputs = json.outputs.map((o, i) => (i === 0 ? { ...o, capacity: `0x${(200n * CKB).toString(16)}` } : o));
    const change = BigInt(json.outputs[1]?.capacity as string) - 100n * CKB;
    outputs[1] = { ...(outputs[1] as (typeof outputs)[number]), capacity: `0x${change.toString(16)}` };
    const badPayment = await rejection(wallet.broadcast({ ...tx, raw: JSON.stringify({ ...json, outputs }) }));
    expect(badPayment.message).toMatch(/ValidationFailure: see error code -31/);
    expect(node.pendingTransactions()).toEqual([]);

    await wallet.broadcast(tx);
    expect(node.pendingTransactions()).toEqual([tx.txid]);
  });

  it('is refused below the node minimum fee rate, and pays the node median above the floor', async () => {
    const low = await setup([1000n * CKB], { minFeeRate: 5000n });
    const cheap = await low.wallet.sign([{ address: payee(1).address, amount: 100n * CKB }], []);
    const error = await rejection(low.wallet.broadcast(cheap));
    expect(error.kind).toBe('rejected');
    expect(error.rpcCode).toBe(-1104);
    expect(error.message).toMatch(/PoolRejectedTransactionByMinFeeRate: The min fee rate is 5000 shannons\/KW/);

    const high = await setup([1000n * CKB], { minFeeRate: 5000n, feeRateStatistics: { mean: 6000n, median: 5000n } });
    const paid = await high.wallet.sign([{ address: payee(1).address, amount: 100n * CKB }], []);
    expect(paid.fee).toBeGreaterThan(cheap.fee * 4n);
    await high.wallet.broadcast(paid);
    expect(high.node.pendingTransactions()).toEqual([paid.txid]);
  });

  it('treats a rebroadcast of a pooled or committed transaction as success', async () => {
    const { node, wallet } = await setup([1000n * CKB]);
    const tx = await wallet.sign([{ address: payee(1).address, amount: 100n * CKB }], []);
    await wallet.broadcast(tx);
    await wallet.broadcast(tx);
    node.mine(1);
    await wallet.broadcast(tx);
    expect(await wallet.state(tx)).toEqual({ state: 'mined', confirmations: 1, fee: tx.fee });
  });

  it('reports a transaction dead once another transaction spent its inputs', async () => {
    const { node, wallet, funded } = await setup([1000n * CKB]);
    const tx = await wallet.sign([{ address: payee(1).address, amount: 100n * CKB }], []);
    node.spendElsewhere(funded);
    const state = await wallet.state(tx);
    expect(state.state).toBe('dead');
    expect(state).toMatchObject({ reason: expect.stringMatching(/was spent by another transaction/) });
    const error = await rejection(wallet.broadcast(tx));
    expect(error.kind).toBe('rejected');
    expect(error.message).toMatch(/TransactionFailedToResolve: Resolve failed Dead\(OutPoint/);
  });

  it('reports a pooled transaction dead, with the node reason, when a conflicting one is committed', async () => {
    const { node, wallet, funded } = await setup([1000n * CKB]);
    const tx = await wallet.sign([{ address: payee(1).address, amount: 100n * CKB }], []);
    await wallet.broadcast(tx);
    node.spendElsewhere(funded);
    const state = await wallet.state(tx);
    expect(state).toMatchObject({ state: 'dead', reason: expect.stringMatching(/rejected it: .*Resolve failed Dead/) });
  });

  it('says unreachable when the node does not answer', async () => {
    const { node, wallet } = await setup([1000n * CKB]);
    const tx = await wallet.sign([{ address: payee(1).address, amount: 100n * CKB }], []);
    await node.close();
    const signing = await rejection(wallet.sign([{ address: payee(1).address, amount: 100n * CKB }], []));
    expect(signing.kind).toBe('unreachable');
    expect(signing.mayHaveSent).toBe(false);
    const sending = await rejection(wallet.broadcast(tx));
    expect(sending.kind).toBe('unreachable');
    expect(sending.mayHaveSent).toBe(true);
    expect((await rejection(wallet.state(tx))).kind).toBe('unreachable');
    expect((await rejection(wallet.balance())).kind).toBe('unreachable');
  });
});
