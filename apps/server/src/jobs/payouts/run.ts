import {
  type Coin,
  createPayout,
  failPayout,
  listCoins,
  openPayouts,
  type Payout,
  payoutCandidates,
} from '@lodestone/db';
import {
  fundDuePayouts,
  type PayoutPlan,
  type PlannedPayoutAccount,
  planPayouts,
  unitsToAmount,
} from '@lodestone/domain';
import type { Config } from '../../config/config.js';
import type { Mailer } from '../../services/mail.js';
import { OperatorAlerts } from '../operatorAlerts.js';
import type { JobDefinition } from '../types.js';
import { type HotWallet, type WalletsProvider, walletsOnce } from '../wallets/wallets.js';
import { channelFor, type PayoutChannel } from './channel.js';
import {
  hook,
  newPayoutKey,
  type Outcome,
  PAYOUT_FAILURE,
  type PayoutDeps,
  type PayoutHooks,
  PayoutRunAborted,
} from './steps.js';

/**
 * The payout job (docs/money.md, "Payouts"). Each run, per coin of the catalogue, through the channel
 * of the coin's wallet (channel.ts), so that no step here depends on the kind of wallet:
 * 1. reconciliation: payouts earlier runs left `pending` or `sending` are finished — never sent again;
 * 2. payouts not final yet are followed on the chain (pool-signed wallets, to their confirmations);
 * 3. planning (pure, planPayouts in @lodestone/domain): which accounts are due and how much goes to
 *    each address, less those the wallet cannot pay;
 * 4. paying, in due order, what the wallet covers (fundDuePayouts, the rule the treasury shows): each
 *    payout written `pending` with the balances debited, then handed to the channel.
 */

export interface PayoutRunResult {
  /** Keys of payouts that became `sent` in this run (new or reconciled). */
  sent: string[];
  /** Keys of pool-signed payouts that reached their wallet's confirmations in this run. */
  confirmed: string[];
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
  const result: PayoutRunResult = { sent: [], confirmed: [], failed: [], open: [] };
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
  const channel = hot && channelFor(hot, { deps, coin: coin.ticker, now, hooks });
  const record = (payout: Payout, outcome: Outcome) => {
    if (outcome !== 'taken') result[outcome].push(payout.idempotency_key);
  };

  // 1. Finish what earlier runs left, before anything new is planned.
  for (const payout of await openPayouts(db, coin.ticker)) {
    if (deps.signal?.aborted) return;
    if (!channel) {
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
    record(payout, await channel.resume(payout));
  }
  // 2. Sent is not always final: follow what the chain has still to confirm.
  await channel?.follow(record);
  if (!coin.payouts_enabled || deps.signal?.aborted) return;

  // 3. Plan.
  const candidates = await payoutCandidates(db, coin.ticker);
  let plan = planPayouts(
    { ticker: coin.ticker, decimals: coin.decimals, payoutsEnabled: coin.payouts_enabled },
    candidates,
    now,
  );
  if (plan.accounts.length === 0) {
    await deps.alerts?.clear(underfundedKey(coin.ticker), now);
    return;
  }
  if (!channel) {
    log.warn(
      { coin: coin.ticker, accounts: plan.accounts.length, total: plan.total.toString(), alert: 'coin-without-wallet' },
      'accounts are due a payout in a coin that has no wallet; they are not paid',
    );
    return;
  }
  plan = await channel.eligible(plan);
  if (plan.accounts.length === 0) return;

  // 4. Pay, in due order, what the hot wallet can cover; the rest waits with one alert and keeps its
  // balance (docs/money.md, "When a wallet cannot cover what is due").
  const budget = await channel.budget();
  const { funded, waiting } = fundDuePayouts(plan, candidates, budget);
  await underfundedAlert(deps, channel, coin, funded, waiting, now);
  if (waiting.length > 0) {
    log.error(
      {
        coin: coin.ticker,
        alert: 'hot-wallet-underfunded',
        paid: funded.accounts.length,
        waiting: waiting.length,
        waitingTotal: sum(waiting).toString(),
        minBalance: budget.minBalance.toString(),
      },
      'hot wallet underfunded: the accounts it cannot cover wait, in due order, until it is refilled',
    );
  }
  for (const accounts of channel.batches(funded.accounts)) {
    if (accounts.length === 0 || deps.signal?.aborted) continue;
    await hook(hooks, 'before-pending', undefined);
    const created = await createPayout(db, {
      key: newPayoutKey(coin.ticker),
      coin: coin.ticker,
      demo: channel.demo,
      createdAt: now,
      accounts,
    });
    if (!created) continue;
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
        accounts: accounts.length - created.dropped.length,
        total: created.payout.total,
      },
      'payout written as pending',
    );
    await hook(hooks, 'after-pending', created.payout);
    record(created.payout, await channel.pay(created.payout));
  }
}

function underfundedKey(coin: string): string {
  return `hot-wallet-underfunded:${coin}`;
}

/** One e-mail to the admins when a coin's wallet starts falling short (docs/admin.md, "Alerts by e-mail"). */
async function underfundedAlert(
  deps: PayoutDeps,
  channel: PayoutChannel,
  coin: Coin,
  funded: PayoutPlan,
  waiting: readonly PlannedPayoutAccount[],
  now: Date,
): Promise<void> {
  const key = underfundedKey(coin.ticker);
  if (!deps.alerts) return;
  if (waiting.length === 0) return deps.alerts.clear(key, now);
  const waitingTotal = unitsToAmount(sum(waiting), coin.decimals);
  const address = channel.address === undefined ? '' : ` (${channel.address})`;
  await deps.alerts.raise(
    key,
    `${coin.ticker} hot wallet cannot cover the payouts due`,
    [
      `The ${coin.ticker} hot wallet${address} cannot cover what is due in this payout run.`,
      `Paid now, in due order: ${funded.accounts.length} account(s). Waiting for funds: ${waiting.length} account(s), ${waitingTotal} ${coin.ticker}.`,
      channel.feeCoin === undefined
        ? ''
        : `Fees of ${coin.ticker} payouts are paid in ${channel.feeCoin}: check that reserve too.`,
      'Refill the wallet; the waiting accounts are paid at the next run after it can cover them.',
      'The treasury (/admin/treasury, or `lodestone treasury`) shows the shortfall.',
    ]
      .filter((line) => line !== '')
      .join('\n'),
    now,
  );
}

function sum(accounts: readonly PlannedPayoutAccount[]): bigint {
  return accounts.reduce((total, a) => total + a.amount, 0n);
}

// ---------------------------------------------------------------------------------------------------
// The job.

export interface PayoutJobOptions {
  config: Pick<Config, 'coins' | 'wallets' | 'payoutsEveryMinutes'>;
  /** The process's hot wallets (walletsOnce), shared with the wallet snapshots. */
  hotWallets?: WalletsProvider;
  /** Tests: these wallets instead of the ones the configuration describes. */
  wallets?: ReadonlyMap<string, HotWallet>;
  sendingGraceMs?: number;
  /** Where alerts to the admins go (the jobs role's mailer); without one they are only logged. */
  mailer?: Mailer;
}

/**
 * The payout job: every `payoutsEveryMinutes` (hourly by default) and once at start, so payouts a
 * crash left open are finished without waiting an hour. Singleton: with two jobs processes one pays,
 * the other stands by; the status guards make even two concurrent runs pay once.
 */
export function payoutJob(options: PayoutJobOptions): JobDefinition {
  const fixed = options.wallets;
  const hotWallets = options.hotWallets ?? walletsOnce(options.config);
  return {
    name: 'payouts',
    everyMs: options.config.payoutsEveryMinutes * 60_000,
    offsetMs: 0,
    runOnStart: true,
    singleton: true,
    async run({ database, log, now, signal }) {
      const ready = fixed ?? (await hotWallets(database.db, log));
      const alerts = options.mailer ? new OperatorAlerts(database.db, options.mailer, log) : undefined;
      const result = await runPayouts(
        {
          db: database.db,
          wallets: ready,
          log,
          signal,
          sendingGraceMs: options.sendingGraceMs,
          ...(alerts ? { alerts } : {}),
        },
        now,
      );
      const done = result.sent.length + result.confirmed.length + result.failed.length + result.open.length;
      if (done > 0) {
        log.info(
          {
            sent: result.sent.length,
            confirmed: result.confirmed.length,
            failed: result.failed.length,
            open: result.open.length,
          },
          'payout run done',
        );
      }
    },
  };
}
