import { randomUUID } from 'node:crypto';
import { type SentTransaction, type Wallet, WalletError } from '@lodestone/chain';
import { type DB, failPayout, markPayoutSending, markPayoutSent, type Payout, payoutItems } from '@lodestone/db';
import { walletBalanceNeeded, walletOutputs } from '@lodestone/domain';
import type { Kysely } from 'kysely';
import type { OperatorAlerts } from './operatorAlerts.js';
import type { Log } from './types.js';
import type { HotWallet, NodeHotWallet } from './wallets/wallets.js';

/**
 * One payout from `pending` to an end (docs/money.md, "Payouts"): sending it (committed before the
 * one wallet call) and recording what the wallet answered, or reconciling a payout an earlier run
 * left `sending` by looking its key up in the wallet — never sending it again. The run that plans
 * and writes payouts is payouts.ts.
 */

/** How long a `sending` payout the wallet does not know may be young enough to still appear there. */
export const PAYOUT_SENDING_GRACE_MS = 10 * 60_000;

/** Failure reasons recorded on payouts (payouts.error). */
export const PAYOUT_FAILURE = {
  underfunded: 'hot wallet underfunded',
  notFoundAfterCrash: 'not found in wallet after crash',
  disabled: 'payouts of the coin are disabled',
} as const;

/** `payout:{coin}:{uuid}`: the payout's idempotency key, its ledger transaction's key and its wallet comment. */
export function newPayoutKey(coin: string): string {
  return `payout:${coin}:${randomUUID()}`;
}

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

/**
 * Points where tests make a run "crash" (a hook that throws aborts the whole run there). Every wallet:
 * before-pending (planned, nothing written). Node wallets (sendmany): after-pending, after-sending,
 * after-wallet-call. Pool-signed wallets (payoutSign.ts): after-pending, after-sign, after-store,
 * after-broadcast, after-confirmation.
 */
export type PayoutStep =
  | 'before-pending'
  | 'after-pending'
  | 'after-sending'
  | 'after-wallet-call'
  | 'after-sign'
  | 'after-store'
  | 'after-broadcast'
  | 'after-confirmation';
/** A hook gets the payout it stopped at; before-pending, the payout not written yet, gets undefined. */
export type PayoutHooks = Partial<Record<PayoutStep, (payout: Payout | undefined) => void | Promise<void>>>;

/** A hook threw: the run stops there, as a crashed process would, whatever the step was doing. */
export class PayoutRunAborted extends Error {
  override readonly name = 'PayoutRunAborted';
  constructor(
    readonly step: PayoutStep,
    cause: unknown,
  ) {
    super(`payout run aborted at ${step}`, { cause });
  }
}

export interface PayoutDeps {
  db: Kysely<DB>;
  /** By ticker; a coin without a wallet is not paid. */
  wallets: ReadonlyMap<string, HotWallet>;
  log: Log;
  /** Default PAYOUT_SENDING_GRACE_MS. */
  sendingGraceMs?: number;
  /** Stops the run between payouts (never in the middle of one). */
  signal?: AbortSignal;
  /** Pool-signed wallets: how long a broadcast transaction may stay unmined before its fee is raised. */
  replaceAfterMs?: number;
  /** E-mails the admins when a wallet cannot cover what is due (and says when it can again). */
  alerts?: OperatorAlerts;
}

/** `confirmed`: a pool-signed payout reached its wallet's confirmations in this run. */
export type Outcome = 'sent' | 'confirmed' | 'failed' | 'open' | 'taken';

export async function hook(hooks: PayoutHooks, step: PayoutStep, payout: Payout | undefined): Promise<void> {
  try {
    await hooks[step]?.(payout);
  } catch (error) {
    throw new PayoutRunAborted(step, error);
  }
}

/**
 * A `pending` payout (the wallet was never called for it) from the balance check on: sending (committed),
 * the one sendmany, sent. `balanceChecked` when the caller has just checked the wallet for it.
 */
export async function sendPending(
  deps: PayoutDeps,
  hot: NodeHotWallet,
  payout: Payout,
  now: Date,
  hooks: PayoutHooks,
  options: { balanceChecked: boolean },
): Promise<Outcome> {
  const { db, log } = deps;
  const key = payout.idempotency_key;
  const total = BigInt(payout.total);
  if (!options.balanceChecked) {
    // Written before a crash, so its balances are already debited: fail it and give them back rather
    // than leave them locked in a payout that cannot go out.
    const available = await hot.wallet.balance();
    if (available < walletBalanceNeeded(total, hot.minBalance)) {
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
    sent = await hot.wallet.sendMany(outputs, key);
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
export async function reconcileSending(deps: PayoutDeps, wallet: Wallet, payout: Payout, now: Date): Promise<Outcome> {
  const { db, log } = deps;
  const key = payout.idempotency_key;
  // Searched back to when the payout was written: "not found" must mean "never sent", however many
  // wallet entries came after it.
  const found = await wallet.findByComment(key, payout.created_at);
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
  const graceMs = deps.sendingGraceMs ?? PAYOUT_SENDING_GRACE_MS;
  const since = payout.sending_at ?? payout.created_at;
  if (now.getTime() - since.getTime() < graceMs) {
    log.info({ coin: payout.coin, payout: key }, 'a sending payout is not in the wallet yet; checking again next run');
    return 'open';
  }
  log.error(
    { coin: payout.coin, payout: key, alert: 'payout-failed' },
    'a sending payout is not in the wallet after the grace period: failed and balances restored',
  );
  return (await failPayout(db, payout.id, PAYOUT_FAILURE.notFoundAfterCrash, now)) ? 'failed' : 'taken';
}
