import type { AlgorithmKey } from '@lodestone/domain';
import { type RawBuilder, sql } from 'kysely';
import type { Account, Executor } from '../schema.js';
import { inTransaction } from './payouts.js';

/**
 * The notification outbox (migrations 0013 and 0014, docs/notifications.md): messages are enqueued
 * with a dedupe key in the transaction that decided them, and the sender job delivers them with
 * retries.
 */

export type NotificationChannel = 'email' | 'telegram';

/** A file sent with an e-mail (migration 0014): stored with its message, the same bytes every attempt. */
export interface NotificationAttachment {
  /** Safe characters only ([A-Za-z0-9._-]); the table refuses anything else. */
  filename: string;
  contentType: string;
  content: Uint8Array;
}

export interface NewNotification {
  userId: bigint;
  channel: NotificationChannel;
  kind: string;
  /** Derived from what the message is about: enqueuing the same key again does nothing. */
  dedupeKey: string;
  subject: string;
  body: string;
  /** Files sent with it, in this order (e-mail only). */
  attachments?: readonly NotificationAttachment[];
  now: Date;
}

/**
 * Enqueues a message, due now, with its attachments (one transaction: the caller's, or its own). False
 * when a message with this dedupe key exists (sent or not): then nothing is written.
 */
export function enqueueNotification(db: Executor, message: NewNotification): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const row = await trx
      .insertInto('notifications')
      .values({
        user_id: message.userId,
        channel: message.channel,
        kind: message.kind,
        dedupe_key: message.dedupeKey,
        subject: message.subject,
        body: message.body,
        next_attempt_at: message.now,
        created_at: message.now,
      })
      .onConflict((oc) => oc.column('dedupe_key').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!row) return false;
    const files = message.attachments ?? [];
    if (files.length > 0) {
      await trx
        .insertInto('notification_attachments')
        .values(
          files.map((f, position) => ({
            notification_id: row.id,
            position,
            filename: f.filename,
            content_type: f.contentType,
            content: f.content,
          })),
        )
        .execute();
    }
    return true;
  });
}

/** A message due for sending, with where it goes. */
/** A pending message as every channel sends it. */
export interface PendingMessage {
  id: bigint;
  userId: bigint;
  kind: string;
  subject: string;
  body: string;
  attempts: number;
}

/** The columns of a notifications row that make a pending message. */
export interface PendingMessageRow {
  id: bigint;
  user_id: bigint;
  kind: string;
  subject: string;
  body: string;
  attempts: number;
}

/** A pending message from the columns of its notifications row. */
export function pendingMessageOf(row: PendingMessageRow): PendingMessage {
  return {
    id: row.id,
    userId: row.user_id,
    kind: row.kind,
    subject: row.subject,
    body: row.body,
    attempts: row.attempts,
  };
}

export interface DueNotification extends PendingMessage {
  /** The user's e-mail address now (a changed address gets the message). */
  email: string;
  /** The files stored with it, in order (Buffers, as mailers take them). */
  attachments: { filename: string; contentType: string; content: Buffer }[];
}

/**
 * Pending e-mails due at `now`, oldest first, at most `limit`; messages of deleted users are not
 * returned (failNotificationsOfDeletedUsers ends them).
 */
export async function dueEmailNotifications(db: Executor, now: Date, limit: number): Promise<DueNotification[]> {
  const rows = await db
    .selectFrom('notifications as n')
    .innerJoin('users as u', 'u.id', 'n.user_id')
    .select(['n.id', 'n.user_id', 'n.kind', 'n.subject', 'n.body', 'n.attempts', 'u.email'])
    .where('n.status', '=', 'pending')
    .where('n.channel', '=', 'email')
    .where('n.next_attempt_at', '<=', now)
    .where('u.deleted_at', 'is', null)
    .orderBy('n.next_attempt_at')
    .orderBy('n.id')
    .limit(limit)
    .execute();
  // The attachments of all of them in one query.
  const files =
    rows.length === 0
      ? []
      : await db
          .selectFrom('notification_attachments')
          .select(['notification_id', 'filename', 'content_type', 'content'])
          .where(
            'notification_id',
            'in',
            rows.map((r) => r.id),
          )
          .orderBy('notification_id')
          .orderBy('position')
          .execute();
  const byMessage = new Map<bigint, DueNotification['attachments']>();
  for (const f of files) {
    const list = byMessage.get(f.notification_id) ?? [];
    list.push({
      filename: f.filename,
      contentType: f.content_type,
      // PGlite answers a Uint8Array, pg a Buffer: the same bytes, as a Buffer, without a copy.
      content: Buffer.from(f.content.buffer, f.content.byteOffset, f.content.byteLength),
    });
    byMessage.set(f.notification_id, list);
  }
  return rows.map((r) => ({
    ...pendingMessageOf(r),
    email: r.email,
    attachments: byMessage.get(r.id) ?? [],
  }));
}

/** Messages still pending for users deleted since they were enqueued: marked failed, never sent. */
export async function failNotificationsOfDeletedUsers(db: Executor): Promise<number> {
  const result = await db
    .updateTable('notifications')
    .set({ status: 'failed', last_error: 'user deleted' })
    .where('status', '=', 'pending')
    .where('user_id', 'in', (eb) => eb.selectFrom('users').select('id').where('deleted_at', 'is not', null))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function markNotificationSent(db: Executor, id: bigint, now: Date): Promise<void> {
  await db
    .updateTable('notifications')
    .set((eb) => ({ status: 'sent', sent_at: now, attempts: eb('attempts', '+', 1), last_error: null }))
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

/** A failed attempt: tried again at `retryAt`, or with `retryAt` null, given up (status failed). */
export async function markNotificationAttemptFailed(
  db: Executor,
  id: bigint,
  error: string,
  retryAt: Date | null,
): Promise<void> {
  await db
    .updateTable('notifications')
    .set((eb) => ({
      status: retryAt ? 'pending' : 'failed',
      attempts: eb('attempts', '+', 1),
      last_error: error.slice(0, 2000),
      ...(retryAt ? { next_attempt_at: retryAt } : {}),
    }))
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

/** Messages of a channel sent at or after `since` (the sender's per-minute rate limit). */
export async function notificationsSentSince(db: Executor, channel: NotificationChannel, since: Date): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('sent_at', '>=', since)
    .where('channel', '=', channel)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Kept for support a while; older sent or failed messages are deleted. */
export async function pruneNotifications(db: Executor, before: Date): Promise<number> {
  const result = await db
    .deleteFrom('notifications')
    .where('status', '<>', 'pending')
    .where('created_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

// ── monthly reports ───────────────────────────────────────────────────────────────────────────

/** The dedupe key of a user's monthly report: one e-mail per user and month. */
export function monthlyReportKey(userId: bigint, month: string): string {
  return `monthly-report:${userId}:${month}`;
}

/** A user whose monthly report is to be made, with the mining accounts it covers. */
export interface MonthlyReportUser {
  userId: bigint;
  /** Live accounts created before the month ended, by name. */
  accounts: Account[];
}

/**
 * Up to `limit` users, by id and after `afterUserId`, with Monthly reports on who have at least one
 * live mining account created before `monthEnd` and no outbox row yet for the report of `month` (its
 * dedupe key, a probe of the unique index: users already done cost nothing).
 */
export async function usersDueMonthlyReport(
  db: Executor,
  options: { month: string; monthEnd: Date; limit: number; afterUserId?: bigint },
): Promise<MonthlyReportUser[]> {
  const { month, monthEnd } = options;
  const users = await db
    .selectFrom('users as u')
    .select('u.id')
    .where('u.send_monthly_reports', '=', true)
    .where('u.deleted_at', 'is', null)
    .where('u.id', '>', options.afterUserId ?? 0n)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('accounts as a')
          .select('a.id')
          .whereRef('a.user_id', '=', 'u.id')
          .where('a.deleted_at', 'is', null)
          .where('a.created_at', '<', monthEnd),
      ),
    )
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('notifications as n')
            .select('n.id')
            // monthlyReportKey, written in SQL.
            .where('n.dedupe_key', '=', sql<string>`'monthly-report:' || u.id || ${`:${month}`}`),
        ),
      ),
    )
    .orderBy('u.id')
    .limit(options.limit)
    .execute();
  if (users.length === 0) return [];
  const accounts = await db
    .selectFrom('accounts')
    .selectAll()
    .where(
      'user_id',
      'in',
      users.map((u) => u.id),
    )
    .where('deleted_at', 'is', null)
    .where('created_at', '<', monthEnd)
    .orderBy('username')
    .execute();
  return users.map((u) => ({ userId: u.id, accounts: accounts.filter((a) => a.user_id === u.id) }));
}

// ── offline-worker alerts ───────────────────────────────────────────────────────────────────────

/** A worker of a user who has the offline-worker alerts on, with what its check needs. */
export interface AlertWorker {
  workerId: bigint;
  userId: bigint;
  account: string;
  algorithm: string;
  name: string;
  firstSeenAt: Date;
  /** The user's window in minutes; null: automatic. */
  windowMinutes: number | null;
  /**
   * The last accepted share: its own time (workers.last_accepted_at), else — for a worker not seen
   * since nodes report it — the end of the last minute with one (minute rows, else hour rows); null: none kept.
   */
  lastAcceptedAt: Date | null;
  /** Accepted difficulty and shares over the 24 hours up to the last accepted share (hour rows). */
  recentDifficulty: string;
  recentShares: number;
  /** Start of the first of those hours, or the worker's first sight when later. */
  recentFrom: Date | null;
  /** The stored alert state; null: not seen by the check yet. */
  state: { offline: boolean; since: Date; notified: boolean } | null;
  /** The user has a linked Telegram chat and Telegram notifications on: the alerts go there. */
  telegram: boolean;
  /**
   * The alerts go by e-mail: always, except while they go to Telegram and the user asked for them there
   * only (offline_worker_telegram_only).
   */
  email: boolean;
}

/**
 * Every worker of the live accounts of users with offline_worker_notification on. The last accepted
 * share is the worker's own column, or one backward index probe (minute rows, then hour rows) for a
 * worker without it; the share statistics
 * are at most 25 hour rows per worker.
 */
export function workersForOfflineAlerts(db: Executor): Promise<AlertWorker[]> {
  return alertWorkers(db, sql`u.offline_worker_notification and u.deleted_at is null`);
}

/**
 * The workers of one account on one algorithm, as the offline alert judges them (the hashrate alerts'
 * "active workers" rule counts those it finds online).
 */
export function accountWorkersForAlerts(
  db: Executor,
  accountId: bigint,
  algorithm: AlgorithmKey,
): Promise<AlertWorker[]> {
  return alertWorkers(db, sql`a.id = ${accountId} and w.algorithm = ${algorithm} and u.deleted_at is null`);
}

async function alertWorkers(db: Executor, where: RawBuilder<unknown>): Promise<AlertWorker[]> {
  const { rows } = await sql<{
    worker_id: bigint;
    user_id: bigint;
    account: string;
    algorithm: string;
    name: string;
    first_seen_at: Date;
    window_minutes: number | null;
    last_accepted_at: Date | null;
    recent_difficulty: string | null;
    recent_shares: string | null;
    recent_from: Date | null;
    offline: boolean | null;
    since: Date | null;
    notified: boolean | null;
    telegram: boolean;
    telegram_only: boolean;
  }>`
    select w.id as worker_id, u.id as user_id, a.username as account, w.algorithm, w.name, w.first_seen_at,
           u.offline_worker_window_minutes as window_minutes, last.at as last_accepted_at,
           recent.difficulty as recent_difficulty, recent.shares as recent_shares,
           greatest(w.first_seen_at, recent.first_hour) as recent_from,
           s.offline, s.since, s.notified,
           (u.telegram_notifications and exists (select 1 from telegram_links l where l.user_id = u.id)) as telegram,
           u.offline_worker_telegram_only as telegram_only
      from users u
      join accounts a on a.user_id = u.id and a.deleted_at is null
      join workers w on w.account = a.username
      left join worker_alert_states s on s.worker_id = w.id
      cross join lateral (
        select coalesce(
          w.last_accepted_at,
          (select m.minute + interval '1 minute' from worker_stats_minute m
            where m.worker_id = w.id and m.valid > 0 order by m.minute desc limit 1),
          (select h.hour + interval '1 hour' from worker_stats_hour h
            where h.worker_id = w.id and h.valid > 0 order by h.hour desc limit 1)
        ) as at
      ) last
      left join lateral (
        select sum(h.accepted_difficulty)::text as difficulty, sum(h.valid)::text as shares, min(h.hour) as first_hour
          from worker_stats_hour h
         where h.worker_id = w.id and h.hour >= last.at - interval '25 hours' and h.hour < last.at
      ) recent on true
     where ${where}
     order by u.id, a.username, w.algorithm, w.name
  `.execute(db);
  return rows.map((r) => ({
    workerId: r.worker_id,
    userId: r.user_id,
    account: r.account,
    algorithm: r.algorithm,
    name: r.name,
    firstSeenAt: r.first_seen_at,
    windowMinutes: r.window_minutes,
    lastAcceptedAt: r.last_accepted_at,
    recentDifficulty: r.recent_difficulty ?? '0',
    recentShares: Number(r.recent_shares ?? 0),
    recentFrom: r.recent_from,
    state: r.offline === null ? null : { offline: r.offline, since: r.since as Date, notified: r.notified as boolean },
    telegram: r.telegram,
    email: !(r.telegram && r.telegram_only),
  }));
}

export interface AlertStateChange {
  workerId: bigint;
  offline: boolean;
  since: Date;
  notified: boolean;
}

/**
 * Writes alert states, in the caller's transaction, for the workers that still exist (a worker
 * removed meanwhile is skipped: its removal holds the row lock, and this waits for it). Returns the
 * ids written, so a message lists only workers that are still there.
 */
export async function saveAlertStates(
  db: Executor,
  changes: readonly AlertStateChange[],
  now: Date,
): Promise<bigint[]> {
  if (changes.length === 0) return [];
  const present = await db
    .selectFrom('workers')
    .select('id')
    .where(
      'id',
      'in',
      changes.map((c) => c.workerId),
    )
    .forKeyShare()
    .execute();
  const ids = new Set(present.map((r) => r.id));
  const kept = changes.filter((c) => ids.has(c.workerId));
  if (kept.length === 0) return [];
  await db
    .insertInto('worker_alert_states')
    .values(
      kept.map((c) => ({
        worker_id: c.workerId,
        offline: c.offline,
        since: c.since,
        notified: c.notified,
        checked_at: now,
      })),
    )
    .onConflict((oc) =>
      oc.column('worker_id').doUpdateSet((eb) => ({
        offline: eb.ref('excluded.offline'),
        since: eb.ref('excluded.since'),
        notified: eb.ref('excluded.notified'),
        checked_at: eb.ref('excluded.checked_at'),
      })),
    )
    .execute();
  return kept.map((c) => c.workerId);
}

/**
 * Forgets the states of workers whose user turned the alerts off (or was deleted): turned on again
 * later, the alerts start from what the workers do then, not from old news.
 */
export async function forgetAlertStatesOfUsersWithoutAlerts(db: Executor): Promise<number> {
  const { numAffectedRows } = await sql`
    delete from worker_alert_states s
     using workers w, accounts a, users u
     where s.worker_id = w.id and a.username = w.account and u.id = a.user_id
       and (not u.offline_worker_notification or u.deleted_at is not null or a.deleted_at is not null)
  `.execute(db);
  return Number(numAffectedRows ?? 0);
}

/** The suffix of a Telegram twin's dedupe key: the e-mail's key, then this. */
export const TELEGRAM_KEY_SUFFIX = ':telegram';

/**
 * E-mails the offline-worker alerts enqueued for Telegram since `window.since` that Telegram did not
 * deliver: ended undelivered (the chat blocked the bot or was unlinked, Telegram notifications were
 * turned off while it waited, or its attempts ran out), or still waiting though enqueued before
 * `window.lateBefore` (the bot cannot reach Telegram). Only for users who still have the alerts on.
 * The e-mail takes the key the alert's e-mail has, so an alert that was e-mailed already (the user
 * does not ask for Telegram only) gets nothing more, and a repeated call enqueues nothing twice.
 * Answers the e-mails enqueued.
 */
export async function emailUndeliveredTelegramAlerts(
  db: Executor,
  now: Date,
  window: { since: Date; lateBefore: Date },
): Promise<number> {
  const { numAffectedRows } = await sql`
    insert into notifications (user_id, channel, kind, dedupe_key, subject, body, next_attempt_at, created_at)
    select n.user_id, 'email', n.kind, left(n.dedupe_key, ${sql.lit(-TELEGRAM_KEY_SUFFIX.length)}), n.subject, n.body,
           ${now}, ${now}
      from notifications n
      join users u on u.id = n.user_id
     where n.status in ('pending', 'failed') and n.channel = 'telegram'
       and n.kind in ('worker-offline', 'worker-online')
       and n.created_at >= ${window.since}
       and (n.status = 'failed' or n.created_at < ${window.lateBefore})
       and right(n.dedupe_key, ${sql.lit(TELEGRAM_KEY_SUFFIX.length)}) = ${TELEGRAM_KEY_SUFFIX}
       and u.offline_worker_notification and u.deleted_at is null
     order by n.id
    on conflict (dedupe_key) do nothing
  `.execute(db);
  return Number(numAffectedRows ?? 0);
}
