import { algorithmParams, algorithmStatsResponse, chartQuery, chartResponse, poolStatsResponse } from './pool.js';
import { bannerResponse, healthResponse, siteResponse } from './site.js';
import { stratumResponse } from './stratum.js';

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
  poolStratum: { method: 'GET', path: '/pool/stratum', response: stratumResponse },
  poolAlgorithmStats: {
    method: 'GET',
    path: '/pool/stats/:algorithm',
    params: algorithmParams,
    response: algorithmStatsResponse,
  },
  poolStatsChart: {
    method: 'GET',
    path: '/pool/stats/:algorithm/chart',
    params: algorithmParams,
    query: chartQuery,
    response: chartResponse,
  },
} as const;
