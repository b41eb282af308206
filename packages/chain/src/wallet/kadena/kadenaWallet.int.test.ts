import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChainwebNodeStandIn, startChainwebNode } from '../../testing/chainwebNode.js';
import type { SignedTransaction } from '../signingWallet.js';
import { WalletError } from '../wallet.js';
import { KadenaWallet, type KadenaWalletOptions } from './kadenaWallet.js';
import { publicKeyOf } from './pactCommand.js';

const KDA = 1_000_000_000_000n;
const CHAIN = 3;
/** gasLimit 2 500 × 1e-8 KDA. */
const MAX_FEE = 2_500n * 10_000n;
/** The stand-in's gas for a transfer-create (chainwebPact.ts) × 1e-8 KDA. */
const USED_FEE = 700n * 10_000n;

const account = () => `k:${publicKeyOf(randomBytes(32).toString('hex'))}`;

let node: ChainwebNodeStandIn;
let privateKey: string;
let options: KadenaWalletOptions;
let wallet: KadenaWallet;

beforeAll(async () => {
  node = await startChainwebNode();
  // Fresh heads: the stand-in starts on 2021 mainnet headers, and a block judges a command's times
  // against its parent's creation time.
  node.advanceCut();
  privateKey = randomBytes(32).toString('hex');
  options = {
    coin: 'KDA',
    baseUrl: node.url,
    p2pUrl: node.url,
    networkId: 'mainnet01',
    chainId: CHAIN,
    privateKey,
    confirmations: 2,
  };
  wallet = new KadenaWallet(options);
  node.pact.fund(CHAIN, wallet.address, 100n * KDA);
});

afterAll(async () => {
  await node?.close();
});

async function failure(promise: Promise<unknown>): Promise<WalletError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WalletError);
  return error as WalletError;
}

describe('KadenaWallet against the stand-in chainweb-node', () => {
  it('reads the pool account and its balance on the paying chain only', async () => {
    expect(wallet.address).toBe(`k:${publicKeyOf(privateKey)}`);
    expect(wallet.maxOutputs).toBe(1);
    expect(wallet.minOutput).toBe(1n);
    expect(await wallet.balance()).toBe(100n * KDA);
    expect(await wallet.feeBalance()).toBe(100n * KDA);
    expect(await wallet.feeEstimate(3)).toBe(3n * MAX_FEE);
    // Not funded on another chain: no account there, balance 0.
    expect(await new KadenaWallet({ ...options, chainId: 4 }).balance()).toBe(0n);
  });

  it('pays several accounts, one command each: signed, sent, pending, mined, confirmations growing', async () => {
    const payouts = [
      { address: account(), amount: 1n },
      { address: account(), amount: (3n * KDA) / 2n },
      { address: account(), amount: 12_345_678_901_234n },
    ];
    const signed: SignedTransaction[] = [];
    for (const output of payouts) {
      const tx = await wallet.sign([output], signed);
      expect(tx.txid).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(tx.fee).toBe(MAX_FEE);
      expect(tx.spends).toEqual([]);
      expect(tx.expiresAt?.getTime()).toBeGreaterThan(Date.now() + 7_000_000);
      expect(JSON.parse(tx.raw)).toMatchObject({ hash: tx.txid, sigs: [{ sig: expect.any(String) }] });
      expect(await wallet.state(tx)).toEqual({ state: 'unknown' });
      await wallet.broadcast(tx);
      // Sent again while in the mempool: taken again without effect.
      await wallet.broadcast(tx);
      expect(await wallet.state(tx)).toEqual({ state: 'pending' });
      signed.push(tx);
    }
    // Without the P2P API the wallet cannot see the mempool.
    const { p2pUrl: _, ...serviceOnly } = options;
    expect(await new KadenaWallet(serviceOnly).state(signed[0] as SignedTransaction)).toEqual({ state: 'unknown' });

    node.advanceCut();
    for (const tx of signed) {
      expect(await wallet.state(tx)).toEqual({ state: 'mined', confirmations: 1, fee: USED_FEE });
    }
    node.advanceCut(2);
    for (const tx of signed) {
      expect(await wallet.state(tx)).toEqual({ state: 'mined', confirmations: 3, fee: USED_FEE });
      // A crash after the send: the same command again is success (the node says it is on the chain).
      await wallet.broadcast(tx);
    }
    for (const { address, amount } of payouts) {
      expect(node.pact.balance(CHAIN, address)).toBe(amount);
      expect(node.pact.balance(CHAIN + 1, address)).toBeUndefined();
    }
    const paid = payouts.reduce((sum, p) => sum + p.amount, 0n);
    expect(await wallet.balance()).toBe(100n * KDA - paid - 3n * USED_FEE);
  });

  it('refuses to sign more than the chain holds, counting unmined payouts', async () => {
    const balance = await wallet.balance();
    const tooMuch = await failure(wallet.sign([{ address: account(), amount: balance }], []));
    expect(tooMuch.kind).toBe('insufficient-funds');
    expect(tooMuch.mayHaveSent).toBe(false);

    const first = await wallet.sign([{ address: account(), amount: balance / 2n }], []);
    await wallet.broadcast(first);
    const second = await failure(wallet.sign([{ address: account(), amount: balance / 2n }], [first]));
    expect(second.kind).toBe('insufficient-funds');
    expect(second.message).toMatch(/promised to unmined payouts/);
    node.advanceCut();
    expect((await wallet.state(first)).state).toBe('mined');
  });

  it('refuses addresses that are not k: accounts of a lower-case key, and the pool itself', async () => {
    const good = account();
    expect(await wallet.validateAddress(good)).toBe(true);
    for (const bad of [
      good.toUpperCase(),
      `k:${good.slice(2).toUpperCase()}`,
      'alice',
      'w:abc:keys-all',
      good.slice(0, -1),
      wallet.address,
    ]) {
      expect(await wallet.validateAddress(bad), bad).toBe(false);
      const error = await failure(wallet.sign([{ address: bad, amount: KDA }], []));
      expect(error.kind, bad).toBe('invalid-address');
    }
    expect((await failure(wallet.sign([{ address: good, amount: 0n }], []))).kind).toBe('rejected');
    const two = [
      { address: good, amount: 1n },
      { address: account(), amount: 1n },
    ];
    expect((await failure(wallet.sign(two, []))).kind).toBe('rejected');
  });

  it('gets a tampered signature refused by the node, with its reason', async () => {
    const tx = await wallet.sign([{ address: account(), amount: KDA }], []);
    const command = JSON.parse(tx.raw) as { sigs: { sig: string }[] };
    const sig = command.sigs[0]?.sig as string;
    command.sigs = [{ sig: `${sig.slice(0, -1)}${sig.endsWith('0') ? '1' : '0'}` }];
    const error = await failure(wallet.broadcast({ ...tx, raw: JSON.stringify(command) }));
    expect(error.kind).toBe('rejected');
    expect(error.message).toContain('Invalid transaction sigs: The signature at position 0 is invalid');
    expect(node.pact.pending(CHAIN)).not.toContain(tx.txid);
  });

  it('reports a command that failed on the chain as reverted, its gas spent', async () => {
    // An account of that name already exists with another guard (made before the k: rule): Pact refuses.
    const squatted = account();
    node.pact.fund(CHAIN, squatted, 1n, { keys: [randomBytes(32).toString('hex')], pred: 'keys-all' });
    const before = await wallet.balance();
    const tx = await wallet.sign([{ address: squatted, amount: KDA }], []);
    await wallet.broadcast(tx);
    node.advanceCut();
    expect(await wallet.state(tx)).toEqual({
      state: 'reverted',
      confirmations: 1,
      reason: 'account guards do not match',
      fee: MAX_FEE,
    });
    expect(await wallet.balance()).toBe(before - MAX_FEE);
    expect(node.pact.balance(CHAIN, squatted)).toBe(1n);
  });

  it('calls a command that expired unmined dead', async () => {
    const past = Date.now() - 3 * 3_600_000;
    const late = new KadenaWallet({ ...options, ttlSeconds: 3_600, now: () => past });
    const tx = await late.sign([{ address: account(), amount: KDA }], []);
    const refused = await failure(late.broadcast(tx));
    expect(refused.kind).toBe('rejected');
    expect(refused.message).toContain('Transaction time-to-live is expired');
    expect(await wallet.state(tx)).toEqual({ state: 'dead', reason: expect.stringMatching(/^expired at /) });
  });

  it('says unreachable when the node does not answer', async () => {
    const tx = await wallet.sign([{ address: account(), amount: KDA }], []);
    const port = await closedPort();
    const down = new KadenaWallet({
      ...options,
      baseUrl: `http://127.0.0.1:${port}`,
      p2pUrl: undefined,
      timeoutMs: 2_000,
    });
    for (const call of [
      down.balance(),
      down.sign([{ address: account(), amount: KDA }], []),
      down.broadcast(tx),
      down.state(tx),
    ]) {
      const error = await failure(call);
      expect(error.kind).toBe('unreachable');
    }
  });
});

/** A loopback port nobody listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
