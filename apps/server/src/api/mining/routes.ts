import { routes } from '@lodestone/contract';
import type { DB } from '@lodestone/db';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../../config/config.js';
import type { Auth } from '../../http/auth.js';
import { addRoute } from '../../http/route.js';
import { type HashesPerDifficulty, powHashesPerDifficulty } from '../../services/hashesPerDifficulty.js';
import {
  type MiningContext,
  readMiningChart,
  readMiningSummary,
  readMiningWorkers,
  removeOfflineWorkers,
  removeWorker,
} from '../../services/mining.js';

/** What the mining routes use. */
export interface MiningRouteDeps {
  config: Pick<Config, 'statsWindowMinutes' | 'feePercent'>;
  auth: Auth;
  db: Kysely<DB>;
  now: () => Date;
  /** Default: the proof-of-work conventions of @lodestone/pow. */
  hashesPerDifficulty?: HashesPerDifficulty;
}

/**
 * The workers list goes out as readMiningWorkers builds it (MiningWorker object literals): at 10,000
 * workers parsing it again would cost a tenth of the dashboard's 100 ms budget.
 */
const WORKERS_UNPARSED = 'up to tens of thousands of MiningWorker literals; parsed by the API tests';

/** Per-account figures that change every few seconds and after a removal: never cached on the way. */
const NO_STORE = { 'cache-control': 'no-store' };

/**
 * Spec 7 mining calls (docs/dashboard.md, "Mining API"): the logged-in user's calls by
 * `account_name` (one of their own live accounts, else 404 'Account not found'), and the observer
 * twins by `observer_key`, which answer the same bodies and cannot remove anything.
 *
 * The removals are GETs because the spec and its website call them so; since they change state they
 * get the cross-site guard of a POST (`checkOrigin`), and POST is accepted too for clients that
 * rightly prefer it.
 */
export async function miningRoutes(app: FastifyInstance, deps: MiningRouteDeps): Promise<void> {
  const { auth } = deps;
  const requireUser = auth.requireUser;
  const ctx: MiningContext = {
    db: deps.db,
    now: deps.now,
    windowMinutes: deps.config.statsWindowMinutes,
    feePercent: deps.config.feePercent,
    hashesPerDifficulty: deps.hashesPerDifficulty ?? powHashesPerDifficulty,
  };
  const own = (request: FastifyRequest, query: { account_name: string }) =>
    auth.ownAccount(request, query.account_name);
  const observed = (request: FastifyRequest, query: { observer_key: string }) =>
    auth.observerAccount(request, query.observer_key);

  addRoute(
    app,
    routes.userMining,
    { preHandler: [requireUser], query: routes.userMining.query },
    async ({ request, reply, query }) => {
      reply.headers(NO_STORE);
      return readMiningSummary(ctx, await own(request, query), query.algorithm);
    },
  );
  addRoute(
    app,
    routes.userMiningChart,
    { preHandler: [requireUser], query: routes.userMiningChart.query },
    async ({ request, reply, query }) => {
      reply.headers(NO_STORE);
      return readMiningChart(ctx, await own(request, query), query.algorithm, query.timezone);
    },
  );
  addRoute(
    app,
    routes.userMiningWorkers,
    { preHandler: [requireUser], query: routes.userMiningWorkers.query, unparsedResponse: WORKERS_UNPARSED },
    async ({ request, reply, query }) => {
      reply.headers(NO_STORE);
      return readMiningWorkers(ctx, await own(request, query), query.algorithm);
    },
  );

  for (const method of ['GET', 'POST'] as const) {
    addRoute(
      app,
      { ...routes.userMiningWorkerRemove, method },
      {
        preHandler: [requireUser],
        params: routes.userMiningWorkerRemove.params,
        query: routes.userMiningWorkerRemove.query,
        checkOrigin: true,
      },
      async ({ request, query, params }) => {
        const account = await own(request, query);
        return removeWorker(ctx, auth.userOf(request).user, account, query.algorithm, params.workerId);
      },
    );
    addRoute(
      app,
      { ...routes.userMiningWorkersRemoveAll, method },
      { preHandler: [requireUser], query: routes.userMiningWorkersRemoveAll.query, checkOrigin: true },
      async ({ request, query }) => {
        const account = await own(request, query);
        return removeOfflineWorkers(ctx, auth.userOf(request).user, account, query.algorithm);
      },
    );
  }

  // The observer twins. Registered for POST too, so that a write attempt with an observer key is
  // answered by the key's own rule (403 'This key gives read-only access') rather than a bare 404.
  for (const method of ['GET', 'POST'] as const) {
    addRoute(app, { ...routes.observerMining, method }, { query: routes.observerMining.query }, async (c) => {
      c.reply.headers(NO_STORE);
      return readMiningSummary(ctx, await observed(c.request, c.query), c.query.algorithm);
    });
    addRoute(app, { ...routes.observerMiningChart, method }, { query: routes.observerMiningChart.query }, async (c) => {
      c.reply.headers(NO_STORE);
      return readMiningChart(ctx, await observed(c.request, c.query), c.query.algorithm, c.query.timezone);
    });
    addRoute(
      app,
      { ...routes.observerMiningWorkers, method },
      { query: routes.observerMiningWorkers.query, unparsedResponse: WORKERS_UNPARSED },
      async (c) => {
        c.reply.headers(NO_STORE);
        return readMiningWorkers(ctx, await observed(c.request, c.query), c.query.algorithm);
      },
    );
  }
}
