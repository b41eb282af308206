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
  getWorkers,
} from '../../api/dashboard';
import { USER_QUERY_ROOT } from '../../api/queries';

/** Spec 9: dashboard and observer data refresh every 30 s. */
export const DASHBOARD_REFRESH_MS = 30_000;

/**
 * One hook per resource, keyed by who is looked at (the miner's account under USER_QUERY_ROOT, so
 * logout drops it; an observer key under its own root) and by algorithm where the call takes one.
 * staleTime 0: a tab that mounts again (tab change) asks the server again, as the spec wants.
 */
export function sourceKey(source: DashboardSource) {
  return source.kind === 'user'
    ? ([...USER_QUERY_ROOT, 'dashboard', source.account] as const)
    : (['observer', source.observerKey] as const);
}

export const dashboardKeys = {
  mining: (s: DashboardSource, a: AlgorithmKey) => [...sourceKey(s), 'mining', a] as const,
  miningChart: (s: DashboardSource, a: AlgorithmKey, tz: string) => [...sourceKey(s), 'miningChart', a, tz] as const,
  workers: (s: DashboardSource, a: AlgorithmKey) => [...sourceKey(s), 'workers', a] as const,
  balances: (s: DashboardSource) => [...sourceKey(s), 'balances'] as const,
  payouts: (s: DashboardSource, tz: string) => [...sourceKey(s), 'payouts', tz] as const,
  earnings: (s: DashboardSource, a: AlgorithmKey, tz: string) => [...sourceKey(s), 'earnings', a, tz] as const,
  lifetime: (s: DashboardSource, a: AlgorithmKey, tz: string) => [...sourceKey(s), 'lifetime', a, tz] as const,
  revenueChart: (s: DashboardSource, a: AlgorithmKey, tz: string) => [...sourceKey(s), 'revenueChart', a, tz] as const,
  coins: ['coins'] as const,
  conversion: (account: string) => [...USER_QUERY_ROOT, 'conversion', account] as const,
  payment: (account: string) => [...USER_QUERY_ROOT, 'payment', account] as const,
};

const live = { staleTime: 0, refetchInterval: DASHBOARD_REFRESH_MS } as const;

export function useMiningSummary(source: DashboardSource, algorithm: AlgorithmKey) {
  return useQuery({
    queryKey: dashboardKeys.mining(source, algorithm),
    queryFn: ({ signal }) => getMiningSummary(source, algorithm, signal),
    ...live,
  });
}

export function useMiningChart(source: DashboardSource, algorithm: AlgorithmKey, timezone: string) {
  return useQuery({
    queryKey: dashboardKeys.miningChart(source, algorithm, timezone),
    queryFn: ({ signal }) => getMiningChart(source, algorithm, timezone, signal),
    ...live,
  });
}

export function useWorkers(source: DashboardSource, algorithm: AlgorithmKey) {
  return useQuery({
    queryKey: dashboardKeys.workers(source, algorithm),
    queryFn: ({ signal }) => getWorkers(source, algorithm, signal),
    ...live,
  });
}

export function useBalances(source: DashboardSource) {
  return useQuery({
    queryKey: dashboardKeys.balances(source),
    queryFn: ({ signal }) => getBalances(source, signal),
    ...live,
  });
}

export function usePayouts(source: DashboardSource, timezone: string) {
  return useQuery({
    queryKey: dashboardKeys.payouts(source, timezone),
    queryFn: ({ signal }) => getPayouts(source, timezone, signal),
    ...live,
  });
}

export function useEarnings(source: DashboardSource, algorithm: AlgorithmKey, timezone: string) {
  return useQuery({
    queryKey: dashboardKeys.earnings(source, algorithm, timezone),
    queryFn: ({ signal }) => getEarnings(source, algorithm, timezone, signal),
    ...live,
  });
}

export function useLifetimeEarnings(source: DashboardSource, algorithm: AlgorithmKey, timezone: string) {
  return useQuery({
    queryKey: dashboardKeys.lifetime(source, algorithm, timezone),
    queryFn: ({ signal }) => getLifetimeEarnings(source, algorithm, timezone, signal),
    ...live,
  });
}

export function useRevenueChart(source: DashboardSource, algorithm: AlgorithmKey, timezone: string) {
  return useQuery({
    queryKey: dashboardKeys.revenueChart(source, algorithm, timezone),
    queryFn: ({ signal }) => getRevenueChart(source, algorithm, timezone, signal),
    ...live,
  });
}

/** The coin catalogue changes only when the operator edits it; prices inside it are display only. */
export function useCoins() {
  return useQuery({ queryKey: dashboardKeys.coins, queryFn: ({ signal }) => getCoins(signal), staleTime: 60_000 });
}

export function useConversionConfig(account: string | null) {
  return useQuery({
    queryKey: dashboardKeys.conversion(account ?? ''),
    queryFn: ({ signal }) => getConversionConfig(account ?? '', signal),
    enabled: account !== null,
    staleTime: 0,
  });
}

export function usePaymentConfig(account: string | null) {
  return useQuery({
    queryKey: dashboardKeys.payment(account ?? ''),
    queryFn: ({ signal }) => getPaymentConfig(account ?? '', signal),
    enabled: account !== null,
    staleTime: 0,
  });
}
