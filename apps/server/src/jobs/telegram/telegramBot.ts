import {
  accountsOfUser,
  appendUserLog,
  type DB,
  saveTelegramBotState,
  telegramBotState,
  telegramUserOfChat,
  updateUserPreferences,
} from '@lodestone/db';
import { ALGORITHM_KEYS } from '@lodestone/domain';
import { Bot, BotError, type Context } from 'grammy';
import type { Kysely } from 'kysely';
import type { ServiceLog } from '../../services/log.js';
import { type MiningContext, readMiningSummary, readMiningWorkers } from '../../services/mining.js';
import { linkChatWithCode, unlinkTelegramChat } from '../../services/notifications/telegramLink.js';

/**
 * The pool's Telegram bot (docs/notifications.md, "Telegram"), driven by the jobs role: it reads
 * messages by polling getUpdates (no webhook: a pool behind NAT needs no inbound port, and the jobs
 * role's singleton lock keeps one poller, which Telegram requires) and answers the commands below.
 * The offset of the next update is kept in the database, so a restarted jobs role misses none and
 * handles none again but the one a crash interrupted (at least once; the handlers bear repeating).
 * Sending the outbox's Telegram messages is jobs/telegramSender.ts.
 */

export interface TelegramBotOptions {
  token: string;
  /** TELEGRAM_API_ROOT (no trailing slash). */
  apiRoot: string;
  db: Kysely<DB>;
  poolName: string;
  publicUrl: string;
  /** How /status reads hashrates, as the dashboard does. */
  mining: Omit<MiningContext, 'db' | 'now'>;
  log: ServiceLog;
}

/** The commands Telegram's menu offers (setMyCommands). */
export const BOT_COMMANDS = [
  { command: 'status', description: 'Hashrate and workers of your accounts' },
  { command: 'stop', description: 'Stop alerts and payout notices here' },
  { command: 'unlink', description: 'Unlink this chat from your account' },
  { command: 'help', description: 'What this bot does' },
] as const;

/**
 * grammY's Node build types its signals with the abort-controller package's AbortSignal; Node's own
 * AbortSignal is what it receives at run time and works the same (it only listens for 'abort').
 */
export type GrammySignal = Parameters<Bot['init']>[0];
export const grammySignal = (signal: AbortSignal | undefined) => signal as unknown as GrammySignal;

/** How often a poll that handled nothing still records that the bot was reached. */
const HEARTBEAT_MS = 60_000;

/** The longest pause between polls while the Bot API fails. */
const POLL_BACKOFF_CAP_MS = 60_000;
/** Seconds to wait for any Bot API answer. */
const API_TIMEOUT_SECONDS = 30;

/** Telegram's limit on one message's text. */
const MAX_TEXT = 4096;

export const BOT_TEXT = {
  notPrivate: 'Please write to me in a private chat: I only link private chats.',
  badCode:
    'This link is not valid any more (links work once, for 15 minutes). Open Settings on the website and press "Link Telegram" again.',
  notLinked: (settings: string) =>
    `This chat is not linked to an account. To link it, log in, open ${settings} and press "Link Telegram".`,
  stopped: 'Alerts and payout notices are off for this chat. /status still works; turn them on again in Settings.',
  alreadyStopped: 'Alerts and payout notices are already off for this chat.',
  unlinked: 'This chat is unlinked from your account. Link it again from Settings whenever you like.',
} as const;

const MESSAGE_FOOTER = 'Send /stop to turn these messages off.';

/** A notification as a Telegram message: its subject, body and how to stop them, within the limit. */
export function telegramText(subject: string, body: string): string {
  return fitText(`${subject}\n\n${body}`, `\n\n${MESSAGE_FOOTER}`);
}

/** `text` + `tail`, the text cut (marked …) so that the whole fits one message. */
function fitText(text: string, tail = ''): string {
  const room = MAX_TEXT - [...tail].length;
  const chars = [...text];
  return (chars.length <= room ? text : `${chars.slice(0, room - 1).join('')}…`) + tail;
}

function helpText(options: TelegramBotOptions): string {
  return [
    `This is the ${options.poolName} bot. Linked to your account, it sends your offline-worker alerts and payout notices.`,
    '',
    `To link this chat: log in at ${options.publicUrl}, open Settings and press "Link Telegram".`,
    '',
    ...BOT_COMMANDS.map((c) => `/${c.command} — ${c.description}`),
  ].join('\n');
}

/** /status: each live account's hashrate now and over 24 hours and its workers, per algorithm mined. */
export async function statusText(
  ctx: MiningContext,
  userId: bigint,
  options: { poolName: string; publicUrl: string },
): Promise<string> {
  const accounts = await accountsOfUser(ctx.db, userId);
  const lines: string[] = [`${options.poolName} — ${ctx.now().toISOString().slice(0, 16).replace('T', ' ')} UTC`];
  if (accounts.length === 0) lines.push('', 'Your login has no mining account yet.');
  for (const account of accounts) {
    lines.push('', account.username);
    let mined = false;
    for (const algorithm of ALGORITHM_KEYS) {
      const summary = await readMiningSummary(ctx, account, algorithm);
      if (summary.total_workers === 0) continue;
      mined = true;
      lines.push(
        `  ${algorithm}: ${summary.hashrate} ${summary.hashrate_units} now, ${summary.hashrate_avg} ${summary.hashrate_avg_units} over 24 h; ${summary.active_workers} of ${summary.total_workers} workers active`,
      );
      if (summary.active_workers < summary.total_workers) {
        const idle = (await readMiningWorkers(ctx, account, algorithm)).filter((w) => w.hashrate === 0);
        const shown = idle.slice(0, 10).map((w) => w.name);
        lines.push(
          `    idle: ${shown.join(', ')}${idle.length > shown.length ? ` and ${idle.length - shown.length} more` : ''}`,
        );
      }
    }
    if (!mined) lines.push('  no workers');
  }
  lines.push('', `Dashboard: ${new URL('/dashboard', options.publicUrl).toString()}`);
  return fitText(lines.join('\n'));
}

export interface TelegramBot {
  /** The grammY bot (its `api` sends). */
  bot: Bot;
  /**
   * Reads the updates waiting and handles them, in order, at `now`. The first call also asks getMe
   * (kept for the API role's deep links), removes any webhook and sets the command menu.
   */
  pollOnce(now: Date, signal?: AbortSignal): Promise<number>;
}

export function createTelegramBot(options: TelegramBotOptions): TelegramBot {
  const { db, log } = options;
  // grammY waits 500 s for an answer by default: a hung Bot API would hold the poll that long. Polls ask
  // for no long poll (timeout 0), so 30 s without an answer is a failure, backed off like any other.
  const bot = new Bot(options.token, { client: { apiRoot: options.apiRoot, timeoutSeconds: API_TIMEOUT_SECONDS } });
  const settingsUrl = new URL('/settings', options.publicUrl).toString();
  let now = new Date();
  let ready = false;

  const chatOf = (ctx: Context) => (ctx.chat ? BigInt(ctx.chat.id) : undefined);
  const reply = (ctx: Context, text: string) =>
    ctx.reply(text, { link_preview_options: { is_disabled: true } }).then(() => undefined);

  // Everything is for private chats: a group's members are not one miner.
  bot.use(async (ctx, next) => {
    if (ctx.chat && ctx.chat.type !== 'private') {
      if (ctx.message?.text?.startsWith('/')) await reply(ctx, BOT_TEXT.notPrivate);
      return;
    }
    await next();
  });

  bot.command('start', async (ctx) => {
    const code = ctx.match.trim();
    const chatId = chatOf(ctx);
    if (code === '' || chatId === undefined) return reply(ctx, helpText(options));
    const userId = await db.transaction().execute(async (trx) => {
      const linked = await linkChatWithCode(trx, { chatId, telegramUsername: ctx.from?.username ?? null }, code, now);
      // Linking a chat is asking for messages there.
      if (linked !== undefined) await updateUserPreferences(trx, linked, { telegram_notifications: true });
      return linked;
    });
    if (userId === undefined) return reply(ctx, BOT_TEXT.badCode);
    const accounts = (await accountsOfUser(db, userId)).map((a) => a.username);
    log.info({ job: 'telegram-updates', userId }, 'Telegram chat linked');
    return reply(
      ctx,
      [
        `Linked to your ${options.poolName} login${accounts.length > 0 ? ` (accounts: ${accounts.join(', ')})` : ''}.`,
        'Your offline-worker alerts (when they are on in Settings) and payout notices will come here.',
        '/status shows your hashrate and workers; /stop turns messages off; /unlink unlinks this chat.',
      ].join('\n'),
    );
  });

  bot.command('status', async (ctx) => {
    const chatId = chatOf(ctx);
    const linked = chatId === undefined ? undefined : await telegramUserOfChat(db, chatId);
    if (!linked) return reply(ctx, BOT_TEXT.notLinked(settingsUrl));
    return reply(ctx, await statusText({ ...options.mining, db, now: () => now }, linked.userId, options));
  });

  bot.command('stop', async (ctx) => {
    const chatId = chatOf(ctx);
    const linked = chatId === undefined ? undefined : await telegramUserOfChat(db, chatId);
    if (!linked) return reply(ctx, BOT_TEXT.notLinked(settingsUrl));
    if (!linked.notifications) return reply(ctx, BOT_TEXT.alreadyStopped);
    await db.transaction().execute(async (trx) => {
      await updateUserPreferences(trx, linked.userId, { telegram_notifications: false });
      await appendUserLog(trx, {
        userId: linked.userId,
        name: 'settings_changed',
        value: { telegram_notifications: false, via: 'Telegram /stop' },
        time: now,
      });
    });
    return reply(ctx, BOT_TEXT.stopped);
  });

  bot.command('unlink', async (ctx) => {
    const chatId = chatOf(ctx);
    const linked = chatId === undefined ? undefined : await telegramUserOfChat(db, chatId);
    if (!linked) return reply(ctx, BOT_TEXT.notLinked(settingsUrl));
    await db.transaction().execute((trx) => unlinkTelegramChat(trx, linked.userId, 'Telegram /unlink', now));
    return reply(ctx, BOT_TEXT.unlinked);
  });

  bot.on('message', (ctx) => reply(ctx, helpText(options)));

  async function init(signal?: AbortSignal) {
    await bot.init(grammySignal(signal));
    await saveTelegramBotState(db, { botUsername: bot.botInfo.username }, now);
    lastRecorded = now.getTime();
    await bot.api.deleteWebhook({ drop_pending_updates: false }, grammySignal(signal));
    await bot.api.setMyCommands([...BOT_COMMANDS], undefined, grammySignal(signal));
    ready = true;
    log.info({ job: 'telegram-updates', bot: bot.botInfo.username }, 'Telegram bot ready');
  }

  // While the Bot API cannot be reached (or refuses the token, or another poller holds the bot), the
  // polls back off from 2 seconds to a minute, with one warning per outage instead of one every run.
  let failures = 0;
  let pausedUntil = 0;
  /** When the bot's state was last written (its updated_at says the bot is reached). */
  let lastRecorded = Number.NEGATIVE_INFINITY;

  async function poll(signal?: AbortSignal): Promise<number> {
    if (!ready) await init(signal);
    const { updateOffset } = await telegramBotState(db);
    const updates = await bot.api.getUpdates(
      { offset: Number(updateOffset), limit: 100, timeout: 0, allowed_updates: ['message'] },
      grammySignal(signal),
    );
    for (const update of updates) {
      if (signal?.aborted) break;
      try {
        await bot.handleUpdate(update);
      } catch (error) {
        // One failed answer (the chat blocked the bot meanwhile, a flood limit, a database hiccup) is
        // logged, and the update still counts as handled: otherwise it would come back at every poll
        // for a day and hold up every later one. (handleUpdate throws; bot.catch is only for bot.start.)
        const cause = error instanceof BotError ? error.error : error;
        log.warn(
          { job: 'telegram-updates', updateId: update.update_id, error: String(cause) },
          'Telegram update not fully handled',
        );
      }
      await saveTelegramBotState(db, { updateOffset: BigInt(update.update_id + 1) }, now);
      lastRecorded = now.getTime();
    }
    // The API offers linking only while this record is fresh (telegramLink.ts BOT_FRESH_MS).
    if (now.getTime() - lastRecorded >= HEARTBEAT_MS) {
      await saveTelegramBotState(db, {}, now);
      lastRecorded = now.getTime();
    }
    return updates.length;
  }

  return {
    bot,
    async pollOnce(at, signal) {
      now = at;
      if (at.getTime() < pausedUntil) return 0;
      try {
        const handled = await poll(signal);
        if (failures > 0) log.info({ job: 'telegram-updates', failures }, 'Telegram Bot API reached again');
        failures = 0;
        return handled;
      } catch (error) {
        if (signal?.aborted) throw error;
        failures++;
        pausedUntil = at.getTime() + Math.min(POLL_BACKOFF_CAP_MS, 2_000 * 2 ** (failures - 1));
        if (failures === 1)
          log.warn(
            { job: 'telegram-updates', error: String(error) },
            'Telegram Bot API not reached; retrying with back-off (a 401 is a wrong TELEGRAM_BOT_TOKEN, a 409 another poller of this bot)',
          );
        return 0;
      }
    },
  };
}
