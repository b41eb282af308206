import { REVENUE_CHART_LABEL } from '@lodestone/contract';
import type { Coin, PayoutSettingRow, PriceRow } from '@lodestone/db';
import { describe, expect, it } from 'vitest';
import { cannotBePaid, configuredCoins, presentBalances } from './balances.js';
import { coinsByDay, presentEarningDay, revenueChart } from './earnings.js';
import { presentAccountPayout } from './payouts.js';

const coin = (ticker: string, position: number, over: Partial<Coin> = {}): Coin => ({
  ticker,
  name: ticker,
  decimals: 8,
  network: ticker.toLowerCase(),
  address_format: ticker.toLowerCase(),
  threshold_min: '0.001',
  threshold_max: '1',
  interval_min: '1',
  interval_max: '48',
  confirmations: 6,
  explorer_tx_url: `https://explorer.example/${ticker}/tx/{txid}`,
  explorer_address_url: null,
  explorer_block_url: null,
  block_seconds: null,
  payouts_enabled: true,
  position,
  ...over,
});

const BTC = coin('BTC', 1);
const LTC = coin('LTC', 2);
const DOGE = coin('DOGE', 3, { payouts_enabled: false });
const DASH = coin('DASH', 4, { explorer_tx_url: null });
const catalogue = [BTC, LTC, DOGE, DASH];

const price = (ticker: string, usd: string): [string, PriceRow] => [
  ticker,
  { ticker, usd, source: 'test', takenAt: new Date('2025-06-15T11:00:00Z') },
];
const setting = (ticker: string, addresses: string[]): [string, PayoutSettingRow] => [
  ticker,
  {
    ticker,
    threshold: '0.01',
    intervalHours: '24',
    pausedUntil: null,
    addresses: addresses.map((address) => ({ address, proportion: String(100 / addresses.length) })),
  },
];

describe('balances table', () => {
  it('reads the conversion coins crediting uses: the shared list while it is on, else every own list', () => {
    const lists = new Map([
      [
        'scrypt' as const,
        [
          { ticker: 'LTC', proportion: '50' },
          { ticker: 'DOGE', proportion: '50' },
        ],
      ],
      ['x11' as const, [{ ticker: 'DASH', proportion: '100' }]],
      ['all' as const, [{ ticker: 'BTC', proportion: '100' }]],
    ]);
    expect([...configuredCoins({ allAlgorithms: false, lists })]).toEqual(['LTC', 'DOGE', 'DASH']);
    expect([...configuredCoins({ allAlgorithms: true, lists })]).toEqual(['BTC']);
    expect([...configuredCoins({ allAlgorithms: false, lists: new Map() })]).toEqual([]);
  });

  it('warns when a coin cannot be paid: payouts disabled, or no payout address', () => {
    const settings = new Map([setting('LTC', ['ltc1q']), setting('DOGE', ['D1']), setting('BTC', [])]);
    expect(cannotBePaid(LTC, settings)).toBe(false);
    expect(cannotBePaid(DOGE, settings)).toBe(true); // disabled in the catalogue, address or not
    expect(cannotBePaid(BTC, settings)).toBe(true); // settings without an address
    expect(cannotBePaid(DASH, settings)).toBe(true); // no settings at all
  });

  it('lists non-zero balances and configured coins in catalogue order with price and warning', () => {
    expect(
      presentBalances({
        catalogue,
        balances: [
          { coin: 'DASH', amount: 3_000_000n },
          { coin: 'BTC', amount: 0n },
          { coin: 'LTC', amount: 6_020_000n },
        ],
        configured: new Set(['DOGE', 'LTC']),
        payoutSettings: new Map([setting('LTC', ['ltc1q'])]),
        prices: new Map([price('LTC', '80.5'), price('DOGE', '0.2')]),
      }),
    ).toEqual([
      {
        coin_ticker: 'LTC',
        coin_price: 80.5,
        coin_balance: '6020000',
        coin_decimals: 8,
        usd_decimals: 2,
        show_warning: false,
      },
      {
        coin_ticker: 'DOGE',
        coin_price: 0.2,
        coin_balance: '0',
        coin_decimals: 8,
        usd_decimals: 2,
        show_warning: true,
      },
      {
        coin_ticker: 'DASH',
        coin_price: null,
        coin_balance: '3000000',
        coin_decimals: 8,
        usd_decimals: 2,
        show_warning: true,
      },
    ]);
  });

  it('keeps a coin paid out down to 0 listed while the miner has payout settings for it', () => {
    const rows = presentBalances({
      catalogue,
      balances: [{ coin: 'BTC', amount: 0n }],
      configured: new Set(),
      payoutSettings: new Map([setting('BTC', ['bc1q'])]),
      prices: new Map(),
    });
    expect(rows.map((r) => [r.coin_ticker, r.coin_balance])).toEqual([['BTC', '0']]);
  });
});

describe('account payouts', () => {
  const row = {
    payoutId: 1n,
    coin: 'LTC',
    status: 'sent' as const,
    txid: 'ab'.repeat(32),
    demo: false,
    createdAt: new Date('2025-06-14T23:30:00Z'),
    address: 'ltc1qalice',
    amount: 500_000n,
  };

  it("writes this account's amount and address, the date in the zone and the explorer link", () => {
    expect(presentAccountPayout(row, LTC, 'Europe/Madrid')).toEqual({
      payout_date: '2025-06-15T01:30:00+02:00',
      payout_address: 'ltc1qalice',
      coin_balance: '500000',
      coin_decimals: 8,
      coin_ticker: 'LTC',
      payout_txid: 'ab'.repeat(32),
      payout_txid_url: `https://explorer.example/LTC/tx/${'ab'.repeat(32)}`,
    });
  });

  it('reads Pending without a link until sent; demo transactions and coins without explorer get no link', () => {
    for (const status of ['pending', 'sending'] as const) {
      expect(presentAccountPayout({ ...row, status, txid: null }, LTC, 'UTC')).toMatchObject({
        payout_txid: 'Pending',
        payout_txid_url: null,
      });
    }
    expect(presentAccountPayout({ ...row, demo: true, txid: `demo${'0'.repeat(60)}` }, LTC, 'UTC')).toMatchObject({
      payout_txid: `demo${'0'.repeat(60)}`,
      payout_txid_url: null,
    });
    expect(presentAccountPayout({ ...row, coin: 'DASH' }, DASH, 'UTC').payout_txid_url).toBeNull();
  });
});

describe('earnings', () => {
  const earnings = [
    { day: '2025-06-14', coin: 'LTC', amount: 500_000n },
    { day: '2025-06-14', coin: 'BTC', amount: 700n },
    { day: '2025-06-13', coin: 'LTC', amount: 20_000n },
    { day: '2025-06-13', coin: 'DASH', amount: 0n },
  ];

  it('groups daily ledger sums by day, coins in catalogue order, zero sums dropped', () => {
    expect(Object.fromEntries(coinsByDay(earnings, catalogue))).toEqual({
      '2025-06-14': [
        { ticker: 'BTC', decimals: 8, units: 700n },
        { ticker: 'LTC', decimals: 8, units: 500_000n },
      ],
      '2025-06-13': [{ ticker: 'LTC', decimals: 8, units: 20_000n }],
    });
  });

  it('writes a day as an earning record with the speed in the unit that suits it', () => {
    expect(
      presentEarningDay({
        day: '2025-06-14',
        hashrate: '56173.714',
        coins: [
          { ticker: 'LTC', decimals: 8, units: 5n },
          // An FPPS credit's part that was transaction fees travels beside its amount.
          { ticker: 'BTC', decimals: 8, units: 9_900_029n, feeUnits: 29n },
        ],
      }),
    ).toEqual({
      earning_timestamp: '2025-06-14',
      speed: 56.174,
      speed_units: 'Kh/s',
      coins: [
        { coin_balance: '5', coin_decimals: 8, coin_ticker: 'LTC' },
        { coin_balance: '9900029', coin_decimals: 8, coin_ticker: 'BTC', coin_fees: '29' },
      ],
    });
    expect(presentEarningDay({ day: '2025-06-12', hashrate: '0', coins: [] })).toEqual({
      earning_timestamp: '2025-06-12',
      speed: 0,
      speed_units: 'H/s',
      coins: [],
    });
  });

  it('charts each day in US dollars at current prices, cut to cents; unpriced coins add nothing', () => {
    const chart = revenueChart(
      ['2025-06-12', '2025-06-13', '2025-06-14'],
      coinsByDay([...earnings, { day: '2025-06-14', coin: 'DASH', amount: 99_999_999n }], catalogue),
      new Map([price('BTC', '100000'), price('LTC', '80')]),
    );
    // 06-13: 0.0002 LTC × 80 = 0.016 → 0.01; 06-14: 0.000007 BTC × 100000 + 0.005 LTC × 80 = 1.1.
    expect(chart).toEqual({
      x_axis: ['2025-06-12', '2025-06-13', '2025-06-14'],
      y_axis: [0, 0.01, 1.1],
      label: REVENUE_CHART_LABEL,
    });
  });
});
