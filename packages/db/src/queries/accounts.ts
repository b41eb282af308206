import { sql } from 'kysely';
import type { Account, Executor } from '../schema.js';
import { type Inserted, inserted } from './inserted.js';
import { revokeWatcherLinksOf } from './watcherLinks.js';

export interface NewAccount {
  userId: bigint;
  username: string;
  apiKey: string;
  observerKey: string;
  referralCode: string;
  referredBy?: bigint | null;
  feeDiscount?: string;
}

/** Creates an account unless its name is taken, in any letter case, by a live or a removed account. */
export async function insertAccount(db: Executor, account: NewAccount): Promise<Inserted<Account, 'username'>> {
  const row = await db
    .insertInto('accounts')
    .values({
      user_id: account.userId,
      username: account.username,
      api_key: account.apiKey,
      observer_key: account.observerKey,
      referral_code: account.referralCode,
      referred_by: account.referredBy ?? null,
      ...(account.feeDiscount === undefined ? {} : { fee_discount: account.feeDiscount }),
      deleted_at: null,
    })
    .onConflict((oc) => oc.expression(sql`lower(username)`).doNothing())
    .returningAll()
    .executeTakeFirst();
  return inserted(row, 'username');
}

/** True when the name is taken in any letter case, by a live or a removed account. */
export async function usernameTaken(db: Executor, username: string): Promise<boolean> {
  const row = await db
    .selectFrom('accounts')
    .select('id')
    .where(sql`lower(username)`, '=', username.toLowerCase())
    .executeTakeFirst();
  return row !== undefined;
}

/** True when the referral code is in use (live or removed accounts). */
export async function referralCodeTaken(db: Executor, code: string): Promise<boolean> {
  const row = await db.selectFrom('accounts').select('id').where('referral_code', '=', code).executeTakeFirst();
  return row !== undefined;
}

/** The live accounts (not removed), to be narrowed by the caller. */
function liveAccounts(db: Executor) {
  return db.selectFrom('accounts').selectAll().where('deleted_at', 'is', null);
}

/** A user's live accounts, oldest first. */
export function accountsOfUser(db: Executor, userId: bigint): Promise<Account[]> {
  return liveAccounts(db).where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
}

/** One of the user's live accounts by name, whatever the letter case. */
export function accountOfUser(db: Executor, userId: bigint, username: string): Promise<Account | undefined> {
  return liveAccounts(db)
    .where(sql`lower(username)`, '=', username.toLowerCase())
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** A live account by name, whatever the letter case (redirect targets, referrals). */
export function liveAccountByUsername(db: Executor, username: string): Promise<Account | undefined> {
  return liveAccounts(db).where(sql`lower(username)`, '=', username.toLowerCase()).executeTakeFirst();
}

/** True when a live account has exactly this name, letter case included (stratum logins). */
export async function liveAccountNameExists(db: Executor, username: string): Promise<boolean> {
  const row = await db
    .selectFrom('accounts')
    .select('id')
    .where(sql`lower(username)`, '=', username.toLowerCase())
    .where('username', '=', username)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

/** A live account by its referral code (upper case). */
export function accountByReferralCode(db: Executor, code: string): Promise<Account | undefined> {
  return liveAccounts(db).where('referral_code', '=', code).executeTakeFirst();
}

/** A live account by its API key. */
export function accountByApiKey(db: Executor, key: string): Promise<Account | undefined> {
  return liveAccounts(db).where('api_key', '=', key).executeTakeFirst();
}

/** A live account by its observer key. */
export function accountByObserverKey(db: Executor, key: string): Promise<Account | undefined> {
  return liveAccounts(db).where('observer_key', '=', key).executeTakeFirst();
}

export type AccountKey = 'api_key' | 'observer_key';

export async function setAccountKey(db: Executor, accountId: bigint, key: AccountKey, value: string): Promise<void> {
  await db
    .updateTable('accounts')
    .set({ [key]: value })
    .where('id', '=', accountId)
    .where('deleted_at', 'is', null)
    .execute();
}

/** Locks the account row until the transaction ends (serializes changes of one account). */
export async function lockAccount(db: Executor, accountId: bigint): Promise<void> {
  await db.selectFrom('accounts').select('id').where('id', '=', accountId).forUpdate().execute();
}

/** Raises the account's fee discount to `discount` if that is more; returns the discount now in force. */
export async function raiseFeeDiscount(db: Executor, accountId: bigint, discount: string): Promise<string> {
  const row = await db
    .updateTable('accounts')
    .set((eb) => ({ fee_discount: eb.fn('greatest', [eb.ref('fee_discount'), eb.val(discount)]) }))
    .where('id', '=', accountId)
    .returning('fee_discount')
    .executeTakeFirstOrThrow();
  return row.fee_discount;
}

/** Removes an account: keys revoked, name and referral code kept (reserved forever). */
export async function softDeleteAccount(db: Executor, accountId: bigint, at: Date): Promise<void> {
  await db
    .updateTable('accounts')
    .set({ deleted_at: at, api_key: null, observer_key: null })
    .where('id', '=', accountId)
    .where('deleted_at', 'is', null)
    .execute();
  await revokeWatcherLinksOf(db, accountId, at);
}

/** Live accounts referred by this one, oldest first. */
export function referredAccounts(db: Executor, accountId: bigint): Promise<Account[]> {
  return liveAccounts(db).where('referred_by', '=', accountId).orderBy('created_at').orderBy('id').execute();
}

/**
 * Which of these account names (exact, as stratum logged them) belong to live accounts whose user
 * turned the `anonymous` flag off: the names public lists may show.
 */
export async function publicAccountNames(db: Executor, names: readonly string[]): Promise<Set<string>> {
  const unique = [...new Set(names)];
  if (unique.length === 0) return new Set();
  const rows = await db
    .selectFrom('accounts as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .select('a.username')
    .where('a.username', 'in', unique)
    .where('a.deleted_at', 'is', null)
    .where('u.anonymous', '=', false)
    .execute();
  return new Set(rows.map((r) => r.username));
}
