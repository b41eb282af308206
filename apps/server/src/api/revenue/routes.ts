import { routes } from '@lodestone/contract';
import type { Account } from '@lodestone/db';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { AccountQuery } from '../../http/auth.js';
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
    scope: 'revenue',
    read: ({ database }, account) => readBalances(database.db, account),
  }),
  twin({
    user: routes.userRevenuePayouts,
    observer: routes.observerRevenuePayouts,
    scope: 'payouts',
    read: ({ database }, account, query) =>
      readAccountPayouts(database.db, account, query.timezone, { limit: ACCOUNT_PAYOUTS_LIMIT }),
  }),
  twin({
    user: routes.userRevenueEarnings,
    observer: routes.observerRevenueEarnings,
    scope: 'revenue',
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
    scope: 'revenue',
    read: ({ database }, account, query) => readLifetimeEarnings(database.db, account, query.algorithm),
  }),
  twin({
    user: routes.userRevenueChart,
    observer: routes.observerRevenueChart,
    scope: 'revenue',
    read: ({ database, now }, account, query) =>
      readRevenueChart(database.db, account, {
        algorithm: query.algorithm,
        timeZone: query.timezone,
        now: now(),
        period: query.period,
      }),
  }),
];

/** A file to download: its content type, the name the browser saves it under, and its bytes. */
interface Download {
  contentType: string;
  filename: string;
  body: string | Buffer;
}

/**
 * Registers a download of the logged-in user's account: accountFrom has parsed the query (400 naming
 * the field, as on the JSON routes) and `file` takes that parse.
 */
function addDownload<Q extends z.ZodType<AccountQuery<'session'>, unknown>>(
  app: FastifyInstance,
  route: { path: string; query: Q },
  file: (account: Account, query: z.output<Q>) => Promise<Download>,
): void {
  const { auth } = app;
  app.get(route.path, { preHandler: [auth.accountFrom('session', route)] }, async (request, reply) => {
    const query = requestInput(request, route.query, 'query');
    const { contentType, filename, body } = await file(auth.accountOf(request), query);
    return reply
      .type(contentType)
      .headers({ ...NO_STORE, 'content-disposition': `attachment; filename="${filename}"` })
      .send(body);
  });
}

/**
 * Spec 7 revenue calls (docs/dashboard.md, "Revenue API"): the logged-in user's calls by
 * `account_name` (one of their own live accounts, else 404 'Account not found'), and the observer
 * twins by `observer_key`, which answer the same bodies read-only (GET only: a POST is 404). The
 * downloads (PDF and CSV) are offered to the logged-in user only: the observer calls (docs/dashboard.md, "Revenue API") do not
 * include them, and a statement is a document for the account's owner.
 */
export async function revenueRoutes(app: FastifyInstance): Promise<void> {
  const { config, database, now, hashesPerDifficulty } = app.services;
  const { db } = database;

  registerTwins(app, REVENUE_READS, ['GET']);

  // ── downloads: files, not JSON ──────────────────────────────────────────────────────────────

  addDownload(app, routes.userRevenueEarningsDownload, async (account, query) => ({
    contentType: 'application/pdf',
    filename: `earnings_${query.date}.pdf`,
    body: await buildStatement(db, account, {
      month: query.date,
      timeZone: query.timezone,
      now: now(),
      poolName: config.poolName,
      publicUrl: config.publicUrl,
    }),
  }));

  addDownload(app, routes.userRevenueEarningsCsv, async (account, query) => {
    // The whole history, not just the 90 days the table shows: the file is the miner's record.
    const days = await readEarningDays(db, account, {
      algorithm: query.algorithm,
      timeZone: query.timezone,
      now: now(),
      hashesPerDifficulty,
    });
    return { contentType: CSV_CONTENT_TYPE, filename: 'earnings.csv', body: earningsCsv(days) };
  });

  addDownload(app, routes.userRevenuePayoutsCsv, async (account, query) => {
    const records = await readAccountPayouts(db, account, query.timezone);
    return { contentType: CSV_CONTENT_TYPE, filename: 'payments.csv', body: paymentsCsv(records) };
  });
}
