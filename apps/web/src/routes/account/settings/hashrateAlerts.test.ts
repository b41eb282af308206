import type { HashrateAlert } from '@lodestone/contract';
import { describe, expect, it } from 'vitest';
import {
  alertChannelsText,
  emptyAlertDraft,
  groupSuggestions,
  type HashrateAlertDraft,
  hashrateAlertForm,
  hashrateAlertGroupText,
  hashrateAlertProblem,
  hashrateAlertStateText,
  hashrateAlertText,
} from './hashrateAlerts';

// Tests run with TZ=UTC (vitest.config.ts): the site's dates are the browser's, here UTC.
const alert = (fields: Partial<HashrateAlert>): HashrateAlert => ({
  id: '1',
  algorithm: 'sha256',
  kind: 'hashrate',
  threshold_hashrate: null,
  threshold_percent: null,
  min_workers: null,
  group: null,
  low: false,
  changed_at: null,
  ...fields,
});

describe('a hashrate alert in words', () => {
  it('says what each kind watches, in the unit that suits a fixed threshold', () => {
    expect(hashrateAlertText(alert({ threshold_hashrate: 5e12 }))).toBe('Hashrate below 5 Th/s');
    expect(hashrateAlertText(alert({ threshold_hashrate: 2_500_000_000 }))).toBe('Hashrate below 2.5 Gh/s');
    expect(hashrateAlertText(alert({ threshold_percent: 70 }))).toBe('Hashrate below 70% of its 24 h average');
    expect(hashrateAlertText(alert({ kind: 'workers', min_workers: 10 }))).toBe('Online workers below 10');
  });

  it('names the group or the whole account, and the state with when it began', () => {
    expect(hashrateAlertGroupText(alert({}))).toBe('Whole account');
    expect(hashrateAlertGroupText(alert({ group: 'rack1-' }))).toBe('rack1-');
    expect(hashrateAlertStateText(alert({ changed_at: '2026-11-25T17:10:00.000Z' }))).toBe('OK');
    expect(hashrateAlertStateText(alert({ low: true, changed_at: '2026-11-25T17:10:42.000Z' }))).toBe(
      'Alerting since 2026-11-25 17:10',
    );
  });

  it('says where the alerts go, as the offline alert settings decide', () => {
    const off = { telegramNotifications: false, telegramLinked: false, telegramOnly: false };
    expect(alertChannelsText(off)).toMatch(/^Alerts go by e-mail, as the offline alerts do\./);
    // Telegram counts only when it is on and a chat is linked.
    expect(alertChannelsText({ ...off, telegramNotifications: true })).toMatch(/^Alerts go by e-mail, /);
    expect(alertChannelsText({ ...off, telegramLinked: true, telegramOnly: true })).toMatch(/^Alerts go by e-mail, /);
    expect(alertChannelsText({ telegramNotifications: true, telegramLinked: true, telegramOnly: false })).toBe(
      'Alerts go by e-mail and to your linked Telegram chat, as the offline alerts do.',
    );
    expect(alertChannelsText({ telegramNotifications: true, telegramLinked: true, telegramOnly: true })).toBe(
      'Alerts go to your linked Telegram chat only, as the offline alerts do.',
    );
  });
});

describe('the new alert form', () => {
  const draft = (fields: Partial<HashrateAlertDraft>): HashrateAlertDraft => ({
    ...emptyAlertDraft('sha256'),
    ...fields,
  });
  const fields = (form: FormData) => Object.fromEntries(form.entries());

  it("starts automatic at 70%, in the algorithm's machine unit", () => {
    expect(emptyAlertDraft('sha256')).toMatchObject({ kind: 'automatic', percent: '70', unit: 'Th/s', group: '' });
    expect(emptyAlertDraft('scrypt').unit).toBe('Gh/s');
  });

  it("refuses what the server would, in the server's words", () => {
    expect(hashrateAlertProblem(draft({}))).toBeNull();
    for (const [change, message] of [
      [{ kind: 'fixed', hashrate: '' }, 'The threshold must be a hashrate in H/s'],
      [{ kind: 'fixed', hashrate: '0' }, 'The threshold must be a hashrate in H/s'],
      [{ kind: 'fixed', hashrate: '-5' }, 'The threshold must be a hashrate in H/s'],
      [{ kind: 'fixed', hashrate: 'fast' }, 'The threshold must be a hashrate in H/s'],
      [{ percent: '9' }, 'The percentage must be a whole number from 10 to 95'],
      [{ percent: '96' }, 'The percentage must be a whole number from 10 to 95'],
      [{ percent: '70.5' }, 'The percentage must be a whole number from 10 to 95'],
      [{ kind: 'workers', minWorkers: '' }, 'The fewest workers must be a whole number from 1 to 1,000,000'],
      [{ kind: 'workers', minWorkers: '0' }, 'The fewest workers must be a whole number from 1 to 1,000,000'],
      [{ kind: 'workers', minWorkers: '1000001' }, 'The fewest workers must be a whole number from 1 to 1,000,000'],
      [{ group: 'x'.repeat(41) }, 'A group is at most 40 characters'],
    ] as [Partial<HashrateAlertDraft>, string][]) {
      expect(hashrateAlertProblem(draft(change)), JSON.stringify(change)).toBe(message);
    }
    expect(hashrateAlertProblem(draft({ kind: 'fixed', hashrate: ' 2.5 ' }))).toBeNull();
    expect(hashrateAlertProblem(draft({ kind: 'workers', minWorkers: '10', group: ` ${'x'.repeat(40)} ` }))).toBeNull();
  });

  it('sends a fixed hashrate exactly in H/s, a percentage or a count, and the group trimmed', () => {
    expect(
      fields(hashrateAlertForm(draft({ kind: 'fixed', hashrate: '2.5', unit: 'Th/s', group: ' rack1- ' }))),
    ).toEqual({
      algorithm: 'sha256',
      kind: 'hashrate',
      threshold_hashrate: '2500000000000',
      group: 'rack1-',
    });
    expect(fields(hashrateAlertForm(draft({ kind: 'fixed', hashrate: '0.3', unit: 'Kh/s' }))).threshold_hashrate).toBe(
      '300',
    );
    expect(fields(hashrateAlertForm(draft({ percent: ' 60 ' })))).toEqual({
      algorithm: 'sha256',
      kind: 'hashrate',
      threshold_percent: '60',
      group: '',
    });
    expect(fields(hashrateAlertForm(draft({ kind: 'workers', minWorkers: '10', group: 'Room B' })))).toEqual({
      algorithm: 'sha256',
      kind: 'workers',
      min_workers: '10',
      group: 'Room B',
    });
  });

  it("suggests the account's groups, each once, without the ungrouped", () => {
    expect(groupSuggestions(['rack2-', null, 'rack1-', 'rack2-', 'Room B'])).toEqual(['rack1-', 'rack2-', 'Room B']);
  });
});
