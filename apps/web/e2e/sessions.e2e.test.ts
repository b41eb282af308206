import { userLogOfUser } from '@lodestone/db';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedUser } from './dashboardSeed.js';
import { SESSION_COOKIE, Sessions, type Site, startSite } from './harness.js';
import { logInWithForm } from './loginForm.js';

/**
 * Settings, "Sessions" (docs/accounts.md) in Chromium against the real server: one user logs in from two browsers that
 * say they are different ones, each sees both sessions with the device the server read from its User-Agent and its own
 * marked; the first logs the second out (whose next page is logged out), then logs out everywhere (this browser too).
 * On a laptop's screen and on a phone's, where the list is a card per session.
 */
const CHROME_ON_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const FIREFOX_ON_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

const flag = (page: Page) => page.evaluate(() => localStorage.getItem('isLoggedIn'));
const sessionRow = (page: Page, device: string) => page.getByTestId('session-row').filter({ hasText: device });

describe.each([
  { width: 1366, name: 'laptop', card: false },
  { width: 375, name: 'phone', card: true },
])('Settings: sessions on a $name ($width px)', ({ width, name, card }) => {
  let site: Site;
  beforeAll(async () => {
    site = await startSite({ CAPTCHA_MAX_NUMBER: '1000' });
  });
  afterAll(() => site?.close());

  /** A browser of its own (cookies, local storage) that sends `userAgent`; uncaught page errors are collected. */
  async function browser(userAgent: string) {
    const context = await site.browser.newContext({
      baseURL: site.baseUrl,
      viewport: { width, height: 800 },
      userAgent,
      serviceWorkers: 'block',
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    return { context, page, errors };
  }

  it('lists both browsers, logs the other one out, then logs out everywhere', async () => {
    // The seeded session: a third one, with no User-Agent or address known.
    const miner = await seedUser(site, `sessions${name}`, `sessions.${name}@example.org`);
    const a = await browser(CHROME_ON_WINDOWS);
    const b = await browser(FIREFOX_ON_LINUX);
    await logInWithForm(a.page, `sessions.${name}@example.org`);
    await logInWithForm(b.page, `sessions.${name}@example.org`);

    await a.page.goto('/settings');
    await expect.poll(() => a.page.getByTestId('session-row').count()).toBe(3);
    const own = sessionRow(a.page, 'Chrome 120 on Windows 10');
    const other = sessionRow(a.page, 'Firefox 128 on Linux');
    const seeded = sessionRow(a.page, 'Unknown device');
    expect(await own.getByTestId('session-current').innerText()).toBe('This device');
    expect(await other.getByTestId('session-current').count()).toBe(0);
    expect(await a.page.getByTestId('session-current').count()).toBe(1);
    expect(await a.page.getByTestId('session-admin').count()).toBe(0);
    // The server saw 127.0.0.1: the list shows its network only.
    expect(await own.getByTestId('session-network').innerText()).toBe('127.0.0.0/24');
    expect(await seeded.getByTestId('session-network').innerText()).toBe('Unknown network');
    expect(await own.getByTestId('session-created').innerText()).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
    expect(await own.getByTestId('session-last-active').innerText()).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
    // This browser's session has no Log out of its own (the nav's Log out ends it); the others have.
    expect(await own.getByTestId('session-logout').count()).toBe(0);
    expect(await other.getByTestId('session-logout').isVisible()).toBe(true);
    // A table row on the laptop, a card on the phone; nothing wider than the screen.
    expect(await own.evaluate((row) => getComputedStyle(row).display)).toBe(card ? 'block' : 'table-row');
    expect(await a.page.locator('[data-testid="sessions-table"] thead th').first().isVisible()).toBe(!card);
    expect(await a.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

    // The other browser sees the same sessions, with its own marked.
    await b.page.goto('/settings');
    await expect.poll(() => sessionRow(b.page, 'Firefox 128 on Linux').getByTestId('session-current').count()).toBe(1);
    expect(await sessionRow(b.page, 'Chrome 120 on Windows 10').getByTestId('session-current').count()).toBe(0);

    // A logs B out, after saying so once more; Cancel first changes nothing.
    await other.getByTestId('session-logout').click();
    const confirm = a.page.getByTestId('session-logout-modal');
    expect(await confirm.innerText()).toContain('Log out Firefox 128 on Linux?');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await a.page.getByTestId('session-row').count()).toBe(3);
    await other.getByTestId('session-logout').click();
    await confirm.getByTestId('confirm').click();
    await confirm.waitFor({ state: 'detached' });
    await expect.poll(() => a.page.getByTestId('session-row').count()).toBe(2);
    expect(await other.count()).toBe(0);

    // B's next page load finds its session over: the login page, logged out.
    await b.page.goto('/settings');
    await b.page.waitForURL('**/login');
    expect(await flag(b.page)).toBe('false');

    // Logging out a session that has ended already (from a list read before it ended) is no error: the list is read
    // again. The seeded session ends behind the page's back, as if logged out from another browser.
    await new Sessions(site.database.db, 3600_000).revoke(miner.session);
    await seeded.getByTestId('session-logout').click();
    await confirm.getByTestId('confirm').click();
    await confirm.waitFor({ state: 'detached' });
    await expect.poll(() => a.page.getByTestId('session-row').count()).toBe(1);
    expect(await a.page.getByTestId('form-error').count()).toBe(0);

    // Log out everywhere: asked once more, then this browser is logged out too and lands on the login page.
    await a.page.getByTestId('logout-everywhere').click();
    const everywhere = a.page.getByTestId('logout-everywhere-modal');
    expect(await everywhere.innerText()).toContain('this one too');
    await everywhere.getByTestId('confirm').click();
    await a.page.waitForURL('**/login');
    expect(await flag(a.page)).toBe('false');
    expect((await a.context.cookies()).find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
    await a.page.goto('/settings');
    await a.page.waitForURL('**/login');

    // Each ending is in the user log.
    const log = (await userLogOfUser(site.database.db, miner.userId)).map((e) => e.log_name);
    expect(log.filter((n) => n === 'session_ended')).toHaveLength(1);
    expect(log.filter((n) => n === 'logout_everywhere')).toHaveLength(1);

    expect(a.errors).toEqual([]);
    expect(b.errors).toEqual([]);
    await a.context.close();
    await b.context.close();
  });
});
