import {
  type AccountPayoutRecord,
  type PoolFeesResponse,
  PUBLIC_API_EARNINGS_DAYS,
  PUBLIC_API_PAYMENTS_LIMIT,
  type PublicApiAlgorithm,
  type PublicApiPoolResponse,
  type PublicApiUserResponse,
} from '@lodestone/contract';
import {
  type Account,
  balancesOfAccount,
  type Coin,
  type Executor,
  latestPoolStats,
  latestPrices,
  listCoins,
  type PoolStats,
  type PriceRow,
  type WatcherScope,
} from '@lodestone/db';
import {
  ALGORITHMS,
  type Algorithm,
  addDays,
  Exact,
  localDay,
  profitUnits,
  scaleHashrate,
  scaleProfit,
  unitsToAmount,
} from '@lodestone/domain';
import { type MiningContext, readMiningSummary, readMiningWorkers } from '../mining.js';
import { STALE_AFTER_MS } from '../poolStats.js';
import { type EarningDay, readEarningDays } from '../revenue/earnings.js';
import { readAccountPayouts } from '../revenue/payouts.js';
import { coinPrices } from './profits.js';

/**
 * The public API (docs/public-api.md, "The public API"): the pool per algorithm, and one account's
 * data by its read-only API key. The figures are the website's own, from the same services: the home
 * page's pool statistics and the dashboard's mining and revenue reads.
 */

// ── pool fees ───────────────────────────────────────────────────────────────────────────────────

/**
 * GET /pool/fees: the pool fee as a fraction per payout coin (catalogue order, coins whose payouts
 * are enabled). FEE_PERCENT is charged on every credit whatever the coin or algorithm.
 */
export function presentPoolFees(catalogue: readonly Coin[], feePercent: number | string): PoolFeesResponse {
  const fee = Exact.of(feePercent).dividedBy(100, 10).toNumber();
  return { pools: Object.fromEntries(catalogue.filter((c) => c.payouts_enabled).map((c) => [c.ticker, { fee }])) };
}

export async function readPoolFees(db: Executor, feePercent: number | string): Promise<PoolFeesResponse> {
  return presentPoolFees(await listCoins(db), feePercent);
}

// ── /api/pool ───────────────────────────────────────────────────────────────────────────────────

/** One algorithm of /api/pool (pure): like the home page's row, stale hashrate and miners read 0. */
export function presentApiAlgorithm(
  algorithm: Algorithm,
  row: PoolStats | undefined,
  feePercent: number,
  now: Date,
): PublicApiAlgorithm {
  const fresh = row !== undefined && now.getTime() - row.taken_at.getTime() <= STALE_AFTER_MS;
  const hashrate = scaleHashrate(fresh ? row.hashrate : '0');
  const exponent = algorithm.profitUnitExponent;
  const rate = scaleProfit(row?.profit ?? '0', exponent).value;
  const units = profitUnits(exponent);
  return {
    // Three decimals of its unit, as the earnings' speed: 524.255 Mh/s, not 524.2549327909355.
    hashrate: Math.round(hashrate.value * 1000) / 1000,
    speedUnits: hashrate.units,
    BTCpayRate: rate,
    // Every port pays the same PPS rate per share difficulty; the high-speed (marketplace) port too.
    BTCpayRateSpeedPort: rate,
    BTCaveragePayRate: scaleProfit(row?.profit_avg_24h ?? '0', exponent).value,
    payRateUnits: units.slice(units.indexOf('/') + 1),
    miners: fresh ? row.miners : 0,
    fee: feePercent,
    blocks: row?.blocks ?? 0,
  };
}

/** Ticker → US dollars per coin, catalogue coins with a recorded price (pure). */
export function priceMap(catalogue: readonly Coin[], prices: ReadonlyMap<string, PriceRow>): Record<string, number> {
  return Object.fromEntries(coinPrices(catalogue, prices).map((p) => [p.ticker, p.price]));
}

export async function readApiPool(db: Executor, feePercent: number, now: Date): Promise<PublicApiPoolResponse> {
  const [rows, catalogue, prices] = await Promise.all([latestPoolStats(db), listCoins(db), latestPrices(db)]);
  const byAlgorithm = new Map(rows.map((r) => [r.algorithm, r]));
  return {
    algorithms: Object.fromEntries(
      ALGORITHMS.map((a) => [a.key, presentApiAlgorithm(a, byAlgorithm.get(a.key), feePercent, now)]),
    ) as PublicApiPoolResponse['algorithms'],
    prices: priceMap(catalogue, prices),
  };
}

// ── /api/user ───────────────────────────────────────────────────────────────────────────────────

/** One earning day of /api/user (pure): its coins valued at the newest prices, cut to cents. */
export function presentApiEarning(
  algorithm: Algorithm,
  day: EarningDay,
  prices: ReadonlyMap<string, PriceRow>,
): NonNullable<PublicApiUserResponse['earnings']>[number] {
  let usd = Exact.ZERO;
  for (const c of day.coins) {
    const price = prices.get(c.ticker);
    if (price) usd = usd.plus(Exact.fromUnits(c.units, c.decimals).times(price.usd));
  }
  const speed = scaleHashrate(day.hashrate);
  return {
    earning_timestamp: day.day,
    algorithm: algorithm.key,
    usd_value: Number(usd.toFixed(2)),
    speed: Math.round(speed.value * 1000) / 1000,
    speed_units: speed.units,
    coins: day.coins.map((c) => ({
      coin_id: c.ticker,
      coin_ticker: c.ticker,
      coin_balance: c.units.toString(),
      coin_decimals: c.decimals,
    })),
  };
}

/**
 * GET /api/user: the account of an API key. Per algorithm the dashboard's summary cards and workers;
 * the balances (every coin the account holds or held, catalogue order); the newest payments (one
 * per payout and address, UTC); the earnings of the last PUBLIC_API_EARNINGS_DAYS UTC days, newest
 * first, one record per day and algorithm.
 */
export async function readApiUser(
  mining: MiningContext,
  account: Account,
  /** What the key shows (docs/dashboard.md, "Watcher links"): the account's own API key shows everything. */
  scope: WatcherScope = 'payouts',
): Promise<PublicApiUserResponse> {
  const { db } = mining;
  const now = mining.now();
  const [catalogue, balances, prices, payouts] = await Promise.all([
    listCoins(db),
    balancesOfAccount(db, account.id),
    latestPrices(db),
    readAccountPayouts(db, account, 'UTC', { limit: PUBLIC_API_PAYMENTS_LIMIT }),
  ]);
  const coins = new Map(catalogue.map((c) => [c.ticker, c]));
  const amounts = new Map(balances.map((b) => [b.coin, b.amount]));

  const firstDay = addDays(localDay(now, 'UTC'), -(PUBLIC_API_EARNINGS_DAYS - 1));
  const perAlgorithm = await Promise.all(
    ALGORITHMS.map(async (algorithm) => {
      const [summary, workers, days] = await Promise.all([
        readMiningSummary(mining, account, algorithm.key),
        readMiningWorkers(mining, account, algorithm.key),
        readEarningDays(db, account, {
          algorithm: algorithm.key,
          timeZone: 'UTC',
          now,
          hashesPerDifficulty: mining.hashesPerDifficulty,
          firstDay,
        }),
      ]);
      return {
        algorithm,
        summary,
        workers: workers.map(({ id: _id, ...worker }) => ({ algorithm: algorithm.key, ...worker })),
        earnings: days.map((day) => presentApiEarning(algorithm, day, prices)),
      };
    }),
  );
  // Newest day first; within a day, the algorithms' fixed order (docs/website.md, "Figures") (the sort is stable).
  const earnings = perAlgorithm
    .flatMap((a) => a.earnings)
    .sort((a, b) =>
      a.earning_timestamp === b.earning_timestamp ? 0 : a.earning_timestamp < b.earning_timestamp ? 1 : -1,
    );

  const revenue = scope !== 'mining';
  return {
    username: account.username,
    hashrate: Object.fromEntries(
      perAlgorithm.map((a) => [a.algorithm.key, a.summary]),
    ) as PublicApiUserResponse['hashrate'],
    workers: perAlgorithm.flatMap((a) => a.workers),
    ...(revenue && { balances: balancesOf(catalogue, amounts), earnings }),
    ...(scope === 'payouts' && { payments: payouts.map((p) => presentPayment(p, coins)) }),
  };
}

function balancesOf(catalogue: readonly Coin[], amounts: ReadonlyMap<string, bigint>) {
  return catalogue.flatMap((coin) => {
    const amount = amounts.get(coin.ticker);
    return amount === undefined
      ? []
      : [{ coin: coin.name, coinTicker: coin.ticker, balance: unitsToAmount(amount, coin.decimals) }];
  });
}

function presentPayment(p: AccountPayoutRecord, coins: ReadonlyMap<string, Coin>) {
  const date = new Date(p.payout_date);
  return {
    address: p.payout_address,
    value: unitsToAmount(BigInt(p.coin_balance), p.coin_decimals),
    txID: p.payout_txid,
    ticker: p.coin_ticker,
    coin: coins.get(p.coin_ticker)?.name ?? p.coin_ticker,
    date: date.toISOString(),
    timestamp: Math.floor(date.getTime() / 1000),
  };
}
