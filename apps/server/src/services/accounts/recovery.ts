import {
  accountsOfUser,
  clearLoginFailures,
  consumePasswordReset,
  countPasswordResetsSince,
  expireUserPasswordResets,
  insertPasswordReset,
  purgePasswordResets,
  setAccountKey,
  setPasswordHash,
  userByEmail,
} from '@lodestone/db';
import { hashPassword } from '../auth/passwords.js';
import { randomToken, sha256Hex } from '../auth/tokens.js';
import { errors } from '../errors.js';
import type { Mailer } from '../mail.js';
import { logEvent } from '../userLog.js';
import type { AccountsContext } from './context.js';

/** A recovery key works once, within this time. */
export const RECOVERY_KEY_TTL_MS = 3600_000;
/** At most this many recovery e-mails per user and hour; further requests send nothing. */
export const RECOVERY_EMAILS_PER_HOUR = 3;

export const INVALID_RECOVERY_KEY = 'Invalid or expired recovery key';

export interface RecoveryMail {
  mailer: Mailer;
  publicUrl: string;
  poolName: string;
}

/** The link of the e-mail: the website's reset page with the key and the address. */
export function recoveryLink(publicUrl: string, key: string, email: string): string {
  const query = new URLSearchParams({ k: key, email });
  return `${publicUrl}/newPassword?${query.toString()}`;
}

/**
 * POST password/reset, after the robot check: when the address belongs to a user, a single-use key
 * valid for an hour is stored (as its SHA-256) and e-mailed. Unknown addresses get nothing, and the
 * caller answers the same either way without waiting for this (run it in the background).
 */
export async function sendRecoveryKey(ctx: AccountsContext, mail: RecoveryMail, email: string, ip: string) {
  const now = ctx.now();
  await purgePasswordResets(ctx.db, new Date(now.getTime() - 24 * 3600_000));
  const user = await userByEmail(ctx.db, email);
  if (!user) return;
  if (
    (await countPasswordResetsSince(ctx.db, user.id, new Date(now.getTime() - 3600_000))) >= RECOVERY_EMAILS_PER_HOUR
  ) {
    await logEvent(ctx.db, now, { userId: user.id, name: 'password_reset_throttled', value: { ip } });
    return;
  }
  const key = randomToken(32);
  await insertPasswordReset(ctx.db, {
    keyHash: sha256Hex(key),
    userId: user.id,
    now,
    expiresAt: new Date(now.getTime() + RECOVERY_KEY_TTL_MS),
  });
  await logEvent(ctx.db, now, { userId: user.id, name: 'password_reset_requested', value: { ip } });
  const link = recoveryLink(mail.publicUrl, key, user.email);
  await mail.mailer.send({
    to: user.email,
    subject: `${mail.poolName}: reset your password`,
    text: [
      'Someone (hopefully you) asked to reset the password of your account.',
      '',
      'Open this link within one hour to choose a new password:',
      link,
      '',
      `Recovery key: ${key}`,
      '',
      'If you did not ask for this, ignore this e-mail: your password stays as it is.',
    ].join('\n'),
  });
}

/**
 * POST password/reset_send: with a valid key for this address, sets the new password, uses up the
 * key (and any other outstanding key), ends every session, gives every account a new API key
 * (docs/accounts.md, "Password recovery") and clears the login lockout.
 */
export async function resetPassword(
  ctx: AccountsContext,
  input: { email: string; key: string; password: string; ip: string },
): Promise<void> {
  // Hash first, so an unknown address takes as long as a known one.
  const passwordHash = await hashPassword(input.password);
  const user = await userByEmail(ctx.db, input.email);
  if (!user) throw errors.refused('INVALID_RECOVERY_KEY', INVALID_RECOVERY_KEY);
  await ctx.db.transaction().execute(async (trx) => {
    const now = ctx.now();
    if (!(await consumePasswordReset(trx, sha256Hex(input.key), user.id, now))) {
      throw errors.refused('INVALID_RECOVERY_KEY', INVALID_RECOVERY_KEY);
    }
    await setPasswordHash(trx, user.id, passwordHash);
    await expireUserPasswordResets(trx, user.id, now);
    const sessions = await ctx.sessions.revokeAll(user.id, trx);
    for (const account of await accountsOfUser(trx, user.id)) {
      await setAccountKey(trx, account.id, 'api_key', randomToken(32));
    }
    await clearLoginFailures(trx, user.email);
    await logEvent(trx, now, {
      userId: user.id,
      name: 'password_reset',
      value: { ip: input.ip, sessions_revoked: sessions, api_keys_reset: true },
    });
  });
}
