import { createHash } from 'node:crypto';
import type { RateLimitOptions } from '@fastify/rate-limit';
import { routes } from '@lodestone/contract';
import type { DB } from '@lodestone/db';
import { ALGORITHMS, type Algorithm, type AlgorithmKey } from '@lodestone/domain';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../../config/config.js';
import type { Auth } from '../../http/auth.js';
import { errors } from '../../http/errors.js';
import { buildOpenApiDocument } from '../../http/openapi.js';
import { addRoute } from '../../http/route.js';
import type { Captcha } from '../../services/auth/captcha.js';
import type { BackgroundTasks } from '../../services/background.js';
import { type HashesPerDifficulty, powHashesPerDifficulty } from '../../services/hashesPerDifficulty.js';
import type { Mailer } from '../../services/mail.js';
import type { MiningContext } from '../../services/mining.js';
import { findAlgorithm } from '../../services/poolDetail.js';
import {
  type ProfitHistory,
  type ProfitsContext,
  presentProfitChart,
  readApiProfits,
  readPoolProfits,
  readProfitHistory,
} from '../../services/public/profits.js';
import { readApiPool, readApiUser, readPoolFees } from '../../services/public/publicApi.js';
import { readSignature } from '../../services/public/signatures.js';
import { submitVipApplication } from '../../services/public/vip.js';
import { ttlCache } from '../../services/ttlCache.js';
import { VERSION } from '../../version.js';
import { openCors, preflight } from './cors.js';

/** What the public routes use. */
export interface PublicRouteDeps {
  config: Config;
  auth: Auth;
  db: Kysely<DB>;
  now: () => Date;
  captcha: Captcha;
  mailer: Mailer;
  tasks: BackgroundTasks;
  /** Default: the proof-of-work conventions of @lodestone/pow. */
  hashesPerDifficulty?: HashesPerDifficulty;
}

/**
 * Requests per client address (per API process, like RATE_LIMITS), and per API key for api/user on
 * top: a key shared by many machines is still held to its own budget. Answers carry the IETF
 * `RateLimit-*` headers; a 429 adds `Retry-After`.
 */
export const PUBLIC_RATE_LIMITS = {
  api: { max: 60, timeWindow: 60_000 },
  apiUser: { max: 30, timeWindow: 60_000 },
  apiUserPerKey: { max: 60, timeWindow: 60_000 },
  signature: { max: 30, timeWindow: 60_000 },
  vipApplication: { max: 5, timeWindow: 3600_000 },
} satisfies Record<string, RateLimitOptions>;

/**
 * Our profitability over 24 hours to 30 days moves slowly, and reading 30 days of snapshots costs a
 * range scan (about 130,000 rows per algorithm): each API process reads it once a minute at most.
 */
export const PROFIT_HISTORY_CACHE_MS = 60_000;
/** The other public answers (comparison rows, prices, pool snapshot) are kept a few seconds. */
export const PUBLIC_CACHE_MS = 5000;

/** An algorithm by key, name (any case) or index in the spec's order (0 = SCRYPT); else 404. */
export function algorithmFromParam(param: string): Algorithm {
  const byIndex = /^\d$/.test(param) ? ALGORITHMS[Number(param)] : undefined;
  const algorithm = byIndex ?? findAlgorithm(param);
  if (!algorithm) throw errors.notFound(`Unknown algorithm: ${param}`);
  return algorithm;
}

function perAlgorithm<T>(ttlMs: number, read: (algorithm: Algorithm) => Promise<T>) {
  const caches = new Map<AlgorithmKey, () => Promise<T>>();
  return (algorithm: Algorithm) => {
    let cached = caches.get(algorithm.key);
    if (!cached) {
      cached = ttlCache(ttlMs, () => read(algorithm));
      caches.set(algorithm.key, cached);
    }
    return cached();
  };
}

/** A limit per API key (run before the handler), on top of the route's per-address limit. */
function perKeyLimit(app: FastifyInstance, limit: { max: number; timeWindow: number }): preHandlerAsyncHookHandler {
  const check = app.createRateLimit({
    ...limit,
    // The key itself never sits in the limiter's memory, only its hash.
    keyGenerator: (request) => {
      const key = (request.query as { apiKey?: unknown }).apiKey;
      return `apikey:${createHash('sha256').update(String(key)).digest('hex')}`;
    },
  });
  return async (request, reply) => {
    if (typeof (request.query as { apiKey?: unknown }).apiKey !== 'string') return;
    const state = await check(request);
    if (state.isAllowed) return;
    const remaining = state.isExceeded ? 0 : state.remaining;
    const shown = Number(reply.getHeader('ratelimit-remaining'));
    // The answer names the tighter of the two limits.
    if (state.isExceeded || !Number.isFinite(shown) || remaining < shown) {
      reply.headers({
        'ratelimit-limit': state.max,
        'ratelimit-remaining': remaining,
        'ratelimit-reset': state.ttlInSeconds,
      });
    }
    if (!state.isExceeded) return;
    reply.header('retry-after', state.ttlInSeconds);
    throw errors.tooManyRequests(
      `Too many requests with this API key. Try again in ${state.ttlInSeconds} seconds.`,
      state.ttlInSeconds,
    );
  };
}

/**
 * The public website's calls and the public API (spec 7 "Public"; docs/public-api.md): profitability
 * and its chart, pool fees, signatures, VIP applications, the CORS-open /api/* calls and the
 * OpenAPI document.
 */
export async function publicRoutes(app: FastifyInstance, deps: PublicRouteDeps): Promise<void> {
  const { config, auth, db, now } = deps;
  const hashesPerDifficulty = deps.hashesPerDifficulty ?? powHashesPerDifficulty;
  const histories = perAlgorithm<ProfitHistory>(PROFIT_HISTORY_CACHE_MS, (a) => readProfitHistory(db, a, now()));
  const profitsCtx: ProfitsContext = {
    db,
    own: { name: config.poolName, url: config.publicUrl },
    history: histories,
  };

  // ── the Profitability page and the FAQ ─────────────────────────────────────────────────────
  const profits = perAlgorithm(PUBLIC_CACHE_MS, (a) => readPoolProfits(profitsCtx, a));
  addRoute(app, routes.poolProfits, { params: routes.poolProfits.params }, ({ params }) =>
    profits(algorithmFromParam(params.algorithm)),
  );
  addRoute(
    app,
    routes.poolProfitsChart,
    { params: routes.poolProfitsChart.params, query: routes.poolProfitsChart.query },
    async ({ params, query }) => {
      const algorithm = algorithmFromParam(params.algorithm);
      return presentProfitChart(algorithm, await histories(algorithm), query.period, query.timezone);
    },
  );
  const fees = ttlCache(PUBLIC_CACHE_MS, () => readPoolFees(db, config.feePercent));
  addRoute(app, routes.poolFees, {}, () => fees());

  // ── signatures and VIP applications ───────────────────────────────────────────────────────────
  addRoute(
    app,
    routes.signature,
    { params: routes.signature.params, rateLimit: PUBLIC_RATE_LIMITS.signature },
    ({ params }) => readSignature(db, params.signature),
  );
  const vip = {
    db,
    now,
    mailer: deps.mailer,
    tasks: deps.tasks,
    operatorEmail: config.vipEmail ?? config.supportEmail,
    poolName: config.poolName,
  };
  addRoute(
    app,
    routes.vipApplication,
    { body: routes.vipApplication.body, rateLimit: PUBLIC_RATE_LIMITS.vipApplication },
    async ({ body }) => {
      await deps.captcha.verify(body.captchaToken);
      await submitVipApplication(vip, {
        name: body.name,
        email: body.email,
        phone: body.phone,
        operations: body.operations,
      });
      return { result: true as const };
    },
  );

  // ── the public API and its document: open to every site, no cookies ──────────────────────────
  const mining: MiningContext = {
    db,
    now,
    windowMinutes: config.statsWindowMinutes,
    feePercent: config.feePercent,
    hashesPerDifficulty,
  };
  const apiPool = ttlCache(PUBLIC_CACHE_MS, () => readApiPool(db, config.feePercent, now()));
  const apiProfits = ttlCache(PUBLIC_CACHE_MS, async () => ({
    algorithms: await readApiProfits(profitsCtx, ALGORITHMS),
  }));
  const document = buildOpenApiDocument({ publicUrl: config.publicUrl, poolName: config.poolName, version: VERSION });

  await app.register(async (open) => {
    openCors(open);
    for (const route of [routes.apiPool, routes.apiProfits, routes.apiUser, routes.openApi])
      preflight(open, route.path);

    addRoute(open, routes.apiPool, { rateLimit: PUBLIC_RATE_LIMITS.api }, () => apiPool());
    addRoute(open, routes.apiProfits, { rateLimit: PUBLIC_RATE_LIMITS.api }, () => apiProfits());
    addRoute(
      open,
      routes.apiUser,
      {
        query: routes.apiUser.query,
        rateLimit: PUBLIC_RATE_LIMITS.apiUser,
        preHandler: [perKeyLimit(open, PUBLIC_RATE_LIMITS.apiUserPerKey)],
      },
      async ({ query, request, reply }) => {
        reply.header('cache-control', 'no-store');
        return readApiUser(mining, await auth.apiKeyAccount(request, query.apiKey));
      },
    );
    addRoute(open, routes.openApi, { rateLimit: PUBLIC_RATE_LIMITS.api }, async () => document);
  });
}
