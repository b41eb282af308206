import type { AccountSettings, UserConfigResponse, UserInfo } from '@lodestone/contract';
import {
  type Account,
  type AccountKey,
  accountsOfUser,
  deleteRedirectsOfAccount,
  eraseUser,
  expireUserPasswordResets,
  insertAccount,
  lockUser,
  setAccountKey,
  softDeleteAccount,
  type User,
  type UserPreferences,
  updateUserPreferences,
  usernameTaken,
} from '@lodestone/db';
import { decimalToNumber } from '@lodestone/domain';
import { randomToken } from '../auth/tokens.js';
import { errors } from '../errors.js';
import { logEvent } from '../userLog.js';
import { newAccountSecrets } from './accountValues.js';
import type { AccountsContext } from './context.js';
import { REGISTER_MESSAGES } from './register.js';

/** One person rarely needs more; the limit keeps a stolen session from creating names by the thousand. */
export const MAX_ACCOUNTS_PER_USER = 20;

function summary(account: Account) {
  return { username: account.username, created_at: account.created_at.toISOString() };
}

/** GET user/info */
export async function userInfo(ctx: AccountsContext, user: User, impersonatorUserId: bigint | null): Promise<UserInfo> {
  const accounts = await accountsOfUser(ctx.db, user.id);
  return {
    result: true,
    email: user.email,
    accounts: accounts.map(summary),
    two_factor_enabled: user.totp_secret !== null,
    is_admin: user.is_admin,
    impersonated: impersonatorUserId !== null,
  };
}

/** GET user/accounts */
export async function listAccounts(ctx: AccountsContext, userId: bigint) {
  return { accounts: (await accountsOfUser(ctx.db, userId)).map(summary) };
}

function accountSettings(account: Account): AccountSettings {
  return {
    username: account.username,
    api_key: account.api_key ?? '',
    observer_key: account.observer_key ?? '',
    referral_code: account.referral_code,
    referral_show: account.referral_show,
    fee_discount: decimalToNumber(account.fee_discount),
  };
}

/** GET user/config */
export async function userConfig(ctx: AccountsContext, user: User): Promise<UserConfigResponse> {
  const accounts = await accountsOfUser(ctx.db, user.id);
  return {
    anonymous: user.anonymous,
    send_monthly_reports: user.send_monthly_reports,
    offline_worker_notification: user.offline_worker_notification,
    offline_worker_window_minutes: user.offline_worker_window_minutes,
    telegram_notifications: user.telegram_notifications,
    offline_worker_telegram_only: user.offline_worker_telegram_only,
    two_factor_enabled: user.totp_secret !== null,
    account_specific: accounts.map(accountSettings),
  };
}

/** POST user/config/update: absent fields stay as they are. */
export async function updateUserConfig(ctx: AccountsContext, user: User, prefs: UserPreferences): Promise<void> {
  const changed = Object.fromEntries(
    Object.entries(prefs).filter(([key, value]) => value !== undefined && user[key as keyof User] !== value),
  );
  await ctx.db.transaction().execute(async (trx) => {
    await updateUserPreferences(trx, user.id, prefs);
    if (Object.keys(changed).length > 0) {
      await logEvent(trx, ctx.now(), { userId: user.id, name: 'settings_changed', value: changed });
    }
  });
}

/** POST user/new_account */
export async function createAccount(ctx: AccountsContext, user: User, username: string): Promise<Account> {
  const taken = () => errors.taken('USERNAME_TAKEN', REGISTER_MESSAGES.usernameTaken);
  return ctx.db.transaction().execute(async (trx) => {
    await lockUser(trx, user.id); // parallel calls count one after the other
    const existing = await accountsOfUser(trx, user.id);
    if (existing.length >= MAX_ACCOUNTS_PER_USER) {
      throw errors.refused('TOO_MANY_ACCOUNTS', `You can have at most ${MAX_ACCOUNTS_PER_USER} accounts`);
    }
    if (await usernameTaken(trx, username)) throw taken();
    // Taken now although free above: another user's call for the same name got there first.
    const inserted = await insertAccount(trx, { userId: user.id, username, ...(await newAccountSecrets(trx)) });
    if (!inserted.ok) throw taken();
    const account = inserted.row;
    await logEvent(trx, ctx.now(), {
      userId: user.id,
      accountId: account.id,
      name: 'account_created',
      value: { username: account.username },
    });
    return account;
  });
}

/**
 * POST user/remove_account. The account is removed: stratum refuses its name, its keys stop working,
 * its redirects end; the name and referral code stay reserved; its balance and ledger history stay.
 * Removing the user's last account deletes the user's personal data (docs/accounts.md): e-mail
 * replaced by a tombstone, password and 2FA cleared, every session ended.
 */
export async function removeAccount(
  ctx: AccountsContext,
  user: User,
  account: Account,
): Promise<{ userDeleted: boolean }> {
  return ctx.db.transaction().execute(async (trx) => {
    await lockUser(trx, user.id); // concurrent removals of the last accounts erase the user once
    const now = ctx.now();
    await softDeleteAccount(trx, account.id, now);
    await deleteRedirectsOfAccount(trx, account.id);
    await logEvent(trx, now, {
      userId: user.id,
      accountId: account.id,
      name: 'account_removed',
      value: { username: account.username },
    });
    const remaining = await accountsOfUser(trx, user.id);
    if (remaining.length > 0) return { userDeleted: false };
    await logEvent(trx, now, { userId: user.id, name: 'user_deleted', value: {} });
    await eraseUser(trx, user.id, now);
    await expireUserPasswordResets(trx, user.id, now);
    await ctx.sessions.revokeAll(user.id, trx);
    return { userDeleted: true };
  });
}

/** POST user/keys/regenerate: a new API or observer key; the old one stops working at once. */
export async function regenerateKey(
  ctx: AccountsContext,
  user: User,
  account: Account,
  key: AccountKey,
): Promise<string> {
  const value = randomToken(32);
  await ctx.db.transaction().execute(async (trx) => {
    await setAccountKey(trx, account.id, key, value);
    await logEvent(trx, ctx.now(), {
      userId: user.id,
      accountId: account.id,
      name: key === 'api_key' ? 'api_key_regenerated' : 'observer_key_regenerated',
    });
  });
  return value;
}
