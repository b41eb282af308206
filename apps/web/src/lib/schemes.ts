import type { PayoutSchemeCoin } from '@lodestone/contract';
import { algorithmByKey } from '@lodestone/domain';

/** One mined coin in the FAQ's reward answer: how its shares are valued now, in words. */
export interface SchemeLine {
  coin: string;
  /** "SCRYPT", "SCRYPT, merge-mined with LTC" */
  where: string;
  /** "PPS", "FPPS" */
  scheme: string;
  /** What the scheme pays now, or why FPPS is not in use; empty for plain PPS. */
  detail: string;
}

const thousands = (n: number) => n.toLocaleString('en-US');

/**
 * The reward answer's lines (docs/money.md, "FPPS"): an FPPS coin with its fee day ("the block subsidy plus
 * 0.00214334 LTC, the network's average fees per block over the last 24 hours: 576 blocks, 2,900,001 to
 * 2,900,576"), or the reason its shares are valued by PPS for now; other coins plain PPS.
 */
export function schemeLines(coins: readonly PayoutSchemeCoin[]): SchemeLine[] {
  return coins.map((c) => {
    const algorithm = algorithmByKey(c.algorithm)?.name ?? c.algorithm;
    const where = c.merged_with ? `${algorithm}, merge-mined with ${c.merged_with}` : algorithm;
    if (c.scheme === 'pps') return { coin: c.coin, where, scheme: 'PPS', detail: '' };
    if (c.valued_by === 'pps') {
      const why = c.fallback ? `: ${c.fallback}` : '';
      return { coin: c.coin, where, scheme: 'FPPS', detail: `valued by PPS for now${why}.` };
    }
    if (!c.fee_day) return { coin: c.coin, where, scheme: 'FPPS', detail: "waiting for the network's fees." };
    const d = c.fee_day;
    return {
      coin: c.coin,
      where,
      scheme: 'FPPS',
      detail:
        `the block subsidy plus ${d.average_fee} ${c.coin}, the network's average fees per block over the last 24 hours ` +
        `(${thousands(d.blocks)} blocks, ${thousands(d.first_height)} to ${thousands(d.last_height)}).`,
    };
  });
}
