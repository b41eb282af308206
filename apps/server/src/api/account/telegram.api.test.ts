import { telegramLinkResponse, telegramStatusResponse } from '@lodestone/contract';
import { saveTelegramBotState } from '@lodestone/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, post, registerUser, type TestUser } from '../../../test/accounts.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { startTelegramStandIn, TEST_BOT_USERNAME, type TelegramStandIn } from '../../../test/telegram.js';
import { powHashesPerDifficulty } from '../../services/hashesPerDifficulty.js';
import { createTelegramBot } from '../../services/notifications/telegramBot.js';

// Settings' Telegram calls: the link code the API hands out is the one the bot (jobs role) accepts.

describe('Telegram in Settings', () => {
  let t: TestApp;
  let bare: TestApp;
  let api: TelegramStandIn;
  beforeAll(async () => {
    api = await startTelegramStandIn();
    t = await createTestApp({ TELEGRAM_BOT_TOKEN: api.token, TELEGRAM_API_ROOT: api.apiRoot });
    bare = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
    await bare?.close();
    await api?.close();
  });

  const status = async (app: TestApp, user: TestUser) => {
    const res = await get(app.app, '/v1/user/telegram', { cookie: user.cookie });
    expect(res.statusCode, res.body).toBe(200);
    return telegramStatusResponse.parse(res.json());
  };

  it('is not offered when the pool has no bot', async () => {
    const user = await registerUser(bare.app);
    expect(await status(bare, user)).toEqual({
      available: false,
      bot_username: null,
      linked: false,
      telegram_username: null,
      linked_at: null,
    });
    const res = await post(bare.app, '/v1/user/telegram/link', {}, { cookie: user.cookie });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'Telegram is not set up on this pool.', code: 'TELEGRAM_NOT_CONFIGURED' });
  });

  it('needs a session', async () => {
    expect((await get(t.app, '/v1/user/telegram')).statusCode).toBe(401);
    expect((await post(t.app, '/v1/user/telegram/link', {})).statusCode).toBe(401);
    expect((await post(t.app, '/v1/user/telegram/unlink', {})).statusCode).toBe(401);
  });

  it('links through the bot with the code from Settings, shows the chat, and unlinks', async () => {
    const user = await registerUser(t.app);
    // Before the jobs role has reached the bot, there is no @username to link to.
    const early = await post(t.app, '/v1/user/telegram/link', {}, { cookie: user.cookie });
    expect(early.json().code).toBe('TELEGRAM_BOT_NOT_READY');

    const bot = createTelegramBot({
      token: api.token,
      apiRoot: api.apiRoot,
      db: t.database.db,
      poolName: 'Lodestone',
      publicUrl: 'https://pool.example.org',
      mining: { windowMinutes: 10, feePercent: 1, hashesPerDifficulty: powHashesPerDifficulty },
      log: { info() {}, warn() {}, error() {} },
    });
    await bot.pollOnce(new Date()); // getMe, as the jobs role does at start
    expect((await status(t, user)).bot_username).toBe(TEST_BOT_USERNAME);

    const res = await post(t.app, '/v1/user/telegram/link', {}, { cookie: user.cookie });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toContain('no-store');
    const link = telegramLinkResponse.parse(res.json());
    expect(link.url).toBe(`https://t.me/${TEST_BOT_USERNAME}?start=${link.code}`);
    expect(link.code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(link.expires_at) - Date.now()).toBeGreaterThan(14 * 60_000);

    api.userSays({ id: 5151, username: 'miner_tg' }, `/start ${link.code}`);
    await bot.pollOnce(new Date());
    const linked = await status(t, user);
    expect(linked).toMatchObject({ available: true, linked: true, telegram_username: 'miner_tg' });
    expect(linked.linked_at).not.toBeNull();

    const unlink = await post(t.app, '/v1/user/telegram/unlink', {}, { cookie: user.cookie });
    expect(unlink.statusCode).toBe(200);
    expect((await status(t, user)).linked).toBe(false);
    // The old code is spent: linking again needs a new one.
    api.userSays({ id: 5151, username: 'miner_tg' }, `/start ${link.code}`);
    await bot.pollOnce(new Date());
    expect((await status(t, user)).linked).toBe(false);
    expect(api.sent.at(-1)?.text).toContain('This link is not valid any more');
  });

  it('saveTelegramBotState keeps the offset and the username apart', async () => {
    await saveTelegramBotState(t.database.db, { updateOffset: 7n }, new Date());
    const user = await registerUser(t.app);
    expect((await status(t, user)).bot_username).toBe(TEST_BOT_USERNAME);
  });
});
