import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logIn, type SeededUser, seedUser } from './dashboardSeed.js';
import { type Site, startSite } from './harness.js';
import { expectFits, VIEWPORTS } from './layout.js';

/**
 * Solo mining on the public site (issue 29, docs/solo.md) against the real server with its default stratum ports,
 * which give every algorithm a solo port (base + 2: SCRYPT 3335 …), and a solo fee of 1.5 %: Getting Started lists
 * the solo ports with what they mean, the dashboard's wizard offers 'Pool (PPS)' or 'Solo', and the FAQ answers
 * "What is solo mining?" and gives the solo fee beside the pool fees. On a laptop (1366 px) and a phone (375 px),
 * nothing wider than the screen.
 */

const HOST = 'pool.example.org';
const url = (algorithm: string, port: number) => `stratum+tcp://${algorithm}.stratum.${HOST}:${port}`;

/** Text as a reader sees it, on one line. */
const text = async (locator: Locator) => (await locator.innerText()).replace(/\s+/g, ' ').trim();

/** With SOLO_SHOTS=<folder>, what the screen shows is also saved, to look at by eye. */
async function shot(page: Page, name: string): Promise<void> {
  const folder = process.env.SOLO_SHOTS;
  if (folder) await page.screenshot({ path: `${folder}/${name}.png`, fullPage: true });
}

describe('solo mining on the public site', () => {
  let site: Site;
  let miner: SeededUser;

  beforeAll(async () => {
    site = await startSite({ STRATUM_HOST: HOST, SOLO_FEE_PERCENT: '1.5' });
    miner = await seedUser(site, 'solo01', 'solo@example.org');
  });
  afterAll(() => site?.close());

  describe.each(VIEWPORTS)('on a $name ($width px)', ({ width, height }) => {
    it('Getting Started lists each solo port with what solo means and the solo fee', async () => {
      const { page, context, errors } = await site.newPage({ width, height });
      await page.goto('/get-started');
      const scrypt = page.getByTestId('stratum-scrypt');
      const solo = scrypt.locator('[data-testid="stratum-listener"][data-kind="solo"]');
      await solo.waitFor();
      expect(await solo.count()).toBe(1);
      expect(await text(solo.getByTestId('stratum-url'))).toBe(url('scrypt', 3335));
      expect(await text(solo)).toBe(
        `${url('scrypt', 3335)} Solo port: a block your workers find here is yours, less the 1.5% solo fee, credited to your balance when it matures; shares sent here are not paid by PPS.`,
      );
      expect(await solo.getByTestId('copy-scrypt-3335').count()).toBe(1);
      // Every algorithm has its own solo port, beside its pool ports.
      for (const [key, port] of [
        ['sha256', 3345],
        ['eaglesong', 3365],
        ['blake2s', 3375],
        ['x11', 3355],
        ['kheavyhash', 3385],
      ] as const) {
        const own = page.getByTestId(`stratum-${key}`).locator('[data-kind="solo"]');
        expect(await text(own.getByTestId('stratum-url'))).toBe(url(key, port));
      }
      expect(await text(scrypt.locator('[data-kind="standard"]').getByTestId('stratum-url'))).toBe(url('scrypt', 3333));
      const intro = page.getByTestId('solo-intro');
      expect(await text(intro)).toBe(
        'Every port pays your shares by PPS except the solo ports: there you mine for whole blocks on your own, with the same login. What is solo mining?',
      );
      await intro.getByRole('link', { name: 'What is solo mining?' }).click();
      await page.waitForURL('**/faq');
      await page.goBack();
      await solo.waitFor();
      await expectFits(page, width, page.locator('[data-testid="stratum-listener"]'));
      await shot(page, `get-started-${width}`);
      expect(errors).toEqual([]);
      await context.close();
    });

    it("the wizard offers 'Pool (PPS)' or 'Solo'; Solo shows the solo URL and what solo means", async () => {
      const { page, context, errors } = await site.newPage({ width, height });
      await logIn(context, site, miner);
      await page.goto('/dashboard');
      const wizard = page.getByRole('dialog', { name: 'Mining Configuration' });
      await wizard.waitFor();
      // No choice before an algorithm is picked.
      expect(await wizard.getByTestId('wizard-mode').count()).toBe(0);
      await wizard.getByTestId('wizard-algorithm-SCRYPT').click();
      const choice = wizard.getByTestId('wizard-mode');
      await choice.waitFor();
      expect(await text(choice.locator('legend'))).toBe('How do you want to be paid?');
      const pool = wizard.getByRole('radio', { name: /Pool \(PPS\)/ });
      const solo = wizard.getByRole('radio', { name: /Solo/ });
      expect(await pool.isChecked()).toBe(true);
      expect(await solo.isChecked()).toBe(false);
      expect(await wizard.getByTestId('wizard-mode-solo-note').count()).toBe(0);
      await wizard.getByTestId('wizard-mode-solo').click();
      expect(await solo.isChecked()).toBe(true);
      expect(await text(wizard.getByTestId('wizard-mode-solo-note'))).toBe(
        'A block your workers find is yours, less the 1.5% solo fee, credited to your balance when it matures; their shares are not paid by PPS.',
      );
      await expectFits(page, width, wizard.locator('[data-testid^="wizard-mode-"], [data-testid="wizard-next-1"]'));
      await shot(page, `wizard-step1-${width}`);
      await wizard.getByTestId('wizard-next-1').click();

      await expect.poll(() => wizard.getByTestId('wizard-step').innerText()).toBe('Step 2 of 3');
      await wizard.getByTestId('wizard-worker-name').fill('bitaxe');
      await wizard.getByTestId('wizard-next-2').click();
      await expect.poll(() => wizard.getByTestId('wizard-worker-index').innerText()).toBe('Worker 1 of 1');
      const shown = wizard.getByTestId('wizard-url');
      expect(await shown.getAttribute('title')).toBe(url('scrypt', 3335));
      expect(await shown.getAttribute('aria-label')).toBe(`Solo stratum URL: ${url('scrypt', 3335)}. Click to copy`);
      expect(await text(wizard.getByText('Stratum URL (solo)'))).toBe('Stratum URL (solo)');
      expect(await text(wizard.getByTestId('wizard-solo-note'))).toContain('less the 1.5% solo fee');
      expect(await text(wizard.getByTestId('wizard-login'))).toBe('solo01.bitaxe');
      // The steps slide into place (300 ms): measure once they have.
      await page.waitForFunction(() => document.getAnimations().length === 0);
      await expectFits(
        page,
        width,
        wizard.locator('[data-testid="wizard-url"], [data-testid="wizard-solo-note"], [data-testid="wizard-finished"]'),
      );
      await shot(page, `wizard-step3-${width}`);

      // Start over: the pool again by default, and its standard port.
      await wizard.getByTestId('wizard-start-over').click();
      await expect.poll(() => wizard.getByTestId('wizard-step').innerText()).toBe('Step 1 of 3');
      await wizard.getByTestId('wizard-algorithm-SCRYPT').click();
      expect(await pool.isChecked()).toBe(true);
      await wizard.getByTestId('wizard-next-1').click();
      await wizard.getByTestId('wizard-worker-name').fill('rig1');
      await wizard.getByTestId('wizard-next-2').click();
      await expect.poll(() => shown.getAttribute('title')).toBe(url('scrypt', 3333));
      expect(await wizard.getByTestId('wizard-solo-note').count()).toBe(0);
      expect(await wizard.getByText('Stratum URL', { exact: true }).count()).toBe(1);
      expect(errors).toEqual([]);
      await context.close();
    });

    it('the FAQ answers what solo mining is, and gives the solo fee beside the pool fees', async () => {
      const { page, context, errors } = await site.newPage({ width, height });
      await page.goto('/faq');
      const item = page.getByTestId('faq-solo');
      await item.getByTestId('faq-question').click();
      const answer = item.getByTestId('faq-answer');
      expect(await text(item.getByTestId('faq-question'))).toBe('What is solo mining?');
      await expect
        .poll(() => answer.getByTestId('faq-ports-solo').innerText())
        .toBe('SCRYPT 3335, SHA256 3345, EAGLESONG 3365, BLAKE2S 3375, X11 3355, KHEAVYHASH 3385');
      await expect.poll(() => text(answer)).toContain('its reward less the 1.5% solo fee is credited to your balance');
      const said = await text(answer);
      expect(said).toContain("in the block's coin, then paid out like the rest of your balance");
      expect(said).toContain('Shares sent to a solo port earn nothing by PPS');

      const fees = page.getByTestId('faq-fees');
      await fees.getByTestId('faq-question').click();
      await fees.getByTestId('fee-line').first().waitFor();
      expect(await text(fees.getByTestId('faq-solo-fee'))).toBe(
        'Solo fee: 1.5% of each block you find on a solo port, kept when its reward is credited to you.',
      );
      await expectFits(page, width, page.locator('[data-testid="faq-answer"]:visible'));
      await shot(page, `faq-${width}`);
      expect(errors).toEqual([]);
      await context.close();
    });
  });
});
