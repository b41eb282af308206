import { routes } from '@lodestone/contract';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { z } from 'zod';
import { errors } from '../../http/errors.js';
import { ADMIN_LOGIN_LIMITS, keyedLimit } from '../../http/rateLimits.js';
import { addRoute, type ContractRoute } from '../../http/route.js';
import { adjustBalance } from '../../services/admin/balance.js';
import { loginAsUser } from '../../services/admin/impersonation.js';
import { type LogSearch, readUserLog } from '../../services/admin/logs.js';
import { ADMIN_MESSAGES } from '../../services/admin/messages.js';
import { viewTreasury } from '../../services/admin/treasury.js';
import { listUsersForAdmin } from '../../services/admin/users.js';
import { NO_STORE } from '../twinRoutes.js';

/**
 * Spec 7 "Admin": users, user logs, log in as a user, balance adjustments, and the treasury (ours,
 * docs/admin.md "Treasury"). Guard, in order:
 * 401 without a session; 404 for anyone who is not an admin (the calls do not reveal themselves),
 * and for a session in which an admin is impersonating someone (admin power does not travel into
 * it); 403 while ADMIN_REQUIRE_2FA is on when the admin has no 2FA, or has it but the session's
 * login did not check a code (the admin logs in again with the code). Every call is recorded in the
 * admin's log, and in the target user's log where there is one (docs/admin.md).
 */
export async function adminRoutes(app: FastifyInstance): Promise<void> {
  const { auth } = app;
  const { accounts, config } = app.services;

  const adminOnly: preHandlerAsyncHookHandler = async (request) => {
    const { user, impersonatorUserId, twoFactorVerified } = auth.userOf(request);
    if (impersonatorUserId !== null) throw errors.notFound();
    if (!config.adminRequire2fa) return;
    // 2FA on the user is not enough: the session must have passed it at login, or a stolen cookie
    // of an admin without 2FA could switch 2FA on and become a full admin session.
    if (user.totp_secret === null) {
      throw errors.refused('ADMIN_2FA_REQUIRED', ADMIN_MESSAGES.twoFactorRequired, 403);
    }
    if (!twoFactorVerified) throw errors.refused('ADMIN_2FA_REQUIRED', ADMIN_MESSAGES.twoFactorLoginRequired, 403);
  };
  const guard = [auth.requireAdmin, adminOnly];

  // After the guard (not in the route's onRequest like the public limits), so nobody but an admin
  // ever sees a 429 that would betray the route.
  const refusal = 'Too many requests.';
  const loginLimits = [
    keyedLimit(app, {
      name: 'admin-login-admin',
      limit: ADMIN_LOGIN_LIMITS.perAdmin,
      keyOf: (r) => auth.userOf(r).user.id.toString(),
      refusal,
    }),
    keyedLimit(app, { name: 'admin-login-address', limit: ADMIN_LOGIN_LIMITS.perAddress, keyOf: (r) => r.ip, refusal }),
  ];

  addRoute(app, routes.adminUsers, { preHandler: guard }, async ({ request, reply }) => {
    reply.headers(NO_STORE);
    return listUsersForAdmin(accounts, auth.userOf(request).user, request.ip);
  });

  // The log of a user (by e-mail, narrowed to one of their accounts by username) or of an account (by username).
  const addLogRoute = <B extends z.ZodType<{ page: number }, unknown>>(
    route: ContractRoute<typeof routes.adminLogsUser.response> & { body: B },
    searchOf: (body: z.output<B>) => LogSearch,
  ) =>
    addRoute(app, route, { preHandler: guard, body: route.body }, async ({ request, reply, body }) => {
      reply.headers(NO_STORE);
      return readUserLog(accounts, auth.userOf(request).user, searchOf(body), body.page, request.ip);
    });
  addLogRoute(routes.adminLogsUser, (body) =>
    body.username ? { email: body.email, username: body.username } : { email: body.email },
  );
  addLogRoute(routes.adminLogsAccount, (body) => ({ username: body.username }));

  addRoute(
    app,
    routes.adminLogin,
    { preHandler: [...guard, ...loginLimits], body: routes.adminLogin.body },
    async ({ request, reply, body }) => {
      const current = auth.userOf(request);
      const token = await loginAsUser(accounts, current.user, current.sessionId, body.email, request.ip);
      auth.setSessionCookie(reply, token);
      return { result: true as const };
    },
  );

  addRoute(
    app,
    routes.adminBalance,
    { preHandler: guard, body: routes.adminBalance.body },
    async ({ request, body }) => {
      await adjustBalance(accounts, auth.userOf(request).user, { ...body, ip: request.ip });
      return true as const;
    },
  );

  addRoute(app, routes.adminTreasury, { preHandler: guard }, async ({ request, reply }) => {
    reply.headers(NO_STORE);
    return viewTreasury(accounts, auth.userOf(request).user, request.ip);
  });
}
