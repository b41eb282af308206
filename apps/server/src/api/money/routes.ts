import { routes } from '@lodestone/contract';
import type { DB } from '@lodestone/db';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../../config/config.js';
import type { Auth } from '../../http/auth.js';
import { addRoute } from '../../http/route.js';
import { type MoneyContext, readCoinCatalogue } from '../../services/money/coinCatalogue.js';
import { convertBalance, readConversionConfig, updateConversionConfig } from '../../services/money/conversion.js';
import { readPaymentConfig, updatePaymentConfig } from '../../services/money/payoutSettings.js';
import { readPoolPayouts } from '../../services/money/poolPayouts.js';
import { ttlCache } from '../../services/ttlCache.js';

/** What the money routes use. */
export interface MoneyRouteDeps {
  config: Config;
  auth: Auth;
  db: Kysely<DB>;
  now: () => Date;
}

/**
 * Prices are recorded every few minutes and payouts run hourly, so public answers a few seconds old
 * are as good as fresh ones; the cache keeps a burst of visitors off the database.
 */
export const PUBLIC_MONEY_CACHE_MS = 5000;

/**
 * Spec 7 money calls: the public coin catalogue and pool payouts, and the logged-in user's conversion
 * and payout settings and balance conversion. Every `account_name` must be one of the user's own
 * live accounts (anything else is 404 'Account not found', as in the other account calls).
 */
export async function moneyRoutes(app: FastifyInstance, deps: MoneyRouteDeps): Promise<void> {
  const { auth, db, now } = deps;
  const requireUser = auth.requireUser;
  const noStore = { 'cache-control': 'no-store' };
  const ctx: MoneyContext = {
    db,
    now,
    priceMaxAgeMs: deps.config.priceMaxAgeSeconds * 1000,
    // Addresses are checked as mainnet addresses: the configuration names no test chain for payouts,
    // and on the demo network miners enter the real addresses they will be paid at later.
    addressNetwork: 'mainnet',
  };

  const coins = ttlCache(PUBLIC_MONEY_CACHE_MS, () => readCoinCatalogue(db));
  addRoute(app, routes.coins, {}, () => coins());

  const poolPayouts = ttlCache(PUBLIC_MONEY_CACHE_MS, () => readPoolPayouts(db, now()));
  addRoute(app, routes.poolPayouts, {}, () => poolPayouts());

  addRoute(
    app,
    routes.userConversionConfig,
    { preHandler: [requireUser], query: routes.userConversionConfig.query },
    async ({ request, reply, query }) => {
      reply.headers(noStore);
      return readConversionConfig(ctx, await auth.ownAccount(request, query.account_name));
    },
  );

  addRoute(
    app,
    routes.userConversionConfigUpdate,
    {
      preHandler: [requireUser],
      query: routes.userConversionConfigUpdate.query,
      body: routes.userConversionConfigUpdate.body,
    },
    async ({ request, query, body }) => {
      const account = await auth.ownAccount(request, query.account_name);
      await updateConversionConfig(ctx, auth.userOf(request).user, account, body);
      return { result: true as const };
    },
  );

  addRoute(
    app,
    routes.userPaymentConfig,
    { preHandler: [requireUser], query: routes.userPaymentConfig.query },
    async ({ request, reply, query }) => {
      reply.headers(noStore);
      return readPaymentConfig(ctx, await auth.ownAccount(request, query.account_name));
    },
  );

  addRoute(
    app,
    routes.userPaymentConfigUpdate,
    {
      preHandler: [requireUser],
      query: routes.userPaymentConfigUpdate.query,
      body: routes.userPaymentConfigUpdate.body,
    },
    async ({ request, query, body }) => {
      const account = await auth.ownAccount(request, query.account_name);
      const { user } = auth.userOf(request);
      await updatePaymentConfig(ctx, user, account, body.payment_settings, {
        password: body.password,
        code: body.code,
        ip: request.ip,
      });
      return { result: true as const };
    },
  );

  addRoute(
    app,
    routes.userConvert,
    { preHandler: [requireUser], query: routes.userConvert.query, body: routes.userConvert.body },
    async ({ request, query, body }) => {
      const account = await auth.ownAccount(request, query.account_name);
      return convertBalance(ctx, auth.userOf(request).user, account, body.base_coin, body.target_coin);
    },
  );
}
