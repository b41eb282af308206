import { describe, expect, it } from 'vitest';
import { percentOf, rejectBreakdown, rejectReasonText } from './workerRejects';

describe('one worker’s refused shares', () => {
  it('name each reason the stratum node gives in words', () => {
    expect(rejectReasonText('stale')).toBe('Stale');
    expect(rejectReasonText('duplicate')).toBe('Duplicate');
    expect(rejectReasonText('low-difficulty')).toBe('Low difficulty');
    expect(rejectReasonText('job-not-found')).toBe('Job not found');
    expect(rejectReasonText('ntime-out-of-range')).toBe('Time out of range');
    expect(rejectReasonText('bad-nonce')).toBe('Bad nonce');
    // A reason a newer node sends reads as its code in words, not as nothing.
    expect(rejectReasonText('bad-merkle_root')).toBe('Bad merkle root');
    expect(rejectReasonText('-')).toBe('-');
  });

  it('count each reason and all of them as a part of every share sent, most frequent first', () => {
    const breakdown = rejectBreakdown({ stale: 3, 'low-difficulty': 12, duplicate: 3, 'job-not-found': 2 }, 980);
    expect(breakdown.refused).toBe(20);
    expect(breakdown.total).toBe(1000);
    expect(breakdown.rate).toBe('2.00%');
    expect(breakdown.lines.map((l) => [l.text, l.count, l.percent])).toEqual([
      ['Low difficulty', 12, '1.20%'],
      ['Duplicate', 3, '0.30%'],
      ['Stale', 3, '0.30%'],
      ['Job not found', 2, '0.20%'],
    ]);
  });

  it('read 0% without shares and 100% when nothing was accepted', () => {
    expect(rejectBreakdown({}, 0)).toEqual({ lines: [], refused: 0, total: 0, rate: '0%' });
    expect(rejectBreakdown({}, 50).rate).toBe('0.00%');
    expect(rejectBreakdown({ stale: 4 }, 0).rate).toBe('100.00%');
    expect(percentOf(1, 3)).toBe('33.33%');
  });
});
