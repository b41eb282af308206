import type { AlgorithmStatsResponse } from '@lodestone/contract';
import { describe, expect, it } from 'vitest';
import { buildAlgorithmStats } from '../../testing/poolAnswers';
import { formatTopHashes, formatTopHashrate, statsCells } from './statsCells';

const stats: AlgorithmStatsResponse = buildAlgorithmStats();

describe('stats cells', () => {
  it('are the eight cells, in order, with their precisions', () => {
    expect(statsCells(stats).map((c) => [c.label, c.value])).toEqual([
      ['Pool Hashrate', '2.50 Th/s'],
      ['Active Workers', '80'],
      ['Registered users', '1,234'],
      ['Blocks found', '17'],
      ['Pool Total Hashes', '987.7 PH'],
      ['Average 24h profitability', '0.00011 BTC/TH/s'],
      ['Current profitability', '0.00012 BTC/TH/s'],
      ['High Speed Port profitability', '0.00012 BTC/TH/s'],
    ]);
  });

  it('formats the top hashers: hashrate 2 decimals, hashes 1', () => {
    expect(formatTopHashrate(12.345, 'Gh/s')).toBe('12.35 Gh/s');
    expect(formatTopHashes(1.25, 'PH')).toBe('1.3 PH');
    expect(formatTopHashes(0, 'H')).toBe('0.0 H');
  });
});
