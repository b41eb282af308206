import { routes } from '@lodestone/contract';
import type { FastifyInstance } from 'fastify';
import { addRoute } from '../../http/route.js';
import { readPoolStats } from '../../services/poolStats.js';
import type { ApiDeps } from '../deps.js';

export async function poolRoutes(app: FastifyInstance, deps: ApiDeps): Promise<void> {
  addRoute(app, routes.poolStats, {}, () => readPoolStats(deps.database.db));
}
