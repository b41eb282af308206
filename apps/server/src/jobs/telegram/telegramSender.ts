import { type DB, deferTelegramNotifications, dueTelegramNotifications, markNotificationSent } from '@lodestone/db';
import { GrammyError } from 'grammy';
import type { Kysely } from 'kysely';
import { unlinkTelegramChat } from '../../services/notifications/telegramLink.js';
import { recordFailedAttempt, type SendCounts } from '../notificationSender.js';
import type { JobDefinition, Log } from '../types.js';
import { type TelegramBot, telegramText } from './telegramBot.js';

/**
 * Sends the outbox's Telegram messages (docs/notifications.md, "Telegram"), with Telegram's limits
 * (https://core.telegram.org/bots/faq#broadcasting-to-users): at most MESSAGES_PER_SECOND in all, and
 * one message per chat per run (runs are 5 seconds apart, over the "one per second" a chat tolerates).
 * A 429 puts every Telegram message off for the retry_after it names, without counting an attempt; a
 * chat that blocked the bot (403) or no longer exists (400 "chat not found") is unlinked and its
 * messages end; other failures are retried with the e-mail sender's back-off and given up, logged as
 * an error, after its number of attempts.
 */

/** Under Telegram's "about 30 messages per second" to different chats. */
export const MESSAGES_PER_SECOND = 25;
const PER_RUN = 100;

export interface TelegramSenderRun extends SendCounts {
  /** Chats unlinked because Telegram will not deliver to them. */
  unlinked: number;
  /** Telegram asked to wait this many seconds. */
  floodWaitSeconds: number | null;
}

/** A send failure that means the chat is gone for the bot: unlink it, do not retry. */
function chatIsGone(error: GrammyError): string | undefined {
  if (error.error_code === 403) return 'the chat blocked the bot';
  if (error.error_code === 400 && /chat not found|user is deactivated/i.test(error.description))
    return 'the chat no longer exists';
  return undefined;
}

export async function sendDueTelegram(
  db: Kysely<DB>,
  now: Date,
  telegram: TelegramBot,
  log: Log,
  options: { maxAttempts?: number; pauseMs?: number; signal?: AbortSignal } = {},
): Promise<TelegramSenderRun> {
  const run: TelegramSenderRun = { sent: 0, retried: 0, failed: 0, unlinked: 0, floodWaitSeconds: null };
  const pauseMs = options.pauseMs ?? 1000 / MESSAGES_PER_SECOND;
  const chatsThisRun = new Set<bigint>();
  for (const message of await dueTelegramNotifications(db, now, PER_RUN)) {
    if (options.signal?.aborted) break;
    if (chatsThisRun.has(message.chatId)) continue;
    if (chatsThisRun.size > 0 && pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    chatsThisRun.add(message.chatId);
    try {
      await telegram.bot.api.sendMessage(Number(message.chatId), telegramText(message.subject, message.body), {
        link_preview_options: { is_disabled: true },
      });
    } catch (error) {
      const fields = { job: 'telegram-sender', id: message.id, kind: message.kind, error: String(error) };
      if (error instanceof GrammyError && error.error_code === 429) {
        const seconds = Math.max(1, error.parameters.retry_after ?? 30);
        run.floodWaitSeconds = seconds;
        await deferTelegramNotifications(db, new Date(now.getTime() + seconds * 1000));
        log.warn({ ...fields, retryAfter: seconds }, 'Telegram flood limit; messages wait');
        break;
      }
      if (error instanceof GrammyError && error.error_code === 401) {
        log.error(fields, 'Telegram refused the bot token (TELEGRAM_BOT_TOKEN); messages wait in the outbox');
        break;
      }
      const gone = error instanceof GrammyError ? chatIsGone(error) : undefined;
      if (gone) {
        await db.transaction().execute((trx) => unlinkTelegramChat(trx, message.userId, gone, now));
        run.unlinked++;
        log.warn({ ...fields, userId: message.userId }, `Telegram chat unlinked: ${gone}`);
        continue;
      }
      await recordFailedAttempt(db, message, String(error), now, options, {
        run,
        log,
        what: 'Telegram message',
        fields,
      });
      continue;
    }
    await markNotificationSent(db, message.id, now);
    run.sent++;
  }
  return run;
}

export function telegramSenderJob(telegram: TelegramBot): JobDefinition {
  return {
    name: 'telegram-sender',
    everyMs: 5_000,
    offsetMs: 1_000,
    singleton: true,
    async run({ database, now, signal, log }) {
      const result = await sendDueTelegram(database.db, now, telegram, log, { signal });
      if (result.sent + result.retried + result.failed + result.unlinked > 0 || result.floodWaitSeconds !== null)
        log.info({ job: 'telegram-sender', ...result }, 'Telegram messages sent');
    },
  };
}
