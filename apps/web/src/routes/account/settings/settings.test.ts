import type { UserConfigResponse } from '@lodestone/contract';
import { describe, expect, it } from 'vitest';
import {
  configUpdateForm,
  formatFeeDiscount,
  observerLink,
  preferencesProblem,
  redirectPayload,
  redirectTotal,
  rowsFromRedirectConfig,
  togglesFromConfig,
  twoFactorForm,
} from './settings';

const config: UserConfigResponse = {
  anonymous: true,
  send_monthly_reports: false,
  offline_worker_notification: true,
  offline_worker_window_minutes: null,
  telegram_notifications: false,
  offline_worker_telegram_only: true,
  two_factor_enabled: false,
  account_specific: [],
};

describe('toggles', () => {
  it('shows anonymous inverted, as "show my username in public lists"', () => {
    expect(togglesFromConfig(config)).toEqual({
      showInPublicLists: false,
      sendMonthlyReports: false,
      offlineWorkerNotification: true,
      offlineWindow: '',
      telegramNotifications: false,
      alertsTelegramOnly: true,
    });
    expect(togglesFromConfig({ ...config, anonymous: false }).showInPublicLists).toBe(true);
    expect(togglesFromConfig({ ...config, offline_worker_window_minutes: 45 }).offlineWindow).toBe('45');
  });

  it("sends every field as 'true' / 'false', anonymous inverted back", () => {
    const form = configUpdateForm({
      showInPublicLists: true,
      sendMonthlyReports: true,
      offlineWorkerNotification: false,
      offlineWindow: ' 30 ',
      telegramNotifications: true,
      alertsTelegramOnly: false,
    });
    expect(Object.fromEntries(form.entries())).toEqual({
      anonymous: 'false',
      send_monthly_reports: 'true',
      offline_worker_notification: 'false',
      offline_worker_window_minutes: '30',
      telegram_notifications: 'true',
      offline_worker_telegram_only: 'false',
    });
  });

  it('refuses an offline window the server would refuse, in its words', () => {
    const toggles = togglesFromConfig(config);
    expect(preferencesProblem(toggles)).toBeNull();
    expect(preferencesProblem({ ...toggles, offlineWindow: '60' })).toBeNull();
    expect(preferencesProblem({ ...toggles, offlineWindow: '3' })).toBe(
      'Enter whole minutes from 5 to 10080, or leave empty for automatic',
    );
  });

  it('round-trips', () => {
    const form = configUpdateForm(togglesFromConfig(config));
    expect(form.get('anonymous')).toBe('true');
    expect(form.get('offline_worker_notification')).toBe('true');
    expect(form.get('offline_worker_telegram_only')).toBe('true');
  });
});

describe('redirect settings', () => {
  it('reads the rows from the config', () => {
    expect(rowsFromRedirectConfig([{ username: 'b', percentage: 12.5 }])).toEqual([
      { username: 'b', percentage: '12.5' },
    ]);
  });

  it('sends a JSON map username → percentage, dropping empty rows', () => {
    const payload = redirectPayload([
      { username: ' miner02 ', percentage: '25' },
      { username: '', percentage: '' },
      { username: 'miner03', percentage: '0' },
    ]);
    expect(payload.ok).toBe(true);
    if (!payload.ok) return;
    expect(payload.settings).toEqual({ miner02: 25, miner03: 0 });
    expect(JSON.parse(String(payload.form.get('redirect_settings')))).toEqual({ miner02: 25, miner03: 0 });
  });

  it('sends an empty map when there are no rows (redirects removed)', () => {
    const payload = redirectPayload([]);
    expect(payload.ok && payload.form.get('redirect_settings')).toBe('{}');
  });

  it.each([
    [[{ username: '', percentage: '10' }], 'Enter an account name on every row.'],
    [[{ username: 'a b', percentage: '10' }], 'Username must be 3 to 32 letters, digits, dashes or underscores'],
    [[{ username: 'alice', percentage: '' }], 'Percentages are 0 to 100'],
    [[{ username: 'alice', percentage: '-1' }], 'Percentages are 0 to 100'],
    [[{ username: 'alice', percentage: '100.5' }], 'Percentages are 0 to 100'],
    [[{ username: 'alice', percentage: 'ten' }], 'Percentages are 0 to 100'],
    [
      [
        { username: 'alice', percentage: '10' },
        { username: 'alice', percentage: '5' },
      ],
      'alice appears more than once.',
    ],
    [
      [
        { username: 'alice', percentage: '60' },
        { username: 'bob01', percentage: '41' },
      ],
      'The percentages add up to more than 100',
    ],
  ])('refuses %j', (rows, error) => {
    expect(redirectPayload(rows)).toEqual({ ok: false, error });
  });

  it('accepts exactly 100 in total', () => {
    expect(
      redirectPayload([
        { username: 'alice', percentage: '60' },
        { username: 'bob01', percentage: '40' },
      ]).ok,
    ).toBe(true);
  });

  it('totals the numbers typed so far', () => {
    expect(
      redirectTotal([
        { username: 'a', percentage: '12.5' },
        { username: 'b', percentage: '' },
        { username: 'c', percentage: 'x' },
        { username: 'd', percentage: '30' },
      ]),
    ).toBe(42.5);
  });
});

describe('per account', () => {
  it('builds the observer link on this origin', () => {
    expect(observerLink('https://pool.example.org', 'obs123')).toBe('https://pool.example.org/dashboard/obs123');
    expect(observerLink('http://127.0.0.1:8080/', 'a/b')).toBe('http://127.0.0.1:8080/dashboard/a%2Fb');
  });

  it('shows the fee discount as a whole percent', () => {
    expect(formatFeeDiscount(0.25)).toBe('25%');
    expect(formatFeeDiscount(0.125)).toBe('13%');
    expect(formatFeeDiscount(0)).toBe('0%');
    expect(formatFeeDiscount(1)).toBe('100%');
    expect(formatFeeDiscount(Number.NaN)).toBe('0%');
  });
});

describe('2FA', () => {
  it('sends the password as typed and the code trimmed', () => {
    expect(Object.fromEntries(twoFactorForm(' my password ', ' 123456 ').entries())).toEqual({
      password: ' my password ',
      code: '123456',
    });
  });
});
