import { routes } from '@lodestone/contract';
import type { FastifyInstance } from 'fastify';
import { addRoute } from '../../http/route.js';

/** GET /v1/pool/stratum — the ports the Getting Started page and the setup wizard show. */
export async function stratumRoutes(app: FastifyInstance): Promise<void> {
  const { stratum } = app.services;
  addRoute(app, routes.poolStratum, {}, async () => ({ listeners: stratum() }));
}
