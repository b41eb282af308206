import { useOfflineSince } from '../api/offline';
import { formatLocalDateTime } from '../lib/format';

/** "Offline — showing data from 2025-06-15 14:05": the oldest answer on screen came from the offline cache. */
export function offlineNoticeText(since: number): string {
  return `Offline — showing data from ${formatLocalDateTime(since)}`;
}

/**
 * Shown by both dashboards while any answer on screen came from the service worker's cache instead of the server
 * (docs/dashboard.md, Installing the dashboard); it goes when fresh answers replace them.
 */
export function OfflineNotice() {
  const since = useOfflineSince();
  if (since === null) return null;
  return (
    <p
      role="status"
      data-testid="offline-notice"
      className="mt-4 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200"
    >
      {offlineNoticeText(since)}
    </p>
  );
}
