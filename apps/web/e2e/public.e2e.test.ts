import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AlgorithmStatsResponse } from '@lodestone/contract';
import { insertFeeDay, insertPoolStats, saveValuation } from '@lodestone/db';
import type { Locator, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Site, startSite } from './harness.js';
import {
  HUGE_PROFIT_PER_PH,
  SENT_TXID,
  seedComparisons,
  seedHashers,
  seedHugeProfits,
  seedMarket,
  seedPayouts,
  seedScryptStats,
  seedSignedReceipt,
} from './publicSeed.js';

/**
 * The public pages (issue 7) against the real server and a real database: every figure the pages
 * show is seeded through the server's own modules and read back through the API. Failures and slow
 * answers are produced by holding or failing the browser's request (page.route); the app itself
 * never sees anything but real answers otherwise.
 */

/** A 500 as the server's error handler writes it. */
const serverError = (route: Route) =>
  route.fulfill({
    status: 500,
    contentType: 'application/json',
    body: '{"error":"Internal server error","code":"INTERNAL"}',
  });

/** Holds matching requests until `release()`; they then go to the real server. */
async function hold(page: Page, pattern: string): Promise<() => void> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(pattern, async (route) => {
    await gate;
    await route.continue();
  });
  return release;
}

/** Console errors a deliberately failed call leaves (the browser's and the query client's own log). */
const isExpectedFailureLog = (text: string) =>
  /status of (404|500)|API call .* failed|Signature verification failed|VIP application was not sent/.test(text);

const selectAlgorithm = (page: Page, name: string) =>
  page.addInitScript((n) => window.localStorage.setItem('selectedAlgorithm', n), name);

const robotState = (page: Page) => page.locator('altcha-widget [data-state]').getAttribute('data-state');

async function solveRobotCheck(page: Page): Promise<void> {
  await page.locator('altcha-widget label').first().click();
  await page.locator('altcha-widget [data-state="verified"]').waitFor({ timeout: 30_000 });
}

/**
 * Where a section sits after a scroll: its distance from the top of the viewport, or 'bottom' when
 * the page could not scroll further (a short last section never reaches the offset).
 */
const sectionTop = (page: Page, selector: string) =>
  page.locator(selector).evaluate((e) => {
    const atBottom = Math.abs(window.innerHeight + window.scrollY - document.documentElement.scrollHeight) < 2;
    return atBottom && e.getBoundingClientRect().top > 0 ? 'bottom' : Math.round(e.getBoundingClientRect().top);
  });

/**
 * What a chart's drawing shows at its edges, from a screenshot of it (canvas or SVG alike): per
 * column of pixels, how many differ from the background (ink), and the lightness (0..1) of the ink
 * in its 24 leftmost columns, where the y-axis labels are. A label cut off by the drawing's edge
 * leaves ink in the edge columns; a whole one ends inside.
 */
async function chartInk(page: Page, drawing: Locator): Promise<{ columns: number[]; axisLightness: number }> {
  const png = (await drawing.screenshot()).toString('base64');
  return page.evaluate(async (base64) => {
    const image = new Image();
    image.src = `data:image/png;base64,${base64}`;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.naturalWidth;
    canvas.height = image.naturalHeight;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2D context');
    context.drawImage(image, 0, 0);
    const { data, width, height } = context.getImageData(0, 0, canvas.width, canvas.height);
    const counts = new Map<number, number>();
    for (let i = 0; i < data.length; i += 4) {
      const key = ((data[i] ?? 0) << 16) | ((data[i + 1] ?? 0) << 8) | (data[i + 2] ?? 0);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const background = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
    const [br, bg, bb] = [(background >> 16) & 255, (background >> 8) & 255, background & 255];
    const columns = new Array<number>(width).fill(0);
    const axisInk: { distance: number; lightness: number }[] = [];
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = (y * width + x) * 4;
        const [r, g, b] = [data[i] ?? 0, data[i + 1] ?? 0, data[i + 2] ?? 0];
        const distance = Math.abs(r - br) + Math.abs(g - bg) + Math.abs(b - bb);
        if (distance <= 60) continue;
        columns[x] = (columns[x] ?? 0) + 1;
        if (x < 24) axisInk.push({ distance, lightness: (Math.max(r, g, b) + Math.min(r, g, b)) / 510 });
      }
    }
    // The glyphs' cores (the tenth of the ink farthest from the background) carry the text colour;
    // their edges are blended with the background.
    const cores = axisInk.sort((a, b) => b.distance - a.distance).slice(0, Math.max(1, axisInk.length / 10));
    const axisLightness = cores.reduce((sum, p) => sum + p.lightness, 0) / cores.length;
    return { columns, axisLightness };
  }, png);
}

/** The chart's y-axis labels are drawn (ink near the left) and none is cut by the left or right edge. */
async function expectWholeLabels(page: Page, chart: Locator): Promise<number> {
  const { columns, axisLightness } = await chartInk(page, chart.locator('canvas, svg').first());
  expect(columns.slice(0, 2), 'ink in the left edge columns: a y-axis label is cut off').toEqual([0, 0]);
  expect(columns.slice(-2), 'ink in the right edge columns: a label is cut off').toEqual([0, 0]);
  expect(columns.slice(0, Math.floor(columns.length / 4)).some((n) => n > 0)).toBe(true);
  return axisLightness;
}

describe('public pages with data', () => {
  let site: Site;
  let dataDir: string;
  let receipt: { text: string; signature: string };

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'lodestone-public-e2e-'));
    site = await startSite({ CAPTCHA_MAX_NUMBER: '1000', DATA_DIR: dataDir });
    await seedMarket(site);
    await seedScryptStats(site);
    await seedHugeProfits(site);
    await seedComparisons(site);
    await seedHashers(site);
    await seedPayouts(site);
    receipt = await seedSignedReceipt(site);
  });
  afterAll(async () => {
    await site?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  // ── Stats ───────────────────────────────────────────────────────────────────────────────────

  it('Stats shows the eight cells, the chart and both top-hasher tables of the selected algorithm', async () => {
    const { page, context, errors } = await site.newPage();
    await selectAlgorithm(page, 'SCRYPT');
    await page.goto('/stats');
    expect(await page.locator('h1').innerText()).toBe('Detailed Pool Statistics');
    const cell = (id: string) => page.getByTestId(id).innerText();
    await page.getByTestId('cell-hashrate').waitFor();
    expect(await cell('cell-hashrate')).toBe('2.50 Th/s');
    expect(await cell('cell-workers')).toBe('80');
    expect(await cell('cell-users')).toBe('1,234');
    expect(await cell('cell-blocks')).toBe('17');
    expect(await cell('cell-hashes')).toBe('987.7 PH');
    expect(await cell('cell-profit-avg')).toBe('0.00011 BTC/TH/s');
    expect(await cell('cell-profit')).toBe('0.00012 BTC/TH/s');
    expect(await cell('cell-profit-speed')).toBe('0.00012 BTC/TH/s');
    const labels = await page.getByTestId('stats-cells').locator('dt').allInnerTexts();
    expect(labels).toEqual([
      'Pool Hashrate',
      'Active Workers',
      'Registered users',
      'Blocks found',
      'Pool Total Hashes',
      'Average 24h profitability',
      'Current profitability',
      'High Speed Port profitability',
    ]);
    // The loaded flag is set once both calls answered, and only then the chart is drawn.
    await expect.poll(() => page.getByTestId('stats-page').getAttribute('data-loaded')).toBe('true');
    expect(await page.getByTestId('stats-chart').locator('figcaption').innerText()).toMatch(/^Hashrate \(/);
    expect(await page.getByTestId('stats-chart').locator('canvas').count()).toBe(1);
    await expectWholeLabels(page, page.getByTestId('stats-chart'));

    const current = page.getByTestId('top-current');
    await expect.poll(() => current.getByTestId('top-user').allInnerTexts()).toEqual(['bigminer', 'smallminer']);
    expect(await current.getByTestId('top-value').first().innerText()).toMatch(/^\d+\.\d{2} [KMGTPE]?h\/s$/);
    const allTime = page.getByTestId('top-all-time');
    expect(await allTime.getByTestId('top-user').allInnerTexts()).toEqual(['bigminer', 'smallminer']);
    expect(await allTime.getByTestId('top-value').first().innerText()).toMatch(/^\d+\.\d [KMGTPE]?H$/);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('Stats reloads when the algorithm changes in the nav', async () => {
    const { page, context, errors } = await site.newPage();
    await selectAlgorithm(page, 'SCRYPT');
    await page.goto('/stats');
    await expect.poll(() => page.getByTestId('cell-hashrate').innerText()).toBe('2.50 Th/s');
    await page.getByTestId('algorithm-selector').click();
    await page.getByTestId('algorithm-option-X11').click();
    await expect.poll(() => page.getByTestId('stats-algorithm').innerText()).toBe('X11');
    await expect.poll(() => page.getByTestId('cell-hashrate').innerText()).toBe('750.00 Kh/s');
    expect(await page.getByTestId('cell-workers').innerText()).toBe('4');
    expect(await page.getByTestId('cell-blocks').innerText()).toBe('2');
    expect(await page.getByTestId('top-current').innerText()).toContain('Nobody is mining this algorithm right now.');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('Stats refetches every 30 seconds', async () => {
    const { page, context } = await site.newPage();
    await selectAlgorithm(page, 'BLAKE2S');
    await page.clock.install();
    await page.goto('/stats');
    const workers = page.getByTestId('cell-workers');
    await expect.poll(() => workers.innerText()).toBe('0');
    await insertPoolStats(site.database.db, {
      algorithm: 'blake2s',
      taken_at: new Date(),
      hashrate: '1000000',
      miners: 5,
      workers: 6,
      profit: '0',
      profit_avg_24h: '0',
    });
    // Past the server's answer cache (POOL_DETAIL_CACHE_MS, 5 s) in real time: the server answers the new
    // row. The page's clock runs on meanwhile; past 6 s it would refetch before the check below.
    await vi.waitFor(
      async () => {
        const stats = (await (await fetch(`${site.baseUrl}/v1/pool/stats/blake2s`)).json()) as AlgorithmStatsResponse;
        expect(stats.workers).toBe(6);
      },
      { timeout: 5900, interval: 100 },
    );
    await page.clock.runFor(24_000);
    expect(await workers.innerText()).toBe('0');
    await page.clock.runFor(6_000);
    await expect.poll(() => workers.innerText()).toBe('6');
    await context.close();
  });

  it('Stats says when it is loading and when it failed', async () => {
    const { page, context, errors } = await site.newPage();
    await selectAlgorithm(page, 'SCRYPT');
    const release = await hold(page, '**/v1/pool/stats/scrypt');
    await page.goto('/stats');
    await page.getByTestId('stats-loading').waitFor();
    expect(await page.getByTestId('stats-chart-loading').innerText()).toBe('Loading hashrate chart…');
    expect(await page.getByTestId('stats-chart').count()).toBe(0);
    release();
    await page.getByTestId('cell-hashrate').waitFor();
    await page.unrouteAll();

    await page.route('**/v1/pool/stats/sha256', serverError);
    await page.getByTestId('algorithm-selector').click();
    await page.getByTestId('algorithm-option-SHA256').click();
    const failure = page.getByTestId('stats-error');
    await failure.waitFor({ timeout: 15_000 });
    expect(await failure.innerText()).toBe(
      'The pool statistics could not be loaded: Internal server error. Trying again every 30 seconds.',
    );
    expect(errors.filter((e) => !isExpectedFailureLog(e))).toEqual([]);
    await context.close();
  });

  // ── Profitability ─────────────────────────────────────────────────────────────────────────

  it('Profitability shows the 30-day chart and comparison by default, 10 rows a page, with arrows and colours', async () => {
    const { page, context, errors } = await site.newPage();
    await selectAlgorithm(page, 'SCRYPT');
    const chartCalls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/v1/pool/profits/scrypt/chart'))
        chartCalls.push(new URL(r.url()).searchParams.get('period') ?? '');
    });
    await page.goto('/profitability');
    expect(await page.locator('h1').innerText()).toBe('Mining Profitability');
    expect(await page.getByTestId('time-range').innerText()).toContain('30 days');
    await page.getByTestId('profit-chart').waitFor();
    expect(await page.getByTestId('profit-chart').locator('figcaption').innerText()).toBe('AVG Profit (BTC/TH/s)');
    expect(chartCalls.length).toBeGreaterThan(0);
    expect(chartCalls.every((p) => p === '30d')).toBe(true);

    const table = page.getByTestId('comparison-table');
    const rows = table.getByTestId('comparison-row');
    await expect.poll(() => rows.count()).toBe(10);
    expect(await table.locator('thead th').allInnerTexts()).toEqual([
      'POOL NAME',
      'POOL URL',
      'PROFITABILITY',
      'COMPARISON',
    ]);
    expect(await rows.getByTestId('pool-name').allInnerTexts()).toEqual([
      'Higher Pool',
      'Lodestone',
      'Equal Pool',
      'Lower Pool',
      'Pool A',
      'Pool B',
      'Pool C',
      'Pool D',
      'Pool E',
      'Pool F',
    ]);
    const row = (name: string) => rows.filter({ has: page.getByText(name, { exact: true }) });
    expect(await row('Higher Pool').getByTestId('profitability').innerText()).toBe('0.00013 BTC/TH/s');
    const higher = row('Higher Pool').getByTestId('comparison');
    expect(await higher.innerText()).toMatch(/^↑\s*5\.0%/);
    expect(await higher.getAttribute('data-direction')).toBe('up');
    expect(await higher.evaluate((e) => getComputedStyle(e).color)).toMatch(/^(rgb|oklch|color)/);
    const lower = row('Lower Pool').getByTestId('comparison');
    expect(await lower.innerText()).toMatch(/^↓\s*-10\.0%/);
    expect(await lower.getAttribute('data-direction')).toBe('down');
    const green = await higher.evaluate((e) => getComputedStyle(e).color);
    const red = await lower.evaluate((e) => getComputedStyle(e).color);
    expect(green).not.toBe(red);
    expect(await row('Equal Pool').getByTestId('comparison').innerText()).toMatch(/^→\s*0\.0%/);
    expect(await row('Lodestone').getByTestId('comparison').getAttribute('data-direction')).toBe('flat');
    expect(await row('Pool A').getByTestId('comparison').innerText()).toMatch(/-25\.0%/);

    expect(await page.getByTestId('comparison-page').innerText()).toBe('Page 1 of 2');
    await page.getByRole('navigation', { name: 'Pool comparison pages' }).getByRole('button', { name: 'Next' }).click();
    expect(await rows.getByTestId('pool-name').allInnerTexts()).toEqual(['Pool G', 'Pool H']);
    expect(await page.getByTestId('comparison-page').innerText()).toBe('Page 2 of 2');

    // 24h: the dropdown toggles, picking closes it and reloads chart and table for the period.
    await page.getByTestId('time-range').click();
    expect(await page.getByTestId('time-range').getAttribute('aria-expanded')).toBe('true');
    await page.getByTestId('time-range-24h').click();
    expect(await page.getByTestId('time-range').getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByTestId('time-range-24h').count()).toBe(0);
    await expect.poll(() => chartCalls.at(-1)).toBe('24h');
    await expect.poll(() => rows.getByTestId('pool-name').allInnerTexts()).toEqual(['Higher Pool', 'Lodestone']);
    expect(await page.getByTestId('comparison-page').innerText()).toBe('Page 1 of 1');
    expect(errors).toEqual([]);
    await context.close();
  });

  it("Profitability's chart: whole y-axis labels at a demo network's magnitude, hover and keyboard read-out, dark mode, a phone", async () => {
    const { page, context, errors } = await site.newPage();
    await selectAlgorithm(page, 'EAGLESONG');
    await page.goto('/profitability');
    const chart = page.getByTestId('profit-chart');
    await chart.locator('canvas, svg').first().waitFor();
    expect(await chart.locator('figcaption').innerText()).toBe('AVG Profit (BTC/PH/s)');
    const light = await expectWholeLabels(page, chart);

    // Hovering the last day (the 30 hours of data fall on the last two) reads out its date and value,
    // whole, with the unit.
    const readout = page.getByTestId('profit-chart-readout');
    expect(await readout.isVisible()).toBe(false);
    const drawing = chart.locator('canvas, svg').first();
    const box = await drawing.boundingBox();
    if (!box) throw new Error('the chart has no box');
    await page.mouse.move(box.x + box.width - 40, box.y + box.height / 3);
    await expect.poll(() => readout.isVisible()).toBe(true);
    expect(await readout.innerText()).toMatch(
      new RegExp(`^\\d{4}-\\d{2}-\\d{2}\\s+AVG Profit \\(BTC/PH/s\\): ${HUGE_PROFIT_PER_PH}\\.00000$`),
    );
    await page.mouse.move(box.x + box.width / 2, box.y + box.height + 60);
    await expect.poll(() => readout.isVisible()).toBe(false);
    // The keyboard reads the same: End on the focused chart is the newest point, ← the one before.
    const slider = chart.getByRole('slider');
    await slider.focus();
    await page.keyboard.press('End');
    await expect.poll(() => readout.isVisible()).toBe(true);
    expect(await readout.innerText()).toContain(`AVG Profit (BTC/PH/s): ${HUGE_PROFIT_PER_PH}.00000`);
    // The pool's 30 hours of rates fall on two or three days: the chart starts at the first of them, not
    // with 28 days of zeros (docs/decisions.md, Charts start at the first record); Home reads its first rate.
    const last = Number(await slider.getAttribute('aria-valuemax'));
    expect([1, 2]).toContain(last);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => slider.getAttribute('aria-valuenow')).toBe(String(last - 1));
    expect(await slider.getAttribute('aria-valuetext')).toMatch(/^\d{4}-\d{2}-\d{2}: AVG Profit/);
    await page.keyboard.press('Home');
    await expect.poll(() => slider.getAttribute('aria-valuenow')).toBe('0');
    expect(await slider.getAttribute('aria-valuetext')).toContain(`AVG Profit (BTC/PH/s): ${HUGE_PROFIT_PER_PH}.00000`);
    await slider.blur();
    await expect.poll(() => readout.isVisible()).toBe(false);

    // Dark mode: the chart is drawn again in the dark theme's lighter axis colours.
    await page.getByTestId('theme-toggle').click();
    await expect.poll(async () => (await expectWholeLabels(page, chart)) - light).toBeGreaterThan(0.1);

    // A 375 px phone: the chart is redrawn at the screen's width; nothing in it reaches past the
    // screen or scrolls sideways, and its labels stay whole.
    await page.setViewportSize({ width: 375, height: 800 });
    await expect.poll(async () => (await drawing.boundingBox())?.width ?? 0).toBeLessThan(375);
    const fit = await page.getByTestId('profit-chart-section').evaluate((section) => ({
      right: Math.max(...[section, ...section.querySelectorAll('*')].map((e) => e.getBoundingClientRect().right)),
      scrolls: section.scrollWidth > section.clientWidth,
    }));
    expect(fit).toEqual({ right: expect.any(Number), scrolls: false });
    expect(fit.right).toBeLessThanOrEqual(375);
    await expectWholeLabels(page, chart);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('Profitability hides the pool URL on small screens', async () => {
    const { page, context } = await site.newPage({ width: 375, height: 800 });
    await selectAlgorithm(page, 'SCRYPT');
    await page.goto('/profitability');
    const first = page.getByTestId('comparison-row').first();
    await first.waitFor();
    expect(await first.getByTestId('pool-url').isVisible()).toBe(false);
    expect(await first.getByTestId('comparison').isVisible()).toBe(true);
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect.poll(() => first.getByTestId('pool-url').isVisible()).toBe(true);
    expect(await first.getByTestId('pool-url').innerText()).toBe('https://higher-pool.example');
    await context.close();
  });

  it('the Mining Calculator shows results only after Calculate, with the hand-computed figures', async () => {
    const { page, context, errors } = await site.newPage();
    await selectAlgorithm(page, 'SCRYPT');
    await page.goto('/profitability');
    const form = page.getByTestId('calculator-form');
    await form.waitFor();
    const labels = await form.locator('label:not(.sr-only)').allInnerTexts();
    expect(labels).toEqual([
      'Hash Rate',
      'Hash Rate Unit',
      'Rate (BTC/TH/s)',
      'Power Usage (W)',
      'Fee (%)',
      'Energy Cost (USD/kWh)',
      'Result Units',
    ]);
    // The calculator's defaults (docs/website.md, Stats and Profitability); the Rate is the pool's profitability of the
    // last 24 hours.
    expect(await page.getByTestId('calc-hashrate').inputValue()).toBe('0');
    expect(await page.getByTestId('calc-rate').inputValue()).toBe('0.00012');
    expect(await page.getByTestId('calc-power').inputValue()).toBe('0');
    expect(await page.getByTestId('calc-fee').inputValue()).toBe('1');
    expect(await page.getByTestId('calc-energy').inputValue()).toBe('0.16');
    expect(await page.getByTestId('calc-hashrate').getAttribute('placeholder')).toBe('1000.0');
    expect(await page.getByTestId('calc-power').getAttribute('placeholder')).toBe('1200');
    expect(await page.getByTestId('calc-fee').getAttribute('step')).toBe('0.01');
    expect(await page.getByTestId('calc-energy').getAttribute('step')).toBe('0.00001');
    expect(await page.getByTestId('calc-unit').inputValue()).toBe('btc');
    expect(await page.getByTestId('calc-unit').locator('option').allInnerTexts()).toEqual([
      'btc',
      'ltc',
      'doge',
      'USD',
      'EUR',
    ]);
    expect(await page.getByTestId('calculator-disclaimer').innerText()).toMatch(/approximate and will change/);
    expect(await page.getByTestId('calculator-results').count()).toBe(0);

    // The Hash Rate starts in the unit SCRYPT machines report (an L9: 16 GH/s); the miner may pick another.
    const hashrateUnit = page.getByTestId('calc-hashrate-unit');
    expect(await hashrateUnit.locator('option:checked').innerText()).toBe('GH/s');
    expect(await hashrateUnit.locator('option').allInnerTexts()).toEqual([
      'H/s',
      'KH/s',
      'MH/s',
      'GH/s',
      'TH/s',
      'PH/s',
      'EH/s',
    ]);
    await hashrateUnit.selectOption({ label: 'TH/s' });
    await page.getByTestId('calc-hashrate').fill('10');
    await page.getByTestId('calc-power').fill('1200');
    expect(await page.getByTestId('calculator-results').count()).toBe(0);
    await page.getByTestId('calculate').click();
    const results = page.getByTestId('calculator-row');
    await expect.poll(() => results.count()).toBe(3);
    const table = async () =>
      results.evaluateAll((trs) =>
        trs.map((tr) => Array.from(tr.children, (c) => (c as HTMLElement).innerText.trim())),
      );
    // 10 TH/s × 0.00012 BTC/TH/s × 0.99 = 0.001188 BTC a day; 1.2 kW × 24 h × $0.16 = $4.608 = 0.00004608 BTC.
    expect(await table()).toEqual([
      ['24 Hours', '0.001188 btc', '0.000046 btc', '0.001142 btc'],
      ['7 Days', '0.008316 btc', '0.000323 btc', '0.007993 btc'],
      ['30 Days', '0.035640 btc', '0.001382 btc', '0.034258 btc'],
    ]);

    // A new unit takes effect at the next Calculate, not before.
    await page.getByTestId('calc-unit').selectOption('USD');
    expect((await table())[0]?.[1]).toBe('0.001188 btc');
    await page.getByTestId('calculate').click();
    await expect
      .poll(async () => (await table())[0])
      .toEqual(['24 Hours', '118.800000 USD', '4.608000 USD', '114.192000 USD']);
    await page.getByTestId('calc-unit').selectOption('EUR');
    await page.getByTestId('calculate').click();
    await expect.poll(async () => (await table())[0]?.[1]).toBe('110.000000 EUR');
    await page.getByTestId('calc-unit').selectOption('ltc');
    await page.getByTestId('calculate').click();
    await expect
      .poll(async () => (await table())[2])
      .toEqual(['30 Days', '44.550000 ltc', '1.728000 ltc', '42.822000 ltc']);

    // An empty field stops the form (the browser's own check); the results stay as they were.
    await page.getByTestId('calc-fee').fill('');
    await page.getByTestId('calculate').click();
    expect(await page.getByTestId('calc-fee').evaluate((e) => (e as HTMLInputElement).validity.valueMissing)).toBe(
      true,
    );
    expect((await table())[2]?.[1]).toBe('44.550000 ltc');
    expect(errors).toEqual([]);
    await context.close();
  });

  // ── Payouts ─────────────────────────────────────────────────────────────────────────────────

  it('Payouts draws three pies with per-ticker colours and USD totals, and pages the payouts', async () => {
    const { page, context, errors } = await site.newPage();
    await page.goto('/payouts');
    expect(await page.locator('h1').innerText()).toBe('Pool Payouts');
    const pie = (id: string) => page.getByTestId(`pie-${id}`);
    await expect.poll(() => pie('day').getByTestId('pie-total').innerText()).toBe('$1,700.00');
    expect(await pie('day').locator('h2').innerText()).toBe('24h Payouts');
    expect(await pie('month').locator('h2').innerText()).toBe('Last Month Payouts');
    expect(await pie('all_time').locator('h2').innerText()).toBe('All Time Payouts');
    // BTC 0.015 × $100,000 + LTC 2.5 (pending counts: the balance has left) × $80; + LTC 1 × $80; + DOGE 100 × $0.16.
    expect(await pie('month').getByTestId('pie-total').innerText()).toBe('$1,780.00');
    expect(await pie('all_time').getByTestId('pie-total').innerText()).toBe('$1,796.00');
    const colours = async (id: string) =>
      pie(id)
        .getByTestId('pie-slice')
        .evaluateAll((paths) => paths.map((p) => [p.getAttribute('data-ticker'), p.getAttribute('fill')]));
    expect(await colours('day')).toEqual([
      ['BTC', '#f7931a'],
      ['LTC', '#345d9d'],
    ]);
    expect(await colours('all_time')).toEqual([
      ['BTC', '#f7931a'],
      ['LTC', '#345d9d'],
      ['DOGE', '#c2a633'],
    ]);
    expect(await pie('all_time').getByTestId('pie-legend').innerText()).toContain('$16.00');

    const rows = page.getByTestId('payout-row');
    expect(await rows.count()).toBe(10);
    expect(await rows.first().getByTestId('payout-amount').innerText()).toBe('0.01500000 BTC');
    expect(await rows.first().getByTestId('payout-date').innerText()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    const link = rows.first().getByTestId('payout-txid').locator('a');
    expect(await link.innerText()).toMatch(/^9f2c41…6f7a8b/);
    expect(await link.getAttribute('href')).toBe(`https://mempool.space/tx/${SENT_TXID}`);
    expect(await link.getAttribute('target')).toBe('_blank');
    const pending = rows.nth(1).getByTestId('payout-txid');
    expect(await pending.innerText()).toBe('Pending...');
    expect(await pending.locator('em').count()).toBe(1);
    expect(await pending.locator('a').count()).toBe(0);
    expect(await rows.nth(1).getByTestId('payout-amount').innerText()).toBe('2.50000000 LTC');

    expect(await page.getByTestId('payouts-page-number').innerText()).toBe('Page 1 of 2');
    const pager = page.getByRole('navigation', { name: 'Payouts pages' });
    expect(await pager.getByRole('button', { name: 'Prev' }).isDisabled()).toBe(true);
    await pager.getByRole('button', { name: 'Next' }).click();
    expect(await rows.count()).toBe(3);
    expect(await pager.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
    expect(await rows.first().getByTestId('payout-amount').innerText()).toBe('10.00000000 DOGE');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('Payouts says when it is loading and when it failed', async () => {
    const { page, context, errors } = await site.newPage();
    const release = await hold(page, '**/v1/pool/payouts');
    await page.goto('/payouts');
    await page.getByTestId('payouts-loading').waitFor();
    release();
    await page.getByTestId('payout-row').first().waitFor();
    await page.unrouteAll();
    await page.route('**/v1/pool/payouts', serverError);
    await page.reload();
    await page.getByTestId('payouts-error').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('payout-row').count()).toBe(0);
    expect(await page.getByTestId('pie-day').getByTestId('pie-slice').count()).toBe(0);
    expect(errors.filter((e) => !isExpectedFailureLog(e))).toEqual([]);
    await context.close();
  });

  // ── FAQ ─────────────────────────────────────────────────────────────────────────────────────

  it('FAQ has 14 questions that toggle independently, panels of at most 300 px, and the fees by coin', async () => {
    const { page, context, errors } = await site.newPage();
    await page.goto('/faq');
    const questions = page.getByTestId('faq-question');
    await questions.first().waitFor();
    expect(await questions.count()).toBe(14);
    const item = (id: string) => page.getByTestId(`faq-${id}`);
    const expanded = (id: string) => item(id).getByTestId('faq-question').getAttribute('aria-expanded');
    const answerVisible = (id: string) => item(id).getByTestId('faq-answer').isVisible();

    expect(await answerVisible('start')).toBe(false);
    await item('start').getByTestId('faq-question').click();
    await item('reward').getByTestId('faq-question').click();
    expect([await expanded('start'), await expanded('reward')]).toEqual(['true', 'true']);
    expect(await answerVisible('start')).toBe(true);
    expect(await item('start').getByTestId('faq-answer').locator('a[href="/get-started"]').count()).toBe(1);
    await item('start').getByTestId('faq-question').click();
    expect([await expanded('start'), await expanded('reward')]).toEqual(['false', 'true']);
    expect(await answerVisible('start')).toBe(false);
    expect(await answerVisible('reward')).toBe(true);

    await item('fees').getByTestId('faq-question').click();
    const fees = item('fees').getByTestId('faq-fee-answer');
    await fees.getByTestId('fee-line').first().waitFor();
    expect(await fees.getByTestId('fee-line').first().innerText()).toMatch(/^BTC\s+1\.0%$/);
    expect(await fees.getByTestId('fee-line').allInnerTexts()).toSatisfy((lines: string[]) =>
      lines.every((l) => /^[A-Z]+\s+1\.0%$/.test(l)),
    );
    const maxHeight = await item('fees')
      .getByTestId('faq-answer')
      .evaluate((e) => getComputedStyle(e).maxHeight);
    expect(maxHeight).toBe('300px');

    // Ports come from the configured listeners (the defaults here), not from the page's text:
    // every algorithm's rentals go to its own ports, not SCRYPT's 3334 and 3332 (site order of algorithms).
    await item('nicehash').getByTestId('faq-question').click();
    const nicehash = item('nicehash').getByTestId('faq-answer');
    expect(await nicehash.getByTestId('faq-ports-marketplace').innerText()).toBe(
      'SCRYPT 3334, SHA256 3344, EAGLESONG 3364, BLAKE2S 3374, X11 3354, KHEAVYHASH 3384',
    );
    expect(await nicehash.getByTestId('faq-ports-xnsub').innerText()).toBe(
      'SCRYPT 3332, SHA256 3342, EAGLESONG 3362, BLAKE2S 3372, X11 3352, KHEAVYHASH 3382',
    );
    expect(errors).toEqual([]);
    await context.close();
  });

  it("FAQ's fee answer starts with 'Loading fees...' and says when the fees failed", async () => {
    const { page, context, errors } = await site.newPage();
    const release = await hold(page, '**/v1/pool/fees');
    await page.goto('/faq');
    const fees = page.getByTestId('faq-fees');
    await fees.getByTestId('faq-question').click();
    expect(await fees.getByTestId('faq-fee-answer').innerText()).toBe('Loading fees...');
    release();
    await fees.getByTestId('fee-line').first().waitFor();
    await page.unrouteAll();
    await page.route('**/v1/pool/fees', serverError);
    await page.reload();
    await fees.getByTestId('faq-question').click();
    await expect
      .poll(() => fees.getByTestId('faq-fee-answer').innerText(), { timeout: 15_000 })
      .toBe('Error loading fee data. Please try again later.');
    expect(errors.filter((e) => !isExpectedFailureLog(e))).toEqual([]);
    await context.close();
  });

  // ── Signature verification ──────────────────────────────────────────────────────────────────

  it('Signature verification: idle, verifying, valid and mismatch, by pasted text and by file', async () => {
    const { page, context, errors } = await site.newPage();
    const release = await hold(page, '**/v1/signatures/**');
    await page.goto(`/signature/${receipt.signature}`);
    const state = page.getByTestId('signature-state');
    await state.waitFor();
    expect(await state.getAttribute('data-state')).toBe('idle');
    // No nav and no footer on this page.
    expect(await page.getByTestId('site-nav').count()).toBe(0);
    expect(await page.getByTestId('site-footer').count()).toBe(0);
    await page.getByTestId('signature-text').fill(receipt.text);
    await page.getByTestId('signature-verify').click();
    await expect.poll(() => state.getAttribute('data-state')).toBe('verifying');
    expect(await page.getByTestId('signature-message').innerText()).toBe('Verifying…');
    release();
    await expect.poll(() => state.getAttribute('data-state')).toBe('valid');
    expect(await page.getByTestId('signature-message').innerText()).toBe('The signature is valid');
    expect(await page.getByTestId('signature-issued').innerText()).toContain('a payout receipt');

    await page.getByTestId('signature-text').fill(receipt.text.replace('0.015', '0.016'));
    await page.getByTestId('signature-verify').click();
    await expect.poll(() => state.getAttribute('data-state')).toBe('mismatch');
    expect(await page.getByTestId('signature-message').innerText()).toBe('The signature does not match');

    await page
      .getByTestId('signature-file')
      .setInputFiles({ name: 'receipt.txt', mimeType: 'text/plain', buffer: Buffer.from(receipt.text, 'utf8') });
    await expect.poll(() => state.getAttribute('data-state')).toBe('valid');
    await page
      .getByTestId('signature-file')
      .setInputFiles({ name: 'other.txt', mimeType: 'text/plain', buffer: Buffer.from('something else', 'utf8') });
    await expect.poll(() => state.getAttribute('data-state')).toBe('mismatch');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('Signature verification: an unknown signature ends in the error state', async () => {
    const { page, context, errors } = await site.newPage();
    await page.goto(`/signature/${'0'.repeat(64)}`);
    await page.getByTestId('signature-unknown').waitFor();
    await page.getByTestId('signature-text').fill(receipt.text);
    await page.getByTestId('signature-verify').click();
    const state = page.getByTestId('signature-state');
    await expect.poll(() => state.getAttribute('data-state')).toBe('error');
    expect(await page.getByTestId('signature-message').innerText()).toBe('An error occurred during verification.');
    expect(await state.innerText()).toContain('has no record of this signature');
    expect(errors.filter((e) => !isExpectedFailureLog(e))).toEqual([]);
    await context.close();
  });

  // ── VIP application ─────────────────────────────────────────────────────────────────────────

  it("VIP application: the form's messages, the robot check, then the application is stored", async () => {
    const { page, context, errors } = await site.newPage();
    await page.goto('/');
    await page.getByTestId('vip-open').click();
    const modal = page.getByTestId('vip-modal');
    await modal.waitFor();
    const dial = page.getByTestId('vip-dial');
    expect(await dial.inputValue()).toBe('0');
    expect(await dial.locator('option').allInnerTexts()).toEqual([
      'US +1',
      'UK +44',
      'Germany +49',
      'France +33',
      'Italy +39',
      'Spain +34',
      'Mexico +52',
      'Argentina +54',
      'Colombia +57',
      'Chile +56',
      'Portugal +351',
      'Australia +61',
      'Canada +1',
      'Brazil +55',
      'Japan +81',
      'China +86',
      'India +91',
    ]);
    const error = (field: string) => modal.getByTestId(`vip-error-${field}`);
    await page.getByTestId('vip-submit').click();
    expect(await error('name').innerText()).toBe('Name is required.');
    expect(await error('email').innerText()).toBe('Invalid email format.');
    expect(await error('operations').innerText()).toBe('Hashrate is required.');
    expect(await error('phone').count()).toBe(0);

    await modal.getByLabel('Name').fill('Jane Miner');
    await modal.getByLabel('Email').fill('jane@example');
    await modal.getByLabel('Mobile (optional)').fill('12ab');
    await modal.getByLabel('Hashrate').fill('SCRYPT: 40 machines, 640 GH/s');
    await page.getByTestId('vip-submit').click();
    expect(await error('email').innerText()).toBe('Invalid email format.');
    expect(await error('phone').innerText()).toBe('Enter a valid phone number (7–15 digits only).');
    expect(await error('name').count()).toBe(0);

    // Fields valid, robot check not done: its message, and nothing is sent.
    await modal.getByLabel('Email').fill('jane@example.com');
    await dial.selectOption({ label: 'UK +44' });
    await modal.getByLabel('Mobile (optional)').fill('7911 123456');
    await page.getByTestId('vip-submit').click();
    expect(await modal.getByTestId('form-error').innerText()).toBe('Please verify you are not a robot.');

    await solveRobotCheck(page);
    await page.getByTestId('vip-submit').click();
    const success = modal.getByTestId('form-success');
    await success.waitFor();
    expect(await success.innerText()).toBe('Application sent, we will contact you very soon!');
    expect(await success.evaluate((e) => getComputedStyle(e).color)).not.toBe(
      await page.evaluate(() => getComputedStyle(document.body).color),
    );
    await expect.poll(() => robotState(page)).toBe('unverified');
    const stored = await site.database.db.selectFrom('vip_applications').selectAll().execute();
    expect(stored.map((a) => [a.name, a.email, a.phone, a.operations])).toEqual([
      ['Jane Miner', 'jane@example.com', '+44 7911123456', 'SCRYPT: 40 machines, 640 GH/s'],
    ]);

    // Escape closes the modal.
    await page.keyboard.press('Escape');
    await expect.poll(() => modal.count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("VIP application: a failed send shows 'Network or server error.' in red", async () => {
    const { page, context, errors } = await site.newPage();
    await page.route('**/v1/email/hashrate', serverError);
    await page.goto('/');
    await page.getByTestId('vip-open').click();
    const modal = page.getByTestId('vip-modal');
    await modal.getByLabel('Name').fill('Joe');
    await modal.getByLabel('Email').fill('joe@example.com');
    await modal.getByLabel('Hashrate').fill('SHA256: 2 PH/s');
    await solveRobotCheck(page);
    await page.getByTestId('vip-submit').click();
    const failure = modal.getByTestId('form-error');
    await failure.waitFor();
    expect(await failure.innerText()).toBe('Network or server error.');
    expect(await failure.evaluate((e) => getComputedStyle(e).color)).toMatch(/^(rgb|oklch|color)/);
    expect(await failure.getAttribute('class')).toMatch(/text-red/);
    expect(errors.filter((e) => !isExpectedFailureLog(e))).toEqual([]);
    await context.close();
  });

  // ── API docs ────────────────────────────────────────────────────────────────────────────────

  it('API docs: /api goes to /overview; the sidebar folds its Endpoints group', async () => {
    const { page, context, errors } = await site.newPage();
    await page.goto('/api');
    await page.waitForURL('**/overview');
    await page.getByTestId('api-overview').waitFor();
    // The base URL is the OpenAPI document's server once the document has loaded (until then the
    // page's own origin stands in): read it after the description, which comes from the same document.
    await page.getByTestId('api-description').waitFor();
    expect(await page.getByTestId('api-base-url').innerText()).toBe('http://localhost:8080/v1');
    const sidebar = page.getByTestId('api-docs-sidebar');
    expect(await sidebar.getByRole('link').allInnerTexts()).toEqual([
      'Overview',
      'Get Pool Data',
      'Get Pools Profits',
      'Get User Data',
    ]);
    await page.getByTestId('api-docs-endpoints').click();
    expect(await page.getByTestId('api-docs-endpoints').getAttribute('aria-expanded')).toBe('false');
    expect(await sidebar.getByRole('link', { name: 'Get Pool Data' }).isVisible()).toBe(false);
    await page.getByTestId('api-docs-endpoints').click();
    await sidebar.getByRole('link', { name: 'Get Pools Profits' }).click();
    await page.waitForURL('**/endpoints/get-pools-profits');
    await page.getByTestId('api-response-example').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('API docs: examples and fields are those of the published OpenAPI document', async () => {
    const { page, context, errors } = await site.newPage();
    const document = (await (await fetch(`${site.baseUrl}/v1/openapi.json`)).json()) as {
      paths: Record<
        string,
        { get: { responses: { '200': { content: { 'application/json': { example: unknown } } } } } }
      >;
    };
    for (const [route, path] of [
      ['get-pool-data', '/v1/api/pool'],
      ['get-pools-profits', '/v1/api/profits'],
      ['get-user-data', '/v1/api/user'],
    ] as const) {
      await page.goto(`/endpoints/${route}`);
      await page.getByTestId('api-response-example').waitFor();
      expect(await page.getByTestId('api-path').innerText()).toBe(path);
      const example = document.paths[path]?.get.responses['200'].content['application/json'].example;
      expect(JSON.parse(await page.getByTestId('api-response-example').innerText())).toEqual(example);
    }
    // The last page: the user data call and its key.
    expect(await page.getByTestId('api-curl').innerText()).toBe(
      'curl -s "http://localhost:8080/v1/api/user?apiKey=YOUR_API_KEY"',
    );
    expect(await page.getByTestId('api-parameters').innerText()).toContain('apiKey');
    // A wrong key: the status the document gives (404), never a hand-written one (it said 401).
    expect(await page.getByTestId('api-refusal-404').innerText()).toContain('No account has this API key');
    expect(await page.getByTestId('api-endpoint').innerText()).not.toMatch(/\b401\b/);
    const fields = await page.getByTestId('api-field').locator('td:first-child').allInnerTexts();
    expect(fields).toContain('hashrate.{scrypt|sha256|eaglesong|blake2s|x11|kheavyhash}.active_workers');
    expect(fields).toContain('payments[].txID');

    await page.goto('/endpoints/get-pool-data');
    await page.getByTestId('api-fields').waitFor();
    expect(await page.getByTestId('api-no-parameters').innerText()).toBe('None.');
    expect(await page.getByTestId('api-field').locator('td:first-child').allInnerTexts()).toContain(
      'algorithms.{scrypt|sha256|eaglesong|blake2s|x11|kheavyhash}.BTCpayRate',
    );
    expect(JSON.parse(await page.getByTestId('api-error-example').innerText())).toMatchObject({
      code: expect.any(String),
    });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('API docs: the sidebar is a menu on phones', async () => {
    const { page, context } = await site.newPage({ width: 390, height: 800 });
    await page.goto('/overview');
    const sidebar = page.getByTestId('api-docs-sidebar');
    await page.getByTestId('api-docs-menu').waitFor();
    expect(await sidebar.isVisible()).toBe(false);
    await page.getByTestId('api-docs-menu').click();
    expect(await sidebar.isVisible()).toBe(true);
    await sidebar.getByRole('link', { name: 'Get User Data' }).click();
    await page.waitForURL('**/endpoints/get-user-data');
    await expect.poll(() => sidebar.isVisible()).toBe(false);
    await context.close();
  });

  // ── static pages ────────────────────────────────────────────────────────────────────────────

  it('Lottery: countdown, three ranked teams with paged players, the graph and eight feed cards', async () => {
    const { page, context, errors } = await site.newPage();
    await page.goto('/lottery');
    await page.getByTestId('lottery-page').waitFor();
    expect(await page.getByTestId('lottery-countdown').innerText()).toBe('3 days 14 hours');
    expect(await page.getByTestId('lottery-target').getAttribute('datetime')).toBe('2025-01-20');
    expect(await page.getByTestId('lottery-page').innerText()).toContain('1 Bitcoin');
    expect(await page.getByTestId('lottery-sample-notice').isVisible()).toBe(true);
    for (const position of [1, 2, 3]) expect(await page.getByTestId(`team-${position}`).isVisible()).toBe(true);
    const first = page.getByTestId('team-1');
    expect(await first.getByRole('img').getAttribute('aria-label')).toBe('Gold medal, position 1');
    expect(await first.getByTestId('team-user').count()).toBe(10);
    await first.getByRole('button', { name: 'Next' }).click();
    expect(await first.getByTestId('team-user').count()).toBe(2);
    // The graph: three teams' lines on one chart, a legend, and a read-out of all three on hover.
    const graph = page.getByTestId('lottery-graph');
    expect(await graph.locator('figure li').allInnerTexts()).toHaveLength(3);
    const drawing = graph.locator('canvas');
    await drawing.waitFor();
    await expectWholeLabels(page, graph);
    const box = await drawing.boundingBox();
    if (!box) throw new Error('the graph has no box');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const readout = page.getByTestId('lottery-chart-readout');
    await expect.poll(() => readout.isVisible()).toBe(true);
    expect((await readout.innerText()).split('\n').filter(Boolean)).toHaveLength(4);
    expect(await page.getByTestId('feed-card').count()).toBe(8);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("Sats4Soup: the contributions' states and progress, and 'Donate Now' scrolls to the donation section", async () => {
    const { page, context, errors } = await site.newPage({ width: 1280, height: 500 });
    await page.goto('/sats4soup');
    await page.getByTestId('sats4soup-page').waitFor();
    expect(await page.getByTestId('donation-progress').innerText()).toBe('0/2 completed');
    const cards = page.getByTestId('contribution');
    expect(await cards.count()).toBe(2);
    expect(await cards.getByTestId('contribution-status').allInnerTexts()).toEqual(['Pending', 'Pending']);
    expect(await cards.getByTestId('contribution-amount').allInnerTexts()).toEqual(['0.0461475 BTC', '0.0357209 BTC']);
    expect(await cards.first().innerText()).toContain('Link will appear here');
    expect(await page.getByTestId('impact').innerText()).toContain('19,300+');
    await page.getByTestId('donate-now').click();
    await expect.poll(() => sectionTop(page, '#donate')).toBe(70);
    expect(await page.getByRole('link', { name: 'Join The Pool' }).getAttribute('href')).toBe('/get-started');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('Power bridge: five feature cards, contacts from the configuration, buttons scroll with a 50 px offset', async () => {
    const { page, context, errors } = await site.newPage({ width: 1280, height: 500 });
    await page.goto('/powerbridge');
    await page.getByTestId('feature-card').first().waitFor();
    expect(await page.getByTestId('feature-card').locator('h3').allInnerTexts()).toEqual([
      'Zero Stale Shares',
      'Traffic Optimization',
      'Universal Compatibility',
      'Enterprise Security',
      'Instant Setup',
    ]);
    const contacts = page.getByTestId('contacts');
    await contacts.waitFor();
    // A default install: every contact is still the built-in placeholder, so each says which
    // setting configures it, and no made-up address or number is shown or linked.
    const text = await contacts.innerText();
    for (const setting of ['PHONE_EU', 'PHONE_US', 'CHAT_HANDLE', 'SUPPORT_EMAIL']) {
      expect(text).toContain(`not configured (${setting})`);
    }
    expect(text).not.toContain('example.com');
    expect(text).not.toContain('000 000');
    expect(await contacts.locator('a').count()).toBe(0);
    await page.getByTestId('view-specifications').click();
    await expect.poll(() => sectionTop(page, '#features')).toBe(50);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByTestId('start-mining-smarter').click();
    // The contact section is the last one: it stops 50 px from the top, or the page's end comes first.
    await expect.poll(() => sectionTop(page, '#contact')).toSatisfy((top) => top === 50 || top === 'bottom');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('Terms and Privacy state the pool rules', async () => {
    const { page, context, errors } = await site.newPage();
    await page.goto('/terms');
    await page.getByTestId('terms-page').waitFor();
    expect(await page.locator('h1').innerText()).toBe('Terms of Service');
    expect(await page.getByTestId('terms-page').innerText()).toMatch(/pay-per-share \(PPS\)/);
    expect(await page.getByTestId('terms-unpaid-shares').innerText()).toBe(
      'Stale shares and invalid shares are not paid.',
    );
    expect(await page.getByTestId('terms-inactive').innerText()).toBe(
      'Accounts that have been inactive for 365 days may be deleted; any balance remaining on a deleted account is donated to the pool.',
    );
    await page.goto('/privacy');
    await page.getByTestId('privacy-page').waitFor();
    expect(await page.locator('h1').innerText()).toBe('Privacy Policy');
    await expect
      .poll(() => page.getByTestId('privacy-page').innerText())
      .toContain('support e-mail (not configured yet: SUPPORT_EMAIL)');
    expect(await page.getByTestId('privacy-page').innerText()).not.toContain('support@example.com');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('/logo shows the mark without nav and footer', async () => {
    const { page, context, errors } = await site.newPage();
    await page.goto('/logo');
    await page.getByTestId('logo-page').waitFor();
    expect(await page.getByTestId('site-nav').count()).toBe(0);
    expect(await page.getByTestId('site-footer').count()).toBe(0);
    expect(await page.getByTestId('logo-page').locator('svg[role="img"]').count()).toBe(2);
    expect(await page.getByTestId('logo-download').getAttribute('href')).toBe('/favicon.svg');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('every public route renders its own content with no console errors', async () => {
    const routes: [string, string][] = [
      ['/', 'pool-table'],
      ['/stats', 'stats-cells'],
      ['/profitability', 'comparison-table'],
      ['/payouts', 'payouts-table'],
      ['/faq', 'faq-page'],
      ['/lottery', 'lottery-page'],
      ['/get-started', 'get-started'],
      ['/privacy', 'privacy-page'],
      ['/terms', 'terms-page'],
      [`/signature/${receipt.signature}`, 'signature-issued'],
      ['/logo', 'logo-page'],
      ['/powerbridge', 'contacts'],
      ['/sats4soup', 'sats4soup-page'],
      ['/api', 'api-overview'],
      ['/overview', 'api-description'],
      ['/endpoints/get-pool-data', 'api-fields'],
      ['/endpoints/get-pools-profits', 'api-fields'],
      ['/endpoints/get-user-data', 'api-fields'],
      ['/login', 'robot-check'],
      ['/register', 'robot-check'],
      ['/forgotPassword', 'robot-check'],
    ];
    const { page, context, errors } = await site.newPage();
    for (const [route, testId] of routes) {
      await page.goto(route);
      await page.getByTestId(testId).first().waitFor();
      await page.waitForLoadState('networkidle');
      expect(errors, route).toEqual([]);
    }
    await context.close();
  });
});

describe('public pages of a new pool (no data yet)', () => {
  let site: Site;

  beforeAll(async () => {
    site = await startSite();
  });
  afterAll(() => site?.close());

  it('Payouts: empty pies with $0.00 and an empty table', async () => {
    const { page, context, errors } = await site.newPage();
    await page.goto('/payouts');
    await page.getByTestId('payouts-table').getByText('No payouts yet.').waitFor();
    for (const id of ['day', 'month', 'all_time']) {
      expect(await page.getByTestId(`pie-${id}`).getByTestId('pie-total').innerText()).toBe('$0.00');
      expect(await page.getByTestId(`pie-${id}`).getByTestId('pie-empty').innerText()).toBe(
        'No payouts in this period.',
      );
    }
    expect(await page.getByTestId('payouts-page-number').innerText()).toBe('Page 1 of 1');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('Stats: zeros and empty top-hasher tables', async () => {
    const { page, context, errors } = await site.newPage();
    await page.goto('/stats');
    await expect.poll(() => page.getByTestId('cell-hashrate').innerText()).toBe('0.00 H/s');
    expect(await page.getByTestId('top-current').innerText()).toContain('Nobody is mining this algorithm right now.');
    expect(await page.getByTestId('top-all-time').innerText()).toContain('No shares on this algorithm yet.');
    await page.getByTestId('stats-chart').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('Profitability: our own row only, nothing to compare with yet', async () => {
    const { page, context, errors } = await site.newPage();
    await page.goto('/profitability');
    const rows = page.getByTestId('comparison-row');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(1);
    expect(await rows.first().getByTestId('comparison').innerText()).toBe('—');
    // Without recorded prices the calculator says which fallback it uses.
    await page.getByTestId('calculator-form').waitFor();
    expect(await page.getByTestId('calculator-note').first().innerText()).toMatch(/1 BTC = 100,000 USD/);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('the FAQ of a pool paying Litecoin by FPPS (docs/money.md, "FPPS")', () => {
  let site: Site;
  const AT = new Date('2026-11-30T12:00:00Z');
  const COINS = [
    {
      ticker: 'LTC',
      algorithm: 'scrypt',
      daemons: ['http://u:p@127.0.0.1:1/'],
      pool_address: 'x',
      payout_scheme: 'fpps',
      merged: [{ ticker: 'DOGE', chain_id: 98, daemons: ['http://u:p@127.0.0.1:2/'], pool_address: 'y' }],
    },
  ];

  beforeAll(async () => {
    site = await startSite({ COINS: JSON.stringify(COINS) });
    const db = site.database.db;
    // The fee job's reading and one credit valued with it, as the jobs role writes them.
    const feeDayId = await insertFeeDay(db, {
      coin: 'LTC',
      computedAt: AT,
      from: new Date(AT.getTime() - 86_400_000),
      to: AT,
      day: { from: AT, to: AT, blocks: 576, firstHeight: 2_900_001, lastHeight: 2_900_576, totalFees: 123_456_789n },
    });
    await saveValuation(db, {
      creditId: '00000000-0000-4000-8000-00000000f995',
      coin: 'LTC',
      scheme: 'fpps',
      blockValue: '625214334.703125',
      blockFees: '214334.703125',
      networkDifficulty: '30000000',
      feeDayId,
      fallback: undefined,
      valuedAt: AT,
    });
  });
  afterAll(() => site?.close());

  for (const width of [1366, 375]) {
    it(`says at ${width} px which coins are paid by FPPS, with the network's average fees of the day`, async () => {
      const { page, context, errors } = await site.newPage({ width });
      await page.goto('/faq');
      const reward = page.getByTestId('faq-reward');
      await reward.getByTestId('faq-question').click();
      const lines = reward.getByTestId('scheme-line');
      await expect.poll(() => lines.count()).toBe(2);
      const texts = await lines.allInnerTexts();
      expect(texts[0]).toBe(
        "LTC (SCRYPT): FPPS — the block subsidy plus 0.00214334 LTC, the network's average fees per block over the " +
          'last 24 hours (576 blocks, 2,900,001 to 2,900,576).',
      );
      expect(texts[1]).toBe('DOGE (SCRYPT, merge-mined with LTC): PPS');
      expect(await reward.getByTestId('faq-schemes').innerText()).toContain('FPPS pays the block subsidy plus');

      // The same on the payouts page, and on the profitability page of the algorithm chosen.
      await page.goto('/payouts');
      const payouts = page.getByTestId('payouts-schemes').getByTestId('scheme-line');
      await expect.poll(() => payouts.allInnerTexts()).toEqual(texts);
      await page.evaluate(() => window.localStorage.setItem('selectedAlgorithm', 'SHA256'));
      const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/v1/pool/schemes');
      await page.goto('/profitability');
      await answered;
      // No coin of SHA256 is mined here: once the answer is drawn, nothing is said about it.
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      expect(await page.getByTestId('profitability-algorithm').innerText()).toBe('SHA256');
      expect(await page.getByTestId('profitability-schemes').count()).toBe(0);
      await page.evaluate(() => window.localStorage.setItem('selectedAlgorithm', 'SCRYPT'));
      await page.goto('/profitability');
      const profitability = page.getByTestId('profitability-schemes').getByTestId('scheme-line');
      await expect.poll(() => profitability.allInnerTexts()).toEqual(texts);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
