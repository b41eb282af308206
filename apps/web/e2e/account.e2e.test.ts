import { createHmac } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { insertCoupon } from '@lodestone/db';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Site, startSite } from './harness.js';
import { logInWithForm, PASSWORD, solveRobotCheck } from './loginForm.js';

/**
 * The account screens against the real server: register, log out, log in, settings, the logged-in flag
 * (docs/website.md, Session) and the form messages (docs/website.md, Forms and messages), with the real ALTCHA robot
 * check solved by the browser (made cheap with CAPTCHA_MAX_NUMBER).
 */
const flag = (page: Page) => page.evaluate(() => localStorage.getItem('isLoggedIn'));
const formError = (page: Page) => page.getByTestId('form-error');
const robotState = (page: Page) => page.locator('altcha-widget [data-state]').getAttribute('data-state');

async function fillRegister(
  page: Page,
  values: { username: string; email: string; password?: string; confirm?: string },
): Promise<void> {
  await page.getByLabel('Username').fill(values.username);
  await page.getByLabel('Email').fill(values.email);
  await page.getByLabel('Password', { exact: true }).fill(values.password ?? PASSWORD);
  await page.getByLabel('Confirm Password').fill(values.confirm ?? values.password ?? PASSWORD);
}

async function register(page: Page, username: string, email: string): Promise<void> {
  await page.goto('/register');
  await fillRegister(page, { username, email });
  await page.getByTestId('accept-terms').check();
  await solveRobotCheck(page);
  await page.getByRole('button', { name: 'Register' }).click();
  await page.waitForURL('**/dashboard');
}

async function expectLoggedInNav(page: Page): Promise<void> {
  const nav = page.getByTestId('site-nav');
  await nav.getByTestId('dashboard-link').waitFor();
  expect(await nav.getByTestId('settings-link').isVisible()).toBe(true);
  expect(await nav.getByTestId('logout').isVisible()).toBe(true);
  expect(await nav.getByRole('link', { name: 'Getting Started' }).isVisible()).toBe(true);
  expect(await nav.getByTestId('login-link').count()).toBe(0);
}

async function expectLoggedOutNav(page: Page): Promise<void> {
  const nav = page.getByTestId('site-nav');
  await nav.getByTestId('login-link').waitFor();
  expect(await nav.getByTestId('get-started-link').isVisible()).toBe(true);
  expect(await nav.getByTestId('dashboard-link').count()).toBe(0);
  expect(await nav.getByTestId('logout').count()).toBe(0);
  expect(await nav.getByRole('link', { name: 'Getting Started' }).count()).toBe(0);
}

describe('account screens without a server round trip', () => {
  let site: Site;
  beforeAll(async () => {
    site = await startSite({ CAPTCHA_MAX_NUMBER: '1000' });
  });
  afterAll(() => site?.close());

  it('shows the register validation messages verbatim, in order', async () => {
    const { page, context } = await site.newPage();
    await page.goto('/register');
    await fillRegister(page, { username: 'miner01', email: 'miner@example.org', confirm: 'something else' });
    await page.getByRole('button', { name: 'Register' }).click();
    expect(await formError(page).innerText()).toBe('Passwords do not match');

    await page.getByLabel('Confirm Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Register' }).click();
    await expect.poll(() => formError(page).innerText()).toBe('You must accept the terms and conditions');

    await page.getByTestId('accept-terms').check();
    await page.getByRole('button', { name: 'Register' }).click();
    await expect.poll(() => formError(page).innerText()).toBe('Please verify you are not a robot.');
    expect(page.url()).toContain('/register');
    await context.close();
  });

  it('pre-fills and locks the referral code from the r query parameter', async () => {
    const { page, context } = await site.newPage();
    await page.goto('/register?r=FRIEND42');
    const referral = page.getByLabel('Referral/Discount Code');
    expect(await referral.inputValue()).toBe('FRIEND42');
    expect(await referral.getAttribute('readonly')).not.toBeNull();
    await page.goto('/register');
    expect(await page.getByLabel('Referral/Discount Code').getAttribute('readonly')).toBeNull();
    await context.close();
  });

  it('checks the recovery link and the robot check on the password pages', async () => {
    const { page, context } = await site.newPage();
    await page.goto('/newPassword?email=miner%40example.org');
    await page.getByLabel('New password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm new password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set new password' }).click();
    expect(await formError(page).innerText()).toBe('Invalid recovery key');

    await page.goto('/newPassword?k=abc123');
    expect(await page.getByLabel('Recovery key').inputValue()).toBe('abc123');
    expect(await page.getByLabel('Recovery key').getAttribute('readonly')).not.toBeNull();
    await page.getByLabel('New password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm new password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set new password' }).click();
    expect(await formError(page).innerText()).toBe('Invalid mail');

    await page.goto('/newPassword?k=abc123&email=miner%40example.org');
    await page.getByLabel('New password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm new password').fill(`${PASSWORD}!`);
    await page.getByRole('button', { name: 'Set new password' }).click();
    expect(await formError(page).innerText()).toBe('Passwords do not match');

    await page.goto('/forgotPassword');
    await page.getByLabel('Email').fill('miner@example.org');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    expect(await formError(page).innerText()).toBe('Please verify you are not a robot.');

    await page.goto('/login');
    expect(await page.getByRole('link', { name: 'Forgot password? Click here' }).getAttribute('href')).toBe(
      '/forgotPassword',
    );
    expect(await page.getByTestId('site-nav').count()).toBe(0);
    await context.close();
  });
});

describe('register, log out, log in, settings', () => {
  let site: Site;
  beforeAll(async () => {
    site = await startSite({ CAPTCHA_MAX_NUMBER: '1000' });
  });
  afterAll(() => site?.close());

  const email = 'alice@example.org';

  it('register lands on /dashboard logged in, with the logged-in nav', async () => {
    const { page, context, errors } = await site.newPage();
    await register(page, 'alice01', email);
    expect(await flag(page)).toBe('true');
    await expectLoggedInNav(page);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('home confirms the session; logout goes to / logged out; a call needing a session then goes to /login', async () => {
    const { page, context } = await site.newPage();
    await logInWithForm(page, email);
    expect(await flag(page)).toBe('true');

    // Home checks GET /v1/user/info and keeps the flag.
    await page.goto('/');
    await expectLoggedInNav(page);
    expect(await flag(page)).toBe('true');

    await page.getByTestId('site-nav').getByTestId('logout').click();
    await page.waitForURL((url) => url.pathname === '/');
    await expectLoggedOutNav(page);
    expect(await flag(page)).toBe('false');

    // A stale flag is corrected by the next 401 (docs/website.md, Session): /settings goes to /login.
    await page.evaluate(() => localStorage.setItem('isLoggedIn', 'true'));
    await page.goto('/settings');
    await page.waitForURL('**/login');
    expect(await flag(page)).toBe('false');
    await context.close();
  });

  it("login with a wrong password shows the server's error and resets the robot check", async () => {
    const { page, context } = await site.newPage();
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('not the password');
    await solveRobotCheck(page);
    const answer = page.waitForResponse((r) => r.url().includes('/v1/user/login'));
    await page.getByRole('button', { name: 'Login' }).click();
    const body = (await (await answer).json()) as { error: string };
    expect(body.error.length).toBeGreaterThan(0);
    await expect.poll(() => formError(page).innerText()).toBe(body.error);
    await expect.poll(() => robotState(page)).toBe('unverified');
    expect(page.url()).toContain('/login');
    expect(await flag(page)).not.toBe('true');
    await context.close();
  });

  it('settings toggles persist across a reload', async () => {
    const { page, context } = await site.newPage();
    await logInWithForm(page, email);

    await page.goto('/settings');
    const publicLists = page.getByTestId('toggle-public-lists');
    const monthly = page.getByTestId('toggle-monthly-reports');
    await publicLists.waitFor();
    const before = {
      publicLists: await publicLists.getAttribute('aria-checked'),
      monthly: await monthly.getAttribute('aria-checked'),
    };
    await publicLists.click();
    await monthly.click();
    const update = page.waitForResponse((r) => r.url().includes('/v1/user/config/update'));
    await page.getByTestId('save-preferences').click();
    const sent = (await update).request().postData() ?? '';
    // "Show my username in public lists" is `anonymous` inverted.
    const anonymousSent = /name="anonymous"\r\n\r\n(true|false)/.exec(sent)?.[1];
    expect(anonymousSent).toBe(String(before.publicLists === 'true'));
    await expect.poll(() => page.getByTestId('form-success').innerText()).toBe('Saved successfully');

    await page.reload();
    await page.getByTestId('toggle-public-lists').waitFor();
    expect(await page.getByTestId('toggle-public-lists').getAttribute('aria-checked')).toBe(
      String(before.publicLists !== 'true'),
    );
    expect(await page.getByTestId('toggle-monthly-reports').getAttribute('aria-checked')).toBe(
      String(before.monthly !== 'true'),
    );
    await context.close();
  });

  it('creates a second account and shows its API key and observer link', async () => {
    const { page, context } = await site.newPage();
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await logInWithForm(page, email);

    await page.goto('/settings');
    await page.getByTestId('account-alice01').waitFor();
    // An empty name sends nothing: the page handles clicks in order, so had the first click sent a
    // request it would come before the second's, the only one there is.
    const created: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/v1/user/new_account')) created.push(`${r.url()} ${r.postData() ?? ''}`);
    });
    await page.getByTestId('new-account-name').fill('   ');
    await page.getByRole('button', { name: 'Create account' }).click();

    await page.getByTestId('new-account-name').fill(' alice02 ');
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Create account' }).click()]);
    expect(created).toHaveLength(1);
    expect(created[0]).toContain('alice02');
    const card = page.getByTestId('account-alice02');
    await card.waitFor();
    expect((await card.getByTestId('api-key').inputValue()).length).toBeGreaterThan(16);
    const link = await card.getByTestId('observer-link').inputValue();
    expect(link).toMatch(new RegExp(`^${site.baseUrl.replace(/[.]/g, '\\.')}/dashboard/[^/]+$`));

    await card.getByTestId('copy-observer-link').click();
    await expect.poll(() => card.getByTestId('copy-observer-link').getAttribute('data-copied')).toBe('true');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await expect
      .poll(() => card.getByTestId('copy-observer-link').getAttribute('data-copied'), { timeout: 4000 })
      .toBeNull();
    await context.close();
  });

  it("shows each form's own text on success, and its fallback when the call never reaches the server", async () => {
    // A call cut before it reaches the server has no server text: the form falls back to its own.
    const cut = (page: Page, path: string) =>
      page.route(
        (url) => url.pathname === `/v1${path}`,
        (route) => route.abort(),
      );
    const message = (scope: Page | ReturnType<Page['getByTestId']>, kind: 'error' | 'success') =>
      scope.getByTestId(`form-${kind}`).innerText();

    const visitor = await site.newPage();
    visitor.page.setDefaultTimeout(10_000);
    await visitor.page.goto('/register');
    await fillRegister(visitor.page, { username: 'dave01', email: 'dave@example.org' });
    await visitor.page.getByTestId('accept-terms').check();
    await solveRobotCheck(visitor.page);
    await cut(visitor.page, '/user/register');
    await visitor.page.getByRole('button', { name: 'Register' }).click();
    await expect.poll(() => message(visitor.page, 'error')).toBe('An unexpected error occurred');

    await visitor.page.goto('/forgotPassword');
    await visitor.page.getByLabel('Email').fill(email);
    await solveRobotCheck(visitor.page);
    await cut(visitor.page, '/password/reset');
    await visitor.page.getByRole('button', { name: 'Send reset link' }).click();
    await expect.poll(() => message(visitor.page, 'error')).toBe('Failed to send reset link.');
    await visitor.context.close();

    const { page, context } = await site.newPage();
    page.setDefaultTimeout(10_000);
    await logInWithForm(page, email);

    // Coupon: a real coupon is applied; the next call is cut.
    await insertCoupon(site.database.db, { code: 'E2E-HALF', discount: '0.5' });
    await page.goto('/coupon?account=alice01');
    const coupon = page.getByTestId('coupon-form');
    await coupon.getByLabel('Coupon code').fill('E2E-HALF');
    await coupon.getByRole('button', { name: 'Apply coupon' }).click();
    await expect.poll(() => message(coupon, 'success')).toBe('Discount applied');
    await cut(page, '/user/coupon');
    await coupon.getByLabel('Coupon code').fill('E2E-HALF');
    await coupon.getByRole('button', { name: 'Apply coupon' }).click();
    await expect.poll(() => message(coupon, 'error')).toBe('An error occurred. Please try again.');

    // Redirect settings of alice01: a real save to alice02, then a cut one.
    await page.goto('/settings');
    await page.getByTestId('account-alice01').getByTestId('redirect-settings').click();
    const modal = page.getByRole('dialog');
    await modal.getByLabel('Account name, row 1').fill('alice02');
    await modal.getByLabel('Percentage, row 1').fill('10');
    await modal.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => message(modal, 'success')).toBe('Settings saved successfully');
    // A refusal shows the server's reason, not only that it failed (issue 30).
    await modal.getByLabel('Account name, row 1').fill('alice01');
    await modal.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => message(modal, 'error')).toBe('An account cannot redirect to itself');
    await modal.getByLabel('Account name, row 1').fill('alice02');
    await cut(page, '/user/redirect_config/update');
    await modal.getByLabel('Percentage, row 1').fill('20');
    await modal.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => message(modal, 'error')).toBe('Failed to save settings.');
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'detached' });

    // Preferences: the save is cut.
    await cut(page, '/user/config/update');
    await page.getByTestId('toggle-monthly-reports').click();
    await page.getByTestId('save-preferences').click();
    await expect.poll(() => message(page, 'error')).toBe('An error occurred');
    await context.close();
  });
});

/** RFC 6238 TOTP (SHA-1, 6 digits, 30 s) of a base32 secret at `time`, as an authenticator app computes it. */
function totp(secret: string, time: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const bits = [...secret.replace(/=+$/, '')].map((c) => alphabet.indexOf(c).toString(2).padStart(5, '0')).join('');
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((byte) => Number.parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(time / 30_000)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

describe('two-factor authentication', () => {
  let site: Site;
  beforeAll(async () => {
    site = await startSite({ CAPTCHA_MAX_NUMBER: '1000' });
  });
  afterAll(() => site?.close());

  it('enables 2FA with the QR code and secret, then login needs a code', async () => {
    const { page, context } = await site.newPage();
    await register(page, 'bob01', 'bob@example.org');
    await page.goto('/settings');
    await page.getByTestId('enable-2fa').click();
    const modal = page.getByTestId('enable-2fa-modal');
    const secret = await modal.getByTestId('2fa-secret').innerText();
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    const qr = modal.getByRole('img', { name: 'QR code of your two-factor secret' });
    await expect.poll(() => qr.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);

    // The session alone cannot switch 2FA on: the password is asked for, and the server's text shown.
    await modal.getByTestId('2fa-code').fill(totp(secret, Date.now()));
    await modal.getByRole('button', { name: 'Enable 2FA' }).click();
    await expect
      .poll(() => modal.getByTestId('form-error').innerText())
      .toBe('Enter your password to confirm this change');
    await modal.getByTestId('2fa-password').fill(PASSWORD);

    const current = [-30_000, 0, 30_000].map((drift) => totp(secret, Date.now() + drift));
    const wrong = ['000000', '111111', '222222', '333333'].find((code) => !current.includes(code)) ?? '';
    await modal.getByTestId('2fa-code').fill(wrong);
    await modal.getByRole('button', { name: 'Enable 2FA' }).click();
    await expect.poll(() => modal.getByTestId('form-error').innerText()).toBe('Invalid 2FA code');

    await modal.getByTestId('2fa-code').fill(totp(secret, Date.now()));
    await Promise.all([page.waitForEvent('load'), modal.getByRole('button', { name: 'Enable 2FA' }).click()]);
    await expect.poll(() => page.getByTestId('2fa-status').innerText()).toBe('Enabled');

    await page.getByTestId('site-nav').getByTestId('logout').click();
    await page.waitForURL((url) => url.pathname === '/');

    await page.goto('/login');
    await page.getByLabel('Email').fill('bob@example.org');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await solveRobotCheck(page);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect.poll(() => formError(page).innerText()).not.toBe('');
    expect(page.url()).toContain('/login');

    // The code of the next 30-second step: the one used to enable 2FA may not be used again.
    await page.getByLabel('2FA code (optional)').fill(totp(secret, Date.now() + 30_000));
    await solveRobotCheck(page);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL('**/dashboard');
    expect(await flag(page)).toBe('true');
    await context.close();
  });

  it('turning 2FA off needs the password and a current code', async () => {
    const { page, context } = await site.newPage();
    await register(page, 'carol01', 'carol@example.org');
    // 2FA switched on as Settings does it (tested above), without spending a code of this step.
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    await site.database.db
      .updateTable('users')
      .set({ totp_secret: secret })
      .where('email', '=', 'carol@example.org')
      .execute();
    await page.goto('/settings');
    await expect.poll(() => page.getByTestId('2fa-status').innerText()).toBe('Enabled');
    await page.getByTestId('disable-2fa').click();
    const modal = page.getByTestId('disable-2fa-modal');
    await modal.getByTestId('2fa-code').fill(totp(secret, Date.now()));
    await modal.getByTestId('2fa-password').fill('not the password');
    await modal.getByRole('button', { name: 'Disable 2FA' }).click();
    await expect.poll(() => modal.getByTestId('form-error').innerText()).toBe('Wrong password');
    await modal.getByTestId('2fa-password').fill(PASSWORD);
    await Promise.all([page.waitForEvent('load'), modal.getByRole('button', { name: 'Disable 2FA' }).click()]);
    await expect.poll(() => page.getByTestId('2fa-status').innerText()).toBe('Disabled');
    await context.close();
  });
});

describe('password recovery', () => {
  let site: Site;
  let dataDir: string;
  beforeAll(async () => {
    // Without SMTP_URL the server writes each e-mail to DATA_DIR/outbox as an .eml file.
    dataDir = await mkdtemp(path.join(tmpdir(), 'lodestone-e2e-'));
    site = await startSite({ CAPTCHA_MAX_NUMBER: '1000', DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await site?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** The /newPassword link of the newest e-mail in the outbox (quoted-printable decoded). */
  async function recoveryLink(): Promise<string> {
    const outbox = path.join(dataDir, 'outbox');
    const files = (await readdir(outbox).catch(() => [])).filter((f) => f.endsWith('.eml')).sort();
    const last = files.at(-1);
    if (!last) return '';
    const raw = await readFile(path.join(outbox, last), 'utf8');
    const text = raw
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    const match = /https?:\/\/\S+?(\/newPassword\?\S+)/.exec(text);
    return match?.[1] ?? '';
  }

  it('forgot password → e-mail → new password → login with it', async () => {
    const { page, context } = await site.newPage();
    await register(page, 'carol01', 'carol@example.org');
    await page.getByTestId('site-nav').getByTestId('logout').click();
    await page.waitForURL((url) => url.pathname === '/');

    await page.goto('/forgotPassword');
    await page.getByLabel('Email').fill('carol@example.org');
    await solveRobotCheck(page);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect.poll(() => page.getByTestId('form-success').innerText()).toBe('Link sent! Check your mail');
    await expect.poll(() => robotState(page)).toBe('unverified');

    await expect.poll(recoveryLink, { timeout: 10_000 }).toContain('k=');
    const link = await recoveryLink();
    await page.goto(link);
    expect(await page.getByLabel('Recovery key').inputValue()).not.toBe('');
    const newPassword = 'a brand new passphrase';
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm new password').fill(newPassword);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByTestId('form-success').waitFor();

    await logInWithForm(page, 'carol@example.org', newPassword);
    expect(await flag(page)).toBe('true');
    await context.close();
  });
});

describe('referral landing routes', () => {
  let site: Site;
  beforeAll(async () => {
    site = await startSite();
  });
  afterAll(() => site?.close());

  it('record the source and redirect to /', async () => {
    const { page, context } = await site.newPage();
    const recorded = page.waitForRequest((r) => r.url().includes('/v1/user/set_referral?code=reddit'));
    await page.goto('/reddit');
    await recorded;
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByTestId('pool-table').waitFor();
    await context.close();
  });
});
