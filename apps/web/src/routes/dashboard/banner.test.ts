import type { ConversionConfigResponse, PaymentConfigResponse } from '@lodestone/contract';
import { describe, expect, it } from 'vitest';
import { configuredCoins, missingPayoutText, missingPayoutTickers } from './banner';

const conversion = (over: Partial<ConversionConfigResponse> = {}): ConversionConfigResponse => ({
  scrypt: [
    { ticker: 'LTC', proportion: 60 },
    { ticker: 'DOGE', proportion: 40 },
  ],
  sha256: [{ ticker: 'BTC', proportion: 100 }],
  eaglesong: [{ ticker: 'CKB', proportion: 100 }],
  blake2s: [{ ticker: 'KDA', proportion: 100 }],
  x11: [{ ticker: 'DASH', proportion: 100 }],
  kheavyhash: [{ ticker: 'KAS', proportion: 100 }],
  all_algorithms_setting: false,
  all_algorithms: [],
  ...over,
});

const payment = (settings: { ticker: string; addresses: string[] }[]): PaymentConfigResponse => ({
  payout_settings: settings.map((s) => ({
    ticker: s.ticker,
    threshold: '0.01',
    interval: 24,
    addresses: s.addresses.map((address) => ({ address, percentage: 100 / s.addresses.length })),
    paused_until: null,
  })),
});

describe('missing-payout banner', () => {
  it('reads the coins of the selected algorithm, or the shared list when all algorithms is on', () => {
    expect(configuredCoins(conversion(), 'scrypt')).toEqual(['LTC', 'DOGE']);
    expect(configuredCoins(conversion(), 'sha256')).toEqual(['BTC']);
    const all = conversion({
      all_algorithms_setting: true,
      all_algorithms: [
        { ticker: 'BTC', proportion: 50 },
        { ticker: 'ETH', proportion: 50 },
      ],
    });
    expect(configuredCoins(all, 'scrypt')).toEqual(['BTC', 'ETH']);
  });

  it('leaves out coins at 0%', () => {
    const config = conversion({
      scrypt: [
        { ticker: 'LTC', proportion: 100 },
        { ticker: 'DOGE', proportion: 0 },
      ],
    });
    expect(configuredCoins(config, 'scrypt')).toEqual(['LTC']);
  });

  it('a coin is missing without a non-empty address', () => {
    const settings = payment([
      { ticker: 'LTC', addresses: ['ltc1qexample'] },
      { ticker: 'DOGE', addresses: ['  '] },
    ]);
    expect(missingPayoutTickers(['LTC', 'DOGE', 'BTC'], settings)).toEqual(['DOGE', 'BTC']);
    expect(missingPayoutTickers(['LTC'], settings)).toEqual([]);
  });

  it('names the first 4 tickers, then (+N more)', () => {
    expect(missingPayoutText([])).toBeNull();
    expect(missingPayoutText(['LTC'])).toBe('You have not configured a payout address for: LTC');
    expect(missingPayoutText(['BTC', 'LTC', 'DOGE', 'DGB'])).toBe(
      'You have not configured a payout address for: BTC, LTC, DOGE, DGB',
    );
    expect(missingPayoutText(['BTC', 'LTC', 'DOGE', 'DGB', 'ETH', 'KAS'])).toBe(
      'You have not configured a payout address for: BTC, LTC, DOGE, DGB (+2 more)',
    );
  });
});
