import { routes } from '@lodestone/contract';
import type { Account, DB } from '@lodestone/db';
import type { AlgorithmKey } from '@lodestone/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { Config } from '../../config/config.js';
import type { Auth } from '../../http/auth.js';
import { errors } from '../../http/errors.js';
import { addRoute } from '../../http/route.js';
import { type HashesPerDifficulty, powHashesPerDifficulty } from '../../services/hashesPerDifficulty.js';
import { readBalances } from '../../services/revenue/balances.js';
import { CSV_CONTENT_TYPE, earningsCsv, paymentsCsv } from '../../services/revenue/csv.js';
import {
  readEarningDays,
  readEarnings,
  readLifetimeEarnings,
  readRevenueChart,
} from '../../services/revenue/earnings.js';
import { ACCOUNT_PAYOUTS_LIMIT, readAccountPayouts } from '../../services/revenue/payouts.js';
import { buildStatement } from '../../services/revenue/statement.js';

/** What the revenue routes use. */
export interface RevenueRouteDeps {
  config: Pick<Config, 'poolName' | 'publicUrl'>;
  auth: Auth;
  db: Kysely<DB>;
  now: () => Date;
  /** Default: the proof-of-work conventions of @lodestone/pow. */
  hashesPerDifficulty?: HashesPerDifficulty;
}

/** Balances and earnings move with every credit (every few seconds): never kept by a cache on the way. */
const NO_STORE = { 'cache-control': 'no-store' };

/** Parses a download's query like the JSON routes do (400 naming the field). */
function parseQuery<T extends z.ZodType>(schema: T, request: FastifyRequest): z.output<T> {
  const result = schema.safeParse(request.query);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw errors.validation(`query.${issue?.path.join('.') || ''}: ${issue?.message ?? 'invalid'}`);
}

function sendFile(reply: FastifyReply, contentType: string, filename: string, body: string | Buffer) {
  return reply
    .type(contentType)
    .headers({ ...NO_STORE, 'content-disposition': `attachment; filename="${filename}"` })
    .send(body);
}

/**
 * Spec 7 revenue calls (docs/dashboard.md, "Revenue API"): the logged-in user's calls by
 * `account_name` (one of their own live accounts, else 404 'Account not found'), and the observer
 * twins by `observer_key`, which answer the same bodies read-only. The downloads (PDF and CSV) are
 * offered to the logged-in user only: the spec's observer calls do not include them, and a statement
 * is a document for the account's owner.
 */
export async function revenueRoutes(app: FastifyInstance, deps: RevenueRouteDeps): Promise<void> {
  const { auth, db, now } = deps;
  const hashesPerDifficulty = deps.hashesPerDifficulty ?? powHashesPerDifficulty;
  const requireUser = auth.requireUser;
  const own = (request: FastifyRequest, query: { account_name: string }) =>
    auth.ownAccount(request, query.account_name);
  const observed = (request: FastifyRequest, query: { observer_key: string }) =>
    auth.observerAccount(request, query.observer_key);

  // The five JSON reads, each registered for the user (session) and the observer (key).
  const reads = {
    balance: (account: Account) => readBalances(db, account),
    payouts: (account: Account, q: { timezone: string }) =>
      readAccountPayouts(db, account, q.timezone, { limit: ACCOUNT_PAYOUTS_LIMIT }),
    earnings: (account: Account, q: { algorithm: AlgorithmKey; timezone: string }) =>
      readEarnings(db, account, { algorithm: q.algorithm, timeZone: q.timezone, now: now(), hashesPerDifficulty }),
    lifetime: (account: Account, q: { algorithm: AlgorithmKey }) => readLifetimeEarnings(db, account, q.algorithm),
    chart: (account: Account, q: { algorithm: AlgorithmKey; timezone: string }) =>
      readRevenueChart(db, account, { algorithm: q.algorithm, timeZone: q.timezone, now: now() }),
  };

  addRoute(
    app,
    routes.userRevenueBalance,
    { preHandler: [requireUser], query: routes.userRevenueBalance.query },
    async ({ request, reply, query }) => {
      reply.headers(NO_STORE);
      return reads.balance(await own(request, query));
    },
  );
  addRoute(
    app,
    routes.userRevenuePayouts,
    { preHandler: [requireUser], query: routes.userRevenuePayouts.query },
    async ({ request, reply, query }) => {
      reply.headers(NO_STORE);
      return reads.payouts(await own(request, query), query);
    },
  );
  addRoute(
    app,
    routes.userRevenueEarnings,
    { preHandler: [requireUser], query: routes.userRevenueEarnings.query },
    async ({ request, reply, query }) => {
      reply.headers(NO_STORE);
      return reads.earnings(await own(request, query), query);
    },
  );
  addRoute(
    app,
    routes.userRevenueLifetimeEarnings,
    { preHandler: [requireUser], query: routes.userRevenueLifetimeEarnings.query },
    async ({ request, reply, query }) => {
      reply.headers(NO_STORE);
      return reads.lifetime(await own(request, query), query);
    },
  );
  addRoute(
    app,
    routes.userRevenueChart,
    { preHandler: [requireUser], query: routes.userRevenueChart.query },
    async ({ request, reply, query }) => {
      reply.headers(NO_STORE);
      return reads.chart(await own(request, query), query);
    },
  );

  addRoute(app, routes.observerRevenueBalance, { query: routes.observerRevenueBalance.query }, async (c) => {
    c.reply.headers(NO_STORE);
    return reads.balance(await observed(c.request, c.query));
  });
  addRoute(app, routes.observerRevenuePayouts, { query: routes.observerRevenuePayouts.query }, async (c) => {
    c.reply.headers(NO_STORE);
    return reads.payouts(await observed(c.request, c.query), c.query);
  });
  addRoute(app, routes.observerRevenueEarnings, { query: routes.observerRevenueEarnings.query }, async (c) => {
    c.reply.headers(NO_STORE);
    return reads.earnings(await observed(c.request, c.query), c.query);
  });
  addRoute(
    app,
    routes.observerRevenueLifetimeEarnings,
    { query: routes.observerRevenueLifetimeEarnings.query },
    async (c) => {
      c.reply.headers(NO_STORE);
      return reads.lifetime(await observed(c.request, c.query), c.query);
    },
  );
  addRoute(app, routes.observerRevenueChart, { query: routes.observerRevenueChart.query }, async (c) => {
    c.reply.headers(NO_STORE);
    return reads.chart(await observed(c.request, c.query), c.query);
  });

  // ── downloads: files, not JSON ──────────────────────────────────────────────────────────────

  app.get(routes.userRevenueEarningsDownload.path, { preHandler: [requireUser] }, async (request, reply) => {
    const query = parseQuery(routes.userRevenueEarningsDownload.query, request);
    const account = await own(request, query);
    const pdf = await buildStatement(db, account, {
      month: query.date,
      timeZone: query.timezone,
      now: now(),
      poolName: deps.config.poolName,
      publicUrl: deps.config.publicUrl,
    });
    return sendFile(reply, 'application/pdf', `earnings_${query.date}.pdf`, pdf);
  });

  app.get(routes.userRevenueEarningsCsv.path, { preHandler: [requireUser] }, async (request, reply) => {
    const query = parseQuery(routes.userRevenueEarningsCsv.query, request);
    const account = await own(request, query);
    // The whole history, not just the 90 days the table shows: the file is the miner's record.
    const days = await readEarningDays(db, account, {
      algorithm: query.algorithm,
      timeZone: query.timezone,
      now: now(),
      hashesPerDifficulty,
    });
    return sendFile(reply, CSV_CONTENT_TYPE, 'earnings.csv', earningsCsv(days));
  });

  app.get(routes.userRevenuePayoutsCsv.path, { preHandler: [requireUser] }, async (request, reply) => {
    const query = parseQuery(routes.userRevenuePayoutsCsv.query, request);
    const account = await own(request, query);
    const records = await readAccountPayouts(db, account, query.timezone);
    return sendFile(reply, CSV_CONTENT_TYPE, 'payments.csv', paymentsCsv(records));
  });
}
