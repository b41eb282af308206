import { sql } from 'kysely';
import type { Executor } from '../schema.js';
import { type PendingMessage, type PendingMessageRow, pendingMessageOf } from './notifications.js';

/**
 * Telegram links, link codes and the bot's state (migration 0015, docs/notifications.md "Telegram"),
 * and the Telegram side of the notification outbox.
 */

export interface TelegramLink {
  chatId: bigint;
  telegramUsername: string | null;
  linkedAt: Date;
}

/** Stores a user's link code (its SHA-256), replacing the code they had. */
export async function replaceTelegramLinkCode(
  db: Executor,
  code: { userId: bigint; codeHash: string; expiresAt: Date; now: Date },
): Promise<void> {
  await db
    .insertInto('telegram_link_codes')
    .values({ code_hash: code.codeHash, user_id: code.userId, expires_at: code.expiresAt, created_at: code.now })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({ code_hash: code.codeHash, expires_at: code.expiresAt, created_at: code.now }),
    )
    .execute();
}

/**
 * Uses a link code: its user when it exists, has not expired and the user is not deleted. A code
 * works once whatever the outcome (the delete that reads it removes it); expired codes go on the way.
 */
export async function consumeTelegramLinkCode(db: Executor, codeHash: string, now: Date): Promise<bigint | undefined> {
  await db.deleteFrom('telegram_link_codes').where('expires_at', '<=', now).execute();
  const row = await db
    .deleteFrom('telegram_link_codes')
    .where('code_hash', '=', codeHash)
    .returning(['user_id', 'expires_at'])
    .executeTakeFirst();
  if (!row || row.expires_at <= now) return undefined;
  const user = await db
    .selectFrom('users')
    .select('id')
    .where('id', '=', row.user_id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return user?.id;
}

/**
 * Links a chat to a user. The chat leaves any other user it was linked to (one chat, one user), and
 * the user's previous chat is replaced. Answers the user the chat was taken from, if any.
 */
export async function linkTelegramChat(
  db: Executor,
  link: { userId: bigint; chatId: bigint; telegramUsername: string | null; now: Date },
): Promise<bigint | undefined> {
  const moved = await db
    .deleteFrom('telegram_links')
    .where('chat_id', '=', link.chatId)
    .where('user_id', '<>', link.userId)
    .returning('user_id')
    .executeTakeFirst();
  if (moved) await failPendingTelegram(db, moved.user_id, 'chat linked to another account');
  await db
    .insertInto('telegram_links')
    .values({
      user_id: link.userId,
      chat_id: link.chatId,
      telegram_username: link.telegramUsername,
      linked_at: link.now,
    })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({
        chat_id: link.chatId,
        telegram_username: link.telegramUsername,
        linked_at: link.now,
      }),
    )
    .execute();
  return moved?.user_id;
}

export async function telegramLinkOf(db: Executor, userId: bigint): Promise<TelegramLink | undefined> {
  const row = await db
    .selectFrom('telegram_links')
    .select(['chat_id', 'telegram_username', 'linked_at'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row && { chatId: row.chat_id, telegramUsername: row.telegram_username, linkedAt: row.linked_at };
}

/** The live user a chat is linked to, with their Telegram toggle. */
export async function telegramUserOfChat(
  db: Executor,
  chatId: bigint,
): Promise<{ userId: bigint; notifications: boolean } | undefined> {
  const row = await db
    .selectFrom('telegram_links as l')
    .innerJoin('users as u', 'u.id', 'l.user_id')
    .select(['u.id', 'u.telegram_notifications'])
    .where('l.chat_id', '=', chatId)
    .where('u.deleted_at', 'is', null)
    .executeTakeFirst();
  return row && { userId: row.id, notifications: row.telegram_notifications };
}

/** Ends the user's pending Telegram messages (they have no chat to go to any more). */
async function failPendingTelegram(db: Executor, userId: bigint, reason: string): Promise<void> {
  await db
    .updateTable('notifications')
    .set({ status: 'failed', last_error: reason })
    .where('user_id', '=', userId)
    .where('channel', '=', 'telegram')
    .where('status', '=', 'pending')
    .execute();
}

/**
 * Removes a user's link (Settings, `/unlink`, or a chat that blocked the bot) and ends their pending
 * Telegram messages with `reason`. False when there was no link.
 */
export async function unlinkTelegram(db: Executor, userId: bigint, reason: string): Promise<boolean> {
  const gone = await db.deleteFrom('telegram_links').where('user_id', '=', userId).returning('chat_id').execute();
  await failPendingTelegram(db, userId, reason);
  return gone.length > 0;
}

export interface TelegramBotState {
  updateOffset: bigint;
  botUsername: string | null;
  /** When the jobs role last reached the bot (null: never). */
  updatedAt: Date | null;
}

export async function telegramBotState(db: Executor): Promise<TelegramBotState> {
  const row = await db
    .selectFrom('telegram_bot_state')
    .select(['update_offset', 'bot_username', 'updated_at'])
    .executeTakeFirst();
  return {
    updateOffset: BigInt(row?.update_offset ?? 0),
    botUsername: row?.bot_username ?? null,
    updatedAt: row?.updated_at ?? null,
  };
}

/**
 * Records the bot's state at `now` (the jobs role reached the bot then): the next update to ask for
 * and/or its @username from getMe, or with neither, only the instant.
 */
export async function saveTelegramBotState(
  db: Executor,
  state: { updateOffset?: bigint; botUsername?: string },
  now: Date,
): Promise<void> {
  const values = {
    ...(state.updateOffset === undefined ? {} : { update_offset: state.updateOffset }),
    ...(state.botUsername === undefined ? {} : { bot_username: state.botUsername }),
    updated_at: now,
  };
  await db
    .insertInto('telegram_bot_state')
    .values({ id: true, ...values })
    .onConflict((oc) => oc.column('id').doUpdateSet(values))
    .execute();
}

/** A pending Telegram message due for sending, with its chat. */
export interface DueTelegramMessage extends PendingMessage {
  chatId: bigint;
}

/**
 * Pending Telegram messages due at `now`, oldest first, at most one per chat (Telegram's one message
 * a second to a chat; the next waits for the next run) and `limit` in all, so a chat with a backlog
 * does not hold up the others. Messages that can no longer go anywhere are ended first, not returned:
 * the user unlinked meanwhile or was deleted, or turned Telegram notifications off (/stop, Settings)
 * while they waited.
 */
export async function dueTelegramNotifications(db: Executor, now: Date, limit: number): Promise<DueTelegramMessage[]> {
  await sql`
    update notifications n
       set status = 'failed',
           last_error = case when exists (select 1 from telegram_links l where l.user_id = n.user_id)
                             then 'Telegram notifications turned off' else 'no linked Telegram chat' end
     where n.status = 'pending' and n.channel = 'telegram'
       and not exists (select 1 from telegram_links l join users u on u.id = l.user_id
                        where l.user_id = n.user_id and u.deleted_at is null and u.telegram_notifications)
  `.execute(db);
  const { rows } = await sql<PendingMessageRow & { chat_id: bigint }>`
    select id, user_id, kind, subject, body, attempts, chat_id
      from (select n.id, n.user_id, n.kind, n.subject, n.body, n.attempts, l.chat_id, n.next_attempt_at,
                   row_number() over (partition by l.chat_id order by n.next_attempt_at, n.id) as place
              from notifications n
              join telegram_links l on l.user_id = n.user_id
             where n.status = 'pending' and n.channel = 'telegram' and n.next_attempt_at <= ${now}) due
     where place = 1
     order by next_attempt_at, id
     limit ${limit}
  `.execute(db);
  return rows.map((r) => ({ ...pendingMessageOf(r), chatId: r.chat_id }));
}

/** Puts off every pending Telegram message until `until` (the Bot API asked us to wait). */
export async function deferTelegramNotifications(db: Executor, until: Date): Promise<void> {
  await db
    .updateTable('notifications')
    .set({ next_attempt_at: until })
    .where('status', '=', 'pending')
    .where('channel', '=', 'telegram')
    .where('next_attempt_at', '<', until)
    .execute();
}

/** One account's part of a payout, for a user who gets payout notices on Telegram. */
export interface PayoutNoticeRow {
  payoutId: bigint;
  userId: bigint;
  coin: string;
  /** Empty for a failed payout (its txid was cleared). */
  txid: string;
  demo: boolean;
  /** When it was sent, or for a failed payout, when it failed. */
  at: Date;
  account: string;
  address: string;
  amount: bigint;
}

/**
 * Payouts for Telegram notices, one row per account and address of a user who has a linked chat and
 * Telegram notifications on, oldest first, at most `limit` payouts and users:
 * - `sent`: sent at or after `since` and after the chat was linked, without a notice yet
 *   (`payout:{payout id}:{user id}:telegram`);
 * - `failed`: failed at or after `since` (balances restored: an EVM revert, a dead Pact command)
 *   after their "sent" notice went into the outbox, without a failure notice yet
 *   (`payout-failed:{payout id}:{user id}:telegram`).
 */
export async function payoutsWithoutTelegramNotice(
  db: Executor,
  which: 'sent' | 'failed',
  since: Date,
  limit: number,
): Promise<PayoutNoticeRow[]> {
  const sentKey = sql`'payout:' || p.id || ':' || a.user_id || ':telegram'`;
  const at = which === 'sent' ? sql`p.sent_at` : sql`p.failed_at`;
  const due =
    which === 'sent'
      ? sql`p.status = 'sent' and p.sent_at >= ${since} and p.sent_at >= l.linked_at
            and not exists (select 1 from notifications n where n.dedupe_key = ${sentKey})`
      : sql`p.status = 'failed' and p.failed_at >= ${since}
            and exists (select 1 from notifications n where n.dedupe_key = ${sentKey})
            and not exists (select 1 from notifications n
                             where n.dedupe_key = 'payout-failed:' || p.id || ':' || a.user_id || ':telegram')`;
  const { rows } = await sql<{
    payout_id: bigint;
    user_id: bigint;
    coin: string;
    txid: string | null;
    demo: boolean;
    at: Date;
    account: string;
    address: string;
    amount: string;
  }>`
    with due as (
      select distinct p.id as payout_id, a.user_id, ${at} as at
        from payouts p
        join payout_items i on i.payout_id = p.id
        join accounts a on a.id = i.account_id
        join users u on u.id = a.user_id and u.telegram_notifications and u.deleted_at is null
        join telegram_links l on l.user_id = u.id
       where ${due}
       order by at, p.id, a.user_id
       limit ${limit}
    )
    select d.payout_id, d.user_id, p.coin, p.txid, p.demo, d.at, a.username as account, i.address,
           i.amount::text as amount
      from due d
      join payouts p on p.id = d.payout_id
      join payout_items i on i.payout_id = p.id
      join accounts a on a.id = i.account_id and a.user_id = d.user_id
     order by d.at, p.id, d.user_id, a.username, i.address
  `.execute(db);
  return rows.map((r) => ({
    payoutId: r.payout_id,
    userId: r.user_id,
    coin: r.coin,
    txid: r.txid ?? '',
    demo: r.demo,
    at: r.at,
    account: r.account,
    address: r.address,
    amount: BigInt(r.amount),
  }));
}
