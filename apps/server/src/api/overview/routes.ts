import { routes } from '@lodestone/contract';
import type { FastifyInstance } from 'fastify';
import { addRoute } from '../../http/route.js';
import { readOverview } from '../../services/overview.js';
import { NO_STORE } from '../twinRoutes.js';

/**
 * The all-accounts overview (docs/dashboard.md, "All accounts"): the logged-in user's own accounts
 * only, so a session and no `account_name`; no observer twin, since an observer link names one account.
 */
export async function overviewRoutes(app: FastifyInstance): Promise<void> {
  const { auth } = app;
  const { mining } = app.services;
  const route = routes.userOverview;
  addRoute(app, route, { preHandler: [auth.requireUser], query: route.query }, async ({ request, reply, query }) => {
    reply.headers(NO_STORE);
    return readOverview(mining, auth.userOf(request).user.id, query.algorithm);
  });
}
