import { randomUUID } from 'node:crypto';
import type { SigningWallet, Wallet } from '@lodestone/chain';
import type { DB, Payout } from '@lodestone/db';
import type { PayoutPlan } from '@lodestone/domain';
import type { Kysely } from 'kysely';
import type { OperatorAlerts } from '../operatorAlerts.js';
import type { Log } from '../types.js';
import type { HotWallet } from '../wallets/wallets.js';

/**
 * What the payout run (run.ts) and its channels share (docs/money.md, "Payouts"): the run's
 * dependencies, what became of a payout, why one failed, its key, and the steps where tests crash a run.
 */

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
 * Points where tests make a run "crash" (a hook that throws aborts the whole run there). Every wallet:
 * before-pending (planned, nothing written). Node wallets (sendmany): after-pending, after-sending,
 * after-wallet-call. Pool-signed wallets (signingChannel.ts): after-pending, after-sign, after-store,
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

export async function hook(hooks: PayoutHooks, step: PayoutStep, payout: Payout | undefined): Promise<void> {
  try {
    await hooks[step]?.(payout);
  } catch (error) {
    throw new PayoutRunAborted(step, error);
  }
}

export interface PayoutDeps {
  db: Kysely<DB>;
  /** By ticker; a coin without a wallet is not paid. */
  wallets: ReadonlyMap<string, HotWallet>;
  log: Log;
  /** Node wallets: how long a `sending` payout the wallet does not know may still appear there. */
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

/** Accounts with an address the wallet calls invalid are left out of the plan (and logged). */
export async function withoutInvalidAddresses(
  plan: PayoutPlan,
  wallet: Wallet | SigningWallet,
  log: Log,
): Promise<PayoutPlan> {
  const verdicts = new Map<string, boolean>();
  for (const account of plan.accounts) {
    for (const { address } of account.items) {
      if (!verdicts.has(address)) verdicts.set(address, await wallet.validateAddress(address));
    }
  }
  const accounts = plan.accounts.filter((a) => {
    const bad = a.items.filter((i) => verdicts.get(i.address) === false).map((i) => i.address);
    if (bad.length > 0) {
      log.warn(
        { coin: plan.coin, account: a.accountId.toString(), addresses: bad },
        'the wallet calls a payout address invalid; this account is not paid until it is changed',
      );
    }
    return bad.length === 0;
  });
  return { ...plan, accounts, total: accounts.reduce((s, a) => s + a.amount, 0n) };
}
