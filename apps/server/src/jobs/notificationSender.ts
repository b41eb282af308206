import {
  type DB,
  type DueNotification,
  dueEmailNotifications,
  failNotificationsOfDeletedUsers,
  markNotificationAttemptFailed,
  markNotificationSent,
  notificationsSentSince,
  pruneNotifications,
} from '@lodestone/db';
import type { Kysely } from 'kysely';
import type { Mailer } from '../services/mail.js';
import { KIND_TOPIC, unsubscribeKey, unsubscribeToken } from '../services/notifications/unsubscribe.js';
import type { JobDefinition, Log } from './types.js';

/**
 * The notification sender (docs/notifications.md, "Delivery"): delivers the outbox (migration 0013)
 * through the Mailer, with the files stored with each message (migration 0014). Delivery is at least once: a crash between the SMTP server's acceptance and the
 * row marked sent sends that one message again at the next run; everything else is exactly once,
 * because messages enter the outbox once (their dedupe key) and leave it once (marked sent).
 */

/** Attempts before a message is given up (status failed, logged as an error). */
const MAX_ATTEMPTS = 10;
/** The first retry waits this long; each further one twice as long as the one before … */
export const RETRY_BASE_MS = 60_000;
/**
 * … up to this. Ten attempts (waits of 1, 2, 4 … 256 minutes) span about 8.5 hours: a mail server
 * down for a night still gets the message; the cap matters when maxAttempts is raised.
 */
export const RETRY_CAP_MS = 6 * 3_600_000;
/** Messages kept after they are sent or given up, for support. */
export const RETENTION_DAYS = 90;
/** Messages looked at per run at most. */
const BATCH = 200;

export interface NotificationSenderOptions {
  mailer: Mailer;
  /** PUBLIC_URL: the unsubscribe links point to its /unsubscribe page. */
  publicUrl: string;
  /** NOTIFICATION_EMAILS_PER_MINUTE: e-mails sent in any minute (by the runs' instants) at most. */
  emailsPerMinute: number;
  maxAttempts?: number;
  retryBaseMs?: number;
  retryCapMs?: number;
}

/** What a sender's run did with the messages it tried (e-mail or Telegram). */
export interface SendCounts {
  sent: number;
  retried: number;
  failed: number;
}

export interface SenderRun extends SendCounts {
  /** Due messages left for a later run by the rate limit. */
  deferred: boolean;
}

/** The wait before attempt `attempts + 1`, after `attempts` failed ones: base × 2^(attempts−1), capped. */
export function retryDelayMs(attempts: number, baseMs = RETRY_BASE_MS, capMs = RETRY_CAP_MS): number {
  return Math.min(capMs, baseMs * 2 ** Math.max(0, attempts - 1));
}

/**
 * A failed attempt at sending `message` (e-mail or Telegram): it is tried again after retryDelayMs, or
 * after its last attempt given up — counted in `report.run` and logged, as an error when given up (never
 * dropped silently). `report.what` names the message in the log lines, which start with `report.fields`.
 */
export async function recordFailedAttempt(
  db: Kysely<DB>,
  message: Pick<DueNotification, 'id' | 'attempts'>,
  error: string,
  now: Date,
  retry: Pick<NotificationSenderOptions, 'maxAttempts' | 'retryBaseMs' | 'retryCapMs'>,
  report: { run: SendCounts; log: Log; what: string; fields: object },
): Promise<void> {
  const attempts = message.attempts + 1;
  const giveUp = attempts >= (retry.maxAttempts ?? MAX_ATTEMPTS);
  const retryAt = giveUp ? null : new Date(now.getTime() + retryDelayMs(attempts, retry.retryBaseMs, retry.retryCapMs));
  await markNotificationAttemptFailed(db, message.id, error, retryAt);
  const { run, log, what, fields } = report;
  if (giveUp) {
    run.failed++;
    log.error({ ...fields, attempts }, `${what} given up after its last attempt`);
  } else {
    run.retried++;
    log.warn({ ...fields, attempts, retryAt }, `${what} not sent; retrying later`);
  }
}

/** The page a message's unsubscribe link opens. */
export function unsubscribeUrl(publicUrl: string, token: string): string {
  const url = new URL('/unsubscribe', publicUrl);
  url.searchParams.set('token', token);
  return url.toString();
}

function render(message: DueNotification, link: string | undefined) {
  if (!link) return { text: message.body };
  return {
    text: `${message.body}\n\n-- \nTo stop these e-mails, open ${link}\nor turn the notification off in Settings.\n`,
    // RFC 2369: mail programs show their own "unsubscribe" button, which opens the same page; RFC 8058:
    // mail providers POST List-Unsubscribe=One-Click to that link instead (http/oneClickUnsubscribe.ts).
    headers: { 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}

/**
 * One run at `now`: ends the pending messages of deleted users, then sends what is due, oldest first,
 * as many as the per-minute limit leaves. A failed send is retried after retryDelayMs; after
 * maxAttempts it is given up and logged as an error (never dropped silently).
 */
export async function sendDueNotifications(
  db: Kysely<DB>,
  now: Date,
  options: NotificationSenderOptions,
  log: Log,
  signal?: AbortSignal,
): Promise<SenderRun> {
  const run: SenderRun = { sent: 0, retried: 0, failed: 0, deferred: false };
  const ended = await failNotificationsOfDeletedUsers(db);
  if (ended > 0) log.warn({ job: 'notification-sender', ended }, 'messages to deleted users will not be sent');
  const sentLastMinute = await notificationsSentSince(db, 'email', new Date(now.getTime() - 59_999));
  const allowance = Math.max(0, options.emailsPerMinute - sentLastMinute);
  const due = await dueEmailNotifications(db, now, Math.min(BATCH, allowance + 1));
  run.deferred = due.length > allowance;
  const key = due.length > 0 ? await unsubscribeKey(db) : '';
  for (const message of due.slice(0, allowance)) {
    if (signal?.aborted) break;
    const topic = KIND_TOPIC[message.kind];
    const link = topic ? unsubscribeUrl(options.publicUrl, unsubscribeToken(key, message.userId, topic)) : undefined;
    try {
      await options.mailer.send({
        to: message.email,
        subject: message.subject,
        ...render(message, link),
        ...(message.attachments.length > 0 ? { attachments: message.attachments } : {}),
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const fields = { job: 'notification-sender', id: message.id, kind: message.kind, error: reason };
      await recordFailedAttempt(db, message, reason, now, options, { run, log, what: 'notification', fields });
      continue;
    }
    await markNotificationSent(db, message.id, now);
    run.sent++;
  }
  await pruneNotifications(db, new Date(now.getTime() - RETENTION_DAYS * 86_400_000));
  return run;
}

/**
 * The sender as a job: every 10 seconds (a message waits that long at most when the limit allows),
 * and at start. Singleton: two senders would each count the other's e-mails only once sent, and could
 * send one message twice.
 */
export function notificationSenderJob(options: NotificationSenderOptions): JobDefinition {
  if (!(options.emailsPerMinute >= 1)) throw new Error('emailsPerMinute must be at least 1');
  return {
    name: 'notification-sender',
    everyMs: 10_000,
    runOnStart: true,
    singleton: true,
    async run({ database, now, signal, log }) {
      const result = await sendDueNotifications(database.db, now, options, log, signal);
      if (result.sent + result.retried + result.failed > 0 || result.deferred)
        log.info({ job: 'notification-sender', ...result }, 'notifications sent');
    },
  };
}
