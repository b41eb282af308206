import { describe, expect, it } from 'vitest';
import { PriceFeedError } from './priceSource.js';
import { StaticPriceSource } from './staticPrices.js';

const now = () => new Date('2025-01-02T03:04:05Z');

describe('StaticPriceSource', () => {
  it('returns the configured prices exactly, stamped now, with USD and EUR after the coins', async () => {
    const source = new StaticPriceSource({
      prices: { BTC: '64123.5', LTC: 71.23, EUR: '1.0868', KAS: '0.000012345678901', DOGE: '1.2e-1' },
      now,
    });
    expect(source.name).toBe('static');
    expect(await source.fetch()).toEqual({
      source: 'static',
      takenAt: now(),
      quotes: [
        { ticker: 'BTC', usd: '64123.5' },
        { ticker: 'LTC', usd: '71.23' },
        { ticker: 'KAS', usd: '0.000012345678901' },
        { ticker: 'DOGE', usd: '0.12' },
        { ticker: 'USD', usd: '1' },
        { ticker: 'EUR', usd: '1.0868' },
      ],
    });
  });

  it('hands out copies: a caller changing a snapshot does not change the next one', async () => {
    const source = new StaticPriceSource({ prices: { BTC: '1' }, now });
    const first = await source.fetch();
    (first.quotes[0] as { usd: string }).usd = '2';
    expect((await source.fetch()).quotes[0]).toEqual({ ticker: 'BTC', usd: '1' });
  });

  it.each([
    [{ BTC: '0' }, /BTC/],
    [{ BTC: -1 }, /BTC/],
    [{ BTC: 'sixty' }, /BTC/],
    [{ LTC: '' }, /LTC/],
    [{ btc: '1' }, /upper-case/],
    [{ BTC: '1', USD: '1.01' }, /USD must be 1/],
    [{ EUR: '1.08' }, /no coin prices/],
    [{}, /no coin prices/],
  ] as const)('refuses %j', (prices, message) => {
    expect(() => new StaticPriceSource({ prices })).toThrow(PriceFeedError);
    expect(() => new StaticPriceSource({ prices })).toThrow(message);
  });

  it('accepts USD when it is 1, and lists it once', async () => {
    const source = new StaticPriceSource({ prices: { USD: '1.000', BTC: '5' }, now });
    expect((await source.fetch()).quotes.map((q) => q.ticker)).toEqual(['BTC', 'USD']);
  });
});
