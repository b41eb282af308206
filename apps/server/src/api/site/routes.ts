import { routes } from '@lodestone/contract';
import type { FastifyInstance } from 'fastify';
import { errors } from '../../http/errors.js';
import { addRoute } from '../../http/route.js';
import { banner, siteInfo } from '../../services/site.js';
import { VERSION } from '../../version.js';
import type { ApiDeps } from '../deps.js';

export async function siteRoutes(app: FastifyInstance, deps: ApiDeps): Promise<void> {
  const startedAt = Date.now();
  const site = siteInfo(deps.config, deps.network);
  const bannerBody = banner(deps.config);

  addRoute(app, routes.site, {}, async () => site);
  addRoute(app, routes.banner, {}, async () => bannerBody);

  // Liveness: the process answers. Readiness (below) also needs the database.
  app.get('/health/live', async () => ({ status: 'ok' }));

  addRoute(app, routes.health, {}, async ({ reply }) => {
    const up = await deps.database.ping();
    const body = {
      status: up ? ('ok' as const) : ('unavailable' as const),
      database: up ? ('up' as const) : ('down' as const),
      version: VERSION,
      uptime_seconds: Math.round((Date.now() - startedAt) / 1000),
    };
    if (!up) reply.code(errors.unavailable().status);
    return body;
  });
}
