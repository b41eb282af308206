import type { Wallet } from '@lodestone/chain';
import {
  type Coin,
  createPayout,
  failPayout,
  listCoins,
  openPayouts,
  type Payout,
  payoutCandidates,
} from '@lodestone/db';
import { type PayoutPlan, planPayouts, walletBalanceNeeded } from '@lodestone/domain';
import type { Config } from '../config/config.js';
import { createWallets, type HotWallet } from '../services/money/wallets.js';
import {
  hook,
  newPayoutKey,
  type Outcome,
  PAYOUT_FAILURE,
  type PayoutDeps,
  type PayoutHooks,
  PayoutRunAborted,
  reconcileSending,
  sendPending,
} from './payoutSend.js';
import type { JobDefinition, Log } from './types.js';

/**
 * The payout job (docs/money.md, "Payouts"). Each run, per coin of the catalogue:
 * 1. reconciliation: payouts left `pending` by an earlier run are sent now; payouts left `sending`
 *    are looked up in the wallet by their key (the transaction comment) — never sent again
 *    (payoutSend.ts);
 * 2. planning (pure, planPayouts in @lodestone/domain): which accounts are due and how much goes to
 *    each address;
 * 3. one payout batching every due account: written `pending` with the balances debited, then
 *    `sending` (committed before the wallet call), one sendmany, then `sent` with the txid.
 */

export interface PayoutRunResult {
  /** Keys of payouts that became `sent` in this run (new or reconciled). */
  sent: string[];
  /** Keys of payouts that became `failed` in this run. */
  failed: string[];
  /** Keys of payouts left `pending` or `sending` for a later run. */
  open: string[];
}

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
  const needed = walletBalanceNeeded(plan.total, hot.minBalance);
  if (available < needed) {
    log.error(
      {
        coin: coin.ticker,
        alert: 'hot-wallet-underfunded',
        balance: available.toString(),
        needed: needed.toString(),
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
