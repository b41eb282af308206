import { describe, expect, it } from 'vitest';
import { labelIndexes, yAxisMax, yTickLabels } from './axis';

describe('chart axes', () => {
  it('the y-axis max is the highest value + 30%', () => {
    expect(yAxisMax([1, 5, 10])).toBeCloseTo(13);
    expect(yAxisMax([0.002])).toBeCloseTo(0.0026);
  });

  it('a chart of zeros, or of nothing, still has a scale', () => {
    expect(yAxisMax([0, 0])).toBe(1);
    expect(yAxisMax([])).toBe(1);
    expect(yAxisMax([Number.NaN, 2])).toBeCloseTo(2.6);
  });

  it("writes 14,624,920,674 (a demo network's profit) short and whole: '14.6 G'", () => {
    expect(yTickLabels([14_624_920_674])).toEqual(['14.6 G']);
    // The ticks of a chart whose highest point is that value (+30%): short, complete, one prefix.
    const labels = yTickLabels([0, 5e9, 1e10, 1.5e10]);
    expect(labels).toEqual(['0', '5 G', '10 G', '15 G']);
    for (const label of labels) expect(label.length).toBeLessThanOrEqual(6);
  });

  it('scales every magnitude by thousands and keeps the digits the ticks need', () => {
    expect(yTickLabels([0, 250, 500, 750])).toEqual(['0', '250', '500', '750']);
    expect(yTickLabels([0, 2500, 5000])).toEqual(['0', '2.5 K', '5 K']);
    expect(yTickLabels([0, 0.5e6, 1e6, 1.5e6])).toEqual(['0', '0.5 M', '1 M', '1.5 M']);
    expect(yTickLabels([0, 2e15, 4e15])).toEqual(['0', '2 P', '4 P']);
    expect(yTickLabels([0, 0.25, 0.5])).toEqual(['0', '0.25', '0.5']);
    expect(yTickLabels([0, 0.00005, 0.0001, 0.00015])).toEqual(['0', '0.00005', '0.0001', '0.00015']);
    // Floating-point noise in a tick (0.1 + 0.2) does not become a 17-digit label.
    expect(yTickLabels([0, 0.1, 0.30000000000000004])).toEqual(['0', '0.1', '0.3']);
    // 999,999 at 1 decimal is 1000.0 K, so it is written in M, as the domain scales hash counts.
    expect(yTickLabels([999_999])).toEqual(['1 M']);
    expect(yTickLabels([0])).toEqual(['0']);
    expect(yTickLabels([])).toEqual([]);
  });

  it('picks x labels that never crowd: at most `max`, evenly spaced, always the last', () => {
    expect(labelIndexes(3)).toEqual([0, 1, 2]);
    expect(labelIndexes(30, 6)).toEqual([5, 11, 17, 23, 29]);
    expect(labelIndexes(48, 19)).toEqual(Array.from({ length: 16 }, (_, i) => 2 + 3 * i));
    expect(labelIndexes(30, 2)).toEqual([0, 29]);
    expect(labelIndexes(30, 3)).toEqual([14, 29]);
    expect(labelIndexes(0)).toEqual([]);
    expect(labelIndexes(30, 1)).toEqual([29]);
    for (const [length, max] of [
      [30, 4],
      [42, 7],
      [24, 5],
      [11, 4],
    ] as const) {
      const picked = labelIndexes(length, max);
      expect(picked.length).toBeLessThanOrEqual(max);
      expect(picked.at(-1)).toBe(length - 1);
      const gaps = new Set(picked.slice(1).map((v, i) => v - (picked[i] as number)));
      expect(gaps.size).toBeLessThanOrEqual(1);
    }
  });
});
