import type { Account, DB, User } from '@lodestone/db';
import { accountByApiKey, accountByObserverKey, accountOfUser } from '@lodestone/db';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { SESSION_COOKIE, type Sessions } from '../services/auth/sessions.js';
import { errors } from './errors.js';
import { requestInput } from './route.js';

/** Who made the request, once `requireUser` ran. */
export interface AuthContext {
  user: User;
  /** SHA-256 of the cookie token. */
  sessionId: string;
  /** The admin logged in as this user, if any. */
  impersonatorUserId: bigint | null;
  /** True when this session's login checked the user's 2FA code (admin tools ask for it). */
  twoFactorVerified: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
    /** The account the route reads, once the `accountFrom` preHandler ran. */
    account: Account | null;
  }
}

/**
 * How a dashboard call names its account: `session`, by `account_name` among the logged-in user's
 * own; `observer`, by `observer_key` (read-only, no session needed).
 */
export type AccountAccess = 'session' | 'observer';

/** The query a route resolving its account by `access` must have. */
export type AccountQuery<A extends AccountAccess> = A extends 'session'
  ? { account_name: string }
  : { observer_key: string };

/** The route's own input schemas, which `accountFrom` checks before it looks the account up. */
export interface AccountInputs<A extends AccountAccess> {
  query: z.ZodType<AccountQuery<A>, unknown>;
  params?: z.ZodType;
}

export const ACCOUNT_NOT_FOUND = 'Account not found';

export interface Auth {
  /** The session cookie's options (HttpOnly, SameSite=Lax, Secure when PUBLIC_URL is https). */
  setSessionCookie(reply: FastifyReply, token: string): void;
  clearSessionCookie(reply: FastifyReply): void;
  /** The session of the request's cookie, or undefined; sets `request.auth`. Never throws 401. */
  currentUser(request: FastifyRequest, reply: FastifyReply): Promise<AuthContext | undefined>;
  /** preHandler: 401 'Not logged in' without a live session. */
  requireUser: preHandlerAsyncHookHandler;
  /** preHandler: like requireUser, then 404 for anyone who is not an admin (the route stays hidden). */
  requireAdmin: preHandlerAsyncHookHandler;
  /** `request.auth` after requireUser (throws 401 if the route forgot it). */
  userOf(request: FastifyRequest): AuthContext;
  /**
   * One of the logged-in user's own live accounts by name; any other name is 404 'Account not found'.
   * For routes that also take a body, whose handler checks the body before it looks the account up;
   * reads use `accountFrom`.
   */
  ownAccount(request: FastifyRequest, accountName: string): Promise<Account>;
  /**
   * The account an observer key opens, read-only: only GET and HEAD requests may use it; anything
   * else is 403. An unknown or revoked key is 404.
   */
  observerAccount(request: FastifyRequest, observerKey: string): Promise<Account>;
  /** The account of an API key (GET only, read-only like the observer key); unknown keys are 404. */
  apiKeyAccount(request: FastifyRequest, apiKey: string): Promise<Account>;
  /**
   * preHandler: the account the route reads, on `request.account` — for `session`, 401 without a
   * session, then `ownAccount(account_name)`; for `observer`, `observerAccount(observer_key)`. The
   * route's query (and path parameters) are checked before the lookup, in the order `addRoute`
   * checks them, so a malformed request is 400 as on any route and looks up no account; the
   * handler gets the same parse (`requestInput`), not a second one.
   */
  accountFrom<A extends AccountAccess>(access: A, inputs: AccountInputs<A>): preHandlerAsyncHookHandler;
  /** `request.account` after `accountFrom` (throws 500 if the route forgot it). */
  accountOf(request: FastifyRequest): Account;
}

const READ_METHODS = new Set(['GET', 'HEAD']);

export function createAuth(
  app: FastifyInstance,
  options: { db: Kysely<DB>; sessions: Sessions; secureCookies: boolean },
): Auth {
  const { db, sessions } = options;
  if (!app.hasRequestDecorator('auth')) app.decorateRequest('auth', null);
  if (!app.hasRequestDecorator('account')) app.decorateRequest('account', null);
  const cookieOptions = {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: options.secureCookies,
  };

  const setSessionCookie = (reply: FastifyReply, token: string) =>
    reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions, maxAge: Math.floor(sessions.ttlMs / 1000) });

  const currentUser = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.auth) return request.auth;
    const token = request.cookies[SESSION_COOKIE];
    const found = await sessions.resolve(token, request.ip);
    if (!found) return undefined;
    if (found.extended && token) setSessionCookie(reply, token);
    request.auth = {
      user: found.user,
      sessionId: found.session.id,
      impersonatorUserId: found.session.impersonator_user_id,
      twoFactorVerified: found.session.two_factor_verified_at !== null,
    };
    return request.auth;
  };

  const requireUser: preHandlerAsyncHookHandler = async (request, reply) => {
    if (!(await currentUser(request, reply))) throw errors.unauthenticated();
  };

  const userOf = (request: FastifyRequest) => {
    if (!request.auth) throw errors.unauthenticated();
    return request.auth;
  };

  const readOnly = (request: FastifyRequest) => {
    if (!READ_METHODS.has(request.method)) throw errors.forbidden('This key gives read-only access');
  };

  const ownAccount = async (request: FastifyRequest, accountName: string) => {
    const account = await accountOfUser(db, userOf(request).user.id, accountName);
    if (!account) throw errors.notFound(ACCOUNT_NOT_FOUND);
    return account;
  };

  const observerAccount = async (request: FastifyRequest, observerKey: string) => {
    readOnly(request);
    const account = observerKey ? await accountByObserverKey(db, observerKey) : undefined;
    if (!account) throw errors.notFound(ACCOUNT_NOT_FOUND);
    return account;
  };

  return {
    setSessionCookie,
    clearSessionCookie: (reply) => reply.clearCookie(SESSION_COOKIE, cookieOptions),
    currentUser,
    requireUser,
    async requireAdmin(request, reply) {
      const auth = await currentUser(request, reply);
      if (!auth) throw errors.unauthenticated();
      if (!auth.user.is_admin) throw errors.notFound();
    },
    userOf,
    ownAccount,
    observerAccount,
    async apiKeyAccount(request, apiKey) {
      readOnly(request);
      const account = apiKey ? await accountByApiKey(db, apiKey) : undefined;
      if (!account) throw errors.notFound(ACCOUNT_NOT_FOUND);
      return account;
    },
    accountFrom(access, inputs) {
      const checked = (request: FastifyRequest) => {
        const query = requestInput(request, inputs.query, 'query');
        if (inputs.params) requestInput(request, inputs.params, 'params');
        return query as Partial<AccountQuery<'session'> & AccountQuery<'observer'>>;
      };
      if (access === 'session') {
        return async (request, reply) => {
          await requireUser.call(app, request, reply);
          request.account = await ownAccount(request, checked(request).account_name ?? '');
        };
      }
      return async (request) => {
        request.account = await observerAccount(request, checked(request).observer_key ?? '');
      };
    },
    accountOf(request) {
      if (!request.account) throw errors.internal();
      return request.account;
    },
  };
}
