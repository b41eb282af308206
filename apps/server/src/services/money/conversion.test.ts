import type { Coin } from '@lodestone/db';
import { describe, expect, it } from 'vitest';
import { CONVERSION_MESSAGES, parseConversionList, parseConversionSettings } from './conversion.js';

const coin = (ticker: string, position: number): Coin => ({
  ticker,
  name: ticker,
  decimals: 8,
  network: ticker.toLowerCase(),
  address_format: ticker.toLowerCase(),
  threshold_min: '0.001',
  threshold_max: '0.5',
  interval_min: '1',
  interval_max: '48',
  confirmations: 1,
  explorer_tx_url: null,
  explorer_address_url: null,
  explorer_block_url: null,
  block_seconds: null,
  payouts_enabled: true,
  position,
});
const catalogue = new Map(['BTC', 'LTC', 'DOGE', 'KAS'].map((t, i) => [t, coin(t, i + 1)]));

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
};

describe('parseConversionList', () => {
  it('keeps exact proportions that add up to 100 and drops coins at 0%', () => {
    expect(
      parseConversionList(
        [
          { ticker: 'btc', proportion: 33.33 },
          { ticker: 'LTC', proportion: '33.33' },
          { ticker: 'DOGE', proportion: '33.34' },
          { ticker: 'KAS', proportion: 0 },
        ],
        catalogue,
        'SCRYPT',
      ),
    ).toEqual([
      { ticker: 'BTC', proportion: '33.33' },
      { ticker: 'LTC', proportion: '33.33' },
      { ticker: 'DOGE', proportion: '33.34' },
    ]);
  });

  it('sums exactly: 0.1 + 0.2 + 99.7 is 100 (a float sum would not be)', () => {
    const rows = parseConversionList(
      [
        { ticker: 'BTC', proportion: 0.1 },
        { ticker: 'LTC', proportion: 0.2 },
        { ticker: 'DOGE', proportion: 99.7 },
      ],
      catalogue,
      null,
    );
    expect(rows.map((r) => r.proportion)).toEqual(['0.1', '0.2', '99.7']);
  });

  it('refuses empty lists and lists of zeros with the documented message', () => {
    expect(refusal(() => parseConversionList([], catalogue, null))).toBe(CONVERSION_MESSAGES.noCoin);
    expect(refusal(() => parseConversionList([{ ticker: 'BTC', proportion: 0 }], catalogue, null))).toBe(
      'You must select at least one coin before saving.',
    );
  });

  it('names the problem: sums, ranges, decimals, unknown and repeated coins', () => {
    expect(
      refusal(() =>
        parseConversionList(
          [
            { ticker: 'BTC', proportion: 50 },
            { ticker: 'LTC', proportion: 40 },
          ],
          catalogue,
          'SCRYPT',
        ),
      ),
    ).toBe('The proportions for SCRYPT add up to 90, not 100');
    expect(refusal(() => parseConversionList([{ ticker: 'BTC', proportion: 101 }], catalogue, null))).toBe(
      CONVERSION_MESSAGES.proportionRange,
    );
    expect(refusal(() => parseConversionList([{ ticker: 'BTC', proportion: -1 }], catalogue, null))).toBe(
      CONVERSION_MESSAGES.proportionRange,
    );
    expect(refusal(() => parseConversionList([{ ticker: 'BTC', proportion: 'lots' }], catalogue, null))).toBe(
      CONVERSION_MESSAGES.proportionRange,
    );
    expect(refusal(() => parseConversionList([{ ticker: 'BTC', proportion: '99.99999' }], catalogue, null))).toBe(
      CONVERSION_MESSAGES.proportionDecimals,
    );
    expect(refusal(() => parseConversionList([{ ticker: 'XYZ', proportion: 100 }], catalogue, null))).toBe(
      'Unknown coin: XYZ',
    );
    expect(
      refusal(() =>
        parseConversionList(
          [
            { ticker: 'BTC', proportion: 50 },
            { ticker: 'btc', proportion: 50 },
          ],
          catalogue,
          'X11',
        ),
      ),
    ).toBe('BTC is listed twice for X11');
    expect(refusal(() => parseConversionList({ BTC: 100 }, catalogue, null))).toBe('Expected a list of coins');
  });
});

describe('parseConversionSettings', () => {
  it('with all algorithms: stores the shared list as "all" and copies it into every algorithm', () => {
    const lists = parseConversionSettings([{ ticker: 'BTC', proportion: 100 }], true, catalogue);
    expect([...lists.keys()]).toEqual(['all', 'scrypt', 'sha256', 'eaglesong', 'blake2s', 'x11', 'kheavyhash']);
    for (const rows of lists.values()) expect(rows).toEqual([{ ticker: 'BTC', proportion: '100' }]);
    // The GET answer's shape is accepted too (its all_algorithms list is the shared one).
    const fromAnswer = parseConversionSettings(
      { all_algorithms: [{ ticker: 'LTC', proportion: 100 }] },
      true,
      catalogue,
    );
    expect(fromAnswer.get('all')).toEqual([{ ticker: 'LTC', proportion: '100' }]);
  });

  it('per algorithm: only the algorithms given, by key or name; the answer’s own fields are ignored', () => {
    const lists = parseConversionSettings(
      {
        SCRYPT: [{ ticker: 'DOGE', proportion: 100 }],
        sha256: [{ ticker: 'BTC', proportion: 100 }],
        all_algorithms_setting: false,
        all_algorithms: [],
      },
      false,
      catalogue,
    );
    expect([...lists.keys()]).toEqual(['scrypt', 'sha256']);
  });

  it('refuses a list where a map is expected and unknown algorithms', () => {
    expect(refusal(() => parseConversionSettings([{ ticker: 'BTC', proportion: 100 }], false, catalogue))).toBe(
      'conversion_settings must map each algorithm to its list of coins',
    );
    expect(refusal(() => parseConversionSettings({ ethash: [] }, false, catalogue))).toBe('Unknown algorithm: ethash');
    expect(refusal(() => parseConversionSettings({ scrypt: [] }, false, catalogue))).toBe(CONVERSION_MESSAGES.noCoin);
    expect(
      refusal(() => parseConversionSettings({ scrypt: [{ ticker: 'BTC', proportion: 100 }] }, true, catalogue)),
    ).toBe('Expected a list of coins');
  });
});
