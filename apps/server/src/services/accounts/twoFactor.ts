import { activatePendingTotp, clearTotp, setPendingTotpSecret, type User, useTotpStep } from '@lodestone/db';
import { errors } from '../../http/errors.js';
import { checkTotp, newTotpSecret, otpauthUrl } from '../auth/totp.js';
import { type AccountsContext, logEvent } from './context.js';

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

/** POST user/config/enable2FA: the pending secret becomes active when the code is right. */
export async function enableTwoFactor(ctx: AccountsContext, user: User, code: string): Promise<void> {
  if (user.totp_secret) throw errors.refused('TWO_FACTOR_ENABLED', TWO_FACTOR_MESSAGES.alreadyEnabled);
  const secret = user.totp_pending_secret;
  if (!secret) throw errors.refused('NO_PENDING_2FA', TWO_FACTOR_MESSAGES.noPending);
  const now = ctx.now();
  const step = await checkTotp(secret, code, user.totp_last_step, now.getTime());
  if (step === null) throw invalidCode();
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await useTotpStep(trx, user.id, step))) throw invalidCode();
    if (!(await activatePendingTotp(trx, user.id, secret)))
      throw errors.refused('NO_PENDING_2FA', TWO_FACTOR_MESSAGES.noPending);
    await logEvent(trx, now, { userId: user.id, name: '2fa_enabled' });
  });
}

/** POST user/config/disable2FA: needs a valid, unused code of the active secret. */
export async function disableTwoFactor(ctx: AccountsContext, user: User, code: string): Promise<void> {
  if (!user.totp_secret) throw errors.refused('TWO_FACTOR_DISABLED', TWO_FACTOR_MESSAGES.notEnabled);
  const now = ctx.now();
  const step = await checkTotp(user.totp_secret, code, user.totp_last_step, now.getTime());
  if (step === null) throw invalidCode();
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await useTotpStep(trx, user.id, step))) throw invalidCode();
    await clearTotp(trx, user.id);
    await logEvent(trx, now, { userId: user.id, name: '2fa_disabled' });
  });
}
