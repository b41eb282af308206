import { type BlocksResponse, type ChartPeriod, routes } from '@lodestone/contract';
import type { Executor } from '@lodestone/db';
import type { Algorithm } from '@lodestone/domain';
import type { FastifyInstance } from 'fastify';
import { errors } from '../../http/errors.js';
import { addRoute } from '../../http/route.js';
import { type BlocksDeps, readBlocks, UnknownChainError } from '../../services/blocks.js';
import { findAlgorithm, readAlgorithmStats, readPoolHashrateChart } from '../../services/poolDetail.js';
import { readPoolStats } from '../../services/poolStats.js';
import { ttlCache, ttlCacheBy } from '../../services/ttlCache.js';

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

const byKey = (algorithm: Algorithm) => algorithm.key;

function algorithmOf(param: string): Algorithm {
  const algorithm = findAlgorithm(param);
  if (!algorithm) throw errors.notFound(`Unknown algorithm: ${param}`);
  return algorithm;
}

/**
 * The blocks of one chain of an algorithm (the website's Blocks page and the public API's blocks
 * call): kept as long as the algorithm detail, per algorithm, coin and page.
 */
export function blocksReader(
  db: Executor,
  deps: BlocksDeps,
): (algorithm: string, query: { coin?: string | undefined; page: number }) => Promise<BlocksResponse> {
  const read = ttlCacheBy(
    POOL_DETAIL_CACHE_MS,
    async (key: { algorithm: Algorithm; coin: string | undefined; page: number }) => {
      try {
        return await readBlocks(db, key.algorithm.key, key, deps);
      } catch (error) {
        if (error instanceof UnknownChainError) throw errors.notFound(error.message);
        throw error;
      }
    },
    (key) => `${key.algorithm.key}/${key.coin ?? ''}/${key.page}`,
  );
  return (algorithm, query) => read({ algorithm: algorithmOf(algorithm), coin: query.coin, page: query.page });
}

export async function poolRoutes(app: FastifyInstance): Promise<void> {
  const { database, hashrate } = app.services;
  const { db } = database;
  const poolStats = ttlCache(POOL_STATS_CACHE_MS, () => readPoolStats(db));
  addRoute(app, routes.poolStats, {}, poolStats);

  const detail = ttlCacheBy(POOL_DETAIL_CACHE_MS, (a: Algorithm) => readAlgorithmStats(db, a, hashrate), byKey);
  addRoute(app, routes.poolAlgorithmStats, { params: routes.poolAlgorithmStats.params }, ({ params }) =>
    detail(algorithmOf(params.algorithm)),
  );

  const blocks = blocksReader(db, hashrate);
  addRoute(
    app,
    routes.poolBlocks,
    { params: routes.poolBlocks.params, query: routes.poolBlocks.query },
    ({ params, query }) => blocks(params.algorithm, query),
  );

  const chart = ttlCacheBy(
    POOL_DETAIL_CACHE_MS,
    (key: { algorithm: Algorithm; period: ChartPeriod; timeZone: string }) =>
      readPoolHashrateChart(db, key.algorithm.key, key),
    (key) => `${key.algorithm.key}/${key.period}/${key.timeZone}`,
  );
  addRoute(
    app,
    routes.poolStatsChart,
    { params: routes.poolStatsChart.params, query: routes.poolStatsChart.query },
    ({ params, query }) =>
      chart({ algorithm: algorithmOf(params.algorithm), period: query.period, timeZone: query.timezone }),
  );
}
