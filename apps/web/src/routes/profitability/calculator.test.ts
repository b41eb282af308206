import { describe, expect, it } from 'vitest';
import {
  btcPriceOf,
  CALCULATOR_DEFAULTS,
  calculate,
  FALLBACK_BTC_PRICE,
  formatResult,
  parseCalculatorFields,
  rateFieldText,
  resultUnits,
} from './calculator';

const tera = { calculatorFactor: 12, rateFactor: 12 };
/** 10 TH/s at 0.00012 BTC/TH/s a day, 1% fee, a 1200 W machine at 0.16 USD/kWh. */
const rig = { hashrate: 10, rate: 0.00012, power: 1200, fee: 1, energyCost: 0.16 };

describe('calculate (hand-computed)', () => {
  it('in btc at 100,000 USD: revenue 10 × 0.00012 × 0.99 = 0.001188 BTC a day', () => {
    // costs: 1200 W × 24 h ÷ 1000 = 28.8 kWh × 0.16 = 4.608 USD ÷ 100,000 = 0.00004608 BTC.
    const [day, week, month] = calculate(rig, { ...tera, btcPrice: 100_000, unitPrice: 100_000 });
    expect(day?.label).toBe('24 Hours');
    expect(day?.revenue).toBeCloseTo(0.001188, 12);
    expect(day?.costs).toBeCloseTo(0.00004608, 12);
    expect(day?.profit).toBeCloseTo(0.00114192, 12);
    expect(week?.label).toBe('7 Days');
    expect(week?.revenue).toBeCloseTo(0.008316, 12);
    expect(week?.costs).toBeCloseTo(0.00032256, 12);
    expect(week?.profit).toBeCloseTo(0.00799344, 12);
    expect(month?.label).toBe('30 Days');
    expect(month?.revenue).toBeCloseTo(0.03564, 12);
    expect(month?.costs).toBeCloseTo(0.0013824, 12);
    expect(month?.profit).toBeCloseTo(0.0342576, 12);
  });

  it('in USD: 118.8 revenue, 4.608 costs, 114.192 profit a day', () => {
    const [day, , month] = calculate(rig, { ...tera, btcPrice: 100_000, unitPrice: 1 });
    expect(day?.revenue).toBeCloseTo(118.8, 9);
    expect(day?.costs).toBeCloseTo(4.608, 9);
    expect(day?.profit).toBeCloseTo(114.192, 9);
    expect(month?.revenue).toBeCloseTo(3564, 9);
    expect(month?.costs).toBeCloseTo(138.24, 9);
    expect(month?.profit).toBeCloseTo(3425.76, 9);
  });

  it('in EUR at 1.08 USD per euro: 118.8 ÷ 1.08 = 110 revenue', () => {
    const [day] = calculate(rig, { ...tera, btcPrice: 100_000, unitPrice: 1.08 });
    expect(day?.revenue).toBeCloseTo(110, 9);
    expect(day?.costs).toBeCloseTo(4.266667, 6);
    expect(day?.profit).toBeCloseTo(105.733333, 6);
  });

  it('in another coin (ltc at 80 USD) at a BTC price of 60,000', () => {
    // 10 × 0.00012 × 60,000 × 0.99 = 71.28 USD ÷ 80 = 0.891 LTC; 4.608 ÷ 80 = 0.0576 LTC.
    const [day] = calculate(rig, { ...tera, btcPrice: 60_000, unitPrice: 80 });
    expect(day?.revenue).toBeCloseTo(0.891, 12);
    expect(day?.costs).toBeCloseTo(0.0576, 12);
    expect(day?.profit).toBeCloseTo(0.8334, 12);
  });

  it('the fee is a percent: 2.5% keeps 97.5% of the revenue', () => {
    const [day] = calculate({ ...rig, power: 0, fee: 2.5 }, { ...tera, btcPrice: 100_000, unitPrice: 1 });
    expect(day?.revenue).toBeCloseTo(10 * 0.00012 * 100_000 * 0.975, 9);
    expect(day?.profit).toBeCloseTo(117, 9);
  });

  it('costs only: a loss is a negative profit', () => {
    // 1000 W × 24 ÷ 1000 × 0.1 = 2.4 USD a day, nothing earned.
    const results = calculate(
      { hashrate: 0, rate: 0.00012, power: 1000, fee: 1, energyCost: 0.1 },
      { ...tera, btcPrice: 100_000, unitPrice: 1 },
    );
    expect(results.map((r) => r.profit)).toEqual([-2.4, -16.8, -72].map((v) => expect.closeTo(v, 9)));
  });

  it('the defaults (hash rate 0, power 0) give zeros everywhere', () => {
    const fields = { ...CALCULATOR_DEFAULTS, rate: '0.00012' };
    const input = parseCalculatorFields(fields);
    expect(input).toEqual({ hashrate: 0, power: 0, fee: 1, energyCost: 0.16, rate: 0.00012 });
    if (!input) throw new Error('unreachable');
    for (const r of calculate(input, { ...tera, btcPrice: 100_000, unitPrice: 100_000 })) {
      expect([r.revenue, r.costs, r.profit].map((v) => formatResult(v, 'btc'))).toEqual([
        '0.000000 btc',
        '0.000000 btc',
        '0.000000 btc',
      ]);
    }
  });

  it('unequal factors scale by their power of ten: 500 GH/s at a TH/s rate is 0.5 TH/s', () => {
    const [day] = calculate(
      { hashrate: 500, rate: 0.0002, power: 0, fee: 0, energyCost: 0 },
      { calculatorFactor: 9, rateFactor: 12, btcPrice: 100_000, unitPrice: 100_000 },
    );
    expect(day?.revenue).toBeCloseTo(0.0001, 12);
  });
});

describe('result units', () => {
  it('are the price tickers lowercased, then USD and EUR', () => {
    const units = resultUnits(
      [
        { ticker: 'BTC', price: 100_000 },
        { ticker: 'LTC', price: 80 },
        { ticker: 'DOGE', price: 0.16 },
      ],
      { USD: 1, EUR: 1.08 },
    );
    expect(units.map((u) => u.id)).toEqual(['btc', 'ltc', 'doge', 'USD', 'EUR']);
    expect(units.map((u) => u.usdPrice)).toEqual([100_000, 80, 0.16, 1, 1.08]);
    expect(units.some((u) => u.fallback)).toBe(false);
  });

  it('without a BTC price or a euro rate, the fallbacks stand in and are marked', () => {
    const units = resultUnits([{ ticker: 'LTC', price: 80 }], { USD: 1 });
    expect(units.map((u) => [u.id, u.usdPrice, u.fallback])).toEqual([
      ['btc', FALLBACK_BTC_PRICE, true],
      ['ltc', 80, false],
      ['USD', 1, false],
      ['EUR', 1, true],
    ]);
    expect(btcPriceOf([{ ticker: 'LTC', price: 80 }])).toEqual({ price: 100_000, fallback: true });
    expect(btcPriceOf([{ ticker: 'BTC', price: 64_000 }])).toEqual({ price: 64_000, fallback: false });
  });
});

describe('form fields', () => {
  it('refuses empty or non-numeric text', () => {
    const ok = { hashrate: '1000.0', rate: '0.0001', power: '1200', fee: '1', energyCost: '0.16' };
    expect(parseCalculatorFields(ok)).toEqual({ hashrate: 1000, rate: 0.0001, power: 1200, fee: 1, energyCost: 0.16 });
    expect(parseCalculatorFields({ ...ok, fee: '' })).toBeNull();
    expect(parseCalculatorFields({ ...ok, power: 'abc' })).toBeNull();
  });

  it("writes the API's rate without exponents", () => {
    expect(rateFieldText(1.2e-7)).toBe('0.00000012');
    expect(rateFieldText(0.00012)).toBe('0.00012');
    expect(rateFieldText(0)).toBe('0');
    expect(rateFieldText(3)).toBe('3');
  });

  it('formats results with 6 decimals and the unit', () => {
    expect(formatResult(0.00114192, 'btc')).toBe('0.001142 btc');
    expect(formatResult(-2.4, 'USD')).toBe('-2.400000 USD');
  });
});
