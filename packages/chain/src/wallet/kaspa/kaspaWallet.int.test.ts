import { schnorr } from '@noble/curves/secp256k1.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeKaspaAddress } from '../../addresses/kaspa.js';
import { parseJsonExact, stringifyJsonExact } from '../../kaspa/json.js';
import { KaspaNodeStandIn } from '../../testing/kaspaNode.js';
import type { SignedTransaction } from '../signingWallet.js';
import { WalletError } from '../wallet.js';
import { KaspaWallet } from './kaspaWallet.js';

const KAS = 100_000_000n;
const POOL_KEY = '7f'.repeat(32);
const PREFIX = 'kaspadev';

/** A miner's address from a key of its own. */
function minerAddress(seed: number): string {
  const key = Uint8Array.from(Buffer.from(seed.toString(16).padStart(2, '0').repeat(32), 'hex'));
  return encodeKaspaAddress(PREFIX, 0, schnorr.getPublicKey(key));
}

async function refusal(promise: Promise<unknown>): Promise<WalletError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof WalletError) return error;
    throw error;
  }
  throw new Error('expected a WalletError');
}

describe('KaspaWallet against the stand-in kaspad', () => {
  let node: KaspaNodeStandIn;
  let wallet: KaspaWallet;

  beforeEach(async () => {
    node = await KaspaNodeStandIn.start({ prefix: PREFIX });
    wallet = new KaspaWallet({
      url: node.url,
      privateKey: POOL_KEY,
      prefix: PREFIX,
      confirmations: 10,
      timeoutMs: 2000,
    });
  });

  afterEach(async () => {
    await wallet.close();
    await node.close();
  });

  it('pays several outputs in one transaction: signed, broadcast, accepted, confirmations grow', async () => {
    node.fund(wallet.address, [500n * KAS, 3n * KAS]);
    expect(await wallet.balance()).toBe(503n * KAS);
    const outputs = [
      { address: minerAddress(1), amount: 12n * KAS },
      { address: minerAddress(2), amount: 1n * KAS },
      { address: minerAddress(3), amount: 250_000_000n },
    ];
    const tx = await wallet.sign(outputs, []);
    expect(tx.txid).toMatch(/^[0-9a-f]{64}$/);
    expect(tx.followFrom).toMatch(/^[0-9a-f]{64}$/);
    expect(tx.spends).toHaveLength(1);
    expect(tx.fee).toBeGreaterThanOrEqual(await wallet.feeEstimate(0));
    expect(tx.fee).toBeLessThanOrEqual(await wallet.feeEstimate(3));
    expect(await wallet.state(tx)).toEqual({ state: 'unknown' });

    await wallet.broadcast(tx);
    expect(node.mempoolIds).toEqual([tx.txid]);
    expect(await wallet.state(tx)).toEqual({ state: 'pending' });

    node.advance();
    const mined = await wallet.state(tx);
    expect(mined).toMatchObject({ state: 'mined', fee: tx.fee });
    const first = (mined as { confirmations: number }).confirmations;
    expect(first).toBeGreaterThanOrEqual(1);
    node.advance(5);
    expect(await wallet.state(tx)).toMatchObject({ state: 'mined', confirmations: first + 5 });

    // The node's UTXO set now pays the miners, and the change came back to the pool.
    const raw = parseJsonExact(tx.raw) as { outputs: { value: bigint }[] };
    expect(raw.outputs.map((o) => BigInt(o.value))).toEqual([
      12n * KAS,
      1n * KAS,
      250_000_000n,
      500n * KAS - 12n * KAS - 1n * KAS - 250_000_000n - tx.fee,
    ]);
    expect(await wallet.balance()).toBe(503n * KAS - 155n * 10_000_000n - tx.fee);
  });

  it('signs two transactions back to back without sharing inputs, and both are accepted', async () => {
    node.fund(wallet.address, [100n * KAS, 100n * KAS, 100n * KAS]);
    const first = await wallet.sign([{ address: minerAddress(4), amount: 5n * KAS }], []);
    const second = await wallet.sign([{ address: minerAddress(5), amount: 6n * KAS }], [first]);
    expect(second.spends.filter((s) => first.spends.includes(s))).toEqual([]);
    await wallet.broadcast(first);
    await wallet.broadcast(second);
    node.advance();
    expect(await wallet.state(first)).toMatchObject({ state: 'mined' });
    expect(await wallet.state(second)).toMatchObject({ state: 'mined' });
  });

  it('refuses what it cannot pay: insufficient funds, an invalid address, an output below minOutput, too many outputs', async () => {
    node.fund(wallet.address, [2n * KAS]);
    const poor = await refusal(wallet.sign([{ address: minerAddress(6), amount: 5n * KAS }], []));
    expect(poor.kind).toBe('insufficient-funds');
    expect(poor.mayHaveSent).toBe(false);

    const wrongNetwork = encodeKaspaAddress('kaspa', 0, new Uint8Array(32));
    expect(await wallet.validateAddress(wrongNetwork)).toBe(false);
    expect(await wallet.validateAddress('kaspadev:nonsense')).toBe(false);
    expect(await wallet.validateAddress(minerAddress(7))).toBe(true);
    expect((await refusal(wallet.sign([{ address: wrongNetwork, amount: KAS }], []))).kind).toBe('invalid-address');

    const small = await refusal(wallet.sign([{ address: minerAddress(7), amount: wallet.minOutput - 1n }], []));
    expect(small.kind).toBe('rejected');
    expect(small.message).toMatch(/below the minimum of 100000000 sompi \(KIP-9 storage mass\)/);

    const many = Array.from({ length: wallet.maxOutputs + 1 }, (_, i) => ({
      address: minerAddress(i + 10),
      amount: KAS,
    }));
    expect((await refusal(wallet.sign(many, []))).kind).toBe('rejected');
    // Nothing reached the node.
    expect(node.mempoolIds).toEqual([]);
  });

  it('a wallet of many small UTXOs says it must be consolidated when the compute mass limit caps the inputs', async () => {
    node.fund(
      wallet.address,
      Array.from({ length: 150 }, () => KAS / 2n),
    );
    expect(await wallet.balance()).toBe(75n * KAS);
    const fragmented = await refusal(wallet.sign([{ address: minerAddress(30), amount: 70n * KAS }], []));
    expect(fragmented.kind).toBe('insufficient-funds');
    expect(fragmented.message).toMatch(/compute mass limit allows only \d+ inputs .*consolidate/);
  });

  it('pays maxOutputs outputs at minOutput: the transaction is standard and kaspad accepts it', async () => {
    node.fund(wallet.address, [50n * KAS]);
    const outputs = Array.from({ length: wallet.maxOutputs }, (_, i) => ({
      address: minerAddress(i + 20),
      amount: wallet.minOutput,
    }));
    const tx = await wallet.sign(outputs, []);
    await wallet.broadcast(tx);
    expect(node.mempoolIds).toEqual([tx.txid]);
  });

  it('the stand-in verifies: a tampered signature or amount is refused in kaspad words', async () => {
    node.fund(wallet.address, [100n * KAS]);
    const tx = await wallet.sign([{ address: minerAddress(8), amount: 5n * KAS }], []);
    const raw = parseJsonExact(tx.raw) as {
      inputs: { signatureScript: string }[];
      outputs: { value: bigint | number }[];
    };
    const badSignature = structuredClone(raw);
    const script = badSignature.inputs[0]?.signatureScript as string;
    (badSignature.inputs[0] as { signatureScript: string }).signatureScript =
      script.slice(0, 10) + (script[10] === '0' ? '1' : '0') + script.slice(11);
    const forged = { ...tx, raw: stringifyJsonExact(badSignature) };
    const refused = await refusal(wallet.broadcast(forged));
    expect(refused.kind).toBe('rejected');
    expect(refused.message).toMatch(
      /failed to verify the signature script: false stack entry at end of script execution/,
    );

    // The same total, one more KAS to the miner out of the pool's change: only the signature can tell.
    const moreMoney = structuredClone(raw);
    (moreMoney.outputs[0] as { value: bigint }).value = 6n * KAS;
    (moreMoney.outputs[1] as { value: bigint }).value = BigInt((raw.outputs[1] as { value: bigint }).value) - KAS;
    const stolen = await refusal(wallet.broadcast({ ...tx, raw: stringifyJsonExact(moreMoney) }));
    expect(stolen.message, stolen.message).toMatch(/false stack entry/);
    expect(node.mempoolIds).toEqual([]);

    await wallet.broadcast(tx);
    expect(node.mempoolIds).toEqual([tx.txid]);
  });

  it('rebroadcast is success: in the mempool, and after acceptance', async () => {
    node.fund(wallet.address, [100n * KAS]);
    const tx = await wallet.sign([{ address: minerAddress(9), amount: 5n * KAS }], []);
    await wallet.broadcast(tx);
    await wallet.broadcast(tx);
    node.advance();
    await wallet.broadcast(tx);
    expect(node.refusals.some((r) => r.includes('already in the mempool'))).toBe(true);
    expect(node.refusals.some((r) => r.includes('was already accepted by the consensus'))).toBe(true);
    expect(await wallet.state(tx)).toMatchObject({ state: 'mined' });
  });

  it('a transaction whose inputs another transaction spent is dead; one dropped from the mempool is unknown', async () => {
    node.fund(wallet.address, [100n * KAS]);
    const first = await wallet.sign([{ address: minerAddress(11), amount: 5n * KAS }], []);
    // Signed without knowing of `first` (as after losing it): the same input.
    const rival = await wallet.sign([{ address: minerAddress(12), amount: 7n * KAS }], []);
    expect(rival.spends).toEqual(first.spends);
    await wallet.broadcast(rival);
    const doubleSpend = await refusal(wallet.broadcast(first));
    expect(doubleSpend.kind).toBe('rejected');
    expect(doubleSpend.message).toMatch(/already spent by transaction [0-9a-f]{64} in the mempool/);
    node.advance();
    expect(await wallet.state(first)).toMatchObject({
      state: 'dead',
      reason: expect.stringContaining(first.spends[0] as string),
    });
    expect(await wallet.state(rival)).toMatchObject({ state: 'mined' });

    const third = await wallet.sign([{ address: minerAddress(13), amount: 5n * KAS }], []);
    await wallet.broadcast(third);
    expect(node.dropFromMempool(third.txid)).toBe(true);
    expect(await wallet.state(third)).toEqual({ state: 'unknown' });
  });

  it('coinbase outputs are spent only once mature (DAA score depth)', async () => {
    await wallet.close();
    await node.close();
    node = await KaspaNodeStandIn.start({ prefix: PREFIX, coinbaseMaturity: 20n });
    wallet = new KaspaWallet({
      url: node.url,
      privateKey: POOL_KEY,
      prefix: PREFIX,
      confirmations: 10,
      coinbaseMaturity: 20n,
    });
    node.fund(wallet.address, [100n * KAS], { coinbase: true });
    expect(await wallet.balance()).toBe(0n);
    expect((await refusal(wallet.sign([{ address: minerAddress(14), amount: KAS }], []))).kind).toBe(
      'insufficient-funds',
    );
    // Funded at the sink's DAA score S; spendable once the virtual (the block that would merge it) reaches S + 20.
    node.advance(18);
    expect(await wallet.balance()).toBe(0n);
    node.advance(1);
    expect(await wallet.balance()).toBe(100n * KAS);
    const tx = await wallet.sign([{ address: minerAddress(14), amount: KAS }], []);
    await wallet.broadcast(tx);
    node.advance();
    expect(await wallet.state(tx)).toMatchObject({ state: 'mined' });
  });

  it('node down: every call is unreachable, and nothing is lost', async () => {
    node.fund(wallet.address, [100n * KAS]);
    const tx: SignedTransaction = await wallet.sign([{ address: minerAddress(15), amount: 5n * KAS }], []);
    await node.close();
    const calls = [
      () => wallet.balance(),
      () => wallet.sign([{ address: minerAddress(15), amount: KAS }], []),
      () => wallet.state(tx),
    ];
    for (const call of calls) expect((await refusal(call())).kind).toBe('unreachable');
    const sent = await refusal(wallet.broadcast(tx));
    expect(sent.kind).toBe('unreachable');
    expect(sent.mayHaveSent).toBe(true);
    node = await KaspaNodeStandIn.start({ prefix: PREFIX });
  });
});
