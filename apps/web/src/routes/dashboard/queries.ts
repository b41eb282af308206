import type { ChartPeriod } from '@lodestone/contract';
import type { AlgorithmKey } from '@lodestone/domain';
import { useQuery } from '@tanstack/react-query';
import {
  type DashboardSource,
  getBalances,
  getCoins,
  getConversionConfig,
  getEarnings,
  getLifetimeEarnings,
  getMiningChart,
  getMiningSummary,
  getPaymentConfig,
  getPayouts,
  getRevenueChart,
  getWorkerChart,
  getWorkerConnections,
  getWorkerRejects,
  getWorkers,
  type WorkerChartPeriod,
} from '../../api/dashboard';
import { keepWhileLastPartChanges } from '../../api/placeholder';
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

export function useMiningSummary(source: DashboardSource, algorithm: AlgorithmKey) {
  return useQuery({
    queryKey: queryKeys.mining(source, algorithm),
    queryFn: ({ signal }) => getMiningSummary(source, algorithm, signal),
    ...live,
  });
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
  const queryKey = key(source, algorithm, timezone, period);
  return useQuery({
    queryKey,
    queryFn: ({ signal }) => get(source, algorithm, period, timezone, signal),
    placeholderData: keepWhileLastPartChanges(queryKey),
    ...live,
  });
}

export function useWorkers(source: DashboardSource, algorithm: AlgorithmKey) {
  return useQuery({
    queryKey: queryKeys.workers(source, algorithm),
    queryFn: ({ signal }) => getWorkers(source, algorithm, signal),
    ...live,
  });
}

/**
 * One worker's view (docs/dashboard.md, Workers): its refusals, its chart and its connections, asked only while the
 * view is open, refreshed like the rest of the tab.
 */
export function useWorkerRejects(source: DashboardSource, algorithm: AlgorithmKey, workerId: string) {
  return useQuery({
    queryKey: queryKeys.workerRejects(source, algorithm, workerId),
    queryFn: ({ signal }) => getWorkerRejects(source, algorithm, workerId, signal),
    ...live,
  });
}

/** As useDashboardChart. */
export function useWorkerChart(
  source: DashboardSource,
  algorithm: AlgorithmKey,
  workerId: string,
  period: WorkerChartPeriod,
  timezone: string,
) {
  const queryKey = queryKeys.workerChart(source, algorithm, workerId, timezone, period);
  return useQuery({
    queryKey,
    queryFn: ({ signal }) => getWorkerChart(source, algorithm, workerId, period, timezone, signal),
    placeholderData: keepWhileLastPartChanges(queryKey),
    ...live,
  });
}

export function useWorkerConnections(source: DashboardSource, algorithm: AlgorithmKey, workerId: string) {
  return useQuery({
    queryKey: queryKeys.workerConnections(source, algorithm, workerId),
    queryFn: ({ signal }) => getWorkerConnections(source, algorithm, workerId, signal),
    ...live,
  });
}

export function useBalances(source: DashboardSource) {
  return useQuery({
    queryKey: queryKeys.balances(source),
    queryFn: ({ signal }) => getBalances(source, signal),
    ...live,
  });
}

export function usePayouts(source: DashboardSource, timezone: string) {
  return useQuery({
    queryKey: queryKeys.payouts(source, timezone),
    queryFn: ({ signal }) => getPayouts(source, timezone, signal),
    ...live,
  });
}

export function useEarnings(source: DashboardSource, algorithm: AlgorithmKey, timezone: string) {
  return useQuery({
    queryKey: queryKeys.earnings(source, algorithm, timezone),
    queryFn: ({ signal }) => getEarnings(source, algorithm, timezone, signal),
    ...live,
  });
}

export function useLifetimeEarnings(source: DashboardSource, algorithm: AlgorithmKey, timezone: string) {
  return useQuery({
    queryKey: queryKeys.lifetime(source, algorithm, timezone),
    queryFn: ({ signal }) => getLifetimeEarnings(source, algorithm, timezone, signal),
    ...live,
  });
}

/** The coin catalogue changes only when the operator edits it; prices inside it are display only. */
export function useCoins() {
  return useQuery({ queryKey: queryKeys.coins, queryFn: ({ signal }) => getCoins(signal), staleTime: 60_000 });
}

export function useConversionConfig(account: string | null) {
  return useQuery({
    queryKey: queryKeys.conversion(account ?? ''),
    queryFn: ({ signal }) => getConversionConfig(account ?? '', signal),
    enabled: account !== null,
    staleTime: 0,
  });
}

export function usePaymentConfig(account: string | null) {
  return useQuery({
    queryKey: queryKeys.payment(account ?? ''),
    queryFn: ({ signal }) => getPaymentConfig(account ?? '', signal),
    enabled: account !== null,
    staleTime: 0,
  });
}
