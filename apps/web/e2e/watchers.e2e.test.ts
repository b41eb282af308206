import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logIn, type SeededUser, seedShares, seedUser, skipWizard } from './dashboardSeed.js';
import { type Site, startSite } from './harness.js';

/**
 * Watcher links (docs/dashboard.md, Watcher links) against the real server and database: the owner makes scoped and
 * expiring links in Settings, a visitor opens one without logging in and sees only what its scope covers, and a
 * revoked link stops working. At a laptop's width and a phone's, where the list is a card per link.
 */
const DAY = 24 * 3600_000;
const MINING_ONLY = 'This link shows mining only, not revenue.';
const WORKERS = ['rig01', 'rig02', 'rig03'];

interface CreatedLink {
  link: { id: string; key: string; created_at: string; expires_at: string | null };
}

/** What a row of the watcher list says, cell by cell. */
async function cellsOf(row: Locator) {
  const text = async (testId: string) => (await row.getByTestId(testId).innerText()).trim();
  return {
    name: await text('watcher-name'),
    scope: await text('watcher-scope'),
    expires: await text('watcher-expires'),
    lastUsed: await text('watcher-last-used'),
  };
}

/** Fills the new-link form and sends it; the server's answer. */
async function createLink(page: Page, card: Locator, name: string, scope: string, days: string) {
  const form = card.getByTestId('watcher-create');
  await form.getByTestId('watcher-name-input').fill(name);
  await form.getByTestId('watcher-scope-input').selectOption(scope);
  await form.getByTestId('watcher-days-input').fill(days);
  const answer = page.waitForResponse((r) => r.url().includes('/v1/user/watchers/create'));
  await form.getByRole('button', { name: 'Create link' }).click();
  return answer;
}

describe('watcher links: made in Settings, opened without login, revoked', () => {
  let site: Site;
  const owners: Record<number, SeededUser> = {};

  beforeAll(async () => {
    site = await startSite();
    for (const [index, width] of [1366, 375].entries()) {
      const name = `watch0${index + 1}`;
      owners[width] = await seedUser(site, name, `${name}@example.org`);
      await seedShares(
        site,
        name,
        WORKERS.map((worker) => ({ name: worker, difficulty: 640, valid: 10 })),
      );
    }
  });
  afterAll(() => site?.close());

  it.each([1366, 375])('at %i px: a mining-only link shows the workers, not revenue, until revoked', async (width) => {
    const owner = owners[width] as SeededUser;
    const username = owner.account.username;
    const { page, context, errors } = await site.newPage({ width, height: 800 });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await logIn(context, site, owner);
    await skipWizard(context, [username]);
    await page.goto('/settings');
    const card = page.getByTestId(`account-${username}`);
    const rows = card.getByTestId('watcher-row');
    await rows.first().waitFor();

    // The default link: the account's observer link, everything, never expiring, replaced rather than revoked.
    expect(await rows.count()).toBe(1);
    expect(await cellsOf(rows.first())).toEqual({
      name: 'Observer link',
      scope: 'Everything',
      expires: 'Never',
      lastUsed: 'Never used',
    });
    expect(await rows.first().getByTestId('watcher-revoke').count()).toBe(0);
    expect(await rows.first().getByRole('button', { name: 'New observer link' }).count()).toBe(1);

    // The server's refusals show under the form in its words.
    const form = card.getByTestId('watcher-create');
    expect((await createLink(page, card, '  ', 'mining', '')).status()).toBe(400);
    await expect.poll(() => form.getByTestId('form-error').innerText()).toBe('Name is required');
    expect((await createLink(page, card, 'Too long', 'mining', '400')).status()).toBe(400);
    await expect.poll(() => form.getByTestId('form-error').innerText()).toBe('Expiry must be at most 365 days');

    // A mining-only link that never expires, and a 1-day link that shows revenue.
    expect((await createLink(page, card, 'Hosting farm', 'mining', '')).status()).toBe(200);
    await expect.poll(() => rows.count()).toBe(2);
    expect(await form.getByTestId('form-error').count()).toBe(0);
    expect(await form.getByTestId('watcher-name-input').inputValue()).toBe('');
    const dayLink = (await (await createLink(page, card, 'Weekend', 'revenue', '1')).json()) as CreatedLink;
    await expect.poll(() => rows.count()).toBe(3);
    const expiresAt = dayLink.link.expires_at ?? '';
    expect(Date.parse(expiresAt) - Date.parse(dayLink.link.created_at)).toBe(DAY);
    const mining = rows.nth(1);
    expect(await cellsOf(mining)).toEqual({
      name: 'Hosting farm',
      scope: 'Mining only',
      expires: 'Never',
      lastUsed: 'Never used',
    });
    // The browser runs in UTC, as the tests do.
    expect(await cellsOf(rows.nth(2))).toEqual({
      name: 'Weekend',
      scope: 'Mining and revenue',
      expires: expiresAt.slice(0, 16).replace('T', ' '),
      lastUsed: 'Never used',
    });

    // The mining-only link's URL, copied as the observer link is.
    const url = await mining.getByTestId('watcher-url').inputValue();
    expect(url).toMatch(new RegExp(`^${site.baseUrl.replace(/[.]/g, '\\.')}/dashboard/[^/]+$`));
    expect(url).not.toBe(await rows.first().getByTestId('observer-link').inputValue());
    await mining.getByTestId('copy-watcher-url').click();
    await expect.poll(() => mining.getByTestId('copy-watcher-url').getAttribute('data-copied')).toBe('true');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

    // Opened in a browser that never logged in: the workers, and in place of revenue the server's reason.
    const visitor = await site.newPage({ width, height: 800 });
    await visitor.page.goto(url);
    const workers = visitor.page.getByTestId('workers-table').getByTestId('worker-row');
    await workers.first().waitFor();
    expect(await workers.getByTestId('worker-name').allInnerTexts()).toEqual(WORKERS);
    await visitor.page.getByTestId('tab-revenue').click();
    await expect.poll(() => visitor.page.getByTestId('revenue-not-shared').innerText()).toBe(MINING_ONLY);
    for (const block of ['balances', 'payments-and-earnings', 'revenue-chart-section']) {
      expect(await visitor.page.getByTestId(block).count(), block).toBe(0);
    }
    expect(await visitor.page.evaluate(() => localStorage.getItem('isLoggedIn'))).not.toBe('true');

    // The owner sees it used, and revokes it.
    await page.reload();
    await expect.poll(() => rows.count()).toBe(3);
    expect((await cellsOf(rows.nth(1))).lastUsed).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    await rows.nth(1).getByTestId('watcher-revoke').click();
    const modal = page.getByTestId('watcher-revoke-modal');
    await modal.getByTestId('confirm').click();
    await expect.poll(() => rows.count()).toBe(2);
    expect(await card.getByTestId('watcher-name').allInnerTexts()).toEqual(['Observer link', 'Weekend']);
    expect(await modal.count()).toBe(0);

    // The visitor's page, reloaded, says the link does not work, as for a key that never existed.
    await visitor.page.reload();
    await visitor.page.getByTestId('observer-invalid').waitFor();
    expect(await visitor.page.getByTestId('workers-table').count()).toBe(0);

    // The refusals were expected: every message the visitor's browser logged is about a 403 or a 404.
    expect(errors.filter((e) => !/status of 400/.test(e) && !/Name is required|Expiry must be/.test(e))).toEqual([]);
    expect(visitor.errors.length).toBeGreaterThan(0);
    expect(
      visitor.errors.filter(
        (e) => !/403|404|Forbidden|Not Found|mining only|does not show payouts|Account not found/.test(e),
      ),
    ).toEqual([]);
    await visitor.context.close();
    await context.close();
  });
});
