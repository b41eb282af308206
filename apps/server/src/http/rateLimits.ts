import type { RateLimitOptions } from '@fastify/rate-limit';

/**
 * Requests per client address (behind a proxy, set TRUST_PROXY so the address is the client's).
 * Kept in each API process's memory: with N API processes behind a load balancer an address gets
 * up to N times these numbers, which the per-address login lockout (in the database) does not.
 */
export const RATE_LIMITS = {
  login: { max: 10, timeWindow: 60_000 },
  register: { max: 10, timeWindow: 3600_000 },
  passwordReset: { max: 5, timeWindow: 15 * 60_000 },
  passwordResetSend: { max: 10, timeWindow: 15 * 60_000 },
  coupon: { max: 10, timeWindow: 15 * 60_000 },
  twoFactor: { max: 10, timeWindow: 15 * 60_000 },
  captchaChallenge: { max: 60, timeWindow: 60_000 },
} satisfies Record<string, RateLimitOptions>;

/** Per logged-in user, on top of the per-address limits: coupon and 2FA attempts. */
export const USER_RATE_LIMITS = {
  coupon: { max: 10, timeWindow: 3600_000 },
  twoFactor: { max: 10, timeWindow: 15 * 60_000 },
} as const;
