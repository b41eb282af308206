import { routes } from '@lodestone/contract';
import type { AlgorithmKey } from '@lodestone/domain';
import type { FastifyInstance } from 'fastify';
import { errors } from '../../http/errors.js';
import { addRoute } from '../../http/route.js';
import { powHashesPerDifficulty } from '../../services/hashesPerDifficulty.js';
import {
  findAlgorithm,
  presentHashrateChart,
  readAlgorithmStats,
  readHashrateSeries,
} from '../../services/poolDetail.js';
import { readPoolStats } from '../../services/poolStats.js';
import { ttlCache } from '../../services/ttlCache.js';
import type { ApiDeps } from '../deps.js';

/**
 * Snapshots are written once a minute and the site refreshes every 30 s, so an answer up to two
 * seconds old is as good as a fresh one; the cache keeps a burst of visitors off the database.
 */
export const POOL_STATS_CACHE_MS = 2000;

/**
 * The algorithm detail and chart change once a minute too, but cost more (top hashers scan the
 * window's minute rows), so they are kept a little longer: per algorithm, never per time zone (the
 * chart's points are cached and only its labels are written per request).
 */
export const POOL_DETAIL_CACHE_MS = 5000;

function perAlgorithm<T>(ttlMs: number, read: (algorithm: AlgorithmKey) => Promise<T>) {
  const caches = new Map<AlgorithmKey, () => Promise<T>>();
  return (algorithm: AlgorithmKey) => {
    let cached = caches.get(algorithm);
    if (!cached) {
      cached = ttlCache(ttlMs, () => read(algorithm));
      caches.set(algorithm, cached);
    }
    return cached();
  };
}

function algorithmOf(param: string) {
  const algorithm = findAlgorithm(param);
  if (!algorithm) throw errors.notFound(`Unknown algorithm: ${param}`);
  return algorithm;
}

export async function poolRoutes(app: FastifyInstance, deps: ApiDeps): Promise<void> {
  const { db } = deps.database;
  const poolStats = ttlCache(POOL_STATS_CACHE_MS, () => readPoolStats(db));
  addRoute(app, routes.poolStats, {}, poolStats);

  const detailOptions = { windowMinutes: deps.config.statsWindowMinutes, hashesPerDifficulty: powHashesPerDifficulty };
  const detail = perAlgorithm(POOL_DETAIL_CACHE_MS, (key) => readAlgorithmStats(db, algorithmOf(key), detailOptions));
  addRoute(app, routes.poolAlgorithmStats, { params: routes.poolAlgorithmStats.params }, ({ params }) =>
    detail(algorithmOf(params.algorithm).key),
  );

  const series = perAlgorithm(POOL_DETAIL_CACHE_MS, (key) => readHashrateSeries(db, key));
  addRoute(
    app,
    routes.poolStatsChart,
    { params: routes.poolStatsChart.params, query: routes.poolStatsChart.query },
    async ({ params, query }) => {
      const algorithm = algorithmOf(params.algorithm);
      return presentHashrateChart(await series(algorithm.key), query.timezone);
    },
  );
}
