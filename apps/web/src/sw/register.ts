import { apiCaches, CLEAR_MESSAGE } from './rules';

/**
 * Registers /sw.js (docs/dashboard.md, Installing the dashboard). Called by main.tsx in production builds only: in
 * Vite's dev server the worker would keep serving stale modules, and unit tests have no worker.
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  // After load: installing stores the dashboard's files, which should not compete with the first page's own.
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch((error: unknown) => {
      // The site works the same without it, only not offline: a warning, not a failure of the page.
      console.warn('the service worker was not registered; the dashboard will not open offline', error);
    });
  });
}

/**
 * Drops every stored API answer, in the worker (which also stops storing answers still on their way) and in the
 * cache storage itself, for a page the worker does not control (a forced reload).
 */
export async function clearOfflineAnswers(): Promise<void> {
  if (typeof navigator !== 'undefined') navigator.serviceWorker?.controller?.postMessage(CLEAR_MESSAGE);
  if (typeof caches === 'undefined') return;
  for (const name of apiCaches(await caches.keys())) await caches.delete(name);
}
