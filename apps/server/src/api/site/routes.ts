import { routes } from '@lodestone/contract';
import type { FastifyInstance } from 'fastify';
import { errors } from '../../http/errors.js';
import { addRoute } from '../../http/route.js';
import { banner, siteInfo } from '../../services/site.js';
import { VERSION } from '../../version.js';

export async function siteRoutes(app: FastifyInstance): Promise<void> {
  const { config, network, database } = app.services;
  const startedAt = performance.now();
  const site = siteInfo(config, network);
  const bannerBody = banner(config);

  addRoute(app, routes.site, {}, async () => site);
  addRoute(app, routes.banner, {}, async () => bannerBody);

  // Liveness: the process answers. Readiness (below) also needs the database.
  app.get('/health/live', async () => ({ status: 'ok' }));

  addRoute(app, routes.health, {}, async ({ reply }) => {
    const up = await database.ping();
    const body = {
      status: up ? ('ok' as const) : ('unavailable' as const),
      database: up ? ('up' as const) : ('down' as const),
      version: VERSION,
      uptime_seconds: Math.round((performance.now() - startedAt) / 1000),
    };
    if (!up) reply.code(errors.unavailable().status);
    return body;
  });
}
