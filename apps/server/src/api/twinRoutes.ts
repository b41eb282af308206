import type { Account } from '@lodestone/db';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { AccountQuery } from '../http/auth.js';
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
    const { auth, services } = app;
    const unparsed = spec.unparsedResponse === undefined ? {} : { unparsedResponse: spec.unparsedResponse };
    addRoute(
      app,
      spec.user,
      { preHandler: [auth.accountFrom('session', spec.user)], query: spec.user.query, ...unparsed },
      async ({ request, reply, query }) => {
        reply.headers(NO_STORE);
        return spec.read(services, auth.accountOf(request), query);
      },
    );
    for (const method of observerMethods) {
      addRoute(
        app,
        { ...spec.observer, method },
        { preHandler: [auth.accountFrom('observer', spec.observer)], query: spec.observer.query, ...unparsed },
        async ({ request, reply, query }) => {
          reply.headers(NO_STORE);
          return spec.read(services, auth.accountOf(request), query);
        },
      );
    }
  };
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
