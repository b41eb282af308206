import {
  type ChartResponse,
  type ComparisonRow,
  type PoolProfitsResponse,
  PROFIT_PERIODS,
  type ProfitPeriod,
  type PublicApiProfits,
  type PublicApiProfitsResponse,
  profitChartLabel,
  type TickerPrice,
} from '@lodestone/contract';
import {
  type Coin,
  type Executor,
  firstPoolSnapshotAt,
  latestPrices,
  listCoins,
  type PoolComparison,
  type PriceRow,
  type ProfitHour,
  poolComparisons,
  profitHours,
} from '@lodestone/db';
import {
  type Algorithm,
  addDays,
  daysBetween,
  decimalToNumber,
  Exact,
  hashrateUnit,
  localDay,
  profitUnits,
  scaleProfit,
} from '@lodestone/domain';
import { dayHourLabel, hourLabel } from '../chartPeriods.js';

/**
 * The Profitability page and the public API's profits (docs/public-api.md, "Profitability"): our
 * mean PPS rate over the last 24 hours, 7 days and 30 days, compared with the figures other pools
 * publish (the operator's `pool_comparisons` rows), the calculator's units and prices, and the
 * average-profit chart. Everything is computed from one read per algorithm: our rate per UTC hour
 * over the last 30 days (packages/db profitHours).
 */

const HOUR_MS = 3_600_000;

/**
 * Each period is N UTC hours: the current hour so far and the N − 1 hours before it (24h: from 13:00
 * yesterday when it is 12:30). The 24-hour chart shows exactly these hours.
 */
export const PERIOD_HOURS: Record<ProfitPeriod, number> = { '24h': 24, '7d': 7 * 24, '30d': 30 * 24 };
/** The 7-day chart's points are this many hours wide (42 points), aligned on UTC. */
export const WEEK_CHART_BUCKET_HOURS = 4;
/** Exact means keep this many decimals of BTC per H/s per day (rates are about 1e-17). */
const MEAN_DECIMALS = 40;

/** Powers of ten of the hashrate units other pools publish their figures per. */
export const HASHRATE_UNIT_EXPONENTS: Readonly<Record<string, number>> = {
  'H/s': 0,
  'KH/s': 3,
  'MH/s': 6,
  'GH/s': 9,
  'TH/s': 12,
  'PH/s': 15,
  'EH/s': 18,
};

/** Our rate per UTC hour over the longest period, read at `now`. */
export interface ProfitHistory {
  now: Date;
  hours: ProfitHour[];
  /** When the pool first knew a rate of the algorithm (null: never): where the chart starts. */
  firstRate: Date | null;
}

function currentHourStart(now: Date): number {
  return Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
}

/** Where a period starts at `now`: the start of its first hour. */
export function periodStart(now: Date, period: ProfitPeriod): Date {
  return new Date(currentHourStart(now) - (PERIOD_HOURS[period] - 1) * HOUR_MS);
}

/**
 * Reads what every profitability answer of one algorithm is computed from: the 30-day period and the
 * day before it, so the 30-day chart's oldest calendar day is whole in any time zone.
 */
export async function readProfitHistory(db: Executor, algorithm: Algorithm, now: Date): Promise<ProfitHistory> {
  const from = new Date(periodStart(now, '30d').getTime() - 24 * HOUR_MS);
  const [hours, firstRate] = await Promise.all([
    profitHours(db, algorithm.key, from, new Date(now.getTime() + 1)),
    firstPoolSnapshotAt(db, algorithm.key, { withRate: true }),
  ]);
  return { now, hours, firstRate };
}

// ── pure parts ──────────────────────────────────────────────────────────────────────────────────

/** Mean of the snapshots in the hours starting at or after `from` (BTC per H/s per day); undefined when none. */
export function meanSince(hours: readonly ProfitHour[], from: Date): Exact | undefined {
  let sum = Exact.ZERO;
  let count = 0;
  for (const h of hours) {
    if (h.hour.getTime() < from.getTime()) continue;
    sum = sum.plus(h.sum);
    count += h.count;
  }
  return count > 0 ? sum.dividedBy(count, MEAN_DECIMALS) : undefined;
}

/** Our mean rate per period, per H/s (undefined where the rate was never known in the period). */
export function periodMeans(history: ProfitHistory): Record<ProfitPeriod, Exact | undefined> {
  return Object.fromEntries(
    PROFIT_PERIODS.map((p) => [p, meanSince(history.hours, periodStart(history.now, p))]),
  ) as Record<ProfitPeriod, Exact | undefined>;
}

/** A per-H/s rate in the algorithm's unit (BTC per day per TH/s), for display. */
function inUnit(perHash: Exact, exponent: number): number {
  return scaleProfit(perHash.toString(), exponent).value;
}

/**
 * The percent difference of `theirs` from `ours`: (theirs − ours) ÷ ours × 100, rounded half away
 * from zero to 0.1 on exact decimals (so the arrow the website draws agrees with the digit it shows).
 * Null when we have no rate to compare with.
 */
export function percentDifference(theirs: Exact, ours: Exact | undefined): number | null {
  if (!ours || ours.isZero()) return null;
  const hundredths = theirs.minus(ours).times(10_000).dividedBy(ours, 0).floor();
  const negative = hundredths < 0n;
  const tenths = ((negative ? -hundredths : hundredths) + 5n) / 10n;
  if (tenths === 0n) return 0;
  return Number(negative ? -tenths : tenths) / 10;
}

/** Another pool's figure for a period as BTC per H/s per day, or undefined when it has none. */
export function comparisonRate(row: PoolComparison, period: ProfitPeriod): Exact | undefined {
  const value = period === '24h' ? row.profit24h : period === '7d' ? row.profit7d : row.profit30d;
  const exponent = HASHRATE_UNIT_EXPONENTS[row.hashrateUnit];
  if (value === null || exponent === undefined) return undefined;
  return Exact.of(value).shifted(-exponent);
}

export interface OwnPool {
  name: string;
  url: string;
}

/**
 * One period's comparison table: our row and every other pool with a figure for the period, most
 * profitable first (our row first among equals). Figures are in the algorithm's unit.
 */
export function comparisonTable(input: {
  algorithm: Algorithm;
  period: ProfitPeriod;
  ours: Exact | undefined;
  own: OwnPool;
  others: readonly PoolComparison[];
}): ComparisonRow[] {
  const exponent = input.algorithm.profitUnitExponent;
  const units = profitUnits(exponent);
  const rows: { rate: Exact; own: boolean; row: ComparisonRow }[] = [];
  const ours = input.ours ?? Exact.ZERO;
  rows.push({
    rate: ours,
    own: true,
    row: [input.own.name, input.own.url, inUnit(ours, exponent), units, percentDifference(ours, input.ours)],
  });
  for (const other of input.others) {
    const rate = comparisonRate(other, input.period);
    if (!rate) continue;
    rows.push({
      rate,
      own: false,
      row: [other.poolName, other.poolUrl, inUnit(rate, exponent), units, percentDifference(rate, input.ours)],
    });
  }
  rows.sort((a, b) => b.rate.compare(a.rate) || (a.own ? -1 : b.own ? 1 : 0));
  return rows.map((r) => r.row);
}

/** Catalogue coins with a recorded price, in catalogue order (US dollars per coin). */
export function coinPrices(catalogue: readonly Coin[], prices: ReadonlyMap<string, PriceRow>): TickerPrice[] {
  return catalogue.flatMap((coin) => {
    const price = prices.get(coin.ticker);
    return price ? [{ ticker: coin.ticker, price: decimalToNumber(price.usd) }] : [];
  });
}

/** The profitability answer of one algorithm (pure). */
export function presentPoolProfits(input: {
  algorithm: Algorithm;
  history: ProfitHistory;
  own: OwnPool;
  others: readonly PoolComparison[];
  catalogue: readonly Coin[];
  prices: ReadonlyMap<string, PriceRow>;
}): PoolProfitsResponse {
  const { algorithm } = input;
  const exponent = algorithm.profitUnitExponent;
  const means = periodMeans(input.history);
  const table = (period: ProfitPeriod) =>
    comparisonTable({ algorithm, period, ours: means[period], own: input.own, others: input.others });
  const rateUnits = profitUnits(exponent);
  const eur = input.prices.get('EUR');
  return {
    profit_table_24h: table('24h'),
    profit_table_7d: table('7d'),
    profit_table_30d: table('30d'),
    // The Hash Rate field starts in the unit machines of the algorithm report; the miner may pick another.
    calculator_units_factor: algorithm.machineUnitExponent,
    profit_rate_units_factor: exponent,
    calculator_units: hashrateUnit(algorithm.machineUnitExponent),
    profit_rate_units: rateUnits,
    prices: coinPrices(input.catalogue, input.prices),
    fiat_prices: eur ? { USD: 1, EUR: decimalToNumber(eur.usd) } : { USD: 1 },
    profit_24h: inUnit(means['24h'] ?? Exact.ZERO, exponent),
  };
}

/** The public API's profits of one algorithm (pure). */
export function presentApiProfits(input: {
  algorithm: Algorithm;
  history: ProfitHistory;
  own: OwnPool;
  others: readonly PoolComparison[];
}): PublicApiProfits {
  const { algorithm } = input;
  const exponent = algorithm.profitUnitExponent;
  const means = periodMeans(input.history);
  const table = (period: ProfitPeriod) =>
    comparisonTable({ algorithm, period, ours: means[period], own: input.own, others: input.others });
  return {
    profit_24h: inUnit(means['24h'] ?? Exact.ZERO, exponent),
    profit_7d: inUnit(means['7d'] ?? Exact.ZERO, exponent),
    profit_30d: inUnit(means['30d'] ?? Exact.ZERO, exponent),
    profit_units: profitUnits(exponent),
    comparison_24h: table('24h'),
    comparison_7d: table('7d'),
    comparison_30d: table('30d'),
  };
}

// ── the chart ───────────────────────────────────────────────────────────────────────────────────

interface Bucket {
  label: string;
  sum: Exact;
  count: number;
}

/** Ten significant digits are plenty for a line chart and keep the JSON short. */
function chartValue(perHash: Exact | undefined, exponent: number): number {
  if (!perHash) return 0;
  return Number(inUnit(perHash, exponent).toPrecision(10));
}

/**
 * The average-profit chart (pure): 24h → one point per UTC hour (24, the last one the current hour)
 * labelled HH:mm; 7d → 4-hour points on UTC (42) labelled MM-DD HH:mm; 30d → one point per calendar
 * day of `timeZone` (30, today the last) labelled YYYY-MM-DD, an hour counting on the day it starts.
 * A point's value is the mean of our snapshots in it, in the algorithm's unit; 0 without any. Points
 * before the one the pool's first known rate counts in are left out, none at all before any rate
 * (docs/decisions.md, Charts start at the first record).
 */
export function presentProfitChart(
  algorithm: Algorithm,
  history: ProfitHistory,
  period: ProfitPeriod,
  timeZone: string,
): ChartResponse {
  const current = currentHourStart(history.now);
  const buckets: Bucket[] = [];
  let bucketOf: (hour: Date) => number;
  // The first point shown: the one the hour of the first rate counts in (0 when it is older than the chart).
  let firstShown: (hour: Date) => number;
  if (period === '30d') {
    const today = localDay(history.now, timeZone);
    const days = daysBetween(addDays(today, -29), today);
    const index = new Map(days.map((d, i) => [d, i]));
    for (const day of days) buckets.push({ label: day, sum: Exact.ZERO, count: 0 });
    bucketOf = (hour) => index.get(localDay(hour, timeZone)) ?? -1;
    firstShown = (hour) => {
      const day = localDay(hour, timeZone);
      const i = days.findIndex((d) => d >= day);
      return i === -1 ? days.length : i;
    };
  } else {
    const width = (period === '24h' ? 1 : WEEK_CHART_BUCKET_HOURS) * HOUR_MS;
    const points = period === '24h' ? PERIOD_HOURS['24h'] : PERIOD_HOURS['7d'] / WEEK_CHART_BUCKET_HOURS;
    const last = Math.floor(current / width) * width;
    const first = last - (points - 1) * width;
    const label = period === '24h' ? hourLabel : dayHourLabel;
    for (let i = 0; i < points; i++) {
      buckets.push({ label: label(new Date(first + i * width), timeZone), sum: Exact.ZERO, count: 0 });
    }
    bucketOf = (hour) => {
      const i = Math.floor((hour.getTime() - first) / width);
      return i >= 0 && i < points ? i : -1;
    };
    firstShown = (hour) => Math.min(points, Math.max(0, Math.floor((hour.getTime() - first) / width)));
  }
  for (const h of history.hours) {
    const bucket = buckets[bucketOf(h.hour)];
    if (!bucket) continue;
    bucket.sum = bucket.sum.plus(h.sum);
    bucket.count += h.count;
  }
  const exponent = algorithm.profitUnitExponent;
  const firstRate = history.firstRate;
  const shown = firstRate === null ? [] : buckets.slice(firstShown(new Date(currentHourStart(firstRate))));
  return {
    x_axis: shown.map((b) => b.label),
    y_axis: shown.map((b) => chartValue(b.count > 0 ? b.sum.dividedBy(b.count, MEAN_DECIMALS) : undefined, exponent)),
    label: profitChartLabel(profitUnits(exponent)),
  };
}

// ── reads ───────────────────────────────────────────────────────────────────────────────────────

export interface ProfitsContext {
  db: Executor;
  own: OwnPool;
  /** The profit history of an algorithm, cached by the caller (routes keep it a minute). */
  history(algorithm: Algorithm): Promise<ProfitHistory>;
}

/** GET /pool/profits/{algorithm}. */
export async function readPoolProfits(ctx: ProfitsContext, algorithm: Algorithm): Promise<PoolProfitsResponse> {
  const [history, others, catalogue, prices] = await Promise.all([
    ctx.history(algorithm),
    poolComparisons(ctx.db, algorithm.key),
    listCoins(ctx.db),
    latestPrices(ctx.db),
  ]);
  return presentPoolProfits({ algorithm, history, own: ctx.own, others, catalogue, prices });
}

/** The public API's profits of every algorithm, in the algorithms' fixed order (docs/website.md, "Figures"). */
export async function readApiProfits(
  ctx: ProfitsContext,
  algorithms: readonly Algorithm[],
): Promise<PublicApiProfitsResponse['algorithms']> {
  const others = await poolComparisons(ctx.db);
  const out: Partial<Record<Algorithm['key'], PublicApiProfits>> = {};
  for (const algorithm of algorithms) {
    const history = await ctx.history(algorithm);
    const mine = others.filter((o) => o.algorithm === algorithm.key);
    out[algorithm.key] = presentApiProfits({ algorithm, history, own: ctx.own, others: mine });
  }
  return out as PublicApiProfitsResponse['algorithms'];
}
