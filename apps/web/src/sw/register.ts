import { apiCaches, CLEAR_MESSAGE } from './rules';

/**
 * Registers /sw.js for the whole site (docs/dashboard.md, Installing the dashboard), once the page has loaded:
 * installing stores the dashboards' files, which should not compete with the page's own. Once per page: the browser
 * itself checks for a new worker at each navigation.
 */
let registered = false;

export function registerServiceWorker(): void {
  if (registered || !('serviceWorker' in navigator)) return;
  registered = true;
  const register = () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch((error: unknown) => {
      // The site works the same without it, only not offline: a warning, not a failure of the page.
      console.warn('the service worker was not registered; the dashboard will not open offline', error);
    });
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
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
