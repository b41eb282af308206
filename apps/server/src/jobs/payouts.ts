import { randomUUID } from 'node:crypto';
import { type SentTransaction, type Wallet, WalletError, type WalletOutput } from '@lodestone/chain';
import {
  type Coin,
  createPayout,
  type DB,
  failPayout,
  listCoins,
  markPayoutSending,
  markPayoutSent,
  openPayouts,
  type Payout,
  type PayoutCandidate,
  payoutCandidates,
  payoutItems,
} from '@lodestone/db';
import { Exact } from '@lodestone/domain';
import type { Kysely } from 'kysely';
import type { Config } from '../config/config.js';
import { createWallets, type HotWallet } from '../services/money/wallets.js';
import type { JobDefinition, Log } from './types.js';

/**
 * The payout job (docs/money.md, "Payouts"). Each run, per coin of the catalogue:
 * 1. reconciliation: payouts left `pending` by an earlier run are sent now; payouts left `sending`
 *    are looked up in the wallet by their key (the transaction comment) — never sent again;
 * 2. planning (pure, planPayouts): which accounts are due and how much goes to each address;
 * 3. one payout batching every due account: written `pending` with the balances debited, then
 *    `sending` (committed before the wallet call), one sendmany, then `sent` with the txid.
 */

/** How long a `sending` payout the wallet does not know may be young enough to still appear there. */
export const PAYOUT_SENDING_GRACE_MS = 10 * 60_000;

/** Failure reasons recorded on payouts (payouts.error). */
export const PAYOUT_FAILURE = {
  underfunded: 'hot wallet underfunded',
  notFoundAfterCrash: 'not found in wallet after crash',
  disabled: 'payouts of the coin are disabled',
} as const;

// ---------------------------------------------------------------------------------------------------
// Planning: pure.

export interface PlanCoin {
  ticker: string;
  decimals: number;
  payoutsEnabled: boolean;
}

export interface PlannedItem {
  address: string;
  /** Smallest units, > 0. */
  amount: bigint;
}

export interface PlannedAccount {
  accountId: bigint;
  /** The whole balance at planning time: the sum of the items. */
  amount: bigint;
  /** One per distinct address, in address position order. */
  items: PlannedItem[];
}

export type SkipReason =
  | 'payouts-disabled'
  | 'paused'
  | 'no-address'
  | 'bad-proportions'
  | 'below-threshold'
  | 'interval-not-elapsed';

export interface PayoutPlan {
  coin: string;
  accounts: PlannedAccount[];
  /** Σ amounts of `accounts`. */
  total: bigint;
  skipped: { accountId: bigint; reason: SkipReason }[];
}

/** A coin amount (decimal text) as smallest units, rounded up: a threshold is never undercut. */
export function thresholdUnits(threshold: string, decimals: number): bigint {
  const shifted = Exact.of(threshold).shifted(decimals);
  const floor = shifted.floor();
  return shifted.compare(floor) === 0 ? floor : floor + 1n;
}

const HOUR_MS = 3_600_000;

/**
 * Splits `amount` over addresses by their percent proportions: floor(amount × p / 100) each, the
 * remainder of the rounding to the first address with a non-zero proportion, addresses left with
 * nothing dropped, and a repeated address paid once with its shares added. Undefined when the
 * proportions do not add up to exactly 100.
 */
export function splitByProportion(
  amount: bigint,
  addresses: readonly { address: string; proportion: string }[],
): PlannedItem[] | undefined {
  const sum = addresses.reduce((s, a) => s.plus(a.proportion), Exact.ZERO);
  if (sum.compare(100) !== 0 || addresses.some((a) => Exact.of(a.proportion).isNegative())) return undefined;
  const shares = addresses.map((a) => ({
    address: a.address,
    proportion: Exact.of(a.proportion),
    amount: Exact.of(amount).times(a.proportion).dividedBy(100, 0).floor(),
  }));
  const first = shares.find((s) => !s.proportion.isZero());
  if (!first) return undefined;
  first.amount += amount - shares.reduce((s, x) => s + x.amount, 0n);
  const merged = new Map<string, bigint>();
  for (const s of shares) merged.set(s.address, (merged.get(s.address) ?? 0n) + s.amount);
  return [...merged].filter(([, value]) => value > 0n).map(([address, value]) => ({ address, amount: value }));
}

/**
 * Which accounts are paid in this run and how: an account is due when the coin's payouts are enabled,
 * its payouts of the coin are not paused (paused_until unset or past), it has at least one address,
 * its balance reaches its threshold, and its interval has elapsed since its last pending, sending or
 * sent payout of the coin (or it never had one). A due account is paid its whole balance.
 */
export function planPayouts(coin: PlanCoin, candidates: readonly PayoutCandidate[], now: Date): PayoutPlan {
  const plan: PayoutPlan = { coin: coin.ticker, accounts: [], total: 0n, skipped: [] };
  for (const c of candidates) {
    const skip = (reason: SkipReason) => void plan.skipped.push({ accountId: c.accountId, reason });
    if (!coin.payoutsEnabled) {
      skip('payouts-disabled');
      continue;
    }
    if (c.pausedUntil !== null && c.pausedUntil.getTime() > now.getTime()) {
      skip('paused');
      continue;
    }
    if (c.addresses.length === 0) {
      skip('no-address');
      continue;
    }
    if (c.balance <= 0n || c.balance < thresholdUnits(c.threshold, coin.decimals)) {
      skip('below-threshold');
      continue;
    }
    if (c.lastPayoutAt !== null) {
      const intervalMs = Exact.of(c.intervalHours).times(HOUR_MS).floor();
      if (BigInt(now.getTime() - c.lastPayoutAt.getTime()) < intervalMs) {
        skip('interval-not-elapsed');
        continue;
      }
    }
    const items = splitByProportion(
      c.balance,
      [...c.addresses].sort((a, b) => a.position - b.position),
    );
    if (!items || items.length === 0) {
      skip('bad-proportions');
      continue;
    }
    plan.accounts.push({ accountId: c.accountId, amount: c.balance, items });
    plan.total += c.balance;
  }
  return plan;
}

/** The sendmany outputs of a payout: one per address, amounts of every account paid there added up. */
export function walletOutputs(items: readonly { address: string; amount: bigint }[]): WalletOutput[] {
  const byAddress = new Map<string, bigint>();
  for (const item of items) byAddress.set(item.address, (byAddress.get(item.address) ?? 0n) + item.amount);
  return [...byAddress].map(([address, amount]) => ({ address, amount }));
}

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

// ---------------------------------------------------------------------------------------------------
// The run: I/O.

/** Points where tests make a run "crash" (a hook that throws aborts the whole run there). */
export type PayoutStep = 'after-pending' | 'after-sending' | 'after-wallet-call';
export type PayoutHooks = Partial<Record<PayoutStep, (payout: Payout) => void | Promise<void>>>;

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
}

export interface PayoutRunResult {
  /** Keys of payouts that became `sent` in this run (new or reconciled). */
  sent: string[];
  /** Keys of payouts that became `failed` in this run. */
  failed: string[];
  /** Keys of payouts left `pending` or `sending` for a later run. */
  open: string[];
}

type Outcome = 'sent' | 'failed' | 'open' | 'taken';

/**
 * One payout run at `now` (the scheduled instant; every timestamp it writes is `now`). Coins are
 * independent: a wallet that fails is logged and its coin skipped, the others are paid, and the run
 * then throws so the scheduler counts a failure. A hook that throws stops the run at once.
 */
export async function runPayouts(deps: PayoutDeps, now: Date, hooks: PayoutHooks = {}): Promise<PayoutRunResult> {
  const result: PayoutRunResult = { sent: [], failed: [], open: [] };
  const errors: unknown[] = [];
  for (const coin of await listCoins(deps.db)) {
    if (deps.signal?.aborted) break;
    try {
      await runCoin(deps, coin, now, hooks, result);
    } catch (error) {
      if (error instanceof PayoutRunAborted) throw error;
      deps.log.error({ coin: coin.ticker, err: error }, 'payouts of this coin stopped for this run');
      errors.push(error);
    }
  }
  if (errors.length > 0) throw new AggregateError(errors, `payouts failed for ${errors.length} coin(s)`);
  return result;
}

async function runCoin(deps: PayoutDeps, coin: Coin, now: Date, hooks: PayoutHooks, result: PayoutRunResult) {
  const { db, log } = deps;
  const hot = deps.wallets.get(coin.ticker);
  const record = (payout: Payout, outcome: Outcome) => {
    if (outcome === 'sent' || outcome === 'failed' || outcome === 'open') result[outcome].push(payout.idempotency_key);
  };

  // 1. Finish what earlier runs left, before anything new is planned.
  for (const payout of await openPayouts(db, coin.ticker)) {
    if (deps.signal?.aborted) return;
    if (!hot) {
      log.error(
        { coin: coin.ticker, payout: payout.idempotency_key, status: payout.status, alert: 'payout-without-wallet' },
        'an open payout of a coin without a wallet cannot be finished; configure the wallet',
      );
      record(payout, 'open');
      continue;
    }
    if (payout.status === 'pending' && !coin.payouts_enabled) {
      // Never sent: give the coins back, they are paid once the coin is enabled again.
      record(payout, (await failPayout(db, payout.id, PAYOUT_FAILURE.disabled, now)) ? 'failed' : 'taken');
      continue;
    }
    const outcome =
      payout.status === 'pending'
        ? await sendPending(deps, hot, payout, now, hooks, { balanceChecked: false })
        : await reconcileSending(deps, hot.wallet, payout, now);
    record(payout, outcome);
  }
  if (!coin.payouts_enabled || deps.signal?.aborted) return;

  // 2. Plan.
  let plan = planPayouts(
    { ticker: coin.ticker, decimals: coin.decimals, payoutsEnabled: coin.payouts_enabled },
    await payoutCandidates(db, coin.ticker),
    now,
  );
  if (plan.accounts.length === 0) return;
  if (!hot) {
    log.warn(
      { coin: coin.ticker, accounts: plan.accounts.length, total: plan.total.toString(), alert: 'coin-without-wallet' },
      'accounts are due a payout in a coin that has no wallet; they are not paid',
    );
    return;
  }
  plan = await withoutInvalidAddresses(plan, hot.wallet, log);
  if (plan.accounts.length === 0) return;

  // 3. Check the hot wallet before writing anything: an underfunded wallet stops this coin's payouts
  // with an alert and leaves every balance as it is.
  const available = await hot.wallet.balance();
  if (available < plan.total + hot.minBalance) {
    log.error(
      {
        coin: coin.ticker,
        alert: 'hot-wallet-underfunded',
        balance: available.toString(),
        needed: (plan.total + hot.minBalance).toString(),
        minBalance: hot.minBalance.toString(),
        accounts: plan.accounts.length,
      },
      'hot wallet underfunded: payouts of this coin wait until it is refilled',
    );
    return;
  }

  const created = await createPayout(db, {
    key: newPayoutKey(coin.ticker),
    coin: coin.ticker,
    demo: hot.wallet.demo,
    createdAt: now,
    accounts: plan.accounts,
  });
  if (!created) return;
  if (created.dropped.length > 0) {
    log.info(
      { coin: coin.ticker, accounts: created.dropped.map(String) },
      'balances changed since planning; those accounts wait for the next run',
    );
  }
  log.info(
    {
      coin: coin.ticker,
      payout: created.payout.idempotency_key,
      accounts: plan.accounts.length - created.dropped.length,
      total: created.payout.total,
    },
    'payout written as pending',
  );
  await hook(hooks, 'after-pending', created.payout);
  record(created.payout, await sendPending(deps, hot, created.payout, now, hooks, { balanceChecked: true }));
}

async function hook(hooks: PayoutHooks, step: PayoutStep, payout: Payout): Promise<void> {
  try {
    await hooks[step]?.(payout);
  } catch (error) {
    throw new PayoutRunAborted(step, error);
  }
}

/** Accounts with an address the wallet calls invalid are left out of the plan (and logged). */
async function withoutInvalidAddresses(plan: PayoutPlan, wallet: Wallet, log: Log): Promise<PayoutPlan> {
  // The demo wallet pays no chain; addresses were checked against the coin's format when saved.
  if (wallet.demo) return plan;
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

/**
 * A `pending` payout (the wallet was never called for it) from the balance check on: sending (committed),
 * the one sendmany, sent. `balanceChecked` when the caller has just checked the wallet for it.
 */
async function sendPending(
  deps: PayoutDeps,
  hot: HotWallet,
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
    if (available < total + hot.minBalance) {
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
async function reconcileSending(deps: PayoutDeps, wallet: Wallet, payout: Payout, now: Date): Promise<Outcome> {
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

// ---------------------------------------------------------------------------------------------------
// The job.

export interface PayoutJobOptions {
  config: Pick<Config, 'coins' | 'wallets' | 'payoutsEveryMinutes'>;
  /** Tests: these wallets instead of the ones the configuration describes. */
  wallets?: ReadonlyMap<string, HotWallet>;
  sendingGraceMs?: number;
}

/**
 * The payout job: every `payoutsEveryMinutes` (hourly by default) and once at start, so payouts a
 * crash left open are finished without waiting an hour. Singleton: with two jobs processes one pays,
 * the other stands by; the status guards make even two concurrent runs pay once.
 */
export function payoutJob(options: PayoutJobOptions): JobDefinition {
  let wallets: Promise<ReadonlyMap<string, HotWallet>> | undefined;
  return {
    name: 'payouts',
    everyMs: options.config.payoutsEveryMinutes * 60_000,
    offsetMs: 0,
    runOnStart: true,
    singleton: true,
    async run({ database, log, now, signal }) {
      wallets ??= options.wallets ? Promise.resolve(options.wallets) : createWallets(options.config, database.db, log);
      let ready: ReadonlyMap<string, HotWallet>;
      try {
        ready = await wallets;
      } catch (error) {
        wallets = undefined; // try again next run
        throw error;
      }
      const result = await runPayouts(
        { db: database.db, wallets: ready, log, signal, sendingGraceMs: options.sendingGraceMs },
        now,
      );
      if (result.sent.length + result.failed.length + result.open.length > 0) {
        log.info(
          { sent: result.sent.length, failed: result.failed.length, open: result.open.length },
          'payout run done',
        );
      }
    },
  };
}
