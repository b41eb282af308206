import type { ConnectionEvent, ShareBatch, WorkerShareCounts } from '@lodestone/domain';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logIn, type SeededUser, seedUser, skipWizard } from './dashboardSeed.js';
import { applyShareBatch, type Site, startSite } from './harness.js';

/**
 * Worker health on the Mining tab (issue 28; docs/dashboard.md, Workers and Worker groups) against the real server
 * and database, at a laptop's width and a phone's. Every worker's shares go through the accounting job as a stratum
 * node's batches would: one rig mines steadily, one slows down in the last minutes, one stopped three hours ago, and
 * the slowing rig's batches carry its refusals by reason and its connects and disconnect. The page's states, rejects,
 * chart and connection history are what the server answers; labels and removals are checked against the API too.
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const SHARE_DIFFICULTY = 1000;
/** Shares of a steady rig per half-hour batch: 100 in every 10-minute statistics window. */
const STEADY = 300;
const LABEL = 'Basement';

interface Sent {
  name: string;
  valid: number;
  invalid?: number;
  stale?: number;
  rejectReasons?: Record<string, number>;
}

let batches = 0;

/** One batch of a stratum node ending at `end` (epoch ms): the workers' shares and the connections it saw. */
async function sendBatch(
  site: Site,
  account: string,
  end: number,
  workers: Sent[],
  connections: ConnectionEvent[] = [],
): Promise<void> {
  batches += 1;
  const counts: WorkerShareCounts[] = workers.map((w) => ({
    account,
    worker: w.name,
    acceptedDifficulty: w.valid * SHARE_DIFFICULTY,
    valid: w.valid,
    invalid: w.invalid ?? 0,
    stale: w.stale ?? 0,
    lastShareAt: end - 1000,
    ...(w.valid > 0 && { lastAcceptedAt: end - 1000 }),
    rejectReasons: w.rejectReasons ?? {},
  }));
  const batch: ShareBatch = {
    id: `00000000-0000-4000-a000-${String(batches).padStart(12, '0')}`,
    node: 'e2e-node',
    algorithm: 'scrypt',
    intervalStart: end - 30_000,
    intervalEnd: end,
    workers: counts,
    ...(connections.length > 0 && { connections }),
  };
  await applyShareBatch(site.database.db, batch);
}

/**
 * A farm of four workers over the last 23.5 hours, a batch every half hour: rack1-a and spare mine steadily up to now,
 * rack1-b mines steadily and then sends 10 shares in the last window (a tenth of its average) with 10 refusals, and
 * rack2-a stopped three hours ago. rack1-b connected at the start, was disconnected two hours ago and came back.
 */
async function seedFarm(site: Site, account: string, now: number): Promise<void> {
  const connection = (event: 'connect' | 'disconnect', at: number, session: string, reason?: string) => ({
    account,
    worker: 'rack1-b',
    session,
    event,
    at,
    ipRange: '198.51.100.0/24',
    userAgent: 'bfgminer/5.5.0',
    ...(reason !== undefined && { reason }),
  });
  for (let k = 47; k >= 1; k--) {
    const end = now - k * 30 * MINUTE;
    const connections =
      k === 47
        ? [connection('connect', end - 40_000, `${account}-s1`)]
        : k === 4
          ? [
              connection('disconnect', now - 2 * HOUR, `${account}-s1`, 'closed by miner'),
              connection('connect', now - 2 * HOUR + 5000, `${account}-s2`),
            ]
          : [];
    await sendBatch(
      site,
      account,
      end,
      [
        { name: 'rack1-a', valid: STEADY },
        { name: 'rack1-b', valid: STEADY },
        ...(end <= now - 3 * HOUR ? [{ name: 'rack2-a', valid: STEADY }] : []),
        { name: 'spare', valid: STEADY },
      ],
      connections,
    );
  }
  await sendBatch(site, account, now - 5000, [
    { name: 'rack1-a', valid: STEADY },
    {
      name: 'rack1-b',
      valid: 10,
      invalid: 8,
      stale: 2,
      rejectReasons: { 'low-difficulty': 6, stale: 2, duplicate: 1, 'job-not-found': 1 },
    },
    { name: 'spare', valid: 100 },
  ]);
}

interface WorkerAnswer {
  id: string;
  name: string;
  state: string;
  label: string | null;
  group: string | null;
  valid_shares: number;
}

/** What the API itself answers, fetched in the page with its session. */
function apiAnswer<T>(page: Page, path: string): Promise<T> {
  return page.evaluate(async (url) => {
    const answer = await fetch(url, { credentials: 'include' });
    return (await answer.json()) as T;
  }, path);
}

/** The page is no wider than the screen (docs/website.md, Phones). */
async function fitsTheScreen(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

describe.each([
  { width: 1366, account: 'widefarm01' },
  { width: 375, account: 'phonefarm01' },
])('worker health at $width px', ({ width, account }) => {
  let site: Site;
  let miner: SeededUser;
  const workersUrl = `/v1/user/mining/workers?account_name=${account}&algorithm=scrypt`;

  beforeAll(async () => {
    site = await startSite();
    miner = await seedUser(site, account, `${account}@example.org`);
    await seedFarm(site, account, Date.now());
  });
  afterAll(() => site?.close());

  async function open(path = '/dashboard') {
    const opened = await site.newPage({ width, height: 900 });
    await logIn(opened.context, site, miner);
    await skipWizard(opened.context, [account]);
    await opened.page.goto(path);
    await opened.page.getByTestId('workers-table').getByTestId('worker-row').first().waitFor();
    return opened;
  }

  it('shows each worker’s state, and filters by state and group', async () => {
    const { page, context, errors } = await open();
    const table = page.getByTestId('workers-table');
    const names = () => table.getByTestId('worker-name').allInnerTexts();
    const statusOf = (name: string) =>
      table.getByTestId('worker-row').filter({ hasText: name }).getByTestId('worker-status').innerText();

    const answer = await apiAnswer<WorkerAnswer[]>(page, workersUrl);
    expect(Object.fromEntries(answer.map((w) => [w.name, w.state]))).toEqual({
      'rack1-a': 'online',
      'rack1-b': 'low',
      'rack2-a': 'offline',
      spare: 'online',
    });
    expect(Object.fromEntries(answer.map((w) => [w.name, w.group]))).toEqual({
      'rack1-a': 'rack1-',
      'rack1-b': 'rack1-',
      'rack2-a': 'rack2-',
      spare: null,
    });
    expect(await names()).toEqual(['rack1-a', 'rack1-b', 'rack2-a', 'spare']);
    expect(await statusOf('rack1-a')).toBe('Online');
    expect(await statusOf('rack1-b')).toBe('Low hashrate');
    expect(await statusOf('rack2-a')).toBe('Offline');
    expect(await statusOf('spare')).toBe('Online');
    expect(
      await table.getByTestId('worker-row').filter({ hasText: 'rack2-a' }).getByTestId('worker-last-share').innerText(),
    ).toMatch(/^(179 min|3 h) ago$/);

    // The search matches the state as shown.
    // The server filters, searches and pages (GET /user/mining/workers/page): each choice's rows come with its answer.
    await page.getByTestId('workers-search').fill('low hash');
    await expect.poll(names).toEqual(['rack1-b']);
    await page.getByTestId('workers-search').fill('');
    await expect.poll(names).toHaveLength(4);

    // State filter with counts.
    expect(await page.getByTestId('state-filter-all').innerText()).toBe('All (4)');
    expect(await page.getByTestId('state-filter-online').innerText()).toBe('Online (2)');
    expect(await page.getByTestId('state-filter-low').innerText()).toBe('Low (1)');
    expect(await page.getByTestId('state-filter-offline').innerText()).toBe('Offline (1)');
    await page.getByTestId('state-filter-offline').click();
    expect(await page.getByTestId('state-filter-offline').getAttribute('aria-pressed')).toBe('true');
    await expect.poll(names).toEqual(['rack2-a']);
    await page.getByTestId('state-filter-online').click();
    await expect.poll(names).toEqual(['rack1-a', 'spare']);

    // Group filter, combined with the state filter: its counts are of the chosen state.
    const groups = page.getByTestId('group-filter');
    await expect
      .poll(() => groups.locator('option').allInnerTexts())
      .toEqual(['All groups (2)', 'rack1- (1)', 'rack2- (0)', 'Ungrouped (1)']);
    await groups.selectOption('group:rack1-');
    await expect.poll(names).toEqual(['rack1-a']);
    await page.getByTestId('state-filter-all').click();
    await expect.poll(names).toEqual(['rack1-a', 'rack1-b']);
    await expect.poll(() => page.getByTestId('state-filter-all').innerText()).toBe('All (2)');
    await groups.selectOption('ungrouped');
    await expect.poll(names).toEqual(['spare']);
    await groups.selectOption('all');
    await expect.poll(names).toHaveLength(4);

    expect(await fitsTheScreen(page)).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('opens one worker: its state, refusals by reason, chart and connection history, at an address to share', async () => {
    const { page, context, errors } = await open();
    const answer = await apiAnswer<WorkerAnswer[]>(page, workersUrl);
    const slow = answer.find((w) => w.name === 'rack1-b') as WorkerAnswer;

    await page.getByTestId('workers-table').getByRole('link', { name: 'rack1-b' }).click();
    const detail = page.getByTestId('worker-detail');
    await detail.waitFor();
    expect(new URL(page.url()).search).toBe(`?worker=${slow.id}`);
    // The view finds its row in the whole list, which the table no longer reads: it comes with that answer.
    await detail.getByRole('heading', { name: 'Worker rack1-b' }).waitFor();
    expect(await detail.getByTestId('worker-detail-state').innerText()).toBe('Low hashrate');
    expect(await detail.getByTestId('worker-detail-group').innerText()).toBe('rack1- (name prefix)');
    expect(await detail.getByTestId('worker-detail-last-share').innerText()).toMatch(
      /^\d{4}-\d{2}-\d{2} \d{2}:\d{2} \(\d+ s ago\)$/,
    );

    // Refusals: the reasons in words, each and all together as a part of every share of the 24 hours.
    const rejects = await apiAnswer<{ rejects: Record<string, number> }>(
      page,
      `/v1/user/mining/workers/rejects?account_name=${account}&algorithm=scrypt&worker_id=${slow.id}`,
    );
    expect(rejects.rejects).toEqual({ 'low-difficulty': 6, stale: 2, duplicate: 1, 'job-not-found': 1 });
    const total = slow.valid_shares + 10;
    const percent = (n: number) => `${((n / total) * 100).toFixed(2)}%`;
    await detail.getByTestId('worker-reject-reasons').waitFor();
    expect(await detail.getByTestId('worker-reject-rate').innerText()).toBe(
      `Reject rate ${percent(10)}: 10 of ${total.toLocaleString('en-US')} shares refused`,
    );
    expect(await detail.getByTestId('reject-reason').allInnerTexts()).toEqual([
      'Low difficulty',
      'Stale',
      'Duplicate',
      'Job not found',
    ]);
    expect(await detail.getByTestId('reject-percent').allInnerTexts()).toEqual([
      percent(6),
      percent(2),
      percent(1),
      percent(1),
    ]);

    // Its own chart, 24 hours or 7 days (no 30 days: its hour rows are kept 8 days).
    const chart = page.getByTestId('worker-chart-section');
    await chart.getByTestId('worker-chart').locator('canvas').waitFor();
    expect(await chart.getByTestId('worker-chart').textContent()).toMatch(
      /\d+ points from \d{2}:\d{2} to \d{2}:\d{2}\./,
    );
    await chart.getByTestId('time-range').click();
    expect(await chart.getByTestId('time-range-30d').count()).toBe(0);
    const weekly = page.waitForResponse(
      (r) => r.url().includes('/v1/user/mining/workers/chart?') && r.url().includes('period=7d'),
    );
    await chart.getByTestId('time-range-7d').click();
    expect((await weekly).status()).toBe(200);
    await expect
      .poll(() => chart.getByTestId('worker-chart').textContent())
      .toMatch(/\d+ points from \d{2}-\d{2} \d{2}:\d{2} to \d{2}-\d{2} \d{2}:\d{2}\./);

    // Connection history, newest first.
    const connections = detail.getByTestId('connection-row');
    await connections.first().waitFor();
    expect(await connections.count()).toBe(3);
    expect(await detail.getByTestId('connection-event').allInnerTexts()).toEqual([
      'Connected',
      'Disconnected',
      'Connected',
    ]);
    expect(await detail.getByTestId('connection-reason').allInnerTexts()).toEqual(['—', 'closed by miner', '—']);
    expect(await detail.getByTestId('connection-ip').allInnerTexts()).toEqual(Array(3).fill('198.51.100.0/24'));
    expect(await detail.getByTestId('connection-software').allInnerTexts()).toEqual(Array(3).fill('bfgminer/5.5.0'));
    expect(await detail.getByTestId('connection-node').allInnerTexts()).toEqual(Array(3).fill('e2e-node'));
    expect(await detail.getByTestId('connection-time').first().innerText()).toMatch(
      /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/,
    );
    expect(await fitsTheScreen(page)).toBe(true);

    // The address opens the same worker; "All workers" closes it.
    await page.reload();
    await page.getByTestId('worker-detail-state').waitFor();
    expect(await page.getByTestId('worker-detail-state').innerText()).toBe('Low hashrate');
    await page.getByTestId('close-worker').click();
    await page.getByTestId('worker-detail').waitFor({ state: 'detached' });
    expect(new URL(page.url()).search).toBe('');

    // A worker is one algorithm's: choosing another closes its view instead of showing "not found".
    await page.getByTestId('workers-table').getByRole('link', { name: 'rack1-b' }).click();
    await page.getByTestId('worker-detail').waitFor();
    await page.getByTestId('site-nav').getByTestId('algorithm-selector').click();
    await page.getByTestId('algorithm-option-X11').click();
    await page.getByTestId('worker-detail').waitFor({ state: 'detached' });
    expect(new URL(page.url()).search).toBe('');

    expect(errors).toEqual([]);
    await context.close();
  });

  it('the observer sees the same worker, read-only', async () => {
    const { page, context } = await open();
    const answer = await apiAnswer<WorkerAnswer[]>(page, workersUrl);
    const slow = answer.find((w) => w.name === 'rack1-b') as WorkerAnswer;
    await context.close();

    const observer = await site.newPage({ width, height: 900 });
    await observer.page.goto(`/dashboard/${encodeURIComponent(miner.account.observer_key ?? '')}?worker=${slow.id}`);
    await observer.page.getByTestId('worker-reject-reasons').waitFor();
    expect(await observer.page.getByTestId('worker-detail-state').innerText()).toBe('Low hashrate');
    expect(await observer.page.getByTestId('reject-reason').count()).toBe(4);
    await observer.page.getByTestId('connection-row').first().waitFor();
    expect(await observer.page.getByTestId('connection-row').count()).toBe(3);
    await observer.page.getByTestId('worker-chart').locator('canvas').waitFor();
    for (const testId of ['select-worker', 'select-page', 'selection-bar', 'remove-worker', 'remove-offline']) {
      expect(await observer.page.getByTestId(testId).count(), testId).toBe(0);
    }
    expect(await fitsTheScreen(observer.page)).toBe(true);
    expect(observer.errors).toEqual([]);
    await observer.context.close();
  });

  it('labels two workers, filters by that group, and removes the selected group', async () => {
    const { page, context, errors } = await open();
    const table = page.getByTestId('workers-table');
    const names = () => table.getByTestId('worker-name').allInnerTexts();
    const row = (name: string) => table.getByTestId('worker-row').filter({ hasText: name });

    await row('rack2-a').getByRole('checkbox', { name: 'Select rack2-a' }).check();
    await row('spare').getByRole('checkbox', { name: 'Select spare' }).check();
    expect(await page.getByTestId('selection-count').innerText()).toBe('2 workers selected');
    expect(await page.getByTestId('remove-selected').innerText()).toBe('Remove selected (2)');

    // The server refuses a label that is too long; its words are shown and the dialog stays.
    await page.getByTestId('label-selected').click();
    const dialog = page.getByRole('dialog', { name: 'Label 2 workers' });
    await dialog.waitFor();
    await dialog.getByTestId('label-input').fill('x'.repeat(41));
    const refused = page.waitForResponse((r) => r.url().includes('/v1/user/mining/workers/label'));
    await dialog.getByTestId('label-save').click();
    const refusal = await refused;
    expect(refusal.status()).toBe(400);
    const { error } = (await refusal.json()) as { error: string };
    await expect.poll(() => dialog.getByTestId('form-error').innerText()).toBe(error);

    await dialog.getByTestId('label-input').fill(LABEL);
    await dialog.getByTestId('label-save').click();
    await dialog.waitFor({ state: 'detached' });
    const groups = page.getByTestId('group-filter');
    await expect.poll(() => groups.locator('option').allInnerTexts()).toContain(`${LABEL} (2)`);
    const labelled = await apiAnswer<WorkerAnswer[]>(page, workersUrl);
    expect(labelled.filter((w) => w.label === LABEL).map((w) => w.name)).toEqual(['rack2-a', 'spare']);
    expect(labelled.filter((w) => w.group === LABEL)).toHaveLength(2);

    // A selection belongs to what was looked at: choosing the group clears it.
    await groups.selectOption(`group:${LABEL}`);
    await expect.poll(names).toEqual(['rack2-a', 'spare']);
    expect(await page.getByTestId('selection-count').innerText()).toBe('No worker selected');

    // Select all matching, then remove them: asked first, then gone from the page and the API.
    await page.getByTestId('select-matching').click();
    await expect.poll(() => page.getByTestId('selection-count').innerText()).toBe('2 workers selected');
    await page.getByTestId('clear-selection').click();
    expect(await page.getByTestId('selection-count').innerText()).toBe('No worker selected');
    await page.getByTestId('select-matching').click();
    await expect.poll(() => page.getByTestId('selection-count').innerText()).toBe('2 workers selected');
    await page.getByTestId('remove-selected').click();
    const confirm = page.getByRole('dialog', { name: 'Remove 2 selected workers?' });
    await confirm.waitFor();
    expect(await confirm.innerText()).toContain('rack2-a, spare: their statistics are deleted');
    await Promise.all([
      page.waitForEvent('load'),
      confirm.getByRole('button', { name: 'Remove', exact: true }).click(),
    ]);
    await table.getByTestId('worker-row').first().waitFor();
    expect(await names()).toEqual(['rack1-a', 'rack1-b']);
    const left = await apiAnswer<WorkerAnswer[]>(page, workersUrl);
    expect(left.map((w) => w.name)).toEqual(['rack1-a', 'rack1-b']);
    expect(await fitsTheScreen(page)).toBe(true);

    expect(errors.filter((e) => !e.includes('status of 400'))).toEqual([]);
    await context.close();
  });
});
