import { encodeSegwitAddress, NETWORKS, p2pkhAddress } from '@lodestone/chain';
import type { Coin } from '@lodestone/db';
import { describe, expect, it } from 'vitest';
import {
  ADDRESS_CHANGE_PAUSE_MS,
  changesPayoutAddresses,
  MAX_ADDRESSES_PER_COIN,
  parsePaymentSettings,
  pausedUntilAfterSave,
  sameAddresses,
} from './payoutSettings.js';

const coin = (ticker: string, format: string, position: number, extra: Partial<Coin> = {}): Coin => ({
  ticker,
  name: ticker,
  decimals: 8,
  network: format,
  address_format: format,
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
  ...extra,
});
const catalogue = new Map([
  ['BTC', coin('BTC', 'bitcoin', 1)],
  ['LTC', coin('LTC', 'litecoin', 2, { threshold_max: '50' })],
  ['SOL', coin('SOL', 'solana', 3, { payouts_enabled: false })],
  ['ODD', coin('ODD', 'no-such-format', 4)],
]);

const program = (seed: number) => Uint8Array.from({ length: 20 }, (_, i) => (seed * 31 + i) & 255);
const btc = (seed: number) => encodeSegwitAddress('bc', 0, program(seed));
const btcLegacy = (seed: number) => p2pkhAddress(program(seed), NETWORKS.bitcoin);
const ltc = (seed: number) => encodeSegwitAddress('ltc', 0, program(seed));

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
};
const parse = (raw: unknown) => parsePaymentSettings(raw, catalogue, 'mainnet');
const one = (setting: Record<string, unknown>) => refusal(() => parse({ BTC: setting }));
const ok = { threshold: '0.01', interval: 24, addresses: [{ address: btc(1), proportion: 100 }] };

describe('parsePaymentSettings', () => {
  it('returns canonical settings in catalogue order; 0% addresses are dropped', () => {
    expect(
      parse({
        ltc: { threshold: 1.5, interval: '2.5', addresses: [{ address: ` ${ltc(2)} `, proportion: 100 }] },
        BTC: {
          threshold: '0.0100',
          interval: 1,
          addresses: [
            { address: btc(1), proportion: 33.33 },
            { address: btcLegacy(2), proportion: '66.67' },
            { address: btc(3), proportion: 0 },
          ],
        },
      }),
    ).toEqual([
      {
        ticker: 'BTC',
        threshold: '0.01',
        intervalHours: '1',
        addresses: [
          { address: btc(1), proportion: '33.33' },
          { address: btcLegacy(2), proportion: '66.67' },
        ],
      },
      { ticker: 'LTC', threshold: '1.5', intervalHours: '2.5', addresses: [{ address: ltc(2), proportion: '100' }] },
    ]);
    expect(parse({})).toEqual([]);
  });

  it('keeps thresholds inside the coin bounds in steps of 0.0001, exactly', () => {
    expect(parse({ BTC: { ...ok, threshold: '0.001' } })[0]?.threshold).toBe('0.001');
    expect(parse({ BTC: { ...ok, threshold: 0.5 } })[0]?.threshold).toBe('0.5');
    expect(parse({ BTC: { ...ok, threshold: 0.0013 } })[0]?.threshold).toBe('0.0013');
    expect(one({ ...ok, threshold: '0.0009' })).toBe('The BTC threshold must be between 0.001 and 0.5');
    expect(one({ ...ok, threshold: '0.5001' })).toBe('The BTC threshold must be between 0.001 and 0.5');
    expect(one({ ...ok, threshold: '0.00105' })).toBe('The BTC threshold must be a multiple of 0.0001');
    expect(one({ ...ok, threshold: 'abc' })).toBe('The BTC threshold must be a number');
  });

  it('keeps intervals inside the coin bounds in half hours', () => {
    expect(parse({ BTC: { ...ok, interval: 47.5 } })[0]?.intervalHours).toBe('47.5');
    expect(one({ ...ok, interval: 0.5 })).toBe('The BTC payout interval must be between 1 and 48 hours');
    expect(one({ ...ok, interval: 48.5 })).toBe('The BTC payout interval must be between 1 and 48 hours');
    expect(one({ ...ok, interval: 1.25 })).toBe('The BTC payout interval must be in steps of 0.5 hours');
  });

  it('checks every address for its coin and names the coin and the reason', () => {
    expect(one({ ...ok, addresses: [] })).toBe('Add a BTC payout address');
    expect(one({ ...ok, addresses: [{ address: '  ', proportion: 100 }] })).toBe('Enter the BTC payout address');
    expect(one({ ...ok, addresses: [{ address: ltc(1), proportion: 100 }] })).toMatch(
      /^Invalid BTC address "ltc1.+": /,
    );
    const testnet = encodeSegwitAddress('tb', 0, program(1));
    expect(one({ ...ok, addresses: [{ address: testnet, proportion: 100 }] })).toMatch(
      /^Invalid BTC address .*testnet/,
    );
    expect(
      one({
        ...ok,
        addresses: [
          { address: btc(1), proportion: 50 },
          { address: btc(1).toUpperCase(), proportion: 50 },
        ],
      }),
    ).toMatch(/^BTC address ".+" is listed twice$/);
    const many = Array.from({ length: MAX_ADDRESSES_PER_COIN + 1 }, (_, i) => ({ address: btc(i), proportion: 1 }));
    expect(one({ ...ok, addresses: many })).toBe('At most 10 BTC payout addresses');
  });

  it('needs percentages 0–100 that add up to exactly 100', () => {
    const two = (a: number | string, b: number | string) => ({
      ...ok,
      addresses: [
        { address: btc(1), proportion: a },
        { address: btc(2), proportion: b },
      ],
    });
    expect(parse({ BTC: two(0.1, 99.9) })[0]?.addresses).toHaveLength(2);
    expect(one(two(50, 40))).toBe('The BTC address percentages add up to 90, not 100');
    expect(one(two(0, 0))).toBe('The BTC address percentages add up to 0, not 100');
    expect(one(two(150, -50))).toBe('BTC address percentages are numbers from 0 to 100');
    expect(one(two('50.00001', '49.99999'))).toBe('BTC address percentages have at most 4 decimals');
  });

  it('refuses unknown coins, coins without payouts and formats it cannot check', () => {
    expect(refusal(() => parse({ XYZ: ok }))).toBe('Unknown coin: XYZ');
    expect(refusal(() => parse({ BTC: ok, btc: ok }))).toBe('BTC is listed twice');
    expect(refusal(() => parse({ SOL: ok }))).toBe('Payouts in SOL are not available');
    expect(refusal(() => parse({ ODD: ok }))).toBe('ODD payout addresses cannot be checked by this pool');
    expect(refusal(() => parse([ok]))).toMatch(/map of coin ticker/);
    expect(refusal(() => parse({ BTC: { threshold: '0.01' } }))).toBe(
      'The BTC payout interval must be a number of hours',
    );
    expect(refusal(() => parse({ BTC: { threshold: '0.01', interval: 1 } }))).toBe(
      'BTC: Each coin needs a list of addresses',
    );
    expect(refusal(() => parse({ BTC: { ...ok, addresses: [{ address: btc(1) }] } }))).toBe(
      'BTC address percentages are numbers from 0 to 100',
    );
    expect(refusal(() => parse({ BTC: 5 }))).toBe('Each coin needs a threshold, an interval and addresses');
  });
});

describe('address changes and the 24-hour pause', () => {
  const now = new Date('2025-03-01T12:00:00Z');
  const later = new Date(now.getTime() + ADDRESS_CHANGE_PAUSE_MS);
  const stored = {
    ticker: 'BTC',
    threshold: '0.01',
    intervalHours: '24',
    pausedUntil: null,
    addresses: [
      { address: 'a', proportion: '50' },
      { address: 'b', proportion: '50.0' },
    ],
  };

  it('compares addresses and shares, not their order or how a number is written', () => {
    const same = [
      { address: 'b', proportion: '50' },
      { address: 'a', proportion: '50.00' },
    ];
    expect(sameAddresses(stored.addresses, same)).toBe(true);
    expect(
      sameAddresses(stored.addresses, [
        { address: 'a', proportion: '60' },
        { address: 'b', proportion: '40' },
      ]),
    ).toBe(false);
    expect(sameAddresses(stored.addresses, [{ address: 'a', proportion: '100' }])).toBe(false);
  });

  it('pauses a changed coin for 24 h and keeps the pause of an unchanged one', () => {
    expect(pausedUntilAfterSave(stored, [{ address: 'c', proportion: '100' }], true, now)).toEqual(later);
    expect(pausedUntilAfterSave(stored, stored.addresses, true, now)).toBeNull();
    const paused = { ...stored, pausedUntil: new Date('2025-03-02T00:00:00Z') };
    expect(pausedUntilAfterSave(paused, stored.addresses, true, now)).toEqual(paused.pausedUntil);
  });

  it('does not pause the first setup of an account, but does pause a coin added later', () => {
    expect(pausedUntilAfterSave(undefined, stored.addresses, false, now)).toBeNull();
    expect(pausedUntilAfterSave(undefined, stored.addresses, true, now)).toEqual(later);
  });
});

describe('which saves ask for the password again', () => {
  const btc = { ticker: 'BTC', addresses: [{ address: 'a', proportion: '100' }] };
  const ltc = { ticker: 'LTC', addresses: [{ address: 'l', proportion: '100' }] };

  it('not a save that keeps every coin’s addresses and shares (thresholds and intervals are not compared)', () => {
    expect(changesPayoutAddresses([], [])).toBe(false);
    expect(
      changesPayoutAddresses([btc, ltc], [ltc, { ...btc, addresses: [{ address: 'a', proportion: '100.0' }] }]),
    ).toBe(false);
  });

  it('a first setup, another address or split, a coin added or removed', () => {
    expect(changesPayoutAddresses([], [btc])).toBe(true);
    expect(changesPayoutAddresses([btc], [{ ...btc, addresses: [{ address: 'b', proportion: '100' }] }])).toBe(true);
    expect(
      changesPayoutAddresses(
        [
          {
            ...btc,
            addresses: [...btc.addresses.map((a) => ({ ...a, proportion: '50' })), { address: 'b', proportion: '50' }],
          },
        ],
        [
          {
            ...btc,
            addresses: [
              { address: 'a', proportion: '40' },
              { address: 'b', proportion: '60' },
            ],
          },
        ],
      ),
    ).toBe(true);
    expect(changesPayoutAddresses([btc], [btc, ltc])).toBe(true);
    expect(changesPayoutAddresses([btc, ltc], [btc])).toBe(true);
  });
});
