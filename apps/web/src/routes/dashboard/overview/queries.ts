import type { AlgorithmKey } from '@lodestone/domain';
import { useQuery } from '@tanstack/react-query';
import { getOverview } from '../../../api/overview';
import { queryKeys } from '../../../api/queryKeys';
import { DASHBOARD_REFRESH_MS } from '../queries';

/** The user's accounts on one algorithm; refreshed like the dashboard's own figures, which it adds up. */
export function useOverview(algorithm: AlgorithmKey) {
  return useQuery({
    queryKey: queryKeys.overview(algorithm),
    queryFn: ({ signal }) => getOverview(algorithm, signal),
    staleTime: 0,
    refetchInterval: DASHBOARD_REFRESH_MS,
  });
}
