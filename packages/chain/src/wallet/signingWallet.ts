import type { WalletOutput } from './wallet.js';

/**
 * A wallet whose transactions the pool builds and signs with its own key: ETH and USDC (EVM), CKB,
 * Kaspa and Kadena. The bitcoin family's node wallet (`Wallet`, one `sendmany`) keeps its key in the
 * node; these chains have no such call, so the payout engine keeps its promise (written before any
 * wallet call, never sent twice, reconciled after a crash) with the signed transaction itself
 * (docs/money.md, "Payouts from pool-signed wallets"):
 *
 *   sign (no effect outside this process) → store the signed transaction with the payout (committed)
 *   → broadcast → follow it to `confirmations`.
 *
 * After a crash the stored transaction is broadcast again byte for byte. A second transaction is
 * never signed for a payout, except a fee replacement (`replace`) that spends exactly what the first
 * spends (the same nonce, the same inputs), so at most one of them can ever be mined.
 */

/** A signed transaction as the payout engine stores it (payout_transactions) before it is broadcast. */
export interface SignedTransaction {
  /** The chain's id of the transaction, known before broadcast: the EVM / Kaspa / CKB transaction hash, Kadena's request key. */
  txid: string;
  /** What is broadcast, in the chain's own text form (EVM: 0x raw hex; CKB and Kaspa: the node's JSON; Kadena: the command JSON). */
  raw: string;
  /** The most this transaction can cost in fees, in the smallest units of the wallet's `feeCoin`. */
  fee: bigint;
  /**
   * What another transaction of this wallet must not spend while this one may still be mined:
   * EVM `nonce:<n>`; CKB and Kaspa each spent outpoint `<txid>:<index>`; Kadena none (a request key
   * is unique and the command expires).
   */
  spends: readonly string[];
  /** Kadena: from this instant the node can never include it (creation time + ttl). */
  expiresAt?: Date;
  /**
   * Where the wallet starts looking for it on the chain, when the node has no lookup by id (Kaspa: the
   * virtual chain's sink when it was signed, for getVirtualChainFromBlock). Stored with it.
   */
  followFrom?: string;
}

/** What the node says of a stored transaction. */
export type TransactionState =
  /** The node does not know it: never arrived, dropped from the mempool, or its block was reorganised away. */
  | { state: 'unknown' }
  /** In the mempool. */
  | { state: 'pending' }
  /** In a block of the best chain; `fee` is what it actually cost (fee coin units), when the chain says. */
  | { state: 'mined'; confirmations: number; fee?: bigint }
  /** Mined but it did nothing (an EVM revert, a failed Pact command): the fee is spent, no coin moved. */
  | { state: 'reverted'; confirmations: number; reason: string; fee?: bigint }
  /** Another transaction spending its nonce or inputs was mined, or (Kadena) it expired unmined: it can never be mined. */
  | { state: 'dead'; reason: string };

export interface SigningWallet {
  readonly kind: 'signing';
  /** Ticker of the coin it pays, e.g. `USDC`. */
  readonly coin: string;
  /** Ticker of the coin fees are paid in: the same as `coin`, except for tokens (USDC's gas is paid in ETH). */
  readonly feeCoin: string;
  /** The pool's address on the chain (shown to the operator, who funds it). */
  readonly address: string;
  /** Most outputs one transaction may pay: 1 on EVM and Kadena; CKB and Kaspa by transaction size and mass. */
  readonly maxOutputs: number;
  /** Smallest amount one output may carry (CKB: 61 CKB of occupied capacity; Kaspa: by KIP-9 storage mass; else 1). */
  readonly minOutput: bigint;
  /** Confirmations after which a payout is final (from the configuration). */
  readonly confirmations: number;
  /** Spendable balance of `coin` at `address`, smallest units (confirmed funds only). */
  balance(): Promise<bigint>;
  /** Spendable balance of `feeCoin` (the gas reserve of a token wallet; the same as balance() otherwise). */
  feeBalance(): Promise<bigint>;
  /** The most one transaction paying `outputs` outputs may cost in fees now (fee coin units), for planning and the treasury. */
  feeEstimate(outputs: number): Promise<bigint>;
  /** Whether `address` is a valid payout address on this wallet's network (pure, no node call needed). */
  validateAddress(address: string): Promise<boolean>;
  /**
   * Builds and signs one transaction paying every output, with no effect on the chain. `inFlight` are
   * this wallet's stored transactions that are not final yet: their `spends` (nonces, inputs) are
   * taken, so the new one uses the next nonce or other inputs. Throws WalletError (mayHaveSent false):
   * `insufficient-funds`, `invalid-address`, `rejected` (an output below minOutput, too many outputs),
   * `unreachable` (the node could not be asked for nonce, inputs or fees).
   */
  sign(outputs: readonly WalletOutput[], inFlight: readonly SignedTransaction[]): Promise<SignedTransaction>;
  /**
   * Sends a stored transaction. A node that already has it, or has mined it, is success. Throws
   * WalletError: `rejected` when the node refuses it for good (its reason in the message),
   * `unreachable` when no answer came (then it may or may not have arrived: ask `state`).
   */
  broadcast(tx: SignedTransaction): Promise<void>;
  /** What the node says of a stored transaction now. Throws WalletError `unreachable` / `unknown`. */
  state(tx: SignedTransaction): Promise<TransactionState>;
  /**
   * EVM only: the same payment at the same nonce with both fee caps raised by at least 10% (what nodes
   * require of a replacement), capped at the configured ceiling; undefined when the ceiling is reached.
   */
  replace?(tx: SignedTransaction): Promise<SignedTransaction | undefined>;
}

/** Whether a hot wallet is one the pool signs for (else it is a bitcoin-family node wallet). */
export function isSigningWallet(wallet: object): wallet is SigningWallet {
  return 'kind' in wallet && wallet.kind === 'signing';
}
