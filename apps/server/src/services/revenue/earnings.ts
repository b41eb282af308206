import {
  type ChartPeriod,
  type ChartResponse,
  EARNINGS_DAYS,
  type EarningRecord,
  type LifetimeEarningsResponse,
  REVENUE_CHART_LABEL,
} from '@lodestone/contract';
import {
  type Account,
  accountDifficultyByDay,
  type Coin,
  type DailyEarning,
  dailyEarnings,
  type Executor,
  earningsByPoint,
  firstEarningAt,
  latestPrices,
  lifetimeEarnings,
  listCoins,
  type PriceRow,
} from '@lodestone/db';
import {
  type AlgorithmKey,
  addDays,
  Exact,
  estimateHashrate,
  localDay,
  scaleHashrate,
  startOfLocalDay,
  unitsToAmount,
} from '@lodestone/domain';
import { bucketOf, chartBuckets, firstShownIndex, HOURLY_POINTS } from '../chartPeriods.js';
import type { HashesPerDifficulty } from '../hashesPerDifficulty.js';

export interface DayCoin {
  ticker: string;
  decimals: number;
  /** Smallest units earned. */
  units: bigint;
  /** Of them, known to be transaction fees (docs/money.md, "FPPS"); absent when none is. */
  feeUnits?: bigint;
}

/** One calendar day of an account on one algorithm: what it earned and how fast it mined. */
export interface EarningDay {
  /** 'YYYY-MM-DD' in the asked time zone. */
  day: string;
  /** Average hashrate over the day (today: the part of it that has passed), H/s, decimal text. */
  hashrate: string;
  /** In catalogue order; empty on a day with shares but no credit. */
  coins: DayCoin[];
}

export interface EarningsOptions {
  algorithm: AlgorithmKey;
  timeZone: string;
  now: Date;
  hashesPerDifficulty: HashesPerDifficulty;
  /** The oldest day to include; without it, the account's whole history. */
  firstDay?: string;
}

/** Earliest instant any history can have; "the whole history" starts here. */
const BEGINNING = new Date(0);

/**
 * Pure: daily ledger sums (any coin order) → per day, the coins in catalogue order. Coins outside the
 * catalogue cannot be in the ledger (a foreign key), so nothing is dropped in practice.
 */
export function coinsByDay(earnings: readonly DailyEarning[], catalogue: readonly Coin[]): Map<string, DayCoin[]> {
  const position = new Map(catalogue.map((c, i) => [c.ticker, i]));
  const byTicker = new Map(catalogue.map((c) => [c.ticker, c]));
  const out = new Map<string, DayCoin[]>();
  for (const e of earnings) {
    const coin = byTicker.get(e.coin);
    if (!coin || e.amount === 0n) continue;
    const list = out.get(e.day) ?? [];
    list.push({
      ticker: coin.ticker,
      decimals: coin.decimals,
      units: e.amount,
      ...(e.fees !== undefined && { feeUnits: e.fees }),
    });
    out.set(e.day, list);
  }
  for (const list of out.values()) list.sort((a, b) => (position.get(a.ticker) ?? 0) - (position.get(b.ticker) ?? 0));
  return out;
}

/**
 * The account's days on one algorithm, newest first: every day with earnings or accepted shares from
 * `firstDay` (or the beginning) to today in the zone. Earnings are the ledger's credits of that
 * algorithm's shares (PPS, referral rewards and redirects received, the same legs lifetime earnings
 * add up); the hashrate is Σ accepted difficulty × hashes per difficulty 1 ÷ the day's length —
 * 23 or 25 hours on a clock-change day, and for today only the time that has passed. Difficulty is
 * read from the half-hour rollups, so in the few zones on a quarter hour (Nepal, Chatham) a half
 * hour counts on the day it starts.
 */
export async function readEarningDays(db: Executor, account: Account, options: EarningsOptions): Promise<EarningDay[]> {
  const { timeZone, now } = options;
  const today = localDay(now, timeZone);
  const from = options.firstDay ? startOfLocalDay(options.firstDay, timeZone) : BEGINNING;
  const to = startOfLocalDay(addDays(today, 1), timeZone);
  const [catalogue, earnings, difficulty] = await Promise.all([
    listCoins(db),
    dailyEarnings(db, account.id, { from, to, timeZone, algorithm: options.algorithm }),
    // From the worker rollups (minute rows are kept two days only); the account's removed workers count.
    accountDifficultyByDay(db, { account: account.username, algorithm: options.algorithm, from, to, timeZone }),
  ]);
  const coins = coinsByDay(earnings, catalogue);
  const shares = new Map(difficulty.map((d) => [d.day, d.acceptedDifficulty]));
  const days = [...new Set([...coins.keys(), ...shares.keys()])].sort().reverse();
  const perDifficulty = options.hashesPerDifficulty(options.algorithm);
  return days.map((day) => {
    const sum = shares.get(day);
    let hashrate = '0';
    if (sum !== undefined) {
      const start = startOfLocalDay(day, timeZone).getTime();
      const end = Math.min(startOfLocalDay(addDays(day, 1), timeZone).getTime(), now.getTime());
      // At least a second: shares of the very first instant of today still give a finite rate.
      const seconds = Math.max(1, Math.floor((end - start) / 1000));
      hashrate = estimateHashrate(sum, perDifficulty, seconds);
    }
    return { day, hashrate, coins: coins.get(day) ?? [] };
  });
}

/** Pure: one day as an earning record; the speed in the unit that suits it (2.5 Mh/s), 3 decimals. */
export function presentEarningDay(day: EarningDay): EarningRecord {
  const speed = scaleHashrate(day.hashrate);
  return {
    earning_timestamp: day.day,
    speed: Math.round(speed.value * 1000) / 1000,
    speed_units: speed.units,
    coins: day.coins.map((c) => ({
      coin_balance: c.units.toString(),
      coin_decimals: c.decimals,
      coin_ticker: c.ticker,
      ...(c.feeUnits !== undefined && { coin_fees: c.feeUnits.toString() }),
    })),
  };
}

/** GET revenue/earnings: the last EARNINGS_DAYS days (today included) with earnings or shares. */
export async function readEarnings(
  db: Executor,
  account: Account,
  options: Omit<EarningsOptions, 'firstDay'>,
): Promise<EarningRecord[]> {
  const firstDay = addDays(localDay(options.now, options.timeZone), -(EARNINGS_DAYS - 1));
  return (await readEarningDays(db, account, { ...options, firstDay })).map(presentEarningDay);
}

/** GET revenue/lifetimeearnings: ticker → coin amount ever earned on the algorithm, catalogue order. */
export async function readLifetimeEarnings(
  db: Executor,
  account: Account,
  algorithm: AlgorithmKey,
): Promise<LifetimeEarningsResponse> {
  const [catalogue, totals] = await Promise.all([listCoins(db), lifetimeEarnings(db, account.id, algorithm)]);
  const out: LifetimeEarningsResponse = {};
  for (const coin of catalogue) {
    const units = totals.get(coin.ticker) ?? 0n;
    if (units > 0n) out[coin.ticker] = unitsToAmount(units, coin.decimals);
  }
  return out;
}

/**
 * Pure: the revenue chart — one point per day (oldest first), the day's earnings in every coin
 * valued in US dollars at the coins' newest prices and cut to cents. A coin without any recorded
 * price adds nothing (its value is unknown, not zero, but a chart cannot show "unknown").
 */
export function revenueChart(
  days: readonly string[],
  coins: ReadonlyMap<string, DayCoin[]>,
  prices: ReadonlyMap<string, PriceRow>,
): ChartResponse {
  return {
    x_axis: [...days],
    y_axis: days.map((day) => {
      let usd = Exact.ZERO;
      for (const c of coins.get(day) ?? []) {
        const price = prices.get(c.ticker);
        if (price) usd = usd.plus(Exact.fromUnits(c.units, c.decimals).times(price.usd));
      }
      return Number(usd.toFixed(2));
    }),
    label: REVENUE_CHART_LABEL,
  };
}

/**
 * GET revenue/chart: what the algorithm's shares earned per point over `period` (24 hours in hours,
 * 7 days in 4-hour points, 30 days in the zone's calendar days; docs/dashboard.md, "Chart ranges"),
 * valued at current prices — "what is my mining worth now", which is what a miner comparing days
 * wants; the price of each past day would mix market moves into the comparison. The points start at
 * the one of the account's first earning from the algorithm when that is newer (docs/decisions.md,
 * Charts start at the first record): none before it.
 */
export async function readRevenueChart(
  db: Executor,
  account: Account,
  options: { algorithm: AlgorithmKey; timeZone: string; now: Date; period: ChartPeriod },
): Promise<ChartResponse> {
  const buckets = chartBuckets(options.period, options.now, options.timeZone, HOURLY_POINTS);
  const from = buckets.starts[0] as Date;
  const to = buckets.ends.at(-1) as Date;
  const earnings: Promise<DailyEarning[]> =
    options.period === '30d'
      ? dailyEarnings(db, account.id, { from, to, timeZone: options.timeZone, algorithm: options.algorithm })
      : earningsByPoint(db, account.id, {
          from,
          to,
          seconds: (to.getTime() - (buckets.starts.at(-1) as Date).getTime()) / 1000,
          algorithm: options.algorithm,
        }).then((rows) =>
          rows.map((r) => ({ day: buckets.labels[bucketOf(buckets, r.start)] ?? '', coin: r.coin, amount: r.amount })),
        );
  const [catalogue, earned, prices, firstEarning] = await Promise.all([
    listCoins(db),
    earnings,
    latestPrices(db),
    firstEarningAt(db, account.id, options.algorithm),
  ]);
  const labels = buckets.labels.slice(firstShownIndex(buckets, firstEarning));
  return revenueChart(labels, coinsByDay(earned, catalogue), prices);
}
