import { telegramLinkResponse, telegramStatusResponse } from '@lodestone/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, post, registerUser, type TestUser } from '../../../test/accounts.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { standInBot, startTelegramStandIn, TEST_BOT_USERNAME, type TelegramStandIn } from '../../../test/telegram.js';
import type { TelegramBot } from '../../jobs/telegram/telegramBot.js';

// Settings' Telegram calls. The API process has no bot token: it offers Telegram from what the jobs
// role (here, the bot driven by the test) recorded, and the code it hands out is the one the bot accepts.

describe('Telegram in Settings', () => {
  let t: TestApp;
  let api: TelegramStandIn;
  let bot: TelegramBot;
  beforeAll(async () => {
    api = await startTelegramStandIn();
    t = await createTestApp();
    bot = standInBot(api, t.database.db);
  });
  afterAll(async () => {
    await t?.close();
    await api?.close();
  });

  const status = async (user: TestUser) => {
    const res = await get(t.app, '/v1/user/telegram', { cookie: user.cookie });
    expect(res.statusCode, res.body).toBe(200);
    return telegramStatusResponse.parse(res.json());
  };
  const newLink = (user: TestUser) => post(t.app, '/v1/user/telegram/link', {}, { cookie: user.cookie });

  it('needs a session', async () => {
    expect((await get(t.app, '/v1/user/telegram')).statusCode).toBe(401);
    expect((await post(t.app, '/v1/user/telegram/link', {})).statusCode).toBe(401);
    expect((await post(t.app, '/v1/user/telegram/unlink', {})).statusCode).toBe(401);
  });

  it('is not offered before the jobs role has reached a bot', async () => {
    const user = await registerUser(t.app);
    expect(await status(user)).toEqual({
      available: false,
      reachable: false,
      bot_username: null,
      linked: false,
      telegram_username: null,
      linked_at: null,
    });
    const res = await newLink(user);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'Telegram is not set up on this pool.', code: 'TELEGRAM_NOT_CONFIGURED' });
  });

  it('links through the bot with the code from Settings, shows the chat, and unlinks', async () => {
    const user = await registerUser(t.app);
    await bot.pollOnce(new Date()); // the jobs role starts: getMe
    expect(await status(user)).toMatchObject({ available: true, reachable: true, bot_username: TEST_BOT_USERNAME });

    const res = await newLink(user);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toContain('no-store');
    const link = telegramLinkResponse.parse(res.json());
    expect(link.url).toBe(`https://t.me/${TEST_BOT_USERNAME}?start=${link.code}`);
    expect(link.code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(link.expires_at) - Date.now()).toBeGreaterThan(14 * 60_000);

    api.userSays({ id: 5151, username: 'miner_tg' }, `/start ${link.code}`);
    await bot.pollOnce(new Date());
    const linked = await status(user);
    expect(linked).toMatchObject({ available: true, linked: true, telegram_username: 'miner_tg' });
    expect(linked.linked_at).not.toBeNull();

    const unlink = await post(t.app, '/v1/user/telegram/unlink', {}, { cookie: user.cookie });
    expect(unlink.statusCode).toBe(200);
    expect((await status(user)).linked).toBe(false);
    // The old code is spent: linking again needs a new one.
    api.userSays({ id: 5151, username: 'miner_tg' }, `/start ${link.code}`);
    await bot.pollOnce(new Date());
    expect((await status(user)).linked).toBe(false);
    expect(api.sent.at(-1)?.text).toContain('This link is not valid any more');
  });

  it('makes no link while the jobs role has not reached the bot for 10 minutes', async () => {
    const user = await registerUser(t.app);
    await sql`update telegram_bot_state set updated_at = now() - interval '11 minutes'`.execute(t.database.db);
    expect(await status(user)).toMatchObject({ available: true, reachable: false });
    const res = await newLink(user);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('TELEGRAM_BOT_NOT_READY');
    // A poll that handles nothing still records, a minute after the last record, that the bot was reached.
    await bot.pollOnce(new Date(Date.now() + 61_000));
    expect((await status(user)).reachable).toBe(true);
    expect((await newLink(user)).statusCode).toBe(200);

    // Not reached for a week: the bot is taken as removed, and Telegram is no longer offered.
    await sql`update telegram_bot_state set updated_at = now() - interval '8 days'`.execute(t.database.db);
    expect(await status(user)).toMatchObject({ available: false, reachable: false });
    expect((await newLink(user)).json().code).toBe('TELEGRAM_NOT_CONFIGURED');
  });
});
