import type { AlgorithmStatsResponse } from '@lodestone/contract';
import { fixed } from '@lodestone/domain';
import { formatHashrate } from '../../lib/format';

/** Profit 5 decimals, hashes 1 (docs/website.md, Figures); hashrate 2, as everywhere (lib/format). */
export const PROFIT_DECIMALS = 5;
export const HASHES_DECIMALS = 1;

export interface StatsCell {
  label: string;
  value: string;
  testId: string;
}

const count = (n: number) => n.toLocaleString('en-US');

/** The pool info grid of the stats page: its eight cells in order. */
export function statsCells(s: AlgorithmStatsResponse): StatsCell[] {
  const profit = (value: number) => `${fixed(value, PROFIT_DECIMALS)} ${s.profit_units}`;
  return [
    { label: 'Pool Hashrate', value: formatTopHashrate(s.hashrate, s.hashrate_units), testId: 'cell-hashrate' },
    { label: 'Active Workers', value: count(s.workers), testId: 'cell-workers' },
    { label: 'Registered users', value: count(s.users), testId: 'cell-users' },
    { label: 'Blocks found', value: count(s.blocks), testId: 'cell-blocks' },
    { label: 'Pool Total Hashes', value: formatTopHashes(s.hashes, s.hashes_units), testId: 'cell-hashes' },
    { label: 'Average 24h profitability', value: profit(s.profit_avg), testId: 'cell-profit-avg' },
    { label: 'Current profitability', value: profit(s.profit), testId: 'cell-profit' },
    { label: 'High Speed Port profitability', value: profit(s.profit_speed), testId: 'cell-profit-speed' },
  ];
}

/** "12.35 Th/s": the pool's hashrate cell and the top current hashers. */
export const formatTopHashrate = formatHashrate;

/** "1.2 PH": the pool's total hashes cell and the all-time top hashers. */
export function formatTopHashes(value: number, units: string): string {
  return `${fixed(value, HASHES_DECIMALS)} ${units}`;
}
