import type { Executor, Session, User } from '../schema.js';

export interface NewSession {
  /** SHA-256 (hex) of the cookie token. */
  id: string;
  userId: bigint;
  impersonatorUserId?: bigint | null;
  /**
   * When the login that creates this session checked the user's 2FA code; null (the default) for
   * logins without 2FA and registrations. Never set together with `impersonatorUserId` (the database
   * refuses it).
   */
  twoFactorVerifiedAt?: Date | null;
  expiresAt: Date;
  now: Date;
  /** The browser's User-Agent (at most 512 characters) and its network (`ip_range`), for the user's session list. */
  userAgent?: string | null;
  ipRange?: string | null;
}

export async function insertSession(db: Executor, session: NewSession): Promise<void> {
  await db
    .insertInto('sessions')
    .values({
      id: session.id,
      user_id: session.userId,
      impersonator_user_id: session.impersonatorUserId ?? null,
      two_factor_verified_at: session.twoFactorVerifiedAt ?? null,
      created_at: session.now,
      last_seen_at: session.now,
      expires_at: session.expiresAt,
      revoked_at: null,
      user_agent: session.userAgent ?? null,
      ip_range: session.ipRange ?? null,
    })
    .execute();
}

export interface ActiveSession {
  session: Session;
  user: User;
}

/** A session that is neither revoked nor expired, of a user who is not deleted, with its user. */
export async function activeSession(db: Executor, id: string, now: Date): Promise<ActiveSession | undefined> {
  const row = await db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .selectAll('u')
    .select([
      's.id as session_id',
      's.impersonator_user_id as session_impersonator_user_id',
      's.two_factor_verified_at as session_two_factor_verified_at',
      's.created_at as session_created_at',
      's.last_seen_at as session_last_seen_at',
      's.expires_at as session_expires_at',
      's.revoked_at as session_revoked_at',
      's.user_agent as session_user_agent',
      's.ip_range as session_ip_range',
    ])
    .where('s.id', '=', id)
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', now)
    .where('u.deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) return undefined;
  const {
    session_id,
    session_impersonator_user_id,
    session_two_factor_verified_at,
    session_created_at,
    session_last_seen_at,
    session_expires_at,
    session_revoked_at,
    session_user_agent,
    session_ip_range,
    ...user
  } = row;
  return {
    user,
    session: {
      id: session_id,
      user_id: user.id,
      impersonator_user_id: session_impersonator_user_id,
      two_factor_verified_at: session_two_factor_verified_at,
      created_at: session_created_at,
      last_seen_at: session_last_seen_at,
      expires_at: session_expires_at,
      revoked_at: session_revoked_at,
      user_agent: session_user_agent,
      ip_range: session_ip_range,
    },
  };
}

/** Sliding expiry: the session was used now (from `ipRange`, when known) and lives until `expiresAt`. */
export async function extendSession(
  db: Executor,
  id: string,
  now: Date,
  expiresAt: Date,
  ipRange?: string,
): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ last_seen_at: now, expires_at: expiresAt, ...(ipRange !== undefined && { ip_range: ipRange }) })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function revokeSession(db: Executor, id: string, now: Date): Promise<boolean> {
  const row = await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** A user's live sessions (neither revoked nor expired), the most recently used first. */
export function liveUserSessions(db: Executor, userId: bigint, now: Date): Promise<Session[]> {
  return db
    .selectFrom('sessions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('last_seen_at', 'desc')
    .orderBy('created_at', 'desc')
    .execute();
}

/** The update that revokes the user's live sessions (neither revoked nor expired), returning their ids. */
function revokeLiveUserSessions(db: Executor, userId: bigint, now: Date) {
  return db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('id');
}

/** Revokes one live session, only if it is the user's; false when there is no such session. */
export async function revokeUserSession(db: Executor, userId: bigint, id: string, now: Date): Promise<boolean> {
  const row = await revokeLiveUserSessions(db, userId, now).where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

/** Revokes every live session of a user; returns how many. */
export async function revokeUserSessions(db: Executor, userId: bigint, now: Date): Promise<number> {
  const rows = await revokeLiveUserSessions(db, userId, now).execute();
  return rows.length;
}

/**
 * Turning 2FA off: no session of the user counts as having passed 2FA any more, so admin access
 * after turning it on again needs a new login with a code. Returns how many sessions changed.
 */
export async function clearSessionsTwoFactor(db: Executor, userId: bigint): Promise<number> {
  const rows = await db
    .updateTable('sessions')
    .set({ two_factor_verified_at: null })
    .where('user_id', '=', userId)
    .where('two_factor_verified_at', 'is not', null)
    .returning('id')
    .execute();
  return rows.length;
}

/** Forgets a user's sessions that ended (expired or revoked) before `before`. */
export async function purgeEndedSessions(db: Executor, userId: bigint, before: Date): Promise<void> {
  await db
    .deleteFrom('sessions')
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('expires_at', '<', before), eb('revoked_at', '<', before)]))
    .execute();
}
