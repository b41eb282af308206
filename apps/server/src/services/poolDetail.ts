import type { AlgorithmStatsResponse, ChartResponse } from '@lodestone/contract';
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
  estimateHashrate,
  hashesFromDifficulty,
  scaleHashCount,
  scaleHashrate,
  scaleProfit,
  shiftDecimal,
  statsWindow,
} from '@lodestone/domain';
import { readChainNetworks } from './blocks.js';
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

/** The hashrate chart covers the last 24 hours in 30-minute points. */
export const CHART_BUCKET_MINUTES = 30;
export const CHART_POINTS = 48;

export interface HashrateSeries {
  /** Start of each bucket, oldest first; the last one is the bucket `now` is in. */
  starts: Date[];
  /** Mean pool hashrate (H/s) of the snapshots in each bucket; '0' where there were none. */
  hashrates: string[];
}

/**
 * The series from the bucket its first record (`first`) falls in (docs/decisions.md, Charts start at the first
 * record): buckets before it are left out, since nothing was there to measure, while a bucket after it without
 * data keeps its 0 (an outage is a real zero). No record at all (`first` null): no points.
 */
export function fromFirstRecord(series: HashrateSeries, first: Date | null): HashrateSeries {
  const bucketMs = CHART_BUCKET_MINUTES * 60_000;
  const from =
    first === null ? series.starts.length : series.starts.findIndex((s) => s.getTime() + bucketMs > first.getTime());
  const keep = from === -1 ? series.starts.length : from;
  return { starts: series.starts.slice(keep), hashrates: series.hashrates.slice(keep) };
}

/**
 * The pool hashrate of one algorithm over the last 24 hours: CHART_POINTS buckets of
 * CHART_BUCKET_MINUTES aligned on UTC (and so on every zone's half hours), the last one being the
 * bucket that contains `now`, from the bucket of the algorithm's first snapshot when that is newer. A
 * bucket's value is the mean of the rollup snapshots in it; a bucket without snapshots (the rollup was
 * not running) reads 0, as the pool table does for stale data.
 */
export async function readHashrateSeries(
  db: Executor,
  algorithm: AlgorithmKey,
  now = new Date(),
): Promise<HashrateSeries> {
  const bucketMs = CHART_BUCKET_MINUTES * 60_000;
  const last = Math.floor(now.getTime() / bucketMs) * bucketMs;
  const first = last - (CHART_POINTS - 1) * bucketMs;
  const [rows, firstSnapshot] = await Promise.all([
    hashrateBuckets(db, algorithm, new Date(first), new Date(last + bucketMs), bucketMs / 1000),
    firstPoolSnapshotAt(db, algorithm),
  ]);
  const byStart = new Map(rows.map((r) => [r.start.getTime(), r.hashrate]));
  const starts = Array.from({ length: CHART_POINTS }, (_, i) => new Date(first + i * bucketMs));
  return fromFirstRecord({ starts, hashrates: starts.map((s) => byStart.get(s.getTime()) ?? '0') }, firstSnapshot);
}

/**
 * The chart answer: x labels are the buckets' start times as HH:mm in `timeZone` (an IANA name the
 * caller has checked), y values all in the one unit that suits the largest point, named in the label.
 */
export function presentHashrateChart(series: HashrateSeries, timeZone: string): ChartResponse {
  const unit = scaleHashrate(largest(series.hashrates));
  const clock = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return {
    x_axis: series.starts.map((s) => clock.format(s)),
    y_axis: series.hashrates.map((h) => Math.round(inUnit(h, unit.exponent) * 1000) / 1000),
    label: `Hashrate (${unit.units})`,
  };
}
