import { randomBytes } from 'node:crypto';
import type { SentTransaction, Wallet, WalletOutput, WalletTransaction } from '@lodestone/chain';
import { WalletError } from '@lodestone/chain';
import {
  type DB,
  type DemoWalletTransaction,
  demoWalletTransaction,
  demoWalletTransactionsByComment,
  insertDemoWalletTransaction,
} from '@lodestone/db';
import type { Kysely } from 'kysely';

/**
 * The demo network's balance: unlimited. It moves no coins, so it never runs short and the
 * underfunded-wallet check never stops demo payouts. 2^63 − 1 units is far above any total a payout
 * can reach and still fits every integer column a caller might copy it into.
 */
export const DEMO_WALLET_BALANCE = 2n ** 63n - 1n;

/** Demo confirmations stop growing here (about a week of minutes): enough to settle any payout. */
export const DEMO_MAX_CONFIRMATIONS = 10_000;

/** `demo` + 60 hex digits: as long as a real txid, and impossible to mistake for one (not hex). */
export function demoTxid(): string {
  return `demo${randomBytes(30).toString('hex')}`;
}

/**
 * The wallet of the demo network (docs/money.md, "Payouts"): payouts are recorded in
 * demo_wallet_transactions with clearly marked txids and fee 0; nothing leaves the pool. A
 * transaction's confirmations are the whole minutes since it was recorded (capped), so demo payouts
 * settle like real ones would. Used only when no coin daemon is configured — the whole pool is then
 * the demo — and never beside real wallets.
 */
export class DemoWallet implements Wallet {
  readonly demo = true;

  constructor(
    readonly coin: string,
    private readonly db: Kysely<DB>,
    /** The clock confirmations are counted against (tests pass their own). */
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async balance(): Promise<bigint> {
    return DEMO_WALLET_BALANCE;
  }

  async sendMany(outputs: readonly WalletOutput[], comment: string): Promise<SentTransaction> {
    // The same refusals a real wallet makes before sending, so the payout job sees the same errors.
    const refuse = (message: string): never => {
      throw new WalletError('rejected', `sendmany refused before sending: ${message}`, { coin: this.coin });
    };
    if (outputs.length === 0) refuse('no outputs');
    if (comment === '') refuse('an empty comment could never be found again');
    const seen = new Set<string>();
    for (const { address, amount } of outputs) {
      if (amount <= 0n) refuse(`amount ${amount} for ${address} is not positive`);
      if (address === '') throw new WalletError('invalid-address', 'empty address', { coin: this.coin });
      if (seen.has(address)) refuse(`${address} appears twice`);
      seen.add(address);
    }
    const recorded = await insertDemoWalletTransaction(this.db, {
      txid: demoTxid(),
      coin: this.coin,
      comment,
      outputs,
      createdAt: this.clock(),
    });
    return { txid: recorded.txid, fee: 0n };
  }

  async findByComment(comment: string): Promise<WalletTransaction | undefined> {
    if (comment === '') return undefined;
    const found = await demoWalletTransactionsByComment(this.db, this.coin, comment);
    if (found.length > 1) {
      // As the real wallet does: two transactions for one payout key is for a person to look at.
      throw new WalletError('unknown', `${found.length} transactions carry the comment ${comment}`, {
        coin: this.coin,
      });
    }
    const [tx] = found;
    return tx === undefined ? undefined : this.toWalletTransaction(tx);
  }

  async transaction(txid: string): Promise<WalletTransaction | undefined> {
    const tx = await demoWalletTransaction(this.db, this.coin, txid);
    return tx === undefined ? undefined : this.toWalletTransaction(tx);
  }

  /**
   * Any non-empty address: the demo pays no chain, and addresses are checked against the coin's
   * format when miners save them (the settings form), which is what matters on the demo.
   */
  async validateAddress(address: string): Promise<boolean> {
    return address !== '';
  }

  private toWalletTransaction(tx: DemoWalletTransaction): WalletTransaction {
    const minutes = Math.floor((this.clock().getTime() - tx.createdAt.getTime()) / 60_000);
    return {
      txid: tx.txid,
      confirmations: Math.min(DEMO_MAX_CONFIRMATIONS, Math.max(0, minutes)),
      comment: tx.comment,
      amount: tx.total,
      fee: 0n,
    };
  }
}
