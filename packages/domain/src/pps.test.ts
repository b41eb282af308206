import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Exact } from './exact.js';
import {
  accrue,
  convertByProportions,
  convertUnits,
  feeRate,
  networkDifficulty,
  profitPerHashPerDay,
  shareValue,
  splitEarnings,
} from './pps.js';

/** A decimal string with up to `decimals` decimals below `max`. */
const decimalText = (max: number, decimals: number) =>
  fc
    .tuple(fc.integer({ min: 0, max }), fc.integer({ min: 0, max: 10 ** decimals - 1 }))
    .map(([w, f]) => `${w}.${String(f).padStart(decimals, '0')}`);

describe('networkDifficulty', () => {
  it('is 1 for the difficulty-1 target of SHA256 (2^224 × 0xffff / 0x10000 convention aside: 2^224 − 1)', () => {
    // target 2^224 − 1 means 2^32 hashes per block: exactly one difficulty-1 share of SHA256.
    expect(networkDifficulty((1n << 224n) - 1n, 2 ** 32)).toBe('1');
  });
  it('doubles when the target halves', () => {
    expect(networkDifficulty((1n << 223n) - 1n, 2 ** 32)).toBe('2');
  });
});

describe('shareValue', () => {
  it('is difficulty × reward ÷ network difficulty', () => {
    // 1,000 difficulty of shares on a network of difficulty 1,000,000 with 6.25 LTC blocks.
    expect(shareValue('1000', 625_000_000n, '1000000').toString()).toBe('625000');
    expect(shareValue('1', 3n, '7').toString()).toBe('0.428571428571428571');
  });
  it('refuses a non-positive network difficulty', () => {
    expect(() => shareValue('1', 1n, '0')).toThrow(RangeError);
  });
});

describe('convertUnits', () => {
  it('converts at dollar prices across decimals', () => {
    // 1 LTC (1e8 units) at $80 into ETH at $4,000 (18 decimals) = 0.02 ETH.
    const eth = convertUnits(Exact.of(100_000_000n), { decimals: 8, usd: '80' }, { decimals: 18, usd: '4000' });
    expect(eth.toString()).toBe('20000000000000000');
  });
});

describe('feeRate', () => {
  it('is the fee percent less the discount', () => {
    expect(feeRate(1, '0').toString()).toBe('0.01');
    expect(feeRate('1', '0.25').toString()).toBe('0.0075');
    expect(feeRate(1, 1).toString()).toBe('0');
  });
  it('refuses out-of-range inputs', () => {
    expect(() => feeRate(1, '1.5')).toThrow(RangeError);
    expect(() => feeRate(101, 0)).toThrow(RangeError);
  });
});

describe('splitEarnings', () => {
  it('takes the fee, gives the referrer 20% of it, then redirects out of the rest', () => {
    const s = splitEarnings(Exact.of(1000), {
      feeRate: feeRate(1, 0),
      referred: true,
      redirects: [{ to: 'bob', percentage: 10 }],
    });
    expect(s.poolFee.toString()).toBe('8');
    expect(s.referral.toString()).toBe('2');
    expect(s.redirects).toEqual([{ to: 'bob', amount: Exact.of('99') }]);
    expect(s.owner.toString()).toBe('891');
  });

  it('creates and loses nothing: owner + redirects + referral + pool fee = gross, exactly', () => {
    fc.assert(
      fc.property(
        decimalText(10 ** 12, 18),
        decimalText(100, 4).filter((p) => Number(p) <= 100),
        decimalText(1, 4).filter((d) => Number(d) <= 1),
        fc.boolean(),
        fc.array(decimalText(25, 3), { maxLength: 4 }),
        (gross, fee, discount, referred, percentages) => {
          const split = splitEarnings(Exact.of(gross), {
            feeRate: feeRate(fee, discount),
            referred,
            redirects: percentages.map((p, i) => ({ to: `a${i}`, percentage: p })),
          });
          const total = split.redirects.reduce(
            (sum, r) => sum.plus(r.amount),
            split.owner.plus(split.referral).plus(split.poolFee),
          );
          expect(total.compare(Exact.of(gross))).toBe(0);
          for (const part of [split.owner, split.referral, split.poolFee, ...split.redirects.map((r) => r.amount)]) {
            expect(part.isNegative()).toBe(false);
          }
        },
      ),
    );
  });

  it('refuses redirects above 100%', () => {
    expect(() =>
      splitEarnings(Exact.of(1), {
        feeRate: Exact.ZERO,
        referred: false,
        redirects: [{ to: 'a', percentage: '100.01' }],
      }),
    ).toThrow(RangeError);
  });
});

describe('accrue', () => {
  it('carries fractions until they make a whole unit, losing nothing', () => {
    fc.assert(
      fc.property(fc.array(decimalText(5, 18), { maxLength: 50 }), (amounts) => {
        let carried = Exact.ZERO;
        let whole = 0n;
        for (const a of amounts) {
          const r = accrue(carried, Exact.of(a));
          whole += r.whole;
          carried = r.carried;
          expect(carried.compare(0) >= 0 && carried.compare(1) < 0).toBe(true);
        }
        const sum = amounts.reduce((s, a) => s.plus(Exact.of(a)), Exact.ZERO);
        expect(Exact.of(whole).plus(carried).compare(sum)).toBe(0);
      }),
    );
  });
});

describe('convertByProportions', () => {
  const prices: Record<string, { decimals: number; usd: string }> = {
    LTC: { decimals: 8, usd: '80' },
    BTC: { decimals: 8, usd: '100000' },
    DOGE: { decimals: 8, usd: '0.2' },
  };
  const priceOf = (t: string) => prices[t] ?? { decimals: 8, usd: '1' };

  it('divides by proportion and converts each part', () => {
    const parts = convertByProportions(
      Exact.of(100_000_000n),
      priceOf('LTC'),
      [
        { ticker: 'LTC', proportion: 50 },
        { ticker: 'DOGE', proportion: 50 },
        { ticker: 'BTC', proportion: 0 },
      ],
      priceOf,
    );
    expect(parts.map((p) => [p.ticker, p.units.toString()])).toEqual([
      ['LTC', '50000000'],
      ['DOGE', '20000000000'],
    ]);
  });

  it('refuses proportions that do not add up to 100', () => {
    expect(() => convertByProportions(Exact.ONE, priceOf('LTC'), [{ ticker: 'LTC', proportion: 99 }], priceOf)).toThrow(
      /not 100/,
    );
  });

  it('never hands out more value than it was given', () => {
    fc.assert(
      fc.property(decimalText(10 ** 10, 6), fc.integer({ min: 0, max: 100 }), (value, share) => {
        const parts = convertByProportions(
          Exact.of(value),
          priceOf('LTC'),
          [
            { ticker: 'BTC', proportion: share },
            { ticker: 'DOGE', proportion: 100 - share },
          ],
          priceOf,
        );
        const usd = parts.reduce(
          (sum, p) => sum.plus(p.units.shifted(-8).times(Exact.of(priceOf(p.ticker).usd))),
          Exact.ZERO,
        );
        const given = Exact.of(value).shifted(-8).times(80);
        expect(usd.compare(given)).toBeLessThanOrEqual(0);
        // Rounding toward zero loses less than one 10^-18 unit per part.
        expect(given.minus(usd).compare(Exact.of('1e-20').times(100000))).toBeLessThanOrEqual(0);
      }),
    );
  });
});

describe('profitPerHashPerDay', () => {
  it('values a hash-day of the mined coin in BTC', () => {
    // A network of difficulty 1 (2^32 hashes per block) paying 1 BTC: a hash is worth 2^-32 BTC,
    // so 1 H/s for a day earns 86,400 / 2^32 BTC.
    const rate = profitPerHashPerDay(100_000_000n, 1, 2 ** 32, { decimals: 8, usd: '1' }, { decimals: 8, usd: '1' });
    expect(rate.toNumber()).toBeCloseTo(86_400 / 2 ** 32, 15);
  });
});
