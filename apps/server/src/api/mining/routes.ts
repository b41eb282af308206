import { routes } from '@lodestone/contract';
import type { FastifyInstance } from 'fastify';
import { addRoute } from '../../http/route.js';
import {
  labelWorkers,
  readMiningChart,
  readMiningSummary,
  readMiningWorkers,
  readWorkerChart,
  readWorkerConnections,
  readWorkerRejects,
  removeOfflineWorkers,
  removeSelectedWorkers,
  removeWorker,
} from '../../services/mining.js';
import { readSolo } from '../../services/solo.js';
import { readMiningWorker, readMiningWorkersMatching, readMiningWorkersPage } from '../../services/workersPage.js';
import { addAccountRead, addAccountWrite, registerTwins, twin } from '../twinRoutes.js';

/**
 * The workers list goes out as readMiningWorkers builds it (MiningWorker object literals): at 10,000
 * workers parsing it again would cost a tenth of the dashboard's 100 ms budget.
 */
const WORKERS_UNPARSED = 'up to tens of thousands of MiningWorker literals; parsed by the API tests';

/** The mining reads, each the logged-in user's by `account_name` and the observers' by `observer_key`. */
const MINING_READS = [
  twin({
    user: routes.userMining,
    observer: routes.observerMining,
    scope: 'mining',
    read: ({ mining }, account, query) => readMiningSummary(mining, account, query.algorithm),
  }),
  twin({
    user: routes.userMiningChart,
    observer: routes.observerMiningChart,
    scope: 'mining',
    read: ({ mining }, account, query) =>
      readMiningChart(mining, account, query.algorithm, { timeZone: query.timezone, period: query.period }),
  }),
  twin({
    user: routes.userMiningWorker,
    observer: routes.observerMiningWorker,
    scope: 'mining',
    read: ({ mining }, account, query) => readMiningWorker(mining, account, query.algorithm, query.worker_id),
  }),
  twin({
    user: routes.userMiningWorkerRejects,
    observer: routes.observerMiningWorkerRejects,
    scope: 'mining',
    read: ({ mining }, account, query) => readWorkerRejects(mining, account, query.algorithm, query.worker_id),
  }),
  twin({
    user: routes.userMiningWorkerChart,
    observer: routes.observerMiningWorkerChart,
    scope: 'mining',
    read: ({ mining }, account, query) =>
      readWorkerChart(mining, account, query.algorithm, query.worker_id, {
        timeZone: query.timezone,
        period: query.period,
      }),
  }),
  twin({
    user: routes.userMiningWorkerConnections,
    observer: routes.observerMiningWorkerConnections,
    scope: 'mining',
    read: ({ mining }, account, query) => readWorkerConnections(mining, account, query.algorithm, query.worker_id),
  }),
  twin({
    user: routes.userMiningSolo,
    observer: routes.observerMiningSolo,
    scope: 'mining',
    read: ({ mining }, account, query) => readSolo(mining, account, query.algorithm),
  }),
  twin({
    user: routes.userMiningWorkers,
    observer: routes.observerMiningWorkers,
    scope: 'mining',
    read: ({ mining }, account, query) => readMiningWorkers(mining, account, query.algorithm),
    unparsedResponse: WORKERS_UNPARSED,
  }),
  twin({
    user: routes.userMiningWorkersPage,
    observer: routes.observerMiningWorkersPage,
    scope: 'mining',
    read: ({ mining }, account, { algorithm, page, sort, direction, search, state, group }) =>
      readMiningWorkersPage(mining, account, algorithm, {
        page,
        sort: sort === undefined ? null : { column: sort, direction },
        search,
        state,
        group,
      }),
  }),
];

/**
 * Spec 7 mining calls (docs/dashboard.md, "Mining API"): the logged-in user's calls by
 * `account_name` (one of their own live accounts, else 404 'Account not found'), and the observer
 * twins by `observer_key`, which answer the same bodies and cannot remove anything.
 *
 * The removals are GETs because the website calls them so (docs/dashboard.md); since they change state they
 * get the cross-site guard of a POST (`checkOrigin`), and POST is accepted too for clients that
 * rightly prefer it.
 */
export async function miningRoutes(app: FastifyInstance): Promise<void> {
  const { auth } = app;
  const { mining } = app.services;

  // The observer twins are registered for POST too, so that a write attempt with an observer key is
  // answered by the key's own rule (403 'This key gives read-only access') rather than a bare 404.
  registerTwins(app, MINING_READS, ['GET', 'POST']);

  addAccountRead(app, 'session', routes.userMiningWorkersMatching, (account, { algorithm, search, state, group }) =>
    readMiningWorkersMatching(mining, account, algorithm, { search, state, group }),
  );

  addAccountWrite(app, routes.userMiningWorkersRemoveSelected, ({ user, account, query, body }) =>
    removeSelectedWorkers(mining, user, account, query.algorithm, body.ids),
  );

  addAccountWrite(app, routes.userMiningWorkersLabel, ({ user, account, query, body }) =>
    labelWorkers(mining, user, account, query.algorithm, body.ids, body.label),
  );

  const remove = routes.userMiningWorkerRemove;
  const removeAll = routes.userMiningWorkersRemoveAll;
  for (const method of ['GET', 'POST'] as const) {
    addRoute(
      app,
      { ...remove, method },
      {
        preHandler: [auth.accountFrom('session', remove)],
        params: remove.params,
        query: remove.query,
        checkOrigin: true,
      },
      async ({ request, query, params }) =>
        removeWorker(mining, auth.userOf(request).user, auth.accountOf(request), query.algorithm, params.workerId),
    );
    addRoute(
      app,
      { ...removeAll, method },
      { preHandler: [auth.accountFrom('session', removeAll)], query: removeAll.query, checkOrigin: true },
      async ({ request, query }) =>
        removeOfflineWorkers(mining, auth.userOf(request).user, auth.accountOf(request), query.algorithm),
    );
  }
}
