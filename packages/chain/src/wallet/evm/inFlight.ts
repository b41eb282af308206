import { type Address, decodeFunctionData, erc20Abi, type Hex, isAddressEqual, parseTransaction } from 'viem';
import type { SignedTransaction } from '../signingWallet.js';

/**
 * What the wallet's stored, not yet final transactions take: their nonces (`nonce:<n>` in `spends`) and
 * the coins they will spend once mined. Pure: the raw transactions are decoded, nothing is asked of a node.
 */

const NONCE_SPEND = /^nonce:(0|[1-9][0-9]*)$/;

/** The nonce a stored transaction spends. Throws when its `spends` carry none (it is not one of ours). */
export function nonceOf(tx: SignedTransaction): number {
  const nonces = tx.spends.flatMap((spend) => {
    const match = NONCE_SPEND.exec(spend);
    return match?.[1] === undefined ? [] : [Number(match[1])];
  });
  const [nonce] = nonces;
  if (nonces.length !== 1 || nonce === undefined || !Number.isSafeInteger(nonce)) {
    throw new Error(`transaction ${tx.txid} spends ${JSON.stringify(tx.spends)}, not one nonce:<n>`);
  }
  return nonce;
}

/**
 * The nonce of the next transaction: the node's `pending` transaction count (what it has mined and
 * holds in its pool), or past every stored transaction's nonce when some are signed but not yet sent
 * (a run signs all its transfers first, with consecutive nonces) or were dropped from the pool.
 */
export function nextNonce(pendingCount: number, inFlight: readonly SignedTransaction[]): number {
  return inFlight.reduce((next, tx) => Math.max(next, nonceOf(tx) + 1), pendingCount);
}

export interface Committed {
  /** Wei: value + most fee of each stored transaction the balance does not show yet. */
  eth: bigint;
  /** Token units those transactions transfer (0 for an ETH wallet). */
  token: bigint;
}

/**
 * What stored transactions will still take out of the `latest` balances: those whose nonce is not
 * yet used at `latest` (`latestCount` is the account's transaction count there). Transactions sharing
 * a nonce (a replacement and its original) count once, at the most either can cost.
 */
export function committedSpending(
  inFlight: readonly SignedTransaction[],
  latestCount: number,
  token: Address | undefined,
): Committed {
  const byNonce = new Map<number, Committed>();
  for (const tx of inFlight) {
    const nonce = nonceOf(tx);
    if (nonce < latestCount) continue;
    const spending = spendingOf(tx, token);
    const seen = byNonce.get(nonce);
    byNonce.set(nonce, {
      eth: seen && seen.eth > spending.eth ? seen.eth : spending.eth,
      token: seen && seen.token > spending.token ? seen.token : spending.token,
    });
  }
  let eth = 0n;
  let tokens = 0n;
  for (const spending of byNonce.values()) {
    eth += spending.eth;
    tokens += spending.token;
  }
  return { eth, token: tokens };
}

function spendingOf(tx: SignedTransaction, token: Address | undefined): Committed {
  const parsed = parseTransaction(tx.raw as Hex);
  const eth = (parsed.value ?? 0n) + tx.fee;
  if (token === undefined || parsed.to == null || !isAddressEqual(parsed.to, token) || parsed.data === undefined) {
    return { eth, token: 0n };
  }
  const call = decodeFunctionData({ abi: erc20Abi, data: parsed.data });
  if (call.functionName !== 'transfer') {
    throw new Error(`transaction ${tx.txid} calls ${call.functionName} on the token, not transfer`);
  }
  return { eth, token: call.args[1] };
}
