import { routes } from '@lodestone/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { requestInput } from '../../http/route.js';
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
import { NO_STORE, registerTwins, twin } from '../twinRoutes.js';

/** The five JSON reads, each the logged-in user's by `account_name` and the observers' by `observer_key`. */
const REVENUE_READS = [
  twin({
    user: routes.userRevenueBalance,
    observer: routes.observerRevenueBalance,
    read: ({ database }, account) => readBalances(database.db, account),
  }),
  twin({
    user: routes.userRevenuePayouts,
    observer: routes.observerRevenuePayouts,
    read: ({ database }, account, query) =>
      readAccountPayouts(database.db, account, query.timezone, { limit: ACCOUNT_PAYOUTS_LIMIT }),
  }),
  twin({
    user: routes.userRevenueEarnings,
    observer: routes.observerRevenueEarnings,
    read: ({ database, now, hashesPerDifficulty }, account, query) =>
      readEarnings(database.db, account, {
        algorithm: query.algorithm,
        timeZone: query.timezone,
        now: now(),
        hashesPerDifficulty,
      }),
  }),
  twin({
    user: routes.userRevenueLifetimeEarnings,
    observer: routes.observerRevenueLifetimeEarnings,
    read: ({ database }, account, query) => readLifetimeEarnings(database.db, account, query.algorithm),
  }),
  twin({
    user: routes.userRevenueChart,
    observer: routes.observerRevenueChart,
    read: ({ database, now }, account, query) =>
      readRevenueChart(database.db, account, { algorithm: query.algorithm, timeZone: query.timezone, now: now() }),
  }),
];

function sendFile(reply: FastifyReply, contentType: string, filename: string, body: string | Buffer) {
  return reply
    .type(contentType)
    .headers({ ...NO_STORE, 'content-disposition': `attachment; filename="${filename}"` })
    .send(body);
}

/**
 * Spec 7 revenue calls (docs/dashboard.md, "Revenue API"): the logged-in user's calls by
 * `account_name` (one of their own live accounts, else 404 'Account not found'), and the observer
 * twins by `observer_key`, which answer the same bodies read-only (GET only: a POST is 404). The
 * downloads (PDF and CSV) are offered to the logged-in user only: the observer calls (docs/dashboard.md, "Revenue API") do not
 * include them, and a statement is a document for the account's owner.
 */
export async function revenueRoutes(app: FastifyInstance): Promise<void> {
  const { auth } = app;
  const { config, database, now, hashesPerDifficulty } = app.services;
  const { db } = database;

  registerTwins(app, REVENUE_READS, ['GET']);

  // ── downloads: files, not JSON ──────────────────────────────────────────────────────────────
  // accountFrom has parsed the query (400 naming the field, as on the JSON routes); the handlers
  // take that parse.

  const statement = routes.userRevenueEarningsDownload;
  app.get(statement.path, { preHandler: [auth.accountFrom('session', statement)] }, async (request, reply) => {
    const query = requestInput(request, statement.query, 'query');
    const pdf = await buildStatement(db, auth.accountOf(request), {
      month: query.date,
      timeZone: query.timezone,
      now: now(),
      poolName: config.poolName,
      publicUrl: config.publicUrl,
    });
    return sendFile(reply, 'application/pdf', `earnings_${query.date}.pdf`, pdf);
  });

  const earnings = routes.userRevenueEarningsCsv;
  app.get(earnings.path, { preHandler: [auth.accountFrom('session', earnings)] }, async (request, reply) => {
    const query = requestInput(request, earnings.query, 'query');
    // The whole history, not just the 90 days the table shows: the file is the miner's record.
    const days = await readEarningDays(db, auth.accountOf(request), {
      algorithm: query.algorithm,
      timeZone: query.timezone,
      now: now(),
      hashesPerDifficulty,
    });
    return sendFile(reply, CSV_CONTENT_TYPE, 'earnings.csv', earningsCsv(days));
  });

  const payments = routes.userRevenuePayoutsCsv;
  app.get(payments.path, { preHandler: [auth.accountFrom('session', payments)] }, async (request, reply) => {
    const query = requestInput(request, payments.query, 'query');
    const records = await readAccountPayouts(db, auth.accountOf(request), query.timezone);
    return sendFile(reply, CSV_CONTENT_TYPE, 'payments.csv', paymentsCsv(records));
  });
}
