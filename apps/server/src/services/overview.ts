import type { MiningSummaryResponse, MiningWorker, OverviewAccount, OverviewResponse } from '@lodestone/contract';
import { accountsOfUser } from '@lodestone/db';
import { type AlgorithmKey, displayHashrate, Exact, HASHRATE_UNITS } from '@lodestone/domain';
import { type MiningContext, readMiningSummary, readMiningWorkers } from './mining.js';

/**
 * The all-accounts overview (docs/dashboard.md, "All accounts"): every live account of a user on one
 * algorithm, each row exactly what that account's Mining tab shows (its summary cards, and its
 * workers' states counted), and the rows added up.
 */

type Figures = OverviewResponse['totals'];

/** One account's row: its summary as the Mining tab reads it, and how many of its workers are low or offline. */
export function overviewRow(
  accountName: string,
  summary: MiningSummaryResponse,
  workers: readonly Pick<MiningWorker, 'state'>[],
): OverviewAccount {
  return {
    account_name: accountName,
    hashrate: summary.hashrate,
    hashrate_units: summary.hashrate_units,
    hashrate_avg: summary.hashrate_avg,
    hashrate_avg_units: summary.hashrate_avg_units,
    active_workers: summary.active_workers,
    total_workers: summary.total_workers,
    low_workers: workers.filter((w) => w.state === 'low').length,
    offline_workers: workers.filter((w) => w.state === 'offline').length,
    estimated_revenue: summary.estimated_revenue,
  };
}

/**
 * A shown hashrate back in H/s, exactly: the number's shortest text × 1000 per unit step. A unit the
 * domain does not name is a server bug, not a figure to guess at.
 */
function inHashesPerSecond(value: number, units: string): Exact {
  const step = HASHRATE_UNITS.indexOf(units as (typeof HASHRATE_UNITS)[number]);
  if (step < 0) throw new RangeError(`unknown hashrate unit: ${units}`);
  return Exact.of(value).shifted(3 * step);
}

/**
 * The rows added up. Hashrates are summed in H/s — the rows are in different units — and the sum is
 * shown by the one display rule (the unit that suits it, 2 decimals half up); the rows are the ones on
 * screen, so the total is what adding them up gives. Revenue is summed in exact decimals: each row is
 * already whole cents, so the sum is too, with no float on the way.
 */
export function overviewTotals(rows: readonly OverviewAccount[]): Figures {
  let current = Exact.ZERO;
  let average = Exact.ZERO;
  let revenue = Exact.ZERO;
  const counts = { active_workers: 0, total_workers: 0, low_workers: 0, offline_workers: 0 };
  for (const row of rows) {
    current = current.plus(inHashesPerSecond(row.hashrate, row.hashrate_units));
    average = average.plus(inHashesPerSecond(row.hashrate_avg, row.hashrate_avg_units));
    revenue = revenue.plus(Exact.of(row.estimated_revenue));
    counts.active_workers += row.active_workers;
    counts.total_workers += row.total_workers;
    counts.low_workers += row.low_workers;
    counts.offline_workers += row.offline_workers;
  }
  const shownCurrent = displayHashrate(current.toString());
  const shownAverage = displayHashrate(average.toString());
  return {
    hashrate: shownCurrent.value,
    hashrate_units: shownCurrent.units,
    hashrate_avg: shownAverage.value,
    hashrate_avg_units: shownAverage.units,
    ...counts,
    estimated_revenue: Number(revenue.toFixed(2)),
  };
}

/** GET /user/overview: the user's live accounts, oldest first (as the account selector lists them), and their totals. */
export async function readOverview(
  ctx: MiningContext,
  userId: bigint,
  algorithm: AlgorithmKey,
): Promise<OverviewResponse> {
  // One instant for every account, so the rows' windows are the same minutes and add up.
  const at = ctx.now();
  const fixed: MiningContext = { ...ctx, now: () => at };
  const accounts = await accountsOfUser(ctx.db, userId);
  const rows: OverviewAccount[] = [];
  // One account at a time: a user may have 20, each a summary and a workers list, and one answer should
  // not hold that many of the pool's connections at once.
  for (const account of accounts) {
    const [summary, workers] = await Promise.all([
      readMiningSummary(fixed, account, algorithm),
      readMiningWorkers(fixed, account, algorithm),
    ]);
    rows.push(overviewRow(account.username, summary, workers));
  }
  return {
    algorithm,
    window_minutes: ctx.windowMinutes,
    accounts: rows,
    totals: overviewTotals(rows),
  };
}
