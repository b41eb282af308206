import {
  activatePendingTotp,
  clearSessionsTwoFactor,
  clearTotp,
  setPendingTotpSecret,
  type User,
  useTotpStep,
} from '@lodestone/db';
import { checkTotp, newTotpSecret, otpauthUrl } from '../auth/totp.js';
import { errors } from '../errors.js';
import { logEvent } from '../userLog.js';
import type { AccountsContext } from './context.js';
import { reauthenticate } from './reauth.js';

export const TWO_FACTOR_MESSAGES = {
  alreadyEnabled: 'Two-factor authentication is already enabled',
  notEnabled: 'Two-factor authentication is not enabled',
  noPending: 'Generate a new 2FA secret first',
  invalidCode: 'Invalid 2FA code',
} as const;

/** The otpauth URL of a user's secret: the pool's name as issuer, the e-mail as label. */
export function userOtpauthUrl(issuer: string, user: User, secret: string): string {
  return otpauthUrl(issuer, user.email, secret);
}

/** GET user/config/generate2FA: a new pending secret (replacing any earlier pending one). */
export async function generateTwoFactor(
  ctx: AccountsContext,
  user: User,
  issuer: string,
): Promise<{ result: string; otpauth_url: string }> {
  if (user.totp_secret) throw errors.refused('TWO_FACTOR_ENABLED', TWO_FACTOR_MESSAGES.alreadyEnabled);
  const secret = newTotpSecret();
  await setPendingTotpSecret(ctx.db, user.id, secret);
  return { result: secret, otpauth_url: userOtpauthUrl(issuer, user, secret) };
}

const invalidCode = () => errors.refused('INVALID_2FA_CODE', TWO_FACTOR_MESSAGES.invalidCode);

/**
 * POST user/config/enable2FA: the pending secret becomes active when the password is right
 * (reauth.ts: a session cookie alone cannot switch 2FA on) and the code of the pending secret is
 * right. The session it runs in does not count as having passed 2FA: admin tools need a new login
 * with a code.
 */
export async function enableTwoFactor(
  ctx: AccountsContext,
  user: User,
  input: { password: string; code: string; ip: string },
): Promise<void> {
  if (user.totp_secret) throw errors.refused('TWO_FACTOR_ENABLED', TWO_FACTOR_MESSAGES.alreadyEnabled);
  const secret = user.totp_pending_secret;
  if (!secret) throw errors.refused('NO_PENDING_2FA', TWO_FACTOR_MESSAGES.noPending);
  // 2FA is off, so this checks the password only; the code below is the new secret's.
  await reauthenticate(ctx, user, '2fa_enable', { password: input.password, code: '', ip: input.ip });
  const now = ctx.now();
  const step = await checkTotp(secret, input.code, user.totp_last_step, now.getTime());
  if (step === null) throw invalidCode();
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await useTotpStep(trx, user.id, step))) throw invalidCode();
    if (!(await activatePendingTotp(trx, user.id, secret)))
      throw errors.refused('NO_PENDING_2FA', TWO_FACTOR_MESSAGES.noPending);
    await logEvent(trx, now, { userId: user.id, name: '2fa_enabled', value: { ip: input.ip } });
  });
}

/**
 * POST user/config/disable2FA: needs the password and a valid, unused code of the active secret
 * (reauth.ts). No session of the user counts as having passed 2FA afterwards.
 */
export async function disableTwoFactor(
  ctx: AccountsContext,
  user: User,
  input: { password: string; code: string; ip: string },
): Promise<void> {
  if (!user.totp_secret) throw errors.refused('TWO_FACTOR_DISABLED', TWO_FACTOR_MESSAGES.notEnabled);
  await reauthenticate(ctx, user, '2fa_disable', input);
  const now = ctx.now();
  await ctx.db.transaction().execute(async (trx) => {
    await clearTotp(trx, user.id);
    await clearSessionsTwoFactor(trx, user.id);
    await logEvent(trx, now, { userId: user.id, name: '2fa_disabled', value: { ip: input.ip } });
  });
}
