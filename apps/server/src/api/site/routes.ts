import { routes } from '@lodestone/contract';
import type { FastifyInstance } from 'fastify';
import { healthRoutes } from '../../http/healthRoutes.js';
import { addRoute } from '../../http/route.js';
import { banner, siteInfo } from '../../services/site.js';

export async function siteRoutes(app: FastifyInstance): Promise<void> {
  const { config, network, health } = app.services;
  const site = siteInfo(config, network);
  const bannerBody = banner(config);

  addRoute(app, routes.site, {}, async () => site);
  addRoute(app, routes.banner, {}, async () => bannerBody);

  await healthRoutes(app, health);
}
