import { type SignedTransaction, type SigningWallet, type TransactionState, WalletError } from '@lodestone/chain';
import {
  failPayout,
  failSentPayout,
  followSentPayout,
  inFlightTransactions,
  markPayoutSent,
  markTransactionDead,
  type Payout,
  type PayoutTransaction,
  payoutItems,
  payoutTransactions,
  storeFirstTransaction,
  storeReplacement,
  unconfirmedPayouts,
} from '@lodestone/db';
import {
  type PayoutPlan,
  type PlannedPayoutAccount,
  splitIntoTransactions,
  type WalletBudget,
  walletOutputs,
} from '@lodestone/domain';
import type { HotWallet } from '../wallets/wallets.js';
import type { ChannelRun, PayoutChannel } from './channel.js';
import { hook, type Outcome, PAYOUT_FAILURE, withoutInvalidAddresses } from './steps.js';

/**
 * The payouts of a pool-signed wallet (ETH, USDC, CKB, KAS, KDA), each from `pending` to an end
 * (docs/money.md, "Payouts from pool-signed wallets"):
 *   sign (nothing leaves the process) → store the signed transaction and move the payout to `sending`
 *   in one commit → broadcast → `sent` → followed until the wallet's confirmations (`confirmed_at`).
 * After a crash a `sending` payout's stored transaction is asked about and broadcast again byte for
 * byte; a second payment is never signed. Only a stuck transaction is replaced, by the wallet, at the
 * same nonce with a higher fee, so at most one of the two can be mined.
 */

/** How long a broadcast transaction may sit unmined before its fee is raised (EVM), by default. */
const REPLACE_AFTER_MS = 30 * 60_000;

/** The stored form a wallet reads back (expiresAt and followFrom only when present). */
function signed(tx: PayoutTransaction): SignedTransaction {
  return {
    txid: tx.txid,
    raw: tx.raw,
    fee: tx.fee,
    spends: tx.spends,
    ...(tx.expiresAt ? { expiresAt: tx.expiresAt } : {}),
    ...(tx.followFrom !== undefined ? { followFrom: tx.followFrom } : {}),
  };
}

type AttemptState = { tx: PayoutTransaction; state: TransactionState };

export class SigningChannel implements PayoutChannel {
  readonly demo = false;
  readonly address: string;
  readonly feeCoin: string | undefined;
  private readonly wallet: SigningWallet;
  private readonly replaceAfterMs: number;

  constructor(
    private readonly run: ChannelRun,
    private readonly hot: HotWallet & { wallet: SigningWallet },
  ) {
    this.wallet = hot.wallet;
    this.address = hot.wallet.address;
    this.feeCoin = hot.wallet.feeCoin === hot.wallet.coin ? undefined : hot.wallet.feeCoin;
    this.replaceAfterMs = hot.replaceAfterMs ?? run.deps.replaceAfterMs ?? REPLACE_AFTER_MS;
  }

  /** A pending payout is checked by signing it: a wallet short of funds refuses to sign. */
  resume(payout: Payout): Promise<Outcome> {
    return payout.status === 'pending' ? this.signAndSend(payout) : this.reconcile(payout);
  }

  async follow(record: (payout: Payout, outcome: Outcome) => void): Promise<void> {
    const { db, signal } = this.run.deps;
    for (const payout of await unconfirmedPayouts(db, this.run.coin)) {
      if (signal?.aborted) return;
      record(payout, await this.followOne(payout));
    }
  }

  async eligible(plan: PayoutPlan): Promise<PayoutPlan> {
    return this.withoutSmallOutputs(await withoutInvalidAddresses(plan, this.wallet, this.run.deps.log));
  }

  /** The most each transaction's fee can be is budgeted too — in its fee coin, for a token (USDC's gas is ETH). */
  async budget(): Promise<WalletBudget> {
    const { wallet } = this;
    const available = await wallet.balance();
    const fees = {
      perTransaction: await wallet.feeEstimate(wallet.maxOutputs),
      maxOutputs: wallet.maxOutputs,
      ...(wallet.feeCoin === wallet.coin ? {} : { feeCoinBalance: await wallet.feeBalance() }),
    };
    return { available, minBalance: this.hot.minBalance, fees };
  }

  batches(accounts: PlannedPayoutAccount[]): PlannedPayoutAccount[][] {
    return splitIntoTransactions(accounts, this.wallet.maxOutputs);
  }

  pay(payout: Payout): Promise<Outcome> {
    return this.signAndSend(payout);
  }

  /** Accounts with an output below the wallet's smallest are left out (and logged): the chain refuses it. */
  private withoutSmallOutputs(plan: PayoutPlan): PayoutPlan {
    const { minOutput } = this.wallet;
    const accounts = plan.accounts.filter((a) => {
      const small = a.items.filter((i) => i.amount < minOutput);
      if (small.length > 0) {
        this.run.deps.log.warn(
          {
            coin: plan.coin,
            account: a.accountId.toString(),
            addresses: small.map((i) => i.address),
            minOutput: minOutput.toString(),
          },
          'a payout output would be below the smallest the chain accepts; this account waits until its share grows',
        );
      }
      return small.length === 0;
    });
    return { ...plan, accounts, total: accounts.reduce((sum, a) => sum + a.amount, 0n) };
  }

  private stored(tx: SignedTransaction) {
    return { ...tx, feeCoin: this.wallet.feeCoin };
  }

  /** The fee actually paid, when it is in the payout's own coin (payouts.fee is in that coin). */
  private ownCoinFee(fee: bigint | undefined): bigint | undefined {
    return this.feeCoin === undefined ? fee : undefined;
  }

  /**
   * A `pending` payout: signed, stored, broadcast, sent. A refusal while signing proves nothing left
   * (signing has no effect outside this process): the payout fails and its balances come back — except
   * an unreachable node, which leaves it pending for the next run.
   */
  private async signAndSend(payout: Payout): Promise<Outcome> {
    const { db, log } = this.run.deps;
    const { now, hooks } = this.run;
    const key = payout.idempotency_key;
    const outputs = walletOutputs(await payoutItems(db, payout.id));
    const inFlight = (await inFlightTransactions(db, payout.coin)).map(signed);
    let tx: SignedTransaction;
    try {
      tx = await this.wallet.sign(outputs, inFlight);
    } catch (error) {
      if (error instanceof WalletError && error.kind === 'unreachable') {
        log.warn(
          { coin: payout.coin, payout: key, err: error },
          'the node could not be asked to sign; payout stays pending',
        );
        return 'open';
      }
      const kind = error instanceof WalletError ? error.kind : 'unknown';
      const message = error instanceof Error ? error.message : String(error);
      log.error(
        { coin: payout.coin, payout: key, kind, err: error, alert: 'payout-failed' },
        'the payout could not be signed; nothing was sent, balances restored',
      );
      return (await failPayout(db, payout.id, `wallet refused (${kind}): ${message}`, now)) ? 'failed' : 'taken';
    }
    await hook(hooks, 'after-sign', payout);
    if (!(await storeFirstTransaction(db, payout, this.stored(tx), now))) return 'taken';
    await hook(hooks, 'after-store', payout);
    return this.broadcastStored(payout, tx, { firstBroadcast: true });
  }

  /**
   * Broadcasts a stored transaction and records the payout `sent`. On the first broadcast a refusal
   * proves it never reached any node (a node relays only what it accepts, and no one else has the
   * bytes): the transaction is dead and the payout fails, balances restored. On a later broadcast an
   * earlier one may have gone out, so a refusal is settled by what the node says of it.
   */
  private async broadcastStored(
    payout: Payout,
    tx: SignedTransaction,
    options: { firstBroadcast: boolean },
  ): Promise<Outcome> {
    const { db, log } = this.run.deps;
    const { now, hooks } = this.run;
    const key = payout.idempotency_key;
    try {
      await this.wallet.broadcast(tx);
    } catch (error) {
      if (error instanceof WalletError && error.kind === 'rejected') {
        if (options.firstBroadcast) {
          log.error(
            { coin: payout.coin, payout: key, txid: tx.txid, err: error, alert: 'payout-failed' },
            'the node refused the payout transaction; nothing was sent, balances restored',
          );
          await this.markDead(payout, tx.txid);
          return (await failPayout(db, payout.id, `node refused the transaction: ${error.message}`, now))
            ? 'failed'
            : 'taken';
        }
        const state = await this.wallet.state(tx);
        if (state.state === 'mined' || state.state === 'pending' || state.state === 'reverted') {
          return (await markPayoutSent(db, payout.id, { txid: tx.txid, fee: null, at: now })) ? 'sent' : 'taken';
        }
        if (state.state === 'dead') return this.failDead(payout, state.reason);
        log.error(
          { coin: payout.coin, payout: key, txid: tx.txid, err: error, alert: 'payout-rebroadcast-refused' },
          'the node refuses the stored payout transaction and does not know it; it stays sending for a person to look at',
        );
        return 'open';
      }
      log.error(
        { coin: payout.coin, payout: key, txid: tx.txid, err: error, alert: 'payout-outcome-unknown' },
        'the broadcast may or may not have reached the node; the payout stays sending and the next run asks the node',
      );
      return 'open';
    }
    await hook(hooks, 'after-broadcast', payout);
    const recorded = await markPayoutSent(db, payout.id, { txid: tx.txid, fee: null, at: now });
    log.info({ coin: payout.coin, payout: key, txid: tx.txid, total: payout.total }, 'payout sent');
    return recorded ? 'sent' : 'taken';
  }

  private async markDead(payout: Payout, txid: string): Promise<void> {
    const { db } = this.run.deps;
    for (const tx of await payoutTransactions(db, payout.id)) {
      if (tx.txid === txid) await markTransactionDead(db, tx.id);
    }
  }

  /** Every attempt of the payout can never be mined: nothing was paid, balances restored. */
  private async failDead(payout: Payout, reason: string): Promise<Outcome> {
    const { db, log } = this.run.deps;
    const { now } = this.run;
    log.error(
      { coin: payout.coin, payout: payout.idempotency_key, reason, alert: 'payout-failed' },
      'the payout transaction can never be mined; nothing was paid, balances restored',
    );
    const why = `transaction can never be mined: ${reason}`;
    const failed =
      payout.status === 'sent'
        ? await failSentPayout(db, payout.id, why, now)
        : await failPayout(db, payout.id, why, now);
    return failed ? 'failed' : 'taken';
  }

  /** What the node says of each attempt that may still be mined, newest first. */
  private async attemptStates(payout: Payout): Promise<AttemptState[]> {
    const { db } = this.run.deps;
    const out: AttemptState[] = [];
    for (const tx of (await payoutTransactions(db, payout.id)).reverse()) {
      if (tx.status === 'dead') continue;
      const state = await this.wallet.state(signed(tx));
      if (state.state === 'dead') await markTransactionDead(db, tx.id);
      out.push({ tx, state });
    }
    return out;
  }

  /**
   * A `sending` payout an earlier run left (it crashed after storing the transaction, or the broadcast's
   * answer was lost): the node is asked; known → `sent`; unknown → the stored bytes are broadcast again;
   * every attempt dead → failed, balances restored.
   */
  private async reconcile(payout: Payout): Promise<Outcome> {
    const { db, log } = this.run.deps;
    const { now } = this.run;
    const states = await this.attemptStates(payout);
    if (states.length === 0) {
      const all = await payoutTransactions(db, payout.id);
      if (all.length === 0) {
        // storeFirstTransaction moves a payout to sending together with its transaction, so this is a
        // payout some other code moved: no transaction of it exists, so none can have been broadcast.
        return (await failPayout(db, payout.id, PAYOUT_FAILURE.notFoundAfterCrash, now)) ? 'failed' : 'taken';
      }
      return this.failDead(payout, 'every attempt is dead');
    }
    const known = states.find((s) => s.state.state !== 'unknown');
    if (known && known.state.state !== 'dead') {
      log.info(
        { coin: payout.coin, payout: payout.idempotency_key, txid: known.tx.txid },
        'reconciled: the node has the payout transaction',
      );
      return (await markPayoutSent(db, payout.id, { txid: known.tx.txid, fee: null, at: now })) ? 'sent' : 'taken';
    }
    const live = states.find((s) => s.state.state === 'unknown');
    if (!live) return this.failDead(payout, states[0]?.state.state === 'dead' ? states[0].state.reason : 'dead');
    return this.broadcastStored(payout, signed(live.tx), { firstBroadcast: false });
  }

  /**
   * A `sent` payout not yet confirmed: recorded deeper each run until the wallet's confirmations;
   * a transaction the chain dropped (a reorganisation, a mempool eviction) is broadcast again, the same
   * bytes; one stuck longer than `replaceAfterMs` has its fee raised (EVM); a reverted transaction at
   * full depth, or one that can never be mined, fails the payout and gives the balances back.
   */
  private async followOne(payout: Payout): Promise<Outcome> {
    const { db, log } = this.run.deps;
    const { now, hooks } = this.run;
    const { wallet } = this;
    const key = payout.idempotency_key;
    const states = await this.attemptStates(payout);
    const mined = states.find((s) => s.state.state === 'mined' || s.state.state === 'reverted');
    if (mined && (mined.state.state === 'mined' || mined.state.state === 'reverted')) {
      const { confirmations } = mined.state;
      const final = confirmations >= wallet.confirmations;
      if (mined.state.state === 'reverted') {
        if (!final) return 'open';
        return this.failReverted(payout, mined.state.reason);
      }
      const fee = this.ownCoinFee(mined.state.fee);
      await followSentPayout(db, payout.id, {
        txid: mined.tx.txid,
        confirmations,
        ...(fee !== undefined ? { fee } : {}),
        ...(final ? { confirmedAt: now } : {}),
      });
      if (!final) return 'open';
      for (const other of states) if (other.tx.id !== mined.tx.id) await markTransactionDead(db, other.tx.id);
      log.info({ coin: payout.coin, payout: key, txid: mined.tx.txid, confirmations }, 'payout confirmed');
      await hook(hooks, 'after-confirmation', payout);
      return 'confirmed';
    }
    if (payout.confirmations > 0) {
      log.error(
        { coin: payout.coin, payout: key, txid: payout.txid, alert: 'payout-reorganised' },
        'a mined payout transaction left the chain (reorganisation); it is followed again from zero',
      );
      await followSentPayout(db, payout.id, { txid: payout.txid ?? '', confirmations: 0 });
    }
    const live = states.find((s) => s.tx.status === 'live');
    if (!live) return states.length === 0 ? this.failDead(payout, 'every attempt is dead') : 'open';
    if (live.state.state === 'dead') {
      // The live attempt is dead and none is mined: an older attempt still pending may be mined yet.
      if (states.some((s) => s.state.state === 'pending' || s.state.state === 'unknown')) return 'open';
      return this.failDead(payout, live.state.reason);
    }
    if (live.state.state === 'unknown') {
      try {
        await wallet.broadcast(signed(live.tx));
        log.warn(
          { coin: payout.coin, payout: key, txid: live.tx.txid },
          'the node had dropped the payout transaction; broadcast again',
        );
      } catch (error) {
        log.error(
          { coin: payout.coin, payout: key, txid: live.tx.txid, err: error, alert: 'payout-rebroadcast-refused' },
          'the payout transaction could not be broadcast again',
        );
      }
      return 'open';
    }
    if (wallet.replace && now.getTime() - live.tx.createdAt.getTime() >= this.replaceAfterMs) {
      await this.replaceStuck(payout, live.tx);
    }
    return 'open';
  }

  private async failReverted(payout: Payout, reason: string): Promise<Outcome> {
    const { db, log } = this.run.deps;
    log.error(
      { coin: payout.coin, payout: payout.idempotency_key, reason, alert: 'payout-failed' },
      'the payout transaction was mined but moved nothing (reverted); balances restored',
    );
    return (await failSentPayout(db, payout.id, `transaction reverted: ${reason}`, this.run.now)) ? 'failed' : 'taken';
  }

  /** Raises the fee of a stuck transaction at the same nonce: stored first, then broadcast. */
  private async replaceStuck(payout: Payout, stuck: PayoutTransaction): Promise<void> {
    const { db, log } = this.run.deps;
    const key = payout.idempotency_key;
    let next: SignedTransaction | undefined;
    try {
      next = await this.wallet.replace?.(signed(stuck));
    } catch (error) {
      log.warn({ coin: payout.coin, payout: key, err: error }, 'the stuck payout transaction could not be re-signed');
      return;
    }
    if (!next) {
      log.error(
        { coin: payout.coin, payout: key, txid: stuck.txid, alert: 'payout-stuck' },
        'the payout transaction is stuck and its fee is at the configured ceiling',
      );
      return;
    }
    if (!(await storeReplacement(db, payout, stuck, this.stored(next), this.run.now))) return;
    try {
      await this.wallet.broadcast(next);
      log.warn(
        { coin: payout.coin, payout: key, replaced: stuck.txid, txid: next.txid },
        'stuck payout transaction replaced with a higher fee',
      );
    } catch (error) {
      // Stored: the next run asks the node about both and broadcasts the live one again.
      log.warn(
        { coin: payout.coin, payout: key, txid: next.txid, err: error },
        'the replacement could not be broadcast yet',
      );
    }
  }
}
