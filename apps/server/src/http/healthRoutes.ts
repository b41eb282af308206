import { routes } from '@lodestone/contract';
import type { FastifyInstance } from 'fastify';
import type { ProcessHealth } from '../health.js';
import { errors } from './errors.js';
import { addRoute } from './route.js';

/**
 * `/health/live` (liveness: the process answers) and `/health` (readiness: what its roles need is
 * reachable, 503 otherwise), under the caller's /v1 prefix: the API's, or a stratum or jobs
 * process's own health server (healthServer.ts).
 */
export async function healthRoutes(app: FastifyInstance, health: ProcessHealth): Promise<void> {
  app.get('/health/live', async () => ({ status: 'ok' }));
  addRoute(app, routes.health, {}, async ({ reply }) => {
    const report = await health.report();
    if (report.status !== 'ok') reply.code(errors.unavailable().status);
    return report;
  });
}
