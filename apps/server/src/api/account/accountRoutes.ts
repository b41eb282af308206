import { routes } from '@lodestone/contract';
import type { FastifyInstance } from 'fastify';
import QRCode from 'qrcode';
import { errors } from '../../http/errors.js';
import { RATE_LIMITS, USER_RATE_LIMITS } from '../../http/rateLimits.js';
import { addRoute } from '../../http/route.js';
import {
  createAccount,
  listAccounts,
  regenerateKey,
  removeAccount,
  updateUserConfig,
  userConfig,
} from '../../services/accounts/accounts.js';
import { mostUsedAlgorithm } from '../../services/accounts/activity.js';
import { redeemCouponCode } from '../../services/accounts/coupons.js';
import { readRedirects, updateRedirects } from '../../services/accounts/redirects.js';
import { readReferrals } from '../../services/accounts/referrals.js';
import {
  disableTwoFactor,
  enableTwoFactor,
  generateTwoFactor,
  userOtpauthUrl,
} from '../../services/accounts/twoFactor.js';
import { powHashesPerDifficulty } from '../../services/hashesPerDifficulty.js';
import { type AccountRouteDeps, perUserLimit } from './deps.js';

/**
 * The logged-in user's calls of spec 7: settings, accounts and their keys, redirects, referrals,
 * coupons, 2FA and the most used algorithm. Every call needs a session; every `account_name` must
 * be one of the user's own live accounts (anything else is 404 'Account not found').
 */
export async function accountRoutes(app: FastifyInstance, deps: AccountRouteDeps): Promise<void> {
  const { auth, accounts, config } = deps;
  const requireUser = auth.requireUser;
  const noStore = { 'cache-control': 'no-store' };

  addRoute(app, routes.userConfig, { preHandler: [requireUser] }, async ({ request, reply }) => {
    reply.headers(noStore);
    return userConfig(accounts, auth.userOf(request).user);
  });

  addRoute(
    app,
    routes.userConfigUpdate,
    { preHandler: [requireUser], body: routes.userConfigUpdate.body },
    async ({ request, body }) => {
      await updateUserConfig(accounts, auth.userOf(request).user, body);
      return { result: true as const };
    },
  );

  addRoute(app, routes.userAccounts, { preHandler: [requireUser] }, async ({ request }) =>
    listAccounts(accounts, auth.userOf(request).user.id),
  );

  addRoute(
    app,
    routes.userNewAccount,
    { preHandler: [requireUser], body: routes.userNewAccount.body },
    async ({ request, body }) => {
      await createAccount(accounts, auth.userOf(request).user, body.username);
      return { result: true as const };
    },
  );

  addRoute(
    app,
    routes.userRemoveAccount,
    { preHandler: [requireUser], body: routes.userRemoveAccount.body },
    async ({ request, reply, body }) => {
      const account = await auth.ownAccount(request, body.account_name);
      const { userDeleted } = await removeAccount(accounts, auth.userOf(request).user, account);
      if (userDeleted) auth.clearSessionCookie(reply);
      return { result: true as const };
    },
  );

  addRoute(
    app,
    routes.userKeysRegenerate,
    { preHandler: [requireUser], query: routes.userKeysRegenerate.query, body: routes.userKeysRegenerate.body },
    async ({ request, query, body }) => {
      const account = await auth.ownAccount(request, query.account_name);
      const value = await regenerateKey(accounts, auth.userOf(request).user, account, body.key);
      return { result: true as const, value };
    },
  );

  addRoute(
    app,
    routes.userRedirectConfig,
    { preHandler: [requireUser], query: routes.userRedirectConfig.query },
    async ({ request, query }) => readRedirects(accounts, await auth.ownAccount(request, query.account_name)),
  );

  addRoute(
    app,
    routes.userRedirectConfigUpdate,
    {
      preHandler: [requireUser],
      query: routes.userRedirectConfigUpdate.query,
      body: routes.userRedirectConfigUpdate.body,
    },
    async ({ request, query, body }) => {
      const account = await auth.ownAccount(request, query.account_name);
      await updateRedirects(accounts, auth.userOf(request).user, account, body.redirect_settings);
      return { result: true as const };
    },
  );

  const referralOptions = { windowMinutes: config.statsWindowMinutes, hashesPerDifficulty: powHashesPerDifficulty };
  addRoute(
    app,
    routes.userReferrals,
    { preHandler: [requireUser], query: routes.userReferrals.query },
    async ({ request, query }) =>
      readReferrals(accounts, await auth.ownAccount(request, query.account_name), referralOptions),
  );

  addRoute(
    app,
    routes.userCoupon,
    {
      preHandler: [requireUser, perUserLimit(app, auth, 'coupon', USER_RATE_LIMITS.coupon)],
      query: routes.userCoupon.query,
      body: routes.userCoupon.body,
      rateLimit: RATE_LIMITS.coupon,
    },
    async ({ request, query, body }) => {
      const account = await auth.ownAccount(request, query.account_name);
      await redeemCouponCode(accounts, account, body.coupon);
      return { result: true as const };
    },
  );

  addRoute(
    app,
    routes.userGenerate2fa,
    { preHandler: [requireUser], checkOrigin: true },
    async ({ request, reply }) => {
      reply.headers(noStore);
      return generateTwoFactor(accounts, auth.userOf(request).user, config.poolName);
    },
  );

  const twoFactorUserLimit = perUserLimit(app, auth, '2fa', USER_RATE_LIMITS.twoFactor);
  addRoute(
    app,
    routes.userEnable2fa,
    {
      preHandler: [requireUser, twoFactorUserLimit],
      body: routes.userEnable2fa.body,
      rateLimit: RATE_LIMITS.twoFactor,
    },
    async ({ request, body }) => {
      await enableTwoFactor(accounts, auth.userOf(request).user, { ...body, ip: request.ip });
      return { result: true as const };
    },
  );

  addRoute(
    app,
    routes.userDisable2fa,
    {
      preHandler: [requireUser, twoFactorUserLimit],
      body: routes.userDisable2fa.body,
      rateLimit: RATE_LIMITS.twoFactor,
    },
    async ({ request, body }) => {
      await disableTwoFactor(accounts, auth.userOf(request).user, { ...body, ip: request.ip });
      return { result: true as const };
    },
  );

  // GET /2fa/:secret — the QR code of the user's own pending secret, never of any other value, so
  // the endpoint cannot be used to render (or probe) arbitrary secrets.
  app.get(routes.twoFactorQr.path, { preHandler: [requireUser] }, async (request, reply) => {
    const parsed = routes.twoFactorQr.params.safeParse(request.params);
    const { user } = auth.userOf(request);
    if (!parsed.success || !user.totp_pending_secret || parsed.data.secret !== user.totp_pending_secret) {
      throw errors.notFound('Unknown secret');
    }
    const png = await QRCode.toBuffer(userOtpauthUrl(config.poolName, user, user.totp_pending_secret), {
      type: 'png',
      margin: 2,
      width: 256,
    });
    return reply.type('image/png').headers(noStore).send(png);
  });

  addRoute(
    app,
    routes.userMostUsedAlgo,
    { preHandler: [requireUser], query: routes.userMostUsedAlgo.query },
    async ({ request, query }) => mostUsedAlgorithm(accounts, await auth.ownAccount(request, query.account_name)),
  );
}
