import { routes } from '@lodestone/contract';
import type { FastifyInstance } from 'fastify';
import { addRoute } from '../../http/route.js';
import type { ApiDeps } from '../deps.js';

/** GET /v1/pool/stratum — the ports the Getting Started page and the setup wizard show. */
export async function stratumRoutes(app: FastifyInstance, deps: Pick<ApiDeps, 'stratum'>): Promise<void> {
  addRoute(app, routes.poolStratum, {}, async () => ({ listeners: deps.stratum() }));
}
