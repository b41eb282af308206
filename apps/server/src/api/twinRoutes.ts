import type { RateLimitOptions } from '@fastify/rate-limit';
import type { Account, User, WatcherScope } from '@lodestone/db';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { z } from 'zod';
import type { AccountAccess, AccountQuery } from '../http/auth.js';
import { addRoute, type ContractRoute } from '../http/route.js';
import type { Services } from '../services/index.js';

/** Per-account figures move with every share batch and credit: never kept by a cache on the way. */
export const NO_STORE = { 'cache-control': 'no-store' };

type QueryRoute<R extends z.ZodType, Q extends z.ZodType> = ContractRoute<R> & { query: Q };

/**
 * One read of the dashboard, answered alike to the account's owner (the `user/…` route, by
 * `account_name` with a session) and to its observers (the `observer/…` route, by `observer_key`):
 * the same service call and the same body, only the account resolver differs.
 */
export interface TwinRoute<
  R extends z.ZodType,
  QU extends z.ZodType<AccountQuery<'session'>, unknown>,
  QO extends z.ZodType<AccountQuery<'observer'>, unknown>,
> {
  user: QueryRoute<R, QU>;
  observer: QueryRoute<R, QO>;
  read(services: Services, account: Account, query: z.output<QU> | z.output<QO>): Promise<z.input<R>>;
  /** What an observer's watcher link must cover to read it (docs/dashboard.md, "Watcher links"). */
  scope: WatcherScope;
  /** See addRoute's `unparsedResponse`. */
  unparsedResponse?: string;
}

/** Registers a twin's two routes (the observer's under each of `observerMethods`). */
type Registration = (app: FastifyInstance, observerMethods: readonly ('GET' | 'POST')[]) => void;

/** A table entry: the twin's types are checked here, and the table holds twins of any body. */
export function twin<
  R extends z.ZodType,
  QU extends z.ZodType<AccountQuery<'session'>, unknown>,
  QO extends z.ZodType<AccountQuery<'observer'>, unknown>,
>(spec: TwinRoute<R, QU, QO>): Registration {
  return (app, observerMethods) => {
    const { services } = app;
    const unparsed = spec.unparsedResponse === undefined ? {} : { unparsedResponse: spec.unparsedResponse };
    const read = (account: Account, query: z.output<QU> | z.output<QO>) => spec.read(services, account, query);
    addAccountRead(app, 'session', spec.user, read, unparsed);
    for (const method of observerMethods) {
      addAccountRead(app, 'observer', { ...spec.observer, method }, read, { ...unparsed, scope: spec.scope });
    }
  };
}

/**
 * Registers a read of one account's figures: the account comes from the query (`access`: by `account_name` with a
 * session, or by `observer_key`), the answer is `read` of it and is never stored on the way.
 */
export function addAccountRead<
  A extends AccountAccess,
  R extends z.ZodType,
  Q extends z.ZodType<AccountQuery<A>, unknown>,
>(
  app: FastifyInstance,
  access: A,
  route: QueryRoute<R, Q>,
  read: (account: Account, query: z.output<Q>) => Promise<z.input<R>>,
  options: { unparsedResponse?: string; scope?: WatcherScope } = {},
): void {
  const { auth } = app;
  const { scope, ...rest } = options;
  addRoute(
    app,
    route,
    { preHandler: [auth.accountFrom(access, route, scope)], query: route.query, ...rest },
    async ({ request, reply, query }) => {
      reply.headers(NO_STORE);
      return read(auth.accountOf(request), query);
    },
  );
}

/**
 * Registers a change to one of the logged-in user's own live accounts, named by the query's `account_name`:
 * the query and body are checked first (400 naming the field) and the account is looked up after them
 * (404 'Account not found' for any other name). `preHandler`s run after the session check.
 */
export function addAccountWrite<
  R extends z.ZodType,
  Q extends z.ZodType<AccountQuery<'session'>, unknown>,
  B extends z.ZodType,
>(
  app: FastifyInstance,
  route: QueryRoute<R, Q> & { body: B },
  write: (change: {
    user: User;
    account: Account;
    body: z.output<B>;
    query: z.output<Q>;
    request: FastifyRequest;
  }) => Promise<z.input<R>>,
  options: { preHandler?: preHandlerAsyncHookHandler[]; rateLimit?: RateLimitOptions } = {},
): void {
  const { auth } = app;
  addRoute(
    app,
    route,
    {
      preHandler: [auth.requireUser, ...(options.preHandler ?? [])],
      query: route.query,
      body: route.body,
      ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
    },
    async ({ request, query, body }) => {
      const account = await auth.ownAccount(request, query.account_name);
      return write({ user: auth.userOf(request).user, account, body, query, request });
    },
  );
}

/**
 * Registers a table of twins. `observerMethods`: the methods the observer routes answer; a method
 * beyond GET is answered by the key's read-only rule (403), one left out is 404 like any other.
 */
export function registerTwins(
  app: FastifyInstance,
  table: readonly Registration[],
  observerMethods: readonly ('GET' | 'POST')[],
): void {
  for (const register of table) register(app, observerMethods);
}
