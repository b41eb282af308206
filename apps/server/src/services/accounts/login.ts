import {
  clearLoginFailures,
  releaseLoginAttempt,
  setLastLogin,
  takeLoginAttempt,
  type User,
  userByEmail,
  useTotpStep,
} from '@lodestone/db';
import { verifyPassword } from '../auth/passwords.js';
import { checkTotp } from '../auth/totp.js';
import { errors, type RateLimitedError } from '../errors.js';
import { logEvent } from '../userLog.js';
import type { AccountsContext } from './context.js';

export const LOGIN_MESSAGES = {
  invalid: 'Invalid email or password',
  codeRequired: 'Enter the 6-digit code from your authenticator app',
  invalidCode: 'Invalid 2FA code',
} as const;

/**
 * Lockout with exponential back-off per e-mail address: the first failures cost nothing; from the
 * fifth failure in a row the address is locked for 30 s, doubling with each further failure up to
 * 15 minutes. A failure more than a day after the previous one starts the count again; a successful
 * login clears it. Addresses that are not registered are counted the same way, so the lockout
 * reveals nothing about which addresses exist.
 */
export const LOCKOUT = {
  freeFailures: 4,
  firstLockMs: 30_000,
  maxLockMs: 15 * 60_000,
  forgetAfterMs: 24 * 3600_000,
} as const;

export function lockDuration(failures: number): number {
  if (failures <= LOCKOUT.freeFailures) return 0;
  return Math.min(LOCKOUT.firstLockMs * 2 ** (failures - LOCKOUT.freeFailures - 1), LOCKOUT.maxLockMs);
}

/**
 * LOGIN_LOCKED until the lock ends. `what` names the failures for the reader: failed logins at
 * login, wrong passwords or codes where a change asks for them again (reauth.ts shares the lock).
 */
export function lockedError(until: Date, now: Date, what = 'failed logins'): RateLimitedError {
  const seconds = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
  const wait = seconds < 90 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`;
  return errors.rateLimited('LOGIN_LOCKED', `Too many ${what}. Try again in ${wait}.`, seconds);
}

/**
 * Takes one attempt of this address against the lockout, or throws the lockout error. Taking it
 * counts it as a failure in advance, in one step with the lock check, so concurrent attempts cannot
 * all pass the check before the first failure is recorded; a success releases it.
 */
export async function takeAttempt(db: AccountsContext['db'], email: string, now: Date, what?: string) {
  const attempt = await takeLoginAttempt(db, email, now, new Date(now.getTime() - LOCKOUT.forgetAfterMs), lockDuration);
  if (!attempt.taken) throw lockedError(attempt.lockedUntil, now, what);
  return attempt;
}

export interface LoginInput {
  /** Lower case. */
  email: string;
  password: string;
  /** TOTP code; empty when none was given. */
  code: string;
  ip: string;
}

export interface Authenticated {
  user: User;
  /** True when the user has 2FA and this login checked a code (the session records it for admin tools). */
  twoFactorVerified: boolean;
}

/**
 * Checks e-mail, password and (when enabled) the 2FA code. A wrong e-mail and a wrong password get
 * the same answer after the same work; a wrong or reused 2FA code counts as a failed login too.
 * Returns the user and whether a 2FA code was checked; the caller creates the session.
 */
export async function authenticate(ctx: AccountsContext, input: LoginInput): Promise<Authenticated> {
  const { db } = ctx;
  const now = ctx.now();
  const attempt = await takeAttempt(db, input.email, now);

  const fail = async (user: User | undefined, reason: 'password' | '2fa') => {
    if (user) {
      await logEvent(db, now, {
        userId: user.id,
        name: 'failed_login',
        value: { reason, ip: input.ip, failures: attempt.failures },
      });
    }
    return reason === 'password'
      ? errors.unauthenticated('INVALID_CREDENTIALS', LOGIN_MESSAGES.invalid)
      : errors.unauthenticated('INVALID_2FA_CODE', LOGIN_MESSAGES.invalidCode);
  };

  const user = await userByEmail(db, input.email);
  if (!(await verifyPassword(user?.password_hash, input.password)) || !user) {
    throw await fail(user, 'password');
  }
  if (user.totp_secret) {
    if (!input.code) {
      // The password was right: not a failure, so the attempt is given back.
      await releaseLoginAttempt(db, input.email, attempt.lockedUntil);
      throw errors.unauthenticated('TOTP_REQUIRED', LOGIN_MESSAGES.codeRequired);
    }
    const step = await checkTotp(user.totp_secret, input.code, user.totp_last_step, now.getTime());
    if (step === null || !(await useTotpStep(db, user.id, step))) {
      throw await fail(user, '2fa');
    }
  }
  await clearLoginFailures(db, input.email);
  await setLastLogin(db, user.id, now);
  await logEvent(db, now, { userId: user.id, name: 'login', value: { ip: input.ip } });
  return { user, twoFactorVerified: user.totp_secret !== null };
}
