import {
  accountByReferralCode,
  couponByCodeForUpdate,
  emailRegistered,
  insertAccount,
  insertUser,
  type User,
  usernameTaken,
} from '@lodestone/db';
import { hashPassword } from '../auth/passwords.js';
import { errors } from '../errors.js';
import { logEvent } from '../userLog.js';
import { newAccountSecrets } from './accountValues.js';
import type { AccountsContext } from './context.js';
import { applyCoupon } from './coupons.js';

export const REGISTER_MESSAGES = {
  usernameTaken: 'Username already taken',
  emailTaken: 'Email already registered',
  unknownCode: 'Unknown referral or discount code',
} as const;

export interface RegisterInput {
  username: string;
  /** Lower case. */
  email: string;
  password: string;
  /** Referral code of another account, or a coupon code; empty for none. */
  referral: string;
  /** The landing route the visitor came from (/reddit, ...), if recorded. */
  referralSource: string | null;
  ip: string;
}

const usernameTakenError = () => errors.taken('USERNAME_TAKEN', REGISTER_MESSAGES.usernameTaken);
const emailTakenError = () => errors.taken('EMAIL_TAKEN', REGISTER_MESSAGES.emailTaken);

/**
 * Creates a user and its first account in one transaction. The referral field is first read as
 * another account's referral code (the new account is then referred by it), else as a coupon code
 * (redeemed for the new account), else refused. Returns the new user; the caller logs them in.
 */
export async function registerUser(ctx: AccountsContext, input: RegisterInput): Promise<User> {
  const passwordHash = await hashPassword(input.password);
  const now = ctx.now();
  return ctx.db.transaction().execute(async (trx) => {
    if (await usernameTaken(trx, input.username)) throw usernameTakenError();
    if (await emailRegistered(trx, input.email)) throw emailTakenError();

    const code = input.referral.trim();
    const referrer = code ? await accountByReferralCode(trx, code.toUpperCase()) : undefined;
    const coupon = code && !referrer ? await couponByCodeForUpdate(trx, code) : undefined;
    if (code && !referrer && !coupon) throw errors.refused('UNKNOWN_REFERRAL_CODE', REGISTER_MESSAGES.unknownCode);

    // Taken now although free above: a registration racing for the same name or address got
    // there first, and this one gets the same answer as if it had come second.
    const newUser = await insertUser(trx, {
      email: input.email,
      passwordHash,
      referralSource: input.referralSource,
    });
    if (!newUser.ok) throw emailTakenError();
    const user = newUser.row;
    const newAccount = await insertAccount(trx, {
      userId: user.id,
      username: input.username,
      referredBy: referrer?.id ?? null,
      ...(await newAccountSecrets(trx)),
    });
    if (!newAccount.ok) throw usernameTakenError();
    const account = newAccount.row;
    await logEvent(trx, now, {
      userId: user.id,
      accountId: account.id,
      name: 'registered',
      value: {
        username: account.username,
        ip: input.ip,
        ...(input.referralSource ? { source: input.referralSource } : {}),
      },
    });
    await logEvent(trx, now, {
      userId: user.id,
      accountId: account.id,
      name: 'account_created',
      value: { username: account.username },
    });
    if (referrer) {
      await logEvent(trx, now, {
        userId: user.id,
        accountId: account.id,
        name: 'referred',
        value: { referral_code: referrer.referral_code, referrer: referrer.username },
      });
    }
    if (coupon) await applyCoupon(trx, now, coupon, account);
    return user;
  });
}
