import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logIn, seedUser } from './dashboardSeed.js';
import { type Site, standInBot, startSite, startTelegramStandIn, TEST_BOT_USERNAME } from './harness.js';

/**
 * Linking Telegram from Settings in Chromium (docs/notifications.md, "Telegram"): the page's link
 * carries a code the bot accepts from the chat, the page shows the chat once linked without a reload,
 * and Unlink undoes it. The bot runs as the jobs role runs it, against the Bot API stand-in.
 */
describe('Telegram in Settings', () => {
  let site: Site;
  let api: Awaited<ReturnType<typeof startTelegramStandIn>>;
  let bot: ReturnType<typeof standInBot>;

  beforeAll(async () => {
    api = await startTelegramStandIn();
    // The site (API role) gets no token: the jobs role's bot is what makes Telegram offered.
    site = await startSite();
    bot = standInBot(api, site.database.db, { publicUrl: site.baseUrl });
    await bot.pollOnce(new Date()); // getMe: the bot's @username
  });
  afterAll(async () => {
    await site?.close();
    await api?.close();
  });

  it('links the chat with the code from the page, shows it, and unlinks it', async () => {
    const miner = await seedUser(site, 'tgminer', 'tgminer@example.com');
    const { page, context, errors } = await site.newPage();
    await logIn(context, site, miner);
    await page.goto('/settings');
    const panel = page.getByTestId('telegram-panel');
    await expect.poll(() => panel.innerText()).toContain('No chat is linked.');
    // "Telegram only" is offered once a chat is linked.
    expect(await page.getByTestId('toggle-alerts-telegram-only').count()).toBe(0);

    await page.getByTestId('telegram-link').click();
    const open = page.getByRole('link', { name: 'Open Telegram' });
    await open.waitFor();
    const href = (await open.getAttribute('href')) ?? '';
    const code = new URL(href).searchParams.get('start') ?? '';
    expect(href).toBe(`https://t.me/${TEST_BOT_USERNAME}?start=${code}`);
    expect(await panel.innerText()).toContain(`/start ${code}`);

    // The miner presses Start in Telegram; the jobs role reads it.
    api.userSays({ id: 8080, username: 'tg_miner' }, `/start ${code}`);
    await bot.pollOnce(new Date());
    expect(api.sent.at(-1)?.text).toContain('Linked to your Lodestone login (accounts: tgminer).');
    // The page polls while a code is out: no reload needed.
    await page.getByTestId('telegram-linked').waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('telegram-linked').innerText()).toMatch(/^Linked to @tg_miner since /);
    // Linking turned Telegram notifications on; the switches show it, and saving others keeps it.
    const toggle = page.getByTestId('toggle-telegram');
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');
    await page.getByTestId('toggle-monthly-reports').click();
    const telegramOnly = page.getByTestId('toggle-alerts-telegram-only');
    expect(await telegramOnly.getAttribute('aria-checked')).toBe('false');
    await telegramOnly.click();
    await page.getByTestId('save-preferences').click();
    await expect.poll(() => page.getByTestId('form-success').innerText()).toBe('Saved successfully');
    const saved = await site.database.db
      .selectFrom('users')
      .select(['telegram_notifications', 'send_monthly_reports', 'offline_worker_telegram_only'])
      .where('id', '=', miner.userId)
      .executeTakeFirstOrThrow();
    expect(saved).toEqual({
      telegram_notifications: true,
      send_monthly_reports: true,
      offline_worker_telegram_only: true,
    });

    await page.getByTestId('telegram-unlink').click();
    await expect.poll(() => panel.innerText()).toContain('No chat is linked.');
    await expect.poll(() => telegramOnly.count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
