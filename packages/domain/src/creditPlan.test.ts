import { describe, expect, it } from 'vitest';
import {
  type CreditAccountRules,
  defaultConversion,
  type PlannedCredit,
  planCredits,
  tickersNeeded,
} from './creditPlan.js';
import { Exact } from './exact.js';
import type { PricedCoin } from './pps.js';

const PRICES: Record<string, PricedCoin> = {
  LTC: { decimals: 8, usd: '80' },
  BTC: { decimals: 8, usd: '100000' },
};
const priceOf = (ticker: string) => {
  const p = PRICES[ticker];
  if (!p) throw new Error(`no price for ${ticker}`);
  return p;
};
const catalogue = new Set(['LTC', 'BTC']);

const plain: CreditAccountRules = { id: 1n, feeDiscount: '0', referrerId: null, conversion: [], redirects: [] };
const referred: CreditAccountRules = {
  id: 2n,
  feeDiscount: '0.25',
  referrerId: 3n,
  conversion: [
    { ticker: 'LTC', proportion: '50' },
    { ticker: 'BTC', proportion: '50' },
  ],
  redirects: [{ targetId: 4n, percentage: '50' }],
};

const view = (credits: PlannedCredit[]) =>
  credits.map((c) => ({
    to: 'system' in c.recipient ? c.recipient.system : c.recipient.accountId,
    coin: c.coin,
    kind: c.kind,
    amount: c.amount.toString(),
    source: c.source,
  }));

describe('planCredits', () => {
  it('splits each account into owner, redirects, referral and pool fee, per coin it converts into', () => {
    const credits = planCredits({
      coin: 'LTC',
      feePercent: 1,
      priceOf,
      catalogue,
      lines: [
        { account: plain, value: Exact.of('1000000') },
        { account: referred, value: Exact.of('2000000') },
      ],
    });
    // Account 1: 1% fee. Account 2: 0.75% fee (1% less a quarter), 20% of it to the referrer, half
    // of what is left redirected; its BTC half is 1,000,000 LTC units × $80 ÷ $100,000 = 800 units.
    expect(view(credits)).toEqual([
      { to: 1n, coin: 'LTC', kind: 'pps', amount: '990000', source: undefined },
      { to: 'pool:fees', coin: 'LTC', kind: 'fee', amount: '16000', source: undefined },
      { to: 2n, coin: 'LTC', kind: 'pps', amount: '496250', source: undefined },
      { to: 4n, coin: 'LTC', kind: 'redirect_in', amount: '496250', source: 2n },
      { to: 3n, coin: 'LTC', kind: 'referral', amount: '1500', source: 2n },
      { to: 2n, coin: 'BTC', kind: 'pps', amount: '397', source: undefined },
      { to: 4n, coin: 'BTC', kind: 'redirect_in', amount: '397', source: 2n },
      { to: 3n, coin: 'BTC', kind: 'referral', amount: '1.2', source: 2n },
      { to: 'pool:fees', coin: 'BTC', kind: 'fee', amount: '4.8', source: undefined },
    ]);
    const sum = (coin: string) =>
      credits
        .filter((c) => c.coin === coin)
        .reduce((s, c) => s.plus(c.amount), Exact.ZERO)
        .toString();
    expect(sum('LTC')).toBe('2000000');
    expect(sum('BTC')).toBe('800');
  });

  it('keeps fractions of a unit and leaves out zero values and zero parts', () => {
    const credits = planCredits({
      coin: 'LTC',
      feePercent: 0,
      priceOf,
      catalogue,
      lines: [
        { account: plain, value: Exact.of('0.5') },
        { account: { ...plain, id: 9n }, value: Exact.ZERO },
      ],
    });
    expect(view(credits)).toEqual([{ to: 1n, coin: 'LTC', kind: 'pps', amount: '0.5', source: undefined }]);
  });

  it('credits a coin outside the catalogue in BTC when the account chose nothing', () => {
    expect(defaultConversion('LTC', catalogue)).toEqual([{ ticker: 'LTC', proportion: 100 }]);
    expect(defaultConversion('DOGE', catalogue)).toEqual([{ ticker: 'BTC', proportion: 100 }]);
    const credits = planCredits({
      coin: 'DOGE',
      feePercent: 0,
      priceOf: (t) => (t === 'DOGE' ? { decimals: 8, usd: '0.1' } : priceOf(t)),
      catalogue,
      lines: [{ account: plain, value: Exact.of('1000000') }],
    });
    // 1,000,000 DOGE units × $0.1 ÷ $100,000 = 1 BTC unit.
    expect(view(credits)).toEqual([{ to: 1n, coin: 'BTC', kind: 'pps', amount: '1', source: undefined }]);
  });

  it("credits an aux coin's value in the algorithm's coin when the account chose nothing (merged mining)", () => {
    const doge = (t: string) => (t === 'DOGE' ? { decimals: 8, usd: '0.4' } : priceOf(t));
    const withDoge = new Set([...catalogue, 'DOGE']);
    const lines = [
      { account: plain, value: Exact.of('80000000') },
      {
        account: { ...plain, id: 5n, conversion: [{ ticker: 'DOGE', proportion: '100' }] },
        value: Exact.of('80000000'),
      },
    ];
    const credits = planCredits({
      coin: 'DOGE',
      defaultCoin: 'LTC',
      feePercent: 0,
      priceOf: doge,
      catalogue: withDoge,
      lines,
    });
    // 0.8 DOGE at $0.40 = $0.32 = 0.004 LTC at $80; the account that chose DOGE keeps its 0.8 DOGE.
    expect(view(credits)).toEqual([
      { to: 1n, coin: 'LTC', kind: 'pps', amount: '400000', source: undefined },
      { to: 5n, coin: 'DOGE', kind: 'pps', amount: '80000000', source: undefined },
    ]);
    expect(tickersNeeded('DOGE', [plain], withDoge, 'LTC')).toEqual(['DOGE', 'LTC']);
  });

  it('refuses conversion settings that do not add up to 100%', () => {
    const bad = { ...plain, conversion: [{ ticker: 'BTC', proportion: '60' }] };
    expect(() =>
      planCredits({ coin: 'LTC', feePercent: 1, priceOf, catalogue, lines: [{ account: bad, value: Exact.ONE }] }),
    ).toThrow(RangeError);
  });
});

describe('tickersNeeded', () => {
  it('is the mined coin and every coin the accounts convert into, once each', () => {
    expect(tickersNeeded('LTC', [plain, referred], catalogue)).toEqual(['LTC', 'BTC']);
    expect(tickersNeeded('LTC', [plain], catalogue)).toEqual(['LTC']);
    expect(tickersNeeded('DOGE', [plain], catalogue)).toEqual(['DOGE', 'BTC']);
  });
});
