import { QueryCache, QueryClient, useQuery } from '@tanstack/react-query';
import { getBanner, getPoolStats, getSite, getStratum, getUserInfo } from './client';
import { ApiError } from './errors';
import { queryKeys } from './queryKeys';

/** Refresh period of the pool table (docs/website.md, Lists, refresh and copying). */
export const POOL_STATS_REFRESH_MS = 30_000;

export function createQueryClient(): QueryClient {
  return new QueryClient({
    // A failed call is shown where its data would be; it is also logged here, once per failure.
    queryCache: new QueryCache({
      onError: (error, query) => console.error(`API call ${JSON.stringify(query.queryKey)} failed:`, error),
    }),
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        // A 4xx answer will not change by asking again; network and server errors get two more tries.
        retry: (failures, error) => !(error instanceof ApiError && error.isClientError) && failures < 2,
      },
    },
  });
}

export function usePoolStats() {
  return useQuery({
    queryKey: queryKeys.poolStats,
    queryFn: ({ signal }) => getPoolStats(signal),
    refetchInterval: POOL_STATS_REFRESH_MS,
  });
}

export function useBanner() {
  return useQuery({
    queryKey: queryKeys.banner,
    queryFn: ({ signal }) => getBanner(signal),
    staleTime: 60_000,
  });
}

/** The operator's configuration (pool name, contacts, links): changes only when the pool restarts. */
export function useSite() {
  return useQuery({
    queryKey: queryKeys.site,
    queryFn: ({ signal }) => getSite(signal),
    staleTime: 10 * 60_000,
  });
}

/** The stratum ports (GET /v1/pool/stratum): like the site configuration, they change only on restart. */
export function useStratum() {
  return useQuery({
    queryKey: queryKeys.stratum,
    queryFn: ({ signal }) => getStratum(signal),
    staleTime: 10 * 60_000,
  });
}

/**
 * GET /v1/user/info (docs/website.md, Session: the home page checks the session; success sets the logged-in flag,
 * failure clears it). `null` means nobody is logged in — an expected answer, not an error.
 */
export function useUserInfo({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: queryKeys.userInfo,
    queryFn: ({ signal }) => getUserInfo(signal),
    retry: false,
    staleTime: 0,
    enabled,
  });
}
