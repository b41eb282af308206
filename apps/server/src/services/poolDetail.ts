import type { AlgorithmStatsResponse, ChartPeriod, ChartResponse } from '@lodestone/contract';
import { TOP_HASHERS_LIMIT } from '@lodestone/contract';
import {
  type Executor,
  firstPoolSnapshotAt,
  hashrateBuckets,
  latestPoolStats,
  publicAccountNames,
  topAllTimeAccounts,
  topWindowAccounts,
} from '@lodestone/db';
import {
  type Algorithm,
  type AlgorithmKey,
  algorithmByKey,
  type DecimalInput,
  decimalToNumber,
  Exact,
  estimateHashrate,
  hashesFromDifficulty,
  scaleHashCount,
  scaleHashrate,
  scaleProfit,
  shiftDecimal,
  statsWindow,
  sumDecimals,
} from '@lodestone/domain';
import { readChainNetworks } from './blocks.js';
import { bucketOf, chartBuckets, firstShownIndex, HALF_HOURLY_POINTS } from './chartPeriods.js';
import type { HashesPerDifficulty } from './hashesPerDifficulty.js';
import { STALE_AFTER_MS } from './poolStats.js';

/** `scrypt`, `SCRYPT`, `Scrypt` → the algorithm; anything else → undefined. */
export function findAlgorithm(param: string): Algorithm | undefined {
  return algorithmByKey(param.toLowerCase());
}

/**
 * How an anonymous account appears in public lists: its first two characters and three stars, so a
 * miner can still recognise their own row and nobody else learns the name.
 */
export function maskAccountName(name: string): string {
  return `${[...name].slice(0, 2).join('')}***`;
}

/** A base-unit decimal in the unit 10^exponent, as a number for display. */
function inUnit(value: DecimalInput, exponent: number): number {
  return decimalToNumber(shiftDecimal(value, -exponent));
}

function largest(values: readonly string[]): string {
  return values.reduce((max, v) => (decimalToNumber(v) > decimalToNumber(max) ? v : max), '0');
}

export interface PoolDetailOptions {
  windowMinutes: number;
  hashesPerDifficulty: HashesPerDifficulty;
}

/**
 * The stats page of one algorithm (docs/website.md, "Stats and Profitability"). Pool figures come from the newest
 * rollup snapshot — hashrate, miners and workers only while it is fresh; users, blocks and total
 * hashes are all-time and shown as last written. Top current hashers are measured over the same
 * window as the pool hashrate; all-time top hashers from the workers' running totals. Profitability
 * is 0 until the PPS rate exists (the money issue), the high-speed-port figure included.
 */
export async function readAlgorithmStats(
  db: Executor,
  algorithm: Algorithm,
  options: PoolDetailOptions,
  now = new Date(),
): Promise<AlgorithmStatsResponse> {
  const window = statsWindow(now, options.windowMinutes);
  const perDifficulty = options.hashesPerDifficulty(algorithm.key);
  const [snapshots, current, allTime, networks] = await Promise.all([
    latestPoolStats(db),
    topWindowAccounts(db, algorithm.key, window.from, window.to, TOP_HASHERS_LIMIT),
    topAllTimeAccounts(db, algorithm.key, TOP_HASHERS_LIMIT),
    readChainNetworks(db, algorithm.key, options),
  ]);
  const row = snapshots.find((r) => r.algorithm === algorithm.key);
  const fresh = row !== undefined && now.getTime() - row.taken_at.getTime() <= STALE_AFTER_MS;

  const hashrate = scaleHashrate(fresh ? row.hashrate : '0');
  const hashes = scaleHashCount(row?.total_hashes ?? '0');
  const profit = scaleProfit(row?.profit ?? '0', algorithm.profitUnitExponent);
  const profitAvg = scaleProfit(row?.profit_avg_24h ?? '0', algorithm.profitUnitExponent);

  // Names are shown only for accounts whose user chose to be public (Settings' privacy toggle).
  const shown = await publicAccountNames(db, [...current.map((c) => c.account), ...allTime.map((c) => c.account)]);
  const nameOf = (account: string) => (shown.has(account) ? account : maskAccountName(account));
  const currentRates = current.map((c) => ({
    user: nameOf(c.account),
    hashrate: estimateHashrate(c.acceptedDifficulty, perDifficulty, window.seconds),
  }));
  const rateUnit = scaleHashrate(largest(currentRates.map((c) => c.hashrate)));
  const pastHashes = allTime.map((c) => ({
    user: nameOf(c.account),
    hashes: hashesFromDifficulty(c.acceptedDifficulty, perDifficulty),
  }));
  const hashesUnit = scaleHashCount(largest(pastHashes.map((c) => c.hashes)));

  return {
    hashrate: hashrate.value,
    hashrate_units: hashrate.units,
    miners: fresh ? row.miners : 0,
    workers: fresh ? row.workers : 0,
    users: row?.users ?? 0,
    blocks: row?.blocks ?? 0,
    hashes: hashes.value,
    hashes_units: hashes.units,
    profit: profit.value,
    profit_avg: profitAvg.value,
    // Every port pays the same PPS rate per share difficulty; the high-speed (marketplace) port too.
    profit_speed: profit.value,
    profit_units: profit.units,
    top_hashrate: currentRates.map((c) => ({ user: c.user, hashrate: inUnit(c.hashrate, rateUnit.exponent) })),
    top_hashrate_units: rateUnit.units,
    top_hashers_past: pastHashes.map((c) => ({ user: c.user, hashes: inUnit(c.hashes, hashesUnit.exponent) })),
    top_hashers_past_units: hashesUnit.units,
    networks,
  };
}

/** The account and pool hashrate charts' points over 24 hours (chartPeriods.ts): 48 half hours. */
export const CHART_BUCKET_MINUTES = HALF_HOURLY_POINTS['24h'];
export const CHART_POINTS = (24 * 60) / CHART_BUCKET_MINUTES;

const HOUR_SECONDS = 3600;

/**
 * The pool hashrate of one algorithm over `period` (docs/dashboard.md, "Chart ranges"): half hours
 * over 24 hours and 4-hour points over 7 days, aligned on UTC, each the mean of the rollup snapshots in
 * it; over 30 days the zone's calendar days, each the mean of its hours' means. A point without
 * snapshots (the rollup was not running) reads 0, as the pool table does for stale data; points
 * before the one of the algorithm's first snapshot are left out (docs/decisions.md, Charts start at
 * the first record).
 */
export async function readPoolHashrateChart(
  db: Executor,
  algorithm: AlgorithmKey,
  view: { period: ChartPeriod; timeZone: string },
  now = new Date(),
): Promise<ChartResponse> {
  const buckets = chartBuckets(view.period, now, view.timeZone, HALF_HOURLY_POINTS);
  const from = buckets.starts[0] as Date;
  const to = buckets.ends.at(-1) as Date;
  const width =
    view.period === '30d' ? HOUR_SECONDS : (to.getTime() - (buckets.starts.at(-1) as Date).getTime()) / 1000;
  const [rows, firstSnapshot] = await Promise.all([
    hashrateBuckets(db, algorithm, from, to, width),
    firstPoolSnapshotAt(db, algorithm),
  ]);
  const means = buckets.starts.map((): string[] => []);
  for (const row of rows) means[bucketOf(buckets, row.start)]?.push(row.hashrate);
  const hashrates = means.map((m) => (m.length === 0 ? '0' : mean(m)));
  const shown = firstShownIndex(buckets, firstSnapshot);
  return presentHashrates(buckets.labels.slice(shown), hashrates.slice(shown));
}

/** The mean of decimal texts, to 3 decimals (hashrates in H/s). */
function mean(values: readonly string[]): string {
  return Exact.of(sumDecimals(values)).dividedBy(values.length, 3).toString();
}

/** A hashrate chart's answer: each point (H/s) in the one unit that suits the largest, named in the label. */
export function presentHashrates(labels: readonly string[], hashrates: readonly string[]): ChartResponse {
  const unit = scaleHashrate(largest(hashrates));
  return {
    x_axis: [...labels],
    y_axis: hashrates.map((h) => Math.round(inUnit(h, unit.exponent) * 1000) / 1000),
    label: `Hashrate (${unit.units})`,
  };
}
