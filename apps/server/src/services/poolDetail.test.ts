import { describe, expect, it } from 'vitest';
import { accountHashrateSeries } from './mining.js';
import { fromFirstRecord } from './poolDetail.js';

describe('fromFirstRecord', () => {
  const now = new Date('2024-05-06T12:10:00Z');
  const series = accountHashrateSeries(
    [{ start: new Date('2024-05-06T11:30:00Z'), acceptedDifficulty: '1800' }],
    now,
    1,
  );

  it('keeps the whole 24 hours when the first record is older', () => {
    expect(fromFirstRecord(series, new Date('2024-05-01T00:00:00Z'))).toEqual(series);
    expect(fromFirstRecord(series, new Date('2024-05-05T12:30:00Z')).starts).toHaveLength(48);
  });

  it('starts at the half hour the first record falls in, later empty half hours still reading 0', () => {
    const trimmed = fromFirstRecord(series, new Date('2024-05-06T10:59:59Z'));
    expect(trimmed.starts.map((s) => s.toISOString().slice(11, 16))).toEqual(['10:30', '11:00', '11:30', '12:00']);
    expect(trimmed.hashrates).toEqual(['0', '0', '1', '0']);
  });

  it('has no points without any record, or with one newer than the chart', () => {
    expect(fromFirstRecord(series, null)).toEqual({ starts: [], hashrates: [] });
    expect(fromFirstRecord(series, new Date('2024-05-06T12:30:00Z'))).toEqual({ starts: [], hashrates: [] });
  });
});
