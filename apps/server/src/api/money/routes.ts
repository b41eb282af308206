import { routes } from '@lodestone/contract';
import type { FastifyInstance } from 'fastify';
import { addRoute } from '../../http/route.js';
import { readCoinCatalogue } from '../../services/money/coinCatalogue.js';
import { convertBalance, readConversionConfig, updateConversionConfig } from '../../services/money/conversion.js';
import { readPaymentConfig, updatePaymentConfig } from '../../services/money/payoutSettings.js';
import { readPoolPayouts } from '../../services/money/poolPayouts.js';
import { ttlCache } from '../../services/ttlCache.js';
import { addAccountRead, addAccountWrite } from '../twinRoutes.js';

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
export async function moneyRoutes(app: FastifyInstance): Promise<void> {
  const { money: ctx, database, now } = app.services;
  const { db } = database;

  const coins = ttlCache(PUBLIC_MONEY_CACHE_MS, () => readCoinCatalogue(db));
  addRoute(app, routes.coins, {}, () => coins());

  const poolPayouts = ttlCache(PUBLIC_MONEY_CACHE_MS, () => readPoolPayouts(db, now()));
  addRoute(app, routes.poolPayouts, {}, () => poolPayouts());

  addAccountRead(app, 'session', routes.userConversionConfig, (account) => readConversionConfig(ctx, account));

  addAccountWrite(app, routes.userConversionConfigUpdate, async ({ user, account, body }) => {
    await updateConversionConfig(ctx, user, account, body);
    return { result: true as const };
  });

  addAccountRead(app, 'session', routes.userPaymentConfig, (account) => readPaymentConfig(ctx, account));

  addAccountWrite(app, routes.userPaymentConfigUpdate, async ({ user, account, body, request }) => {
    await updatePaymentConfig(ctx, user, account, body.payment_settings, {
      password: body.password,
      code: body.code,
      ip: request.ip,
    });
    return { result: true as const };
  });

  addAccountWrite(app, routes.userConvert, ({ user, account, body }) =>
    convertBalance(ctx, user, account, body.base_coin, body.target_coin),
  );
}
