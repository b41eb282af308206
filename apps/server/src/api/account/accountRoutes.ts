import { routes } from '@lodestone/contract';
import type { FastifyInstance } from 'fastify';
import QRCode from 'qrcode';
import { errors } from '../../http/errors.js';
import { keyedLimit, RATE_LIMITS, USER_RATE_LIMITS } from '../../http/rateLimits.js';
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
import {
  createHashrateAlert,
  readHashrateAlerts,
  removeHashrateAlert,
} from '../../services/accounts/hashrateAlerts.js';
import { readRedirects, updateRedirects } from '../../services/accounts/redirects.js';
import { readReferrals } from '../../services/accounts/referrals.js';
import {
  disableTwoFactor,
  enableTwoFactor,
  generateTwoFactor,
  userOtpauthUrl,
} from '../../services/accounts/twoFactor.js';
import { createWatcherLink, readWatcherLinks, revokeWatcher } from '../../services/accounts/watchers.js';
import {
  createTelegramLinkCode,
  readTelegramSettings,
  unlinkTelegramChat,
} from '../../services/notifications/telegramLink.js';
import { unsubscribe } from '../../services/notifications/unsubscribe.js';
import { addAccountRead, addAccountWrite, NO_STORE } from '../twinRoutes.js';

/**
 * The logged-in user's calls (docs/accounts.md): settings, accounts and their keys, redirects, referrals,
 * coupons, 2FA and the most used algorithm. Every call needs a session; every `account_name` must
 * be one of the user's own live accounts (anything else is 404 'Account not found').
 */
export async function accountRoutes(app: FastifyInstance): Promise<void> {
  const { auth } = app;
  const { accounts, config, hashrate } = app.services;
  const requireUser = auth.requireUser;
  /** A user behind many addresses is still held to these attempts, on top of the per-address limit. */
  const perUser = (name: string, limit: { max: number; timeWindow: number }) =>
    keyedLimit(app, {
      name,
      limit,
      keyOf: (request) => auth.userOf(request).user.id.toString(),
      refusal: 'Too many attempts.',
    });

  addRoute(app, routes.userConfig, { preHandler: [requireUser] }, async ({ request, reply }) => {
    reply.headers(NO_STORE);
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

  // Telegram (docs/notifications.md, "Telegram"): offered once the jobs role has reached the bot.
  addRoute(app, routes.userTelegram, { preHandler: [requireUser] }, async ({ request, reply }) => {
    reply.headers(NO_STORE);
    const settings = await readTelegramSettings(accounts.db, auth.userOf(request).user.id, accounts.now());
    return {
      available: settings.available,
      reachable: settings.reachable,
      bot_username: settings.botUsername,
      linked: settings.link !== null,
      telegram_username: settings.link?.telegramUsername ?? null,
      linked_at: settings.link?.linkedAt.toISOString() ?? null,
    };
  });

  addRoute(
    app,
    routes.userTelegramLink,
    { preHandler: [requireUser, perUser('telegram-link', USER_RATE_LIMITS.telegramLink)] },
    async ({ request, reply }) => {
      reply.headers(NO_STORE);
      const link = await createTelegramLinkCode(accounts.db, auth.userOf(request).user.id, accounts.now());
      return { result: true as const, url: link.url, code: link.code, expires_at: link.expiresAt.toISOString() };
    },
  );

  addRoute(app, routes.userTelegramUnlink, { preHandler: [requireUser] }, async ({ request }) => {
    const userId = auth.userOf(request).user.id;
    await accounts.db.transaction().execute((trx) => unlinkTelegramChat(trx, userId, 'Settings', accounts.now()));
    return { result: true as const };
  });

  // No session: an unsubscribe link works from any browser (docs/notifications.md, "Unsubscribing").
  addRoute(
    app,
    routes.notificationsUnsubscribe,
    { body: routes.notificationsUnsubscribe.body, rateLimit: RATE_LIMITS.unsubscribe },
    async ({ body }) => {
      const { topic } = await unsubscribe(accounts.db, body.token, accounts.now());
      return { result: true as const, topic };
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

  addAccountWrite(app, routes.userKeysRegenerate, async ({ user, account, body }) => {
    const value = await regenerateKey(accounts, user, account, body.key);
    return { result: true as const, value };
  });

  // ── hashrate alerts (docs/notifications.md, "Hashrate alerts") ──────────────────────────────────
  addAccountRead(app, 'session', routes.userHashrateAlerts, (account) => readHashrateAlerts(accounts, account));
  addAccountWrite(app, routes.userHashrateAlertCreate, async ({ user, account, body }) => ({
    result: true as const,
    alert: await createHashrateAlert(
      accounts,
      user,
      account,
      body.kind === 'workers'
        ? { algorithm: body.algorithm, group: body.group, kind: 'workers', minWorkers: body.min_workers ?? 1 }
        : {
            algorithm: body.algorithm,
            group: body.group,
            kind: 'hashrate',
            thresholdHashrate: body.threshold_hashrate,
            thresholdPercent: body.threshold_percent,
          },
    ),
  }));
  addAccountWrite(app, routes.userHashrateAlertDelete, async ({ user, account, body }) => {
    await removeHashrateAlert(accounts, user, account, body.id);
    return { result: true as const };
  });

  // ── watcher links (docs/dashboard.md, "Watcher links") ───────────────────────────────────────
  addAccountRead(app, 'session', routes.userWatchers, (account) => readWatcherLinks(accounts, account));
  addAccountWrite(app, routes.userWatcherCreate, async ({ user, account, body }) => ({
    result: true as const,
    link: await createWatcherLink(accounts, user, account, {
      name: body.name,
      scope: body.scope,
      expiresInDays: body.expires_in_days,
    }),
  }));
  addAccountWrite(app, routes.userWatcherRevoke, async ({ user, account, body }) => {
    await revokeWatcher(accounts, user, account, body.id);
    return { result: true as const };
  });

  addAccountRead(app, 'session', routes.userRedirectConfig, (account) => readRedirects(accounts, account));

  addAccountWrite(app, routes.userRedirectConfigUpdate, async ({ user, account, body }) => {
    await updateRedirects(accounts, user, account, body.redirect_settings);
    return { result: true as const };
  });

  addAccountRead(app, 'session', routes.userReferrals, (account) => readReferrals(accounts, account, hashrate));

  addAccountWrite(
    app,
    routes.userCoupon,
    async ({ account, body }) => {
      await redeemCouponCode(accounts, account, body.coupon);
      return { result: true as const };
    },
    { preHandler: [perUser('coupon', USER_RATE_LIMITS.coupon)], rateLimit: RATE_LIMITS.coupon },
  );

  addRoute(
    app,
    routes.userGenerate2fa,
    { preHandler: [requireUser], checkOrigin: true },
    async ({ request, reply }) => {
      reply.headers(NO_STORE);
      return generateTwoFactor(accounts, auth.userOf(request).user, config.poolName);
    },
  );

  // One budget for enabling and disabling.
  const twoFactorUserLimit = perUser('2fa', USER_RATE_LIMITS.twoFactor);
  const twoFactorChanges = [
    [routes.userEnable2fa, enableTwoFactor],
    [routes.userDisable2fa, disableTwoFactor],
  ] as const;
  for (const [route, change] of twoFactorChanges) {
    addRoute(
      app,
      route,
      { preHandler: [requireUser, twoFactorUserLimit], body: route.body, rateLimit: RATE_LIMITS.twoFactor },
      async ({ request, body }) => {
        await change(accounts, auth.userOf(request).user, { ...body, ip: request.ip });
        return { result: true as const };
      },
    );
  }

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
    return reply.type('image/png').headers(NO_STORE).send(png);
  });

  addAccountRead(app, 'session', routes.userMostUsedAlgo, (account) => mostUsedAlgorithm(accounts, account));
}
