import {
  type Address,
  decodeFunctionResult,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  hexToBigInt,
  keccak256,
  parseEther,
  parseGwei,
  parseTransaction,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
// Through the package's testing entry, as the server's payout tests will use them.
import { deployTestUsd, type EvmNode, startEvmNode, TEST_USD_DECIMALS } from '../../testing/index.js';
import type { SignedTransaction } from '../signingWallet.js';
import { WalletError } from '../wallet.js';
import { EvmWallet, type EvmWalletOptions } from './evmWallet.js';

/**
 * EvmWallet against a real Hardhat 2 node (EDR) with TestUsd deployed as the USDC stand-in. Every test
 * pays from a hot wallet key of its own, funded from the node's accounts, so nonces never mix.
 */

const CONFIRMATIONS = 3;
const CEILING = parseGwei('100');
const USDC = (whole: bigint): bigint => whole * 10n ** BigInt(TEST_USD_DECIMALS);

let node: EvmNode;
let token: Address;
let funder: Hex;
let deployer: Hex;

beforeAll(async () => {
  node = await startEvmNode();
  [deployer, funder] = node.fundedKeys as [Hex, Hex];
  token = await deployTestUsd(node, { supply: USDC(1_000_000n), deployerKey: deployer });
});

afterAll(async () => {
  await node?.stop();
});

afterEach(async () => {
  await node.setAutomine(true);
});

/** Signs and sends a plain transaction from `key` (automine mines it). */
async function send(
  key: Hex,
  call: { to: Address; value?: bigint; data?: Hex; gas?: bigint; nonce?: number },
): Promise<Hex> {
  const account = privateKeyToAccount(key);
  const nonce = call.nonce ?? Number(await quantity('eth_getTransactionCount', [account.address, 'pending']));
  const raw = await account.signTransaction({
    type: 'eip1559',
    chainId: node.chainId,
    nonce,
    gas: call.gas ?? 100_000n,
    maxFeePerGas: parseGwei('10'),
    maxPriorityFeePerGas: parseGwei('1'),
    to: call.to,
    value: call.value ?? 0n,
    ...(call.data ? { data: call.data } : {}),
  });
  return (await node.rpc('eth_sendRawTransaction', [raw])) as Hex;
}

async function quantity(method: string, params: unknown[]): Promise<bigint> {
  return hexToBigInt((await node.rpc(method, params)) as Hex);
}

async function tokenBalance(address: Address): Promise<bigint> {
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [address] });
  const result = (await node.rpc('eth_call', [{ to: token, data }, 'latest'])) as Hex;
  return decodeFunctionResult({ abi: erc20Abi, functionName: 'balanceOf', data: result });
}

const ethBalance = (address: Address): Promise<bigint> => quantity('eth_getBalance', [address, 'latest']);
const pendingNonce = (address: Address): Promise<bigint> => quantity('eth_getTransactionCount', [address, 'pending']);
const newAddress = (): Address => privateKeyToAccount(generatePrivateKey()).address;

/** A fresh hot wallet key holding `eth` wei and `tokens` TestUsd units. */
async function fundedKey(eth: bigint, tokens = 0n): Promise<Hex> {
  const key = generatePrivateKey();
  const address = privateKeyToAccount(key).address;
  if (eth > 0n) await send(funder, { to: address, value: eth, gas: 21_000n });
  if (tokens > 0n) {
    await send(deployer, {
      to: token,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [address, tokens] }),
    });
  }
  return key;
}

function ethWallet(key: Hex, options: Partial<EvmWalletOptions> = {}): EvmWallet {
  return new EvmWallet({
    coin: 'ETH',
    feeCoin: 'ETH',
    rpcUrl: node.url,
    privateKey: key,
    chainId: node.chainId,
    confirmations: CONFIRMATIONS,
    maxFeePerGas: CEILING,
    ...options,
  });
}

function usdcWallet(key: Hex, options: Partial<EvmWalletOptions> = {}): EvmWallet {
  return ethWallet(key, { coin: 'USDC', token: { address: token, decimals: TEST_USD_DECIMALS }, ...options });
}

/** Signs one payout per output, each seeing the ones before it as in flight, as a payout run does. */
async function signAll(
  wallet: EvmWallet,
  outputs: { address: Address; amount: bigint }[],
): Promise<SignedTransaction[]> {
  const signed: SignedTransaction[] = [];
  for (const output of outputs) signed.push(await wallet.sign([output], signed));
  return signed;
}

async function walletError(promise: Promise<unknown>): Promise<WalletError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof WalletError)) throw new Error(`expected a WalletError, got ${String(error)}`);
  return error;
}

describe('EvmWallet paying ETH', () => {
  it('signs three payouts at consecutive nonces before sending any, then sends, mines and confirms them', async () => {
    const key = await fundedKey(parseEther('10'));
    const wallet = ethWallet(key);
    const outputs = [
      { address: newAddress(), amount: parseEther('1') },
      { address: newAddress(), amount: parseEther('0.25') },
      { address: newAddress(), amount: 1n },
    ];
    const before = await wallet.balance();
    const signed = await signAll(wallet, outputs);

    expect(signed.map((tx) => tx.spends)).toEqual([['nonce:0'], ['nonce:1'], ['nonce:2']]);
    for (const tx of signed) {
      expect(tx.txid).toBe(keccak256(tx.raw as Hex));
      expect(await wallet.state(tx)).toEqual({ state: 'unknown' });
    }
    // Signing sends nothing.
    expect(await pendingNonce(wallet.address)).toBe(0n);

    for (const tx of signed) await wallet.broadcast(tx);
    const states = await Promise.all(signed.map((tx) => wallet.state(tx)));
    expect(states.map((s) => (s.state === 'mined' ? s.confirmations : s.state))).toEqual([3, 2, 1]);

    await node.mine(2);
    const confirmed = await Promise.all(signed.map((tx) => wallet.state(tx)));
    let fees = 0n;
    for (const [i, state] of confirmed.entries()) {
      if (state.state !== 'mined' || state.fee === undefined) throw new Error(`not mined: ${JSON.stringify(state)}`);
      expect(state.confirmations).toBeGreaterThanOrEqual(CONFIRMATIONS);
      // The actual fee is at most what the wallet reserved for it.
      expect(state.fee).toBeGreaterThan(0n);
      expect(state.fee).toBeLessThanOrEqual(signed[i]?.fee ?? 0n);
      fees += state.fee;
    }
    for (const output of outputs) expect(await ethBalance(output.address)).toBe(output.amount);
    const paid = outputs.reduce((sum, o) => sum + o.amount, 0n);
    expect(await wallet.balance()).toBe(before - paid - fees);
    expect(await wallet.feeBalance()).toBe(await wallet.balance());
  });

  it('estimates the most a payout can cost as what a signed one reserves', async () => {
    const wallet = ethWallet(await fundedKey(parseEther('1')));
    const tx = await wallet.sign([{ address: newAddress(), amount: 1n }], []);
    const one = await wallet.feeEstimate(1);
    expect(one).toBe(tx.fee);
    expect(await wallet.feeEstimate(3)).toBe(one * 3n);
    expect(one % 21_000n).toBe(0n);
  });

  it('refuses to pay more ETH than it holds, counting what signed payouts will spend, and sends nothing', async () => {
    const wallet = ethWallet(await fundedKey(parseEther('1')));
    const short = await walletError(wallet.sign([{ address: newAddress(), amount: parseEther('1') }], []));
    expect(short.kind).toBe('insufficient-funds');
    expect(short.message).toMatch(/ETH is short: 1 ETH to pay plus up to 0\.\d+ ETH of fee, 1 ETH available/);

    const first = await wallet.sign([{ address: newAddress(), amount: parseEther('0.6') }], []);
    const second = await walletError(wallet.sign([{ address: newAddress(), amount: parseEther('0.6') }], [first]));
    expect(second.kind).toBe('insufficient-funds');
    expect(second.mayHaveSent).toBe(false);
    expect(await pendingNonce(wallet.address)).toBe(0n);
  });

  it('refuses invalid addresses', async () => {
    const wallet = ethWallet(await fundedKey(parseEther('1')));
    const good = newAddress();
    expect(await wallet.validateAddress(good)).toBe(true);
    expect(await wallet.validateAddress(good.toLowerCase())).toBe(true);
    const badChecksum = good.replace(/[a-f]/, (c) => c.toUpperCase());
    for (const bad of [badChecksum, '0x0000000000000000000000000000000000000000', 'not an address', `${good}00`]) {
      expect(await wallet.validateAddress(bad)).toBe(false);
      const error = await walletError(wallet.sign([{ address: bad, amount: 1n }], []));
      expect(error.kind).toBe('invalid-address');
    }
    expect((await walletError(wallet.sign([], []))).kind).toBe('rejected');
    expect((await walletError(wallet.sign([{ address: good, amount: 0n }], []))).kind).toBe('rejected');
    expect(await pendingNonce(wallet.address)).toBe(0n);
  });

  it('refuses to sign while the base fee is above the ceiling', async () => {
    const wallet = ethWallet(await fundedKey(parseEther('1')), { maxFeePerGas: 1000n });
    const error = await walletError(wallet.sign([{ address: newAddress(), amount: 1n }], []));
    expect(error.kind).toBe('rejected');
    expect(error.message).toContain('above the configured ceiling of 1000 wei per gas');
  });

  it('takes a rebroadcast of a transaction the node already has, or has mined, as success and changes nothing', async () => {
    const wallet = ethWallet(await fundedKey(parseEther('1')));
    const recipient = newAddress();
    const mined = await wallet.sign([{ address: recipient, amount: 5n }], []);
    await wallet.broadcast(mined);
    await wallet.broadcast(mined);

    await node.setAutomine(false);
    const pooled = await wallet.sign([{ address: recipient, amount: 7n }], [mined]);
    await wallet.broadcast(pooled);
    await wallet.broadcast(pooled);
    expect(await wallet.state(pooled)).toEqual({ state: 'pending' });
    await node.mine(1);
    await wallet.broadcast(pooled);

    expect(await ethBalance(recipient)).toBe(12n);
    expect(await pendingNonce(wallet.address)).toBe(2n);
  });

  it('says a transaction dropped from the pool is unknown, and the same raw sent again is mined', async () => {
    const wallet = ethWallet(await fundedKey(parseEther('1')));
    await node.setAutomine(false);
    const tx = await wallet.sign([{ address: newAddress(), amount: 1n }], []);
    await wallet.broadcast(tx);
    expect(await wallet.state(tx)).toEqual({ state: 'pending' });

    await node.dropTransaction(tx.txid as Hex);
    expect(await wallet.state(tx)).toEqual({ state: 'unknown' });

    await wallet.broadcast(tx);
    await node.mine(1);
    expect(await wallet.state(tx)).toMatchObject({ state: 'mined', confirmations: 1 });
  });

  it('replaces a stuck transaction at the same nonce: the replacement is mined and the original dead', async () => {
    const wallet = ethWallet(await fundedKey(parseEther('1')));
    const recipient = newAddress();
    await node.setAutomine(false);
    const stuck = await wallet.sign([{ address: recipient, amount: 1000n }], []);
    await wallet.broadcast(stuck);

    const replacement = await wallet.replace(stuck);
    if (!replacement) throw new Error('no replacement under a ceiling of 100 gwei');
    expect(replacement.txid).not.toBe(stuck.txid);
    expect(replacement.spends).toEqual(stuck.spends);
    const [before, after] = [parseTransaction(stuck.raw as Hex), parseTransaction(replacement.raw as Hex)];
    expect({ to: after.to, value: after.value, nonce: after.nonce, gas: after.gas }).toEqual({
      to: before.to,
      value: before.value,
      nonce: before.nonce,
      gas: before.gas,
    });
    expect((after.maxFeePerGas ?? 0n) * 10n).toBeGreaterThanOrEqual((before.maxFeePerGas ?? 0n) * 11n);
    expect((after.maxPriorityFeePerGas ?? 0n) * 10n).toBeGreaterThanOrEqual((before.maxPriorityFeePerGas ?? 0n) * 11n);
    expect(replacement.fee).toBe((after.gas ?? 0n) * (after.maxFeePerGas ?? 0n));

    await wallet.broadcast(replacement);
    await node.mine(1);
    expect(await wallet.state(replacement)).toMatchObject({ state: 'mined', confirmations: 1 });
    // Its nonce is used, but not yet `confirmations` deep: a reorganisation could still mine it.
    expect(await wallet.state(stuck)).toEqual({ state: 'pending' });
    await node.mine(CONFIRMATIONS - 1);
    expect(await wallet.state(stuck)).toEqual({
      state: 'dead',
      reason: `nonce 0 was used by another transaction at least ${CONFIRMATIONS} blocks deep`,
    });
    expect(await ethBalance(recipient)).toBe(1000n);
    // Sending the original now is refused for good: its nonce is taken.
    expect((await walletError(wallet.broadcast(stuck))).kind).toBe('rejected');
  });

  it('gives no replacement when the ceiling leaves no room for a 10% raise', async () => {
    // Hardhat suggests a tip of 1 gwei (eth_maxPriorityFeePerGas) and its base fee stays under 1 gwei when
    // blocks are not full, so with a ceiling of 1 gwei the first caps already sit at the ceiling.
    const wallet = ethWallet(await fundedKey(parseEther('1')), { maxFeePerGas: parseGwei('1') });
    const tx = await wallet.sign([{ address: newAddress(), amount: 1n }], []);
    expect(parseTransaction(tx.raw as Hex).maxFeePerGas).toBe(parseGwei('1'));
    expect(await wallet.replace(tx)).toBeUndefined();
  });

  it('sees a reorganisation: the mined payout becomes unknown, and the same raw sent again is mined again', async () => {
    const wallet = ethWallet(await fundedKey(parseEther('1')));
    const recipient = newAddress();
    const snapshot = await node.snapshot();
    const tx = await wallet.sign([{ address: recipient, amount: 42n }], []);
    await wallet.broadcast(tx);
    await node.mine(1);
    expect(await wallet.state(tx)).toMatchObject({ state: 'mined', confirmations: 2 });

    await node.revert(snapshot);
    // Other blocks at the same heights, with other transactions in them.
    await send(funder, { to: newAddress(), value: 1n, gas: 21_000n });
    await node.mine(2);
    expect(await wallet.state(tx)).toEqual({ state: 'unknown' });
    expect(await ethBalance(recipient)).toBe(0n);

    await wallet.broadcast(tx);
    expect(await wallet.state(tx)).toMatchObject({ state: 'mined', confirmations: 1 });
    expect(await ethBalance(recipient)).toBe(42n);
  });

  it('reports a stored transaction that reverted, with the fee it cost', async () => {
    const key = await fundedKey(parseEther('1'));
    const wallet = usdcWallet(key);
    // Signed outside the wallet (which refuses a transfer that would fail): 1 TUSD from a wallet with none.
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [newAddress(), USDC(1n)] });
    const txid = await send(key, { to: token, data });
    const tx: SignedTransaction = { txid, raw: '0x', fee: 0n, spends: ['nonce:0'] };
    const state = await wallet.state(tx);
    expect(state).toMatchObject({ state: 'reverted', confirmations: 1 });
    expect(state.state === 'reverted' && state.fee !== undefined && state.fee > 0n).toBe(true);
  });
});

describe('EvmWallet paying USDC (TestUsd, 6 decimals)', () => {
  it('pays two recipients in tokens, with the gas paid in ETH', async () => {
    const key = await fundedKey(parseEther('1'), USDC(1000n));
    const wallet = usdcWallet(key);
    expect(wallet.feeCoin).toBe('ETH');
    expect(await wallet.balance()).toBe(USDC(1000n));
    const ethBefore = await wallet.feeBalance();
    expect(ethBefore).toBe(parseEther('1'));

    const outputs = [
      { address: newAddress(), amount: USDC(12n) + 345_678n },
      { address: newAddress(), amount: 1n },
    ];
    const signed = await signAll(wallet, outputs);
    expect(signed.map((tx) => tx.spends)).toEqual([['nonce:0'], ['nonce:1']]);
    for (const tx of signed) await wallet.broadcast(tx);
    await node.mine(CONFIRMATIONS);

    let fees = 0n;
    for (const tx of signed) {
      const state = await wallet.state(tx);
      if (state.state !== 'mined' || state.fee === undefined) throw new Error(`not mined: ${JSON.stringify(state)}`);
      expect(state.confirmations).toBeGreaterThanOrEqual(CONFIRMATIONS);
      fees += state.fee;
    }
    for (const output of outputs) {
      expect(await tokenBalance(output.address)).toBe(output.amount);
      expect(await ethBalance(output.address)).toBe(0n);
    }
    const paid = outputs.reduce((sum, o) => sum + o.amount, 0n);
    expect(await wallet.balance()).toBe(USDC(1000n) - paid);
    expect(await wallet.feeBalance()).toBe(ethBefore - fees);
  });

  it('refuses a payout above its tokens, counting the ones in flight, and sends nothing', async () => {
    const wallet = usdcWallet(await fundedKey(parseEther('1'), USDC(5n)));
    const error = await walletError(wallet.sign([{ address: newAddress(), amount: USDC(10n) }], []));
    expect(error.kind).toBe('insufficient-funds');
    expect(error.message).toContain('USDC is short: 10 USDC to pay, 5 USDC available');

    const first = await wallet.sign([{ address: newAddress(), amount: USDC(3n) }], []);
    const second = await walletError(wallet.sign([{ address: newAddress(), amount: USDC(3n) }], [first]));
    expect(second.message).toContain('USDC is short: 3 USDC to pay, 2 USDC available');
    expect(await pendingNonce(wallet.address)).toBe(0n);
  });

  it('refuses a payout when there is no ETH for its gas, and sends nothing', async () => {
    const wallet = usdcWallet(await fundedKey(0n, USDC(100n)));
    const error = await walletError(wallet.sign([{ address: newAddress(), amount: USDC(1n) }], []));
    expect(error.kind).toBe('insufficient-funds');
    expect(error.message).toMatch(/ETH for gas is short: up to 0\.\d+ ETH of fee, 0 ETH available/);
    expect(await pendingNonce(wallet.address)).toBe(0n);
    expect(await tokenBalance(wallet.address)).toBe(USDC(100n));
  });

  it('refuses the token contract as a recipient, and a transfer needing more gas than its limit', async () => {
    const wallet = usdcWallet(await fundedKey(parseEther('1'), USDC(100n)), { gasLimit: 30_000n });
    expect(await wallet.validateAddress(token)).toBe(false);
    const error = await walletError(wallet.sign([{ address: newAddress(), amount: 1n }], []));
    expect(error.kind).toBe('rejected');
    expect(error.message).toMatch(/needs \d+ gas, more than the configured limit of 30000/);
  });

  it('refuses to work with a token whose decimals are not the configured ones', async () => {
    const wallet = usdcWallet(await fundedKey(parseEther('1'), USDC(100n)), {
      token: { address: token, decimals: 18 },
    });
    const error = await walletError(wallet.sign([{ address: newAddress(), amount: 1n }], []));
    expect(error.kind).toBe('rejected');
    expect(error.message).toContain('has 6 decimals, the wallet is configured for 18');
  });
});

describe('EvmWallet with its node stopped', () => {
  it('is unreachable, and says a broadcast may have arrived', async () => {
    const own = await startEvmNode({ accounts: 1 });
    const wallet = new EvmWallet({
      coin: 'ETH',
      feeCoin: 'ETH',
      rpcUrl: own.url,
      privateKey: own.fundedKeys[0] as Hex,
      chainId: own.chainId,
      confirmations: 1,
      maxFeePerGas: CEILING,
      timeoutMs: 2000,
    });
    let tx: SignedTransaction;
    try {
      tx = await wallet.sign([{ address: newAddress(), amount: 1n }], []);
    } finally {
      await own.stop();
    }

    for (const call of [
      wallet.balance(),
      wallet.feeEstimate(1),
      wallet.sign([{ address: newAddress(), amount: 1n }], []),
    ]) {
      const error = await walletError(call);
      expect(error.kind).toBe('unreachable');
      expect(error.mayHaveSent).toBe(false);
    }
    const sent = await walletError(wallet.broadcast(tx));
    expect(sent.kind).toBe('unreachable');
    expect(sent.mayHaveSent).toBe(true);
    expect((await walletError(wallet.state(tx))).kind).toBe('unreachable');
  });
});
