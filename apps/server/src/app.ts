import { randomUUID } from 'node:crypto';
import helmet from '@fastify/helmet';
import { API_PREFIX } from '@lodestone/contract';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Registry } from 'prom-client';
import type { ApiDeps } from './api/deps.js';
import { poolRoutes } from './api/pool/routes.js';
import { stratumRoutes } from './api/pool/stratum.js';
import { siteRoutes } from './api/site/routes.js';
import { errors, toAppError } from './http/errors.js';
import { registerMetrics } from './http/metrics.js';
import { registerWebApp } from './http/webApp.js';
import { DEFAULT_WEB_DIR } from './paths.js';

export interface AppOptions extends ApiDeps {
  /** The process's metrics registry (main shares it with stratum); a new one when omitted. */
  registry?: Registry;
  /** Folder of the built website; defaults to apps/web/dist. */
  webDir?: string;
  /** The process's logger (main passes a pino child), or Fastify's logger option (tests pass false). */
  logger?: FastifyBaseLogger | FastifyServerOptions['logger'];
}

/**
 * The content security policy the website is built to run under: everything from our own origin,
 * no inline scripts, inline styles allowed (React style attributes), images also as data: URLs.
 */
function contentSecurityPolicy(https: boolean) {
  return {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      fontSrc: ["'self'", 'data:'],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      ...(https ? { upgradeInsecureRequests: [] } : {}),
    },
  };
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const https = config.publicUrl.startsWith('https://');
  const logging =
    options.logger && typeof options.logger === 'object' && 'child' in options.logger
      ? { loggerInstance: options.logger as FastifyBaseLogger }
      : { logger: (options.logger as FastifyServerOptions['logger']) ?? { level: config.logLevel } };
  const app = Fastify({
    ...logging,
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    requestTimeout: 30_000,
    connectionTimeout: 60_000,
    keepAliveTimeout: 65_000,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    return503OnClosing: true,
  });

  // While shutting down, answers to requests still in flight close their keep-alive connection,
  // so close() returns as soon as they are done instead of waiting for idle sockets to time out.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (closing) reply.header('connection', 'close');
  });

  await app.register(helmet, {
    contentSecurityPolicy: contentSecurityPolicy(https),
    hsts: https ? { maxAge: 15552000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
  });

  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error);
    if (appError.reportable) request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: appError.code, message: appError.message }, 'request refused');
    return reply.code(appError.status).send({ error: appError.message, code: appError.code });
  });

  if (config.metricsEnabled) registerMetrics(app, options.registry);

  const deps: ApiDeps = { config, database: options.database, network: options.network, stratum: options.stratum };
  await app.register(
    async (api) => {
      await siteRoutes(api, deps);
      await poolRoutes(api, deps);
      await stratumRoutes(api, deps);
    },
    { prefix: API_PREFIX },
  );

  const sendIndex = await registerWebApp(app, options.webDir ?? DEFAULT_WEB_DIR);

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const isApi = url === API_PREFIX || url.startsWith(`${API_PREFIX}/`);
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !hasFileExtension(url);
    if (!isApi && isPage && sendIndex) return sendIndex(reply);
    const notFound = errors.notFound();
    return reply.code(notFound.status).send({ error: notFound.message, code: notFound.code });
  });

  return app;
}

/** Client-side routes have no file extension; a missing /assets/x.js is a real 404, not the SPA. */
function hasFileExtension(url: string): boolean {
  const last = url.slice(url.lastIndexOf('/') + 1);
  return last.includes('.');
}
