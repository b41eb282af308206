import type { ChartPeriod } from '@lodestone/contract';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditPps, logIn, type SeededUser, seedPrices, seedShares, seedUser, skipWizard } from './dashboardSeed.js';
import { type Site, startSite } from './harness.js';
import { seedScryptStats } from './publicSeed.js';

/**
 * Chart ranges (issue 28; docs/dashboard.md, Chart ranges) against the real server and database: the dashboards'
 * hashrate and revenue charts and the stats page's pool hashrate chart each offer 24 hours, 7 days and 30 days with
 * the time-range selector of the Profitability chart. Choosing a period asks the server for it (`period=` in the
 * call) and the chart's x labels take that period's form; the last chart stays on screen, marked busy, while the
 * next one loads.
 */
const DAY_S = 24 * 3600;
const PERIODS = ['24h', '7d', '30d'] as const;
const VIEWPORTS = [
  { width: 1366, height: 800 },
  { width: 375, height: 800 },
] as const;

/** What the selector's button says of each period. */
const RANGE_NAMES: Record<ChartPeriod, string> = { '24h': '24h', '7d': '7 days', '30d': '30 days' };

/** The form of each period's x labels: HH:mm, MM-DD HH:mm, YYYY-MM-DD. */
const LABEL_FORMS: Record<ChartPeriod, RegExp> = {
  '24h': /^\d{2}:\d{2}$/,
  '7d': /^\d{2}-\d{2} \d{2}:\d{2}$/,
  '30d': /^\d{4}-\d{2}-\d{2}$/,
};

/**
 * The period whose label form the chart's first and last x labels have, as its text for screen readers gives them
 * ("13 points from 05-03 16:00 to 05-05 16:00."; the canvas draws the same labels), or what it says instead.
 */
async function labelForm(chart: Locator): Promise<string> {
  const text = (await chart.textContent()) ?? '';
  const match = text.match(/\d+ points from (.+?) to (.+?)\./);
  if (!match) return `no labels: ${text}`;
  const labels = [match[1] ?? '', match[2] ?? ''];
  return PERIODS.find((period) => labels.every((label) => LABEL_FORMS[period].test(label))) ?? labels.join(' … ');
}

/** The selector's list shows `period` pressed (and no other); Escape closes it again. */
async function expectPressed(page: Page, section: Locator, period: ChartPeriod): Promise<void> {
  const toggle = section.getByTestId('time-range');
  await toggle.click();
  expect(await toggle.getAttribute('aria-expanded')).toBe('true');
  for (const each of PERIODS) {
    expect(await section.getByTestId(`time-range-${each}`).getAttribute('aria-pressed'), each).toBe(
      String(each === period),
    );
  }
  // The open list fits the screen, a phone's too.
  const list = await section.getByRole('list', { name: 'Time range' }).boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  expect(list && list.x >= 0 && list.x + list.width <= width, 'the list reaches past the screen').toBe(true);
  await page.keyboard.press('Escape');
  expect(await toggle.getAttribute('aria-expanded')).toBe('false');
  await expect.poll(() => toggle.evaluate((e) => e === document.activeElement)).toBe(true);
}

/** The section's chart is drawn in `period`'s labels, and its selector has that period pressed. */
async function expectShown(page: Page, section: Locator, period: ChartPeriod): Promise<void> {
  await section.getByRole('figure').locator('canvas').waitFor();
  await expect.poll(() => labelForm(section.getByRole('figure'))).toBe(period);
  expect(await section.getByTestId('time-range').innerText()).toContain(RANGE_NAMES[period]);
  await expectPressed(page, section, period);
}

/**
 * Chooses `period` on the section's selector, waits for the call to `path` that asks for it, and for the chart's
 * labels to take the period's form.
 */
async function choosePeriod(page: Page, section: Locator, period: ChartPeriod, path: string): Promise<void> {
  const answered = page.waitForResponse((r) => isChartCall(r.url(), path, period));
  await section.getByTestId('time-range').click();
  await section.getByTestId(`time-range-${period}`).click();
  expect((await answered).status()).toBe(200);
  await expect.poll(() => labelForm(section.getByRole('figure'))).toBe(period);
  expect(await section.getByTestId('time-range').innerText()).toContain(RANGE_NAMES[period]);
}

const isChartCall = (url: string, path: string, period: ChartPeriod) => {
  const parsed = new URL(url);
  return parsed.pathname === path && parsed.searchParams.get('period') === period;
};

describe('chart ranges', () => {
  let site: Site;
  let dana: SeededUser;

  beforeAll(async () => {
    site = await startSite();
    dana = await seedUser(site, 'dana01', 'dana@example.org');
    await seedPrices(site, { LTC: '80', BTC: '100000' });
    // Shares now and two days ago: every period has points (the charts start at the first record).
    const rigs = [{ name: 'rig01', difficulty: 65_536, valid: 40 }];
    await seedShares(site, 'dana01', rigs, { secondsAgo: 2 * DAY_S });
    await seedShares(site, 'dana01', rigs);
    // Earnings two days and one hour ago.
    await creditPps(site, dana.account.id, 'LTC', 50_000_000n, new Date(Date.now() - 2 * DAY_S * 1000));
    await creditPps(site, dana.account.id, 'LTC', 10_000_000n, new Date(Date.now() - 3600_000));
    await seedScryptStats(site);
  });
  afterAll(() => site?.close());

  for (const viewport of VIEWPORTS) {
    it(`the dashboard's hashrate and revenue charts switch periods, kept across tabs until the page is left (${viewport.width} px)`, async () => {
      const { page, context, errors } = await site.newPage(viewport);
      await logIn(context, site, dana);
      await skipWizard(context, ['dana01']);
      await page.goto('/dashboard');

      // Hashrate: 24 hours first, as before ranges existed.
      const hashrate = page.getByTestId('hashrate-chart-section');
      await expectShown(page, hashrate, '24h');

      // 7 days: while its answer is held back, the 24-hour chart stays, marked busy.
      let release!: () => void;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route(
        (url) => isChartCall(url.href, '/v1/user/mining/chart', '7d'),
        async (route) => {
          await held;
          await route.continue();
        },
      );
      const requested = page.waitForRequest((r) => isChartCall(r.url(), '/v1/user/mining/chart', '7d'));
      const answered = page.waitForResponse((r) => isChartCall(r.url(), '/v1/user/mining/chart', '7d'));
      await hashrate.getByTestId('time-range').click();
      await hashrate.getByTestId('time-range-7d').click();
      expect(new URL((await requested).url()).searchParams.get('account_name')).toBe('dana01');
      const chart = page.getByTestId('hashrate-chart');
      expect(await chart.getAttribute('aria-busy')).toBe('true');
      expect(await labelForm(chart)).toBe('24h');
      release();
      expect((await answered).status()).toBe(200);
      await expect.poll(() => labelForm(chart)).toBe('7d');
      expect(await chart.getAttribute('aria-busy')).toBeNull();
      expect(await hashrate.getByTestId('time-range').innerText()).toContain(RANGE_NAMES['7d']);

      await choosePeriod(page, hashrate, '30d', '/v1/user/mining/chart');

      // Revenue: 30 days first; then 24 hours and 7 days.
      await page.getByTestId('tab-revenue').click();
      const revenue = page.getByTestId('revenue-chart-section');
      await expectShown(page, revenue, '30d');
      await choosePeriod(page, revenue, '24h', '/v1/user/revenue/chart');
      await choosePeriod(page, revenue, '7d', '/v1/user/revenue/chart');

      // Back on the Mining tab the hashrate chart is still on 30 days; a new visit starts at the defaults.
      await page.getByTestId('tab-mining').click();
      await expectShown(page, hashrate, '30d');
      await page.reload();
      await expectShown(page, hashrate, '24h');

      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      expect(errors).toEqual([]);
      await context.close();
    });

    it(`the stats page's pool hashrate chart switches periods (${viewport.width} px)`, async () => {
      const { page, context, errors } = await site.newPage(viewport);
      await page.goto('/stats');
      const section = page.getByTestId('stats-chart-section');
      await expectShown(page, section, '24h');
      await choosePeriod(page, section, '7d', '/v1/pool/stats/scrypt/chart');
      await choosePeriod(page, section, '30d', '/v1/pool/stats/scrypt/chart');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it("the observer dashboard's charts ask the observer calls for the chosen period", async () => {
    const { page, context, errors } = await site.newPage();
    await page.goto(`/dashboard/${encodeURIComponent(dana.account.observer_key ?? '')}`);
    const hashrate = page.getByTestId('hashrate-chart-section');
    await expectShown(page, hashrate, '24h');
    await choosePeriod(page, hashrate, '7d', '/v1/observer/mining/chart');
    await page.getByTestId('tab-revenue').click();
    const revenue = page.getByTestId('revenue-chart-section');
    await expectShown(page, revenue, '30d');
    await choosePeriod(page, revenue, '24h', '/v1/observer/revenue/chart');
    expect(errors).toEqual([]);
    await context.close();
  });
});
