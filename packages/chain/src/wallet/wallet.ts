/**
 * What the payout engine needs from a coin wallet. Amounts are always integers of the coin's smallest
 * unit (bigint); implementations convert at their own boundary and never through a float.
 */

export interface WalletOutput {
  address: string;
  /** Smallest units, > 0. */
  amount: bigint;
}

export interface SentTransaction {
  txid: string;
  /** Smallest units the wallet paid in fee, ≥ 0. */
  fee: bigint;
}

export interface WalletTransaction {
  txid: string;
  /**
   * Blocks on top of (and including) the one that holds it; 0 while in the mempool; negative when a
   * conflicting transaction was mined that many blocks ago, so this one will never confirm.
   */
  confirmations: number;
  /** The comment stored with it by sendMany, if any. */
  comment?: string;
  /** Total the transaction pays out of the wallet (its send outputs, change excluded), ≥ 0; 0 for a pure receive. */
  amount: bigint;
  /** Smallest units paid in fee, when the wallet paid one (send transactions). */
  fee?: bigint;
}

export interface Wallet {
  /** Ticker, e.g. `LTC`. */
  readonly coin: string;
  /** True only for the demo network's wallet, which moves no real coins. */
  readonly demo: boolean;
  /** Spendable (trusted, confirmed) balance in smallest units. */
  balance(): Promise<bigint>;
  /**
   * One transaction paying every output (bitcoin `sendmany`); `comment` is stored in the wallet with it
   * so findByComment finds it later. Throws WalletError.
   */
  sendMany(outputs: readonly WalletOutput[], comment: string): Promise<SentTransaction>;
  /**
   * The (send) wallet transaction whose comment is exactly `comment`, if the wallet has one. With
   * `since` (when it can have been created at the earliest), every entry back to then is searched,
   * or it throws: undefined then means the wallet never made it.
   */
  findByComment(comment: string, since?: Date): Promise<WalletTransaction | undefined>;
  /** A wallet transaction by txid, if the wallet knows it. */
  transaction(txid: string): Promise<WalletTransaction | undefined>;
  /** Whether `address` is valid for this wallet's network (validateaddress). */
  validateAddress(address: string): Promise<boolean>;
}

/**
 * Why a wallet call failed:
 * - `insufficient-funds`: the wallet cannot cover the outputs and the fee right now;
 * - `invalid-address`: an address is not valid for the wallet's network;
 * - `rejected`: the wallet answered with another refusal (locked, dust output, duplicate address,
 *   credentials refused, ...) or the request was refused before it was sent;
 * - `unreachable`: no usable answer came back (connection failure, timeout, HTTP error page);
 * - `unknown`: an answer we could not make sense of, or a wallet state a person must look at.
 */
export type WalletErrorKind = 'insufficient-funds' | 'invalid-address' | 'rejected' | 'unreachable' | 'unknown';

export class WalletError extends Error {
  override readonly name = 'WalletError';
  readonly kind: WalletErrorKind;
  readonly coin: string;
  /**
   * For sendMany: false only when the wallet certainly created no transaction (it refused, or the
   * request never left). When true, a payout must be reconciled with findByComment before any retry,
   * never resent blindly.
   */
  readonly mayHaveSent: boolean;
  /** For sendMany: the transaction id when the wallet did send but reading the transaction back failed. */
  readonly txid: string | undefined;
  /** The daemon's JSON-RPC error code, when it answered with one. */
  readonly rpcCode: number | undefined;

  constructor(
    kind: WalletErrorKind,
    message: string,
    details: { coin: string; mayHaveSent?: boolean; txid?: string; rpcCode?: number; cause?: unknown },
  ) {
    super(`${details.coin} wallet: ${message}`, { cause: details.cause });
    this.kind = kind;
    this.coin = details.coin;
    this.mayHaveSent = details.mayHaveSent ?? false;
    this.txid = details.txid;
    this.rpcCode = details.rpcCode;
  }
}
