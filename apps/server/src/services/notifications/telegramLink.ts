import { createHash, randomBytes } from 'node:crypto';
import {
  appendUserLog,
  consumeTelegramLinkCode,
  type Executor,
  linkTelegramChat,
  replaceTelegramLinkCode,
  type TelegramBotState,
  telegramBotState,
  telegramLinkOf,
  unlinkTelegram,
} from '@lodestone/db';
import { errors } from '../errors.js';

/**
 * Linking a Telegram chat to a login (docs/notifications.md, "Telegram"). Settings asks for a one-time
 * code and opens the bot with it in a t.me deep link; the bot receives `/start <code>` and links the
 * chat that sent it. The code is a bearer secret for 15 minutes: only its SHA-256 is stored, it works
 * once, and a new one replaces the last.
 */

export const LINK_CODE_TTL_MS = 15 * 60_000;
/** 32 random bytes in base64url: 43 characters, inside a deep link's 64 of [A-Za-z0-9_-]. */
const LINK_CODE = /^[A-Za-z0-9_-]{43}$/;

export const TELEGRAM_MESSAGES = {
  notConfigured: 'Telegram is not set up on this pool.',
  botNotReady: 'The pool cannot reach its Telegram bot right now. Try again in a few minutes.',
} as const;

/**
 * The jobs role reaches the bot every few seconds and records it at least once a minute
 * (telegramBot.ts); a record older than this means the bot is not running or cannot be reached.
 */
const BOT_FRESH_MS = 10 * 60_000;
/**
 * A bot not reached for this long is taken as gone (the operator removed the token): Settings stops
 * offering Telegram instead of saying "cannot reach" forever.
 */
const BOT_GONE_MS = 7 * 24 * 3_600_000;

const hashOf = (code: string) => createHash('sha256').update(code).digest('hex');

/**
 * Whether the pool offers Telegram, judged from what the jobs role (the only role with the token)
 * recorded: `offered` once it has reached the bot (until a week without), `reachable` while it keeps
 * reaching it. API
 * processes need no bot token.
 */
function botStatus(state: TelegramBotState, now: Date) {
  const age = state.updatedAt === null ? Number.POSITIVE_INFINITY : now.getTime() - state.updatedAt.getTime();
  const offered = state.botUsername !== null && age < BOT_GONE_MS;
  return { offered, reachable: offered && age < BOT_FRESH_MS };
}

export interface TelegramSettings {
  /** The pool has a Telegram bot (the jobs role has reached it). */
  available: boolean;
  /** The jobs role reached it in the last BOT_FRESH_MS. */
  reachable: boolean;
  botUsername: string | null;
  link: { telegramUsername: string | null; linkedAt: Date } | null;
}

/** What Settings shows: whether Telegram is offered, the bot, and the user's linked chat. */
export async function readTelegramSettings(db: Executor, userId: bigint, now: Date): Promise<TelegramSettings> {
  const [state, link] = await Promise.all([telegramBotState(db), telegramLinkOf(db, userId)]);
  const { offered, reachable } = botStatus(state, now);
  return {
    available: offered,
    reachable,
    botUsername: state.botUsername,
    link: link ? { telegramUsername: link.telegramUsername, linkedAt: link.linkedAt } : null,
  };
}

/** A new link code for the user and the deep link that carries it to the bot. */
export async function createTelegramLinkCode(
  db: Executor,
  userId: bigint,
  now: Date,
): Promise<{ code: string; url: string; expiresAt: Date }> {
  const state = await telegramBotState(db);
  const { offered, reachable } = botStatus(state, now);
  if (!offered) throw errors.refused('TELEGRAM_NOT_CONFIGURED', TELEGRAM_MESSAGES.notConfigured);
  if (!reachable) throw errors.refused('TELEGRAM_BOT_NOT_READY', TELEGRAM_MESSAGES.botNotReady);
  const code = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + LINK_CODE_TTL_MS);
  await replaceTelegramLinkCode(db, { userId, codeHash: hashOf(code), expiresAt, now });
  return { code, url: `https://t.me/${state.botUsername}?start=${code}`, expiresAt };
}

/**
 * `/start <code>` from a chat: links the chat to the code's user. Undefined when the code is not a
 * live one (malformed, unknown, used or expired).
 */
export async function linkChatWithCode(
  db: Executor,
  chat: { chatId: bigint; telegramUsername: string | null },
  code: string,
  now: Date,
): Promise<bigint | undefined> {
  if (!LINK_CODE.test(code)) return undefined;
  const userId = await consumeTelegramLinkCode(db, hashOf(code), now);
  if (userId === undefined) return undefined;
  const movedFrom = await linkTelegramChat(db, { userId, ...chat, now });
  // No @username or chat id in the user log: it outlives the person's data (docs/accounts.md).
  await appendUserLog(db, { userId, name: 'telegram_linked', value: { via: 'Telegram /start' }, time: now });
  if (movedFrom !== undefined)
    await appendUserLog(db, {
      userId: movedFrom,
      name: 'telegram_unlinked',
      value: { via: 'chat linked to another login' },
      time: now,
    });
  return userId;
}

/** Unlinks the user's chat (Settings, `/unlink`, or a chat that blocked the bot). False: none was linked. */
export async function unlinkTelegramChat(db: Executor, userId: bigint, via: string, now: Date): Promise<boolean> {
  const unlinked = await unlinkTelegram(db, userId, `unlinked (${via})`);
  if (unlinked) await appendUserLog(db, { userId, name: 'telegram_unlinked', value: { via }, time: now });
  return unlinked;
}
