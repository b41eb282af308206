import type { PoolStatsResponse } from '@lodestone/contract';
import { insertPoolStats } from '@lodestone/db';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Site, startSite } from './harness.js';

const KEYS = ['scrypt', 'sha256', 'eaglesong', 'blake2s', 'x11', 'kheavyhash'];

/**
 * Console errors of the page. A visitor's session check (GET /v1/user/info, docs/website.md, Session) answers
 * `{result: false}`, not a 401, so there are none to expect.
 */
const unexpected = (errors: string[]) => errors;

describe('home page', () => {
  let site: Site;

  beforeAll(async () => {
    site = await startSite({ BANNER_TEXT: '<b>Maintenance</b> tonight<img src="x" onerror="window.__pwned=1">' });
    const now = new Date();
    await insertPoolStats(site.database.db, {
      algorithm: 'scrypt',
      taken_at: now,
      hashrate: '2500000000000',
      miners: 42,
      workers: 80,
      profit: '0.00000000000000012',
      profit_avg_24h: '0.00000000000000011',
    });
    await insertPoolStats(site.database.db, {
      algorithm: 'x11',
      taken_at: now,
      hashrate: '750000',
      miners: 3,
      workers: 4,
      profit: '0',
      profit_avg_24h: '0',
    });
  });
  afterAll(() => site?.close());

  it('renders one row per algorithm, in the usual order, with the numbers the API serves', async () => {
    const { page, context, errors } = await site.newPage();
    await page.goto('/');
    const rows = page.locator('[data-testid^="pool-row-"]');
    await rows.first().waitFor();
    expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')))).toEqual(
      KEYS.map((k) => `pool-row-${k}`),
    );
    const scrypt = page.getByTestId('pool-row-scrypt');
    await expect.poll(() => scrypt.getByTestId('hashrate').innerText()).toMatch(/2\.50\s*Th\/s/);
    expect(await scrypt.getByTestId('miners').innerText()).toBe('42');
    expect(await scrypt.getByTestId('profit').innerText()).toMatch(/0\.00012\s*BTC\/TH\/s/);
    expect(await scrypt.getByTestId('profit-avg').innerText()).toMatch(/0\.00011/);
    expect(await page.getByTestId('pool-row-x11').getByTestId('hashrate').innerText()).toMatch(/750\.00\s*Kh\/s/);
    // No pool data for SHA256 yet: zeros, never invented numbers.
    expect(await page.getByTestId('pool-row-sha256').getByTestId('hashrate').innerText()).toMatch(/^0\.00/);
    expect(await page.getByTestId('pool-row-sha256').getByTestId('miners').innerText()).toBe('0');
    // The algorithm selector is hidden on home.
    expect(await page.getByTestId('algorithm-selector').count()).toBe(0);
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  });

  it('refreshes the pool table every 30 seconds', async () => {
    const { page, context } = await site.newPage();
    await page.clock.install();
    await page.goto('/');
    const miners = page.getByTestId('pool-row-blake2s').getByTestId('miners');
    await expect.poll(() => miners.innerText()).toBe('0');
    await insertPoolStats(site.database.db, {
      algorithm: 'blake2s',
      taken_at: new Date(),
      hashrate: '1000000',
      miners: 5,
      workers: 5,
      profit: '0',
      profit_avg_24h: '0',
    });
    // Past the server's 2 s answer cache in real time: the server answers the new row (the page's clock
    // runs on meanwhile, a few seconds at most). Then fast-forward the page: no refresh before 30 s, one
    // right after.
    await vi.waitFor(
      async () => {
        const stats = (await (await fetch(`${site.baseUrl}/v1/pool/stats`)).json()) as PoolStatsResponse;
        expect(stats.blake2s.miners).toBe(5);
      },
      { timeout: 4000, interval: 100 },
    );
    await page.clock.runFor(24_000);
    expect(await miners.innerText()).toBe('0');
    await page.clock.runFor(6_000);
    await expect.poll(() => miners.innerText()).toBe('5');
    await context.close();
  });

  it('changes the nav style when the hero scrolls out of view', async () => {
    const { page, context } = await site.newPage({ width: 1280, height: 700 });
    await page.goto('/');
    const nav = page.getByTestId('site-nav');
    await expect.poll(() => nav.getAttribute('data-variant')).toBe('transparent');
    await page.getByTestId('pool-table').scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect.poll(() => nav.getAttribute('data-variant')).toBe('solid');
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect.poll(() => nav.getAttribute('data-variant')).toBe('transparent');
    await page.goto('/stats');
    await expect.poll(() => page.getByTestId('site-nav').getAttribute('data-variant')).toBe('solid');
    await context.close();
  });

  it('shows the configured banner with its markup sanitized', async () => {
    const { page, context, errors } = await site.newPage();
    await page.goto('/');
    const banner = page.getByTestId('banner');
    await banner.waitFor();
    expect(await banner.locator('b').innerText()).toBe('Maintenance');
    expect(await banner.innerHTML()).not.toContain('onerror');
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(unexpected(errors).filter((e) => !e.includes('favicon'))).toEqual([]);
    await context.close();
  });

  it('opens /stats with the clicked algorithm selected', async () => {
    const { page, context } = await site.newPage();
    await page.goto('/');
    await page.getByTestId('pool-row-x11').click();
    await page.waitForURL('**/stats');
    expect(await page.evaluate(() => localStorage.getItem('selectedAlgorithm'))).toBe('X11');
    expect(await page.getByTestId('algorithm-selector').innerText()).toContain('X11');
    await context.close();
  });

  it('toggles the dark theme, stores it, and applies it on the next load', async () => {
    const { page, context } = await site.newPage();
    await page.goto('/');
    const isDark = () => page.evaluate(() => document.documentElement.classList.contains('dark'));
    expect(await isDark()).toBe(false);
    await page.getByTestId('theme-toggle').click();
    expect(await isDark()).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
    await page.reload();
    await page.getByTestId('theme-toggle').waitFor();
    expect(await isDark()).toBe(true);
    await page.getByTestId('theme-toggle').click();
    expect(await isDark()).toBe(false);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('light');
    await context.close();
  });

  it('follows a theme change made in another tab', async () => {
    const { page, context } = await site.newPage();
    await page.goto('/');
    const other = await context.newPage();
    await other.goto('/stats');
    await other.getByTestId('theme-toggle').click();
    await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    await context.close();
  });

  it('persists the algorithm chosen in the selector', async () => {
    const { page, context } = await site.newPage();
    await page.goto('/stats');
    const selector = page.getByTestId('algorithm-selector');
    expect(await selector.innerText()).toContain('SCRYPT');
    await selector.click();
    await page.getByTestId('algorithm-option-SHA256').click();
    expect(await selector.innerText()).toContain('SHA256');
    expect(await page.getByTestId('algorithm-option-SHA256').count()).toBe(0);
    await page.reload();
    expect(await page.getByTestId('algorithm-selector').innerText()).toContain('SHA256');
    expect(await page.evaluate(() => localStorage.getItem('selectedAlgorithm'))).toBe('SHA256');
    await context.close();
  });
});

describe('layout', () => {
  let site: Site;
  beforeAll(async () => {
    site = await startSite({ SUPPORT_EMAIL: 'help@acme.example', PHONE_US: '+1 555 0100' });
  });
  afterAll(() => site?.close());

  it('shows the configured contacts in the footer and no banner when none is configured', async () => {
    const { page, context, errors } = await site.newPage();
    await page.goto('/');
    const footer = page.getByTestId('site-footer');
    await expect.poll(() => footer.innerText()).toContain('help@acme.example');
    expect(await footer.innerText()).toContain('+1 555 0100');
    // PHONE_EU was left at its placeholder: the footer says so instead of showing +00 000 000 000.
    const eu = await page.getByTestId('contact-phone_eu').innerText();
    expect(eu.replace(/\s+/g, ' ')).toBe('EU: not configured (PHONE_EU)');
    expect(await footer.innerText()).not.toContain('+00 000');
    expect(await page.getByTestId('banner').count()).toBe(0);
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  });

  it('hides nav and footer on the login page and shows them on the other pages', async () => {
    const { page, context } = await site.newPage();
    await page.goto('/login');
    await page.waitForLoadState('networkidle');
    expect(await page.getByTestId('site-nav').count()).toBe(0);
    expect(await page.getByTestId('site-footer').count()).toBe(0);
    // Every screen of the route table is built now (public.e2e.test.ts checks each one's content).
    await page.goto('/faq');
    await page.getByTestId('faq-page').waitFor();
    expect(await page.getByTestId('site-nav').count()).toBe(1);
    expect(await page.getByTestId('site-footer').count()).toBe(1);
    await context.close();
  });

  it('collapses the nav into a hamburger menu on small screens', async () => {
    const { page, context } = await site.newPage({ width: 375, height: 740 });
    await page.goto('/stats');
    const hamburger = page.getByTestId('hamburger');
    await hamburger.waitFor();
    expect(await hamburger.isVisible()).toBe(true);
    await hamburger.click();
    await page.getByRole('link', { name: 'Payouts' }).first().click();
    await page.waitForURL('**/payouts');
    await context.close();
  });

  it('scrolls to the top on navigation', async () => {
    const { page, context } = await site.newPage({ width: 1280, height: 500 });
    await page.goto('/');
    await page.getByTestId('site-footer').waitFor();
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await page.getByTestId('site-footer').getByRole('link', { name: 'FAQ' }).click();
    await page.waitForURL('**/faq');
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await context.close();
  });
});
