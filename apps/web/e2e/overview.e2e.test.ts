import type { OverviewResponse } from '@lodestone/contract';
import { insertPoolStats } from '@lodestone/db';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logIn, type SeededUser, seedPrices, seedShares, seedUser, skipWizard } from './dashboardSeed.js';
import { SESSION_COOKIE, type Site, startSite } from './harness.js';

/**
 * All accounts (docs/dashboard.md, All accounts) in Chromium against the real server: a user with two accounts (and a
 * removed third) whose shares went through the accounting job, another user beside them. The page's rows and totals
 * are checked against the very answer the page was given and against what was seeded (workers, low, offline);
 * choosing a row opens that account's dashboard. On a laptop's screen and on a phone's, where each row is a card.
 */

/** A change made through the real API with the user's session, as the dashboard's own forms send it. */
async function postAs(site: Site, user: SeededUser, path: string, fields: Record<string, string>) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  const res = await fetch(`${site.baseUrl}${path}`, {
    method: 'POST',
    body: form,
    headers: { cookie: `${SESSION_COOKIE}=${user.session}`, origin: site.baseUrl },
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
}

const hashrate = (value: number, units: string) => `${value.toFixed(2)} ${units}`;
const usd = (value: number) =>
  `$${value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

describe.each([
  { width: 1366, name: 'laptop', card: false },
  { width: 375, name: 'phone', card: true },
])('All accounts on a $name ($width px)', ({ width, name, card }) => {
  let site: Site;
  let miner: SeededUser;
  const first = `ov${name}a`;
  const second = `ov${name}b`;
  const removed = `ov${name}c`;

  beforeAll(async () => {
    site = await startSite();
    miner = await seedUser(site, first, `overview.${name}@example.org`);
    await postAs(site, miner, '/v1/user/new_account', { username: second });
    await postAs(site, miner, '/v1/user/new_account', { username: removed });
    await seedUser(site, `ov${name}other`, `other.${name}@example.org`);
    await seedPrices(site, { BTC: '100000' });
    await insertPoolStats(site.database.db, {
      algorithm: 'scrypt',
      taken_at: new Date(),
      hashrate: '0',
      miners: 0,
      workers: 0,
      profit: '0.000000006591796875',
      profit_avg_24h: '0.000000006591796875',
    });
    // First account: rig1 mining now; oldrig mined two hours ago, every ten seconds, and not since: offline.
    await seedShares(site, first, [{ name: 'oldrig', difficulty: 6400, valid: 700 }], { secondsAgo: 7200 });
    await seedShares(site, first, [{ name: 'rig1', difficulty: 6400, valid: 640 }]);
    // Second account: farm mined 600,000 two hours ago and sends one share now (low), rig2 mining now.
    await seedShares(site, second, [{ name: 'farm', difficulty: 600_000, valid: 6000 }], { secondsAgo: 7200 });
    await seedShares(site, second, [
      { name: 'farm', difficulty: 100, valid: 1 },
      { name: 'rig2', difficulty: 3200, valid: 320 },
    ]);
    // Neither a removed account nor another user's appears.
    await seedShares(site, removed, [{ name: 'rig1', difficulty: 50_000, valid: 500 }]);
    await postAs(site, miner, '/v1/user/remove_account', { account_name: removed });
    await seedShares(site, `ov${name}other`, [{ name: 'rig1', difficulty: 5000, valid: 50 }]);
  });
  afterAll(() => site?.close());

  /** The overview as the page asked for it, once it has it. */
  async function openOverview(page: Page): Promise<OverviewResponse> {
    const answer = page.waitForResponse((r) => r.url().includes('/v1/user/overview') && r.status() === 200);
    await page.getByTestId('all-accounts-link').click();
    await page.waitForURL('**/dashboard/overview');
    const body = (await (await answer).json()) as OverviewResponse;
    await page.getByTestId('overview-row').first().waitFor();
    return body;
  }

  it('shows each account’s figures and their totals, and opens an account’s dashboard', async () => {
    const { page, context, errors } = await site.newPage({ width });
    await logIn(context, site, miner);
    await skipWizard(context, [first, second]);
    await page.goto('/dashboard');
    const overview = await openOverview(page);

    // The seeded accounts, oldest first, with what was seeded: workers, low and offline.
    expect(overview.algorithm).toBe('scrypt');
    expect(
      overview.accounts.map((r) => [
        r.account_name,
        r.active_workers,
        r.total_workers,
        r.low_workers,
        r.offline_workers,
      ]),
    ).toEqual([
      [first, 1, 2, 0, 1],
      [second, 2, 2, 1, 0],
    ]);
    expect(overview.accounts.every((r) => r.hashrate > 0 && r.estimated_revenue > 0)).toBe(true);

    // The table shows exactly that answer.
    const rows = page.getByTestId('overview-row');
    expect(await rows.count()).toBe(2);
    for (const [i, account] of overview.accounts.entries()) {
      const row = rows.nth(i);
      const text = (testId: string) => row.getByTestId(testId).innerText();
      expect(await text('overview-account')).toBe(account.account_name);
      expect(await text('overview-hashrate')).toBe(hashrate(account.hashrate, account.hashrate_units));
      expect(await text('overview-hashrate-avg')).toBe(hashrate(account.hashrate_avg, account.hashrate_avg_units));
      expect(await text('overview-workers')).toBe(`${account.active_workers} / ${account.total_workers}`);
      expect(await text('overview-low')).toBe(String(account.low_workers));
      expect(await text('overview-offline')).toBe(String(account.offline_workers));
      expect(await text('overview-revenue')).toBe(usd(account.estimated_revenue));
    }
    // Counts above 0 stand out; 0 does not.
    const weight = (row: number, testId: string) =>
      rows
        .nth(row)
        .getByTestId(testId)
        .locator('span span')
        .evaluate((el) => getComputedStyle(el).fontWeight);
    expect(await weight(0, 'overview-offline')).toBe('600');
    expect(await weight(1, 'overview-low')).toBe('600');
    expect(await weight(0, 'overview-low')).toBe('400');

    // The totals: the rows added up, as the answer says.
    const { totals } = overview;
    expect(totals).toMatchObject({ active_workers: 3, total_workers: 4, low_workers: 1, offline_workers: 1 });
    const cents = (n: number) => Math.round(n * 100);
    expect(cents(totals.estimated_revenue)).toBe(
      overview.accounts.reduce((sum, r) => sum + cents(r.estimated_revenue), 0),
    );
    expect(await page.getByTestId('total-hashrate').innerText()).toBe(hashrate(totals.hashrate, totals.hashrate_units));
    expect(await page.getByTestId('total-hashrate-avg').innerText()).toBe(
      hashrate(totals.hashrate_avg, totals.hashrate_avg_units),
    );
    expect(await page.getByTestId('total-workers').innerText()).toBe('3 / 4');
    expect(await page.getByTestId('total-attention').innerText()).toBe('1 / 1');
    expect(await page.getByTestId('total-revenue').innerText()).toBe(usd(totals.estimated_revenue));

    // A table row on the laptop, a card on the phone; nothing wider than the screen.
    expect(await rows.first().evaluate((row) => getComputedStyle(row).display)).toBe(card ? 'block' : 'table-row');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

    // Choosing the second account (anywhere on its row) opens its dashboard.
    await rows.nth(1).getByTestId('overview-revenue').click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await expect.poll(() => page.getByTestId('account-selector').inputValue()).toBe(second);
    expect(await page.evaluate(() => localStorage.getItem('selectedAccount'))).toBe(second);

    // And the first one by its name, from the overview again.
    await openOverview(page);
    await page.getByTestId('overview-row').first().getByTestId('overview-account').locator('button').click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await expect.poll(() => page.getByTestId('account-selector').inputValue()).toBe(first);

    expect(errors).toEqual([]);
    await context.close();
  });
});
