import type { SessionsResponse } from '@lodestone/contract';
import type { User } from '@lodestone/db';
import { describeDevice } from '../auth/devices.js';
import { errors } from '../errors.js';
import { logEvent } from '../userLog.js';
import type { AccountsContext } from './context.js';

/*
 * Settings, "Sessions" (docs/accounts.md): where the user is logged in, with a way to end any other
 * session and to log out everywhere. Each ending is written to the user log.
 */

/** GET /v1/user/sessions: the live sessions, the one of this request marked. */
export async function readSessions(ctx: AccountsContext, user: User, currentId: string): Promise<SessionsResponse> {
  const sessions = await ctx.sessions.list(user.id);
  return {
    sessions: sessions.map((s) => ({
      id: s.id,
      device: describeDevice(s.user_agent),
      ip_range: s.ip_range,
      created_at: s.created_at.toISOString(),
      last_seen_at: s.last_seen_at.toISOString(),
      current: s.id === currentId,
      admin: s.impersonator_user_id !== null,
    })),
  };
}

/** POST /v1/user/sessions/logout: ends another of the user's sessions. */
export async function logOutSession(
  ctx: AccountsContext,
  user: User,
  input: { id: string; currentId: string; ip: string },
): Promise<void> {
  if (input.id === input.currentId) {
    throw errors.refused('CURRENT_SESSION', 'This is the session you are using: log out instead.');
  }
  if (!(await ctx.sessions.revokeOwn(user.id, input.id))) throw errors.notFound('Session not found');
  await logEvent(ctx.db, ctx.now(), {
    userId: user.id,
    name: 'session_ended',
    value: { ip: input.ip, session: input.id.slice(0, 12) },
  });
}

/** POST /v1/user/sessions/logout_all: ends every session of the user, this one too. */
export async function logOutEverywhere(ctx: AccountsContext, user: User, ip: string): Promise<number> {
  const ended = await ctx.sessions.revokeAll(user.id);
  await logEvent(ctx.db, ctx.now(), {
    userId: user.id,
    name: 'logout_everywhere',
    value: { ip, sessions_ended: ended },
  });
  return ended;
}
