import { createHash } from 'node:crypto';
import { routes } from '@lodestone/contract';
import { ALGORITHMS, type Algorithm } from '@lodestone/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { payoutSchemeCoins } from '../../config/config.js';
import { errors } from '../../http/errors.js';
import { buildOpenApiDocument } from '../../http/openapi.js';
import { keyedLimit, PUBLIC_RATE_LIMITS } from '../../http/rateLimits.js';
import { addRoute } from '../../http/route.js';
import { findAlgorithm } from '../../services/poolDetail.js';
import { readPayoutSchemes } from '../../services/public/payoutSchemes.js';
import { presentProfitChart, readApiProfits, readPoolProfits } from '../../services/public/profits.js';
import { readApiPool, readApiUser, readPoolFees } from '../../services/public/publicApi.js';
import { readSignature } from '../../services/public/signatures.js';
import { submitVipApplication } from '../../services/public/vip.js';
import { ttlCache, ttlCacheBy } from '../../services/ttlCache.js';
import { VERSION } from '../../version.js';
import { blocksReader } from '../pool/routes.js';
import { addRobotCheckedForm } from '../robotCheckedForm.js';
import { openCors, preflight } from './cors.js';

/** The public answers (comparison rows, prices, pool snapshot) are kept a few seconds. */
export const PUBLIC_CACHE_MS = 5000;

/** An algorithm by key, name (any case) or index in the algorithms' fixed order (0 = SCRYPT; docs/website.md, "Figures"); else 404. */
export function algorithmFromParam(param: string): Algorithm {
  const byIndex = /^\d$/.test(param) ? ALGORITHMS[Number(param)] : undefined;
  const algorithm = byIndex ?? findAlgorithm(param);
  if (!algorithm) throw errors.notFound(`Unknown algorithm: ${param}`);
  return algorithm;
}

/** The API key of an api/user request, hashed: the key itself never sits in the limiter's memory. */
function hashedApiKey(request: FastifyRequest): string | undefined {
  const key = (request.query as { apiKey?: unknown }).apiKey;
  return typeof key === 'string' ? createHash('sha256').update(key).digest('hex') : undefined;
}

/**
 * The public website's calls and the public API (docs/public-api.md): profitability
 * and its chart, pool fees, signatures, VIP applications, the CORS-open /api/* calls and the
 * OpenAPI document.
 */
export async function publicRoutes(app: FastifyInstance): Promise<void> {
  const { auth } = app;
  const { config, database, now, profits: profitsCtx, mining, vip, hashrate } = app.services;
  const { db } = database;
  const byKey = (algorithm: Algorithm) => algorithm.key;

  // ── the Profitability page and the FAQ ─────────────────────────────────────────────────────
  const profits = ttlCacheBy(PUBLIC_CACHE_MS, (a: Algorithm) => readPoolProfits(profitsCtx, a), byKey);
  addRoute(app, routes.poolProfits, { params: routes.poolProfits.params }, ({ params }) =>
    profits(algorithmFromParam(params.algorithm)),
  );
  addRoute(
    app,
    routes.poolProfitsChart,
    { params: routes.poolProfitsChart.params, query: routes.poolProfitsChart.query },
    async ({ params, query }) => {
      const algorithm = algorithmFromParam(params.algorithm);
      return presentProfitChart(algorithm, await profitsCtx.history(algorithm), query.period, query.timezone);
    },
  );
  const fees = ttlCache(PUBLIC_CACHE_MS, () => readPoolFees(db, config.feePercent));
  addRoute(app, routes.poolFees, {}, () => fees());
  const schemes = ttlCache(PUBLIC_CACHE_MS, () => readPayoutSchemes(db, payoutSchemeCoins(config.coins)));
  addRoute(app, routes.payoutSchemes, {}, () => schemes());

  // ── signatures and VIP applications ───────────────────────────────────────────────────────────
  addRoute(
    app,
    routes.signature,
    { params: routes.signature.params, rateLimit: PUBLIC_RATE_LIMITS.signature },
    ({ params }) => readSignature(db, params.signature),
  );
  addRobotCheckedForm(app, routes.vipApplication, PUBLIC_RATE_LIMITS.vipApplication, async ({ body }) => {
    await submitVipApplication(vip, {
      name: body.name,
      email: body.email,
      phone: body.phone,
      operations: body.operations,
    });
    return { result: true as const };
  });

  // ── the public API and its document: open to every site, no cookies ──────────────────────────
  const apiPool = ttlCache(PUBLIC_CACHE_MS, () => readApiPool(db, config.feePercent, now()));
  const apiProfits = ttlCache(PUBLIC_CACHE_MS, async () => ({
    algorithms: await readApiProfits(profitsCtx, ALGORITHMS),
  }));
  const apiBlocks = blocksReader(db, hashrate);
  const document = buildOpenApiDocument({ publicUrl: config.publicUrl, poolName: config.poolName, version: VERSION });

  await app.register(async (open) => {
    openCors(open);
    const apiKeyLimit = keyedLimit(open, {
      name: 'apikey',
      limit: PUBLIC_RATE_LIMITS.apiUserPerKey,
      keyOf: hashedApiKey,
      refusal: 'Too many requests with this API key.',
      headers: true,
    });
    for (const route of [routes.apiPool, routes.apiProfits, routes.apiBlocks, routes.apiUser, routes.openApi])
      preflight(open, route.path);

    addRoute(open, routes.apiPool, { rateLimit: PUBLIC_RATE_LIMITS.api }, () => apiPool());
    addRoute(open, routes.apiProfits, { rateLimit: PUBLIC_RATE_LIMITS.api }, () => apiProfits());
    addRoute(
      open,
      routes.apiBlocks,
      { params: routes.apiBlocks.params, query: routes.apiBlocks.query, rateLimit: PUBLIC_RATE_LIMITS.api },
      ({ params, query }) => apiBlocks(params.algorithm, query),
    );
    addRoute(
      open,
      routes.apiUser,
      {
        query: routes.apiUser.query,
        rateLimit: PUBLIC_RATE_LIMITS.apiUser,
        preHandler: [apiKeyLimit],
      },
      async ({ query, request, reply }) => {
        reply.header('cache-control', 'no-store');
        const { account, scope } = await auth.apiKeyAccount(request, query.apiKey);
        return readApiUser(mining, account, scope);
      },
    );
    addRoute(open, routes.openApi, { rateLimit: PUBLIC_RATE_LIMITS.api }, async () => document);
  });
}
