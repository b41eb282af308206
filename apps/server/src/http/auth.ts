import type { Account, DB, User, WatcherScope } from '@lodestone/db';
import {
  accountByApiKey,
  accountByObserverKey,
  accountOfUser,
  touchObserverKey,
  touchWatcherLink,
  watcherLinkByKey,
} from '@lodestone/db';
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

/** Scopes in order: each covers the ones before it. */
const SCOPE_ORDER: readonly WatcherScope[] = ['mining', 'revenue', 'payouts'];

/** True when a link of scope `has` may read what `needs` names. */
export function scopeCovers(has: WatcherScope, needs: WatcherScope): boolean {
  return SCOPE_ORDER.indexOf(has) >= SCOPE_ORDER.indexOf(needs);
}

const SCOPE_REFUSALS: Record<WatcherScope, string> = {
  mining: 'This link does not show this account.',
  revenue: 'This link shows mining only, not revenue.',
  payouts: 'This link does not show payouts.',
};

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
   * else is 403. The key is the account's own observer key (it shows everything) or one of its
   * watcher links, which shows what its scope covers: a read beyond it (`needs`) is 403. An unknown,
   * revoked or expired key is 404 (docs/dashboard.md, "Watcher links").
   */
  observerAccount(request: FastifyRequest, observerKey: string, needs: WatcherScope): Promise<Account>;
  /**
   * The account of an API key (GET only, read-only like the observer key) and what it shows: the
   * account's own API key shows everything; a watcher link's key works as a scoped API key too.
   * Unknown, revoked or expired keys are 404.
   */
  apiKeyAccount(request: FastifyRequest, apiKey: string): Promise<{ account: Account; scope: WatcherScope }>;
  /**
   * preHandler: the account the route reads, on `request.account` — for `session`, 401 without a
   * session, then `ownAccount(account_name)`; for `observer`, `observerAccount(observer_key)`. The
   * route's query (and path parameters) are checked before the lookup, in the order `addRoute`
   * checks them, so a malformed request is 400 as on any route and looks up no account; the
   * handler gets the same parse (`requestInput`), not a second one. `needs`: what an observer's link
   * must cover to read it (default: its mining figures).
   */
  accountFrom<A extends AccountAccess>(
    access: A,
    inputs: AccountInputs<A>,
    needs?: WatcherScope,
  ): preHandlerAsyncHookHandler;
  /** `request.account` after `accountFrom` (throws 500 if the route forgot it). */
  accountOf(request: FastifyRequest): Account;
}

const READ_METHODS = new Set(['GET', 'HEAD']);

export function createAuth(
  app: FastifyInstance,
  options: { db: Kysely<DB>; sessions: Sessions; secureCookies: boolean; now: () => Date },
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

  /** The account and scope of a live watcher link's key, its use noted; undefined for any other key. */
  const watcherAccess = async (key: string) => {
    const now = options.now();
    const watcher = await watcherLinkByKey(db, key, now);
    if (!watcher) return undefined;
    await touchWatcherLink(db, watcher.link.id, now);
    return { account: watcher.account, scope: watcher.link.scope };
  };

  const observerAccount = async (request: FastifyRequest, observerKey: string, needs: WatcherScope) => {
    readOnly(request);
    if (!observerKey) throw errors.notFound(ACCOUNT_NOT_FOUND);
    const watcher = await watcherAccess(observerKey);
    if (watcher) {
      if (!scopeCovers(watcher.scope, needs)) throw errors.forbidden(SCOPE_REFUSALS[needs]);
      return watcher.account;
    }
    const account = await accountByObserverKey(db, observerKey);
    if (!account) throw errors.notFound(ACCOUNT_NOT_FOUND);
    await touchObserverKey(db, account.id, options.now());
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
      if (!apiKey) throw errors.notFound(ACCOUNT_NOT_FOUND);
      const account = await accountByApiKey(db, apiKey);
      if (account) return { account, scope: 'payouts' as const };
      const watcher = await watcherAccess(apiKey);
      if (!watcher) throw errors.notFound(ACCOUNT_NOT_FOUND);
      return watcher;
    },
    accountFrom(access, inputs, needs = 'mining') {
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
        request.account = await observerAccount(request, checked(request).observer_key ?? '', needs);
      };
    },
    accountOf(request) {
      if (!request.account) throw errors.internal();
      return request.account;
    },
  };
}
