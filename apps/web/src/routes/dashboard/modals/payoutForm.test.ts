import { describe, expect, it } from 'vitest';
import {
  addAddressRow,
  addableCoins,
  addCoin,
  addressesChanged,
  boundsProblem,
  clampPercentage,
  formFromConfig,
  formProblem,
  type PayoutCoinForm,
  paymentForm,
  paymentPayload,
  percentageTotal,
  removeAddressRow,
  snappedToStep,
  updateAddressRow,
  withCoins,
} from './payoutForm';

const btc = { threshold_min: '0.001', interval_min: 1 };

describe('payout settings form', () => {
  it('starts from the stored settings', () => {
    const form = formFromConfig({
      payout_settings: [
        {
          ticker: 'LTC',
          threshold: '0.5',
          interval: 12.5,
          addresses: [{ address: 'ltc1q', percentage: 100 }],
          paused_until: null,
        },
      ],
    });
    expect(form).toEqual([
      { ticker: 'LTC', threshold: '0.5', interval: '12.5', addresses: [{ address: 'ltc1q', percentage: 100 }] },
    ]);
  });

  it('a coin added gets one empty row at 100%; adding it twice does nothing', () => {
    const one = addCoin([], 'BTC', btc);
    expect(one).toEqual([
      { ticker: 'BTC', threshold: '0.001', interval: '1', addresses: [{ address: '', percentage: 100 }] },
    ]);
    expect(addCoin(one, 'BTC', btc)).toEqual(one);
  });

  it('new address rows start at 100; removing the last row removes the coin', () => {
    let form: PayoutCoinForm[] = addCoin(addCoin([], 'BTC', btc), 'LTC', btc);
    form = addAddressRow(form, 'BTC');
    expect(form[0]?.addresses.map((r) => r.percentage)).toEqual([100, 100]);
    form = removeAddressRow(form, 'BTC', 0);
    expect(form[0]?.addresses).toHaveLength(1);
    form = removeAddressRow(form, 'BTC', 0);
    expect(form.map((c) => c.ticker)).toEqual(['LTC']);
  });

  it('percentages stay within 0–100', () => {
    expect(clampPercentage(150)).toBe(100);
    expect(clampPercentage(-3)).toBe(0);
    expect(clampPercentage(Number.NaN)).toBe(0);
    const form = updateAddressRow(addCoin([], 'BTC', btc), 'BTC', 0, { percentage: 250 });
    expect(form[0]?.addresses[0]?.percentage).toBe(100);
    expect(
      percentageTotal([
        { address: '', percentage: 33.33 },
        { address: '', percentage: 66.67 },
      ]),
    ).toBe(100);
  });

  it('threshold and interval are stepped exactly, and refused out of bounds with the bound named', () => {
    expect(snappedToStep('0.12345', '0.001', '0.5', '0.0001')).toBe('0.1234');
    expect(snappedToStep('0.0003', '0', '1', '0.0001')).toBe('0.0003');
    expect(snappedToStep('12.7', '1', '48', '0.5')).toBe('12.5');
    expect(snappedToStep('0.00105', '0.00105', '0.5', '0.0001')).toBe('0.00105');
    // Out of bounds or not a number: left as typed (before: silently moved to the bound, then saved).
    expect(snappedToStep('7', '0.001', '0.5', '0.0001')).toBe('7');
    expect(snappedToStep('0.00035', '0.001', '0.5', '0.0001')).toBe('0.00035');
    expect(snappedToStep('100', '1', '48', '0.5')).toBe('100');
    expect(snappedToStep('abc', '0.001', '0.5', '0.0001')).toBe('abc');

    const bounds = { threshold_min: '0.001', threshold_max: '0.5', interval_min: 1, interval_max: 48 };
    expect(boundsProblem('BTC', 'threshold', '7', bounds)).toBe('The BTC threshold must be between 0.001 and 0.5');
    expect(boundsProblem('BTC', 'threshold', '0.0005', bounds)).toBe('The BTC threshold must be between 0.001 and 0.5');
    expect(boundsProblem('BTC', 'threshold', '', bounds)).toBe('The BTC threshold must be a number');
    expect(boundsProblem('BTC', 'threshold', '0.5', bounds)).toBeNull();
    expect(boundsProblem('BTC', 'interval', '100', bounds)).toBe(
      'The BTC payout interval must be between 1 and 48 hours',
    );
    expect(boundsProblem('BTC', 'interval', '0', bounds)).toBe(
      'The BTC payout interval must be between 1 and 48 hours',
    );
    expect(boundsProblem('BTC', 'interval', '1', bounds)).toBeNull();

    const form = [
      { ticker: 'LTC', threshold: '0.1', interval: '24', addresses: [] },
      { ticker: 'BTC', threshold: '0.1', interval: '49', addresses: [] },
    ];
    expect(formProblem(form, () => bounds)).toBe('The BTC payout interval must be between 1 and 48 hours');
    expect(formProblem(form.slice(0, 1), () => bounds)).toBeNull();
  });

  it('starts with the coins it was opened for (the missing-payout banner), each once, if paid out', () => {
    const catalogue = {
      LTC: { threshold_min: '0.01', interval_min: 1, payouts_enabled: true },
      BTC: { ...btc, payouts_enabled: true },
      XYZ: { threshold_min: '1', interval_min: 1, payouts_enabled: false },
    };
    const stored = [
      { ticker: 'BTC', threshold: '0.2', interval: '6', addresses: [{ address: 'bc1q', percentage: 100 }] },
    ];
    const form = withCoins(stored, ['LTC', 'BTC', 'XYZ', 'NOPE'], catalogue);
    expect(form.map((c) => c.ticker)).toEqual(['BTC', 'LTC']);
    expect(form[0]).toEqual(stored[0]);
    expect(form[1]).toEqual({
      ticker: 'LTC',
      threshold: '0.01',
      interval: '1',
      addresses: [{ address: '', percentage: 100 }],
    });
  });

  it('saves a map ticker → {threshold, interval, addresses: [{proportion, address}]}', () => {
    const form: PayoutCoinForm[] = [
      {
        ticker: 'BTC',
        threshold: '0.01 ',
        interval: '24',
        addresses: [
          { address: ' bc1qone ', percentage: 70 },
          { address: 'bc1qtwo', percentage: 30 },
        ],
      },
    ];
    expect(paymentPayload(form)).toEqual({
      BTC: {
        threshold: '0.01',
        interval: '24',
        addresses: [
          { proportion: 70, address: 'bc1qone' },
          { proportion: 30, address: 'bc1qtwo' },
        ],
      },
    });
  });

  it('offers payable coins not in the form, by ticker or name', () => {
    const catalogue = {
      BTC: { name: 'Bitcoin', payouts_enabled: true },
      LTC: { name: 'Litecoin', payouts_enabled: true },
      SOL: { name: 'Solana', payouts_enabled: false },
    };
    expect(addableCoins(catalogue, ['BTC'], '')).toEqual(['LTC']);
    expect(addableCoins(catalogue, [], 'lite')).toEqual(['LTC']);
    expect(addableCoins(catalogue, [], 'sol')).toEqual([]);
  });

  describe('asking for the password again', () => {
    const stored = {
      payout_settings: [
        {
          ticker: 'BTC',
          threshold: '0.01',
          interval: 24,
          addresses: [
            { address: 'bc1qone', percentage: 70 },
            { address: 'bc1qtwo', percentage: 30 },
          ],
          paused_until: null,
        },
      ],
    };

    it('only when a coin’s addresses or percentages change, or a coin is added or removed', () => {
      const form = formFromConfig(stored);
      expect(addressesChanged(stored, form)).toBe(false);
      // Thresholds, intervals, row order and spaces around an address are no change.
      const reordered: PayoutCoinForm[] = [
        {
          ticker: 'BTC',
          threshold: '0.2',
          interval: '6',
          addresses: [
            { address: 'bc1qtwo ', percentage: 30 },
            { address: 'bc1qone', percentage: 70 },
          ],
        },
      ];
      expect(addressesChanged(stored, reordered)).toBe(false);
      expect(addressesChanged(stored, updateAddressRow(form, 'BTC', 1, { address: 'bc1qthree' }))).toBe(true);
      expect(addressesChanged(stored, updateAddressRow(form, 'BTC', 1, { percentage: 20 }))).toBe(true);
      expect(addressesChanged(stored, addCoin(form, 'LTC', btc))).toBe(true);
      expect(addressesChanged(stored, [])).toBe(true);
      expect(addressesChanged({ payout_settings: [] }, [])).toBe(false);
    });

    it('sends the password and the trimmed code only when given', () => {
      const form = formFromConfig(stored);
      const plain = paymentForm(form);
      expect([...plain.keys()]).toEqual(['payment_settings']);
      expect(JSON.parse(String(plain.get('payment_settings')))).toEqual(paymentPayload(form));
      const withPassword = paymentForm(form, { password: ' secret pass ', code: '' });
      expect(Object.fromEntries([...withPassword.entries()].filter(([k]) => k !== 'payment_settings'))).toEqual({
        password: ' secret pass ',
      });
      const withCode = paymentForm(form, { password: 'secret pass', code: ' 123456 ' });
      expect(withCode.get('code')).toBe('123456');
    });
  });
});
