import { describe, expect, it } from 'vitest';
import { FALLBACK_COLOUR, formatShare, formatUsdTotal, pieSlices, pieTotal, TICKER_COLOURS, tickerColour } from './pie';

const entry = (coin_ticker: string, usd_value: number) => ({ coin_ticker, usd_value });

describe('pie colours', () => {
  it('has a colour for every named ticker, all different', () => {
    const named = ['BTC', 'LTC', 'DOGE', 'DGB', 'ETH', 'CKB', 'KDA', 'DASH', 'KAS', 'BELLS', 'BCH', 'USDC', 'SOL'];
    for (const t of named) expect(TICKER_COLOURS[t], t).toMatch(/^#[0-9a-f]{6}$/);
    expect(new Set(named.map((t) => TICKER_COLOURS[t])).size).toBe(named.length);
    expect(named.map((t) => TICKER_COLOURS[t])).not.toContain(FALLBACK_COLOUR);
  });

  it('falls back to grey for any other coin, whatever the case', () => {
    expect(tickerColour('btc')).toBe('#f7931a');
    expect(tickerColour('XMR')).toBe('#9ca3af');
    expect(tickerColour('xmr')).toBe('#9ca3af');
  });
});

describe('pie totals', () => {
  it('sums in cents and shows 2 decimals', () => {
    expect(pieTotal([entry('BTC', 0.1), entry('LTC', 0.2)])).toBe(0.3);
    expect(formatUsdTotal(pieTotal([entry('BTC', 1234.5), entry('LTC', 0.25)]))).toBe('$1,234.75');
    expect(formatUsdTotal(pieTotal([]))).toBe('$0.00');
  });

  it('ignores zero, negative and non-finite values', () => {
    expect(pieTotal([entry('BTC', 10), entry('LTC', 0), entry('DOGE', -5), entry('ETH', Number.NaN)])).toBe(10);
  });
});

describe('pie slices', () => {
  it('splits the circle by dollar share, clockwise from twelve o’clock', () => {
    const slices = pieSlices([entry('BTC', 75), entry('LTC', 25)], 50);
    expect(slices.map((s) => [s.ticker, s.share, s.colour])).toEqual([
      ['BTC', 0.75, '#f7931a'],
      ['LTC', 0.25, '#345d9d'],
    ]);
    // BTC: from (50,0) at twelve o'clock to (0,50) at nine o'clock, the long way round.
    expect(slices[0]?.path).toBe('M50,50 L50,0 A50,50 0 1 1 0,50 Z');
    // LTC: from nine o'clock back to twelve, a quarter.
    expect(slices[1]?.path).toBe('M50,50 L0,50 A50,50 0 0 1 50,0 Z');
    expect(formatShare(slices[0]?.share ?? 0)).toBe('75.0%');
  });

  it('draws one coin as a whole circle and nothing without payouts', () => {
    const [only] = pieSlices([entry('DOGE', 12)], 50);
    expect(only?.share).toBe(1);
    expect(only?.path).toBe('M50,0 A50,50 0 1 1 50,100 A50,50 0 1 1 50,0 Z');
    expect(pieSlices([], 50)).toEqual([]);
    expect(pieSlices([entry('BTC', 0)], 50)).toEqual([]);
  });
});
