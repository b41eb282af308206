import { clearLoginFailures, type DB, type User, useTotpStep } from '@lodestone/db';
import type { Kysely } from 'kysely';
import { verifyPassword } from '../auth/passwords.js';
import { checkTotp } from '../auth/totp.js';
import { errors } from '../errors.js';
import { logEvent } from '../userLog.js';
import { takeAttempt } from './login.js';

/**
 * What a change that could hand the account to someone else asks for again (docs/accounts.md
 * "Passwords and 2FA"): a session cookie alone is not enough to switch 2FA on or off or to change
 * where payouts go. Refusals are `refused`, not `unauthenticated`: the API answers that one with 401,
 * which would tell the website the session ended.
 */
export const REAUTH_MESSAGES = {
  passwordRequired: 'Enter your password to confirm this change',
  wrongPassword: 'Wrong password',
  codeRequired: 'Enter the 6-digit code from your authenticator app',
  invalidCode: 'Invalid 2FA code',
} as const;

/** The changes that ask for the password again; recorded with a failed attempt in the user log. */
export type ReauthAction = '2fa_enable' | '2fa_disable' | 'payout_addresses';

export interface Reauthentication {
  /** The current password; empty when none was given. */
  password: string;
  /** The current 2FA code; empty when none was given. Checked (and used up) when the user has 2FA on. */
  code: string;
  ip: string;
}

/**
 * Checks the password again, and the current 2FA code when the user has 2FA on. Missing fields are
 * refused without counting anything (PASSWORD_REQUIRED, TOTP_REQUIRED). A wrong password
 * (INVALID_PASSWORD) or a wrong or reused code (INVALID_2FA_CODE) counts as a failed login of the
 * user's address: the same lockout as the login form (login.ts, in the database), so a stolen
 * cookie cannot guess the password here faster than at login; while the address is locked the
 * answer is LOGIN_LOCKED (rateLimited). Failures are recorded as `reauth_failed` in the user log; success
 * clears the failure count, as a successful login does.
 */
export async function reauthenticate(
  ctx: { db: Kysely<DB>; now(): Date },
  user: User,
  action: ReauthAction,
  input: Reauthentication,
): Promise<void> {
  const { db } = ctx;
  const twoFactor = user.totp_secret;
  if (input.password === '') throw errors.refused('PASSWORD_REQUIRED', REAUTH_MESSAGES.passwordRequired);
  if (twoFactor && input.code.trim() === '') throw errors.refused('TOTP_REQUIRED', REAUTH_MESSAGES.codeRequired);

  const now = ctx.now();
  const attempt = await takeAttempt(db, user.email, now, 'wrong passwords or codes');

  const fail = async (reason: 'password' | '2fa') => {
    await logEvent(db, now, {
      userId: user.id,
      name: 'reauth_failed',
      value: { action, reason, ip: input.ip, failures: attempt.failures },
    });
    return reason === 'password'
      ? errors.refused('INVALID_PASSWORD', REAUTH_MESSAGES.wrongPassword)
      : errors.refused('INVALID_2FA_CODE', REAUTH_MESSAGES.invalidCode);
  };

  if (!(await verifyPassword(user.password_hash, input.password))) throw await fail('password');
  if (twoFactor) {
    const step = await checkTotp(twoFactor, input.code.trim(), user.totp_last_step, now.getTime());
    if (step === null || !(await useTotpStep(db, user.id, step))) throw await fail('2fa');
  }
  await clearLoginFailures(db, user.email);
}
