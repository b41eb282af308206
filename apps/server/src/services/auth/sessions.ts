import {
  type ActiveSession,
  activeSession,
  type Executor,
  extendSession,
  insertSession,
  liveUserSessions,
  purgeEndedSessions,
  revokeSession,
  revokeUserSession,
  revokeUserSessions,
  type Session,
} from '@lodestone/db';
import { ipRange } from '../../net/address.js';
import { storedUserAgent } from './devices.js';
import { randomToken, sha256Hex } from './tokens.js';

/** The session cookie: an opaque random token; the database keeps only its SHA-256. */
export const SESSION_COOKIE = 'lodestone_session';

/** A session's expiry slides forward at most this often (one write per active user per interval). */
const TOUCH_INTERVAL_MS = 10 * 60_000;
/** Ended sessions are kept this long (for the admin's view of recent logins), then forgotten. */
const KEEP_ENDED_MS = 30 * 24 * 3600_000;

export interface ResolvedSession extends ActiveSession {
  /** True when the expiry moved forward: the cookie should be sent again with the new lifetime. */
  extended: boolean;
}

export interface SessionOptions {
  /** The admin who logs in as this user (admin tools); such a session carries no admin power. */
  impersonatorUserId?: bigint | null;
  /** True when the login checked the user's 2FA code. */
  twoFactorVerified?: boolean;
  /** The browser that logs in, for the user's list of sessions. */
  client?: SessionClient;
}

/** Where a request comes from: its User-Agent header and address. */
export interface SessionClient {
  userAgent: string | string[] | undefined;
  ip: string | undefined;
}

/**
 * Server-side sessions with sliding expiry: a session lives `ttlMs` after its last use. Logging in
 * always creates a new session (the old cookie's session is revoked: rotation); logging out revokes
 * it; a password change or reset revokes every session of the user.
 */
export class Sessions {
  constructor(
    private readonly db: Executor,
    readonly ttlMs: number,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Creates a session and returns the cookie token (shown to nobody else, stored only hashed).
   * `twoFactorVerified`: the login checked the user's 2FA code (what admin tools ask for); never for a
   * session in which an admin is logged in as the user (`impersonatorUserId`).
   */
  async create(userId: bigint, options: SessionOptions = {}): Promise<string> {
    const impersonatorUserId = options.impersonatorUserId ?? null;
    if (impersonatorUserId !== null && options.twoFactorVerified) {
      throw new Error('a session of an admin logged in as a user never counts as having passed 2FA');
    }
    const token = randomToken(32);
    const now = this.now();
    await insertSession(this.db, {
      id: sha256Hex(token),
      userId,
      impersonatorUserId,
      twoFactorVerifiedAt: options.twoFactorVerified ? now : null,
      now,
      expiresAt: new Date(now.getTime() + this.ttlMs),
      userAgent: storedUserAgent(options.client?.userAgent),
      ipRange: ipRange(options.client?.ip),
    });
    await purgeEndedSessions(this.db, userId, new Date(now.getTime() - KEEP_ENDED_MS));
    return token;
  }

  /**
   * The live session of a cookie token, its expiry moved forward when due — and then the network it
   * is used from (`ip`) noted for the user's session list.
   */
  async resolve(token: string | undefined, ip?: string): Promise<ResolvedSession | undefined> {
    if (!token || token.length > 100) return undefined;
    const now = this.now();
    const found = await activeSession(this.db, sha256Hex(token), now);
    if (!found) return undefined;
    const due = now.getTime() - found.session.last_seen_at.getTime() >= TOUCH_INTERVAL_MS;
    if (!due) return { ...found, extended: false };
    const expiresAt = new Date(now.getTime() + this.ttlMs);
    await extendSession(this.db, found.session.id, now, expiresAt, ipRange(ip) ?? undefined);
    return { ...found, session: { ...found.session, last_seen_at: now, expires_at: expiresAt }, extended: true };
  }

  async revoke(token: string | undefined): Promise<boolean> {
    if (!token || token.length > 100) return false;
    return revokeSession(this.db, sha256Hex(token), this.now());
  }

  /** The user's live sessions, the most recently used first (Settings, "Sessions"). */
  list(userId: bigint): Promise<Session[]> {
    return liveUserSessions(this.db, userId, this.now());
  }

  /** Ends one of the user's own live sessions by its id; false when the user has no such session. */
  revokeOwn(userId: bigint, id: string): Promise<boolean> {
    return revokeUserSession(this.db, userId, id, this.now());
  }

  /** Ends every session of the user (password change or reset, account deletion). */
  revokeAll(userId: bigint, db: Executor = this.db): Promise<number> {
    return revokeUserSessions(db, userId, this.now());
  }
}
