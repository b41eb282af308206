import { QueryCache, QueryClient, type QueryKey, type UseQueryOptions, useQuery } from '@tanstack/react-query';
import { getBanner, getPoolStats, getSite, getStratum, getUserInfo } from './client';
import { ApiError } from './errors';
import { keepWhileLastPartChanges } from './placeholder';
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

/** What a read may set besides its key and call; anything it leaves out is the query client's default. */
export type ReadOptions<T> = Pick<
  UseQueryOptions<T>,
  'staleTime' | 'refetchInterval' | 'retry' | 'enabled' | 'placeholderData'
>;

/** One resource read under its key, its call cancelled with its query: what the query hooks of the site are made of. */
export function useRead<T>(queryKey: QueryKey, get: (signal: AbortSignal) => Promise<T>, options: ReadOptions<T> = {}) {
  return useQuery({ queryKey, queryFn: ({ signal }) => get(signal), ...options });
}

/**
 * A read whose key ends in what the visitor steps through (a page of a list, a chart's period): while the next step
 * loads, the last one stays on screen, marked busy (placeholder.ts).
 */
export function useSteppedRead<T>(
  queryKey: QueryKey,
  get: (signal: AbortSignal) => Promise<T>,
  options: ReadOptions<T> = {},
) {
  return useRead(queryKey, get, { placeholderData: keepWhileLastPartChanges(queryKey), ...options });
}

export function usePoolStats() {
  return useRead(queryKeys.poolStats, getPoolStats, { refetchInterval: POOL_STATS_REFRESH_MS });
}

export function useBanner() {
  return useRead(queryKeys.banner, getBanner, { staleTime: 60_000 });
}

/** The operator's configuration (pool name, contacts, links): changes only when the pool restarts. */
export function useSite() {
  return useRead(queryKeys.site, getSite, { staleTime: 10 * 60_000 });
}

/** The stratum ports (GET /v1/pool/stratum): like the site configuration, they change only on restart. */
export function useStratum() {
  return useRead(queryKeys.stratum, getStratum, { staleTime: 10 * 60_000 });
}

/**
 * GET /v1/user/info (docs/website.md, Session: the home page checks the session; success sets the logged-in flag,
 * failure clears it). `null` means nobody is logged in — an expected answer, not an error.
 */
export function useUserInfo({ enabled = true }: { enabled?: boolean } = {}) {
  return useRead(queryKeys.userInfo, getUserInfo, { retry: false, staleTime: 0, enabled });
}
