import { poolStatsResponse } from './pool.js';
import { bannerResponse, healthResponse, siteResponse } from './site.js';

/** Every API path is the spec's path under this prefix. */
export const API_PREFIX = '/v1';

/**
 * The route table both sides agree on: the server registers handlers against these entries and
 * checks its answers with `response`; the website's client builds its calls from the same entries.
 */
export const routes = {
  health: { method: 'GET', path: '/health', response: healthResponse },
  banner: { method: 'GET', path: '/banner', response: bannerResponse },
  site: { method: 'GET', path: '/site', response: siteResponse },
  poolStats: { method: 'GET', path: '/pool/stats', response: poolStatsResponse },
} as const;
