import {
  type DB,
  enqueueNotification,
  type MonthlyReportUser,
  monthlyReportKey,
  type NotificationAttachment,
  usersDueMonthlyReport,
} from '@lodestone/db';
import { monthlyReportMonth, statementFileName, utcMonthBounds } from '@lodestone/domain';
import type { Kysely, Transaction } from 'kysely';
import { verificationUrl } from '../services/public/signatures.js';
import { buildSignedStatement, monthTitle, type PdfOptions } from '../services/revenue/statement.js';
import type { JobDefinition, Log } from './types.js';

/**
 * Monthly reports (docs/notifications.md, "Monthly reports"): in the first seven days of a UTC month,
 * every user with Settings → "Monthly reports" on gets one e-mail with last month's signed PDF
 * statement of each of their mining accounts attached (the statement the dashboard downloads, in
 * UTC). Per user, in one transaction: the statements are built and signed (their signatures recorded),
 * the message is enqueued with the dedupe key `monthly-report:{user id}:{YYYY-MM}`, and the PDFs are
 * stored with it (migration 0014). A crash before the commit leaves nothing behind, not even a
 * signature; after it, the notification sender delivers the stored bytes, the same on every attempt.
 * Users already enqueued are skipped by the query that picks them, so a repeated run or a restarted
 * jobs role makes nothing twice.
 */

export interface MonthlyReportOptions {
  /** POOL_NAME: the subject, the statements' title, the files' names. */
  poolName: string;
  /** PUBLIC_URL: the statements' verification links, the dashboard link. */
  publicUrl: string;
  /** Users per run at most (default MONTHLY_REPORT_BATCH). */
  batchSize?: number;
  /** Tests only: uncompressed PDFs, to read their text. */
  pdf?: PdfOptions;
}

/**
 * Users per run: a large pool spreads building PDFs over runs (50 every 10 minutes is 50,400 users
 * in the 7-day window).
 */
export const MONTHLY_REPORT_BATCH = 50;

export interface MonthlyReportRun {
  /** The month reported at that instant; null outside the window. */
  month: string | null;
  /** Users tried. */
  users: number;
  enqueued: number;
  failed: number;
  /** The last user tried: the next run starts after it (null: from the first). */
  lastUserId: bigint | null;
}

/** One statement of a report: whose, its file, its signature. */
export interface ReportStatement {
  account: string;
  filename: string;
  signature: string;
}

/** The e-mail of a user's report (plain text; the sender adds the unsubscribe footer). */
export function monthlyReportMessage(options: MonthlyReportOptions, month: string, statements: ReportStatement[]) {
  const one = statements.length === 1;
  const dashboard = new URL('/dashboard', options.publicUrl).toString();
  const body = [
    `Attached is your ${options.poolName} statement for ${monthTitle(month)}: ${one ? 'one PDF' : `one PDF for each of your ${statements.length} mining accounts`}, with what ${one ? 'the account' : 'each account'} earned per day and coin and the payouts of the month.`,
    '',
    ...statements.flatMap((s) => [
      `  ${s.account}: ${s.filename}`,
      `    verify: ${verificationUrl(options.publicUrl, s.signature)}`,
    ]),
    '',
    `Each statement is signed by the pool: its signature is printed at its foot, and the page its link opens (${options.publicUrl}/signature/…) tells whether a copy is exactly the file the pool issued.`,
    '',
    `Days and times are in UTC; download a statement in your own time zone from the dashboard: ${dashboard}`,
  ].join('\n');
  return { subject: `[${options.poolName}] Your statement for ${monthTitle(month)}`, body };
}

/** Thrown inside a report's transaction to roll it back (its key was taken meanwhile). */
class AlreadyEnqueued extends Error {}

/** Builds, signs and enqueues one user's report in `trx`. False when it was enqueued meanwhile. */
async function enqueueReport(
  trx: Transaction<DB>,
  user: MonthlyReportUser,
  month: string,
  now: Date,
  options: MonthlyReportOptions,
): Promise<boolean> {
  const statements: ReportStatement[] = [];
  const attachments: NotificationAttachment[] = [];
  for (const account of user.accounts) {
    const { document, signature } = await buildSignedStatement(
      trx,
      account,
      { month, timeZone: 'UTC', now, poolName: options.poolName, publicUrl: options.publicUrl },
      options.pdf,
    );
    const filename = statementFileName(options.poolName, account.username, month);
    statements.push({ account: account.username, filename, signature });
    attachments.push({ filename, contentType: 'application/pdf', content: document });
  }
  const inserted = await enqueueNotification(trx, {
    userId: user.userId,
    channel: 'email',
    kind: 'monthly-report',
    dedupeKey: monthlyReportKey(user.userId, month),
    ...monthlyReportMessage(options, month, statements),
    attachments,
    now,
  });
  // Its signatures would be left without the e-mail that carries them: undo them too.
  if (!inserted) throw new AlreadyEnqueued();
  return true;
}

/**
 * One run at `now`: the reports of the month monthlyReportMonth(now) names, for at most batchSize
 * users not enqueued yet, the first ones after `afterUserId` (from the first user again when none is
 * left after it). A report that cannot be made is logged as an error and tried again later (nothing
 * of it was written); past the window it is not sent. Starting where the last run stopped keeps users
 * whose report fails from taking every run's batch.
 */
export async function enqueueMonthlyReports(
  db: Kysely<DB>,
  now: Date,
  options: MonthlyReportOptions,
  log: Log,
  signal?: AbortSignal,
  afterUserId?: bigint,
): Promise<MonthlyReportRun> {
  const month = monthlyReportMonth(now);
  const run: MonthlyReportRun = { month: month ?? null, users: 0, enqueued: 0, failed: 0, lastUserId: null };
  if (!month) return run;
  const pick = (after?: bigint) =>
    usersDueMonthlyReport(db, {
      month,
      monthEnd: utcMonthBounds(month).end,
      limit: options.batchSize ?? MONTHLY_REPORT_BATCH,
      ...(after === undefined ? {} : { afterUserId: after }),
    });
  let users = await pick(afterUserId);
  if (users.length === 0 && afterUserId !== undefined) users = await pick();
  for (const user of users) {
    if (signal?.aborted) break;
    run.users++;
    run.lastUserId = user.userId;
    try {
      await db.transaction().execute((trx) => enqueueReport(trx, user, month, now, options));
      run.enqueued++;
    } catch (error) {
      if (error instanceof AlreadyEnqueued) continue;
      run.failed++;
      const reason = error instanceof Error ? error.message : String(error);
      log.error(
        { job: 'monthly-reports', userId: user.userId, month, error: reason },
        'monthly report not made; it is tried again at a later run',
      );
    }
  }
  return run;
}

/**
 * The reports as a job: every 10 minutes and at start, singleton (two copies would build the same
 * PDFs; the dedupe key would keep one, and roll the other back). It remembers where its last run
 * stopped (in memory: a restart begins from the first user again).
 */
export function monthlyReportJob(options: MonthlyReportOptions): JobDefinition {
  let after: { month: string; userId: bigint } | undefined;
  return {
    name: 'monthly-reports',
    everyMs: 10 * 60_000,
    runOnStart: true,
    singleton: true,
    async run({ database, now, signal, log }) {
      const month = monthlyReportMonth(now);
      const from = after && after.month === month ? after.userId : undefined;
      const result = await enqueueMonthlyReports(database.db, now, options, log, signal, from);
      after =
        result.month && result.lastUserId !== null ? { month: result.month, userId: result.lastUserId } : undefined;
      if (result.users > 0) log.info({ job: 'monthly-reports', ...result }, 'monthly reports enqueued');
    },
  };
}
