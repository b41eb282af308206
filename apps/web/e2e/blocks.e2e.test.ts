import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BlocksSeed, type SeededBlock, seedBlocks } from './blocksSeed.js';
import { type Site, startSite } from './harness.js';
import { expectFits, VIEWPORTS } from './layout.js';

/**
 * The Blocks page and the stats page's Network section (issue 28) against the real server and a real
 * database: share batches and found blocks go through the accounting job and the block recorder, so
 * every effort and luck figure comes from the real round accounting, and is checked against a case
 * worked out by hand (blocksSeed.ts). Each test runs on a laptop (1366 × 800) and on a phone (375 × 800).
 */

const selectAlgorithm = (page: Page, name: string) =>
  page.addInitScript((n) => window.localStorage.setItem('selectedAlgorithm', n), name);

/** Text as a reader sees it, on one line. */
const text = async (locator: Locator) => (await locator.innerText()).replace(/\s+/g, ' ').trim();
const texts = async (locator: Locator) => (await locator.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
/** A coloured percent without the words screen readers get after it ("95.0% (lucky)"). */
const figures = async (locator: Locator) =>
  (await texts(locator)).map((t) => t.replace(/ \((lucky|unlucky|as expected)\)$/, ''));

/** "2026-05-06 11:50": the site's way of writing an instant, in the browser's time zone. */
function siteTime(ms: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(ms));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}`;
}

/** With BLOCKS_SHOTS=<folder>, the whole page is also saved, in screenshots 900 px high, to look at by eye. */
async function shot(page: Page, name: string): Promise<void> {
  const folder = process.env.BLOCKS_SHOTS;
  if (!folder) return;
  const { width, height } = await page.evaluate(() => ({
    width: document.documentElement.clientWidth,
    height: document.documentElement.scrollHeight,
  }));
  for (let y = 0; y < height; y += 900) {
    await page.screenshot({
      path: `${folder}/${name}-${y}.png`,
      fullPage: true,
      clip: { x: 0, y, width, height: Math.min(900, height - y) },
    });
  }
}

describe('blocks and luck', () => {
  let site: Site;
  let seed: BlocksSeed;

  beforeAll(async () => {
    site = await startSite();
    seed = await seedBlocks(site);
  });
  afterAll(async () => {
    await site?.close();
  });

  describe.each(VIEWPORTS)('the Blocks page on a $name ($width px)', ({ width, height }) => {
    async function open(url: string) {
      const opened = await site.newPage({ width, height });
      await selectAlgorithm(opened.page, 'SCRYPT');
      await opened.page.goto(url);
      const zone = await opened.page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
      return { ...opened, zone };
    }

    /** The rows of the table as the page shows them, against the seeded blocks. */
    async function expectRows(page: Page, blocks: SeededBlock[], zone: string, explorer: string | null) {
      const rows = page.getByTestId('block-row');
      await expect.poll(() => rows.count()).toBe(blocks.length);
      // A solo block's height carries its "Solo" badge, and only a solo block's.
      expect(await texts(rows.getByTestId('block-height'))).toEqual(
        blocks.map((b) => (b.solo ? `${b.height} Solo` : String(b.height))),
      );
      expect(
        await rows.evaluateAll((r) => r.map((row) => row.querySelectorAll('[data-testid="block-solo"]').length)),
      ).toEqual(blocks.map((b) => (b.solo ? 1 : 0)));
      expect(await texts(rows.getByTestId('block-found'))).toEqual(blocks.map((b) => siteTime(b.foundAt, zone)));
      expect(await texts(rows.getByTestId('block-reward'))).toEqual(blocks.map((b) => b.reward));
      expect(await texts(rows.getByTestId('block-status'))).toEqual(blocks.map((b) => b.status));
      expect(await figures(rows.getByTestId('block-effort'))).toEqual(blocks.map((b) => b.effort));
      // The whole hash is the title of its shortened form, and the explorer's link when there is one.
      for (const [i, block] of blocks.entries()) {
        const cell = rows.nth(i).getByTestId('block-hash');
        expect(await cell.locator(`[title="${block.hash}"]`).count()).toBe(1);
        const link = cell.getByTestId('block-link');
        if (explorer === null) {
          expect(await link.count()).toBe(0);
          continue;
        }
        expect(await link.getAttribute('href')).toBe(`${explorer}${block.hash}`);
        expect(await link.getAttribute('target')).toBe('_blank');
        expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
      }
    }

    it("shows LTC's network, its round, its luck and its blocks as the database holds them", async () => {
      const { page, context, errors, zone } = await open('/blocks');
      expect(await page.locator('h1').innerText()).toBe('Pool Blocks');
      expect(await page.title()).toMatch(/^Pool Blocks/);
      await page.getByTestId('block-row').first().waitFor();
      expect(await page.getByTestId('blocks-algorithm').innerText()).toBe('SCRYPT');

      // The chains: the algorithm's own coin first, then the merge-mined ones, each with its count.
      const tabs = page.getByTestId('chain-tabs').locator('a');
      // LTC's count holds its solo block too: a block found through the pool, if not the pool's own.
      expect(await texts(tabs)).toEqual(['LTC 5 blocks', 'BELLS merge-mined 27 blocks', 'DOGE merge-mined 2 blocks']);
      expect(await page.getByTestId('chain-LTC').getAttribute('aria-current')).toBe('page');

      // The network as the newest batch saw it: 30,000,000 × 2^16 hashes ÷ 150 s = 13.11 Gh/s.
      expect(await text(page.getByTestId('network-height'))).toBe('2800000');
      expect(await text(page.getByTestId('network-difficulty'))).toBe('30,000,000');
      expect(await text(page.getByTestId('network-hashrate'))).toBe('13.11 Gh/s');
      expect(await text(page.getByTestId('network-reward'))).toBe('6.25000000 LTC');

      // The open round: 7,500,000 ÷ 30,000,000 since the newest LTC pool block (the solo block after it closed
      // nothing, and its solo work is not in it).
      expect(await text(page.getByTestId('round-effort'))).toBe('25.0%');
      expect(await text(page.getByTestId('blocks-luck'))).toContain(`since ${siteTime(seed.ltcRoundStart, zone)}`);
      // Luck by hand: 24 h, 120 % and 30 %; 7 and 30 days, also the orphaned block's 60 %; the solo block's 50 % in
      // none of them, as the page says under the figures.
      const luck = page.getByTestId('luck-row');
      expect(await texts(luck.getByTestId('luck-period'))).toEqual(['24 hours', '7 days', '30 days']);
      expect(await figures(luck.getByTestId('luck-luck'))).toEqual(['133.3%', '142.9%', '142.9%']);
      expect(await figures(luck.getByTestId('luck-effort'))).toEqual(['75.0%', '70.0%', '70.0%']);
      expect(await texts(luck.getByTestId('luck-blocks'))).toEqual(['2', '3', '3']);
      expect(await text(page.getByTestId('luck-solo-note'))).toContain(
        "Blocks marked Solo were found on a solo port. Each is its finder's own work and reward, so it counts neither in the pool's luck nor in its round",
      );

      await expectRows(page, seed.ltc, zone, 'https://litecoinspace.org/block/');

      // What the page shows is what the database holds.
      const stored = await site.database.db
        .selectFrom('blocks')
        .select(['height', 'hash', 'reward', 'status', 'solo'])
        .where('coin', '=', 'LTC')
        .orderBy('found_at', 'desc')
        .execute();
      expect(stored.map((b) => [String(b.height), b.hash, b.reward, b.status, b.solo])).toEqual([
        ['2799990', seed.ltc[0]?.hash, '625000000', 'pending', true],
        ['2799975', seed.ltc[1]?.hash, '625000000', 'pending', false],
        ['2799950', seed.ltc[2]?.hash, '625012345', 'pending', false],
        ['2798800', seed.ltc[3]?.hash, '625000000', 'orphaned', false],
        ['2783000', seed.ltc[4]?.hash, '625000000', 'confirmed', false],
      ]);

      // Below 100 % reads lucky (green), above unlucky (red).
      const efforts = page.getByTestId('block-effort');
      expect(await efforts.evaluateAll((e) => e.map((x) => x.getAttribute('data-tone')))).toEqual([
        'lucky',
        'lucky',
        'unlucky',
        'lucky',
        'unlucky',
      ]);
      const colour = (i: number) => efforts.nth(i).evaluate((e) => getComputedStyle(e).color);
      expect(await colour(1)).toBe(await colour(3));
      expect(await colour(1)).not.toBe(await colour(2));
      expect(await colour(2)).toBe(await colour(4));

      expect(await page.getByTestId('blocks-page-number').innerText()).toBe('Page 1 of 1');
      expect(await page.getByTestId('blocks-demo-note').count()).toBe(0);
      await expectFits(page, width, page.locator('[data-testid="block-row"] > *'));
      // On a phone each block is a card; on a laptop a table row.
      const display = await page
        .getByTestId('block-row')
        .first()
        .evaluate((e) => getComputedStyle(e).display);
      expect(display).toBe(width < 768 ? 'block' : 'table-row');
      await shot(page, `blocks-ltc-${width}`);
      // The hash gives way in the middle: its box is narrower than the 64 characters it holds.
      const hash = page.getByTestId('block-hash').first().locator('[title]').first();
      expect(await hash.evaluate((e) => e.scrollWidth > e.clientWidth || e.clientWidth < 300)).toBe(true);
      expect(errors).toEqual([]);
      await context.close();
    });

    it('marks the solo block "Solo", readable beside its height, and says solo blocks are not in the luck', async () => {
      const { page, context, errors } = await open('/blocks');
      const solo = page.getByTestId('block-row').filter({ has: page.getByTestId('block-solo') });
      await expect.poll(() => solo.count()).toBe(1);
      const badge = solo.getByTestId('block-solo');
      expect(await badge.innerText()).toBe('Solo');
      expect(await badge.getAttribute('title')).toBe('Found on a solo port: the reward goes to its finder');
      expect(await text(solo.getByTestId('block-height'))).toBe('2799990 Solo');
      expect(await figures(solo.getByTestId('block-effort'))).toEqual(['50.0%']);
      // The badge is whole and on the screen: not cut, not squeezed, on one line, at the site's small text size.
      const box = await badge.evaluate((e) => {
        const r = e.getBoundingClientRect();
        return {
          left: r.left,
          right: r.right,
          height: r.height,
          clipped: e.scrollWidth > e.clientWidth,
          fontSize: Number.parseFloat(getComputedStyle(e).fontSize),
          lineHeight: Number.parseFloat(getComputedStyle(e).lineHeight),
        };
      });
      expect(box.left).toBeGreaterThanOrEqual(0);
      expect(box.right).toBeLessThanOrEqual(width);
      expect(box.clipped).toBe(false);
      expect(box.fontSize).toBeGreaterThanOrEqual(12);
      expect(box.height).toBeLessThan(box.lineHeight * 2);
      // On a phone the badge heads the block's card with its height; on a laptop it sits in the Height column.
      const heightBox = await solo.getByTestId('block-height').boundingBox();
      const badgeBox = await badge.boundingBox();
      expect(heightBox && badgeBox && badgeBox.y >= heightBox.y && badgeBox.y < heightBox.y + heightBox.height).toBe(
        true,
      );
      const note = page.getByTestId('luck-solo-note');
      expect(await note.isVisible()).toBe(true);
      expect(await text(note)).toContain("counts neither in the pool's luck nor in its round");
      await expectFits(page, width, page.locator('[data-testid="block-row"] > *, [data-testid="block-solo"]'));
      await expectFits(page, width, note);
      await shot(page, `blocks-solo-${width}`);
      expect(errors).toEqual([]);
      await context.close();
    });

    it('switches to the DOGE chain: its network, round, luck and blocks, with ?coin=DOGE', async () => {
      const { page, context, errors, zone } = await open('/blocks');
      await page.getByTestId('block-row').first().waitFor();
      await page.getByTestId('chain-DOGE').click();
      await expect.poll(() => new URL(page.url()).search).toBe('?coin=DOGE');
      await expect.poll(() => page.getByTestId('chain-DOGE').getAttribute('aria-current')).toBe('page');
      expect(await page.getByTestId('blocks-section').locator('h2').innerText()).toBe('DOGE blocks found');

      // 60,000,000 × 2^16 ÷ 60 s = 65.54 Gh/s.
      expect(await text(page.getByTestId('network-difficulty'))).toBe('60,000,000');
      expect(await text(page.getByTestId('network-hashrate'))).toBe('65.54 Gh/s');
      expect(await text(page.getByTestId('network-reward'))).toBe('10000.00000000 DOGE');
      expect(await text(page.getByTestId('network-height'))).toBe('5000000');
      // (9,000,000 + 7,500,000) ÷ 60,000,000 since the newest DOGE block.
      expect(await text(page.getByTestId('round-effort'))).toBe('27.5%');
      expect(await text(page.getByTestId('blocks-luck'))).toContain(`since ${siteTime(seed.dogeRoundStart, zone)}`);
      const luck = page.getByTestId('luck-row');
      expect(await figures(luck.getByTestId('luck-luck'))).toEqual(['111.1%', '111.1%', '111.1%']);
      expect(await figures(luck.getByTestId('luck-effort'))).toEqual(['90.0%', '90.0%', '90.0%']);
      expect(await texts(luck.getByTestId('luck-blocks'))).toEqual(['1', '1', '1']);

      await expectRows(page, seed.doge, zone, 'https://blockchair.com/dogecoin/block/');
      await expectFits(page, width, page.locator('[data-testid="block-row"] > *'));
      await shot(page, `blocks-doge-${width}`);
      expect(errors).toEqual([]);
      await context.close();
    });

    it('pages through BELLS with ?page=, 25 blocks a page, and shows its empty periods as dashes', async () => {
      const { page, context, errors, zone } = await open('/blocks?coin=BELLS');
      const newest = [...seed.bells].reverse();
      await expectRows(page, newest.slice(0, 25), zone, null);
      expect(await page.getByTestId('blocks-page-number').innerText()).toBe('Page 1 of 2');
      const luck = page.getByTestId('luck-row');
      expect(await figures(luck.getByTestId('luck-luck'))).toEqual(['—', '—', '—']);
      expect(await texts(luck.getByTestId('luck-blocks'))).toEqual(['0', '0', '0']);
      expect(await text(page.getByTestId('network-hashrate'))).toBe('1.09 Gh/s');

      await page.getByRole('navigation', { name: 'Blocks pages' }).getByRole('button', { name: 'Next' }).click();
      await expect.poll(() => new URL(page.url()).search).toBe('?coin=BELLS&page=2');
      await expectRows(page, newest.slice(25), zone, null);
      expect(await page.getByTestId('blocks-page-number').innerText()).toBe('Page 2 of 2');
      await page.getByRole('navigation', { name: 'Blocks pages' }).getByRole('button', { name: 'Prev' }).click();
      await expect.poll(() => new URL(page.url()).search).toBe('?coin=BELLS');
      await expect.poll(() => page.getByTestId('block-row').count()).toBe(25);
      expect(errors).toEqual([]);
      await context.close();
    });

    it('goes back to the own chain of another algorithm chosen in the nav', async () => {
      const { page, context, errors } = await open('/blocks?coin=DOGE');
      await page.getByTestId('block-row').first().waitFor();
      await page.getByTestId('algorithm-selector').click();
      await page.getByTestId('algorithm-option-SHA256').click();
      await expect.poll(() => page.getByTestId('blocks-algorithm').innerText()).toBe('SHA256');
      await expect.poll(() => new URL(page.url()).search).toBe('');
      await page.getByTestId('network-none').waitFor();
      expect(await page.getByTestId('network-none').innerText()).toBe('The pool has not mined SHA256 yet.');
      expect(await page.getByTestId('blocks-empty').innerText()).toContain('No blocks found yet');
      await shot(page, `blocks-sha256-${width}`);
      // No call asked SHA256 for DOGE (a 404 would be logged).
      expect(errors).toEqual([]);
      await context.close();
    });

    it("lists the stats page's networks, merge-mined ones marked, each linking to its blocks", async () => {
      const { page, context, errors, zone } = await open('/stats');
      const rows = page.locator('[data-testid="network-table"] tbody tr');
      await expect.poll(() => rows.count()).toBe(3);
      expect(await rows.evaluateAll((e) => e.map((r) => r.getAttribute('data-testid')))).toEqual([
        'network-LTC',
        'network-BELLS',
        'network-DOGE',
      ]);
      expect(await texts(rows.getByTestId('network-coin'))).toEqual(['LTC', 'BELLS merge-mined', 'DOGE merge-mined']);
      expect(await texts(rows.getByTestId('network-difficulty'))).toEqual(['30,000,000', '1,000,000', '60,000,000']);
      expect(await texts(rows.getByTestId('network-hashrate'))).toEqual(['13.11 Gh/s', '1.09 Gh/s', '65.54 Gh/s']);
      expect(await texts(rows.getByTestId('network-reward'))).toEqual([
        '6.25000000 LTC',
        '25.00000000 BELLS',
        '10000.00000000 DOGE',
      ]);
      expect(await texts(rows.getByTestId('network-height'))).toEqual(['2800000', '150000', '5000000']);
      expect(await texts(rows.getByTestId('network-blocks'))).toEqual(['5', '27', '2']);
      await expectFits(page, width, page.locator('[data-testid="network-table"] tbody tr > *'));
      await shot(page, `stats-${width}`);

      await page.getByTestId('network-DOGE').getByTestId('network-blocks-link').click();
      await page.waitForURL('**/blocks?coin=DOGE');
      await expectRows(page, seed.doge, zone, 'https://blockchair.com/dogecoin/block/');
      expect(errors).toEqual([]);
      await context.close();
    });
  });
});
