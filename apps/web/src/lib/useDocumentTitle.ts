import { useEffect } from 'react';
import { useSite } from '../api/queries';

/** Sets the browser tab's title to "page — pool name" (just the pool name on the home page). */
export function useDocumentTitle(page?: string): void {
  const poolName = useSite().data?.pool_name;
  useEffect(() => {
    const parts = [page, poolName].filter((p): p is string => Boolean(p));
    if (parts.length > 0) document.title = parts.join(' — ');
  }, [page, poolName]);
}
