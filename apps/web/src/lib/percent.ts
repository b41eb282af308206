import { fixed } from '@lodestone/domain';

/** "1%", "0.5%", "1.25%": a percentage with at most two decimals and no trailing zeros. */
export function formatPercent(value: number): string {
  return `${fixed(value, 2).replace(/\.?0+$/, '')}%`;
}
