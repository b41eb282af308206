import { routes } from '@lodestone/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RATE_LIMITS } from '../../http/rateLimits.js';
import { addRoute } from '../../http/route.js';
import { userInfo } from '../../services/accounts/accounts.js';
import { authenticate } from '../../services/accounts/login.js';
import { resetPassword, sendRecoveryKey } from '../../services/accounts/recovery.js';
import {
  REFERRAL_SOURCE_COOKIE,
  REFERRAL_SOURCE_MAX_AGE_S,
  REFERRAL_SOURCE_PATTERN,
  recordReferralVisit,
} from '../../services/accounts/referralSource.js';
import { registerUser } from '../../services/accounts/register.js';
import { logOutEverywhere, logOutSession, readSessions } from '../../services/accounts/sessionList.js';
import { SESSION_COOKIE, type SessionClient } from '../../services/auth/sessions.js';
import { logEvent } from '../../services/userLog.js';
import { addRobotCheckedForm } from '../robotCheckedForm.js';

/** The browser of a request, as the session list shows it. */
export function clientOf(request: FastifyRequest): SessionClient {
  return { userAgent: request.headers['user-agent'], ip: request.ip };
}

/**
 * The session calls (docs/accounts.md): robot-check challenge, register, login, info, logout, password
 * recovery and the referral-source tracking of the landing routes.
 */
export async function sessionRoutes(app: FastifyInstance): Promise<void> {
  const { auth } = app;
  const { accounts, captcha, config, tasks, recoveryMail } = app.services;
  const secure = config.publicUrl.startsWith('https://');

  addRoute(app, routes.captchaChallenge, { rateLimit: RATE_LIMITS.captchaChallenge }, async ({ reply }) => {
    reply.header('cache-control', 'no-store');
    return captcha.challenge();
  });

  addRobotCheckedForm(app, routes.userRegister, RATE_LIMITS.register, async ({ body, request, reply }) => {
    const source = request.cookies[REFERRAL_SOURCE_COOKIE];
    const user = await registerUser(accounts, {
      username: body.username,
      email: body.email,
      password: body.password,
      referral: body.referral,
      referralSource: source && REFERRAL_SOURCE_PATTERN.test(source) ? source : null,
      ip: request.ip,
    });
    await accounts.sessions.revoke(request.cookies[SESSION_COOKIE]);
    auth.setSessionCookie(reply, await accounts.sessions.create(user.id, { client: clientOf(request) }));
    if (source !== undefined) reply.clearCookie(REFERRAL_SOURCE_COOKIE, { path: '/' });
    return { result: true as const };
  });

  addRobotCheckedForm(app, routes.userLogin, RATE_LIMITS.login, async ({ body, request, reply }) => {
    const { user, twoFactorVerified } = await authenticate(accounts, {
      email: body.email,
      password: body.password,
      code: body.code,
      ip: request.ip,
    });
    // Rotation: whatever session the browser had ends; the login gets a new token, marked as
    // having passed 2FA when a code was checked (admin tools ask for such a session).
    await accounts.sessions.revoke(request.cookies[SESSION_COOKIE]);
    auth.setSessionCookie(
      reply,
      await accounts.sessions.create(user.id, { twoFactorVerified, client: clientOf(request) }),
    );
    return { result: true as const };
  });

  addRoute(app, routes.userInfo, {}, async ({ request, reply }) => {
    reply.header('cache-control', 'no-store');
    const current = await auth.currentUser(request, reply);
    if (!current) return { result: false as const };
    return userInfo(accounts, current.user, current.impersonatorUserId);
  });

  addRoute(app, routes.userLogout, {}, async ({ request, reply }) => {
    const current = await auth.currentUser(request, reply);
    if (current) {
      await accounts.sessions.revoke(request.cookies[SESSION_COOKIE]);
      await logEvent(accounts.db, accounts.now(), {
        userId: current.user.id,
        name: 'logout',
        value: { ip: request.ip },
      });
    }
    auth.clearSessionCookie(reply);
    return { result: true };
  });

  // ── Settings, "Sessions": where the user is logged in ──────────────────────────────────────────
  addRoute(app, routes.userSessions, { preHandler: [auth.requireUser] }, async ({ request, reply }) => {
    reply.header('cache-control', 'no-store');
    const { user, sessionId } = auth.userOf(request);
    return readSessions(accounts, user, sessionId);
  });

  addRoute(
    app,
    routes.userSessionLogout,
    { preHandler: [auth.requireUser], body: routes.userSessionLogout.body },
    async ({ request, body }) => {
      const { user, sessionId } = auth.userOf(request);
      await logOutSession(accounts, user, { id: body.id, currentId: sessionId, ip: request.ip });
      return { result: true as const };
    },
  );

  addRoute(app, routes.userSessionsLogoutAll, { preHandler: [auth.requireUser] }, async ({ request, reply }) => {
    await logOutEverywhere(accounts, auth.userOf(request).user, request.ip);
    // This browser's session ended with the others.
    auth.clearSessionCookie(reply);
    return { result: true as const };
  });

  addRobotCheckedForm(app, routes.passwordReset, RATE_LIMITS.passwordReset, async ({ body, request }) => {
    // The answer does not wait for the lookup or the e-mail: it is the same, and as fast, for any address.
    tasks.run('password recovery e-mail', () => sendRecoveryKey(accounts, recoveryMail, body.email, request.ip));
    return { result: true as const };
  });

  addRoute(
    app,
    routes.passwordResetSend,
    {
      query: routes.passwordResetSend.query,
      body: routes.passwordResetSend.body,
      rateLimit: RATE_LIMITS.passwordResetSend,
    },
    async ({ query, body, request, reply }) => {
      await resetPassword(accounts, {
        email: query.email,
        key: body.recovery_key,
        password: body.password,
        ip: request.ip,
      });
      // Every session ended, this browser's too.
      auth.clearSessionCookie(reply);
      return { result: true as const };
    },
  );

  addRoute(app, routes.userSetReferral, { query: routes.userSetReferral.query }, async ({ query, request, reply }) => {
    await recordReferralVisit(accounts, query.code);
    if (!(await auth.currentUser(request, reply))) {
      reply.setCookie(REFERRAL_SOURCE_COOKIE, query.code, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure,
        maxAge: REFERRAL_SOURCE_MAX_AGE_S,
      });
    }
    return { result: true as const };
  });
}
