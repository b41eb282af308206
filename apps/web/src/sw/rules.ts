import { API_PREFIX, paths, type RouteName } from '@lodestone/contract';

/**
 * What the service worker does with each request, as pure rules (docs/dashboard.md, Installing the dashboard). The
 * worker (serviceWorker.ts) is built from this module and only carries out its answers; the page uses the same rules
 * to clear the offline answers when the session changes.
 */

/**
 * Set on an answer the worker stored: the time it came from the server. The server never sends it, so an answer that
 * carries it was read from the cache, and the dashboard says so.
 */
export const OFFLINE_ANSWER_HEADER = 'x-lodestone-offline-from';

/** The page's message to the worker: the session changed, drop every stored API answer. */
export const CLEAR_MESSAGE = 'lodestone:clear-offline-answers';

/** The app shell: every page of the site is this one file (the server sends it for each client route). */
export const SHELL_URL = '/index.html';

const CACHE_PREFIX = 'lodestone-';
const API_CACHE_PREFIX = `${CACHE_PREFIX}api-`;

/**
 * The reads the two dashboards make, kept for offline. An allow-list, because some GETs change things or hold
 * secrets: worker removal and set_referral are GETs that write, generate2FA and /2fa/:secret carry a 2FA secret,
 * downloads are large and asked for on purpose, user/config holds the API keys, admin reads are another person's.
 */
export const OFFLINE_READS = [
  'site',
  'banner',
  'poolStats',
  'coins',
  'userInfo',
  'userAccounts',
  'userMostUsedAlgo',
  'userPaymentConfig',
  'userConversionConfig',
  'userOverview',
  'userMining',
  'userMiningChart',
  'userMiningWorkers',
  'userMiningWorkersPage',
  'userMiningWorker',
  'userMiningWorkerRejects',
  'userMiningWorkerChart',
  'userMiningWorkerConnections',
  'userMiningSolo',
  'userRevenueBalance',
  'userRevenuePayouts',
  'userRevenueEarnings',
  'userRevenueLifetimeEarnings',
  'userRevenueChart',
  'observerMining',
  'observerMiningChart',
  'observerMiningWorkers',
  'observerMiningWorkersPage',
  'observerMiningWorker',
  'observerMiningWorkerRejects',
  'observerMiningWorkerChart',
  'observerMiningWorkerConnections',
  'observerMiningSolo',
  'observerRevenueBalance',
  'observerRevenuePayouts',
  'observerRevenueEarnings',
  'observerRevenueLifetimeEarnings',
  'observerRevenueChart',
] as const satisfies readonly RouteName[];

/** Calls after which the browser may hold another person's session (or none): stored answers are dropped. */
const SESSION_CALLS = [
  'userLogin',
  'userLogout',
  'userSessionsLogoutAll',
  'userRegister',
  'adminLogin',
] as const satisfies readonly RouteName[];

const apiPath = (name: RouteName) => `${API_PREFIX}${paths[name].path}`;
const OFFLINE_READ_PATHS: ReadonlySet<string> = new Set(OFFLINE_READS.map(apiPath));
const SESSION_PATHS: ReadonlySet<string> = new Set(SESSION_CALLS.map(apiPath));

/**
 * - `shell`: a page navigation; network first, the stored index.html when the network fails.
 * - `asset`: a hashed file under /assets; its content never changes, so the cache first.
 * - `file`: another file of the site (favicon, manifest, icons); network first, the stored copy offline.
 * - `read`: one of the dashboard's API reads; network first, the last good answer offline.
 * - `network`: left to the browser: other origins, every non-GET, and every other API call.
 */
export type Strategy = 'shell' | 'asset' | 'file' | 'read' | 'network';

export interface RequestFacts {
  method: string;
  /** Absolute URL. */
  url: string;
  /** Request.mode: 'navigate' for a page load. */
  mode: string;
}

const isApi = (pathname: string) => pathname === API_PREFIX || pathname.startsWith(`${API_PREFIX}/`);

export function strategyFor(request: RequestFacts, origin: string): Strategy {
  const url = new URL(request.url);
  if (url.origin !== origin || request.method !== 'GET') return 'network';
  if (isApi(url.pathname)) return OFFLINE_READ_PATHS.has(url.pathname) ? 'read' : 'network';
  if (request.mode === 'navigate') return 'shell';
  if (url.pathname.startsWith('/assets/')) return 'asset';
  // The worker itself is fetched by the browser's update check, which a fetch handler never sees; the
  // rule is here so that no other path could serve a stale copy of it.
  if (url.pathname === '/sw.js') return 'network';
  return 'file';
}

/**
 * Whether an answer to a `read` may be stored: a complete JSON answer the server gave without error. A 401 is the
 * session ending (see clearsOfflineAnswers); an error answer must not replace the last good one.
 */
export function isStorableAnswer(status: number, contentType: string | null): boolean {
  return status === 200 && (contentType ?? '').startsWith('application/json');
}

/**
 * Whether, after this request and answer, every stored API answer must go: a login, registration or logout, here or
 * everywhere (another account, or none, may be using this browser from now on) or any API answer 401 (the session is
 * over).
 */
export function clearsOfflineAnswers(method: string, pathname: string, status: number): boolean {
  if (!isApi(pathname)) return false;
  return status === 401 || (method === 'POST' && SESSION_PATHS.has(pathname));
}

export interface CacheNames {
  /** index.html and the dashboard's hashed scripts and styles, written at install. */
  shell: string;
  /** The dashboard's last good API answers. */
  api: string;
}

/** Both caches carry the build's version: a new build starts with its own, and the old ones are deleted. */
export function cacheNames(version: string): CacheNames {
  return { shell: `${CACHE_PREFIX}shell-${version}`, api: `${API_CACHE_PREFIX}${version}` };
}

/** The caches of other builds (ours only: other names in the origin's storage are left alone). */
export function staleCaches(existing: readonly string[], version: string): string[] {
  const current = Object.values(cacheNames(version));
  return existing.filter((name) => name.startsWith(CACHE_PREFIX) && !current.includes(name));
}

/** The caches that hold API answers, whatever the build. */
export function apiCaches(existing: readonly string[]): string[] {
  return existing.filter((name) => name.startsWith(API_CACHE_PREFIX));
}

/** The time an answer was stored, from OFFLINE_ANSWER_HEADER; null for an answer from the network. */
export function offlineAnswerTime(header: string | null): number | null {
  if (header === null) return null;
  const time = Date.parse(header);
  return Number.isNaN(time) ? null : time;
}
