import type { RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { errors } from './errors.js';

/**
 * Requests per client address (behind a proxy, set TRUST_PROXY so the address is the client's), as
 * a route's `rateLimit`. Kept in each API process's memory: with N API processes behind a load
 * balancer an address gets up to N times these numbers, which the per-address login lockout (in the
 * database) does not.
 */
export const RATE_LIMITS = {
  login: { max: 10, timeWindow: 60_000 },
  register: { max: 10, timeWindow: 3600_000 },
  passwordReset: { max: 5, timeWindow: 15 * 60_000 },
  passwordResetSend: { max: 10, timeWindow: 15 * 60_000 },
  coupon: { max: 10, timeWindow: 15 * 60_000 },
  twoFactor: { max: 10, timeWindow: 15 * 60_000 },
  captchaChallenge: { max: 60, timeWindow: 60_000 },
  /** Unsubscribe links: a person clicks a few; guessing a signed token is hopeless, but costs queries. */
  unsubscribe: { max: 20, timeWindow: 15 * 60_000 },
} satisfies Record<string, RateLimitOptions>;

/**
 * The public calls' limits per client address, and per API key for api/user on top (`apiUserPerKey`):
 * a key shared by many machines is still held to its own budget. Answers carry the IETF
 * `RateLimit-*` headers; a 429 adds `Retry-After`.
 */
export const PUBLIC_RATE_LIMITS = {
  api: { max: 60, timeWindow: 60_000 },
  apiUser: { max: 30, timeWindow: 60_000 },
  apiUserPerKey: { max: 60, timeWindow: 60_000 },
  signature: { max: 30, timeWindow: 60_000 },
  vipApplication: { max: 5, timeWindow: 3600_000 },
} satisfies Record<string, RateLimitOptions>;

/** Per logged-in user, on top of the per-address limits: coupon and 2FA attempts. */
export const USER_RATE_LIMITS = {
  coupon: { max: 10, timeWindow: 3600_000 },
  twoFactor: { max: 10, timeWindow: 15 * 60_000 },
  /** Telegram link codes: each replaces the last, so a few are plenty. */
  telegramLink: { max: 10, timeWindow: 15 * 60_000 },
} as const;

/**
 * Login-as is limited per admin and per address. The limits run after the guard (not in the
 * route's onRequest like the public limits), so nobody but an admin ever sees a 429 that would
 * betray the route.
 */
export const ADMIN_LOGIN_LIMITS = {
  perAdmin: { max: 10, timeWindow: 60_000 },
  perAddress: { max: 20, timeWindow: 60_000 },
} as const;

export interface KeyedLimit {
  /** Keeps this limiter's keys apart from another's in the same store. */
  name: string;
  limit: { max: number; timeWindow: number };
  /** Whose budget the request spends (a user id, an address, a hashed key); undefined: not limited. */
  keyOf(request: FastifyRequest): string | undefined;
  /** The 429's first sentence, before "Try again in N seconds." */
  refusal: string;
  /**
   * Also answer this limit's `RateLimit-*` headers when it is the tighter of it and the route's
   * per-address limit (which sets them first), so a client sees the budget that will stop it.
   */
  headers?: boolean;
}

/**
 * A limit keyed by something other than the client address — the user, the API key, the admin — run
 * as a preHandler, so it can key on what the guards before it established (`requireUser`). Over the
 * limit: 429 with Retry-After. One limiter's budget is shared by every route it is given to.
 */
export function keyedLimit(app: FastifyInstance, options: KeyedLimit): preHandlerAsyncHookHandler {
  const { name, keyOf } = options;
  const check = app.createRateLimit({ ...options.limit, keyGenerator: (request) => `${name}:${keyOf(request)}` });
  return async (request, reply) => {
    if (keyOf(request) === undefined) return;
    const state = await check(request);
    if (state.isAllowed) return;
    if (options.headers) {
      const remaining = state.isExceeded ? 0 : state.remaining;
      const shown = Number(reply.getHeader('ratelimit-remaining'));
      if (state.isExceeded || !Number.isFinite(shown) || remaining < shown) {
        reply.headers({
          'ratelimit-limit': state.max,
          'ratelimit-remaining': remaining,
          'ratelimit-reset': state.ttlInSeconds,
        });
      }
    }
    if (!state.isExceeded) return;
    reply.header('retry-after', state.ttlInSeconds);
    throw errors.tooManyRequests(`${options.refusal} Try again in ${state.ttlInSeconds} seconds.`, state.ttlInSeconds);
  };
}
