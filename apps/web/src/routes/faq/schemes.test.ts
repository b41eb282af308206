import type { PayoutSchemeCoin } from '@lodestone/contract';
import { describe, expect, it } from 'vitest';
import { schemeLines } from './schemes';

const ltc: PayoutSchemeCoin = {
  coin: 'LTC',
  algorithm: 'scrypt',
  merged_with: null,
  scheme: 'fpps',
  valued_by: 'fpps',
  fallback: null,
  fee_day: {
    blocks: 576,
    first_height: 2_900_001,
    last_height: 2_900_576,
    total_fees: '1.23456789',
    average_fee: '0.00214334',
    from: '2026-11-29T12:00:00.000Z',
    to: '2026-11-30T12:00:00.000Z',
  },
};

describe('schemeLines', () => {
  it('gives an FPPS coin’s average fee and its day, a merged coin’s parent, PPS plainly', () => {
    const doge: PayoutSchemeCoin = { ...ltc, coin: 'DOGE', merged_with: 'LTC', scheme: 'pps', fee_day: null };
    expect(schemeLines([ltc, doge])).toEqual([
      {
        coin: 'LTC',
        where: 'SCRYPT',
        scheme: 'FPPS',
        detail:
          "the block subsidy plus 0.00214334 LTC, the network's average fees per block over the last 24 hours " +
          '(576 blocks, 2,900,001 to 2,900,576).',
      },
      { coin: 'DOGE', where: 'SCRYPT, merge-mined with LTC', scheme: 'PPS', detail: '' },
    ]);
  });

  it('says why an FPPS coin is valued by PPS for now, or that its fees are awaited', () => {
    const reason = "LTC's node has no getblockstats, so it cannot report fees";
    expect(schemeLines([{ ...ltc, valued_by: 'pps', fallback: reason, fee_day: null }])[0]?.detail).toBe(
      `valued by PPS for now: ${reason}.`,
    );
    expect(schemeLines([{ ...ltc, valued_by: null, fee_day: null }])[0]?.detail).toBe(
      "waiting for the network's fees.",
    );
  });
});
