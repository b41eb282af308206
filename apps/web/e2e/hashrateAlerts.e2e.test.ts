import { hashrateAlertsResponse, MAX_HASHRATE_ALERTS } from '@lodestone/contract';
import { hashrateAlertsOf, insertHashrateAlert } from '@lodestone/db';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logIn, type SeededUser, seedShares, seedUser, skipWizard } from './dashboardSeed.js';
import { checkHashrateAlerts, type Site, startSite } from './harness.js';

/**
 * Hashrate alerts in Settings (docs/notifications.md, Hashrate alerts) against the real server and database: the owner
 * adds a fixed, an automatic and a group's workers rule, sees them as the API lists them, deletes one, meets the
 * form's and the server's refusals, and sees a rule the jobs role's check found low as alerting. At a laptop's width
 * and a phone's, where the list is a card per rule.
 */
const WORKERS = ['rack1-a', 'rack1-b', 'rig9'];
const OPTIONS = { poolName: 'Lodestone', publicUrl: 'https://pool.example.org' };

/** What a row of the list says, cell by cell. */
async function cellsOf(row: Locator) {
  const text = async (testId: string) => (await row.getByTestId(testId).innerText()).trim();
  return [
    await text('hashrate-alert-algorithm'),
    await text('hashrate-alert-what'),
    await text('hashrate-alert-group'),
    await text('hashrate-alert-state'),
  ];
}

/** Fills the new-alert form and sends it; the server's answer. */
async function addAlert(
  page: Page,
  panel: Locator,
  fields: { algorithm: string; kind: string; value?: string; unit?: string; group?: string },
) {
  const form = panel.getByTestId('hashrate-alert-create');
  await form.getByTestId('hashrate-alert-algorithm-input').selectOption(fields.algorithm);
  await form.getByTestId('hashrate-alert-kind-input').selectOption(fields.kind);
  if (fields.kind === 'fixed') {
    await form.getByTestId('hashrate-alert-hashrate-input').fill(fields.value ?? '');
    await form.getByTestId('hashrate-alert-unit-input').selectOption(fields.unit ?? 'H/s');
  } else if (fields.kind === 'automatic' && fields.value !== undefined) {
    await form.getByTestId('hashrate-alert-percent-input').fill(fields.value);
  } else if (fields.kind === 'workers') {
    await form.getByTestId('hashrate-alert-workers-input').fill(fields.value ?? '');
  }
  await form.getByTestId('hashrate-alert-group-input').fill(fields.group ?? '');
  const answer = page.waitForResponse((r) => r.url().includes('/v1/user/hashrate_alerts/create'));
  await form.getByRole('button', { name: 'Add alert' }).click();
  return answer;
}

describe('hashrate alerts: made, listed, refused and deleted in Settings', () => {
  let site: Site;
  const owners: Record<number, SeededUser> = {};

  beforeAll(async () => {
    site = await startSite();
    for (const [index, width] of [1366, 375].entries()) {
      const name = `alert0${index + 1}`;
      owners[width] = await seedUser(site, name, `${name}@example.org`);
      await seedShares(
        site,
        name,
        WORKERS.map((worker) => ({ name: worker, difficulty: 640, valid: 10 })),
      );
    }
  });
  afterAll(() => site?.close());

  it.each([1366, 375])('at %i px: rules are added, listed, refused, deleted and shown alerting', async (width) => {
    const owner = owners[width] as SeededUser;
    const username = owner.account.username;
    const { page, context, errors } = await site.newPage({ width, height: 800 });
    await logIn(context, site, owner);
    await skipWizard(context, [username]);
    await page.goto('/settings');
    const panel = page.getByTestId('hashrate-alerts-panel');
    const table = panel.getByTestId('hashrate-alert-table');
    await table.waitFor();
    const rows = panel.getByTestId('hashrate-alert-row');
    await expect.poll(() => table.innerText()).toContain('No hashrate alerts yet.');
    expect(await panel.getByTestId('hashrate-alerts-channels').innerText()).toMatch(/^Alerts go by e-mail, /);
    // The account's groups are offered (rig9 has none); any text may still be typed.
    await expect
      .poll(() =>
        panel
          .getByTestId('hashrate-alert-group-suggestions')
          .locator('option')
          .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value)),
      )
      .toEqual(['rack1-']);

    // The form's own check: nothing is sent.
    const form = panel.getByTestId('hashrate-alert-create');
    await form.getByTestId('hashrate-alert-kind-input').selectOption('automatic');
    await form.getByTestId('hashrate-alert-percent-input').fill('99');
    await form.getByRole('button', { name: 'Add alert' }).click();
    expect(await form.getByTestId('form-error').innerText()).toBe(
      'The percentage must be a whole number from 10 to 95',
    );

    // A fixed rule, an automatic one (70% by default) and a group's workers rule.
    expect(
      (await addAlert(page, panel, { algorithm: 'sha256', kind: 'fixed', value: '5', unit: 'Th/s' })).status(),
    ).toBe(200);
    await expect.poll(() => rows.count()).toBe(1);
    expect(await form.getByTestId('form-error').count()).toBe(0);
    expect((await addAlert(page, panel, { algorithm: 'scrypt', kind: 'automatic' })).status()).toBe(200);
    await expect.poll(() => rows.count()).toBe(2);
    expect(
      (await addAlert(page, panel, { algorithm: 'scrypt', kind: 'workers', value: '10', group: 'rack1-' })).status(),
    ).toBe(200);
    await expect.poll(() => rows.count()).toBe(3);
    expect(await form.getByTestId('hashrate-alert-workers-input').inputValue()).toBe('');

    // Listed as the API lists them, oldest first.
    const listed = async () => {
      const res = await context.request.get(`/v1/user/hashrate_alerts?account_name=${username}`);
      expect(res.status()).toBe(200);
      return hashrateAlertsResponse.parse(await res.json()).alerts;
    };
    const alerts = await listed();
    expect(
      alerts.map((a) => [a.algorithm, a.kind, a.threshold_hashrate, a.threshold_percent, a.min_workers, a.group]),
    ).toEqual([
      ['sha256', 'hashrate', 5e12, null, null, null],
      ['scrypt', 'hashrate', null, 70, null, null],
      ['scrypt', 'workers', null, null, 10, 'rack1-'],
    ]);
    const cells = async () => Promise.all((await rows.all()).map(cellsOf));
    expect(await cells()).toEqual([
      ['SHA256', 'Hashrate below 5 Th/s', 'Whole account', 'OK'],
      ['SCRYPT', 'Hashrate below 70% of its 24 h average', 'Whole account', 'OK'],
      ['SCRYPT', 'Online workers below 10', 'rack1-', 'OK'],
    ]);

    // Deleted after one more question.
    await rows.first().getByTestId('hashrate-alert-delete').click();
    const modal = page.getByTestId('hashrate-alert-delete-modal');
    expect(await modal.innerText()).toContain('SHA256: Hashrate below 5 Th/s (Whole account)');
    await modal.getByTestId('confirm').click();
    await expect.poll(() => rows.count()).toBe(2);
    expect(await modal.count()).toBe(0);
    expect((await listed()).map((a) => a.id)).toEqual(alerts.slice(1).map((a) => a.id));

    // The check as the jobs role runs it: rack1- has two workers online, fewer than 10.
    const run = await checkHashrateAlerts(site.database.db, new Date(), OPTIONS);
    expect(run.fell).toBeGreaterThanOrEqual(1);
    const low = (await hashrateAlertsOf(site.database.db, owner.account.id)).find((r) => r.worker_group === 'rack1-');
    expect(low?.low).toBe(true);
    await page.reload();
    await expect.poll(() => rows.count()).toBe(2);
    const since = low?.changed_at?.toISOString() ?? '';
    // The browser runs in UTC, as the tests do.
    expect(await cellsOf(rows.nth(1))).toEqual([
      'SCRYPT',
      'Online workers below 10',
      'rack1-',
      `Alerting since ${since.slice(0, 16).replace('T', ' ')}`,
    ]);
    expect((await cellsOf(rows.nth(0)))[3]).toBe('OK');

    // At the limit the server refuses another, in its words, under the form.
    for (let n = 2; n < MAX_HASHRATE_ALERTS; n++) {
      await insertHashrateAlert(
        site.database.db,
        owner.account.id,
        'x11',
        { kind: 'workers', minWorkers: n },
        new Date(),
      );
    }
    const refused = await addAlert(page, panel, { algorithm: 'scrypt', kind: 'workers', value: '3' });
    expect(refused.status()).toBe(409);
    await expect
      .poll(() => form.getByTestId('form-error').innerText())
      .toBe(`An account can have at most ${MAX_HASHRATE_ALERTS} hashrate alerts.`);
    await page.reload();
    await expect.poll(() => rows.count()).toBe(MAX_HASHRATE_ALERTS);

    // The refusal was expected: every error the browser logged is about it.
    expect(errors.filter((e) => !/status of 409|at most 10 hashrate alerts/.test(e))).toEqual([]);
    await context.close();
  });
});
