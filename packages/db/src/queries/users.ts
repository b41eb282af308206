import type { Executor, User } from '../schema.js';
import { type Inserted, inserted } from './inserted.js';

export interface NewUser {
  email: string;
  passwordHash: string | null;
  referralSource?: string | null;
  anonymous?: boolean;
}

/**
 * Creates a user unless a user (live or deleted: a deleted one's address is a tombstone) has the
 * e-mail address already. The e-mail must already be lower case (the table checks it).
 */
export async function insertUser(db: Executor, user: NewUser): Promise<Inserted<User, 'email'>> {
  const row = await db
    .insertInto('users')
    .values({
      email: user.email,
      password_hash: user.passwordHash,
      referral_source: user.referralSource ?? null,
      ...(user.anonymous === undefined ? {} : { anonymous: user.anonymous }),
      totp_secret: null,
      totp_pending_secret: null,
      last_login_at: null,
      deleted_at: null,
    })
    .onConflict((oc) => oc.column('email').doNothing())
    .returningAll()
    .executeTakeFirst();
  return inserted(row, 'email');
}

/** A user who is not deleted, by e-mail (lower case). */
export function userByEmail(db: Executor, email: string): Promise<User | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('email', '=', email)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** True when an address is registered (to a user who is not deleted). */
export async function emailRegistered(db: Executor, email: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  return row !== undefined;
}

export interface UserPreferences {
  anonymous?: boolean | undefined;
  send_monthly_reports?: boolean | undefined;
  offline_worker_notification?: boolean | undefined;
  /** Null: automatic. */
  offline_worker_window_minutes?: number | null | undefined;
  telegram_notifications?: boolean | undefined;
  /** Offline-worker alerts only on Telegram while they go there (docs/notifications.md). */
  offline_worker_telegram_only?: boolean | undefined;
}

/** Changes the preferences given; absent ones stay as they are. */
export async function updateUserPreferences(db: Executor, id: bigint, prefs: UserPreferences): Promise<void> {
  const values = Object.fromEntries(Object.entries(prefs).filter(([, v]) => v !== undefined));
  if (Object.keys(values).length === 0) return;
  await db.updateTable('users').set(values).where('id', '=', id).execute();
}

export async function setPasswordHash(db: Executor, id: bigint, hash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: hash }).where('id', '=', id).execute();
}

export async function setLastLogin(db: Executor, id: bigint, at: Date): Promise<void> {
  await db.updateTable('users').set({ last_login_at: at }).where('id', '=', id).execute();
}

export async function setPendingTotpSecret(db: Executor, id: bigint, secret: string): Promise<void> {
  await db.updateTable('users').set({ totp_pending_secret: secret }).where('id', '=', id).execute();
}

/**
 * Records that a TOTP code of time step `step` was accepted, only if no code of this or a later step
 * was accepted before: false means the code (or a newer one) was already used — a replay.
 */
export async function useTotpStep(db: Executor, id: bigint, step: number): Promise<boolean> {
  const row = await db
    .updateTable('users')
    .set({ totp_last_step: step })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', BigInt(step))]))
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Makes the pending secret the active one, if it is still `secret` (not replaced meanwhile). */
export async function activatePendingTotp(db: Executor, id: bigint, secret: string): Promise<boolean> {
  const row = await db
    .updateTable('users')
    .set((eb) => ({ totp_secret: eb.ref('totp_pending_secret'), totp_pending_secret: null }))
    .where('id', '=', id)
    .where('totp_pending_secret', '=', secret)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function clearTotp(db: Executor, id: bigint): Promise<void> {
  await db.updateTable('users').set({ totp_secret: null, totp_pending_secret: null }).where('id', '=', id).execute();
}

/** Locks the user row until the transaction ends (serializes changes to one user's accounts). */
export async function lockUser(db: Executor, id: bigint): Promise<void> {
  await db.selectFrom('users').select('id').where('id', '=', id).forUpdate().execute();
}

/**
 * Deletes a user's personal data: the e-mail becomes a tombstone (so the address can register again),
 * password, 2FA, preferences, referral source and the linked Telegram chat are cleared. The row stays, so ledger entries,
 * balances and the user log keep their owner.
 */
export async function eraseUser(db: Executor, id: bigint, at: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({
      email: `deleted-${id}@deleted.invalid`,
      password_hash: null,
      totp_secret: null,
      totp_pending_secret: null,
      totp_last_step: null,
      referral_source: null,
      send_monthly_reports: false,
      offline_worker_notification: false,
      telegram_notifications: false,
      anonymous: true,
      deleted_at: at,
    })
    .where('id', '=', id)
    .execute();
  // The Telegram chat is personal data too; pending messages to it end with the user (the senders
  // fail messages of deleted users).
  await db.deleteFrom('telegram_link_codes').where('user_id', '=', id).execute();
  await db.deleteFrom('telegram_links').where('user_id', '=', id).execute();
}

/**
 * The pool's registered users: live users who can log in (a password). The demo network's user, which
 * owns the demo fleet's accounts and cannot log in, and deleted users are not counted.
 */
export async function countRegisteredUsers(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('deleted_at', 'is', null)
    .where('password_hash', 'is not', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
