import type { ChartPeriod } from '@lodestone/contract';
import type { AlgorithmKey } from '@lodestone/domain';
import type { QueryKey } from '@tanstack/react-query';
import { useAccountRead } from '../../api/accountQueries';
import {
  type DashboardSource,
  getBalances,
  getCoins,
  getConversionConfig,
  getEarnings,
  getLifetimeEarnings,
  getMiningChart,
  getMiningSolo,
  getMiningSummary,
  getPaymentConfig,
  getPayouts,
  getRevenueChart,
  getWorker,
  getWorkerChart,
  getWorkerConnections,
  getWorkerRejects,
  getWorkersPage,
  type WorkerChartPeriod,
  type WorkersPageAsk,
} from '../../api/dashboard';
import { useRead, useSteppedRead } from '../../api/queries';
import { queryKeys } from '../../api/queryKeys';

/** Dashboard and observer data refresh every 30 s (docs/website.md, Lists, refresh and copying). */
export const DASHBOARD_REFRESH_MS = 30_000;
/** What a block that failed to load says happens next (LoadState's `retry`). */
export const DASHBOARD_RETRY = `Trying again every ${DASHBOARD_REFRESH_MS / 1000} seconds.`;

/**
 * One hook per resource, keyed by who is looked at (the miner's account under USER_QUERY_ROOT, so logout drops it; an
 * observer key under its own root) and by algorithm where the call takes one. staleTime 0: a tab that mounts again (tab
 * change) asks the server again (docs/website.md, Lists, refresh and copying).
 */
const live = { staleTime: 0, refetchInterval: DASHBOARD_REFRESH_MS } as const;

/** One resource read as every dashboard read is: under its key, refreshed with the tab, cancelled with its query. */
function useLiveRead<T>(queryKey: QueryKey, get: (signal: AbortSignal) => Promise<T>) {
  return useRead(queryKey, get, live);
}

export function useMiningSummary(source: DashboardSource, algorithm: AlgorithmKey) {
  return useLiveRead(queryKeys.mining(source, algorithm), (signal) => getMiningSummary(source, algorithm, signal));
}

/** The dashboard's two period charts (docs/dashboard.md, Chart ranges), as the page's ChartRanges name them. */
export type DashboardChartKind = 'hashrate' | 'revenue';

/** Each chart's key and call: the account's hashrate, the account's revenue. */
const chartCalls = {
  hashrate: { key: queryKeys.miningChart, get: getMiningChart },
  revenue: { key: queryKeys.revenueChart, get: getRevenueChart },
} as const;

/** One of the charts over `period`. While another period of the same chart loads, the chart shown stays (marked busy). */
export function useDashboardChart(
  chart: DashboardChartKind,
  source: DashboardSource,
  algorithm: AlgorithmKey,
  period: ChartPeriod,
  timezone: string,
) {
  const { key, get } = chartCalls[chart];
  return useSteppedRead(
    key(source, algorithm, timezone, period),
    (signal) => get(source, algorithm, period, timezone, signal),
    live,
  );
}

/** One worker's row, for its own view: one row read, not the whole list. */
export function useWorker(source: DashboardSource, algorithm: AlgorithmKey, workerId: string) {
  return useLiveRead(queryKeys.worker(source, algorithm, workerId), (signal) =>
    getWorker(source, algorithm, workerId, signal),
  );
}

/**
 * One page of the workers table as the server filters, searches, sorts and pages it (GET /user/mining/workers/page): a
 * farm of 10,000 machines reads ten rows. While another page, sort or filter loads, the page shown stays (marked busy).
 */
export function useWorkersPage(source: DashboardSource, algorithm: AlgorithmKey, ask: WorkersPageAsk) {
  return useSteppedRead(
    queryKeys.workersPage(source, algorithm, ask),
    (signal) => getWorkersPage(source, algorithm, ask, signal),
    live,
  );
}

/**
 * The account's solo mining on the algorithm (docs/dashboard.md, Solo mining). Asked even without a solo worker in the
 * list: a removed solo worker's blocks are still the account's to see.
 */
export function useMiningSolo(source: DashboardSource, algorithm: AlgorithmKey) {
  return useLiveRead(queryKeys.solo(source, algorithm), (signal) => getMiningSolo(source, algorithm, signal));
}

/**
 * One worker's view (docs/dashboard.md, Workers): its refusals, its chart and its connections, asked only while the
 * view is open, refreshed like the rest of the tab.
 */
export function useWorkerRejects(source: DashboardSource, algorithm: AlgorithmKey, workerId: string) {
  return useLiveRead(queryKeys.workerRejects(source, algorithm, workerId), (signal) =>
    getWorkerRejects(source, algorithm, workerId, signal),
  );
}

/** As useDashboardChart. */
export function useWorkerChart(
  source: DashboardSource,
  algorithm: AlgorithmKey,
  workerId: string,
  period: WorkerChartPeriod,
  timezone: string,
) {
  return useSteppedRead(
    queryKeys.workerChart(source, algorithm, workerId, timezone, period),
    (signal) => getWorkerChart(source, algorithm, workerId, period, timezone, signal),
    live,
  );
}

export function useWorkerConnections(source: DashboardSource, algorithm: AlgorithmKey, workerId: string) {
  return useLiveRead(queryKeys.workerConnections(source, algorithm, workerId), (signal) =>
    getWorkerConnections(source, algorithm, workerId, signal),
  );
}

export function useBalances(source: DashboardSource) {
  return useLiveRead(queryKeys.balances(source), (signal) => getBalances(source, signal));
}

export function usePayouts(source: DashboardSource, timezone: string) {
  return useLiveRead(queryKeys.payouts(source, timezone), (signal) => getPayouts(source, timezone, signal));
}

export function useEarnings(source: DashboardSource, algorithm: AlgorithmKey, timezone: string) {
  return useLiveRead(queryKeys.earnings(source, algorithm, timezone), (signal) =>
    getEarnings(source, algorithm, timezone, signal),
  );
}

export function useLifetimeEarnings(source: DashboardSource, algorithm: AlgorithmKey, timezone: string) {
  return useLiveRead(queryKeys.lifetime(source, algorithm, timezone), (signal) =>
    getLifetimeEarnings(source, algorithm, timezone, signal),
  );
}

/** The coin catalogue changes only when the operator edits it; prices inside it are display only. */
export function useCoins() {
  return useRead(queryKeys.coins, getCoins, { staleTime: 60_000 });
}

export function useConversionConfig(account: string | null) {
  return useAccountRead(account, queryKeys.conversion, getConversionConfig, { staleTime: 0 });
}

export function usePaymentConfig(account: string | null) {
  return useAccountRead(account, queryKeys.payment, getPaymentConfig, { staleTime: 0 });
}
