import type { AccountSettings, HashrateAlert, TelegramStatusResponse, UserConfigResponse } from '@lodestone/contract';
import { describe, expect, it } from 'vitest';
import { queryKeys } from '../../../api/queryKeys';
import { countTestIds, failQuery, renderPage, textOf } from '../../../testing/renderPage';
import { HASHRATE_ALERTS_TEXT, HashrateAlertsPanel } from './HashrateAlertsPanel';

// Tests run with TZ=UTC (vitest.config.ts): the site's dates are the browser's, here UTC.
const config = (accounts: string[], telegram = false): UserConfigResponse => ({
  anonymous: false,
  send_monthly_reports: true,
  offline_worker_notification: true,
  offline_worker_window_minutes: null,
  telegram_notifications: telegram,
  offline_worker_telegram_only: false,
  two_factor_enabled: false,
  // The panel reads only the accounts' names.
  account_specific: accounts.map((username) => ({ username }) as AccountSettings),
});
const ALERTS: HashrateAlert[] = [
  {
    id: '1',
    algorithm: 'sha256',
    kind: 'hashrate',
    threshold_hashrate: 5e12,
    threshold_percent: null,
    min_workers: null,
    group: null,
    low: false,
    changed_at: null,
  },
  {
    id: '2',
    algorithm: 'scrypt',
    kind: 'workers',
    threshold_hashrate: null,
    threshold_percent: null,
    min_workers: 10,
    group: 'rack1-',
    low: true,
    changed_at: '2026-11-25T17:10:00.000Z',
  },
];
const LINKED: TelegramStatusResponse = {
  available: true,
  reachable: true,
  bot_username: 'lodestone_bot',
  linked: true,
  telegram_username: null,
  linked_at: '2026-11-01T10:00:00.000Z',
};
const rowTexts = (html: string) =>
  [...html.matchAll(/<tr data-testid="hashrate-alert-row">(.*?)<\/tr>/g)].map((m) => textOf(m[1] ?? ''));

describe('Settings: hashrate alerts', () => {
  it("lists the first account's rules in words with their state, and says where alerts go", () => {
    const html = renderPage(<HashrateAlertsPanel config={config(['miner01', 'miner02'], true)} />, {
      seed: (client) => {
        client.setQueryData(queryKeys.hashrateAlerts('miner01'), { alerts: ALERTS });
        client.setQueryData(queryKeys.telegram, LINKED);
      },
    });
    expect(textOf(html)).toContain(HASHRATE_ALERTS_TEXT.intro);
    expect(textOf(html)).toContain('Alerts go by e-mail and to your linked Telegram chat, as the offline alerts do.');
    expect(rowTexts(html)).toEqual([
      'Hashrate below 5 Th/s SHA256 Whole account OK Delete',
      'Online workers below 10 SCRYPT rack1- Alerting since 2026-11-25 17:10 Delete',
    ]);
    // Two accounts: the panel offers the choice.
    expect(countTestIds(html, 'hashrate-alerts-account')).toBe(1);
    // On a phone every line of a card is named.
    for (const label of ['Algorithm', 'Workers', 'State']) {
      expect(html.split(`data-label="${label}"`)).toHaveLength(ALERTS.length + 1);
    }
    // The new rule starts automatic at 70%.
    expect(html).toMatch(
      /data-testid="hashrate-alert-percent-input"[^>]*value="70"|value="70"[^>]*data-testid="hashrate-alert-percent-input"/,
    );
  });

  it('says when there is no rule, no account, or what failed to load', () => {
    const empty = renderPage(<HashrateAlertsPanel config={config(['miner01'])} />, {
      seed: (client) => client.setQueryData(queryKeys.hashrateAlerts('miner01'), { alerts: [] }),
    });
    expect(textOf(empty)).toContain(HASHRATE_ALERTS_TEXT.empty);
    expect(textOf(empty)).toContain('Alerts go by e-mail, as the offline alerts do.');
    expect(countTestIds(empty, 'hashrate-alerts-account')).toBe(0);
    const none = renderPage(<HashrateAlertsPanel config={config([])} />);
    expect(textOf(none)).toContain(HASHRATE_ALERTS_TEXT.noAccount);
    expect(countTestIds(none, 'hashrate-alert-create')).toBe(0);
    const failed = renderPage(<HashrateAlertsPanel config={config(['miner01'])} />, {
      seed: (client) => failQuery(client, queryKeys.hashrateAlerts('miner01'), 'Server down'),
    });
    expect(textOf(failed)).toContain('Server down');
    expect(countTestIds(failed, 'hashrate-alert-row')).toBe(0);
  });
});
