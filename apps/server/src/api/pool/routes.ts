import { routes } from '@lodestone/contract';
import type { FastifyInstance } from 'fastify';
import { addRoute } from '../../http/route.js';
import { readPoolStats } from '../../services/poolStats.js';
import { ttlCache } from '../../services/ttlCache.js';
import type { ApiDeps } from '../deps.js';

/**
 * Snapshots are written once a minute and the site refreshes every 30 s, so an answer up to two
 * seconds old is as good as a fresh one; the cache keeps a burst of visitors off the database.
 */
export const POOL_STATS_CACHE_MS = 2000;

export async function poolRoutes(app: FastifyInstance, deps: ApiDeps): Promise<void> {
  const poolStats = ttlCache(POOL_STATS_CACHE_MS, () => readPoolStats(deps.database.db));
  addRoute(app, routes.poolStats, {}, poolStats);
}
