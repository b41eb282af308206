import { ALGORITHMS, type AlgorithmKey } from '@lodestone/domain';
import { z } from 'zod';
import { accountQuery } from './account.js';
import { chartPeriod, timeZone } from './pool.js';

/**
 * The revenue calls (docs/dashboard.md, Revenue API): the
 * Revenue tab's balances, payouts, daily and lifetime earnings, its chart, and the downloads. The
 * user calls name one of the user's own accounts (`account_name`); the observer twins name it by
 * its read-only `observer_key` and answer the same bodies.
 *
 * Number conventions are those of the money calls (docs/money.md): balances and payout amounts are
 * smallest units as integer text with the coin's decimals beside them; lifetime earnings are coin
 * amounts as exact decimal text; prices, speeds and dollar figures for display are JSON numbers.
 */

/** Smallest units as integer text (never a float): coin_balance × 10^-coin_decimals coin_ticker. */
const smallestUnits = z.string().regex(/^\d+$/);

/**
 * An algorithm as the dashboard sends it: the key (`scrypt`) or the name (`SCRYPT`), any case.
 * Unknown names are refused (400) rather than read as the default, so a typo never shows another
 * algorithm's figures.
 */
export const revenueAlgorithm = z.string().transform((value, ctx): AlgorithmKey => {
  const found = ALGORITHMS.find((a) => a.key === value.trim().toLowerCase());
  if (!found) {
    ctx.addIssue({ code: 'custom', message: `Unknown algorithm: ${value}` });
    return z.NEVER;
  }
  return found.key;
});

/** A statement month, `YYYY-MM` (month 01–12). */
export const statementMonth = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, { message: 'date must be a month written YYYY-MM, e.g. 2025-06' });

/** The read-only key of the observer calls (the account's observer link). */
const observerKey = z.string().min(1).max(200);

// ── queries ─────────────────────────────────────────────────────────────────────────────────────

/** GET /v1/user/revenue/balance and /v1/user/revenue/payouts/csv. */
export const revenueAccountQuery = accountQuery;
/** GET /v1/user/revenue/payouts: dates are written in `timezone` (IANA name, default UTC). */
export const revenuePayoutsQuery = accountQuery.extend({ timezone: timeZone.default('UTC') });
/**
 * GET /v1/user/revenue/earnings, /lifetimeearnings, /chart and /earnings/csv. `timezone` sets the
 * day boundaries (default UTC; the website sends it to the chart, the other calls accept it too).
 */
export const revenueAlgorithmQuery = accountQuery.extend({
  algorithm: revenueAlgorithm,
  timezone: timeZone.default('UTC'),
});
/**
 * GET /v1/user/revenue/chart: the revenue over `period` (default 30d: the zone's days; 7d: 4-hour
 * points; 24h: hours), as the other revenue calls are asked.
 */
export const revenueChartQuery = revenueAlgorithmQuery.extend({ period: chartPeriod.default('30d') });
/** GET /v1/user/revenue/earnings/download: the month `date` (YYYY-MM), its days in `timezone`. */
export const revenueStatementQuery = accountQuery.extend({
  date: statementMonth,
  timezone: timeZone.default('UTC'),
});
/**
 * GET /v1/user/revenue/payouts/csv: dates written in `timezone` (default UTC).
 * @alias the same query as the page's; its own name keeps the route table readable.
 */
export const revenuePayoutsCsvQuery = revenuePayoutsQuery;

/** GET /v1/observer/revenue/balance. */
export const observerRevenueQuery = z.object({ observer_key: observerKey });
/** GET /v1/observer/revenue/payouts. */
export const observerRevenuePayoutsQuery = observerRevenueQuery.extend({ timezone: timeZone.default('UTC') });
/** GET /v1/observer/revenue/earnings, /lifetimeearnings and /chart. */
export const observerRevenueAlgorithmQuery = observerRevenueQuery.extend({
  algorithm: revenueAlgorithm,
  timezone: timeZone.default('UTC'),
});

/** GET /v1/observer/revenue/chart. */
export const observerRevenueChartQuery = observerRevenueAlgorithmQuery.extend({ period: chartPeriod.default('30d') });

// ── answers ─────────────────────────────────────────────────────────────────────────────────────

/** One row of the balances table (docs/dashboard.md, Balances). */
export const balanceRecord = z.object({
  coin_ticker: z.string(),
  /** US dollars per coin from the newest recorded price (display only); null when none was recorded. */
  coin_price: z.number().nullable(),
  coin_balance: smallestUnits,
  coin_decimals: z.number().int(),
  /** Decimals the USD value is shown with (always 2). */
  usd_decimals: z.number().int(),
  /**
   * True when this coin cannot be paid to the account as things stand: the coin's payouts are
   * disabled, or the account has no payout address for it. The website's warning icon opens Change Coin.
   */
  show_warning: z.boolean(),
});
export type BalanceRecord = z.infer<typeof balanceRecord>;
/**
 * GET /v1/user/revenue/balance — every coin the account holds, plus every coin its conversion
 * settings credit (balance 0 until the first credit), in catalogue order.
 */
export const revenueBalanceResponse = z.array(balanceRecord);

/** This account's part of one payout, to one address (docs/dashboard.md, Payouts). */
export const accountPayoutRecord = z.object({
  /** ISO 8601 with the offset of the asked time zone, e.g. 2025-06-15T14:00:00+02:00. */
  payout_date: z.string(),
  payout_address: z.string(),
  /** This account's amount to this address, smallest units as integer text. */
  coin_balance: smallestUnits,
  coin_decimals: z.number().int(),
  coin_ticker: z.string(),
  /** The transaction id, or 'Pending' while the payout is not sent yet. */
  payout_txid: z.string(),
  /** Explorer link of the transaction; null while pending, for demo transactions and coins without an explorer. */
  payout_txid_url: z.string().nullable(),
});
export type AccountPayoutRecord = z.infer<typeof accountPayoutRecord>;
/** GET /v1/user/revenue/payouts — newest first (failed payouts paid nothing and are left out). */
export const revenuePayoutsResponse = z.array(accountPayoutRecord);

export const earningCoin = z.object({
  coin_balance: smallestUnits,
  coin_decimals: z.number().int(),
  coin_ticker: z.string(),
  /**
   * Of `coin_balance`, the part known to be transaction fees (docs/money.md, "FPPS": the network's average
   * under FPPS, the template's fees under PPS where its node gave them), rounded down; absent when none is.
   */
  coin_fees: smallestUnits.optional(),
});

/** One day of one algorithm (docs/dashboard.md, Daily earnings). */
export const earningRecord = z.object({
  /** The day, YYYY-MM-DD, in the asked time zone (UTC by default). */
  earning_timestamp: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  /** The account's average hashrate on the algorithm that day (today: so far), in `speed_units`. */
  speed: z.number().nonnegative(),
  speed_units: z.string(),
  /** What the algorithm's shares earned that day, per coin, in catalogue order. */
  coins: z.array(earningCoin),
});
export type EarningRecord = z.infer<typeof earningRecord>;
/** GET /v1/user/revenue/earnings — the last EARNINGS_DAYS days with earnings or shares, newest first. */
export const revenueEarningsResponse = z.array(earningRecord);
/** How many days the earnings list covers (today included). */
export const EARNINGS_DAYS = 90;

/** GET /v1/user/revenue/lifetimeearnings — ticker → coin amount as exact decimal text ("0.12345678"). */
export const lifetimeEarningsResponse = z.record(z.string(), z.string().regex(/^\d+(\.\d+)?$/));
export type LifetimeEarningsResponse = z.infer<typeof lifetimeEarningsResponse>;

/** How many days the revenue chart covers (today included). */
export const REVENUE_CHART_LABEL = 'Revenue (USD)';
