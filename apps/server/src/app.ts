import { randomUUID } from 'node:crypto';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import { API_PREFIX } from '@lodestone/contract';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import type { Registry } from 'prom-client';
import { accountRoutes } from './api/account/accountRoutes.js';
import { sessionRoutes } from './api/account/sessionRoutes.js';
import { adminRoutes } from './api/admin/routes.js';
import { miningRoutes } from './api/mining/routes.js';
import { moneyRoutes } from './api/money/routes.js';
import { overviewRoutes } from './api/overview/routes.js';
import { poolRoutes } from './api/pool/routes.js';
import { stratumRoutes } from './api/pool/stratum.js';
import { publicRoutes } from './api/public/routes.js';
import { revenueRoutes } from './api/revenue/routes.js';
import { siteRoutes } from './api/site/routes.js';
import { type Auth, createAuth } from './http/auth.js';
import { AppError, errors, RetryAfterError, toAppError } from './http/errors.js';
import { registerForms } from './http/forms.js';
import { LOG_SERIALIZERS } from './http/logging.js';
import { registerMetrics } from './http/metrics.js';
import { oneClickUnsubscribeRoutes } from './http/oneClickUnsubscribe.js';
import { originGuard } from './http/origin.js';
import { registerTreasuryMetrics } from './http/treasuryMetrics.js';
import { registerWebApp } from './http/webApp.js';
import { DEFAULT_WEB_DIR } from './paths.js';
import { SESSION_COOKIE } from './services/auth/sessions.js';
import { createServices, type Services, type ServicesOptions } from './services/index.js';

/** The route groups under /v1, each a Fastify plugin that reads what it needs from `app.services`. */
const API_ROUTES = [
  siteRoutes,
  poolRoutes,
  stratumRoutes,
  sessionRoutes,
  accountRoutes,
  adminRoutes,
  moneyRoutes,
  miningRoutes,
  revenueRoutes,
  overviewRoutes,
  publicRoutes,
];

/** What the app is built from: the services' inputs (config, database, …) and the HTTP server's own. */
export interface AppOptions extends Omit<ServicesOptions, 'log'> {
  /** The process's metrics registry (main shares it with stratum); a new one when omitted. */
  registry?: Registry;
  /** Folder of the built website; defaults to apps/web/dist. */
  webDir?: string;
  /** The process's logger (main passes a pino child), or Fastify's logger option (tests pass false). */
  logger?: FastifyBaseLogger | FastifyServerOptions['logger'];
}

declare module 'fastify' {
  interface FastifyInstance {
    /** What handlers call, built once by createServices (services/index.ts). */
    services: Services;
    /** Session and key checks for routes: requireUser, requireAdmin, account resolvers, API keys. */
    auth: Auth;
  }
}

/** Multipart forms carry a few short text fields and never files. */
const MULTIPART_LIMITS = { fieldNameSize: 100, fieldSize: 16 * 1024, fields: 20, files: 0, parts: 20 };

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

/**
 * Two lines a request at info buried what an operator looks for (580 lines in six minutes of a newcomer's
 * `npm start`): each request is logged at debug; a request that failed is still logged as an error.
 */
class QuietRequests extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, _request: FastifyRequest, reply: FastifyReply): void {
    if (error) reply.log.error({ res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const https = config.publicUrl.startsWith('https://');
  const logging =
    options.logger && typeof options.logger === 'object' && 'child' in options.logger
      ? { loggerInstance: options.logger as FastifyBaseLogger }
      : {
          logger: (options.logger as FastifyServerOptions['logger']) ?? {
            level: config.logLevel,
            serializers: LOG_SERIALIZERS,
          },
        };
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
    logController: new QuietRequests(),
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
    // Our own pages' requests carry a Referer (other sites get none): browsers without
    // Sec-Fetch-Site (Safari before 16.4) still prove a state-changing GET comes from us (http/origin.ts).
    referrerPolicy: { policy: 'same-origin' },
  });

  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error);
    if (appError.reportable) request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: appError.code, message: appError.message }, 'request refused');
    if (appError instanceof RetryAfterError) reply.header('retry-after', appError.retryAfterSeconds);
    return reply.code(appError.status).send({ error: appError.message, code: appError.code });
  });

  const metrics = config.metricsEnabled ? registerMetrics(app, options.registry) : undefined;

  await app.register(cookie);
  // Decorated on the root instance, so every route plugin (each its own encapsulated context) sees them.
  const services = await createServices({ ...options, log: app.log });
  app.decorate('services', services);
  if (metrics) registerTreasuryMetrics(metrics, { db: services.database.db, now: services.now, log: app.log });
  app.decorate(
    'auth',
    createAuth(app, { db: services.database.db, sessions: services.sessions, secureCookies: https, now: services.now }),
  );
  app.addHook('onClose', async () => {
    await services.close();
  });

  await app.register(
    async (api) => {
      await api.register(rateLimit, {
        global: false,
        enableDraftSpec: true,
        errorResponseBuilder: (_request, context) =>
          new AppError('RATE_LIMITED', context.statusCode, `Too many requests. Try again in ${context.after}.`),
      });
      await registerForms(api, MULTIPART_LIMITS, config.bodyLimitBytes);
      api.addHook('onRequest', originGuard(config.publicUrl, SESSION_COOKIE));
      for (const routes of API_ROUTES) await api.register(routes);
    },
    { prefix: API_PREFIX },
  );

  // The one POST outside /v1: mail providers' one-click unsubscribe, sent to the page's own address.
  await app.register(oneClickUnsubscribeRoutes);

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
