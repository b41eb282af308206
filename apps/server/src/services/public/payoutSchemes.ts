import type { PayoutSchemeCoin, PayoutSchemesResponse } from '@lodestone/contract';
import {
  type Executor,
  listCoins,
  mergedNetworkStates,
  networkStates,
  newestFeeDay,
  newestValuation,
} from '@lodestone/db';
import { type AlgorithmKey, averageFeePerBlock, Exact, type PayoutScheme } from '@lodestone/domain';

/** A mined coin and the scheme its shares are valued by (the `coins` setting's payout_scheme). */
export interface SchemeCoin {
  ticker: string;
  algorithm: AlgorithmKey;
  mergedWith?: string | undefined;
  scheme: PayoutScheme;
}

/**
 * GET /v1/pool/schemes (docs/money.md, "FPPS"): each configured coin — or, on an algorithm without one,
 * the demo network's coins, valued by PPS — with what its newest credit was valued by and, for an
 * FPPS coin, the newest fee day its node gave.
 */
export async function readPayoutSchemes(
  db: Executor,
  configured: readonly SchemeCoin[],
): Promise<PayoutSchemesResponse> {
  const mined = new Set(configured.map((c) => c.algorithm));
  const [parents, merged, catalogue] = await Promise.all([networkStates(db), mergedNetworkStates(db), listCoins(db)]);
  const demo: SchemeCoin[] = [
    ...parents.filter((n) => n.demo && !mined.has(n.algorithm)).map((n) => ({ ...n, mergedWith: undefined })),
    ...merged
      .filter((n) => n.demo && !mined.has(n.algorithm))
      .map((n) => ({ ...n, mergedWith: parents.find((p) => p.algorithm === n.algorithm)?.coin })),
  ].map((n) => ({ ticker: n.coin, algorithm: n.algorithm, mergedWith: n.mergedWith, scheme: 'pps' }));
  const decimalsOf = new Map(catalogue.map((c) => [c.ticker, c.decimals]));
  const coins = await Promise.all(
    [...configured, ...demo].map(async (coin): Promise<PayoutSchemeCoin> => {
      const valuation = await newestValuation(db, coin.ticker);
      return {
        coin: coin.ticker,
        algorithm: coin.algorithm,
        merged_with: coin.mergedWith ?? null,
        scheme: coin.scheme,
        valued_by: valuation?.scheme ?? null,
        fallback: valuation?.fallback ?? null,
        fee_day: coin.scheme === 'fpps' ? await feeDayOf(db, coin.ticker, decimalsOf.get(coin.ticker)) : null,
      };
    }),
  );
  return { coins };
}

/** The coin's newest fee day in coin amounts; null while its node has given none (or it is not in the catalogue). */
async function feeDayOf(
  db: Executor,
  coin: string,
  decimals: number | undefined,
): Promise<PayoutSchemeCoin['fee_day']> {
  const reading = await newestFeeDay(db, coin, new Date(0));
  if (!reading?.day || decimals === undefined) return null;
  const { day } = reading;
  return {
    blocks: day.blocks,
    first_height: day.firstHeight,
    last_height: day.lastHeight,
    total_fees: Exact.fromUnits(day.totalFees, decimals).toFixed(decimals),
    average_fee: averageFeePerBlock(day).shifted(-decimals).toFixed(decimals),
    from: reading.from.toISOString(),
    to: reading.to.toISOString(),
  };
}
