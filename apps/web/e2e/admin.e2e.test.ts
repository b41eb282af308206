import { accountOfUser, appendUserLog, balancesOfAccount, reconcileLedger, userLogOfUser } from '@lodestone/db';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, SESSION_COOKIE, Sessions } from './harness';
import { type Site, startSite } from './harness.js';

/**
 * The three admin screens in Chromium against the real server and database: users are registered
 * by the registration service, the admin role and 2FA are set on the users row (what the operator
 * command and Settings do), sessions come from the session service (marked as having passed 2FA
 * for users with 2FA, as a login with the code is). Everything the screens show is
 * read back through the real admin API; what they change is checked in the database.
 */

interface Seeded {
  userId: bigint;
  accountId: bigint;
  username: string;
  email: string;
}

const MINERS = 25;
const LOGGED = 'loggedminer';

async function seedUser(site: Site, username: string, email: string): Promise<Seeded> {
  const db = site.database.db;
  const user = await registerUser(
    { db, sessions: new Sessions(db, 3600_000), now: () => new Date() },
    { username, email, password: 'correct horse battery', referral: '', referralSource: null, ip: '127.0.0.1' },
  );
  const account = await accountOfUser(db, user.id, username);
  if (!account) throw new Error(`no account ${username}`);
  return { userId: user.id, accountId: account.id, username, email };
}

/**
 * The browser context logged in as this user: a fresh session cookie and the nav's flag. A user
 * with 2FA gets a session marked as a login that checked a code, as logging in with it gives (the
 * admin tools ask for one).
 */
async function logIn(site: Site, context: BrowserContext, userId: bigint): Promise<void> {
  const { totp_secret } = await site.database.db
    .selectFrom('users')
    .select('totp_secret')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const session = await new Sessions(site.database.db, 3600_000).create(userId, {
    twoFactorVerified: totp_secret !== null,
  });
  await context.addCookies([{ name: SESSION_COOKIE, value: session, url: site.baseUrl, httpOnly: true }]);
  await context.addInitScript(() => window.localStorage.setItem('isLoggedIn', 'true'));
}

/** Counts the admin API calls a page makes (a non-admin's visit must make none). */
function adminCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/v1/admin/')) calls.push(request.url());
  });
  return calls;
}

describe('admin screens', () => {
  let site: Site;
  let admin: Seeded;
  let plainAdmin: Seeded;
  let miner: Seeded;
  let logged: Seeded;

  beforeAll(async () => {
    site = await startSite();
    const db = site.database.db;
    admin = await seedUser(site, 'boss', 'boss@example.org');
    await db
      .updateTable('users')
      .set({ is_admin: true, totp_secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' })
      .where('id', '=', admin.userId)
      .execute();
    plainAdmin = await seedUser(site, 'no2fa-boss', 'no2fa@example.org');
    await db.updateTable('users').set({ is_admin: true }).where('id', '=', plainAdmin.userId).execute();
    for (let i = 1; i <= MINERS; i++) {
      const n = String(i).padStart(2, '0');
      const seeded = await seedUser(site, `Miner${n}`, `miner${n}@example.org`);
      if (i === 1) miner = seeded;
    }
    logged = await seedUser(site, LOGGED, 'logged@example.org');
    // 45 entries one minute apart after the two registration wrote: 47 in all, three pages of 20.
    const start = Date.now() + 60_000;
    for (let i = 1; i <= 45; i++) {
      await appendUserLog(db, {
        userId: logged.userId,
        accountId: i % 3 === 0 ? logged.accountId : null,
        name: 'e2e_event',
        value: i === 45 ? {} : { n: i },
        time: new Date(start + i * 60_000),
      });
    }
  });
  afterAll(() => site?.close());

  it('sends visitors to /login and other users home, without calling the admin API', async () => {
    for (const path of ['/admin/users', '/admin/logs', '/admin/balance']) {
      const visitor = await site.newPage();
      const visitorCalls = adminCalls(visitor.page);
      await visitor.page.goto(path);
      await visitor.page.waitForURL('**/login');
      expect(visitorCalls).toEqual([]);
      expect(visitor.errors).toEqual([]);
      await visitor.context.close();

      const user = await site.newPage();
      await logIn(site, user.context, miner.userId);
      const userCalls = adminCalls(user.page);
      await user.page.goto(path);
      await user.page.waitForURL(`${site.baseUrl}/`);
      expect(userCalls).toEqual([]);
      expect(user.errors).toEqual([]);
      await user.context.close();
    }
  });

  it('Users: search by comma-separated terms, page by 10, log in as a user; logout leaves the admin logged out', async () => {
    const { page, context, errors } = await site.newPage();
    await logIn(site, context, admin.userId);
    await page.goto('/admin/users');
    await page.getByRole('heading', { name: 'List of Users' }).waitFor();
    const rows = page.getByTestId('user-row');
    const status = page.getByTestId('users-pager-status');
    const prev = page.getByTestId('users-pager').getByRole('button', { name: 'Prev' });
    const next = page.getByTestId('users-pager').getByRole('button', { name: 'Next' });

    // 28 users: three pages of 10, newest first.
    await expect.poll(() => rows.count()).toBe(10);
    expect(await status.innerText()).toBe('Page 1 of 3');
    expect(await prev.isDisabled()).toBe(true);
    expect(await next.isDisabled()).toBe(false);
    expect(await rows.first().innerText()).toContain('logged@example.org');
    await next.click();
    await next.click();
    expect(await status.innerText()).toBe('Page 3 of 3');
    expect(await next.isDisabled()).toBe(true);
    expect(await rows.count()).toBe(8);

    // Several terms, spaces and letter case; a username matches as well as an e-mail.
    const search = page.getByPlaceholder('Search by email or username (comma separated)');
    await search.fill(' MINER01@example.org ,  , miner02 ,no2fa-BOSS');
    await expect.poll(() => rows.count()).toBe(3);
    expect(await status.innerText()).toBe('Page 1 of 1');
    expect(await prev.isDisabled()).toBe(true);
    expect(await next.isDisabled()).toBe(true);
    const texts = await rows.allInnerTexts();
    expect(texts.map((t) => t.split('\n')[0]?.trim())).toEqual([
      'miner02@example.org',
      'miner01@example.org',
      'no2fa@example.org',
    ]);
    // 2FA is a read-only checkbox; last login says Never for users who never logged in themselves.
    const adminRow = page.getByTestId('user-row').filter({ hasText: 'no2fa@example.org' });
    const checkbox = adminRow.getByRole('checkbox');
    expect(await checkbox.isChecked()).toBe(false);
    expect(await checkbox.isDisabled()).toBe(true);
    expect(await adminRow.innerText()).toContain('Never');
    await search.fill('boss');
    await expect.poll(() => rows.count()).toBe(2);
    expect(
      await page.getByTestId('user-row').filter({ hasText: 'boss@example.org' }).getByRole('checkbox').isChecked(),
    ).toBe(true);
    await search.fill('');
    await expect.poll(() => rows.count()).toBe(10);

    // Log in as miner01: the browser now holds miner01's session and shows their dashboard.
    await search.fill('miner01@');
    await expect.poll(() => rows.count()).toBe(1);
    await rows.first().getByRole('button', { name: 'Login' }).click();
    await page.waitForURL('**/dashboard');
    const info = await page.evaluate(async () => (await fetch('/v1/user/info')).json());
    expect(info).toMatchObject({ email: 'miner01@example.org', impersonated: true, is_admin: false });
    expect(await page.evaluate(() => localStorage.getItem('isLoggedIn'))).toBe('true');
    expect((await userLogOfUser(site.database.db, admin.userId, 1))[0]?.log_name).toBe('admin_login_as');
    expect((await userLogOfUser(site.database.db, miner.userId, 1))[0]?.log_name).toBe('admin_logged_in_as_user');

    // The admin sees so on every page, until logging out ends it.
    const banner = page.getByRole('status').filter({ hasText: 'You are logged in as' });
    await banner.waitFor();
    expect(await banner.innerText()).toContain(
      'You are logged in as miner01@example.org as an admin. Log out to end it.',
    );
    await page.goto('/settings');
    await banner.waitFor();
    await page.goto('/stats');
    await banner.waitFor();

    // Logging out ends the impersonation; nothing of the admin's session is left.
    await page.getByTestId('site-nav').getByTestId('logout').click();
    await page.waitForURL(`${site.baseUrl}/`);
    await banner.waitFor({ state: 'detached' });
    await page.goto('/admin/users');
    await page.waitForURL('**/login');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('logged in as a user on a 375 px phone, the banner stays in sight and its Log out ends the session', async () => {
    const { page, context, errors } = await site.newPage({ width: 375, height: 700 });
    await logIn(site, context, admin.userId);
    await page.goto('/admin/users');
    await page.getByPlaceholder('Search by email or username (comma separated)').fill('miner02@');
    const rows = page.getByTestId('user-row');
    await expect.poll(() => rows.count()).toBe(1);
    await rows.first().getByRole('button', { name: 'Login' }).click();
    await page.waitForURL('**/dashboard');
    const banner = page.getByTestId('impersonation-banner');
    await banner.waitFor();
    expect(await banner.getAttribute('role')).toBe('status');
    expect(await banner.innerText()).toContain('You are logged in as miner02@example.org as an admin.');
    // Nothing wider than the phone, and still in sight at the bottom of a long page (the header is sticky).
    await page.goto('/faq');
    await banner.waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    const box = await banner.boundingBox();
    expect(box?.y).toBe(0);
    expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= 375).toBe(true);
    const logout = banner.getByRole('button', { name: 'Log out' });
    expect(await logout.isVisible()).toBe(true);
    await logout.click();
    await page.waitForURL(`${site.baseUrl}/`);
    await banner.waitFor({ state: 'detached' });
    expect(await page.evaluate(async () => (await fetch('/v1/user/info')).json())).toEqual({ result: false });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('Users: on small screens each user is a card (e-mail, username, Login), without 2FA and Last Login', async () => {
    const { page, context, errors } = await site.newPage({ width: 420, height: 800 });
    await logIn(site, context, admin.userId);
    await page.goto('/admin/users');
    const row = page.getByTestId('user-row').first();
    await row.waitFor();
    expect(await row.getByTestId('user-email').isVisible()).toBe(true);
    expect(await row.getByText('logged@example.org').isVisible()).toBe(true);
    expect(await row.getByText(LOGGED, { exact: true }).isVisible()).toBe(true);
    expect(await row.getByRole('button', { name: 'Login' }).isVisible()).toBe(true);
    expect(await row.getByRole('checkbox').isVisible()).toBe(false);
    expect(await row.getByText('Never').isVisible()).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('an admin without 2FA is told why the tools refuse', async () => {
    const { page, context } = await site.newPage();
    await logIn(site, context, plainAdmin.userId);
    await page.goto('/admin/users');
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').innerText()).toContain('Admin tools need two-factor authentication');
    await context.close();

    // An admin with 2FA whose session's login checked no code is told to log in again with it.
    const unverified = await site.newPage();
    const session = await new Sessions(site.database.db, 3600_000).create(admin.userId);
    await unverified.context.addCookies([{ name: SESSION_COOKIE, value: session, url: site.baseUrl, httpOnly: true }]);
    await unverified.context.addInitScript(() => window.localStorage.setItem('isLoggedIn', 'true'));
    await unverified.page.goto('/admin/users');
    await unverified.page.getByRole('alert').waitFor();
    expect(await unverified.page.getByRole('alert').innerText()).toContain(
      'Log out and log in again with your 2FA code',
    );
    await unverified.context.close();
  });

  it('Logs: search by e-mail with Enter, page by 20, by account, clear filters', async () => {
    const { page, context, errors } = await site.newPage();
    await logIn(site, context, admin.userId);
    await page.goto('/admin/logs');
    await page.getByRole('heading', { name: 'User logs' }).waitFor();
    const results = page.getByTestId('logs-results');
    expect(await results.innerText()).toBe('Introduce a filter and press Search.');
    const email = page.getByLabel('Email');
    const account = page.getByLabel('Account');

    // Nothing typed (spaces only): nothing is sent.
    const calls = adminCalls(page);
    await email.fill('   ');
    await email.press('Enter');
    expect(await results.innerText()).toBe('Introduce a filter and press Search.');
    expect(calls).toEqual([]);

    // Slow the answer down to see the loading state.
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(
      '**/v1/admin/logs/**',
      async (route) => {
        await gate;
        await route.continue();
      },
      { times: 1 },
    );
    await email.fill('  logged@example.org ');
    await email.press('Enter');
    await page.getByRole('button', { name: 'Searching…' }).waitFor();
    expect(await results.innerText()).toBe('Loading…');
    release();

    const showing = page.getByTestId('logs-showing');
    await showing.waitFor();
    expect(await showing.innerText()).toBe('Showing 1–20 of 47');
    const status = page.getByTestId('logs-pager-status');
    const prev = page.getByRole('button', { name: '← Previous' });
    const next = page.getByRole('button', { name: 'Next →' });
    expect(await status.innerText()).toBe('Page 1 of 3');
    expect(await prev.isDisabled()).toBe(true);
    const entries = page.getByTestId('log-entry');
    expect(await entries.count()).toBe(20);
    // Newest first: entry 45 has an empty value (a dash), 44 shows its value as JSON.
    expect(await entries.nth(0).getByTestId('log-name').innerText()).toBe('e2e_event');
    expect(await entries.nth(0).getByTestId('log-value').innerText()).toBe('—');
    expect(JSON.parse(await entries.nth(1).getByTestId('log-value').innerText())).toEqual({ n: 44 });
    expect(await entries.nth(0).locator('time').innerText()).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);

    await next.click();
    await expect.poll(() => showing.innerText()).toBe('Showing 21–40 of 47');
    await next.click();
    await expect.poll(() => showing.innerText()).toBe('Showing 41–47 of 47');
    expect(await status.innerText()).toBe('Page 3 of 3');
    expect(await next.isDisabled()).toBe(true);
    expect(await entries.count()).toBe(7);
    expect(await entries.last().getByTestId('log-name').innerText()).toBe('registered');
    await prev.click();
    await expect.poll(() => status.innerText()).toBe('Page 2 of 3');

    // A new search starts at page 1: by account, Enter in the Account field.
    await email.fill('');
    await account.fill(` ${LOGGED.toUpperCase()} `);
    await account.press('Enter');
    // Every third entry (15) plus the two of registration.
    await expect.poll(() => showing.innerText()).toBe('Showing 1–17 of 17');
    expect(await status.innerText()).toBe('Page 1 of 1');
    expect(await next.isDisabled()).toBe(true);

    // Clear Filters empties both fields and the results.
    await email.fill('logged@example.org');
    await page.getByRole('button', { name: 'Clear Filters' }).click();
    expect(await email.inputValue()).toBe('');
    expect(await account.inputValue()).toBe('');
    expect(await results.innerText()).toBe('Introduce a filter and press Search.');

    // A search that finds nothing says so.
    await email.fill('nobody@example.org');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => results.innerText()).toBe('No log entries found.');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('Logs: a failed search shows its fixed message', async () => {
    const { page, context } = await site.newPage();
    await logIn(site, context, admin.userId);
    await page.route('**/v1/admin/logs/**', (route) => route.fulfill({ status: 400, json: { error: 'x', code: 'X' } }));
    await page.goto('/admin/logs');
    await page.getByLabel('Email').fill('logged@example.org');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').innerText()).toBe('No se pudieron cargar los logs. Inténtalo de nuevo.');
    await context.close();
  });

  it('Balance: credit an account, reactivate, and see a refused debit explained', async () => {
    const { page, context, errors } = await site.newPage();
    await logIn(site, context, admin.userId);
    await page.goto('/admin/balance');
    await page.getByRole('heading', { name: 'Balance Admin' }).waitFor();
    const form = page.getByTestId('balance-form');
    const send = form.getByRole('button', { name: 'Send' });
    const coin = form.getByLabel('Coin');
    const value = form.getByPlaceholder('Value (8 decimals)');
    // The coin list loads from /coins; 'Select coin' first.
    await expect.poll(() => coin.locator('option').count()).toBeGreaterThan(10);
    expect(await coin.locator('option').first().innerText()).toBe('Select coin');
    expect(await value.getAttribute('step')).toBe('0.00000001');
    expect(await form.getByTestId('balance-algorithm').innerText()).toContain('SCRYPT');

    // Send is enabled only when all four are filled.
    expect(await send.isDisabled()).toBe(true);
    await form.getByLabel('Username').fill(miner.username);
    expect(await send.isDisabled()).toBe(true);
    await coin.selectOption('LTC');
    expect(await send.isDisabled()).toBe(true);
    // More decimals than the ledger keeps: blocked here with the bound named, nothing sent.
    let sent = 0;
    page.on('request', (r) => {
      if (r.url().includes('/v1/admin/balance')) sent++;
    });
    await value.fill('0.123456789');
    await send.click();
    await expect.poll(() => form.getByTestId('form-error').innerText()).toBe('Value has at most 8 decimals');
    expect(sent).toBe(0);
    await value.fill('0.5');
    expect(await send.isDisabled()).toBe(false);
    await form.getByTestId('balance-algorithm').click();
    await form.getByTestId('algorithm-option-SHA256').click();
    await form.getByLabel('Reason (optional)').fill('Refund for the pool outage');

    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(
      '**/v1/admin/balance',
      async (route) => {
        await gate;
        await route.continue();
      },
      { times: 1 },
    );
    await send.click();
    await form.getByRole('button', { name: 'Sending…' }).waitFor();
    release();
    await form.getByTestId('form-success').waitFor();
    expect(await form.getByTestId('form-success').innerText()).toBe('Balance submitted successfully.');
    // Locked until Reactivate, so one click cannot credit twice.
    expect(await send.isDisabled()).toBe(true);
    expect(await value.isDisabled()).toBe(true);

    const balances = await balancesOfAccount(site.database.db, miner.accountId);
    expect(balances).toEqual([{ coin: 'LTC', amount: 50_000_000n }]);
    const leg = await site.database.db
      .selectFrom('ledger_entries')
      .select(['algorithm', 'kind'])
      .where('amount', '=', '50000000')
      .executeTakeFirstOrThrow();
    expect(leg).toEqual({ algorithm: 'sha256', kind: 'admin_adjustment' });
    const tx = await site.database.db
      .selectFrom('ledger_transactions')
      .select(['reason', 'created_by_user_id'])
      .where('kind', '=', 'admin_adjustment')
      .executeTakeFirstOrThrow();
    expect(tx).toEqual({ reason: 'Refund for the pool outage', created_by_user_id: admin.userId });
    // The site-wide algorithm choice is untouched by the form's selector.
    expect(await page.evaluate(() => localStorage.getItem('selectedAlgorithm'))).not.toBe('SHA256');

    await form.getByRole('button', { name: 'Reactivate' }).click();
    expect(await form.getByTestId('form-success').count()).toBe(0);
    expect(await send.isDisabled()).toBe(false);

    expect(errors).toEqual([]);

    // A debit below zero: the server's own text (the browser notes the 400 in its console; no script error).
    await value.fill('-0.6');
    await send.click();
    await form.getByTestId('form-error').waitFor();
    expect(await form.getByTestId('form-error').innerText()).toBe(
      'Refused: Miner01 has 0.5 LTC, so this debit would take the balance below zero.',
    );
    expect(await send.isDisabled()).toBe(false);
    expect(await reconcileLedger(site.database.db)).toEqual([]);
    expect(errors).toEqual(['Failed to load resource: the server responded with a status of 400 (Bad Request)']);
    await context.close();
  });

  it("Balance: says 'Error loading coins' when the coin list fails", async () => {
    const { page, context } = await site.newPage();
    await logIn(site, context, admin.userId);
    await page.route('**/v1/coins', (route) =>
      route.fulfill({ status: 404, json: { error: 'gone', code: 'NOT_FOUND' } }),
    );
    await page.goto('/admin/balance');
    await page.getByText('Error loading coins').waitFor();
    await context.close();
  });
});
