import { describe, expect, it } from 'vitest';
import { areaPath, chartPoints, formatTick, labelIndexes, linePath, nearestIndex, yAxisMax, yTicks } from './chart';

describe('line chart geometry', () => {
  it('the y-axis max is the highest value + 30%', () => {
    expect(yAxisMax([1, 5, 10])).toBeCloseTo(13);
    expect(yAxisMax([0.002])).toBeCloseTo(0.0026);
  });

  it('a chart of zeros, or of nothing, still has a scale', () => {
    expect(yAxisMax([0, 0])).toBe(1);
    expect(yAxisMax([])).toBe(1);
    expect(yAxisMax([Number.NaN, 2])).toBeCloseTo(2.6);
  });

  it('places points left to right, bottom to top', () => {
    const points = chartPoints([0, 5, 10], 200, 100, 10);
    expect(points).toEqual([
      { x: 0, y: 100 },
      { x: 100, y: 50 },
      { x: 200, y: 0 },
    ]);
    expect(chartPoints([3], 200, 100, 6)).toEqual([{ x: 100, y: 50 }]);
    expect(linePath(points)).toBe('M0,100 L100,50 L200,0');
    expect(areaPath(points, 100)).toBe('M0,100 L100,50 L200,0 L200,100 L0,100 Z');
    expect(areaPath([], 100)).toBe('');
  });

  it('ticks and labels', () => {
    expect(yTicks(13)).toEqual([0, 3.25, 6.5, 9.75, 13]);
    expect(formatTick(1250, 1300)).toBe('1,250');
    expect(formatTick(3.25, 13)).toBe('3.25');
    expect(formatTick(0.00065, 0.0026)).toBe('0.00065');
    expect(labelIndexes(3)).toEqual([0, 1, 2]);
    const many = labelIndexes(30, 6);
    expect(many[0]).toBe(0);
    expect(many.at(-1)).toBe(29);
    expect(many.length).toBeLessThanOrEqual(6);
  });

  it('finds the point under the pointer', () => {
    expect(nearestIndex(0, 200, 3)).toBe(0);
    expect(nearestIndex(90, 200, 3)).toBe(1);
    expect(nearestIndex(500, 200, 3)).toBe(2);
    expect(nearestIndex(-5, 200, 3)).toBe(0);
    expect(nearestIndex(50, 200, 1)).toBe(0);
  });
});
