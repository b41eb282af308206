import type { BlockRow } from '@lodestone/contract';
import { coinDisplayDecimals, DEFAULT_COIN_DISPLAY_DECIMALS, fixed, formatAmount } from '@lodestone/domain';
import { formatHashrate } from './format';

/**
 * A chain's network as the stats page and the Blocks page show it (docs/website.md, Blocks): height,
 * difficulty, network hashrate and block reward, each from the pool's newest job on that chain.
 */

/** Significant digits of a difficulty below 1 (the demo chains' easy targets). */
const SMALL_DIFFICULTY_DIGITS = 4;

/** "1,234,567.89" at 2 decimals with thousands separators; below 1, 4 significant digits ("0.0002441"). */
export function formatDifficulty(value: number): string {
  if (!Number.isFinite(value)) return '—';
  return value >= 1
    ? value.toLocaleString('en-US', { maximumFractionDigits: 2 })
    : value.toLocaleString('en-US', { maximumSignificantDigits: SMALL_DIFFICULTY_DIGITS });
}

/** "512.35 Th/s" (2 decimals, like every hashrate); "—" for a chain whose block interval is not fixed. */
export function formatNetworkHashrate(value: number | null, units: string): string {
  return value === null ? '—' : formatHashrate(value, units);
}

/**
 * "6.25000000 LTC": a block reward (exact decimal text in whole coins) at the coin's display precision, cut toward
 * zero (docs/website.md, "Coin amounts").
 */
export function formatBlockReward(reward: string, coin: string): string {
  return `${formatAmount(reward, coinDisplayDecimals(coin, DEFAULT_COIN_DISPLAY_DECIMALS))} ${coin}`;
}

/** A block height as the chain numbers it, without separators ("2812345"): it names a block, it is not a quantity. */
export function formatHeight(height: number): string {
  return String(height);
}

/** Decimals of an effort or luck percent (docs/website.md, Blocks). */
export const EFFORT_DECIMALS = 1;

/** A ratio from the API (1 = 100 %) as a percent with 1 decimal: "95.0%", "123.4%"; a dash without a figure. */
export function formatRatioPercent(ratio: number | null): string {
  if (ratio === null || !Number.isFinite(ratio)) return '—';
  return `${fixed(ratio * 100, EFFORT_DECIMALS)}%`;
}

/** 'Pending — 3 confirmations left', 'Pending' (the chain decides maturity its own way), 'Confirmed', 'Orphaned'. */
export function blockStatusText(block: Pick<BlockRow, 'status' | 'confirmations_left'>): string {
  switch (block.status) {
    case 'confirmed':
      return 'Confirmed';
    case 'orphaned':
      return 'Orphaned';
    default: {
      const left = block.confirmations_left;
      if (left === null) return 'Pending';
      return `Pending — ${left.toLocaleString('en-US')} ${left === 1 ? 'confirmation' : 'confirmations'} left`;
    }
  }
}
