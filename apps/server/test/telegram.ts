import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DB } from '@lodestone/db';
import type { Kysely } from 'kysely';
import { createTelegramBot, type TelegramBot } from '../src/jobs/telegram/telegramBot.js';
import { powHashesPerDifficulty } from '../src/services/hashesPerDifficulty.js';
import type { ServiceLog } from '../src/services/log.js';

/**
 * A Telegram Bot API stand-in for tests: a real HTTP server speaking the Bot API's transport
 * (`POST {root}/bot{token}/{method}`, JSON in, `{ok, result}` / `{ok: false, error_code, description,
 * parameters}` out — https://core.telegram.org/bots/api#making-requests) for the methods the pool uses.
 * It holds Telegram's rules itself rather than trusting the pool's code: the token, method names
 * (case-insensitive), parameter types and ranges, that a bot can write only to a chat that wrote to it
 * first ("chat not found"), a chat that blocked the bot (403), text of 1–4096 characters, the per-chat
 * flood limit (429 with retry_after), one poller at a time and no polling while a webhook is set
 * (409), and update confirmation by offset.
 * Sources: docs/research/notifications.md §2 (the Bot API's text, @grammyjs/types 5.0.0).
 */

export const TEST_BOT_TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';
export const TEST_BOT_USERNAME = 'lodestone_test_bot';

export interface SentMessage {
  chatId: number;
  text: string;
  /** The rest of the request (link_preview_options, …). */
  params: Record<string, unknown>;
}

interface PendingPoll {
  respond: (result: unknown) => void;
  conflict: () => void;
}

export interface TelegramStandIn {
  /** The apiRoot grammY takes (no trailing slash). */
  apiRoot: string;
  token: string;
  /** Every message the bot sent, in order. */
  sent: SentMessage[];
  /** Every call, by method (lower case), for assertions on what was asked. */
  calls: { method: string; params: Record<string, unknown> }[];
  /** A private chat writes to the bot; commands get their bot_command entity, as Telegram sends them. */
  userSays(chat: { id: number; username?: string; firstName?: string }, text: string): number;
  /** A webhook is set for the bot (as another deployment of it would have): getUpdates answers 409 until deleteWebhook. */
  setWebhook(url: string): void;
  /** The user blocks the bot: later sends to the chat answer 403. */
  block(chatId: number): void;
  /** The next call of `method` answers this error instead (429 carries retry_after). */
  failNext(method: string, error: { code: number; description: string; retryAfter?: number }): void;
  /** Updates not yet confirmed by an offset. */
  pendingUpdates(): number;
  /** Resolves when the bot has sent `count` messages in all. */
  waitForSent(count: number, timeoutMs?: number): Promise<SentMessage[]>;
  close(): Promise<void>;
}

const MAX_TEXT = 4096;
/** Telegram tolerates short bursts to one chat, then answers 429 ("avoid more than 1 message per second"). */
const CHAT_BURST = 3;

class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly description: string,
    readonly retryAfter?: number,
  ) {
    super(description);
  }
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

function optionalInt(params: Record<string, unknown>, name: string, min: number, max: number): number | undefined {
  const v = params[name];
  if (v === undefined) return undefined;
  if (!isInt(v) || v < min || v > max) throw new ApiError(400, `Bad Request: invalid ${name} specified`);
  return v;
}

/** Where a command's bot_command entity ends: `/start`, `/status@bot`, in UTF-16 code units. */
function commandEntity(text: string) {
  const match = /^\/[A-Za-z0-9_]{1,32}(@[A-Za-z0-9_]{5,32})?/.exec(text);
  return match ? [{ type: 'bot_command', offset: 0, length: match[0].length }] : undefined;
}

export async function startTelegramStandIn(token = TEST_BOT_TOKEN): Promise<TelegramStandIn> {
  const sent: SentMessage[] = [];
  const calls: TelegramStandIn['calls'] = [];
  const updates: { update_id: number; message: Record<string, unknown> }[] = [];
  const knownChats = new Map<number, Record<string, unknown>>();
  const blocked = new Set<number>();
  const failures = new Map<string, { code: number; description: string; retryAfter?: number }[]>();
  const recentSends = new Map<number, number[]>();
  const sentWaiters: (() => void)[] = [];
  let nextUpdateId = 100_000;
  let nextMessageId = 1;
  let poll: PendingPoll | undefined;
  /** A webhook left by an earlier deployment of the bot: getUpdates is refused while it is set. */
  let webhook: string | undefined;

  const wakePoll = () => {
    if (!poll) return;
    const waiting = poll;
    poll = undefined;
    waiting.respond(updates.slice());
  };

  const methods: Record<string, (params: Record<string, unknown>) => unknown | Promise<unknown>> = {
    getme: () => ({
      id: Number(token.split(':')[0]),
      is_bot: true,
      first_name: 'Lodestone',
      username: TEST_BOT_USERNAME,
      can_join_groups: false,
      can_read_all_group_messages: false,
      supports_inline_queries: false,
    }),
    deletewebhook: () => {
      webhook = undefined;
      return true;
    },
    setmycommands: (params) => {
      const commands = params.commands;
      if (!Array.isArray(commands) || commands.length > 100) throw new ApiError(400, 'Bad Request: commands not found');
      for (const c of commands as { command?: unknown; description?: unknown }[]) {
        if (typeof c.command !== 'string' || !/^[a-z0-9_]{1,32}$/.test(c.command))
          throw new ApiError(400, 'Bad Request: BOT_COMMAND_INVALID');
        if (typeof c.description !== 'string' || c.description.length < 1 || c.description.length > 256)
          throw new ApiError(400, 'Bad Request: BOT_COMMAND_DESCRIPTION_INVALID');
      }
      return true;
    },
    getupdates: (params) => {
      if (webhook !== undefined)
        throw new ApiError(
          409,
          "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
        );
      const offset = optionalInt(params, 'offset', -(2 ** 31), 2 ** 53);
      const limit = optionalInt(params, 'limit', 1, 100) ?? 100;
      const timeout = optionalInt(params, 'timeout', 0, 3600) ?? 0;
      if (params.allowed_updates !== undefined && !Array.isArray(params.allowed_updates))
        throw new ApiError(400, 'Bad Request: can\'t parse "allowed_updates" JSON array');
      // "An update is considered confirmed as soon as getUpdates is called with an offset higher
      // than its update_id."
      if (offset !== undefined && offset > 0) {
        while (updates.length > 0 && (updates[0]?.update_id ?? 0) < offset) updates.shift();
      }
      // One poller: a new getUpdates ends the one still waiting with 409.
      if (poll) {
        poll.conflict();
        poll = undefined;
      }
      if (updates.length > 0 || timeout === 0) return updates.slice(0, limit);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          poll = undefined;
          resolve([]);
        }, timeout * 1000);
        poll = {
          respond: (result) => {
            clearTimeout(timer);
            resolve((result as unknown[]).slice(0, limit));
          },
          conflict: () => {
            clearTimeout(timer);
            reject(
              new ApiError(
                409,
                'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
              ),
            );
          },
        };
      });
    },
    sendmessage: (params) => {
      const chatId = params.chat_id;
      if (!isInt(chatId)) throw new ApiError(400, 'Bad Request: chat not found');
      const text = params.text;
      if (typeof text !== 'string' || text.trim() === '') throw new ApiError(400, 'Bad Request: message text is empty');
      if ([...text].length > MAX_TEXT) throw new ApiError(400, 'Bad Request: message is too long');
      if (params.parse_mode !== undefined && !['HTML', 'Markdown', 'MarkdownV2'].includes(String(params.parse_mode)))
        throw new ApiError(400, `Bad Request: unsupported parse_mode`);
      const preview = params.link_preview_options;
      if (preview !== undefined && (typeof preview !== 'object' || preview === null || Array.isArray(preview)))
        throw new ApiError(400, "Bad Request: can't parse link preview options JSON object");
      const chat = knownChats.get(chatId);
      // A bot cannot start a conversation: the chat must have written to it.
      if (!chat) throw new ApiError(400, 'Bad Request: chat not found');
      if (blocked.has(chatId)) throw new ApiError(403, 'Forbidden: bot was blocked by the user');
      const now = Date.now();
      const recent = (recentSends.get(chatId) ?? []).filter((t) => now - t < 1000);
      if (recent.length >= CHAT_BURST) throw new ApiError(429, 'Too Many Requests: retry after 1', 1);
      recent.push(now);
      recentSends.set(chatId, recent);
      const { chat_id: _chat, text: _text, ...rest } = params;
      sent.push({ chatId, text, params: rest });
      for (const wake of sentWaiters.splice(0)) wake();
      return { message_id: nextMessageId++, date: Math.floor(now / 1000), chat, text };
    },
  };

  async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    if (raw === '') return {};
    if (!/^application\/json\b/.test(req.headers['content-type'] ?? ''))
      throw new ApiError(400, 'Bad Request: unsupported content type');
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      throw new ApiError(400, "Bad Request: can't parse JSON");
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw new ApiError(400, 'Bad Request: expected a JSON object');
    return body as Record<string, unknown>;
  }

  const answer = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  const server = createServer((req, res) => {
    void (async () => {
      try {
        const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(req.url ?? '');
        if (!match || req.method !== 'POST') throw new ApiError(404, 'Not Found');
        if (match[1] !== token) throw new ApiError(401, 'Unauthorized');
        const method = (match[2] as string).toLowerCase();
        const handler = methods[method];
        if (!handler) throw new ApiError(404, 'Not Found: method not found');
        const params = await readJson(req);
        calls.push({ method, params });
        const failure = failures.get(method)?.shift();
        if (failure) throw new ApiError(failure.code, failure.description, failure.retryAfter);
        answer(res, 200, { ok: true, result: await handler(params) });
      } catch (error) {
        const e = error instanceof ApiError ? error : new ApiError(500, 'Internal Server Error');
        answer(res, e.code, {
          ok: false,
          error_code: e.code,
          description: e.description,
          ...(e.retryAfter === undefined ? {} : { parameters: { retry_after: e.retryAfter } }),
        });
      }
    })();
  });
  // Node's server drops an idle connection after 5 s, and a request the bot's HTTP client sends on it
  // at that instant fails as a network error instead of the answer a test set up (seen on a loaded CI
  // machine: "Network request for 'sendMessage' failed!" where a 502 was due). Telegram's servers keep
  // idle connections much longer; so does the stand-in, and close() ends them.
  server.keepAliveTimeout = 10 * 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    apiRoot: `http://127.0.0.1:${port}`,
    token,
    sent,
    calls,
    userSays(chat, text) {
      const from = { id: chat.id, is_bot: false, first_name: chat.firstName ?? 'Miner', username: chat.username };
      const privateChat = { id: chat.id, type: 'private', first_name: from.first_name, username: chat.username };
      knownChats.set(chat.id, privateChat);
      const entities = commandEntity(text);
      const update = {
        update_id: nextUpdateId++,
        message: {
          message_id: nextMessageId++,
          date: Math.floor(Date.now() / 1000),
          chat: privateChat,
          from,
          text,
          ...(entities ? { entities } : {}),
        },
      };
      updates.push(update);
      wakePoll();
      return update.update_id;
    },
    setWebhook: (url) => {
      webhook = url;
    },
    block: (chatId) => blocked.add(chatId),
    failNext(method, error) {
      const key = method.toLowerCase();
      failures.set(key, [...(failures.get(key) ?? []), error]);
    },
    pendingUpdates: () => updates.length,
    async waitForSent(count, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (sent.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`expected ${count} sent messages, got ${sent.length}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          sentWaiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return sent.slice();
    },
    async close() {
      poll?.conflict();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const QUIET: ServiceLog = { info() {}, warn() {}, error() {} };

/** The pool's bot as the jobs role builds it, on the stand-in, for pool "Lodestone". */
export function standInBot(
  api: TelegramStandIn,
  db: Kysely<DB>,
  options: { publicUrl?: string; log?: ServiceLog; token?: string } = {},
): TelegramBot {
  return createTelegramBot({
    token: options.token ?? api.token,
    apiRoot: api.apiRoot,
    db,
    poolName: 'Lodestone',
    publicUrl: options.publicUrl ?? 'https://pool.example.org',
    mining: { windowMinutes: 10, feePercent: 1, soloFeePercent: 1, hashesPerDifficulty: powHashesPerDifficulty },
    log: options.log ?? QUIET,
  });
}
