import { pageOf } from '@lodestone/domain';
import { describe, expect, it } from 'vitest';
import { filterReferrals, formatReferralHashrate, REFERRALS_PAGE_SIZE, type Referral } from './referrals';

const rows: Referral[] = Array.from({ length: 23 }, (_, i) => ({
  username: `miner${String(i + 1).padStart(2, '0')}`,
  revenue: (i / 1000).toFixed(8),
  hashrates: i === 4 ? [{ algorithm: 'sha256', hashrate: 1.5, units: 'Th/s' }] : [],
}));

describe('referral list', () => {
  it('formats a hashrate with the algorithm name and 2 decimals', () => {
    expect(formatReferralHashrate({ algorithm: 'sha256', hashrate: 1.5, units: 'Th/s' })).toBe('SHA256 1.50 Th/s');
    expect(formatReferralHashrate({ algorithm: 'other', hashrate: 2, units: 'H/s' })).toBe('OTHER 2.00 H/s');
  });

  it('keeps every row for an empty query', () => {
    expect(filterReferrals(rows, '  ')).toHaveLength(23);
  });

  it('matches the username, revenue or hashrate, case-insensitively', () => {
    expect(filterReferrals(rows, 'MINER1').map((r) => r.username)).toEqual([
      'miner10',
      'miner11',
      'miner12',
      'miner13',
      'miner14',
      'miner15',
      'miner16',
      'miner17',
      'miner18',
      'miner19',
    ]);
    expect(filterReferrals(rows, 'sha256').map((r) => r.username)).toEqual(['miner05']);
    expect(filterReferrals(rows, '0.02200000').map((r) => r.username)).toEqual(['miner23']);
    expect(filterReferrals(rows, 'nobody')).toEqual([]);
  });

  it('pages by 10: 23 rows make 3 pages', () => {
    const last = pageOf(rows, REFERRALS_PAGE_SIZE, 3);
    expect(last.window.pageCount).toBe(3);
    expect(last.rows.map((r) => r.username)).toEqual(['miner21', 'miner22', 'miner23']);
  });
});
