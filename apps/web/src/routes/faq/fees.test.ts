import { describe, expect, it } from 'vitest';
import { feeLines } from './fees';

describe('FAQ fee answer', () => {
  it('lists the fee of every coin as a percent with 1 decimal, in the order given', () => {
    expect(
      feeLines({ pools: { BTC: { fee: 0.01 }, LTC: { fee: 0.015 }, DOGE: { fee: 0 }, KAS: { fee: 0.0025 } } }),
    ).toEqual([
      { ticker: 'BTC', percent: '1.0%' },
      { ticker: 'LTC', percent: '1.5%' },
      { ticker: 'DOGE', percent: '0.0%' },
      { ticker: 'KAS', percent: '0.3%' },
    ]);
    expect(feeLines({ pools: {} })).toEqual([]);
  });
});
