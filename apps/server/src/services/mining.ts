import {
  type ChartPeriod,
  type ChartResponse,
  MAX_CONNECTION_EVENTS,
  type MiningSummaryResponse,
  type MiningWorker,
  type WorkerChartPeriod,
  type WorkerConnectionsResponse,
} from '@lodestone/contract';
import {
  type Account,
  accountDifficultyByHalfHour,
  accountFirstHalfHour,
  accountMiningTotals,
  accountWorkerRows,
  type DB,
  type DifficultySlot,
  type Executor,
  lockWorkerRollups,
  type MiningRange,
  miningRates,
  type RemovedWorker,
  removeWorkers,
  setWorkerLabels,
  type User,
  type WorkerSelection,
  workerConnectionsSince,
  workerOfAccount,
  workerRejectsSince,
  workersDifficultyByHour,
} from '@lodestone/db';
import {
  type AlgorithmKey,
  type DecimalInput,
  Exact,
  estimateHashrate,
  feeRate,
  hashrateFormatter,
  hashrateOf,
  MAX_WORKER_LABEL,
  measuredSeconds,
  normalizeLabel,
  statsWindow,
  sumDecimals,
  workerGroup,
  workerState,
} from '@lodestone/domain';
import type { Kysely } from 'kysely';
import type { Config } from '../config/config.js';
import {
  bucketOf,
  type ChartBuckets,
  chartBuckets,
  firstShownIndex,
  HALF_HOURLY_POINTS,
  HOURLY_POINTS,
} from './chartPeriods.js';
import { errors } from './errors.js';
import type { HashesPerDifficulty } from './hashesPerDifficulty.js';
import { CHART_BUCKET_MINUTES, presentHashrates } from './poolDetail.js';
import { logEvent } from './userLog.js';

/**
 * The Mining tab (docs/dashboard.md, "Mining API"): summary cards, hashrate chart, workers table and
 * worker removal, for one account and algorithm. Reads come from packages/db queries/mining.ts, each
 * one statement over the worker rollups; this module turns difficulty into hashrate, units and
 * dollars.
 */

export interface MiningContext {
  db: Kysely<DB>;
  now(): Date;
  /** STATS_WINDOW_MINUTES: "current" hashrate and active workers, as for the pool. */
  windowMinutes: number;
  /** FEE_PERCENT, before the account's discount. */
  feePercent: number | string;
  /** SOLO_FEE_PERCENT, before the account's discount (docs/solo.md). */
  soloFeePercent: number;
  hashesPerDifficulty: HashesPerDifficulty;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Dollars a day are divided out of H/s × BTC per H/s per day exactly; this many decimals are kept first. */
const RATE_DECIMALS = 30;

/** The mining figures' settings as configured: the dashboard and the Telegram bot's /status read with these. */
export function miningSettings(
  config: Pick<Config, 'statsWindowMinutes' | 'feePercent' | 'soloFeePercent'>,
  hashesPerDifficulty: HashesPerDifficulty,
): Omit<MiningContext, 'db' | 'now'> {
  return {
    windowMinutes: config.statsWindowMinutes,
    feePercent: config.feePercent,
    soloFeePercent: config.soloFeePercent,
    hashesPerDifficulty,
  };
}

// ── pure parts ──────────────────────────────────────────────────────────────────────────────────

export interface MiningPeriods {
  /** The statistics window (the last N complete minutes plus the current one so far). */
  window: { from: Date; minutes: number; seconds: number };
  /**
   * The 24-hour period: the last 24 complete UTC hours plus the current hour so far. Starting on an
   * hour lets it be read from the hourly rollups; like the statistics window it is divided by its
   * true length, so the average does not dip as the hour fills.
   */
  day: { from: Date; seconds: number };
  to: Date;
}

export function miningPeriods(now: Date, windowMinutes: number): MiningPeriods {
  const window = statsWindow(now, windowMinutes);
  const dayFrom = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS - DAY_MS);
  return {
    window: { from: window.from, minutes: windowMinutes, seconds: window.seconds },
    day: { from: dayFrom, seconds: (now.getTime() - dayFrom.getTime()) / 1000 },
    to: now,
  };
}

export interface RevenueInputs {
  /** Σ accepted difficulty in the statistics window, and the window's length. */
  windowDifficulty: DecimalInput;
  windowSeconds: number;
  hashesPerDifficulty: number;
  /** The PPS rate: BTC per H/s per day; undefined when the pool has not published one. */
  profit: DecimalInput | undefined;
  /** US dollars per BTC; undefined when no price was ever recorded. */
  btcUsd: DecimalInput | undefined;
  feePercent: DecimalInput;
  /** The account's fee discount, a fraction 0–1. */
  feeDiscount: DecimalInput;
}

/**
 * Estimated 24-hour revenue in US dollars: the current hashrate (exact, from the window's accepted
 * difficulty) × the PPS rate × (1 − the account's fee rate) × the BTC price, rounded down to the
 * cent (an estimate never promises more than the figures give). 0 while a rate or price is unknown:
 * never invented.
 */
export function estimatedRevenue(inputs: RevenueInputs): number {
  if (inputs.profit === undefined || inputs.btcUsd === undefined || inputs.windowSeconds <= 0) return 0;
  const keep = Exact.ONE.minus(feeRate(inputs.feePercent, inputs.feeDiscount));
  // Every product first and the one division last: dividing first would cut the hashrate to
  // RATE_DECIMALS, and an amount of exactly $142.56 would round down to $142.55.
  const usd = Exact.of(inputs.windowDifficulty)
    .times(inputs.hashesPerDifficulty)
    .times(Exact.of(inputs.profit))
    .times(keep)
    .times(Exact.of(inputs.btcUsd))
    .dividedBy(Exact.of(inputs.windowSeconds), RATE_DECIMALS);
  return Number(usd.toFixed(2));
}

/**
 * The account's hashrate chart (pure): per point, its accepted difficulty × hashes per difficulty ÷ the
 * point's length — for the point `now` is in, the part that has passed, so the newest point does not
 * dip — from the point of the account's first shares (`first`) on; all in the unit of the largest.
 */
export function accountHashrateChart(
  buckets: ChartBuckets,
  slots: readonly DifficultySlot[],
  now: Date,
  hashesPerDifficulty: number,
  first: Date | null,
): ChartResponse {
  const sums = buckets.starts.map((): string[] => []);
  for (const slot of slots) sums[bucketOf(buckets, slot.start)]?.push(slot.acceptedDifficulty);
  const hashrates = buckets.starts.map((start, i) => {
    const end = (buckets.ends[i] as Date).getTime();
    const seconds = (Math.min(end, now.getTime()) - start.getTime()) / 1000;
    const parts = sums[i] as string[];
    return parts.length === 0 || seconds <= 0
      ? '0'
      : estimateHashrate(sumDecimals(parts), hashesPerDifficulty, seconds);
  });
  const shown = firstShownIndex(buckets, first);
  return presentHashrates(buckets.labels.slice(shown), hashrates.slice(shown));
}

/**
 * When an account began mining the algorithm: its oldest worker's first share, unless its history
 * (half-hour rows, kept when workers are removed) began in an earlier half hour.
 */
export function accountStart(firstWorkerSeen: Date | null, firstHalfHour: Date | null): Date | null {
  if (firstHalfHour === null) return firstWorkerSeen;
  if (firstWorkerSeen === null) return firstHalfHour;
  const halfHourMs = CHART_BUCKET_MINUTES * 60_000;
  const workerHalfHour = Math.floor(firstWorkerSeen.getTime() / halfHourMs) * halfHourMs;
  return firstHalfHour.getTime() < workerHalfHour ? firstHalfHour : firstWorkerSeen;
}

/** A worker id from a path: a positive decimal integer that fits int8, else undefined. */
export function parseWorkerId(text: string): bigint | undefined {
  if (!/^[1-9]\d{0,18}$/.test(text)) return undefined;
  const id = BigInt(text);
  return id <= 9_223_372_036_854_775_807n ? id : undefined;
}

// ── reads ───────────────────────────────────────────────────────────────────────────────────────

/** What every mining read of an algorithm measures with: its periods now, and its hashes per difficulty 1. */
export function readingScope(ctx: MiningContext, algorithm: AlgorithmKey) {
  return { periods: miningPeriods(ctx.now(), ctx.windowMinutes), perDifficulty: ctx.hashesPerDifficulty(algorithm) };
}

export function rangeOf(account: Account, algorithm: AlgorithmKey, periods: MiningPeriods): MiningRange {
  return {
    account: account.username,
    algorithm,
    windowFrom: periods.window.from,
    windowMinutes: periods.window.minutes,
    dayFrom: periods.day.from,
    to: periods.to,
  };
}

/** GET /user/mining: the four cards. */
export async function readMiningSummary(
  ctx: MiningContext,
  account: Account,
  algorithm: AlgorithmKey,
  db: Executor = ctx.db,
): Promise<MiningSummaryResponse> {
  const { periods, perDifficulty } = readingScope(ctx, algorithm);
  const [totals, rates] = await Promise.all([
    accountMiningTotals(db, rangeOf(account, algorithm, periods)),
    miningRates(db, algorithm),
  ]);
  // An account younger than a period is measured over its own age, from when it began mining (not from
  // its workers' first shares alone: removing a worker must not change the others' figures). Its
  // history is looked up only when its workers are younger than the 24 hours.
  const now = periods.to;
  const young = totals.firstSeenAt !== null && totals.firstSeenAt.getTime() > periods.day.from.getTime();
  const firstHalfHour = young ? await accountFirstHalfHour(db, account.username, algorithm, periods.to) : null;
  const start = accountStart(totals.firstSeenAt, firstHalfHour);
  const windowSeconds = measuredSeconds(periods.window, start, now);
  const current = hashrateOf(totals.windowDifficulty, perDifficulty, windowSeconds);
  const daySeconds = measuredSeconds(periods.day, start, now);
  const average = hashrateOf(totals.dayDifficulty, perDifficulty, daySeconds);
  return {
    hashrate: current.value,
    hashrate_units: current.units,
    hashrate_avg: average.value,
    hashrate_avg_units: average.units,
    window_minutes: periods.window.minutes,
    active_workers: totals.activeWorkers,
    total_workers: totals.totalWorkers,
    // What PPS pays: the shares of solo ports earn nothing until their block (docs/solo.md).
    estimated_revenue: estimatedRevenue({
      windowDifficulty: totals.ppsWindowDifficulty,
      windowSeconds,
      hashesPerDifficulty: perDifficulty,
      profit: rates.profit,
      btcUsd: rates.btcUsd,
      feePercent: ctx.feePercent,
      feeDiscount: account.fee_discount,
    }),
  };
}

/**
 * GET /user/mining/chart: the account's hashrate over `period` (24 hours in half-hour points, 7 days
 * in 4-hour points, 30 days in the zone's calendar days), labelled in `timeZone` (checked by the
 * caller), from the point of the account's first shares on the algorithm when that is newer.
 */
export async function readMiningChart(
  ctx: MiningContext,
  account: Account,
  algorithm: AlgorithmKey,
  view: { timeZone: string; period: ChartPeriod },
  db: Executor = ctx.db,
): Promise<ChartResponse> {
  const now = ctx.now();
  const buckets = chartBuckets(view.period, now, view.timeZone, HALF_HOURLY_POINTS);
  const from = buckets.starts[0] as Date;
  const to = buckets.ends.at(-1) as Date;
  const slots = await accountDifficultyByHalfHour(db, account.username, algorithm, from, to);
  // Shares in the first half hour: the account is older than the chart, no need to look further back.
  const first =
    slots[0] !== undefined && slots[0].start.getTime() <= from.getTime()
      ? from
      : await accountFirstHalfHour(db, account.username, algorithm, to);
  return accountHashrateChart(buckets, slots, now, ctx.hashesPerDifficulty(algorithm), first);
}

/**
 * GET /user/mining/workers: every worker of the account on the algorithm, by name; only one worker's row (one
 * worker's view) when `only` names it, worked out as the whole list works it out.
 */
export async function readMiningWorkers(
  ctx: MiningContext,
  account: Account,
  algorithm: AlgorithmKey,
  only: { workerId?: bigint } = {},
): Promise<MiningWorker[]> {
  const { periods, perDifficulty } = readingScope(ctx, algorithm);
  const rows = await accountWorkerRows(ctx.db, { ...rangeOf(account, algorithm, periods), workerId: only.workerId });
  // One formatter per period for the many workers older than it; a young worker is measured over its
  // age (firstSeenAt is there only for a worker younger than the 24 hours).
  const now = periods.to;
  const over = (period: { from: Date; seconds: number }) => {
    const format = hashrateFormatter(perDifficulty, period.seconds);
    return (difficulty: string, seen: Date | null) => {
      const seconds = measuredSeconds(period, seen, now);
      return seconds === period.seconds ? format(difficulty) : hashrateOf(difficulty, perDifficulty, seconds);
    };
  };
  const currentOf = over(periods.window);
  const averageOf = over(periods.day);
  return rows.map((r) => {
    const current = currentOf(r.windowDifficulty, r.firstSeenAt);
    const average = averageOf(r.dayDifficulty, r.firstSeenAt);
    const state = workerState(
      {
        lastAcceptedAt: r.lastAcceptedAt?.getTime() ?? null,
        dayDifficulty: Number(r.dayDifficulty),
        dayShares: Number(r.valid),
        daySeconds: measuredSeconds(periods.day, r.firstSeenAt, now),
        windowDifficulty: Number(r.windowDifficulty),
        windowSeconds: measuredSeconds(periods.window, r.firstSeenAt, now),
      },
      now.getTime(),
      perDifficulty,
    );
    return {
      id: r.id.toString(),
      name: r.name,
      label: r.label,
      group: workerGroup(r.name, r.label),
      solo: r.solo,
      hashrate: current.value,
      hashrate_units: current.units,
      hashrate_avg: average.value,
      hashrate_avg_units: average.units,
      online: Number(r.windowDifficulty) > 0,
      state,
      last_share_at: r.lastAcceptedAt?.toISOString() ?? null,
      valid_shares: Number(r.valid),
      invalid_shares: Number(r.invalid),
      stale_shares: Number(r.stale),
    };
  });
}

/** One worker of the account on the algorithm by the id in a query, else NOT_FOUND 'Worker not found'. */
async function workerOf(ctx: MiningContext, account: Account, algorithm: AlgorithmKey, workerId: string) {
  const id = parseWorkerId(workerId);
  const worker = id === undefined ? undefined : await workerOfAccount(ctx.db, account.username, algorithm, id);
  if (!worker) throw errors.notFound(WORKER_NOT_FOUND);
  return worker;
}

/** GET /user/mining/workers/rejects: one worker's refusals of the last 24 hours by reason. */
export async function readWorkerRejects(
  ctx: MiningContext,
  account: Account,
  algorithm: AlgorithmKey,
  workerId: string,
): Promise<{ id: string; name: string; rejects: Record<string, number> }> {
  const worker = await workerOf(ctx, account, algorithm, workerId);
  const { day } = miningPeriods(ctx.now(), ctx.windowMinutes);
  return {
    id: worker.id.toString(),
    name: worker.name,
    rejects: await workerRejectsSince(ctx.db, worker.id, day.from),
  };
}

/** How far back a worker's connection history reaches: as long as its hour rows are kept (8 days). */
const CONNECTION_HISTORY_MS = 8 * DAY_MS;

/**
 * GET /user/mining/workers/chart: one worker's hashrate over the last 24 hours in hourly points or 7
 * days in 4-hour points (its hour rows; docs/dashboard.md, "One worker"), from the hour it was first
 * seen when that is newer, labelled in `timeZone`.
 */
export async function readWorkerChart(
  ctx: MiningContext,
  account: Account,
  algorithm: AlgorithmKey,
  workerId: string,
  view: { timeZone: string; period: WorkerChartPeriod },
): Promise<ChartResponse> {
  const worker = await workerOf(ctx, account, algorithm, workerId);
  const now = ctx.now();
  const buckets = chartBuckets(view.period, now, view.timeZone, HOURLY_POINTS);
  const from = buckets.starts[0] as Date;
  const to = buckets.ends.at(-1) as Date;
  const slots = await workersDifficultyByHour(ctx.db, algorithm, [worker.id], from, to);
  return accountHashrateChart(buckets, slots, now, ctx.hashesPerDifficulty(algorithm), worker.first_seen_at);
}

/**
 * GET /user/mining/workers/connections: the worker's connects and disconnects of the last 8 days,
 * newest first, at most MAX_CONNECTION_EVENTS (docs/dashboard.md, "Connection history").
 */
export async function readWorkerConnections(
  ctx: MiningContext,
  account: Account,
  algorithm: AlgorithmKey,
  workerId: string,
): Promise<WorkerConnectionsResponse> {
  const worker = await workerOf(ctx, account, algorithm, workerId);
  const from = new Date(ctx.now().getTime() - CONNECTION_HISTORY_MS);
  const rows = await workerConnectionsSince(
    ctx.db,
    { account: account.username, algorithm, name: worker.name },
    from,
    MAX_CONNECTION_EVENTS,
  );
  return {
    id: worker.id.toString(),
    name: worker.name,
    connections: rows.map((r) => ({
      at: r.at.toISOString(),
      event: r.event,
      reason: r.reason,
      ip_range: r.ipRange,
      user_agent: r.userAgent,
      node: r.node,
    })),
  };
}

/** Workers of a list, by the ids a request named (anything that is no worker id is skipped). */
function workerIds(texts: readonly string[]): bigint[] {
  return [...new Set(texts)].flatMap((text) => {
    const id = parseWorkerId(text);
    return id === undefined ? [] : [id];
  });
}

/**
 * POST /user/mining/workers/label: gives the chosen workers of the account a label, or takes it off
 * (an empty one); logged. BAD_REQUEST for a label too long or with control characters; NOT_FOUND when
 * none of the ids is the account's.
 */
export async function labelWorkers(
  ctx: MiningContext,
  user: User,
  account: Account,
  algorithm: AlgorithmKey,
  ids: readonly string[],
  text: string,
): Promise<{ result: true; labelled: number }> {
  const label = normalizeLabel(text);
  if (label === undefined) throw errors.invalid(LABEL_REFUSED);
  const chosen = workerIds(ids);
  const now = ctx.now();
  const labelled = await ctx.db.transaction().execute(async (trx) => {
    const count = await setWorkerLabels(trx, account.username, algorithm, chosen, label);
    if (count > 0) {
      await logEvent(trx, now, {
        userId: user.id,
        accountId: account.id,
        name: 'workers_labelled',
        value: { algorithm, label, workers: count },
      });
    }
    return count;
  });
  if (labelled === 0) throw errors.notFound(WORKER_NOT_FOUND);
  return { result: true, labelled };
}

export const LABEL_REFUSED = `A label has at most ${MAX_WORKER_LABEL} characters and no control characters`;

// ── removal ─────────────────────────────────────────────────────────────────────────────────────

export const WORKER_NOT_FOUND = 'Worker not found';
/** The user log names at most this many workers per removal (the count is always exact). */
export const LOGGED_WORKER_NAMES = 100;

async function remove(
  ctx: MiningContext,
  user: User,
  account: Account,
  algorithm: AlgorithmKey,
  selection: WorkerSelection,
  event: string,
): Promise<RemovedWorker[]> {
  const now = ctx.now();
  return ctx.db.transaction().execute(async (trx) => {
    await lockWorkerRollups(trx);
    const removed = await removeWorkers(trx, account.username, algorithm, selection);
    if ('id' in selection && removed.length === 0) throw errors.notFound(WORKER_NOT_FOUND);
    if (removed.length > 0) {
      await logEvent(trx, now, {
        userId: user.id,
        accountId: account.id,
        name: event,
        value: {
          algorithm,
          removed: removed.length,
          workers: removed.slice(0, LOGGED_WORKER_NAMES).map((w) => w.name),
        },
      });
    }
    return removed;
  });
}

/**
 * Removes one worker of the account on the algorithm (NOT_FOUND 'Worker not found' for any other id). Its
 * minute and hour rows go with it; the account's history keeps what it mined. A worker that connects
 * again is simply created again, with a new id.
 */
export async function removeWorker(
  ctx: MiningContext,
  user: User,
  account: Account,
  algorithm: AlgorithmKey,
  workerId: string,
): Promise<{ result: true; removed: number }> {
  const id = parseWorkerId(workerId);
  if (id === undefined) throw errors.notFound(WORKER_NOT_FOUND);
  const removed = await remove(ctx, user, account, algorithm, { id }, 'worker_removed');
  return { result: true, removed: removed.length };
}

/**
 * Removes the workers the miner chose (a group, a filter's result) among the account's on the
 * algorithm; ids of other accounts' workers, or of workers already gone, remove nothing. NOT_FOUND
 * when none of them is the account's.
 */
export async function removeSelectedWorkers(
  ctx: MiningContext,
  user: User,
  account: Account,
  algorithm: AlgorithmKey,
  chosen: readonly string[],
): Promise<{ result: true; removed: number }> {
  const removed = await remove(ctx, user, account, algorithm, { ids: workerIds(chosen) }, 'selected_workers_removed');
  if (removed.length === 0) throw errors.notFound(WORKER_NOT_FOUND);
  return { result: true, removed: removed.length };
}

/**
 * Removes the account's offline workers on the algorithm: those without an accepted share in the
 * statistics window — exactly the workers the Active Workers card does not count, so afterwards
 * active = total.
 */
export async function removeOfflineWorkers(
  ctx: MiningContext,
  user: User,
  account: Account,
  algorithm: AlgorithmKey,
): Promise<{ result: true; removed: number }> {
  const { window } = miningPeriods(ctx.now(), ctx.windowMinutes);
  const removed = await remove(ctx, user, account, algorithm, { offlineSince: window.from }, 'offline_workers_removed');
  return { result: true, removed: removed.length };
}
