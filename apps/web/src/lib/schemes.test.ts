import { PAYOUT_SCHEMES_EXAMPLE, type PayoutSchemeCoin } from '@lodestone/contract';
import { describe, expect, it } from 'vitest';
import { schemeLines } from './schemes';

const [ltc, doge] = PAYOUT_SCHEMES_EXAMPLE.coins as [PayoutSchemeCoin, PayoutSchemeCoin];

describe('schemeLines', () => {
  it('gives an FPPS coin’s average fee and its day, a merged coin’s parent, PPS plainly', () => {
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
