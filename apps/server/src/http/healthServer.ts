import { API_PREFIX } from '@lodestone/contract';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import type { ProcessHealth } from '../health.js';
import { healthRoutes } from './healthRoutes.js';
import { registerMetrics } from './metrics.js';

export interface HealthServerOptions {
  health: ProcessHealth;
  /** Served at /metrics when given (METRICS_ENABLED). */
  registry?: Registry;
  port: number;
  host: string;
  logger: FastifyBaseLogger;
}

/**
 * What a process without the api role serves on PORT: `/v1/health/live`, `/v1/health` and
 * `/metrics`, the same paths the API serves, so a load balancer, an orchestrator and Prometheus
 * treat every process alike (docs/deployment.md, "Health and metrics"). Nothing else is served.
 */
export async function startHealthServer(options: HealthServerOptions): Promise<FastifyInstance> {
  const app = Fastify({ loggerInstance: options.logger, disableRequestLogging: true });
  if (options.registry) registerMetrics(app, options.registry);
  await app.register((api) => healthRoutes(api, options.health), { prefix: API_PREFIX });
  await app.listen({ port: options.port, host: options.host });
  return app;
}
