import { encodeFunctionData, erc20Abi, type Hex, keccak256, parseEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import type { SignedTransaction } from '../signingWallet.js';
import { committedSpending, nextNonce, nonceOf } from './inFlight.js';

const account = privateKeyToAccount(generatePrivateKey());
const TOKEN = privateKeyToAccount(generatePrivateKey()).address;
const RECIPIENT = privateKeyToAccount(generatePrivateKey()).address;

async function signed(
  nonce: number,
  call: { value?: bigint; tokens?: bigint; data?: Hex },
  maxFeePerGas = 10n,
): Promise<SignedTransaction> {
  const data =
    call.data ??
    (call.tokens === undefined
      ? undefined
      : encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [RECIPIENT, call.tokens] }));
  const gas = data ? 100_000n : 21_000n;
  const raw = await account.signTransaction({
    type: 'eip1559',
    chainId: 1,
    nonce,
    gas,
    maxFeePerGas,
    maxPriorityFeePerGas: 1n,
    to: data ? TOKEN : RECIPIENT,
    value: call.value ?? 0n,
    ...(data ? { data } : {}),
  });
  return { txid: keccak256(raw), raw, fee: gas * maxFeePerGas, spends: [`nonce:${nonce}`] };
}

const bare = (spends: string[]): SignedTransaction => ({ txid: '0x01', raw: '0x', fee: 0n, spends });

describe('nonceOf', () => {
  it('reads the one nonce a stored transaction spends', () => {
    expect(nonceOf(bare(['nonce:0']))).toBe(0);
    expect(nonceOf(bare(['nonce:1234']))).toBe(1234);
  });

  it('refuses spends that are not exactly one decimal nonce', () => {
    for (const spends of [
      [],
      ['nonce:01'],
      ['nonce:-1'],
      ['nonce:1', 'nonce:2'],
      ['ab:0'],
      ['nonce:9007199254740993'],
    ]) {
      expect(() => nonceOf(bare(spends))).toThrow(/not one nonce/);
    }
  });
});

describe('nextNonce', () => {
  it("is the node's pending count when nothing is in flight beyond it", () => {
    expect(nextNonce(5, [])).toBe(5);
    expect(nextNonce(7, [bare(['nonce:3'])])).toBe(7);
  });

  it('follows the stored transactions the node does not hold (signed, not yet sent, or dropped)', () => {
    expect(nextNonce(0, [bare(['nonce:0']), bare(['nonce:1'])])).toBe(2);
    expect(nextNonce(4, [bare(['nonce:6']), bare(['nonce:4'])])).toBe(7);
  });
});

describe('committedSpending', () => {
  it('counts value and most fee of the transactions whose nonce the latest block has not used', async () => {
    const mined = await signed(0, { value: parseEther('1') });
    const waiting = await signed(1, { value: parseEther('2') });
    expect(committedSpending([mined, waiting], 1, undefined)).toEqual({ eth: parseEther('2') + 210_000n, token: 0n });
    expect(committedSpending([mined, waiting], 0, undefined)).toEqual({
      eth: parseEther('3') + 420_000n,
      token: 0n,
    });
    expect(committedSpending([mined, waiting], 2, undefined)).toEqual({ eth: 0n, token: 0n });
  });

  it('counts a replacement and its original once, at the most either costs', async () => {
    const original = await signed(3, { value: 100n }, 10n);
    const replacement = await signed(3, { value: 100n }, 12n);
    expect(committedSpending([original, replacement], 3, undefined)).toEqual({ eth: 100n + 21_000n * 12n, token: 0n });
  });

  it('reads the tokens of a token transfer, its gas from the ETH side', async () => {
    const a = await signed(0, { tokens: 1_500_000n });
    const b = await signed(1, { tokens: 1n });
    expect(committedSpending([a, b], 0, TOKEN)).toEqual({ eth: 2n * 100_000n * 10n, token: 1_500_001n });
  });

  it('refuses a stored call to the token that is not a transfer', async () => {
    const approve = await signed(0, {
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [RECIPIENT, 1n] }),
    });
    expect(() => committedSpending([approve], 0, TOKEN)).toThrow(/calls approve on the token/);
  });
});
