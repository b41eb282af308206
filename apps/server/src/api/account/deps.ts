import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { Config } from '../../config/config.js';
import type { Auth } from '../../http/auth.js';
import { errors } from '../../http/errors.js';
import type { AccountsContext } from '../../services/accounts/context.js';
import type { Captcha } from '../../services/auth/captcha.js';
import type { BackgroundTasks } from '../../services/background.js';
import type { Mailer } from '../../services/mail.js';

/** What the account and session routes use. */
export interface AccountRouteDeps {
  config: Config;
  auth: Auth;
  accounts: AccountsContext;
  captcha: Captcha;
  mailer: Mailer;
  tasks: BackgroundTasks;
}

/**
 * A limit per logged-in user (run after requireUser), on top of the per-address one: a user behind
 * many addresses is still held to `max` attempts per `timeWindow`.
 */
export function perUserLimit(
  app: FastifyInstance,
  auth: Auth,
  name: string,
  limit: { max: number; timeWindow: number },
): preHandlerAsyncHookHandler {
  const check = app.createRateLimit({
    ...limit,
    keyGenerator: (request) => `${name}:${auth.userOf(request).user.id}`,
  });
  return async (request, reply) => {
    const state = await check(request);
    if (state.isAllowed || !state.isExceeded) return;
    reply.header('retry-after', state.ttlInSeconds);
    throw errors.tooManyRequests(`Too many attempts. Try again in ${state.ttlInSeconds} seconds.`, state.ttlInSeconds);
  };
}
