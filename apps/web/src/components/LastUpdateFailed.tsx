import { formatTimeOfDay } from '../lib/dates';

/**
 * The alert of a refreshing page whose last refresh failed while the figures before it stay on screen: the reason,
 * the time of the figures shown and when the next try comes. Nothing while the refreshes go well, nor before the first
 * answer (the page's LoadState speaks then).
 */
export function LastUpdateFailed({
  query,
  refreshSeconds,
}: {
  query: { data: unknown; isError: boolean; error: Error | null; dataUpdatedAt: number };
  refreshSeconds: number;
}) {
  if (!query.data || !query.isError || !query.error) return null;
  return (
    <p role="alert" className="text-sm text-red-700 dark:text-red-400">
      {`The last update failed: ${query.error.message.replace(/\.$/, '')}. Showing the figures from ${formatTimeOfDay(query.dataUpdatedAt)}; trying again every ${refreshSeconds} seconds.`}
    </p>
  );
}
