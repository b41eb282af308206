import { type SentTransaction, WalletError } from '@lodestone/chain';
import { failPayout, markPayoutSending, markPayoutSent, type Payout, payoutItems } from '@lodestone/db';
import {
  type PayoutPlan,
  type PlannedPayoutAccount,
  type WalletBudget,
  walletBalanceNeeded,
  walletOutputs,
} from '@lodestone/domain';
import type { NodeHotWallet } from '../wallets/wallets.js';
import type { ChannelRun, PayoutChannel } from './channel.js';
import { hook, type Outcome, PAYOUT_FAILURE, withoutInvalidAddresses } from './steps.js';

/**
 * The payouts of a bitcoin-family node wallet (docs/money.md, "Payouts"): one sendmany pays a run's
 * due accounts, committed `sending` before the one wallet call and recorded with what the wallet
 * answered. The wallet keeps the transaction with the payout's key as its comment, so a payout an
 * earlier run left `sending` is looked up by that key — never sent again.
 */

/** How long a `sending` payout the wallet does not know may be young enough to still appear there. */
export const PAYOUT_SENDING_GRACE_MS = 10 * 60_000;

/**
 * Whether a failed wallet call proves no transaction was created: the wallet refused (funds, address,
 * another refusal) and says it cannot have sent. Anything else — a timeout, a lost connection, an
 * answer we could not read — may hide a transaction that went out.
 */
export function nothingWasSent(error: unknown): error is WalletError {
  return (
    error instanceof WalletError &&
    !error.mayHaveSent &&
    (error.kind === 'insufficient-funds' || error.kind === 'invalid-address' || error.kind === 'rejected')
  );
}

export class NodeWalletChannel implements PayoutChannel {
  readonly demo: boolean;
  readonly address = undefined;
  readonly feeCoin = undefined;

  constructor(
    private readonly run: ChannelRun,
    private readonly hot: NodeHotWallet,
  ) {
    this.demo = hot.wallet.demo;
  }

  resume(payout: Payout): Promise<Outcome> {
    return payout.status === 'pending' ? this.send(payout, { balanceChecked: false }) : this.reconcile(payout);
  }

  /** A node wallet's payout is done once `sent`: there is nothing to follow. */
  async follow(): Promise<void> {}

  eligible(plan: PayoutPlan): Promise<PayoutPlan> {
    // The demo wallet pays no chain; addresses were checked against the coin's format when saved.
    if (this.hot.wallet.demo) return Promise.resolve(plan);
    return withoutInvalidAddresses(plan, this.hot.wallet, this.run.deps.log);
  }

  /** The wallet's fee comes out of what it keeps (min_balance), so only the total is budgeted. */
  async budget(): Promise<WalletBudget> {
    return { available: await this.hot.wallet.balance(), minBalance: this.hot.minBalance };
  }

  /** One sendmany pays every due account. */
  batches(accounts: PlannedPayoutAccount[]): PlannedPayoutAccount[][] {
    return [accounts];
  }

  pay(payout: Payout): Promise<Outcome> {
    return this.send(payout, { balanceChecked: true });
  }

  /**
   * A `pending` payout (the wallet was never called for it) from the balance check on: sending
   * (committed), the one sendmany, sent. `balanceChecked` when this run has just checked the wallet for it.
   */
  private async send(payout: Payout, options: { balanceChecked: boolean }): Promise<Outcome> {
    const { db, log } = this.run.deps;
    const { now, hooks } = this.run;
    const { wallet, minBalance } = this.hot;
    const key = payout.idempotency_key;
    const total = BigInt(payout.total);
    if (!options.balanceChecked) {
      // Written before a crash, so its balances are already debited: fail it and give them back rather
      // than leave them locked in a payout that cannot go out.
      const available = await wallet.balance();
      if (available < walletBalanceNeeded(total, minBalance)) {
        log.error(
          {
            coin: payout.coin,
            payout: key,
            alert: 'hot-wallet-underfunded',
            balance: available.toString(),
            total: payout.total,
          },
          'hot wallet underfunded: pending payout failed and balances restored',
        );
        return (await failPayout(db, payout.id, PAYOUT_FAILURE.underfunded, now)) ? 'failed' : 'taken';
      }
    }
    if (!(await markPayoutSending(db, payout.id, now))) return 'taken';
    await hook(hooks, 'after-sending', payout);
    const outputs = walletOutputs(await payoutItems(db, payout.id));
    let sent: SentTransaction;
    try {
      sent = await wallet.sendMany(outputs, key);
    } catch (error) {
      if (nothingWasSent(error)) {
        log.error(
          { coin: payout.coin, payout: key, kind: error.kind, err: error, alert: 'payout-failed' },
          'the wallet refused the payout; nothing was sent, balances restored',
        );
        return (await failPayout(db, payout.id, `wallet refused (${error.kind}): ${error.message}`, now))
          ? 'failed'
          : 'taken';
      }
      if (error instanceof WalletError && error.txid !== undefined) {
        // It went out, but the wallet could not describe it: record the txid now (the fee stays unknown),
        // since a payout left `sending` could later be judged unsent.
        log.warn({ coin: payout.coin, payout: key, txid: error.txid, err: error }, 'payout sent; fee unknown');
        return (await markPayoutSent(db, payout.id, { txid: error.txid, fee: null, at: now })) ? 'sent' : 'taken';
      }
      log.error(
        { coin: payout.coin, payout: key, err: error, alert: 'payout-outcome-unknown' },
        'the wallet call may have sent the payout; it stays sending and the next runs reconcile it',
      );
      return 'open';
    }
    await hook(hooks, 'after-wallet-call', payout);
    const recorded = await markPayoutSent(db, payout.id, { txid: sent.txid, fee: sent.fee, at: now });
    log.info(
      { coin: payout.coin, payout: key, txid: sent.txid, fee: sent.fee.toString(), total: payout.total },
      'payout sent',
    );
    return recorded ? 'sent' : 'taken';
  }

  /**
   * A `sending` payout: the wallet may or may not have sent it. Found by its comment → sent with that
   * transaction. Not found and the grace period over → nothing went out (a wallet records a transaction
   * when it creates it): failed and balances restored. Not found yet → left for a later run.
   */
  private async reconcile(payout: Payout): Promise<Outcome> {
    const { db, log, sendingGraceMs } = this.run.deps;
    const { now } = this.run;
    const key = payout.idempotency_key;
    // Searched back to when the payout was written: "not found" must mean "never sent", however many
    // wallet entries came after it.
    const found = await this.hot.wallet.findByComment(key, payout.created_at);
    if (found) {
      if (found.amount !== BigInt(payout.total)) {
        log.error(
          {
            coin: payout.coin,
            payout: key,
            txid: found.txid,
            walletAmount: found.amount.toString(),
            total: payout.total,
            alert: 'payout-amount-mismatch',
          },
          'the wallet transaction of a payout pays another total than the payout',
        );
      }
      log.info({ coin: payout.coin, payout: key, txid: found.txid }, 'reconciled: the payout was sent');
      return (await markPayoutSent(db, payout.id, { txid: found.txid, fee: found.fee ?? null, at: now }))
        ? 'sent'
        : 'taken';
    }
    const graceMs = sendingGraceMs ?? PAYOUT_SENDING_GRACE_MS;
    const since = payout.sending_at ?? payout.created_at;
    if (now.getTime() - since.getTime() < graceMs) {
      log.info(
        { coin: payout.coin, payout: key },
        'a sending payout is not in the wallet yet; checking again next run',
      );
      return 'open';
    }
    log.error(
      { coin: payout.coin, payout: key, alert: 'payout-failed' },
      'a sending payout is not in the wallet after the grace period: failed and balances restored',
    );
    return (await failPayout(db, payout.id, PAYOUT_FAILURE.notFoundAfterCrash, now)) ? 'failed' : 'taken';
  }
}
